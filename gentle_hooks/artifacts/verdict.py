"""Delegation briefs and verifier verdicts: models, parsing, checks, Markdown view (SPEC §6, §9).

Layer: models. Imports pydantic, the standard library and :mod:`gentle_hooks.errors`; no I/O,
no clock: callers read the bytes and decide where the Markdown goes. Seed
``001_3bc4c9b08e2f7709.txt`` (verify-delegation) defines both shapes; field names are its
spellings (``briefId``, ``negativeTestsRun``...).

Two questions are kept apart, because the gate needs both answers:

* *Is it a verdict?* :func:`parse_verdict` refuses what is not (exit 2, one line).
* *Does it let the change ship?* :func:`verdict_acceptance` names every rule a valid verdict
  fails (:data:`VERDICT_RULES`); a verdict that fails one is stored and shown, never accepted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    ValidationError,
    WithJsonSchema,
)

from gentle_hooks.errors import GentleError
from gentle_hooks.values.frozen import frozen

#: Longest verdict summary accepted, in characters: a summary plus ``artifactRef``, never a
#: transcript (seed 001, "Rules"). An oversized summary is refused, not truncated.
MAX_SUMMARY_CHARS = 2000

#: Evidence texts that are not evidence, compared by :func:`evidence_key` (letters and
#: digits only, case-folded): ``N/A.``, ``(n/a)``, ``TO DO``, ``PASS ✅`` and ``—`` all reduce
#: to one of these or to nothing. An assertion of success is not an observation of it.
EVIDENCE_SENTINELS: frozenset[str] = frozenset(
    {"", "na", "none", "null", "nil", "todo", "tbd", "fixme", "xxx", "pass", "passed", "ok"}
    | {"okay", "yes", "true", "done", "x", "skip", "skipped", "notapplicable", "notdone"}
    | {"nothing", "same", "asabove", "seeabove", "verified", "checked", "works", "fine", "good"}
)

#: Declared side effects that never count as mutating, even though they name a mutating verb
#: (seed 001 itself declares ``write-temp-file`` for a read-only verifier). Compared after
#: stripping and lower-casing.
NON_MUTATING_SIDE_EFFECTS: frozenset[str] = frozenset(
    {"none", "read-only", "read-file", "read-network", "network-read", "write-temp-file"}
)

#: Verbs that make a declared side effect mutating (:func:`is_mutating_side_effect`), each
#: with its regular inflections (``writes``, ``writing``, ``deleted``, ``committed``). Words
#: that are as often nouns of a read (``tag``, ``release``, ``patch``) are left out.
MUTATING_VERBS: frozenset[str] = frozenset(
    {"write", "overwrite", "append", "create", "modify", "update", "upsert", "insert", "edit"}
    | {"delete", "remove", "rm", "drop", "truncate", "move", "mv", "rename", "mutate"}
    | {"commit", "push", "merge", "rebase", "reset", "install", "uninstall", "upgrade"}
    | {"migrate", "migration", "deploy", "publish", "send", "post", "upload", "exec"}
    | {"execute", "apply", "provision", "destroy", "restart", "kill", "chmod", "chown"}
)

#: Segments that negate a declaration (``no-write``, ``does-not-write``, ``write-nothing``).
NEGATION_SEGMENTS: frozenset[str] = frozenset(
    {"no", "not", "non", "none", "never", "nothing", "without", "zero", "dont", "doesnt", "nor"}
)

#: A kebab-case identifier: lower-case segments of letters and digits joined by single ``-``.
_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _inflections(verb: str) -> frozenset[str]:
    """``verb`` and its regular inflections: write, writes, writing; commit, committed."""
    if verb.endswith("e"):
        more = {verb + "d", verb[:-1] + "ing"}
    elif verb.endswith("y"):
        more = {verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    else:
        doubled = verb + verb[-1]
        more = {verb + "es", verb + "ed", verb + "ing", doubled + "ed", doubled + "ing"}
    return frozenset({verb, verb + "s", *more})


_MUTATING_FORMS: frozenset[str] = frozenset().union(*(_inflections(v) for v in MUTATING_VERBS))

Status = Literal["pass", "fail", "blocked"]


def _whole_number(value: object) -> object:
    """``1.0`` is the number 1: JSON does not tell them apart and neither does JSON Schema's
    ``integer``, so the parser accepts it too. ``1.5``, ``"1"`` and ``true`` stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A non-negative whole number: an integer, or a float with no fraction (``2.0``).
NonNegative = Annotated[int, Field(ge=0, strict=True), BeforeValidator(_whole_number)]
#: A tool-call budget: a whole number of at least 1.
Budget = Annotated[int, Field(ge=1, strict=True), BeforeValidator(_whole_number)]


