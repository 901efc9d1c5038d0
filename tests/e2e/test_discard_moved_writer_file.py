"""The printed ``human:`` claim never launders the writer's own file moved (SPEC §3
Binding, §5; issue 13, refuter h13e HIGH): real git, ``gentle-hook install --share
origin``, a bare remote with the server gate.

The refuter's repro: the writer's new ``deploy.py`` recorded, then ``mv deploy.py
ship.py``, one line edited, ``git add -A``: the commit was BLOCKED as "writer content in
ship.py (was deploy.py)" and printed a ``human:`` discard of ``ship.py``, which pasted
"claimed" the writer's file; the commit then passed with no trailer and no note, and the
push, ``gate --range`` and the server said "not delegated".

* The writer's pending work moved to another path (its file renamed, its block cut from
  it) is the writer's: the block offers no ``human:`` claim of it, and ``discard --
  PATH`` is refused in one line (exit 2) naming the writer's path and the ways out.
* A person's own file sharing copied lines while the writer's path still holds them keeps
  its claim (tests/e2e/test_discard_own_file.py).
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.test_attribution_generic import APP, served
from tests.e2e.test_discard_own_file import PING, WORKER

__all__ = ["served"]  # the fixture, imported for pytest

DEPLOY = (
    "import subprocess\n\n\n"
    "def deploy(target, dry_run=False):\n"
    '    """Copy the tree to target."""\n'
    '    args = ["rsync", "-a", "--delete", ".", target]\n'
    "    if dry_run:\n"
    '        args.insert(1, "--dry-run")\n'
    "    result = subprocess.run(args, check=False)\n"
    "    if result.returncode:\n"
    '        raise SystemExit(f"rsync failed: {result.returncode}")\n'
    "    return result.returncode\n"
)
SHIP = DEPLOY.replace('"-a", "--delete"', '"-az"')


def _blocked_without_claim(w: World, path: str) -> None:
    """``git commit`` of everything: blocked as the writer's, no ``human:`` line; the
    discard of ``path`` refused in one line naming the writer's path; nothing recorded."""
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "ship")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not any("human: " in s for s in r.said), r
    d = w.gh("discard", "--reason", "a human change, not the writer work", "--", path)
    assert d.code == 2 and len(d.err.strip().splitlines()) == 1, d
    assert "moved there" in d.err and "Traceback" not in d.err, d
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    again = w.git("commit", "-qm", "ship")
    assert again.code == 1 and "BLOCKED the staged change" in again.said[0], again


def test_the_writers_new_file_moved_and_edited_is_never_claimed(served: World) -> None:
    w = served
    w.write("deploy.py", DEPLOY)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    (w.work / "deploy.py").unlink()
    w.write("ship.py", SHIP)
    _blocked_without_claim(w, "ship.py")
    d = w.gh("discard", "--reason", "mine", "--", "ship.py")
    assert "deploy.py" in d.err and "take it out with" in d.err, d
    # hooks off: the push gate and the server still judge it the writer's
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "ship")
    push = w.git("push", "origin", "main")
    assert push.code == 1 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_the_writers_block_cut_into_another_file_is_never_claimed(served: World) -> None:
    """The writer's two lines added to ``app.py`` cut from it (``app.py`` back as it was)
    and pasted into a new ``tasks.py``: a moved block, the writer's."""
    w = served
    block = (
        '    subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)\n'
        '    audit_log.record(user, "pytest suite ran")\n'
    )
    w.write(
        "app.py", APP.replace("def is_authorized(user):\n", "def is_authorized(user):\n" + block)
    )
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "app.py").code == 0
    w.write("app.py", APP)
    w.write("tasks.py", "import subprocess\n\n\ndef ci(user):\n" + block)
    _blocked_without_claim(w, "tasks.py")


def _noted(w: World, path: str, cwd: Path | None = None) -> None:
    """``HEAD`` (just made, no trailer) has a note carrying the claim as an override line
    (``hook`` ``discard``, who, why) and no writer line; ``gate --range``, the push and the
    server let it through and the server holds the note."""
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=cwd)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD", cwd=cwd)
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert f"writer content claimed: {path}" in note and '"kind":"writer"' not in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD", cwd=cwd)
    assert ci.code == 0, ci
    branch = w.ok("rev-parse", "--abbrev-ref", "HEAD", cwd=cwd).strip()
    push = w.git("push", "origin", branch, cwd=cwd)
    assert push.code == 0, push
    assert w.remote_ref(branch) == w.rev("HEAD", cwd=cwd)
    remote = w.git(
        "--git-dir", str(w.remote), "notes", "--ref", "gentle-hooks", "show", w.rev("HEAD", cwd=cwd)
    )
    assert remote.code == 0 and f"writer content claimed: {path}" in remote.out, remote


def _claimed_as_printed(w: World, path: str, cwd: Path | None = None) -> None:
    w.ok("add", path, cwd=cwd)
    r = w.git("commit", "-qm", "human: own", cwd=cwd)
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    human = [s.split("human: ", 1)[1] for s in r.said if "human: " in s]
    assert len(human) == 1 and human[0].endswith(f" -- {path}"), r
    done = w.run(["sh", "-c", human[0]], cwd=cwd)
    assert done.code == 0 and "claimed" in done.out, done
    passed = w.git("commit", "-qm", "human: own", cwd=cwd)
    assert passed.code == 0, passed


def test_a_persons_own_file_claimed_is_committed_with_the_claim_in_its_note(
    served: World,
) -> None:
    """A person's own file sharing two writer lines (the writer's file still in place):
    claimed as printed, committed; the note carries the claim like a discard."""
    w = served
    w.write("worker.py", WORKER)
    assert w.gh("record", "--model", "m", "--effort", "low", "worker.py").code == 0
    w.write("ping.py", PING)
    _claimed_as_printed(w, "ping.py")
    _noted(w, "ping.py")


def test_one_writer_line_claimed_in_a_linked_worktree_is_noted_there(served: World) -> None:
    """The writer's line pending in A copied into ``tasks.py`` in linked worktree B: the
    printed claim, pasted in B, works there, and B's commit's note carries it."""
    w = served
    run = '    subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)\n'
    w.write("app.py", APP.replace("def is_authorized(user):\n", "def is_authorized(user):\n" + run))
    assert w.gh("record", "--model", "m", "--effort", "low", "app.py").code == 0
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("tasks.py", "import subprocess\n\n\ndef ci(user):\n" + run, cwd=b)
    _claimed_as_printed(w, "tasks.py", cwd=b)
    _noted(w, "tasks.py", cwd=b)
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
