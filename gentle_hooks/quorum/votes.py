"""Verifier verdicts and how each one counts: upheld, refuted or abstained (SPEC §9).

Room: quorum. Models + pure functions (pydantic, standard library, strict JSON input from
:mod:`gentle_hooks.artifacts.jsonio`); no I/O. Seed ``003_0245072c02421c57.txt`` "The
contract" and "Verdict tallying": an errored, timed-out or malformed verdict (a verifier
output that is not even JSON included), or one whose ``whatIChecked`` is empty or restates
the claim, is an abstention, never support; one whose ``whatIChecked`` is a narrative
("It is well known that…") refutes. "Verifying a verification": a verdict returned faster
than its evidence could have been opened is flagged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    ValidationError,
    model_validator,
)

from gentle_hooks.artifacts.jsonio import (
    NonNegative,
    decode_json,
    describe_validation_error,
)
from gentle_hooks.quorum.completed import incomplete_reason
from gentle_hooks.quorum.failure import FailureSplit, failure_split
from gentle_hooks.quorum.narrative import narrative_reason, unacted_reason, unchecked_reason
from gentle_hooks.quorum.restatement import (
    cited_evidence,
    restatement_reason,
    undescribed_artifact_reason,
    words,
)
from gentle_hooks.values.frozen import frozen

#: Least time, in milliseconds, in which a verifier can re-open one piece of evidence (open
#: a file at a line, re-run a grep): a verdict's ``durationMs`` under this times the
#: evidence it cites (at least one) is "returned faster than the evidence could have been
#: opened" (seed 003 "Verifying a verification"). An agent's tool call alone takes longer.
MIN_OPEN_MS = 1000

#: Longest ``reason``, ``whatIChecked`` or ``correctedImpact`` judged, in characters (a
#: verifier's account of a check, with a few lines of output quoted, fits): a longer one is
#: malformed, so its verdict abstains. Some rules of :mod:`.completed` and :mod:`.restatement`
#: cost the square of a text's length on hostile input; this bounds one verdict's time.
MAX_TEXT = 4_096

_Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]


class QuorumModel(BaseModel):
    """Base of the quorum's JSON models: frozen, ``extra="forbid"``; ``pattern`` is matched
    with Python's ``re``, as a JSON Schema validator in Python matches it."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, regex_engine="python-re"
    )


class VerifierVerdict(QuorumModel):
    """One verifier's answer about one finding (seed 003 "The contract").

    Attributes:
        refuted: true when the verifier refutes the finding.
        reason: why.
        whatIChecked: what the verifier re-opened itself; an empty one, or one that
            restates the claim, makes the verdict an abstention.
        correctedImpact: the finding's impact as the verifier measured it, when different.
        verifier: an id of the verifier that answered (optional, not blank). One verifier
            gives one verdict per finding: a tally refuses two different verdicts under one
            id, and counts copies of one verdict once.
        lens: the refuter's lens (``correctness``, ``reproduction``, ``impact``...), not
            blank; the ``lens-diverse`` stakes need each verifier on a different one.
        durationMs: how long the verifier took; one faster than its evidence could have
            been opened is flagged (:func:`too_fast_reason`).

    Types are strict (``"false"`` is not a boolean); an unknown field, or a text over
    :data:`MAX_TEXT` characters, is malformed.
    """

    refuted: StrictBool
    reason: _Text
    whatIChecked: _Text
    correctedImpact: _Text | None = None
    verifier: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")] | None = None
    lens: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")] | None = None
    durationMs: NonNegative | None = None


@frozen
class UnreadableOutput:
    """A verifier output that is not even JSON (or not UTF-8): it abstains (seed 003
    "Abstentions are not support": a malformed verdict produced no evidence).

    Attributes:
        source: where it was read; problem: why it is unreadable, one line;
        digest: SHA-256 (hex) of its bytes, so two copies of one output count once.
    """

    source: str
    problem: str
    digest: str


class VoteKind(str, Enum):
    """What one verdict counts as in the tally."""

    UPHELD = "upheld"
    REFUTED = "refuted"
    ABSTAINED = "abstained"


