"""Verifier verdicts: the model, the acceptance rules and the parser (SPEC §6 "verdict", §9).

Room: artifacts (imports pydantic, the standard library, :mod:`gentle_hooks.errors`,
:mod:`gentle_hooks.values`, :mod:`gentle_hooks.policy.nocheck` and :mod:`.jsonio`); no
I/O, no clock: callers read the bytes.
Seed ``001_3bc4c9b08e2f7709.txt`` (verify-delegation) defines the shape; field names are
its spellings (``briefId``, ``negativeTestsRun``...).

Two questions are kept apart, because the gate needs both answers:

* *Is it a verdict?* :func:`parse_verdict` refuses what is not (exit 2, one line).
* *Does it let the change ship?* :func:`verdict_acceptance` names every rule a valid verdict
  fails (:data:`VERDICT_RULES`); a verdict that fails one is stored and shown, never accepted.
* *Which candidate did it judge?* ``candidate`` (:class:`CandidateRef`) binds it: the
  candidate identity with the two tree ids it is computed from (SPEC §3), checked on
  parse, so a verdict cannot name an identity its trees do not give.
  :func:`binding_fault` says when it names another candidate than the one it is added
  for, or none.

Beyond the seed's fields (its schema lists properties without forbidding others), a verdict
may carry ``candidate``, ``caller`` (who asked for the verification: seed 001 "Completion
criteria", "the caller is identified"), ``changedArtifact`` (:class:`~.changed.ChangedArtifact`:
the check that changed the candidate's files in the clean room, where the run stopped) and, per
criterion, ``observed``
(:class:`Observed`: the command, exit status, duration and output digest ``gentle-hook
verify run`` saw). :func:`verdict_digest` names one verdict's content, so the ledger can
say which verdicts a ``verify run`` produced.

The Markdown view of a verdict is :func:`gentle_hooks.artifacts.markdown.render_verdict_markdown`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gentle_hooks.artifacts.changed import ChangedArtifact, changed_fault
from gentle_hooks.artifacts.changed import CheckKind as CheckKind
from gentle_hooks.artifacts.jsonio import (
    ArtifactInputError,
    NonNegative,
    StrictModel,
    parse_object_model,
)
from gentle_hooks.values.candidate import candidate_identity
from gentle_hooks.values.frozen import frozen

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

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

Status = Literal["pass", "fail", "blocked"]

_TREE = r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$"
_DIGEST = r"^sha256:[0-9a-f]{64}$"
NonBlank = Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]


class CandidateRef(StrictModel):
    """The candidate a verdict judged (SPEC §3 "Identity").

    Attributes:
        identity: ``sha256:`` + 64 hex digits.
        baseTree / tree: the base and candidate tree ids the identity is computed from;
            a verdict whose identity is not theirs is refused on parse.
    """

    identity: Annotated[StrictStr, Field(pattern=_DIGEST)]
    baseTree: Annotated[StrictStr, Field(pattern=_TREE)]
    tree: Annotated[StrictStr, Field(pattern=_TREE)]

    @model_validator(mode="after")
    def _identity_is_the_trees(self) -> CandidateRef:
        if candidate_identity(self.baseTree, self.tree) != self.identity:
            raise ValueError("identity is not the identity of baseTree and tree")
        return self


class Program(StrictModel):
    """One program a check started, as ``verify run`` found it before running it.

    Attributes:
        name: the word that named it in the check (``pytest``, ``python3``, ``sh``).
        path: the file it resolved to on the room's ``PATH``, symlinks resolved.
        sha256: ``sha256:`` of that file's bytes.
    """

    name: NonBlank
    path: NonBlank
    sha256: Annotated[StrictStr, Field(pattern=_DIGEST)]


class Observed(StrictModel):
    """What ``gentle-hook verify run`` observed running one check in the clean room.

    Attributes:
        kind: criterion, negative (a check that must fail) or suite.
        command: the command as run (a shell line, or the argument vector shell-quoted).
        exitCode: its exit status (``128 + N`` when killed by signal N); absent when it
            could not be started (a missing tool).
        durationMs: wall time in milliseconds.
        outputDigest: ``sha256:`` digest of its output
            (:func:`gentle_hooks.services.runner.output_digest`); absent when it did not run.
        env: the names (never the values) of the environment variables it ran with,
            sorted (:data:`gentle_hooks.services.room_env.ROOM_ENV_NAMES`); absent in a
            verdict written by anything else.
        envDigest: ``sha256:`` of the values it was given: the caller's allowlisted
            variables and the brief's ``env``, ``NAME=VALUE`` lines sorted (the room's own
            per-run ``HOME``, ``TMPDIR`` and caches aside), so a verdict tells two runs
            given another ``PATH`` apart without showing it; absent as ``env`` is.
        programs: the programs the check starts by name (its own, and each command of its
            shell line: :func:`gentle_hooks.policy.programs.started_programs`), each with the
            file it resolved to on the ``PATH`` it ran with (the room's, or the one its line
            sets: ``PATH=/usr/bin pytest``) and that file's digest; a name ``PATH`` does not
            resolve is left out (the check then finds its tool missing). Absent in a verdict
            written by anything else.
        sharedPrograms: the paths, among ``programs``, of those that ran from a temporary
            directory or one others may write, only because the caller passed
            ``--allow-shared-programs``, sorted; absent when there is none.
    """

    kind: CheckKind
    command: NonBlank
    exitCode: StrictInt | None = None
    durationMs: NonNegative
    outputDigest: Annotated[StrictStr, Field(pattern=_DIGEST)] | None = None
    env: tuple[StrictStr, ...] | None = None
    envDigest: Annotated[StrictStr, Field(pattern=_DIGEST)] | None = None
    programs: tuple[Program, ...] | None = None
    sharedPrograms: tuple[NonBlank, ...] | None = None

    @model_validator(mode="after")
    def _shared_are_programs(self) -> Observed:
        paths = {p.path for p in self.programs or ()}
        if any(path not in paths for path in self.sharedPrograms or ()):
            raise ValueError("sharedPrograms names a path that is not one of programs")
        return self


class Criterion(StrictModel):
    """One success criterion re-checked by the verifier.

    Attributes:
        criterion: what was checked (required, not blank).
        evidence: what the verifier observed; :func:`has_evidence` decides whether it is
            evidence at all.
        result: the criterion's own outcome, when the verifier reports one.
        observed: the run ``gentle-hook verify run`` observed for it (absent in a verdict
            written by anything else).
    """

    criterion: NonBlank
    evidence: StrictStr = ""
    result: Status | None = None
    observed: Observed | None = None


class DelegationVerdict(StrictModel):
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
        candidate: the candidate judged (:class:`CandidateRef`), optional.
        caller: who asked for the verification, optional, not blank.
        changedArtifact: the check that changed the candidate's files, where the run
            stopped (:class:`~.changed.ChangedArtifact`), optional: absent when none did, and in a
            verdict written before the field existed.

    Types are strict: ``"3"`` is not an integer and ``"true"`` is not a boolean; ``2.0`` is
    the integer 2, as in JSON Schema.
    """

    briefId: NonBlank
    status: Status
    criteria: tuple[Criterion, ...]
    negativeTestsRun: NonNegative
    fullSuiteRun: StrictBool
    artifactMutating: StrictBool
    summary: Annotated[StrictStr, Field(max_length=MAX_SUMMARY_CHARS)]
    artifactRef: StrictStr | None = None
    tokensUsed: NonNegative | None = None
    durationMs: NonNegative | None = None
    candidate: CandidateRef | None = None
    caller: NonBlank | None = None
    changedArtifact: ChangedArtifact | None = None


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


