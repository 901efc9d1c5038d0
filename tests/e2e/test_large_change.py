"""A change too large for one command line (SPEC: no file list on a command line):
more bytes of path names than the kernel lets one ``exec`` carry go through the gates."""

from __future__ import annotations

import os

import pytest

from tests.e2e.conftest import World

#: More bytes of path names than one ``exec`` may carry here (ARG_MAX: 2 MiB by default on
#: Linux, a quarter of an 8 MiB stack).
ARG_MAX = os.sysconf("SC_ARG_MAX")
NAME_BYTES = ARG_MAX + ARG_MAX // 10


@pytest.mark.slow
@pytest.mark.skipif(ARG_MAX > 8 * 1024 * 1024, reason=f"ARG_MAX is {ARG_MAX} bytes here")
def test_a_change_larger_than_arg_max_is_judged(world: World) -> None:
    stem = "d" * 180
    count = NAME_BYTES // (len(stem) + 12) + 1
    data = world.work / "data"
    for i in range(count // 500 + 1):
        sub = data / f"{i:04d}"
        sub.mkdir(parents=True)
        for j in range(min(500, count - i * 500)):
            (sub / f"{stem}{j:05d}.txt").write_text(f"{i} {j}\n")
    total = sum(
        len(os.path.join("data", d, f)) + 1 for d in os.listdir(data) for f in os.listdir(data / d)
    )
    assert total > NAME_BYTES
    world.delegate()
    world.ok("add", "-A")
    blocked = world.git("commit", "-q", "-m", "writer: data")
    assert blocked.code == 1, blocked
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    world.spot_check("--staged")
    r = world.git("commit", "-q", "-m", "writer: data")
    assert r.code == 0, r
    push = world.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert world.remote_ref("main") == world.rev("HEAD")