class Vote(QuorumModel):
    """One verdict as counted: its kind, the verifier's fields, and why it abstained.

    Attributes:
        vote: upheld, refuted or abstained.
        abstention: why it is an abstention; present exactly when ``vote`` is abstained.
        overruled: why an upheld verdict counts as refuted (its ``whatIChecked`` is a
            narrative, :func:`~gentle_hooks.quorum.narrative.narrative_reason`); present
            only on a refuted vote whose ``refuted`` is false.
        refuted / reason / whatIChecked / correctedImpact: the verifier's fields when it
            parsed (an abstention keeps them, so a lazy verifier stays visible).
        verifier / lens / durationMs: the verifier's id, lens and duration, when given.
        tooFast: why a counted verdict came back faster than its evidence could have been
            opened (:func:`too_fast_reason`); a flag for the audit, not a change of count.
        unchecked: why an upheld vote's evidence was not checked against the candidate's
            tree (:mod:`.judging`): it counts upheld, but the finding is not CONFIRMED.
    """

    vote: VoteKind
    abstention: str | None = None
    overruled: str | None = None
    refuted: StrictBool | None = None
    reason: str | None = None
    whatIChecked: str | None = None
    correctedImpact: str | None = None
    verifier: str | None = None
    lens: str | None = None
    durationMs: int | None = None
    tooFast: str | None = None
    unchecked: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Vote:
        if (self.abstention is not None) != (self.vote is VoteKind.ABSTAINED):
            raise ValueError("abstention must be given exactly when vote is abstained")
        if self.overruled is not None:
            if self.vote is not VoteKind.REFUTED or self.refuted is not False:
                raise ValueError("overruled is given only for an upheld verdict counted refuted")
        elif self.vote is not VoteKind.ABSTAINED and self.refuted != (
            self.vote is VoteKind.REFUTED
        ):
            raise ValueError(
                f"vote {self.vote.value} contradicts refuted: {json.dumps(self.refuted)}"
            )
        if self.unchecked is not None and self.vote is not VoteKind.UPHELD:
            raise ValueError("unchecked is given only for an upheld vote")
        return self

    def sort_key(self) -> tuple[object, ...]:
        """A total order on votes, so records do not depend on verifier order.

        Absent (None) and empty strings sort apart: votes that differ only there are
        different votes and must not keep their input order.
        """
        order = (VoteKind.UPHELD, VoteKind.REFUTED, VoteKind.ABSTAINED).index(self.vote)

        def text(value: str | None) -> tuple[bool, str]:
            return (value is not None, value or "")

        return (
            order,
            text(self.abstention),
            text(self.overruled),
            {None: 0, False: 1, True: 2}[self.refuted],
            text(self.reason),
            text(self.whatIChecked),
            text(self.correctedImpact),
            text(self.verifier),
            text(self.lens),
            (self.durationMs is not None, self.durationMs or 0),
            text(self.tooFast),
            text(self.unchecked),
        )


_WORD = re.compile(r"\w+")


def copy_key(verdict: VerifierVerdict | Vote) -> tuple[object, ...]:
    """What makes two verdicts copies of one another (seed 003 "How many verifiers").

    The same ``refuted``, and the same words in the same order in ``reason``,
    ``whatIChecked`` and ``correctedImpact`` (case-folded; whitespace and punctuation
    ignored, so ``"Opened a.py:1."`` copies ``"opened a.py 1"``). The ``verifier`` label is
    not part of it: independent verifiers that re-opened the evidence do not return the
    same words, so a copy relabelled as another verifier is still one verdict.
    """

    def fold(text: str | None) -> str | None:
        return None if text is None else " ".join(_WORD.findall(text.casefold()))

    return (
        verdict.refuted,
        fold(verdict.reason),
        fold(verdict.whatIChecked),
        fold(verdict.correctedImpact),
    )


def verifier_id(raw: object) -> str | None:
    """The ``verifier`` id a raw answer names (stripped), or None when it names none.

    Read from errored, timed-out and malformed answers too, so one verifier's second
    answer is seen whatever shape either answer has.
    """
    if isinstance(raw, VerifierVerdict):
        return raw.verifier.strip() if raw.verifier is not None else None
    if isinstance(raw, dict):
        value = raw.get("verifier")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


