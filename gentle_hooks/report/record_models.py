"""The JSON boundary of the recording commands and ``status``/``doctor`` (SPEC §6, §7).

Room ``report``. Imports pydantic, :mod:`gentle_hooks.report.models` (the assess envelope) and the
ledger's plain value types to map them. Frozen, ``extra="forbid"``; every record carries
a ``type`` discriminator.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Final, Literal

from pydantic import Field, JsonValue, TypeAdapter

from gentle_hooks.ledger.records import Listed, Receipt, Record, VerdictRecord
from gentle_hooks.policy.vocabulary import Missing
from gentle_hooks.report.jsontext import escape_strings
from gentle_hooks.report.models import AssessEnvelope, StepOut
from gentle_hooks.report.outbase import FrozenOut, schema_field
from gentle_hooks.values.frozen import asdict

RECORDED_SCHEMA: Final = "gentle-hooks.recorded/v1"
RECORDS_SCHEMA: Final = "gentle-hooks.records/v1"
STATUS_SCHEMA: Final = "gentle-hooks.status/v1"
DOCTOR_SCHEMA: Final = "gentle-hooks.doctor/v1"


class StoredOut(FrozenOut):
    """The head of every stored record's model, in this order: ``type`` (each model narrows
    it to its own literal, in place), the ledger ``id`` and the ``root``."""

    type: str
    id: int
    root: str


class CandidateRecordOut(StoredOut):
    """A stored record of one candidate: the :class:`StoredOut` head, then ``identity``."""

    identity: str


class MutationOut(StoredOut):
    """A pending mutation (times are Unix seconds)."""

    type: Literal["pending_mutation"] = "pending_mutation"
    model: str
    effort: str
    source: str | None
    session_id: str | None
    tool_call_id: str | None
    paths: tuple[str, ...]
    recorded_at: float
    consumed_by: str | None
    consumed_identity: str | None


class EscalationRecordOut(CandidateRecordOut):
    """An escalation: item 1..6, slug, reason; sticky while ``consumed_by`` is null."""

    type: Literal["escalation"] = "escalation"
    item: int = Field(ge=1, le=6)
    slug: str
    reason: str
    recorded_at: float
    consumed_by: str | None
    consumed_identity: str | None
    critical: bool = False


class ReceiptOut(CandidateRecordOut):
    """A receipt: ``line`` is ``<command>: <observed result>``; durations in ms; ``created``
    lists the files the run created or wrote again that git neither tracks nor ignores when
    the receipt is bound to the work tree holding them (null: none)."""

    type: Literal["receipt"] = "receipt"
    kind: Literal["run", "add"]
    command: str
    observed: str
    line: str
    exit_code: int
    argv: tuple[str, ...] | None
    cwd: str
    duration_ms: int | None
    output_digest: str | None
    recorded_at: float
    created: tuple[str, ...] | None = None


class SpotCheckOut(CandidateRecordOut):
    """A spot check (``rerun``) or structural readback (``readback``)."""

    type: Literal["spot_check"] = "spot_check"
    kind: Literal["rerun", "readback"]
    receipt_id: int | None
    command: str
    reported_exit: int | None
    observed_exit: int | None
    agreed: bool
    counts: bool
    identity_after: str | None
    note: str | None
    duration_ms: int | None
    output_digest: str | None
    readback: str | None
    recorded_at: float


class VerdictOut(CandidateRecordOut):
    """A stored verdict: acceptance, reasons, and the verdict JSON as given;
    ``shared_programs``: the programs its run started from a temporary or shared directory
    because the caller passed ``--allow-shared-programs`` (its ``observed.sharedPrograms``)."""

    type: Literal["verdict"] = "verdict"
    brief_id: str
    status: str
    accepted: bool
    reasons: tuple[str, ...]
    verdict: JsonValue
    recorded_at: float
    artifact_ref: str | None = None
    caller: str | None = None
    observed_run: int | None = None
    shared_programs: tuple[str, ...] = ()


class ReviewFactOut(CandidateRecordOut):
    """A review outcome fact for one candidate."""

    type: Literal["review_fact"] = "review_fact"
    outcome: Literal["declined", "unavailable", "acknowledged"]
    recorded_at: float


RecordOut = Annotated[
    MutationOut | EscalationRecordOut | ReceiptOut | SpotCheckOut | VerdictOut | ReviewFactOut,
    Field(discriminator="type"),
]


def record_out(rec: Record) -> RecordOut:
    """Map a ledger record to its JSON model: the one whose ``type`` is the record's ``KIND``
    (every field set, ``type`` included, so that ``exclude_unset`` dumps keep them). A
    non-UTF-8 path is escaped (report.jsontext)."""
    assert isinstance(rec, Listed)  # no command lists another record
    data = {name: escape_strings(value) for name, value in asdict(rec).items()}
    if isinstance(rec, Receipt):
        data["line"] = rec.line
    elif isinstance(rec, VerdictRecord):
        from gentle_hooks.artifacts.verdict import stored_shared_programs

        data.pop("markdown")
        data["verdict"] = json.loads(str(data.pop("json")))
        data["shared_programs"] = escape_strings(list(stored_shared_programs(rec.json)))
    return _record_adapter().validate_python({**data, "type": rec.KIND})


@cache
def _record_adapter() -> TypeAdapter[RecordOut]:
    """The validator of :data:`RecordOut` (built on first use: the hooks never print one)."""
    return TypeAdapter(RecordOut)


class RecordedEnvelope(FrozenOut):
    """What a recording command prints with ``--json``."""

    schema_: Literal["gentle-hooks.recorded/v1"] = schema_field(RECORDED_SCHEMA)
    ledger: str
    identity: str | None
    record: RecordOut
    notes: tuple[str, ...] = ()


class RecordListEnvelope(FrozenOut):
    """A list of records (``receipt list``, ``verdict list``) for one candidate."""

    schema_: Literal["gentle-hooks.records/v1"] = schema_field(RECORDS_SCHEMA)
    ledger: str
    identity: str
    records: tuple[RecordOut, ...]


class MissingOut(FrozenOut):
    """One missing item: what, why, the command that supplies it (the last ``run`` of the
    way), and the whole way in order (``steps``: the writer's report and the brief's file
    included; ``run``: its commands that run as printed)."""

    what: Missing
    reason: str
    command: str
    steps: tuple[StepOut, ...]
    run: tuple[str, ...]


class StatusRecordsOut(FrozenOut):
    """What the ledger holds for the candidate (and the root's pending work)."""

    pending_mutations: tuple[MutationOut, ...]
    escalations: tuple[EscalationRecordOut, ...]
    receipts: tuple[ReceiptOut, ...]
    spot_checks: tuple[SpotCheckOut, ...]
    verdicts: tuple[VerdictOut, ...]
    review_facts: tuple[ReviewFactOut, ...]
    other_candidates: dict[str, int]


class StatusEnvelope(FrozenOut):
    """``gentle-hook status --json``: the assessment plus the records and what is missing."""

    schema_: Literal["gentle-hooks.status/v1"] = schema_field(STATUS_SCHEMA)
    assessment: AssessEnvelope
    ledger: str
    ledger_present: bool
    records: StatusRecordsOut
    satisfied: bool
    missing: tuple[MissingOut, ...]
    hints: tuple[str, ...]


class CheckOut(FrozenOut):
    """One doctor check."""

    name: str
    ok: bool
    detail: str


class DoctorEnvelope(FrozenOut):
    """``gentle-hook doctor --json``."""

    schema_: Literal["gentle-hooks.doctor/v1"] = schema_field(DOCTOR_SCHEMA)
    healthy: bool
    checks: tuple[CheckOut, ...]
