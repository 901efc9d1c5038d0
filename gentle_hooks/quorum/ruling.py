"""The deterministic tally of one finding's votes, its ruling, and the stored record (SPEC §9).

Room ``quorum``, models + pure functions; no I/O. Seed ``003_0245072c02421c57.txt`` "Verdict
tallying" and "Verdict meanings": done in code, never by another agent. A tie and any
contest are PLAUSIBLE, never CONFIRMED; zero valid verdicts never survives; refuted findings
are kept with their reasons.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Annotated, Final, Literal

from pydantic import Field, StrictBool, StrictStr, ValidationError, model_validator

from gentle_hooks.artifacts.jsonio import (
    ArtifactInputError,
    describe_validation_error,
    load_json_text,
)
from gentle_hooks.errors import PolicyInputError
from gentle_hooks.policy.stakes import (
    Stakes,
    parse_stakes,
    stakes_row,
    verifier_identity,
    verifiers_required,
)
from gentle_hooks.quorum.ballot import distinct_verdicts
from gentle_hooks.quorum.checkable import CheckSource
from gentle_hooks.quorum.judging import as_checked, judged
from gentle_hooks.quorum.votes import (
    QuorumModel,
    VerifierVerdict,
    Vote,
    VoteKind,
    classify_verdict,
    copy_key,
)
from gentle_hooks.values.frozen import frozen

TALLY_SCHEMA: Final = "gentle-hooks.quorum-tally/v1"


class Tally(QuorumModel):
    """The counted verdicts of one finding: ``{survives, upheld, refuted, abstained, contested}``.

    Attributes:
        upheld / refuted: valid verdicts each way; abstained: abstentions.
        contested: at least one valid verdict each way.
        required: valid verdicts the stakes need (:func:`verifiers_required`).
        lenses: distinct lenses among the valid verdicts (a verdict without one adds none).
        diverse: the stakes need each of the ``required`` verifiers on a different lens
            (``lens-diverse``: "where failure modes differ in kind").
        unchecked: upheld verdicts whose evidence was not checked against the candidate's
            tree (:mod:`.judging`); a record written before it existed reads 0.
        survives: the finding is CONFIRMED: at least ``required`` valid verdicts (and as
            many distinct lenses when ``diverse``), at least one upheld, none refuted, and
            every upheld one checked against the candidate's tree.

    Inconsistent counts (``survives`` true with a refutation...) fail validation, so a
    stored tally cannot claim what its counts do not say.
    """

    survives: StrictBool
    upheld: int = Field(ge=0, strict=True)
    refuted: int = Field(ge=0, strict=True)
    abstained: int = Field(ge=0, strict=True)
    contested: StrictBool
    required: int = Field(default=1, ge=1, strict=True)
    lenses: int = Field(default=0, ge=0, strict=True)
    diverse: StrictBool = False
    unchecked: int = Field(default=0, ge=0, strict=True)

    @property
    def valid(self) -> int:
        """Valid (non-abstaining) verdicts."""
        return self.upheld + self.refuted

    @model_validator(mode="after")
    def _consistent(self) -> Tally:
        if self.contested != (self.upheld > 0 and self.refuted > 0):
            raise ValueError("contested must be true exactly when upheld > 0 and refuted > 0")
        if self.lenses > self.valid:
            raise ValueError("lenses cannot exceed the valid verdicts")
        if self.unchecked > self.upheld:
            raise ValueError("unchecked cannot exceed the upheld verdicts")
        if self.survives != _survives(
            self.upheld, self.refuted, self.required, self.lenses, self.diverse, self.unchecked
        ):
            raise ValueError("survives contradicts the counts")
        return self


def _survives(
    upheld: int, refuted: int, required: int, lenses: int, diverse: bool, unchecked: int = 0
) -> bool:
    lenses_ok = not diverse or lenses >= required
    return upheld > 0 and refuted == 0 and upheld >= required and lenses_ok and unchecked == 0


def tally(
    verdicts: Iterable[object],
    claim: str,
    required: int = 1,
    diverse: bool = False,
    evidence: str | None = None,
    source: CheckSource | None = None,
) -> Tally:
    """Tally one finding's verifier verdicts (seed 003 "Verdict tallying"; SPEC §9).

    Args:
        verdicts: one answer per verifier, as :func:`classify_verdict` takes them.
        claim: the finding's claim: a ``whatIChecked`` that restates it abstains.
        required: valid verdicts the stakes need (default 1).
        diverse: each of them must hold a different lens (``lens-diverse`` stakes).
        evidence: the miner's evidence for the claim: a ``whatIChecked`` restating it
            abstains (:func:`judged`).
        source: the candidate's tree (and clean-room record) upheld evidence is checked
            in; without it every upheld vote is unchecked (at most PLAUSIBLE).

    Returns:
        The :class:`Tally`; it depends only on the multiset of verdicts, not their order.
        Copies of one verdict count once (:func:`distinct_verdicts`).

    Raises:
        PolicyInputError: a blank claim (exit 2).
        ArtifactInputError: one verifier id on two different verdicts (exit 2).
    """
    claim = _claim(claim)
    distinct, _ = distinct_verdicts(verdicts)
    votes = [judged(classify_verdict(v, claim), evidence, claim, source) for v in distinct]
    return tally_votes(votes, required, diverse)


def _claim(claim: str) -> str:
    if not claim.strip():
        raise PolicyInputError("no claim: a tally needs the finding's claim (--claim)")
    return claim


def tally_votes(votes: Iterable[Vote], required: int = 1, diverse: bool = False) -> Tally:
    """Count classified votes into a :class:`Tally` (see :func:`tally`)."""
    counts = {kind: 0 for kind in VoteKind}
    lenses: set[str] = set()
    unchecked = 0
    for vote in votes:
        counts[vote.vote] += 1
        unchecked += vote.unchecked is not None
        if vote.vote is not VoteKind.ABSTAINED and vote.lens is not None:
            lenses.add(vote.lens.casefold())
    up, down = counts[VoteKind.UPHELD], counts[VoteKind.REFUTED]
    return Tally(
        survives=_survives(up, down, required, len(lenses), diverse, unchecked),
        upheld=up,
        refuted=down,
        abstained=counts[VoteKind.ABSTAINED],
        contested=up > 0 and down > 0,
        required=required,
        lenses=len(lenses),
        diverse=diverse,
        unchecked=unchecked,
    )


RulingName = Literal["CONFIRMED", "PLAUSIBLE", "REFUTED"]


@frozen
class RulingRow:
    """One ruling rule: a stable id, the condition in words, its predicate, the ruling, and
    for PLAUSIBLE what would settle it (seed 003 "Verdict meanings": "State it as
    unverified, with what would settle it")."""

    id: str
    when: str
    matches: Callable[[Tally], bool]
    ruling: RulingName
    settle: str | None = None


#: What settles a contest: one more verifier of another role, never a debate (seed 001
#: "Guardrails": "spawn one reviewer with a different role and a clean context").
_ONE_MORE = (
    "one more verifier with a lens not yet used and a clean context re-opens the cited "
    "evidence itself; a majority of valid verdicts either way settles it"
)

#: The lenses a Q5L settle suggests, in order (seed 003 "a correctness refuter, a
#: reproduction refuter, and an impact refuter catch three classes"), those in use left out.
SUGGESTED_LENSES = ("correctness", "reproduction", "impact", "security", "performance")
#: Q5L's settle in records written before it named the lenses in use (still read).
_Q5L_BEFORE = (
    "verifiers of the missing lenses (say correctness, reproduction, impact) re-open "
    "the evidence, each naming its lens"
)

#: Seed 003 "Verdict meanings" as rows; first match wins.
RULING_ROWS: tuple[RulingRow, ...] = (
    RulingRow(
        "Q1",
        "no valid verdict: nothing verified it",
        lambda t: t.valid == 0,
        "PLAUSIBLE",
        "a verifier re-opens the cited evidence itself and returns a verdict whose "
        "whatIChecked names what it opened (a path, file:line, a command, a quote)",
    ),
    RulingRow("Q2", "majority refuted on re-check", lambda t: t.refuted > t.upheld, "REFUTED"),
    RulingRow(
        "Q3",
        "a tie: contested, never rounded up",
        lambda t: t.refuted == t.upheld,
        "PLAUSIBLE",
        _ONE_MORE,
    ),
    RulingRow("Q4", "upheld but contested", lambda t: t.refuted > 0, "PLAUSIBLE", _ONE_MORE),
    RulingRow(
        "Q5",
        "upheld by fewer valid verdicts than the stakes need",
        lambda t: t.valid < t.required,
        "PLAUSIBLE",
        "more verifiers re-open the evidence until the stakes' count of valid verdicts is met",
    ),
    RulingRow(
        "Q5L",
        "upheld by verifiers of fewer different lenses than the stakes need",
        lambda t: t.diverse and t.lenses < t.required,
        "PLAUSIBLE",
        _Q5L_BEFORE,
    ),
    RulingRow(
        "Q6U",
        "upheld, but its evidence was not checked against the candidate's tree",
        lambda t: t.unchecked > 0,
        "PLAUSIBLE",
        "tally again where the candidate's tree can be read: --tree REV, or the verdict "
        'set\'s "candidate" (a cited file:line whose quote is at that line checks it), or '
        "--observed VERDICT (a command the clean room of `verify run` ran checks it too)",
    ),
    RulingRow("Q6", "upheld, uncontested", lambda t: True, "CONFIRMED"),
)


@frozen
class Ruling:
    """A finding's ruling: CONFIRMED, PLAUSIBLE or REFUTED, the row that decided, why, and
    (PLAUSIBLE only) what would settle it."""

    ruling: RulingName
    row: str
    why: str
    settle: str | None = None


def rule(t: Tally, lenses: Iterable[str] = ()) -> Ruling:
    """Rule a finding from its tally (seed 003 "Verdict meanings"; SPEC §9).

    CONFIRMED only when uncontested upheld by at least ``t.required`` valid verdicts (of
    as many lenses when ``t.diverse``); REFUTED when refutations outnumber upholdings;
    PLAUSIBLE for zero valid verdicts, a tie, any contest, too few valid verdicts or too
    few lenses, always with what would settle it. CONFIRMED exactly when ``t.survives``.
    ``lenses``: the lenses the counted votes hold (:func:`counted_lenses`); too few of
    them (Q5L), the settle names them and suggests only lenses not among them.
    """
    row = next(r for r in RULING_ROWS if r.matches(t))
    why, settle = row.when, row.settle
    if row.id == "Q5":
        why += f" ({t.valid} of {t.required})"
        settle = f"{t.required - t.valid} more valid verdict(s): {settle}"
    if row.id == "Q5L":
        why += f" ({t.lenses} of {t.required})"
        settle = _missing_lenses(t, lenses)
    return Ruling(ruling=row.ruling, row=row.id, why=why, settle=settle)


def counted_lenses(votes: Iterable[Vote]) -> tuple[str, ...]:
    """The distinct lenses (casefolded, sorted) of the votes that count: not abstained,
    a lens named (as :func:`tally_votes` counts them)."""
    return tuple(
        sorted({v.lens.casefold() for v in votes if v.vote is not VoteKind.ABSTAINED and v.lens})
    )


def _missing_lenses(t: Tally, lenses: Iterable[str]) -> str:
    """Q5L's settle: how many verifiers of lenses not yet used, a few of
    :data:`SUGGESTED_LENSES` not among ``lenses`` (those in use named)."""
    used = sorted({x.casefold() for x in lenses})
    need = max(t.required - t.lenses, 1)
    fresh = [x for x in SUGGESTED_LENSES if x not in used][:need]
    say = f"say {', '.join(fresh)}; " if fresh else ""
    held = f"not {', '.join(used)}, already used" if used else "none is named yet"
    return (
        f"{need} more verifier(s), each of a lens not yet used ({say}{held}), re-open the "
        "evidence, each naming its lens"
    )


class TallyRecord(QuorumModel):
    """A stored tally: one finding, its votes, tally and ruling (``quorum tally --json``).

    Refuted findings are kept with their reasons (seed 003: so a requorum does not
    re-litigate them). Validation recomputes the tally and ruling from the votes and the
    stakes, so a record whose counts, ruling or ``required`` were edited is refused.

    Attributes:
        claim: the finding's claim (required: restating checks are judged against it).
        evidence: the miner's evidence for it, when given (a check restating it abstains).
        finding / lens: the finding's id and the lens that mined it (optional).
        stakes / critical: set ``tally.required`` through :func:`verifiers_required` (and
            ``tally.diverse`` for ``lens-diverse``).
        ruling / row / why / settle: :func:`rule` of the tally; ``settle`` says what would
            settle a PLAUSIBLE ruling.
        votes: every distinct verdict as counted, in a canonical order. No two counted votes
            are copies (:func:`copy_key`) and no verifier id appears twice.
        duplicates: what was given more than once and counted once, one line each
            (the same file twice, identical verdicts).
        checkedAgainst: the candidate's tree the upheld votes were checked against
            (``quorum tally --observed`` or ``--tree``); a vote refuted for no checkable
            evidence there, or upheld as checked there, is taken as recorded (the tree is
            not read again). Without it every upheld vote is ``unchecked``
            (:data:`~.judging.NO_TREE`) and the ruling at most PLAUSIBLE (row ``Q6U``).

    Consistency is not authenticity: a record written from scratch is not detected; one
    whose parts contradict each other (a restating check counted as upheld) is.
    """

    schema_: Literal["gentle-hooks.quorum-tally/v1"] = Field(default=TALLY_SCHEMA, alias="schema")
    finding: str | None = None
    lens: str | None = None
    claim: Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
    evidence: StrictStr | None = None
    stakes: Stakes = Stakes.ORDINARY
    critical: StrictBool = False
    tally: Tally
    ruling: RulingName
    row: str
    why: str
    settle: str | None = None
    votes: tuple[Vote, ...]
    duplicates: tuple[str, ...] = ()
    checkedAgainst: StrictStr | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TallyRecord:
        _refuse_repeats(self.votes)
        for n, vote in enumerate(self.votes):
            if vote.vote is VoteKind.ABSTAINED:
                continue
            if vote.reason is None or vote.whatIChecked is None:
                raise ValueError(f"votes.{n}: a counted vote needs reason and whatIChecked")
            again = classify_verdict(
                VerifierVerdict(
                    refuted=bool(vote.refuted),
                    reason=vote.reason,
                    whatIChecked=vote.whatIChecked,
                    correctedImpact=vote.correctedImpact,
                    lens=vote.lens,
                    durationMs=vote.durationMs,
                ),
                self.claim,
            )
            again = judged(again, self.evidence, self.claim)
            if self.checkedAgainst:
                again = as_checked(vote, again)
            if again.vote is not vote.vote:
                why = again.abstention or again.overruled or f"it counts as {again.vote.value}"
                raise ValueError(f"votes.{n}: counted as {vote.vote.value}, but {why}")
            if (again.overruled, again.tooFast) != (vote.overruled, vote.tooFast):
                raise ValueError(f"votes.{n}: overruled or tooFast contradicts the verdict")
            if again.unchecked != vote.unchecked:
                raise ValueError(
                    f"votes.{n}: unchecked contradicts the verdict (no tree checked it: "
                    "tally it again)"
                )
        row = stakes_row(self.stakes)
        required = row.verifiers_critical if self.critical else row.verifiers
        expected = tally_votes(self.votes, required, row.distinct_lenses)
        if self.tally != expected:
            raise ValueError("tally does not match the votes and stakes")
        ruled = rule(self.tally, counted_lenses(self.votes))
        if (self.ruling, self.row, self.why) != (ruled.ruling, ruled.row, ruled.why):
            raise ValueError(f"ruling must be {ruled.ruling} ({ruled.row}) for this tally")
        # a record written before ``settle`` existed has none; a given one must be right
        # (or, Q5L, the wording of records written before it named the lenses in use)
        old = ruled.row == "Q5L" and self.settle == _Q5L_BEFORE
        if self.settle is not None and self.settle != ruled.settle and not old:
            raise ValueError(f"settle must be {ruled.settle!r} for this ruling")
        return self


def _refuse_repeats(votes: tuple[Vote, ...]) -> None:
    """A stored record whose votes repeat a verdict or a verifier pads its tally."""
    copies: dict[tuple[object, ...], int] = {}
    verifiers: dict[str, int] = {}  # by verifier_identity: "Alice" is " alice "
    for n, vote in enumerate(votes):
        if vote.vote is not VoteKind.ABSTAINED:
            first = copies.setdefault(copy_key(vote), n)
            if first != n:
                raise ValueError(f"votes.{n} repeats votes.{first}: a verdict counts once")
        if vote.verifier is not None:
            first = verifiers.setdefault(verifier_identity(vote.verifier), n)
            if first != n:
                raise ValueError(
                    f"votes.{n}: verifier {vote.verifier!r} already voted in votes.{first}"
                )


def build_record(
    verdicts: Iterable[object],
    claim: str,
    *,
    finding: str | None = None,
    lens: str | None = None,
    stakes: str | Stakes = Stakes.ORDINARY,
    critical: bool = False,
    duplicates: Iterable[str] = (),
    evidence: str | None = None,
    source: CheckSource | None = None,
) -> TallyRecord:
    """Classify, tally and rule one finding's verdicts into a storable :class:`TallyRecord`.

    Args:
        verdicts: one answer per verifier, as :func:`classify_verdict` takes them.
        claim: the finding's claim (seed 003: a ``whatIChecked`` restating it abstains).
        finding / lens / stakes / critical: kept in the record; stakes and critical set
            the valid verdicts required (:func:`verifiers_required`).
        duplicates: notes on copies the caller already dropped (the same file twice).
        evidence: the miner's evidence for the claim, kept; a ``whatIChecked`` restating
            it abstains (:func:`judged`).
        source: the candidate's tree and the clean room's record an upheld vote's
            evidence must check out in (:func:`judged`), its tree kept.

    Returns:
        The record; independent of verdict order (votes are sorted canonically). Copies of
        one verdict count once, and each set of copies is noted in ``duplicates``
        (:func:`distinct_verdicts`).

    Raises:
        PolicyInputError: unknown stakes, or a blank claim (exit 2).
        ArtifactInputError: one verifier id on two different verdicts (exit 2).
    """
    level = parse_stakes(stakes)
    claim = _claim(claim)
    distinct, notes = distinct_verdicts(verdicts)
    votes = sorted(
        (judged(classify_verdict(v, claim), evidence, claim, source) for v in distinct),
        key=Vote.sort_key,
    )
    counted = tally_votes(
        votes, verifiers_required(level, critical), stakes_row(level).distinct_lenses
    )
    ruled = rule(counted, counted_lenses(votes))
    return TallyRecord(
        finding=finding,
        lens=lens,
        claim=claim,
        evidence=evidence,
        stakes=level,
        critical=critical,
        tally=counted,
        ruling=ruled.ruling,
        row=ruled.row,
        why=ruled.why,
        settle=ruled.settle,
        votes=tuple(votes),
        duplicates=(*duplicates, *notes),
        checkedAgainst=source.tree if source is not None else None,
    )


def parse_tally_records(data: bytes | str, source: str) -> tuple[TallyRecord, ...]:
    """Read stored tally records: one :class:`TallyRecord` object or a JSON array of them.

    Raises:
        ArtifactInputError: not UTF-8, not JSON, duplicate keys, or a record that is not a
            consistent :class:`TallyRecord` (the message names the item) (exit 2).
    """
    _, value = load_json_text(data, source)
    items = value if isinstance(value, list) else [value]
    records: list[TallyRecord] = []
    for n, item in enumerate(items):
        where = f"{source}[{n}]" if isinstance(value, list) else source
        try:
            records.append(TallyRecord.model_validate_json(json.dumps(item)))
        except ValidationError as exc:
            raise ArtifactInputError(
                f"{where}: not a tally record: {describe_validation_error(exc)}"
            ) from None
    return tuple(records)
