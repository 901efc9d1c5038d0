"""Which spot checks speak for the candidate they are bound to (SPEC §5 "Spot check": a
re-run runs "on the candidate's exact tree"; §3 "Binding"; issue 14): a re-run of another
candidate's receipt bound here counts when it agreed, and a failure of it refutes only the
tree it re-ran, never this one. Row by row, on a real SQLite ledger."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import Receipt, SpotCheck
from gentle_hooks.ledger.store import Ledger

ID_A = "sha256:" + "a" * 64  # the work tree as the reported run found it (the writer's files)
ID_B = "sha256:" + "b" * 64  # the work tree with the files that run created: re-run there


def _rerun(identity: str, receipt_id: int, reported: int | None, observed: int | None) -> SpotCheck:
    return SpotCheck(
        root="/r",
        identity=identity,
        kind="rerun",
        command="pytest -q",
        agreed=reported == observed == 0,
        counts=True,
        receipt_id=receipt_id,
        reported_exit=reported,
        observed_exit=observed,
    )


ROWS = [
    # (bound to, receipt re-run bound to, reported, observed, speaks for the bound candidate)
    pytest.param(ID_B, ID_B, 0, 1, True, id="own-tree-disagreed-refutes-it"),
    pytest.param(ID_B, ID_B, 0, 0, True, id="own-tree-agreed"),
    pytest.param(ID_A, ID_B, 0, 0, True, id="other-tree-agreed-counts-here-too"),
    pytest.param(ID_A, ID_B, 0, 1, False, id="other-tree-disagreed-refutes-only-it"),
    pytest.param(ID_A, ID_B, 0, None, False, id="other-tree-no-status"),
]


@pytest.mark.parametrize(("bound", "reran", "reported", "observed", "speaks"), ROWS)
def test_a_re_run_speaks_for_its_own_tree(
    tmp_path: Path,
    bound: str,
    reran: str,
    reported: int,
    observed: int | None,
    speaks: bool,
) -> None:
    with Ledger.open(ledger_path(str(tmp_path / "common"))) as led:
        r = led.add(Receipt("/r", reran, "run", "pytest -q", "exit 0", 0))
        s = led.add(_rerun(bound, r.id, reported, observed))
        readback = led.add(
            SpotCheck(
                root="/r",
                identity=bound,
                kind="readback",
                command="readback",
                agreed=True,
                counts=True,
            )
        )
        expected = [s, readback] if speaks else [readback]
        assert led.spot_checks(bound) == expected
        assert led.bound_records([ID_A, ID_B])[1] == expected
