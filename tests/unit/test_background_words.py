"""Which shell commands leave a process running after the call returns
(:mod:`gentle_hooks.agents.background`; docs/agents/claude-code.md, "A command that runs in
the background")."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.background import is_background, leaves_process


@pytest.mark.parametrize(
    "command",
    [
        "(sleep 2; sed -i s/a/b/ app.py) &",
        "nohup python serve.py",
        "setsid ./gen.sh",
        "make watch & disown",
        "X=1 nohup ./gen.sh > log 2>&1",
        "true; /usr/bin/nohup ./gen.sh",
        "echo $(sleep 1 &)",
        "sleep 1 &\nwait",
        'echo "unterminated',
    ],
)
def test_a_command_that_leaves_a_process_behind(command: str) -> None:
    assert leaves_process(command)


@pytest.mark.parametrize(
    "command",
    [
        "a && b",
        "make 2>&1 | tee log",
        "cmd &> log",
        "cmd >&2",
        "a |& b",
        'echo "a & b"',
        "echo 'nohup &'",
        "echo nohup",
        "echo a\\&b",
        "# sleep &\nls",
        "sed -i s/x/y/ f.py",
        "a || b",
    ],
)
def test_a_command_that_does_not(command: str) -> None:
    assert not leaves_process(command)


def test_the_runtimes_flags() -> None:
    assert is_background({"command": "ls", "run_in_background": True})
    assert is_background({"command": "ls", "is_background": True})
    assert not is_background({"command": "ls", "run_in_background": False})
    assert not is_background({"command": "ls", "is_background": "true"})
    assert not is_background(["ls &"])