def _changed_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return () if v.changedArtifact is None else (changed_fault(v.changedArtifact),)


def _stopped(v: DelegationVerdict) -> bool:
    """The run stopped at a check that changed the artifact: the suite, the negative tests
    after it and its status follow from that stop, said once by rule V0."""
    return v.changedArtifact is not None


def _status_faults(v: DelegationVerdict) -> tuple[str, ...]:
    if v.status == "pass" or (_stopped(v) and v.status == "blocked"):
        return ()
    if v.status != "blocked" and not v.fullSuiteRun:  # recorded blocked: recorded_status
        return (
            f"status is {v.status}, recorded as blocked (the full suite did not run), not pass",
        )
    return (f"status is {v.status}, not pass",)


def _suite_faults(v: DelegationVerdict) -> tuple[str, ...]:
    if v.fullSuiteRun or _stopped(v):
        return ()
    return (
        "the full suite did not run in full: a pass needs it (fullSuite, run by a test "
        "runner, every test)",
    )


def _criteria_present_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return () if v.criteria else ("no criteria: nothing was re-checked",)


def _evidence_faults(v: DelegationVerdict) -> tuple[str, ...]:
    return tuple(
        f"criterion {n} ({_clip(c.criterion)!r}) has no evidence ({c.evidence.strip()!r})"
        for n, c in enumerate(v.criteria, 1)
        if not has_evidence(c)
    )