class DuplicateKeys(dict[str, object]):
    """A JSON object that repeated a key: kept as a value so its verdict abstains."""

    def __init__(self, pairs: Sequence[tuple[str, object]], duplicates: Sequence[str]) -> None:
        super().__init__(pairs)
        self.duplicates = tuple(duplicates)


def _mark_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    counts = Counter(k for k, _ in pairs)
    dupes = sorted(k for k, n in counts.items() if n > 1)
    return DuplicateKeys(pairs, dupes) if dupes else dict(pairs)


def _clip(text: str, limit: int = 80) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def _error_abstention(raw: dict[str, object]) -> str | None:
    if raw.get("timedOut") is True or raw.get("timeout") is True:
        return "timed out"
    if "error" in raw:
        error = raw["error"]
        detail = _clip(error) if isinstance(error, str) else json.dumps(error)
        return f"errored: {detail}"
    return None


def evidence_pieces(what_i_checked: str, claim: str | None) -> int:
    """How many distinct pieces of evidence ``what_i_checked`` cites beyond the claim:
    :func:`~gentle_hooks.quorum.restatement.cited_evidence` tokens, without bare numbers
    and without a token inside another (``workflow.js`` in ``workflow.js:142`` is one
    piece)."""
    tokens = {
        t
        for t in cited_evidence(what_i_checked, claim)
        if not t.replace(",", "").replace(".", "").isdigit()
    }
    return sum(1 for t in tokens if not any(t != u and t in u for u in tokens))


def too_fast_reason(verdict: VerifierVerdict, claim: str | None) -> str | None:
    """Why ``verdict`` came back faster than its evidence could have been opened, or None.

    Seed 003 "Verifying a verification": "Look for verdicts returned faster than the
    evidence could have been opened." A verdict with ``durationMs`` under
    :data:`MIN_OPEN_MS` times the evidence its ``whatIChecked`` cites (at least one piece,
    :func:`~gentle_hooks.quorum.restatement.cited_evidence`) is too fast. No
    ``durationMs``: nothing to judge, None.
    """
    if verdict.durationMs is None:
        return None
    pieces = max(1, evidence_pieces(verdict.whatIChecked, claim))
    floor = pieces * MIN_OPEN_MS
    if verdict.durationMs >= floor:
        return None
    return (
        f"returned in {verdict.durationMs} ms, faster than {pieces} piece(s) of evidence "
        f"could have been opened (at least {floor} ms)"
    )


