"""An escalation stays with the writer work it was made for (SPEC §5 "Escalation": sticky
for the root's pending work until that work is committed): once that work is gone (its
content nowhere, expired, then ``discard --all``) a later, unrelated writer change of the
same work tree is not escalated; the same work's content brought back, or more writer work
while it is still in flight, still is (issue 14, refuter r14u: "plan risk high (escalated:
2 security)" outlived the work it was for, and nothing withdrew it). Real git,
``gentle-hook install``, the installed CLI.
"""

from __future__ import annotations

from tests.e2e.conftest import World

TOKENS = "def add(a, b):\n    return a + b\n\n\ndef check_token(t):\n    return bool(t)\n"


def _escalated_work(w: World) -> None:
    """The writer's token check, recorded and escalated (item 2, security)."""
    w.write("src/app.py", TOKENS)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.escalate()
    assert "risk: high" in w.gh("assess").out


def _gone(w: World) -> None:
    """The writer's content put back out of the work tree: its work expires."""
    w.ok("checkout", "--", "src/app.py")
    status = w.gh("status")
    assert "pending writer work on src/app.py expired" in status.err + status.out, status


def _risk(w: World) -> str:
    out = w.gh("assess").out
    return out.splitlines()[0]


def test_an_escalation_ends_with_its_work_and_never_reaches_later_work(native: World) -> None:
    w = native
    _escalated_work(w)
    _gone(w)
    w.gh("discard", "--all", "--reason", "abandoned")  # nothing pending is left to discard
    w.write("src/other.py", "X = 1\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert _risk(w).startswith("risk: medium"), w.gh("assess")
    w.report()
    w.spot_check()
    w.ok("add", "-A")
    done = w.git("commit", "-qm", "writer: other")
    assert done.code == 0, done


def test_an_expired_escalated_works_content_brought_back_is_still_escalated(
    native: World,
) -> None:
    w = native
    _escalated_work(w)
    _gone(w)
    w.write("src/app.py", TOKENS)
    assert _risk(w).startswith("risk: high"), w.gh("assess")


def test_more_writer_work_while_the_escalated_work_is_in_flight_is_escalated(
    native: World,
) -> None:
    w = native
    _escalated_work(w)
    w.write("src/other.py", "X = 1\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/other.py")
    staged = w.gh("assess", "--staged")
    assert staged.out.startswith("risk: high"), staged