def _one_string_is_a_list(value: object) -> object:
    """Let a single string stand for a one-element list (``"boundaries": "src/ only"``)."""
    return (value,) if isinstance(value, str) else value


#: A list of strings, or one string standing for a one-element list. The validation-mode
#: schema says so, so that `gentle-hook schema brief` accepts what the parser accepts.
Strings = Annotated[
    tuple[StrictStr, ...],
    BeforeValidator(_one_string_is_a_list),
    WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        mode="validation",
    ),
]


class ArtifactInputError(GentleError):
    """A brief or verdict that cannot be read as one: not UTF-8, not JSON, duplicate keys,
    a missing or mistyped field, an oversized summary (exit 2)."""


class _Strict(BaseModel):
    # Python's ``re`` for ``pattern``, as JSON Schema validators in Python use: the parser
    # and `gentle-hook schema` must agree on what "not blank" (``\S``) means.
    model_config = ConfigDict(extra="forbid", frozen=True, regex_engine="python-re")


class DelegationBrief(_Strict):
    """A canonical delegation brief (seed 001, "inputs"; SPEC §9).

    Attributes:
        id: the brief's id, which a verdict names as ``briefId`` (optional).
        objective: what the worker must achieve (required).
        outputFormat: what the worker returns (required).
        toolGuidance: which tools to use and how.
        boundaries: what the worker must not touch or do; :func:`check_brief` rejects none.
        stopCondition: when the worker stops; :func:`check_brief` rejects none.
        effortBudget: tool calls allowed (an integer) or a budget in words.
        readOnly: the worker may not mutate anything; default true, the restrictive reading.
        sideEffects: declared side effects (``write-temp-file``, ``write-repo``...). A brief
            with ``readOnly: false`` must declare at least one mutating effect: a kebab-case
            id naming a mutating verb (:func:`is_mutating_side_effect`).

    Missing ``boundaries``/``stopCondition`` parse, so that :func:`check_brief` can name them.
    A list field may be given as one string; ``effortBudget`` ``10.0`` is 10. The schema
    (``gentle-hook schema brief``) describes exactly this input.
    """

    id: StrictStr | None = None
    objective: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    outputFormat: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    toolGuidance: Strings = ()
    boundaries: Strings = ()
    stopCondition: StrictStr | None = None
    effortBudget: Budget | StrictStr | None = None
    readOnly: StrictBool = True
    sideEffects: Strings = ()


def is_mutating_side_effect(effect: str) -> bool:
    """Whether one declared side effect declares a mutation (seed 001, "Rules"; SPEC §9).

    The rule is inverted on purpose: an effect is *not* mutating unless it says so in a form
    that cannot be a placeholder. After stripping and lower-casing, ``effect`` is mutating
    exactly when all of these hold:

    * it is a kebab-case identifier (``write-repo``, ``git-commit``, ``run-migration``):
      lower-case letters and digits in segments joined by single hyphens; prose
      (``"writes to the repo"``), punctuation (``"-"``, ``"n/a"``, ``"none."``) and blanks are
      not declarations;
    * one segment is a verb of :data:`MUTATING_VERBS` or an inflection of one (``writes``,
      ``deleting``, ``pushed``);
    * no segment negates it (:data:`NEGATION_SEGMENTS`: ``no-write``, ``does-not-write``);
    * it is not in :data:`NON_MUTATING_SIDE_EFFECTS` (``write-temp-file``, which seed 001
      declares for a read-only verifier).

    So ``"nothing"``, ``"readonly"``, ``"read"``, ``"no side effects"`` declare nothing.

    Args:
        effect: one entry of :attr:`DelegationBrief.sideEffects`.

    Returns:
        True when ``effect`` declares a mutating side effect. Never raises.
    """
    key = effect.strip().lower()
    if key in NON_MUTATING_SIDE_EFFECTS or not _KEBAB.fullmatch(key):
        return False
    segments = key.split("-")
    if any(s in NEGATION_SEGMENTS for s in segments):
        return False
    return any(s in _MUTATING_FORMS for s in segments)


def mutating_side_effects(brief: DelegationBrief) -> tuple[str, ...]:
    """The brief's declared side effects that count as mutating, stripped, in declared order.

    Each entry is judged by :func:`is_mutating_side_effect`. Seed 001, "Rules"
    (``readOnly: false`` needs a declared mutating side effect); rule B3 of :data:`BRIEF_RULES`.
    """
    return tuple(e.strip() for e in brief.sideEffects if is_mutating_side_effect(e))