def classify_verdict(raw: object, claim: str | None = None) -> Vote:
    """Count one verifier's answer: upheld, refuted, or an abstention with its reason.

    Args:
        raw: a :class:`VerifierVerdict`, an :class:`UnreadableOutput`, or a JSON value as
            the verifier returned it. ``{"error": ...}`` is an errored verifier,
            ``{"timedOut": true}`` a timed-out one; anything not a well-formed verdict is
            malformed.
        claim: the finding's claim, for
            :func:`~gentle_hooks.quorum.restatement.restatement_reason`.

    Returns:
        A :class:`Vote`, decided in this order (seed 003):

        1. errored, timed out, unreadable, malformed, a blank ``reason`` or an empty
           ``whatIChecked`` → abstained ("Abstentions are not support");
        1a. a ``whatIChecked`` with a part that says its check failed or never happened
           (:func:`~gentle_hooks.quorum.failure.failure_split`, rows
           :data:`~gentle_hooks.quorum.failure.FAILURE_ROWS`): the failed parts are not
           evidence, whatever they cite. A narrative anywhere refutes (step 2, with only
           the rest's citations saving a hedge). When the rest shows a check of its own
           (steps 3 and 4 on the rest; for an upheld verdict also: no failed part names a
           file the claim cites) the verdict counts as the verifier said; otherwise the
           row decides: ``F-errored`` abstains, ``F-missing``, ``F-unreproduced`` and
           ``F-skipped`` refute (``overruled`` says why when it upheld);
        2. a ``whatIChecked`` that is a narrative (``"It is well known that…"``,
           :func:`~gentle_hooks.quorum.narrative.narrative_reason`) → refuted, whatever
           the verifier said ("Not evidence. Refute"; ``overruled`` says why when it
           upheld);
        3. a ``whatIChecked`` that restates the claim or names no evidence, (upheld)
           names a screenshot or artifact as its only evidence without describing it
           (:func:`~gentle_hooks.quorum.restatement.undescribed_artifact_reason`), or
           (refuted) cites evidence with no act of checking
           (:func:`~gentle_hooks.quorum.narrative.unacted_reason`) → abstained;
        4. an upheld verdict whose ``whatIChecked`` states no act of checking the verifier
           performed with what it observed
           (:func:`~gentle_hooks.quorum.narrative.unchecked_reason`), or holds no
           completed observation (an act in the past tense, not planned, queued or
           conditional, naming its evidence, with a result:
           :func:`~gentle_hooks.quorum.completed.incomplete_reason`) → refuted, with
           ``overruled`` saying why; abstained when its only observation is of a run
           stopped before it completed (SIGKILL, exit 137, interrupted);
        5. else upheld or refuted as the verifier said.

        A counted vote carries ``tooFast`` when :func:`too_fast_reason` flags it.
    """
    verifier = verifier_id(raw)
    if isinstance(raw, UnreadableOutput):
        # named by its file: the tally shows which verifier's output produced no evidence
        return Vote(vote=VoteKind.ABSTAINED, abstention=f"malformed: {raw.problem} ({raw.source})")
    if isinstance(raw, VerifierVerdict):
        verdict = raw
    elif isinstance(raw, DuplicateKeys):
        return Vote(
            vote=VoteKind.ABSTAINED,
            abstention=f"malformed: duplicate key {', '.join(map(repr, raw.duplicates))}",
            verifier=verifier,
        )
    elif isinstance(raw, dict):
        errored = _error_abstention(raw)
        if errored is not None:
            return Vote(vote=VoteKind.ABSTAINED, abstention=errored, verifier=verifier)
        try:
            verdict = VerifierVerdict.model_validate(raw)
        except ValidationError as exc:
            return Vote(
                vote=VoteKind.ABSTAINED,
                abstention=f"malformed: {describe_validation_error(exc)}",
                verifier=verifier,
            )
    else:
        kind = "null" if raw is None else type(raw).__name__
        return Vote(
            vote=VoteKind.ABSTAINED, abstention=f"malformed: expected an object, got {kind}"
        )
    fields = {
        "refuted": verdict.refuted,
        "reason": verdict.reason,
        "whatIChecked": verdict.whatIChecked,
        "correctedImpact": verdict.correctedImpact,
        "verifier": verifier,
        "lens": verdict.lens.strip() if verdict.lens is not None else None,
        "durationMs": verdict.durationMs,
    }
    if not verdict.reason.strip():
        return Vote(vote=VoteKind.ABSTAINED, abstention="no reason given", **fields)
    if not words(verdict.whatIChecked):
        return Vote(vote=VoteKind.ABSTAINED, abstention="whatIChecked is empty", **fields)
    fast = too_fast_reason(verdict, claim)
    failed = failure_split(verdict.whatIChecked, claim, by_clause=verdict.refuted)
    if failed is not None:
        return _failed_vote(verdict, claim, failed, fast, fields)
    narrative = narrative_reason(verdict.whatIChecked, claim)
    if narrative is not None:
        overruled = None if verdict.refuted else narrative
        return Vote(vote=VoteKind.REFUTED, overruled=overruled, tooFast=fast, **fields)
    restated = _restated(verdict.whatIChecked, claim, verdict.refuted)
    if restated is not None:
        return Vote(vote=VoteKind.ABSTAINED, abstention=restated, **fields)
    if not verdict.refuted:
        return _upheld_vote(verdict.whatIChecked, claim, fast, fields)
    return Vote(vote=VoteKind.REFUTED, tooFast=fast, **fields)


