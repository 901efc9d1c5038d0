"""The server finds writer content in a changed tree (SPEC §3 "Attribution follows
content", §8): a commit that brings in a (path, blob) a note lists as the writer's
(``writes`` lines) is judged by that note, even when its tree is no noted candidate's and
it carries no note and no trailer of its own.

Each row through ``gentle-hook install``, real git, a bare remote with the server gate
(``install --server``) and notes shared with it (``install --share origin``). The writer's
change is committed with hooks off; the server rejects it (plan unmet) and its note reaches
the server (``sync push``, as the rejection prints). Then, every local hook off
(``core.hooksPath=/dev/null``, ``--no-verify``):

* the writer's commit amended with one more file, rebased onto another base, or squashed
  with a person's extra file: the server rejects it, naming the note and the writer's
  file, with the way out of a rewritten commit; ``gate --range`` in a clone with the notes
  and no ledger blocks it too; once spot-checked (the push gate records and shares it),
  the server accepts it;
* human rows, accepted with no "delegated" anywhere: a person's commit bringing back a
  writer's blob its history already held, a person's own file at the writer's path, a
  person's cherry-pick of verified, delivered writer work onto another branch.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.server_rewrites import (
    NEW,
    OFF,
    accepted_as_persons,
    ci_range_gate,
    rejected_and_noted,
)


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _noted_with_writes(w: World) -> str:
    """:func:`rejected_and_noted`, the note on the server listing the writer's file as a
    ``writes`` line. The commit's id."""
    first = rejected_and_noted(w)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", first, cwd=w.remote)
    blob = w.rev(f"{first}:src/app.py")
    assert f'"blob":"{blob}","kind":"writes","path":"src/app.py"' in note, note
    return first


def _changed_tree(w: World, how: str, first: str) -> str:
    """The writer's commit rewritten with a changed tree, every local hook off; the new
    commit (on ``main``)."""
    if how == "amend-extra-file":
        w.write("notes.txt", "by hand\n")
        w.ok("add", "notes.txt")
        w.ok(*OFF, "commit", "-q", "-n", "--amend", "-m", "tidy")
    elif how == "rebase-other-base":
        # a person's commit lands on the remote first; the writer's commit moves onto it
        w.ok("checkout", "-q", "-b", "base", "origin/main")
        w.write("docs.txt", "by hand\n")
        w.ok("add", "docs.txt")
        w.ok(*OFF, "commit", "-q", "-n", "-m", "human: docs")
        assert w.git("push", "--no-verify", "origin", "base:main").code == 0
        w.ok("checkout", "-q", "main")
        w.ok(*OFF, "rebase", "-q", "base")
        assert w.rev("HEAD~1") == w.remote_ref("main")
        w.ok(*OFF, "commit", "-q", "-n", "--amend", "-m", "tidy")  # the trailer dropped
    else:  # squash-extra-file: a person's commit on top, then both squashed into one
        w.write("notes.txt", "by hand\n")
        w.ok("add", "notes.txt")
        w.ok(*OFF, "commit", "-q", "-n", "-m", "human: notes")
        w.ok("reset", "-q", "--soft", "origin/main")
        w.ok(*OFF, "commit", "-q", "-n", "-m", "feature")
    again = w.rev("HEAD")
    assert w.rev(f"{again}^{{tree}}") != w.rev(f"{first}^{{tree}}")
    assert w.rev(f"{again}:src/app.py") == w.rev(f"{first}:src/app.py")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", again)
    assert again not in w.ok("notes", "--ref", "gentle-hooks", "list", cwd=w.remote)
    return again


