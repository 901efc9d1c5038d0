"""The "report again" way out of a commit block names only a command the writer reported
for this change (SPEC §7: what a block prints gets the user out and keeps the binding of
the candidate it talks about): a command reported for work delivered before this change
started is no test of it, so pasting it would count an unrelated run as the writer's report.
"""

from __future__ import annotations

from tests.e2e.conftest import World

OLD = ("python3", "-c", "import half; assert half.half(4) == 2")


def _block(w: World) -> list[str]:
    blocked = w.git("commit", "-q", "-m", "writer: seven")
    assert blocked.code == 1, blocked
    return blocked.err.splitlines()


def _half_delivered(w: World) -> None:
    """Earlier writer work, reported with :data:`OLD`, spot-checked and committed."""
    w.write("half.py", "def half(x):\n    return x // 2\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "half.py")
    assert w.gh("receipt", "run", "--staged", "--", *OLD).code == 0
    w.spot_check("--staged")
    w.ok("commit", "-q", "-m", "writer: half")


def test_a_command_reported_for_earlier_work_is_not_offered(native: World) -> None:
    w = native
    _half_delivered(w)
    # new writer work the old command does not test
    w.write("seven.py", "import helper\n\nSEVEN = helper.seven()\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "seven.py")
    said = _block(w)
    runs = [line for line in said if "run: " in line and "receipt run" in line]
    assert not runs, said
    assert any("prefix: " in line and "receipt run" in line for line in said), said


def test_this_change_reported_for_another_candidate_is_offered(native: World) -> None:
    w = native
    w.write("seven.py", "SEVEN = 7\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    check = ("python3", "-c", "import seven; assert seven.SEVEN == 7")
    assert w.gh("receipt", "run", "--", *check).code == 0  # bound to the work tree
    w.write("notes.txt", "a file added since\n")
    w.ok("add", "seven.py", "notes.txt")
    said = _block(w)
    again = [line for line in said if "run: " in line and "receipt run" in line]
    assert again and "import seven" in again[0], said


def test_the_spot_check_the_block_prints_offers_no_command_reported_for_earlier_work(
    native: World,
) -> None:
    """The block's ``spot-check --staged`` line, run with no receipt for this candidate,
    names the report to make: never a command reported for work delivered before this
    change (refuter r14n: it offered the old ``import half`` check, and pasting it let
    broken new work through as verified)."""
    w = native
    _half_delivered(w)
    w.write("seven.py", "import helper\n\nSEVEN = helper.seven()\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "seven.py")
    _block(w)
    spot = w.gh("spot-check", "--staged")
    assert spot.code == 2, spot
    assert "import half" not in spot.out + spot.err, spot
    assert "reported last" not in spot.out + spot.err, spot
