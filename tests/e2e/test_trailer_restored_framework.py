"""The ``Gentle-Writer`` trailer the editor takes out comes back under the pre-commit
framework (SPEC §3 "Attribution follows content": amended writer commits keep theirs):
real git, a real ``pre-commit install -t commit-msg -t prepare-commit-msg`` beside the
framework's usual stages, a bare remote with the server gate and notes shared.

Under the framework the message file is the hook's only argument (prepare-commit-msg's
source comes as ``PRE_COMMIT_COMMIT_MSG_SOURCE``) and the hook runs two processes further
from ``git commit``: commit-msg (:func:`gentle_hooks.hooks.trailers.restore_trailers`)
still tells a writer's commit and puts the trailer back, and a human's commit gets none.
The framework shows a passing hook's output only with ``verbose: true``, so the line
saying the trailer was restored is not seen there; the trailer is. Without the commit-msg
stage the same editor leaves the commit without it (the control).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World, build_world
from tests.e2e.test_trailer_restored import DELETES_TRAILER, WRITER


@pytest.fixture
def framework(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> World:
    """A world whose hooks the pre-commit framework installed, the message stages too (as
    the README's install line does); the server gate on the remote, notes shared."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(request.getfixturevalue("pre_commit_home")))
    w = build_world(tmp_path, "pre-commit", request.getfixturevalue("hook_repo"))
    types = ("-t", "commit-msg", "-t", "prepare-commit-msg")
    added = w.run([sys.executable, "-m", "pre_commit", "install", *types])
    assert added.code == 0, added
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    return w


def _trailers(w: World) -> str:
    return w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip()


def _spot_checked_writer_change(w: World) -> None:
    """The writer's change staged, its test reported and the parent's spot check run on it:
    what a writer commit needs to pass."""
    w.delegate(text=WRITER)
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")


def test_a_commit_whose_editor_deletes_the_trailer_keeps_it(framework: World) -> None:
    """The writer's spot-checked commit, its editor deleting the trailer prepare-commit-msg
    added: commit-msg puts it back; the push and the server pass."""
    w = framework
    _spot_checked_writer_change(w)
    r = w.git("commit", "-q", "-e", "-m", "writer: main", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")


def test_an_amend_whose_editor_deletes_the_trailer_keeps_it(framework: World) -> None:
    """``git commit --amend`` of the writer's commit through the same editor: the trailer
    is back, the subject unchanged."""
    w = framework
    _spot_checked_writer_change(w)
    assert w.git("commit", "-qm", "writer: main").code == 0
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    r = w.git("commit", "-q", "--amend", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    assert w.ok("log", "-1", "--format=%s") == "writer: main\n"


def test_a_humans_amend_through_the_same_editor_gets_no_trailer(framework: World) -> None:
    """The same editor on a human's commit, writer work pending in another file: no
    trailer."""
    w = framework
    w.write("README.md", "# demo\n\nA human's note.\n")
    w.ok("add", "README.md")
    assert w.git("commit", "-qm", "human: readme").code == 0
    w.delegate("src/other.py", "def helper():\n    return compute_total(41) + 1\n")
    r = w.git("commit", "-q", "--amend", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert _trailers(w) == ""
    assert w.ok("log", "-1", "--format=%B") == "human: readme\n\n"


def test_without_the_commit_msg_stage_the_editor_takes_the_trailer_out(framework: World) -> None:
    """The control: ``pre-commit uninstall -t commit-msg``, the same writer commit and
    editor: the commit has no trailer (the editor did take it out; commit-msg is what puts
    it back)."""
    w = framework
    removed = w.run([sys.executable, "-m", "pre_commit", "uninstall", "-t", "commit-msg"])
    assert removed.code == 0, removed
    _spot_checked_writer_change(w)
    r = w.git("commit", "-q", "-e", "-m", "writer: main", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert _trailers(w) == ""