@pytest.mark.parametrize("how", ["amend-extra-file", "rebase-other-base", "squash-extra-file"])
def test_a_changed_tree_with_hooks_off_is_rejected_by_the_server(served: World, how: str) -> None:
    w = served
    first = _noted_with_writes(w)
    again = _changed_tree(w, how, first)
    before = w.remote_ref("main")

    push = w.git("push", "--no-verify", "origin", "main")
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {again[:12]} on refs/heads/main: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer content this commit brings "
        "in: src/app.py)" in push.err
    ), push
    assert "remote: gentle-hooks: REJECTED refs/heads/main" in push.err
    assert "verify the rewritten commit again" in push.err, push
    assert "gentle-hook spot-check --committed" in push.err, push
    assert w.remote_ref("main") == before

    # CI agrees: a clone with the notes and no ledger blocks it by the same note
    gate = ci_range_gate(w, again)
    assert gate.code == 1, gate
    assert (
        f"BLOCKED {again[:12]} on origin/main..candidate: delegated (a gentle-hooks note of "
        f"{first[:12]} records writer content this commit brings in: src/app.py)" in gate.out
    ), gate

    # the way out: the commit spot-checked, then pushed through the push gate (it records
    # the commit made with hooks off and shares its note)
    w.report("--committed")
    w.spot_check("--committed")
    done = w.git("push", "origin", "main")
    assert (done.code, w.remote_ref("main")) == (0, again), done


def test_a_persons_commit_bringing_back_a_writer_blob_its_history_held_passes(
    native: World,
) -> None:
    # the writer's blob reached the history before the server gate was installed
    w = native
    first = w.unverified(NEW)
    assert w.git("push", "--no-verify", "origin", "main").code == 0
    assert w.gh("install", "--share", "origin").code == 0
    assert w.gh("sync", "push").code == 0
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    w.write("src/app.py", NEW + "# by hand\n")
    w.ok(*OFF, "commit", "-q", "-n", "-am", "human: comment")
    assert w.git("push", "--no-verify", "origin", "main").code == 0
    # the person restores the writer's file as it was, with a change of their own
    w.ok("checkout", first, "--", "src/app.py")
    w.write("README.md", "# demo\n\nrestored\n")
    w.ok(*OFF, "commit", "-q", "-n", "-am", "human: restore app")
    head = w.rev("HEAD")
    assert w.rev(f"{head}:src/app.py") == w.rev(f"{first}:src/app.py")
    accepted_as_persons(w, "main")
    ci = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert ci.code == 0, ci
    assert ci.out.splitlines()[0] == f"ok {head[:12]} on HEAD~1..HEAD: not delegated", ci


def test_a_persons_own_file_at_the_writers_path_passes(served: World) -> None:
    w = served
    _noted_with_writes(w)
    w.ok("reset", "-q", "--hard", "origin/main")
    w.write("src/app.py", "def mul(a, b):\n    return a * b\n")
    w.write("notes.txt", "by hand\n")
    w.ok("add", "-A")
    w.ok(*OFF, "commit", "-q", "-n", "-m", "human: mul")
    accepted_as_persons(w, "main")


def test_a_persons_cherry_pick_of_verified_writer_work_passes(served: World) -> None:
    w = served
    w.ok("push", "-q", "origin", "main:release")
    w.delegate(text=NEW)
    w.spot_check()
    w.ok("add", "-A")
    w.ok("commit", "-qm", "writer: sub")
    writer = w.rev("HEAD")
    w.ok("push", "-q", "origin", "main")
    assert w.remote_ref("main") == writer
    # a person backports it onto the release branch, in a commit of their own
    w.ok("checkout", "-q", "-b", "release", "origin/release")
    w.write("CHANGES.md", "release 1.0\n")
    w.ok("add", "CHANGES.md")
    w.ok(*OFF, "commit", "-q", "-n", "-m", "release: 1.0")
    w.ok(*OFF, "cherry-pick", "-n", writer)
    w.ok(*OFF, "commit", "-q", "-n", "-m", "backport: sub")
    assert w.rev("HEAD:src/app.py") == w.rev(f"{writer}:src/app.py")
    accepted_as_persons(w, "release")