def _upheld_vote(
    shown: str, claim: str | None, fast: str | None, fields: dict[str, object]
) -> Vote:
    """An upheld verdict whose ``shown`` evidence passed the earlier steps: support only
    with an act of checking and what it observed (step 4) in a completed observation
    (:func:`~gentle_hooks.quorum.completed.incomplete_reason`: refuted when none is there,
    abstained when the run was stopped before it completed)."""
    unchecked = unchecked_reason(shown, claim)
    if unchecked is not None:
        return Vote(vote=VoteKind.REFUTED, overruled=unchecked, tooFast=fast, **fields)
    incomplete = incomplete_reason(shown, claim)
    if incomplete is None:
        return Vote(vote=VoteKind.UPHELD, tooFast=fast, **fields)
    reason, outcome = incomplete
    if outcome == "abstain":
        return Vote(vote=VoteKind.ABSTAINED, abstention=reason, **fields)
    return Vote(vote=VoteKind.REFUTED, overruled=reason, tooFast=fast, **fields)


def _restated(what_i_checked: str, claim: str | None, refuted: bool) -> str | None:
    """Why ``what_i_checked`` shows no check of its own (it restates the claim, names no
    evidence, or, upholding, names a screenshot without describing it, or, refuting, is a
    bare citation: :func:`~gentle_hooks.quorum.narrative.unacted_reason`), or None. An
    upheld bare citation is refuted instead (step 4: "Uphold ONLY if you re-opened")."""
    restated = restatement_reason(what_i_checked, claim)
    if restated is None and not refuted:
        restated = undescribed_artifact_reason(what_i_checked, claim)
    if restated is None and refuted:
        restated = unacted_reason(what_i_checked, claim)
    return restated


def _failed_vote(
    verdict: VerifierVerdict,
    claim: str | None,
    failed: FailureSplit,
    fast: str | None,
    fields: dict[str, object],
) -> Vote:
    """Count a verdict whose ``whatIChecked`` reports a failed or absent check (step 2 of
    :func:`classify_verdict`)."""
    upheld = not verdict.refuted
    narrative = narrative_reason(verdict.whatIChecked, claim, evidence=failed.rest)
    if narrative is not None:
        return Vote(
            vote=VoteKind.REFUTED, overruled=narrative if upheld else None, tooFast=fast, **fields
        )
    counts = (
        bool(failed.rest)
        and _restated(failed.rest, claim, verdict.refuted) is None
        and not (upheld and failed.claim_files)
    )
    if counts and upheld:
        return _upheld_vote(failed.rest, claim, fast, fields)
    if counts:
        return Vote(vote=VoteKind.REFUTED, tooFast=fast, **fields)
    reason = failed.reason()
    if failed.row.outcome == "abstain":
        return Vote(vote=VoteKind.ABSTAINED, abstention=reason, **fields)
    return Vote(vote=VoteKind.REFUTED, overruled=reason if upheld else None, tooFast=fast, **fields)


def load_verdict_json(data: bytes | str, source: str) -> object:
    """Decode a verdict file's JSON value; an object that repeats a key is a
    :class:`DuplicateKeys` (so a verdict that does abstains instead of failing the file).

    Raises:
        ArtifactInputError: the file is not UTF-8, not JSON at all, or nested too deeply
            for the parser (exit 2).
    """
    return decode_json(data, source, object_pairs_hook=_mark_duplicates, byte_offset=False)[1]


def parse_verdict_values(data: bytes | str, source: str) -> tuple[object, ...]:
    """Read a file of verifier answers: one JSON value, or a JSON array of them.

    Values are returned raw for :func:`classify_verdict`; a malformed *verdict* abstains.
    An object that repeats a key is kept (as :class:`DuplicateKeys`) and abstains. (A file
    that also names the claim is read by :func:`gentle_hooks.quorum.ballot.parse_verdict_file`.)

    Raises:
        ArtifactInputError: the file is not UTF-8, not JSON at all, or nested too deeply
            for the parser (exit 2).
    """
    value = load_verdict_json(data, source)
    return tuple(value) if isinstance(value, list) else (value,)
