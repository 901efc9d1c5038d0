"""``git commit -a`` of a change whose declared verification command rewrites a report the
repository tracks (``pytest --junitxml report.xml``, ``report.xml`` committed): the block's
printed commands, pasted in order, then the same ``git commit -a``, let it through. Each
run rewrites ``report.xml`` and ``-a`` stages it, so the spot check binds also the
candidate with the report as its re-run left it in the work tree (SPEC §5 "Spot check";
:mod:`gentle_hooks.policy.outputs`: a report the command names is the run's output, not
what it tested). Real git, ``gentle-hook install``, real pytest.
"""

from __future__ import annotations

import json
import shlex
import sys

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return b + a\n"
#: The repository's one declared verification command: it rewrites the tracked report.
DECLARED = (
    sys.executable,
    *("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml", "report.xml"),
)


def _runs(said: list[str]) -> list[str]:
    """The ``run:`` lines of a block's first way out (up to an ``otherwise`` line)."""
    found: list[str] = []
    for line in said:
        words = line.removeprefix("gentle-hooks:").strip()
        if words.startswith("otherwise"):
            break
        assert not words.startswith("prefix: "), said  # the declared command is named
        if words.startswith("run: "):
            found.append(words.removeprefix("run: "))
    return found


def test_commit_all_with_a_tracked_report_passes_after_the_printed_commands(
    native: World,
) -> None:
    w = native
    toml = f"[verification]\ncommands = [{json.dumps(shlex.join(DECLARED))}]\n"
    w.human_base({".gentle-hooks.toml": toml, "report.xml": "<testsuites/>\n"})
    w.ok("push", "-q", "origin", "main")  # the declared commands are the base's
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    blocked = w.git("commit", "-qam", "writer")
    assert blocked.code == 1, blocked
    runs = _runs(blocked.said)
    assert runs[-2:] == [
        f"gentle-hook receipt run --staged -- {shlex.join(DECLARED)}",
        "gentle-hook spot-check --staged",
    ], blocked
    for line in runs:
        done = w.run(["sh", "-c", line])
        assert done.code == 0, (line, done)
    assert w.ok("status", "--porcelain", "report.xml") == " M report.xml\n"  # the run's report
    again = w.git("commit", "-qam", "writer")
    assert again.code == 0, again
    assert w.ok("status", "--porcelain") == ""
    assert "<testsuite " in w.ok("show", "HEAD:report.xml")  # a run's report, committed
