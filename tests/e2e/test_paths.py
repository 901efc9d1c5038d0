"""Awkward paths through installed hooks: spaces, unicode and a newline go through
the commit gate, the spot check, the push gate and the remote unharmed."""

from __future__ import annotations

import os

from tests.e2e.conftest import World

FILES = {
    "src/with space.py": "SPACE = 1\n",
    "src/ünïcödé.py": "UNICODE = 'ü'\n",
    "src/new\nline.py": "NEWLINE = 2\n",
}


def test_paths_with_spaces_unicode_and_a_newline(world: World) -> None:
    for rel, text in FILES.items():
        world.write(rel, text)
    world.delegate()
    world.ok("add", "-A")
    blocked = world.git("commit", "-m", "writer: awkward names")
    assert blocked.code == 1, blocked
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    world.spot_check("--staged")
    r = world.git("commit", "-m", "writer: awkward names")
    assert r.code == 0, r
    push = world.git("push", "origin", "main")
    assert push.code == 0, push

    listed = world.run(["git", "ls-tree", "-r", "-z", "--name-only", "main"], cwd=world.remote)
    names = {os.fsdecode(n) for n in listed.out.encode("utf-8").split(b"\0") if n}
    assert set(FILES) <= names
    for rel, text in FILES.items():
        shown = world.run(["git", "cat-file", "blob", f"main:{rel}"], cwd=world.remote)
        assert (shown.code, shown.out) == (0, text)
        assert (world.work / rel).read_text(encoding="utf-8") == text
    world.assert_clean()
