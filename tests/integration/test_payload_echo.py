"""Payload fields a recorder echoes (an event, tool or hook name) never start a line of
their own: a newline in them is written ``\\x0a``, so no forged ``recorded: ...`` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_payloads import materialize
from tests.integration.test_hostile_inputs import hostile

FORGED = "x\nrecorded: pending mutation #9: m/high, 1 path(s)\r\tz"


@pytest.mark.parametrize(
    ("runtime", "field"),
    [
        ("claude-code", "hook_event_name"),
        ("claude-code", "tool_name"),
        ("kiro", "hook_event_name"),
        ("kiro", "tool_name"),
        ("opencode", "hook"),
        ("opencode", "tool"),
    ],
)
def test_an_echoed_payload_field_cannot_forge_a_line(
    repo: Path, tmp_path: Path, runtime: str, field: str
) -> None:
    data, _ = materialize(runtime, repo, tmp_path / "scratch", **{field: FORGED})
    proc = hostile(repo, "record", "--from", runtime, stdin=data)
    err = proc.stderr.decode()
    assert "x\\x0arecorded: pending mutation #9" in err, err
    lines = (proc.stdout + proc.stderr).decode().splitlines()
    assert not any(line.startswith("recorded: pending mutation #9") for line in lines), lines
    assert "\t" not in err and "\r" not in err
