"""Build the ``status --json`` envelope (SPEC §7): the assessment plus the records.

Room ``report``, service -> models. ``status`` is not on a hook path, so its envelope is
built with the pydantic models directly; the nested assessment is the same dict ``assess
--json`` prints, validated here against :class:`gentle_hooks.report.models.AssessEnvelope`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.ledger.records import Record
from gentle_hooks.policy.shortfall import PlanShortfall
from gentle_hooks.report.assess_json import build_envelope
from gentle_hooks.report.fixes import command, first_way, reason
from gentle_hooks.report.jsontext import escape_strings, model_json
from gentle_hooks.report.models import AssessEnvelope, StepOut
from gentle_hooks.report.record_models import (
    STATUS_SCHEMA,
    MissingOut,
    StatusEnvelope,
    StatusRecordsOut,
    record_out,
)
from gentle_hooks.report.records_text import status_hints
from gentle_hooks.services.status import StatusResult
from gentle_hooks.values.binding import Binding


def build_status_envelope(s: StatusResult) -> StatusEnvelope:
    """Map a :class:`~gentle_hooks.services.status.StatusResult` to ``status --json``."""
    f, binding = s.facts, s.assessment.binding
    groups: dict[str, Sequence[Record]] = {
        "pending_mutations": f.mutations,
        "escalations": f.escalations,
        "receipts": f.receipts,
        "spot_checks": f.spot_checks,
        "verdicts": f.gate_verdicts(s.assessment.config.settings.verification.require_observed),
        "review_facts": f.review_facts,
    }
    # a non-UTF-8 path is escaped before the models' patterns see it (report.jsontext)
    records = StatusRecordsOut.model_validate(
        escape_strings(
            {
                **{name: [record_out(r) for r in recs] for name, recs in groups.items()},
                "other_candidates": dict(f.other_candidates),
            }
        )
    )
    return StatusEnvelope(
        schema_=STATUS_SCHEMA,
        assessment=AssessEnvelope.model_validate(escape_strings(build_envelope(s.assessment))),
        ledger=str(escape_strings(f.path)),
        ledger_present=f.present,
        records=records,
        satisfied=s.satisfied,
        missing=tuple(_missing(m, binding) for m in s.missing),
        hints=status_hints(s),
    )


def _missing(m: PlanShortfall, binding: Binding) -> MissingOut:
    """One missing item of ``status --json``: its reason, its command and its whole way."""
    way = first_way(m, binding)
    return MissingOut(
        what=m.what,
        reason=reason(m),
        command=command(m, binding),
        steps=tuple(StepOut(label=label, text=text) for label, text in way),
        run=tuple(text for label, text in way if label == "run"),
    )


def status_json(s: StatusResult) -> str:
    """``status --json`` as stable JSON (aliases, unset native projections absent)."""
    return model_json(build_status_envelope(s), by_alias=True, exclude_unset=True, indent=2)