def _boundary_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if any(b.strip() for b in brief.boundaries):
        return ()
    return (
        "no boundaries: say what the worker must not touch or do "
        '("boundaries": ["..."]); a brief without them duplicates work',
    )


def _stop_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if (brief.stopCondition or "").strip():
        return ()
    return ('no stopCondition: say when the worker is done ("stopCondition": "...")',)


def _read_only_faults(brief: DelegationBrief) -> tuple[str, ...]:
    if brief.readOnly or mutating_side_effects(brief):
        return ()
    declared = ", ".join(e.strip() for e in brief.sideEffects if e.strip()) or "none"
    return (
        "readOnly is false but no mutating side effect is declared "
        f"(declared: {declared}); add one to sideEffects as a kebab-case id with a mutating "
        'verb, e.g. "write-repo"',
    )


@frozen
class BriefRule:
    """One brief rule: a stable id, the rule in words, and a check naming its faults."""

    id: str
    rule: str
    faults: Callable[[DelegationBrief], tuple[str, ...]]


#: Seed 001 "Workflow" step 1 and "Rules": the three reasons a brief is rejected.
BRIEF_RULES: tuple[BriefRule, ...] = (
    BriefRule("B1", "the brief has boundaries", _boundary_faults),
    BriefRule("B2", "the brief has a stopCondition", _stop_faults),
    BriefRule("B3", "readOnly false declares a mutating side effect", _read_only_faults),
)


def check_brief(brief: DelegationBrief) -> list[str]:
    """Every reason to reject ``brief`` before a worker starts (seed 001, "Workflow" 1; SPEC §9).

    Args:
        brief: a parsed brief.

    Returns:
        One line per fault, each prefixed with its :data:`BRIEF_RULES` id, in rule order;
        empty when the brief is acceptable. B1 no boundaries (absent, empty, or only blank
        entries); B2 no stopCondition (absent or blank); B3 ``readOnly: false`` without a
        declared mutating side effect (:func:`mutating_side_effects`).
    """
    return [f"{rule.id} {fault}" for rule in BRIEF_RULES for fault in rule.faults(brief)]


class Criterion(_Strict):
    """One success criterion re-checked by the verifier.

    Attributes:
        criterion: what was checked (required, not blank).
        evidence: what the verifier observed; :func:`has_evidence` decides whether it is
            evidence at all.
        result: the criterion's own outcome, when the verifier reports one.
    """

    criterion: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    evidence: StrictStr = ""
    result: Status | None = None


class DelegationVerdict(_Strict):
    """A verifier's bounded answer about one delegated artifact (seed 001, "outputs").

    Attributes:
        briefId: the brief verified.
        status: pass | fail | blocked.
        criteria: per-criterion evidence.
        negativeTestsRun: checks run that must fail before the artifact can be trusted.
        fullSuiteRun: whether the full suite ran.
        artifactMutating: whether the artifact mutates the repository.
        summary: bounded, at most :data:`MAX_SUMMARY_CHARS` characters.
        artifactRef / tokensUsed / durationMs: optional.

    Types are strict: ``"3"`` is not an integer and ``"true"`` is not a boolean; ``2.0`` is
    the integer 2, as in JSON Schema.
    """

    briefId: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    status: Status
    criteria: tuple[Criterion, ...]
    negativeTestsRun: NonNegative
    fullSuiteRun: StrictBool
    artifactMutating: StrictBool
    summary: Annotated[StrictStr, Field(max_length=MAX_SUMMARY_CHARS)]
    artifactRef: StrictStr | None = None
    tokensUsed: NonNegative | None = None
    durationMs: NonNegative | None = None


def evidence_key(text: str) -> str:
    """The comparable core of an evidence text: NFKC-normalised, case-folded, letters and
    digits only (punctuation, symbols, emoji, whitespace and invisible characters dropped).
    """
    import unicodedata

    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def has_evidence(criterion: Criterion) -> bool:
    """True when the criterion's evidence is an observation, not a sentinel.

    Empty, whitespace, or one of :data:`EVIDENCE_SENTINELS` (``n/a``, ``todo``, ``pass``,
    ``ok``, ``none``, ``-``, ``tbd``... case-insensitive, after stripping) is no evidence.
    SPEC §6 "verdict".
    """
    return evidence_key(criterion.evidence) not in EVIDENCE_SENTINELS


