"""What both server rewrite files share (tests/e2e/test_server_same_tree.py,
tests/e2e/test_server_changed_tree.py), in a world with the server gate and notes shared
with it (each file's ``served`` fixture): the writer's unverified commit
the server rejected, its note then shared."""

from __future__ import annotations

from tests.e2e.conftest import Run, World

#: The writer's change to ``src/app.py``.
NEW = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
#: Every local hook off, as a person or an agent turns them off.
OFF = ("-c", "core.hooksPath=/dev/null")


def rejected_and_noted(w: World) -> str:
    """The writer's unverified commit, rejected by the server; its note then shared with the
    server as the rejection prints (``sync push``). The commit's id."""
    first = w.unverified(NEW)
    push = w.git("push", "--no-verify", "origin", "main")
    assert push.code == 1, push
    assert f"remote: gentle-hooks: BLOCKED {first[:12]} on refs/heads/main" in push.err
    shared = w.gh("sync", "push")
    assert shared.code == 0, shared
    held = w.ok("notes", "--ref", "gentle-hooks", "list", cwd=w.remote)
    assert first in held, held
    return first


def ci_range_gate(w: World, candidate: str) -> Run:
    """``gate --range origin/main..candidate`` in a fresh clone of the remote with its notes
    and no ledger (as CI runs it), ``candidate`` fetched from the work clone."""
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    w.ok("fetch", "-q", "origin", "refs/notes/*:refs/notes/*", cwd=ci)
    w.ok("fetch", "-q", str(w.work), f"{candidate}:refs/heads/candidate", cwd=ci)
    gate = w.gh("gate", "--range", "origin/main..candidate", cwd=ci)
    assert not (ci / ".git" / "gentle-hooks").exists()
    return gate


def accepted_as_persons(w: World, branch: str) -> None:
    """``git push --no-verify origin <branch>`` is accepted, the remote's branch at the local
    one, with no word of delegation or blocking."""
    head = w.rev(branch)
    push = w.git("push", "--no-verify", "origin", branch)
    assert (push.code, w.remote_ref(branch)) == (0, head), push
    assert "delegated" not in push.err and "BLOCKED" not in push.err, push
