"""The pre-push hook starts its ``git log`` walks before the gate's imports
(``test_push_gate`` shows they replace the walk and the commits' own diffs), and the gate
decides exactly as without them.

* Every push (new refs, an existing ref, refs sharing commits, a human's commit, one
  already on the remote, a deletion, the notes ref, a tag, a URL that is no configured
  remote) gives the same exit code and the same lines with the early walks as without.
* Input the gate refuses, and a push sending no commit, start no walk.

Real repositories, a real bare remote; nothing is mocked.
"""

from __future__ import annotations

import os

import pytest

from gentle_hooks.git import probe
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.hooks.push_early import start_walks
from gentle_hooks.hooks.push_gate import push_gate
from tests.e2e.conftest import World

V2 = "def add(a, b):\n    return a + b  # v2\n"
ZERO = "0" * 40


def _gate(
    world: World, lines: list[str], early: bool, remote: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    probe.forget()
    call = HookCall(
        "pre-push",
        (remote, str(world.remote)),
        "".join(f"{x}\n" for x in lines).encode(),
        False,
        None,
    )
    env = {**os.environ, "GENTLE_HOOKS_FORMAT": "json"}
    walks = start_walks(call, env) if early else None
    try:
        code = push_gate(call, env, walks)
    finally:
        if walks is not None:
            walks.close()
    return code, capsys.readouterr().err


def test_the_early_walks_decide_every_push_as_without_them(
    native: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = native.unverified(V2)
    second = native.unverified(V2.replace("v2", "v3"), message="writer: second")
    native.ok("switch", "-q", "-c", "human", "main~2")
    native.write("README.md", "# demo, by a human\n")
    native.ok("commit", "-q", "-a", "-m", "human: readme")
    human = native.rev("HEAD")
    native.ok("switch", "-q", "main")
    native.ok("tag", "-a", "-m", "release", "v1", second)
    tag = native.rev("v1")
    pushed = native.rev("origin/main")
    pushes = [
        [f"refs/heads/main {second} refs/heads/a {ZERO}"],
        [f"refs/heads/main {second} refs/heads/main {pushed}"],
        [
            f"refs/heads/main {second} refs/heads/c {first}",
            f"refs/heads/main {first} refs/heads/a {ZERO}",
            f"refs/heads/main {second} refs/heads/b {ZERO}",
            f"refs/heads/human {human} refs/heads/d {ZERO}",
            f"refs/heads/main {pushed} refs/heads/e {ZERO}",
        ],
        [f"refs/heads/human {human} refs/heads/h {ZERO}"],
        [f"(delete) {ZERO} refs/heads/gone {pushed}", f"refs/tags/v1 {tag} refs/tags/v1 {ZERO}"],
        [f"refs/notes/gentle-hooks {second} refs/notes/gentle-hooks {ZERO}"],
    ]
    monkeypatch.chdir(native.work)
    for remote in ("origin", str(native.remote)):
        for lines in pushes:
            without = _gate(native, lines, False, remote, capsys)
            with_walks = _gate(native, lines, True, remote, capsys)
            assert with_walks == without, lines
            assert without[0] in (0, 1)
    assert _gate(native, pushes[0], False, "origin", capsys)[0] == 1  # judged: blocked


def test_no_walk_starts_for_input_the_gate_refuses_or_without_commits() -> None:
    for stdin in (b"not four fields\n", b"", f"(delete) {ZERO} refs/heads/x {'1' * 40}\n".encode()):
        call = HookCall("pre-push", ("origin",), stdin, False, None)
        assert start_walks(call, dict(os.environ)) is None, stdin
