"""A report or re-run whose command never started (a shell's exit 126/127: the tool not on
the PATH it ran with, or not executable) is worded as where it ran, not as a wrong change
(issue 14): the block and the spot check's refusal say the command could not run there,
never "fix the change"."""

from __future__ import annotations

import os
from pathlib import Path

from tests.e2e.conftest import World

V2 = "def add(a, b):\n    return a + b  # v2\n"
NOT_FOUND = "exit 127: no such command was found on the PATH it ran with"


def _tool(w: World) -> dict[str, str]:
    """A ``checktool`` that passes, on the PATH of the environment returned only."""
    tools: Path = w.base / "tools"
    tools.mkdir()
    (tools / "checktool").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    (tools / "checktool").chmod(0o755)
    return {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}


def _staged_writer_change(w: World) -> None:
    w.write("src/app.py", V2)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")


def test_a_re_run_that_could_not_find_its_command_is_not_called_the_changes_fault(
    native: World,
) -> None:
    w = native
    with_tool = _tool(w)
    _staged_writer_change(w)
    reported = w.gh("receipt", "run", "--staged", "--", "sh", "-c", "checktool", env=with_tool)
    assert reported.code == 0, reported
    spot = w.gh("spot-check", "--staged")  # the tool is not on this PATH: sh exits 127
    assert spot.code == 1 and "observed exit 127: DISAGREED" in spot.err, spot
    blocked = w.git("commit", "-q", "-m", "writer: change")
    assert blocked.code == 1, blocked
    said = "\n".join(blocked.said)
    assert f"the re-run's command could not run there ({NOT_FOUND})" in said, said
    assert "not that the change is wrong" in said, said
    assert "fix the code" not in said and "fix the change" not in said, said
    way = "the way out: make the command runnable where the spot check re-runs it"
    assert way in said, said


def test_a_report_that_could_not_find_its_command_says_so_not_fix_the_change(
    native: World,
) -> None:
    w = native
    with_tool = _tool(w)
    _staged_writer_change(w)
    failed = w.gh("receipt", "run", "--staged", "--", "sh", "-c", "checktool")
    assert failed.code == 127, failed
    blocked = w.git("commit", "-q", "-m", "writer: change")
    assert blocked.code == 1, blocked
    said = "\n".join(blocked.said)
    assert f"its command could not run ({NOT_FOUND}): make it runnable there" in said, said
    assert "fix the change" not in said, said
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2, refused
    assert f"its command could not run ({NOT_FOUND})" in refused.err, refused
    assert "fix the change" not in refused.err, refused
    # made runnable, the same report and spot check let the commit through
    assert (
        w.gh("receipt", "run", "--staged", "--", "sh", "-c", "checktool", env=with_tool).code == 0
    )
    assert w.gh("spot-check", "--staged", env=with_tool).code == 0
    assert w.git("commit", "-q", "-m", "writer: change").code == 0
