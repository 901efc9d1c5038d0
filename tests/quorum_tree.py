"""A candidate tree for quorum tests, and what a tally without one rules (issue 18).

Without a tree (``quorum tally`` with neither ``--tree`` nor ``--observed``) no upheld
vote's evidence is checked, so the best ruling is PLAUSIBLE (row ``Q6U``): a test that
means "this verdict counts as support" asserts :func:`supported_unchecked`. A test that
needs a CONFIRMED finding tallies :data:`CHECKED` against :data:`TREE`, whose
``workflow.js`` line 142 holds the quoted call.
"""

from __future__ import annotations

from typing import Any

from gentle_hooks.quorum.checkable import CheckSource
from gentle_hooks.quorum.ruling import TallyRecord
from gentle_hooks.quorum.votes import VoteKind

#: workflow.js of the candidate: line 142 spawns agents in a loop with no budget check.
WORKFLOW = [f"// line {n}" for n in range(1, 142)] + [
    "for (const task of tasks) spawnAgent(task);",
    "// end",
]
#: The candidate's tree, as `--tree` gives it: workflow.js only, no clean-room record.
TREE = CheckSource("c" * 40, lambda path: WORKFLOW if path == "workflow.js" else None, None)
#: An upheld whatIChecked whose quote is at workflow.js:142 of :data:`TREE`.
CHECKED = "opened workflow.js:142: `spawnAgent(task)` in the loop, no budget check before it"


def checked_up(checked: str = CHECKED, **extra: Any) -> dict[str, Any]:
    """An upheld verdict whose evidence checks out in :data:`TREE`."""
    return {"refuted": False, "reason": "reproduces", "whatIChecked": checked, **extra}


def supported_unchecked(record: TallyRecord) -> bool:
    """Every counted vote of ``record`` upheld, none refuted, and the ruling PLAUSIBLE only
    because no tree checked the evidence (row ``Q6U``): what CONFIRMED was before."""
    counted = [v for v in record.votes if v.vote is not VoteKind.ABSTAINED]
    return (
        record.ruling == "PLAUSIBLE"
        and record.row == "Q6U"
        and all(v.vote is VoteKind.UPHELD and v.unchecked for v in counted)
    )