def _clip(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


@frozen
class VerdictRule:
    """One acceptance rule: a stable id, the rule in words, and a check naming its faults."""

    id: str
    rule: str
    faults: Callable[[DelegationVerdict], tuple[str, ...]]


def _status_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return () if v.status == "pass" else (f"status is {v.status}, not pass",)


def _suite_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return () if v.fullSuiteRun else ("fullSuiteRun is false: a pass needs the full suite",)


def _criteria_present_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return () if v.criteria else ("no criteria: nothing was re-checked",)


def _evidence_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return tuple(
        f"criterion {n} ({_clip(c.criterion)!r}) has no evidence ({c.evidence.strip()!r})"
        for n, c in enumerate(v.criteria, 1)
        if not has_evidence(c)
    )


def _criterion_result_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return tuple(
        f"criterion {n} ({_clip(c.criterion)!r}) reports {c.result}"
        for n, c in enumerate(v.criteria, 1)
        if c.result not in (None, "pass")
    )


def _negative_test_faults(v: DelegationVerdict) -> tuple[str, ...]:
    if v.artifactMutating and v.negativeTestsRun < 1:
        return ("artifactMutating is true but negativeTestsRun is 0: run a check that must fail",)
    return ()


#: The acceptance rules (SPEC §6 "verdict"; seed 001 "Rules" and "Completion criteria").
#: V3 and V5 close the gaps a vacuous or self-contradicting pass would slip through: zero
#: criteria make "every criterion has evidence" trivially true, and a criterion reported
#: failed under a pass status is not a pass.
VERDICT_RULES: tuple[VerdictRule, ...] = (
    VerdictRule("V1", "status is pass", _status_faults),
    VerdictRule("V2", "the full suite ran", _suite_faults),
    VerdictRule("V3", "at least one criterion was re-checked", _criteria_present_faults),
    VerdictRule("V4", "every criterion has evidence", _evidence_faults),
    VerdictRule("V5", "no criterion reports fail or blocked", _criterion_result_faults),
    VerdictRule("V6", "a mutating artifact had at least one negative test", _negative_test_faults),
)


def verdict_acceptance(verdict: DelegationVerdict) -> tuple[bool, tuple[str, ...]]:
    """Whether ``verdict`` is accepted for the gate, and every rule it fails (SPEC §6).

    Returns:
        (accepted, reasons): reasons is empty when accepted, else one line per fault,
        each prefixed with its :data:`VERDICT_RULES` id (``"V2 fullSuiteRun is false..."``),
        in rule order.
    """
    reasons = tuple(
        f"{rule.id} {fault}" for rule in VERDICT_RULES for fault in rule.faults(verdict)
    )
    return (not reasons, reasons)


def _reject_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def load_json_text(data: bytes | str, what: str) -> tuple[str, object]:
    """Decode ``data`` as UTF-8 JSON, refusing duplicate keys and NaN/Infinity.

    A duplicate key is refused because JSON parsers disagree on which copy wins, and a
    verdict must mean one thing (``{"status": "fail", "status": "pass"}``).

    Returns:
        (text, value): the decoded text and the parsed value.

    Raises:
        ArtifactInputError: not UTF-8, not JSON, a duplicate key, nesting too deep for the
            parser; the message names ``what``.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ArtifactInputError(
                f"{what}: not UTF-8: {exc.reason} at byte {exc.start}"
            ) from None
    else:
        text = data
    try:
        value = json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
        )
    except json.JSONDecodeError as exc:
        raise ArtifactInputError(
            f"{what}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:
        raise ArtifactInputError(f"{what}: not JSON: {exc}") from None
    except RecursionError:
        raise ArtifactInputError(f"{what}: not JSON: nested too deeply") from None
    return text, value


def describe_validation_error(exc: ValidationError, limit: int = 4) -> str:
    """Fold a pydantic error into one line: ``field.path: message`` per fault, ``;``-joined.

    An oversized summary is worded with its length and :data:`MAX_SUMMARY_CHARS`.
    """
    parts: list[str] = []
    errors = exc.errors()
    for err in errors[:limit]:
        loc = ".".join(str(p) for p in err["loc"])
        at = f"{loc}: " if loc else ""
        if err["type"] == "string_too_long" and err["loc"] == ("summary",):
            size = len(err["input"]) if isinstance(err["input"], str) else "?"
            parts.append(
                f"summary is {size} characters; the limit is {MAX_SUMMARY_CHARS} "
                "(a bounded summary plus artifactRef, never a transcript)"
            )
        elif err["type"] == "extra_forbidden":
            parts.append(f"{loc}: unknown field")
        elif err["type"] in ("string_pattern_mismatch", "string_too_short"):
            parts.append(f"{loc}: must not be blank")
        elif err["type"] == "missing":
            parts.append(f"{loc}: required field missing")
        elif err["type"] == "value_error":
            parts.append(f"{at}{err.get('ctx', {}).get('error', err['msg'])}")
        else:
            parts.append(f"{at}{err['msg']}")
    if len(errors) > limit:
        parts.append(f"and {len(errors) - limit} more")
    return "; ".join(parts)


def parse_brief(data: bytes | str, source: str = "brief") -> DelegationBrief:
    """Parse a :class:`DelegationBrief` from JSON text or bytes.

    Args:
        data: the JSON document.
        source: what to call it in messages (a path, ``-``).

    Raises:
        ArtifactInputError: not UTF-8, not JSON, duplicate keys, not an object, unknown or
            mistyped fields, a missing or blank objective or outputFormat (exit 2).
    """
    text, value = load_json_text(data, source)
    if not isinstance(value, dict):
        raise ArtifactInputError(f"{source}: not a DelegationBrief: expected a JSON object")
    try:
        return DelegationBrief.model_validate_json(text)
    except ValidationError as exc:
        raise ArtifactInputError(
            f"{source}: not a DelegationBrief: {describe_validation_error(exc)}"
        ) from None


def parse_verdict(data: bytes | str, source: str = "verdict") -> DelegationVerdict:
    """Parse a :class:`DelegationVerdict` from JSON text or bytes (SPEC §6, §9).

    Parsing says only that it *is* a verdict; :func:`verdict_acceptance` says whether it
    lets a change ship.

    Args:
        data: the JSON document.
        source: what to call it in messages (a path, ``-``).

    Raises:
        ArtifactInputError: not UTF-8, not JSON, duplicate keys, not an object, unknown,
            missing or mistyped fields, or a summary over :data:`MAX_SUMMARY_CHARS` (the
            message gives its length and the limit) (exit 2).
    """
    text, value = load_json_text(data, source)
    if not isinstance(value, dict):
        raise ArtifactInputError(f"{source}: not a DelegationVerdict: expected a JSON object")
    try:
        return DelegationVerdict.model_validate_json(text)
    except ValidationError as exc:
        raise ArtifactInputError(
            f"{source}: not a DelegationVerdict: {describe_validation_error(exc)}"
        ) from None


def verdict_json(verdict: DelegationVerdict) -> str:
    """The stored JSON form of a verdict: stable key order, absent optionals omitted."""
    return verdict.model_dump_json(exclude_none=True, indent=2)


def _cell(text: str) -> str:
    """Make text safe for one Markdown table cell: no row breaks, no column breaks."""
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").split()) or "—"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def render_verdict_markdown(verdict: DelegationVerdict) -> str:
    """The Markdown view stored next to a verdict's JSON (seed 001, "Artifact"; SPEC §9).

    Sections: a header with status and gate acceptance (and every failing rule), the
    criteria table with evidence, negative tests, suite status, and the summary. The
    summary is quoted line by line and table cells are escaped, so text inside a verdict
    cannot forge a heading or a row of the view.

    Returns:
        Markdown text ending in a newline; a pure function of ``verdict``.
    """
    accepted, reasons = verdict_acceptance(verdict)
    lines = [
        f"# DelegationVerdict for brief `{_cell(verdict.briefId)}`",
        "",
        f"- **Status:** {verdict.status}",
        f"- **Accepted for the gate:** {_yes(accepted)}",
    ]
    lines += [f"  - not accepted: {reason}" for reason in reasons]
    if verdict.artifactRef is not None:
        lines.append(f"- **Artifact:** `{_cell(verdict.artifactRef)}`")
    if verdict.tokensUsed is not None:
        lines.append(f"- **Tokens used:** {verdict.tokensUsed}")
    if verdict.durationMs is not None:
        lines.append(f"- **Duration:** {verdict.durationMs} ms")
    lines += ["", "## Criteria", ""]
    if verdict.criteria:
        lines += ["| # | Criterion | Result | Evidence |", "|---|---|---|---|"]
        for n, c in enumerate(verdict.criteria, 1):
            evidence = _cell(c.evidence) if has_evidence(c) else "**none**"
            lines.append(f"| {n} | {_cell(c.criterion)} | {c.result or '—'} | {evidence} |")
    else:
        lines.append("No criteria were re-checked.")
    lines += [
        "",
        "## Negative tests",
        "",
        f"{verdict.negativeTestsRun} run; artifact mutating: {_yes(verdict.artifactMutating)}.",
        "",
        "## Suite",
        "",
        "The full suite ran." if verdict.fullSuiteRun else "The full suite did **not** run.",
        "",
        "## Summary",
        "",
    ]
    summary = verdict.summary.strip()
    lines += [f"> {line}".rstrip() for line in summary.splitlines()] if summary else ["> —"]
    return "\n".join(lines) + "\n"
