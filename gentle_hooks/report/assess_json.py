"""Build the ``--json`` envelope of ``assess`` from a result (SPEC §7).

Room ``report``, service -> JSON. The one place that maps policy values to the JSON boundary. It
builds plain dicts: the envelope's schema is :class:`gentle_hooks.report.models.AssessEnvelope`
(pydantic, exported by ``gentle-hook schema assess``), and ``tests/unit/test_envelope.py``
validates what this module prints against that model, so the two cannot drift. Building the
dict directly keeps pydantic's import and model build (about 150 ms) off every ``assess``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from gentle_hooks.native.message import relay
from gentle_hooks.native.result import ABSENT, candidate_kind, failure_envelope
from gentle_hooks.policy.vocabulary import Verification
from gentle_hooks.policy.writer import is_small
from gentle_hooks.report.fixes import commands, first_way, reasons
from gentle_hooks.report.jsontext import dumps
from gentle_hooks.services.assess import AssessResult

if TYPE_CHECKING:
    from gentle_hooks.values.json import JsonObject

ASSESS_SCHEMA: Final = "gentle-hooks.assess/v1"


def build_envelope(r: AssessResult) -> JsonObject:
    """Map an :class:`AssessResult` to the ``gentle-hooks.assess/v1`` envelope (a dict).

    Native projections (``reviewDue``, ``reviewDueReason``, ``nextTransition``,
    ``candidate.consumed``) are present only when native reported them.
    """
    plan, cand, native, d = r.plan, r.candidate, r.native, r.decision
    candidate: JsonObject = {
        "identity": cand.identity,
        "projection": cand.projection.value,
        "base_ref": cand.base.ref,
        "base_source": cand.base.source,
        "base_commit": cand.base.commit,
        "base_tree": cand.base.tree,
        "tree": cand.tree,
        "head": cand.head,
        "object_format": cand.object_format,
        "note": cand.base.note,
    }
    out: JsonObject = {
        "schema": ASSESS_SCHEMA,
        "risk": plan.risk.value,
        "nativeRisk": plan.native_risk.value,
        "nativeReviewOutcome": plan.review.outcome.value,
        "outcome_source": plan.review.source.value,
        "writerProfile": {
            "small": plan.writer.small,
            "profiles": [
                {
                    "model": p.model,
                    "effort": p.effort.value if p.effort else None,
                    "small": is_small(p),
                }
                for p in plan.writer.profiles
            ],
        },
        "writerProfileSource": plan.writer.source.value,
        "candidate": candidate,
        "rdd": {
            "mode": plan.rdd.mode.value,
            "source": plan.rdd.source.value,
            "line": plan.rdd.line(),
        },
        "escalations": [
            {"item": e.item.number, "slug": e.item.slug, "reason": e.reason}
            for e in plan.escalations
        ],
        "verification": {
            "required": [v.value for v in plan.verification],
            "verifiers": plan.verifiers,
            "spot_check_required": Verification.SPOT_CHECK in plan.verification,
            "text": plan.text,
            "rows": list(plan.rows),
        },
        "decision": {
            "applies": d.applies,
            "blocked": d.blocked,
            "spot_check_satisfied": d.spot_check_satisfied,
            "verifier_satisfied": d.verifier_satisfied,
            "missing": [m.value for m in d.missing],
            "reasons": [*reasons(d.shortfalls)],
            "fixes": [*commands(d.shortfalls, r.binding)],
            "fix_steps": [
                [{"label": label, "text": text} for label, text in first_way(s, r.binding)]
                for s in d.shortfalls
            ],
        },
        "native": {
            "provider": r.native_provider,
            "assessment": native.to_json() if native is not None else None,
            "error": r.native_error,
            **({"note": r.native_note} if r.native_note is not None else {}),
        },
        "changes": [
            {
                "path": c.path,
                "old_path": c.old_path,
                "status": c.status,
                "old_mode": c.old_mode,
                "new_mode": c.new_mode,
                "additions": c.additions,
                "deletions": c.deletions,
                "binary": c.binary,
                "mode_only": c.mode_only,
                "submodule": c.submodule,
            }
            for c in r.changes
        ],
    }
    if native is not None:
        if native.candidate.consumed is not None:
            candidate["consumed"] = native.candidate.consumed
        for key, value in (
            ("reviewDue", native.review_due),
            ("reviewDueReason", native.review_due_reason),
            ("nextTransition", native.next_transition),
        ):
            if value is not ABSENT:
                out[key] = value
    return out


def failure_json(projection: str | None, base_ref: str | None, message: str) -> JsonObject:
    """What ``assess --json`` prints on stdout when it cannot assess (SPEC §4; upstream's
    fail-closed envelope, :func:`~gentle_hooks.native.result.failure_envelope`).

    Args:
        projection: ``committed``/``staged``/``snapshot``, or None for the default.
        base_ref: ``--base-ref`` as given, or None when none was given or the refusal came
            before the candidate was named (a usage error, a bad escalation: upstream then
            reports ``current-changes``).
        message: the error's one line; relayed redacted (no paths, no secrets).

    Returns:
        A ``gentle-ai.review-assessment/v1`` failure envelope: ``risk: high``, one
        ``unassessable`` reason; ``base-diff`` with the base ref echoed (trimmed) when one
        was given, as upstream echoes ``--base-ref``, else ``current-changes``.
    """
    named = candidate_kind(projection or "snapshot", "flag", base_ref)
    return failure_envelope(named.kind, named.base_ref, relay(message))


def envelope_json(envelope: JsonObject) -> str:
    """The envelope as indented JSON; a path holding bytes that are not UTF-8 is written as
    :mod:`gentle_hooks.report.jsontext` says."""
    return dumps(envelope, indent=2)
