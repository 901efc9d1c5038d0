"""Two clones of one remote, both set up with ``install --share origin`` (SPEC §8: the notes
reach the remote with the user's ordinary ``git push``): a person's plain ``git push`` in the
clone whose notes are behind the remote's succeeds, and the notes on the remote then hold
both clones' records (issue 14). Real git, ``gentle-hook install``, a bare remote."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World

NOTES = "refs/notes/gentle-hooks"
OLD_REFSPEC = "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*"


def _verified_push(w: World, text: str, message: str) -> str:
    """A writer's verified commit of ``src/app.py`` in the first clone, pushed; its id."""
    w.delegate(text=text)
    w.spot_check()
    w.ok("commit", "-qam", message)
    pushed = w.git("push", "-q")
    assert pushed.code == 0, pushed
    return w.rev("HEAD")


def _second_clone(w: World) -> Path:
    other = w.base / "other"
    w.ok("clone", "-q", str(w.remote), str(other), cwd=w.base)
    shared = w.gh("install", "--share", "origin", cwd=other)
    assert shared.code == 0, shared
    return other


def _noted(w: World, commit: str) -> bool:
    shown = w.git("notes", "--ref", "gentle-hooks", "show", commit, cwd=w.remote)
    return shown.code == 0


def test_a_persons_plain_push_behind_the_remotes_notes_succeeds(native: World) -> None:
    w = native
    assert w.gh("install", "--share", "origin").code == 0
    first = _verified_push(w, "def add(a, b):\n    return a + b  # w1\n", "writer: w1")
    other = _second_clone(w)
    second = _verified_push(w, "def add(a, b):\n    return a + b  # w2\n", "writer: w2")
    w.ok("pull", "-q", cwd=other)
    w.write("HUMAN.md", "hi\n", cwd=other)
    w.ok("add", "HUMAN.md", cwd=other)
    w.ok("commit", "-qm", "human doc", cwd=other)
    pushed = w.git("push", cwd=other)
    assert pushed.code == 0, pushed
    assert "rejected" not in pushed.err, pushed
    human = w.rev("HEAD", cwd=other)
    assert w.remote_ref("refs/heads/main") == human
    assert _noted(w, first) and _noted(w, second)  # nothing of A's notes was lost
    assert not _noted(w, human)  # a person's commit is not labelled as AI work
    # the remote's notes are the clone's, merged: the next push has nothing to reconcile
    assert w.remote_ref(NOTES) == w.rev(NOTES, cwd=other)
    # CI in a fresh clone judges the range from the shared notes
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    w.ok("fetch", "-q", "origin", f"+{NOTES}:{NOTES}", cwd=ci)
    gate = w.gh("gate", "--range", f"{first}~1..HEAD", cwd=ci)
    assert gate.code == 0, gate


def test_a_hooks_off_push_sends_the_branch_and_a_plain_push_the_notes(native: World) -> None:
    # no gate ran, so no notes went: the branch still goes; a plain `git push` then, with
    # the branch up to date, runs the gate, which sends the notes (as `sync push` does)
    w = native
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text="def add(a, b):\n    return a + b  # w1\n")
    w.spot_check()
    w.ok("commit", "-qam", "writer: w1")
    pushed = w.git("push", "--no-verify")
    assert pushed.code == 0, pushed
    assert w.remote_ref("refs/heads/main") == w.rev("HEAD")
    assert w.remote_ref(NOTES) is None
    again = w.git("push")
    assert again.code == 0, again
    assert _noted(w, w.rev("HEAD"))


def test_install_share_adds_no_push_refspec_and_replaces_its_old_one(native: World) -> None:
    w = native
    r = w.gh("install", "--share", "origin")
    assert r.code == 0, r
    assert w.git("config", "--get-all", "remote.origin.push").out == ""
    assert w.ok("config", "--get-all", "gentle-hooks.shareWith") == "origin\n"
    assert "notes: the push gate sends them to origin with each push it lets through" in r.out
    assert w.gh("uninstall").code == 0
    # what an earlier install --share added: HEAD and the notes push refspec
    for value in ("HEAD", OLD_REFSPEC):
        w.ok("config", "--add", "remote.origin.push", value)
        w.ok("config", "--add", "gentle-hooks.added", f"remote.origin.push={value}")
    doctor = w.gh("doctor")
    fix = "run: gentle-hook install --share origin --notes-only"
    [line] = [ln for ln in doctor.out.splitlines() if fix in ln]
    assert line.startswith("FAIL  notes: remote.origin.push carries the notes refspec"), line
    again = w.run(["sh", "-c", line.split("run: ", 1)[1]])  # pasted as printed
    assert again.code == 0, again
    assert f"git config: removed remote.origin.push = {OLD_REFSPEC}" in again.out, again
    assert "git config: removed remote.origin.push = HEAD" in again.out, again
    assert w.git("config", "--get-all", "remote.origin.push").out == ""
    assert w.ok("config", "--get-all", "gentle-hooks.shareWith") == "origin\n"
    assert fix not in w.gh("doctor").out
