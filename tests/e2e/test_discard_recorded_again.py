"""The writer writing its content again after ``git reset --hard`` threw it away, recorded
with the generic ``gentle-hook record`` (no runtime payload), is a new write (SPEC §3
"Attribution follows content", "Pending work ends cleanly"; issue 13): recorded and gated
like the first, never a person's retyping that a ``discard`` may claim.

Real git, ``gentle-hook install``, a bare remote with the server gate. The runtime form
(tests/e2e/test_discard_written_again.py) hands the file before the call; the generic
``record`` names its paths (or every path that differs from ``HEAD``) and no start: its
first write is recorded; ``git reset --hard`` throws it away; the same content written and
recorded again was "already recorded (mutation #1)" (or, with paths named, "no path
differs from where the writer started"), and the block offered the ``human:`` discard of
the first entry, accepted. Now the second record is a new mutation, the commit is blocked
with no ``human:`` offer, a discard is refused, the spot check is the way through. With
nothing thrown away between, the record repeated is still the same write, recorded once.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.written_again import BASE, PATH, WRITER, gated_until_spot_checked

#: ``record`` as the writer runs it: every path that differs from HEAD, or the path named.
FORMS = {"changed-paths": (), "path-named": (PATH,)}


def _record(w: World, paths: tuple[str, ...]) -> str:
    """``gentle-hook record`` of the writer (o4-mini, low); what it said."""
    r = w.gh("record", "--model", "o4-mini", "--effort", "low", *paths)
    assert r.code == 0, r
    return r.out + r.err


@pytest.mark.parametrize("paths", FORMS.values(), ids=FORMS.keys())
def test_the_writer_recording_again_after_a_hard_reset_is_gated(
    native: World, paths: tuple[str, ...]
) -> None:
    w = native.serve({PATH: BASE})
    w.write(PATH, WRITER)
    assert "recorded: pending mutation #1" in _record(w, paths)
    w.ok("reset", "-q", "--hard")
    w.write(PATH, WRITER)
    said = _record(w, paths)
    assert "already recorded" not in said and "no path differs" not in said, said
    assert "recorded: pending mutation #2" in said, said
    gated_until_spot_checked(w, "o4-mini/low")


@pytest.mark.parametrize("paths", FORMS.values(), ids=FORMS.keys())
def test_the_record_repeated_with_nothing_thrown_away_is_recorded_once(
    native: World, paths: tuple[str, ...]
) -> None:
    w = native.serve({PATH: BASE})
    w.write(PATH, WRITER)
    assert "recorded: pending mutation #1" in _record(w, paths)
    w.write(PATH, WRITER)  # the same bytes written over the file: nothing thrown away
    said = _record(w, paths)
    assert "recorded: pending mutation #2" not in said, said
    assert w.ledger("SELECT count(*) FROM pending_mutation") == [(1,)]