def _criterion_result_faults(v: DelegationVerdict) -> tuple[str, ...]:
    # the check that changed the artifact is the last one run: rule V0 says why it failed
    last = len(v.criteria) if _stopped(v) else 0
    return tuple(
        f"criterion {n} ({_clip(c.criterion)!r}) "
        + ("failed" if c.result == "fail" else f"was {c.result}")
        for n, c in enumerate(v.criteria, 1)
        if c.result not in (None, "pass") and n != last
    )


def _negative_test_faults(v: DelegationVerdict) -> tuple[str, ...]:
    if v.artifactMutating and v.negativeTestsRun < 1 and not _stopped(v):
        return (
            "the change writes to the repository but no negative test ran: declare "
            "negativeTests (a check that passes on the base tree and fails on the change)",
        )
    return ()


def _no_check_faults(v: DelegationVerdict) -> tuple[str, ...]:
    from gentle_hooks.policy.nocheck import judge_command

    faults = []
    for n, c in enumerate(v.criteria, 1):
        if c.observed is None or c.observed.kind == "negative":
            continue
        judged = judge_command(c.observed.command)
        if not judged.checks:
            faults.append(
                f"criterion {n} ({_clip(c.criterion)!r}) ran `{_clip(c.observed.command)}`, "
                f"which verifies nothing ({', '.join(judged.rows)})"
            )
    return tuple(faults)


