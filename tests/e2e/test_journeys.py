"""The journey bench's fast subset (bench/journeys): every block a new user meets on these
journeys is resolved by the commands it printed, run literally, or is a documented refusal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.journeys.catalog import JOURNEYS
from bench.journeys.results import document, problems
from bench.journeys.runner import run_journeys

FAST = [j.name for j in JOURNEYS if j.fast]


@pytest.mark.parametrize("name", FAST)
def test_journey(tmp_path: Path, name: str) -> None:
    outcomes = run_journeys(tmp_path, only=[name])
    assert [o.status for o in outcomes] == ["ok"], problems(outcomes) or outcomes[0].detail
    doc = document(outcomes)
    assert doc["schema"] == "gentle-hooks.journeys/v1"
    for block in outcomes[0].blocks:
        assert block.cls in ("in_band", "by_design"), block


def test_the_bench_has_thirty_journeys() -> None:
    assert len(JOURNEYS) >= 30
