"""README's quorum section says what the tally does: its example table, tallied.

The README's "Quorum (seed 003)" section states how a ``whatIChecked`` counts (narrative,
failed or absent checks, acts of checking) and shows a table of upheld ``whatIChecked``
texts with what each counts as, for the claim it names. Each row is classified here, so
the README and :func:`gentle_hooks.quorum.votes.classify_verdict` cannot drift apart.
"""

from __future__ import annotations

import re
from pathlib import Path

from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import classify_verdict

README = Path(__file__).resolve().parents[2] / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n### Quorum (seed 003)\n")
    stop = text.index("\n## ", start)
    return text[start:stop]


def _rows() -> list[tuple[str, str]]:
    rows = []
    for line in _section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 2 and cells[1] != "counts as":
            rows.append((cells[0], cells[1]))
    return rows


def test_readme_example_table_is_what_the_tally_does() -> None:
    section = " ".join(_section().split())
    claim = re.search(r'For the claim "([^"]+)"', section)
    assert claim is not None
    rows = _rows()
    assert len(rows) >= 10
    kinds = {kind for _, kind in rows}
    assert kinds == {"upheld", "abstained", "refuted"}
    for checked, kind in rows:
        verdict = {"refuted": False, "reason": "it holds", "whatIChecked": checked}
        assert classify_verdict(verdict, claim.group(1)).vote.value == kind, checked
        record = build_record([verdict], claim.group(1))
        # no tree given: an upheld row counts as support, ruled PLAUSIBLE for want of a check
        expected = {"upheld": ("PLAUSIBLE", "Q6U"), "abstained": ("PLAUSIBLE", "Q1")}
        assert (record.ruling, record.row) == expected.get(kind, ("REFUTED", "Q2")), checked


def test_readme_names_every_failure_row() -> None:
    from gentle_hooks.quorum.failure import FAILURE_ROWS

    section = _section()
    for row in FAILURE_ROWS:
        assert f"`{row.id}`" in section, row.id
