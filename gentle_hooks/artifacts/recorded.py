"""What the ledger keeps of one verify run's checks (seed 001; SPEC §9).

Room: artifacts (imports :mod:`.check_rows`, :mod:`.outcome`, :mod:`.verdict`); pure.
:func:`recorded_observations` writes each observed check with the
:data:`~.check_rows.CHECK_ROWS` row that decided it, for
:attr:`~gentle_hooks.ledger.records.VerifyRun.observations`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.artifacts.check_rows import check_row
from gentle_hooks.artifacts.outcome import Outcome
from gentle_hooks.artifacts.verdict import DelegationVerdict

#: The keys :func:`recorded_observations` adds to each check's observed fields: the
#: ledger's own, no verdict carries them.
RECORDED_ONLY = frozenset({"row", "result", "evidence"})


def recorded_observations(outcomes: Sequence[Outcome], verdict: DelegationVerdict) -> str:
    """The JSON list the ledger keeps of one run's checks
    (:attr:`~gentle_hooks.ledger.records.VerifyRun.observations`), in run order: each
    check's :class:`~.verdict.Observed` fields, the :data:`CHECK_ROWS` row that decided
    it (``row``), its ``result``, and ``evidence`` (False: the check says nothing of the
    candidate, :attr:`CheckRow.evidence`). ``verdict`` is the one
    :func:`~.observation.observed_verdict` wrote from ``outcomes`` (one criterion per outcome)."""
    import json  # on use: the hooks' pass path imports this module's tables only

    seen = []
    for o, c in zip(outcomes, verdict.criteria, strict=True):
        if c.observed is None:
            continue
        row = check_row(o)
        seen.append(
            {
                **c.observed.model_dump(mode="json"),
                "row": row.id,
                "result": row.result,
                "evidence": row.evidence,
            }
        )
    return json.dumps(seen, ensure_ascii=False, separators=(",", ":"))
