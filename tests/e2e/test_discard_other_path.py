"""A person in linked worktree B whose own file holds one line of the writer's pending work in
worktree A discards it (``--all``, or the claim the block prints in a ``human:`` line), and
then commits and pushes as a human from either worktree, while the writer's own path stays
the writer's
(SPEC §3 "Pending work ends cleanly"; issue 13; :func:`gentle_hooks.services.change_facts.
across_only`): real git, ``gentle-hook install --share origin``, a bare remote with the
server gate.

Refuter r13l (h1): after ``discard --all`` in B the commit passed, but its note (written at
the push) recorded a writer commit "in app.py", a file the commit never touches, so the push,
``gate --range`` and the server blocked it; and the block printed no ``human:`` line.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.test_attribution_generic import APP, record, served

__all__ = ["served"]  # the fixture, imported for pytest

RUN = '    subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)\n'
TASKS = "import subprocess\n\n\ndef ci():\n" + RUN


def _person_in_b(w: World, printed: bool = False) -> Path:
    """The writer's edit of ``app.py`` pending in the first worktree; linked worktree ``b``
    (branch ``topic``) where a person writes ``tasks.py`` holding the writer's line; the
    commit there blocked, then ``discard --all`` run there (the refuter's way), or with
    ``printed`` the ``human:`` line the block prints (a claim of ``tasks.py``)."""
    w.write("app.py", APP + "\n\ndef run_tests():\n" + RUN)
    record(w)
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("tasks.py", TASKS, cwd=b)
    w.ok("add", "tasks.py", cwd=b)
    r = w.git("commit", "-qm", "human: tasks", cwd=b)
    assert r.code == 1 and "tasks.py (was app.py)" in r.err, r
    human = [ln.split("human: ", 1)[1] for ln in r.said if "human: " in ln]
    assert len(human) == 1 and human[0].endswith(" -- tasks.py"), r
    if printed:
        done = w.run(["sh", "-c", human[0]], cwd=b)  # pasted as printed
    else:
        done = w.gh("discard", "--all", "--reason", "my own line", cwd=b)
    assert done.code == 0, done
    w.person_commits("-qm", "human: tasks", cwd=b)
    return b


def _delivered(w: World, b: Path, cwd: Path, noted: bool = True) -> None:
    """The person's commit passes ``gate --range`` and the push (its gate and the server's)
    from ``cwd``; its note carries no writer line, and (``noted``: a discard that ended the
    writer's entry) the discard as an override line naming where it is held."""
    gate = w.gh("gate", "--range", "origin/main..topic", cwd=cwd)
    assert gate.code == 0, gate
    push = w.git("push", "origin", "topic", cwd=cwd)
    assert push.code == 0, push
    assert w.remote_ref("topic") == w.rev("HEAD", cwd=b)
    note = w.git("notes", "--ref", "gentle-hooks", "show", "topic", cwd=cwd)
    assert '"kind":"writer"' not in note.out and "Gentle-Writer" not in note.out, note
    if noted:
        assert '"hook":"discard"' in note.out and "tasks.py (was app.py)" in note.out, note


def test_a_persons_file_in_a_linked_worktree_discarded_there_is_pushed_from_there(
    served: World,
) -> None:
    w = served
    b = _person_in_b(w)
    _delivered(w, b, b)


def test_a_persons_file_discarded_in_a_linked_worktree_is_pushed_from_the_writers(
    served: World,
) -> None:
    w = served
    b = _person_in_b(w)
    _delivered(w, b, w.work)


def test_the_writers_own_path_stays_the_writers_after_the_persons_discard(
    served: World,
) -> None:
    """The discard in B ended A's entry; A's writer still committing ``app.py`` holds the
    writer's own lines at the writer's path: blocked at the commit, and with hooks off at
    the push and the server."""
    w = served
    _person_in_b(w)
    r = w.git("commit", "-qam", "writer", cwd=w.work)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "writer")
    bad = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and f"BLOCKED commit {bad[:12]}" in push.err, push
    forced = w.git("push", "-q", "--no-verify", "origin", "main", "refs/notes/gentle-hooks")
    assert forced.code != 0 and f"BLOCKED {bad[:12]}" in forced.err, forced
    assert w.remote_ref("main") != bad


def test_the_printed_claim_in_a_linked_worktree_is_pushed_from_there(served: World) -> None:
    """The ``human:`` line the block prints in B claims the one writer line ``tasks.py``
    holds; the writer's work in the first worktree stays pending."""
    w = served
    b = _person_in_b(w, printed=True)
    _delivered(w, b, b, noted=False)
    assert "app.py" in w.gh("status").out