#: The acceptance rules (SPEC §6 "verdict"; seed 001 "Rules" and "Completion criteria").
#: V0: a run that stopped at a check that changed the artifact is named for that check;
#: what follows from the stop (status blocked, the suite and the negative tests after it
#: not run, that check's own fail) is not said again by V1, V2, V5 and V6. V3 and V5 close
#: the gaps a vacuous or self-contradicting pass would slip through: zero criteria make
#: "every criterion has evidence" trivially true, and a criterion reported failed under a
#: pass status is not a pass. V7: an observed ``true``, ``exit 0`` or ``:``
#: is no evidence (seed 001 "Guardrails": "do not accept a claim whose criteria have no
#: observable check"; judged as receipts are, :mod:`gentle_hooks.policy.nocheck`).
VERDICT_RULES: tuple[VerdictRule, ...] = (
    VerdictRule("V0", "no check changed the artifact it judges", _changed_faults),
    VerdictRule("V1", "status is pass", _status_faults),
    VerdictRule("V2", "the full suite ran", _suite_faults),
    VerdictRule("V3", "at least one criterion was re-checked", _criteria_present_faults),
    VerdictRule("V4", "every criterion has evidence", _evidence_faults),
    VerdictRule("V5", "no criterion reports fail or blocked", _criterion_result_faults),
    VerdictRule("V6", "a mutating artifact had at least one negative test", _negative_test_faults),
    VerdictRule(
        "V7",
        "no criterion or suite was observed running a command that verifies nothing",
        _no_check_faults,
    ),
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


def recorded_status(verdict: DelegationVerdict) -> Status:
    """The status a verdict is recorded and shown with.

    ``blocked`` whenever the full suite did not run, whatever the verdict reports: seed 001
    "Completion criteria", "the full suite ran, or the verdict is ``blocked`` explaining why
    it could not" (so ``fail`` or ``pass`` with ``fullSuiteRun: false`` is ``blocked``);
    else the verdict's own status. :func:`as_recorded` is the verdict with that status.
    """
    return verdict.status if verdict.fullSuiteRun else "blocked"


def as_recorded(verdict: DelegationVerdict) -> DelegationVerdict:
    """``verdict`` with the status it is recorded with (:func:`recorded_status`), so its
    JSON artifact, its ledger row and its Markdown view say the same status: a ``fail`` or
    ``pass`` with ``fullSuiteRun: false`` becomes ``blocked`` (seed 001 "Completion
    criteria"); any other verdict is returned as it is."""
    status = recorded_status(verdict)
    return verdict if status == verdict.status else verdict.model_copy(update={"status": status})


def shared_programs(verdict: DelegationVerdict) -> tuple[str, ...]:
    """The programs ``verdict``'s checks ran from a temporary or shared directory only
    because its caller passed ``--allow-shared-programs`` (``observed.sharedPrograms``),
    sorted, each once; empty when there is none."""
    found = {p for c in verdict.criteria if c.observed for p in c.observed.sharedPrograms or ()}
    return tuple(sorted(found))


def stored_shared_programs(text: str) -> tuple[str, ...]:
    """:func:`shared_programs` of a stored verdict's JSON ``text`` (a ledger row, a note
    line); empty when it does not parse (it was checked when it was stored)."""
    try:
        return shared_programs(parse_verdict(text, "stored verdict"))
    except ArtifactInputError:
        return ()


def binding_fault(verdict: DelegationVerdict, identity: str) -> str | None:
    """Why ``verdict`` cannot be recorded for the candidate ``identity``, or None.

    A verdict judged the candidate it names (``candidate.identity``) and no other (SPEC
    §10: "a verdict for any other candidate never unblocks it"). One that names none is
    bound to nothing: the same file would count for every candidate it is added for, so it
    is refused too (``gentle-hook verify run`` writes the binding).
    """
    if verdict.candidate is None:
        return (
            "the verdict names no candidate (no candidate.identity, baseTree, tree): it could "
            f"be added for any candidate, and counts for none ({identity[:19]}… here)"
        )
    if verdict.candidate.identity == identity:
        return None
    return (
        f"the verdict judged candidate {verdict.candidate.identity[:19]}… (tree "
        f"{verdict.candidate.tree[:12]}), not this one ({identity[:19]}…)"
    )


def verdict_digest(verdict: DelegationVerdict) -> str:
    """``sha256:`` of the verdict's canonical JSON (keys sorted, no whitespace, absent
    optionals left out): the same verdict gives the same digest however it was formatted,
    and any edit gives another."""
    import hashlib
    import json

    canonical = json.dumps(
        verdict.model_dump(mode="json", exclude_none=True),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


#: How a verdict words an id that does not match its pattern (an uppercase one among them:
#: ids are compared as git prints them, so ``ABC...`` is refused, not folded).
_PATTERN_WORDS = {
    _TREE: "must be a git object id: 40 or 64 lowercase hex digits",
    _DIGEST: "must be sha256: and 64 lowercase hex digits",
}


def _verdict_wording(err: ErrorDetails) -> str | None:
    """An oversized summary, worded with its length and :data:`MAX_SUMMARY_CHARS`; an id
    that is not one, worded with the shape it must have (:data:`_PATTERN_WORDS`)."""
    if err["type"] == "string_pattern_mismatch":
        words = _PATTERN_WORDS.get(err.get("ctx", {}).get("pattern", ""))
        loc = ".".join(str(p) for p in err["loc"])
        return f"{loc}: {words}" if words else None
    if err["type"] != "string_too_long" or err["loc"] != ("summary",):
        return None
    size = len(err["input"]) if isinstance(err["input"], str) else "?"
    return (
        f"summary is {size} characters; the limit is {MAX_SUMMARY_CHARS} "
        "(a bounded summary plus artifactRef, never a transcript)"
    )


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
    return parse_object_model(data, source, DelegationVerdict, reword=_verdict_wording)


def verdict_json(verdict: DelegationVerdict) -> str:
    """The stored JSON form of a verdict: stable key order, absent optionals omitted."""
    return verdict.model_dump_json(exclude_none=True, indent=2)
