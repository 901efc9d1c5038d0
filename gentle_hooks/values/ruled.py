"""A stored reason that leads with its rule's id, in words for people (SPEC §7).

Room ``values``. A verdict's reasons are stored as ``"<rule id> <words>"`` (``"V2
fullSuiteRun is false..."``, ``"R1 not observed: ..."``: :mod:`gentle_hooks.artifacts.verdict`
and the observed rule write them); the id stays in the stored record and in ``--json``,
and the lines people read say the words. Standard library only: the gate's pass path
reads it.
"""

from __future__ import annotations

import re

#: A stored reason's leading rule id (``V2``, ``R1``), then one space.
_RULE_PREFIX = r"[A-Z]\d+ "


def without_rule_id(reason: str) -> str:
    """``reason`` without its leading rule id; any other text as it is."""
    head = re.match(_RULE_PREFIX, reason)  # compiled on first use
    return reason[head.end() :] if head else reason
