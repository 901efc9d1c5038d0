"""Quorum tally, ruling, survival report and stakes (SPEC §9; seed 003). Every rule a row."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.artifacts.jsonio import ArtifactInputError
from gentle_hooks.errors import EXIT_INPUT, PolicyInputError, UsageError
from gentle_hooks.policy.stakes import (
    STAKES_ROWS,
    parse_stakes,
    stakes_satisfied,
    verifiers_required,
)
from gentle_hooks.quorum.ballot import VerdictFile, parse_verdict_file, resolve_claim
from gentle_hooks.quorum.restatement import is_restatement, restatement_reason, words
from gentle_hooks.quorum.ruling import (
    RULING_ROWS,
    Tally,
    TallyRecord,
    build_record,
    parse_tally_records,
    rule,
    tally,
)
from gentle_hooks.quorum.survival import FLAG_MEANINGS, survival_report
from gentle_hooks.quorum.votes import (
    VerifierVerdict,
    VoteKind,
    classify_verdict,
    parse_verdict_values,
)
from tests.quorum_tree import CHECKED, TREE, checked_up

CLAIM = "Subagents inherit no budget cap, so a fan-out can exceed the run budget"


def up(checked: str = "opened workflow.js:142; loop has no budget check") -> dict[str, Any]:
    return {"refuted": False, "reason": "reproduces", "whatIChecked": checked}


def down(reason: str = "cap enforced in spawn()") -> dict[str, Any]:
    return {"refuted": True, "reason": reason, "whatIChecked": "read spawn() in pool.js:88"}


ERRORED = {"error": "verifier crashed: exit 137"}
TIMED_OUT = {"timedOut": True}
MALFORMED = {"refuted": "false", "reason": "r", "whatIChecked": "opened pool.js"}
RESTATED = up("subagents inherit no budget cap")
EMPTY_CHECK = up("  ")
# Distinct verdicts from other verifiers: copies of one verdict count once.
UP2 = up("re-ran the 2026-08-14 query: 41 agents spawned")
UP3 = up("read spawn() in workflow.js: no budget argument")
DOWN2 = down("a budget guard in pool.js:90 stops the loop")
DOWN3 = {**down("run 2026-08-14 had 12 agents"), "whatIChecked": "re-ran the log query"}

# --- one verdict: how it counts --------------------------------------------------------------

CLASSIFY_ROWS: list[tuple[str, object, str | None, VoteKind, str | None]] = [
    ("upheld", up(), CLAIM, VoteKind.UPHELD, None),
    ("refuted", down(), CLAIM, VoteKind.REFUTED, None),
    ("parsed-model", VerifierVerdict(**up()), CLAIM, VoteKind.UPHELD, None),
    (
        "with-corrected-impact",
        {**down(), "correctedImpact": "minor"},
        CLAIM,
        VoteKind.REFUTED,
        None,
    ),
    ("errored", ERRORED, CLAIM, VoteKind.ABSTAINED, "errored: verifier crashed: exit 137"),
    ("errored-object", {"error": {"code": 5}}, CLAIM, VoteKind.ABSTAINED, 'errored: {"code": 5}'),
    ("timed-out", TIMED_OUT, CLAIM, VoteKind.ABSTAINED, "timed out"),
    (
        "refuted-as-string",
        MALFORMED,
        CLAIM,
        VoteKind.ABSTAINED,
        "malformed: refuted: Input should be a valid boolean",
    ),
    (
        "missing-what-i-checked",
        {"refuted": False, "reason": "r"},
        CLAIM,
        VoteKind.ABSTAINED,
        "malformed: whatIChecked: required field missing",
    ),
    (
        "extra-field",
        {**up(), "confidence": 0.9},
        CLAIM,
        VoteKind.ABSTAINED,
        "malformed: confidence: unknown field",
    ),
    ("null", None, CLAIM, VoteKind.ABSTAINED, "malformed: expected an object, got null"),
    ("string", "upheld", CLAIM, VoteKind.ABSTAINED, "malformed: expected an object, got str"),
    ("list", [up()], CLAIM, VoteKind.ABSTAINED, "malformed: expected an object, got list"),
    ("blank-reason", {**up(), "reason": " "}, CLAIM, VoteKind.ABSTAINED, "no reason given"),
    ("empty-check", up(""), CLAIM, VoteKind.ABSTAINED, "whatIChecked is empty"),
    ("blank-check", EMPTY_CHECK, CLAIM, VoteKind.ABSTAINED, "whatIChecked is empty"),
    ("punctuation-check", up("... -- !"), CLAIM, VoteKind.ABSTAINED, "whatIChecked is empty"),
    (
        "empty-check-refuting",
        {**down(), "whatIChecked": ""},
        CLAIM,
        VoteKind.ABSTAINED,
        "whatIChecked is empty",
    ),
    ("restated", RESTATED, CLAIM, VoteKind.ABSTAINED, "whatIChecked restates the claim"),
    (
        "restated-refuting",
        {**down(), "whatIChecked": CLAIM},
        CLAIM,
        VoteKind.ABSTAINED,
        "whatIChecked restates the claim",
    ),
    # without a claim nothing is a restatement, but no act of checking is stated: refuted
    ("restated-without-claim-refutes", RESTATED, None, VoteKind.REFUTED, None),
    (
        "empty-without-claim-abstains",
        EMPTY_CHECK,
        None,
        VoteKind.ABSTAINED,
        "whatIChecked is empty",
    ),
]


@pytest.mark.parametrize(
    ("raw", "claim", "kind", "abstention"),
    [r[1:] for r in CLASSIFY_ROWS],
    ids=[r[0] for r in CLASSIFY_ROWS],
)
def test_classify_verdict(
    raw: object, claim: str | None, kind: VoteKind, abstention: str | None
) -> None:
    vote = classify_verdict(raw, claim)
    assert (vote.vote, vote.abstention) == (kind, abstention)


def test_abstention_keeps_the_lazy_verifier_visible() -> None:
    vote = classify_verdict(RESTATED, CLAIM)
    assert vote.refuted is False
    assert vote.whatIChecked == "subagents inherit no budget cap"


def test_duplicate_key_verdict_abstains() -> None:
    (raw,) = parse_verdict_values(
        '{"refuted": true, "refuted": false, "reason": "r", "whatIChecked": "opened x"}', "v.json"
    )
    vote = classify_verdict(raw, CLAIM)
    assert (vote.vote, vote.abstention) == (
        VoteKind.ABSTAINED,
        "malformed: duplicate key 'refuted'",
    )


NO_EVIDENCE = (
    "whatIChecked names no evidence: fewer than 3 words beyond the claim, and no path, "
    "file:line, `command`, quote, or number with what it counts"
)
RESTATES = "whatIChecked restates the claim"

#: (id, whatIChecked, abstention or None when it shows a check), against CLAIM.
RESTATEMENT_ROWS: list[tuple[str, str, str | None]] = [
    ("exact-copy", CLAIM, RESTATES),
    (
        "case-and-punctuation",
        "SUBAGENTS inherit no budget-cap; so a fan out can exceed the run budget!",
        RESTATES,
    ),
    ("reordered", "the run budget can exceed a fan-out", RESTATES),
    ("fragment", "no budget cap", RESTATES),
    ("empty", "", RESTATES),
    ("whitespace", " \n\t", RESTATES),
    ("punctuation", "?!...", RESTATES),
    # the claim behind filler: the reviewer's cases
    ("i-checked-colon-claim", "I checked: subagents inherit no budget cap", RESTATES),
    ("verified-that-claim", "Verified that subagents inherit no budget cap", RESTATES),
    ("confirmed-the-claim", "confirmed the claim", RESTATES),
    ("checked-it", "checked it", RESTATES),
    ("x", "x", NO_EVIDENCE),
    (
        "claim-with-do-inserted",
        "Subagents do inherit no budget cap, so a fan-out can exceed the run budget",
        RESTATES,
    ),
    ("inflections-of-the-claim", "subagent inherits no budget caps", RESTATES),
    ("claim-plus-one-word", f"{CLAIM} indeed verifiedly", NO_EVIDENCE),
    ("generic-reopen", "I re-opened the evidence and it reproduces", NO_EVIDENCE),
    ("generic-looks-good", "Looked at it carefully, looks correct to me", RESTATES),
    ("placeholder-n-a", "n/a", NO_EVIDENCE),
    ("and-or-is-not-a-path", "checked and/or verified", RESTATES),
    ("quoted-single-letter", "checked 'x'", NO_EVIDENCE),
    ("quoting-the-claim", 'found "no budget cap"', RESTATES),
    ("two-new-words", "read the loop", NO_EVIDENCE),
    ("claim-plus-a-bare-number", f"I checked: {CLAIM} 1", NO_EVIDENCE),
    ("checked-it-once", "checked it 1 time", NO_EVIDENCE),
    ("a-date-alone", "verified 2026-08-14", NO_EVIDENCE),
    # realistic verifications still count
    (
        "seed-style-verification",
        "Opened workflow.js:142: the spawn loop has no budget check; re-ran the 2026-08-14 "
        "log query: 41 agents vs cap 16",
        None,
    ),
    ("adds-what-was-opened", "opened workflow.js:142: no budget cap", None),
    ("new-count", "re-ran the query: 41 agents", None),
    ("count-of-something", "counted 41 spawns", None),
    ("path", "read gentle_hooks/quorum/votes.py", None),
    ("file-name", "read pool.js", None),
    ("command-in-backticks", "ran `grep -rn spawnAgent src`", None),
    ("quoted-string", 'searched the tree for "MAX_AGENTS"', None),
    ("three-new-words", "ran the spawn suite under load", None),
]


@pytest.mark.parametrize(
    ("checked", "reason"),
    [r[1:] for r in RESTATEMENT_ROWS],
    ids=[r[0] for r in RESTATEMENT_ROWS],
)
def test_restatement_reason(checked: str, reason: str | None) -> None:
    assert restatement_reason(checked, CLAIM) == reason
    assert is_restatement(checked, CLAIM) is (reason is not None)
    assert (classify_verdict(up(checked), CLAIM).vote is VoteKind.ABSTAINED) is (reason is not None)


def test_evidence_already_in_the_claim_is_not_new() -> None:
    claim = "workflow.js:142 spawns agents in a loop; run 2026-08-14 shows 41 agents vs cap 16"
    assert is_restatement(claim, claim)
    assert is_restatement("checked workflow.js:142: 41 agents vs cap 16", claim)
    assert not is_restatement("checked workflow.js:150 too", claim)


@given(st.text(max_size=60))
def test_the_claim_itself_is_always_a_restatement(claim: str) -> None:
    assert is_restatement(claim, claim) is True
    assert is_restatement(f"I checked: {claim}", claim) is True


@given(st.text(max_size=60))
def test_claim_plus_a_new_citation_is_never_a_restatement(claim: str) -> None:
    assert is_restatement(f"{claim} opened zzqx/novel.py", f"{claim}") is False


@given(
    st.lists(st.sampled_from(sorted(words(CLAIM))), max_size=8),
    st.lists(st.sampled_from(["I", "checked", "verified", "that", "the", "it", "is"]), max_size=4),
)
def test_claim_words_and_filler_never_count(claim_words: list[str], filler: list[str]) -> None:
    assert is_restatement(" ".join(filler + claim_words), CLAIM) is True


# --- the tally and the ruling ---------------------------------------------------------------

TALLY_ROWS: list[tuple[str, list[object], int, tuple[bool, int, int, int, bool], str, str]] = [
    # id, verdicts, required, (survives, upheld, refuted, abstained, contested), ruling, row
    ("zero-verdicts", [], 1, (False, 0, 0, 0, False), "PLAUSIBLE", "Q1"),
    (
        "only-abstentions",
        [ERRORED, TIMED_OUT, MALFORMED, None],
        1,
        (False, 0, 0, 4, False),
        "PLAUSIBLE",
        "Q1",
    ),
    ("restated-is-no-support", [RESTATED], 1, (False, 0, 0, 1, False), "PLAUSIBLE", "Q1"),
    (
        "empty-check-is-no-support",
        [EMPTY_CHECK, {**up(""), "reason": "it holds"}],
        1,
        (False, 0, 0, 2, False),
        "PLAUSIBLE",
        "Q1",
    ),
    # no tree given (issue 18): upheld evidence nobody checked is at most PLAUSIBLE
    ("one-upheld", [up()], 1, (False, 1, 0, 0, False), "PLAUSIBLE", "Q6U"),
    (
        "upheld-despite-abstentions",
        [up(), ERRORED, TIMED_OUT],
        1,
        (False, 1, 0, 2, False),
        "PLAUSIBLE",
        "Q6U",
    ),
    ("one-refuted", [down()], 1, (False, 0, 1, 0, False), "REFUTED", "Q2"),
    ("tie-one-each", [up(), down()], 1, (False, 1, 1, 0, True), "PLAUSIBLE", "Q3"),
    ("tie-two-each", [up(), UP2, down(), DOWN2], 1, (False, 2, 2, 0, True), "PLAUSIBLE", "Q3"),
    (
        "abstentions-do-not-break-a-tie",
        [up(), down(), ERRORED, RESTATED],
        1,
        (False, 1, 1, 2, True),
        "PLAUSIBLE",
        "Q3",
    ),
    (
        "majority-upheld-contested",
        [up(), UP2, down()],
        1,
        (False, 2, 1, 0, True),
        "PLAUSIBLE",
        "Q4",
    ),
    ("majority-refuted", [up(), down(), DOWN2], 1, (False, 1, 2, 0, True), "REFUTED", "Q2"),
    ("unanimous-refuted", [down(), DOWN2, DOWN3], 3, (False, 0, 3, 0, False), "REFUTED", "Q2"),
    (
        "restated-upholds-cannot-outvote-a-refutation",
        [RESTATED, up("no budget cap"), down()],
        1,
        (False, 0, 1, 2, False),
        "REFUTED",
        "Q2",
    ),
    ("audit-one-valid", [up(), ERRORED, TIMED_OUT], 3, (False, 1, 0, 2, False), "PLAUSIBLE", "Q5"),
    ("audit-three-upheld", [up(), UP2, UP3], 3, (False, 3, 0, 0, False), "PLAUSIBLE", "Q6U"),
    ("critical-one-upheld", [up()], 2, (False, 1, 0, 0, False), "PLAUSIBLE", "Q5"),
    ("critical-two-upheld", [up(), UP2], 2, (False, 2, 0, 0, False), "PLAUSIBLE", "Q6U"),
]

#: The rows above that confirm once the upheld evidence is checked in the candidate's tree
#: (:data:`tests.quorum_tree.TREE`).
CHECKED_ROWS: list[tuple[str, list[object], int, tuple[bool, int, int, int, bool], str, str]] = [
    ("one-upheld", [checked_up()], 1, (True, 1, 0, 0, False), "CONFIRMED", "Q6"),
    (
        "upheld-despite-abstentions",
        [checked_up(), ERRORED, TIMED_OUT],
        1,
        (True, 1, 0, 2, False),
        "CONFIRMED",
        "Q6",
    ),
    (
        "audit-three-upheld",
        [checked_up(), checked_up(f"{CHECKED}; grepped it"), checked_up(f"{CHECKED}; re-read")],
        3,
        (True, 3, 0, 0, False),
        "CONFIRMED",
        "Q6",
    ),
    # with a tree: a narrative refutes; a command no clean room recorded stays unchecked
    ("checked-and-narrative", [checked_up(), UP2], 1, (False, 1, 1, 0, True), "PLAUSIBLE", "Q3"),
    (
        "checked-and-unobserved-command",
        [checked_up(), up("ran `grep -c spawnAgent workflow.js`: printed 1")],
        1,
        (False, 2, 0, 0, False),
        "PLAUSIBLE",
        "Q6U",
    ),
]


@pytest.mark.parametrize(
    ("verdicts", "required", "counts", "ruling", "row"),
    [r[1:] for r in TALLY_ROWS],
    ids=[r[0] for r in TALLY_ROWS],
)
def test_tally_and_ruling(
    verdicts: list[object],
    required: int,
    counts: tuple[bool, int, int, int, bool],
    ruling: str,
    row: str,
) -> None:
    t = tally(verdicts, CLAIM, required)
    assert (t.survives, t.upheld, t.refuted, t.abstained, t.contested) == counts
    assert (rule(t).ruling, rule(t).row) == (ruling, row)


@pytest.mark.parametrize(
    ("verdicts", "required", "counts", "ruling", "row"),
    [r[1:] for r in CHECKED_ROWS],
    ids=[r[0] for r in CHECKED_ROWS],
)
def test_tally_and_ruling_with_a_tree(
    verdicts: list[object],
    required: int,
    counts: tuple[bool, int, int, int, bool],
    ruling: str,
    row: str,
) -> None:
    t = tally(verdicts, CLAIM, required, source=TREE)
    assert (t.survives, t.upheld, t.refuted, t.abstained, t.contested) == counts
    assert (rule(t).ruling, rule(t).row) == (ruling, row)


def test_every_ruling_row_is_covered() -> None:
    from tests.unit.test_quorum_seed003 import LENS_ROWS

    covered = {r[5] for r in [*TALLY_ROWS, *CHECKED_ROWS]} | {r[3] for r in LENS_ROWS}
    assert covered == {r.id for r in RULING_ROWS}


def test_ruling_reasons_exact() -> None:
    assert [(r.id, r.when, r.ruling) for r in RULING_ROWS] == [
        ("Q1", "no valid verdict: nothing verified it", "PLAUSIBLE"),
        ("Q2", "majority refuted on re-check", "REFUTED"),
        ("Q3", "a tie: contested, never rounded up", "PLAUSIBLE"),
        ("Q4", "upheld but contested", "PLAUSIBLE"),
        ("Q5", "upheld by fewer valid verdicts than the stakes need", "PLAUSIBLE"),
        (
            "Q5L",
            "upheld by verifiers of fewer different lenses than the stakes need",
            "PLAUSIBLE",
        ),
        (
            "Q6U",
            "upheld, but its evidence was not checked against the candidate's tree",
            "PLAUSIBLE",
        ),
        ("Q6", "upheld, uncontested", "CONFIRMED"),
    ]
    assert rule(tally([up()], CLAIM, 3)).why == (
        "upheld by fewer valid verdicts than the stakes need (1 of 3)"
    )


@pytest.mark.parametrize(
    "fields",
    [
        {"survives": True, "upheld": 1, "refuted": 1, "abstained": 0, "contested": True},
        {"survives": True, "upheld": 0, "refuted": 0, "abstained": 3, "contested": False},
        {"survives": False, "upheld": 2, "refuted": 0, "abstained": 0, "contested": False},
        {"survives": False, "upheld": 1, "refuted": 1, "abstained": 0, "contested": False},
        {
            "survives": True,
            "upheld": 1,
            "refuted": 0,
            "abstained": 0,
            "contested": False,
            "required": 3,
        },
    ],
    ids=[
        "survives-refuted",
        "survives-zero-valid",
        "upheld-not-surviving",
        "uncontested-split",
        "survives-below-required",
    ],
)
def test_inconsistent_tally_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Tally(**fields)


# --- copies count once ----------------------------------------------------------------------

UP_NOTE = (
    "identical verdicts counted once: whatIChecked "
    "'opened workflow.js:142; loop has no budget check'"
)


def by(verifier: str, verdict: dict[str, Any]) -> dict[str, Any]:
    return {**verdict, "verifier": verifier}


#: (id, verdicts, required, (upheld, refuted, abstained), ruling row, duplicate notes).
DUPLICATE_ROWS: list[tuple[str, list[object], int, tuple[int, int, int], str, list[str]]] = [
    ("same-verdict-three-times-audit", [up()] * 3, 3, (1, 0, 0), "Q5", [f"3 {UP_NOTE}"]),
    ("same-verdict-twice-critical", [up(), up()], 2, (1, 0, 0), "Q5", [f"2 {UP_NOTE}"]),
    (
        "whitespace-variant-is-a-copy",
        [up(), up("opened  workflow.js:142;\n loop has no budget check ")],
        2,
        (1, 0, 0),
        "Q5",
        [f"2 {UP_NOTE}"],
    ),
    (
        "case-and-punctuation-variant-is-a-copy",
        [
            up(),
            {**up("Opened workflow.js:142 -- loop has no budget check."), "reason": "Reproduces!"},
        ],
        2,
        (1, 0, 0),
        "Q5",
        [
            "2 identical verdicts counted once: whatIChecked "
            "'Opened workflow.js:142 -- loop has no budget check.'"
        ],
    ),
    (
        "relabelled-copies-are-one-verdict",
        [by("a", up()), by("b", up()), by("c", up())],
        3,
        (1, 0, 0),
        "Q5",
        [f"3 {UP_NOTE}"],
    ),
    ("one-verifier-twice", [by("a", up()), by("a", up())], 1, (1, 0, 0), "Q6U", [f"2 {UP_NOTE}"]),
    (
        "copies-cannot-outvote-a-refutation",
        [up(), up(), up(), down()],
        1,
        (1, 1, 0),
        "Q3",
        [f"3 {UP_NOTE}"],
    ),
    (
        "identical-errors-abstain-once",
        [ERRORED, ERRORED, up()],
        1,
        (1, 0, 1),
        "Q6U",  # no tree: upheld, unchecked
        ['2 identical verdicts counted once: {"error": "verifier crashed: exit 137"}'],
    ),
    (
        "three-distinct-verifiers",
        [by("a", up()), by("b", UP2), by("c", UP3)],
        3,
        (3, 0, 0),
        "Q6U",  # no tree: upheld, unchecked
        [],
    ),
    ("same-words-opposite-answers", [up(), {**up(), "refuted": True}], 1, (1, 1, 0), "Q3", []),
]


@pytest.mark.parametrize(
    ("verdicts", "required", "counts", "row", "notes"),
    [r[1:] for r in DUPLICATE_ROWS],
    ids=[r[0] for r in DUPLICATE_ROWS],
)
def test_copies_of_a_verdict_count_once(
    verdicts: list[object], required: int, counts: tuple[int, int, int], row: str, notes: list[str]
) -> None:
    t = tally(verdicts, CLAIM, required)
    assert ((t.upheld, t.refuted, t.abstained), rule(t).row) == (counts, row)
    stakes, critical = {1: ("ordinary", False), 2: ("shipping", True), 3: ("audit", False)}[
        required
    ]
    record = build_record(verdicts, CLAIM, stakes=stakes, critical=critical)
    assert (record.tally, list(record.duplicates)) == (t, notes)
    assert parse_tally_records(record.model_dump_json(by_alias=True), "r") == (record,)


@pytest.mark.parametrize(
    "verdicts",
    [
        [by("v1", up()), by("v1", down())],
        [by("v1", up()), by(" v1 ", UP2)],
        [by("v1", up()), {"verifier": "v1", "error": "crashed"}],
    ],
    ids=["upheld-and-refuted", "two-upholds", "answer-and-error"],
)
def test_one_verifier_two_verdicts_exits_2(verdicts: list[object]) -> None:
    with pytest.raises(ArtifactInputError) as info:
        build_record(verdicts, CLAIM)
    assert info.value.message == (
        "verifier 'v1' gave 2 different verdicts on one finding; pass one verdict per verifier"
    )
    assert info.value.exit_code == EXIT_INPUT


def test_a_verifier_spelled_two_ways_is_one_verifier() -> None:
    """Seed 003 "How many verifiers": verifiers are counted, not names: ``Verifier-A`` and
    ``verifier-a`` (trimmed, case-folded: ``verifier_identity``) are one verifier, so two
    different verdicts from it are refused (exit 2) instead of counting as two votes."""
    with pytest.raises(ArtifactInputError) as info:
        build_record([by("Verifier-A", up()), by(" verifier-a ", UP2)], CLAIM)
    assert info.value.message == (
        "verifier 'verifier-a' gave 2 different verdicts on one finding; pass one verdict per "
        "verifier"
    )


@given(st.lists(st.sampled_from([up(), UP2, down(), ERRORED, TIMED_OUT]), max_size=6))
def test_giving_every_verdict_twice_changes_nothing(verdicts: list[object]) -> None:
    once = build_record(verdicts, CLAIM, stakes="audit")
    twice = build_record(verdicts + verdicts, CLAIM, stakes="audit")
    assert (twice.tally, twice.votes) == (once.tally, once.votes)


# --- property: order independence, abstentions never support ---------------------------------

raw_verdicts = st.one_of(
    st.builds(up, st.sampled_from(["opened a.py:1", "re-ran grep: 41 hits", "read pool.js"])),
    st.builds(down, st.sampled_from(["cap exists", "evidence missing", "impact overstated"])),
    st.sampled_from([ERRORED, TIMED_OUT, MALFORMED, RESTATED, EMPTY_CHECK, None, "x", 3, []]),
    st.fixed_dictionaries(
        {
            "refuted": st.booleans(),
            "reason": st.text(max_size=8),
            "whatIChecked": st.text(max_size=12),
        },
        optional={"correctedImpact": st.text(max_size=5), "extra": st.integers()},
    ),
)


@given(st.lists(raw_verdicts, max_size=8), st.randoms(use_true_random=False), st.integers(1, 3))
def test_tally_is_order_independent(verdicts: list[object], rnd: Any, required: int) -> None:
    shuffled = list(verdicts)
    rnd.shuffle(shuffled)
    assert tally(shuffled, CLAIM, required) == tally(verdicts, CLAIM, required)
    stakes = {1: "ordinary", 2: "shipping", 3: "audit"}[required]
    critical = required == 2
    assert build_record(shuffled, CLAIM, stakes=stakes, critical=critical) == build_record(
        verdicts, CLAIM, stakes=stakes, critical=critical
    )


@given(st.lists(raw_verdicts, max_size=6), st.integers(1, 3))
def test_survives_exactly_when_confirmed(verdicts: list[object], required: int) -> None:
    t = tally(verdicts, CLAIM, required)
    assert t.survives is (rule(t).ruling == "CONFIRMED")
    if t.upheld + t.refuted == 0 or t.upheld == t.refuted or t.refuted > 0:
        assert rule(t).ruling != "CONFIRMED"


@given(
    st.lists(raw_verdicts, max_size=6),
    st.lists(
        st.sampled_from([ERRORED, TIMED_OUT, MALFORMED, RESTATED, EMPTY_CHECK, None]), max_size=4
    ),
)
def test_abstentions_never_change_support(verdicts: list[object], extra: list[object]) -> None:
    before, after = tally(verdicts, CLAIM), tally(verdicts + extra, CLAIM)
    assert (after.upheld, after.refuted) == (before.upheld, before.refuted)
    assert before.abstained <= after.abstained <= before.abstained + len(extra)
    assert rule(after) == rule(before)


# --- stored records --------------------------------------------------------------------------


def test_record_keeps_refutations_with_their_reasons() -> None:
    record = build_record(
        [
            down("cap enforced in spawn()"),
            {**down("impact overstated"), "correctedImpact": "low"},
            up(),
            ERRORED,
        ],
        CLAIM,
        finding="F-3",
        lens="correctness",
    )
    assert (record.ruling, record.row) == ("REFUTED", "Q2")
    assert [(v.vote.value, v.reason, v.correctedImpact, v.abstention) for v in record.votes] == [
        ("upheld", "reproduces", None, None),
        ("refuted", "cap enforced in spawn()", None, None),
        ("refuted", "impact overstated", "low", None),
        ("abstained", None, None, "errored: verifier crashed: exit 137"),
    ]


def test_record_round_trips_through_json() -> None:
    record = build_record(
        [up(), down(), TIMED_OUT], CLAIM, finding="F-1", lens="impact", stakes="audit"
    )
    text = record.model_dump_json(by_alias=True)
    assert json.loads(text)["schema"] == "gentle-hooks.quorum-tally/v1"
    assert parse_tally_records(text, "r.json") == (record,)
    assert parse_tally_records(f"[{text}, {text}]", "r.json") == (record, record)


def _tampered(**changes: Any) -> str:
    doc = json.loads(
        build_record([up(), down(), ERRORED], CLAIM, finding="F-1").model_dump_json(by_alias=True)
    )
    for path, value in changes.items():
        target = doc
        *parents, leaf = path.split("__")
        for p in parents:
            target = target[int(p)] if p.isdigit() else target[p]
        target[leaf] = value
    return json.dumps(doc)


def _repeated_vote() -> str:
    doc = json.loads(build_record([up(), down()], CLAIM).model_dump_json(by_alias=True))
    doc["votes"].insert(1, doc["votes"][0])
    doc["tally"].update(upheld=2)
    return json.dumps(doc)


def _repeated_verifier() -> str:
    doc = json.loads(build_record([by("v1", up()), UP2], CLAIM).model_dump_json(by_alias=True))
    for vote in doc["votes"]:
        vote["verifier"] = "v1"
    return json.dumps(doc)


TAMPER_ROWS = [
    (
        "ruling-edited",
        _tampered(ruling="CONFIRMED"),
        "r.json: not a tally record: ruling must be PLAUSIBLE (Q3) for this tally",
    ),
    (
        "survives-edited",
        _tampered(tally__survives=True),
        "r.json: not a tally record: tally: survives contradicts the counts",
    ),
    (
        "counts-edited",
        _tampered(tally__upheld=2, tally__contested=True),
        "r.json: not a tally record: tally does not match the votes and stakes",
    ),
    (
        "stakes-edited",
        _tampered(stakes="audit"),
        "r.json: not a tally record: tally does not match the votes and stakes",
    ),
    (
        "refutation-flipped",
        _tampered(votes__1__vote="upheld"),
        "r.json: not a tally record: votes.1: vote upheld contradicts refuted: true",
    ),
    (
        "restating-check-counted",
        _tampered(votes__0__whatIChecked="no budget cap"),
        "r.json: not a tally record: votes.0: counted as upheld, but whatIChecked restates the "
        "claim",
    ),
    (
        "vote-repeated",
        _repeated_vote(),
        "r.json: not a tally record: votes.1 repeats votes.0: a verdict counts once",
    ),
    (
        "verifier-repeated",
        _repeated_verifier(),
        "r.json: not a tally record: votes.1: verifier 'v1' already voted in votes.0",
    ),
    (
        "unknown-field",
        _tampered(signedBy="me"),
        "r.json: not a tally record: signedBy: unknown field",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [r[1:] for r in TAMPER_ROWS], ids=[r[0] for r in TAMPER_ROWS]
)
def test_inconsistent_record_is_refused(text: str, message: str) -> None:
    with pytest.raises(ArtifactInputError) as info:
        parse_tally_records(text, "r.json")
    assert info.value.message == message
    assert info.value.exit_code == EXIT_INPUT


def test_record_array_error_names_the_item() -> None:
    good = build_record([up()], CLAIM).model_dump_json(by_alias=True)
    with pytest.raises(
        ArtifactInputError, match=r"^r\.json\[1\]: not a tally record: claim: required field"
    ):
        parse_tally_records(f"[{good}, {{}}]", "r.json")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("not json", "v.json: not JSON: Expecting value at line 1 column 1"),
        (b"\xff\xfe", "v.json: not UTF-8: invalid start byte"),
        ("", "v.json: not JSON: Expecting value at line 1 column 1"),
    ],
    ids=["text", "bytes", "empty"],
)
def test_unreadable_verdict_file_exits_2(data: str | bytes, message: str) -> None:
    with pytest.raises(ArtifactInputError) as info:
        parse_verdict_values(data, "v.json")
    assert info.value.message == message


def test_verdict_file_holds_one_or_many() -> None:
    assert parse_verdict_values(json.dumps(up()), "v") == (up(),)
    assert parse_verdict_values(json.dumps([up(), None]), "v") == (up(), None)
    assert parse_verdict_values("42", "v") == (42,)


@given(st.text(max_size=80))
def test_verdict_file_parser_never_crashes(text: str) -> None:
    try:
        values = parse_verdict_values(text, "v")
    except ArtifactInputError as exc:
        assert exc.exit_code == EXIT_INPUT
        return
    for value in values:
        assert classify_verdict(value, CLAIM).vote in VoteKind


# --- the claim: a tally needs one ------------------------------------------------------------


def test_a_tally_needs_a_claim() -> None:
    for blank in ("", "  \n"):
        with pytest.raises(PolicyInputError) as info:
            build_record([up()], blank)
        assert info.value.message == "no claim: a tally needs the finding's claim (--claim)"
        with pytest.raises(PolicyInputError):
            tally([up()], blank)
        with pytest.raises(PolicyInputError):
            tally([], blank)


@pytest.mark.parametrize("claim", [None, "", " "], ids=["null", "empty", "blank"])
def test_a_stored_record_without_a_claim_is_refused(claim: str | None) -> None:
    doc = json.loads(build_record([up()], CLAIM).model_dump_json(by_alias=True))
    doc["claim"] = claim
    with pytest.raises(ArtifactInputError, match=r"^r\.json: not a tally record: claim: "):
        parse_tally_records(json.dumps(doc), "r.json")
    del doc["claim"]
    with pytest.raises(ArtifactInputError) as info:
        parse_tally_records(json.dumps(doc), "r.json")
    assert info.value.message == "r.json: not a tally record: claim: required field missing"


#: (id, file text, claim found, number of raw verdicts) for readable verdict files.
VERDICT_FILE_ROWS: list[tuple[str, str, str | None, int]] = [
    ("one-verdict", json.dumps(up()), None, 1),
    ("array", json.dumps([up(), down()]), None, 2),
    ("verdict-set", json.dumps({"claim": f" {CLAIM} ", "verdicts": [up(), None]}), CLAIM, 2),
    # an empty answer is one abstention, named (seed 003 "Abstentions are not support")
    ("verdict-set-empty", json.dumps({"claim": CLAIM, "verdicts": []}), CLAIM, 1),
    ("array-empty", "[]", None, 1),
    ("object-without-verdicts-is-a-verdict", json.dumps({"claim": CLAIM}), None, 1),
]


@pytest.mark.parametrize(
    ("text", "claim", "count"),
    [r[1:] for r in VERDICT_FILE_ROWS],
    ids=[r[0] for r in VERDICT_FILE_ROWS],
)
def test_parse_verdict_file(text: str, claim: str | None, count: int) -> None:
    parsed = parse_verdict_file(text, "v.json")
    assert (parsed.source, parsed.claim, len(parsed.verdicts)) == ("v.json", claim, count)


BAD_VERDICT_SET_ROWS: list[tuple[str, str, str]] = [
    (
        "claim-missing",
        json.dumps({"verdicts": [up()]}),
        "v.json: not a verdict set: claim: required field missing",
    ),
    (
        "claim-blank",
        json.dumps({"claim": " ", "verdicts": [up()]}),
        "v.json: not a verdict set: claim: must not be blank",
    ),
    (
        "claim-not-a-string",
        json.dumps({"claim": 7, "verdicts": [up()]}),
        "v.json: not a verdict set: claim: Input should be a valid string",
    ),
    (
        "verdicts-not-an-array",
        json.dumps({"claim": CLAIM, "verdicts": up()}),
        "v.json: not a verdict set: verdicts: Input should be a valid tuple",
    ),
    (
        "verdicts-null",
        json.dumps({"claim": CLAIM, "verdicts": None}),
        "v.json: not a verdict set: verdicts: Input should be a valid tuple",
    ),
    (
        "unknown-field",
        json.dumps({"claim": CLAIM, "verdicts": [], "finding": "F-1"}),
        "v.json: not a verdict set: finding: unknown field",
    ),
    (
        "duplicate-claim",
        '{"claim": "a", "claim": "b", "verdicts": []}',
        "v.json: not a verdict set: duplicate key 'claim'",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"),
    [r[1:] for r in BAD_VERDICT_SET_ROWS],
    ids=[r[0] for r in BAD_VERDICT_SET_ROWS],
)
def test_a_bad_verdict_set_is_one_abstention(text: str, message: str) -> None:
    """Seed 003 "Abstentions are not support": a malformed set is malformed verifier
    output; it abstains, naming its file and why, and never stops the tally."""
    parsed = parse_verdict_file(text, "v.json")
    assert parsed.claim is None
    (raw,) = parsed.verdicts
    vote = classify_verdict(raw, CLAIM)
    assert vote.vote is VoteKind.ABSTAINED
    assert vote.abstention == f"malformed: {message.removeprefix('v.json: ')} (v.json)"


def vfile(source: str, claim: str | None) -> VerdictFile:
    return VerdictFile(source, claim, (up(),))


NO_CLAIM = (
    'no claim: pass --claim TEXT (or give the verdicts as {"claim": ..., "verdicts": [...]}); '
    "without it a restating whatIChecked counts"
)

#: (id, --claim, files, resolved claim or the one-line error).
CLAIM_ROWS: list[tuple[str, str | None, tuple[VerdictFile, ...], str]] = [
    ("option-only", CLAIM, (vfile("a", None),), CLAIM),
    ("option-stripped", f"  {CLAIM}\n", (vfile("a", None),), CLAIM),
    ("file-only", None, (vfile("a", CLAIM), vfile("b", None)), CLAIM),
    ("option-and-file-agree", CLAIM, (vfile("a", CLAIM),), CLAIM),
    ("agree-up-to-whitespace", CLAIM, (vfile("a", CLAIM.replace(" ", "\n  ")),), CLAIM),
    ("neither", None, (vfile("a", None), vfile("b", None)), NO_CLAIM),
    ("no-files-no-option", None, (), NO_CLAIM),
    (
        "blank-option",
        " ",
        (vfile("a", CLAIM),),
        "--claim is blank: pass the finding's claim, as the miner stated it",
    ),
    (
        "option-and-file-differ",
        CLAIM,
        (vfile("a.json", "another claim"),),
        "a.json: its claim differs from --claim's: one tally is one finding",
    ),
    (
        "two-files-differ",
        None,
        (vfile("a.json", CLAIM), vfile("b.json", "another claim")),
        "b.json: its claim differs from a.json's: one tally is one finding",
    ),
]


@pytest.mark.parametrize(
    ("option", "files", "expected"),
    [r[1:] for r in CLAIM_ROWS],
    ids=[r[0] for r in CLAIM_ROWS],
)
def test_resolve_claim(option: str | None, files: tuple[VerdictFile, ...], expected: str) -> None:
    if expected == CLAIM:
        assert resolve_claim(option, files) == CLAIM
        return
    with pytest.raises(UsageError) as info:
        resolve_claim(option, files)
    assert (info.value.message, info.value.exit_code) == (expected, EXIT_INPUT)


# --- survival report --------------------------------------------------------------------------


def rec(lens: str | None, survives: bool, n: int) -> TallyRecord:
    """A finding of ``lens``; each finding has its own claim, as deduplicated findings do."""
    finding = f"{lens}-{n}"
    verdicts = [checked_up()] if survives else [down()]
    return build_record(verdicts, f"{CLAIM} ({finding})", finding=finding, lens=lens, source=TREE)


def records(spec: dict[str | None, tuple[int, int]]) -> list[TallyRecord]:
    """{lens: (survived, total)} -> records."""
    out: list[TallyRecord] = []
    for lens, (survived, total) in spec.items():
        out += [rec(lens, i < survived, i) for i in range(total)]
    return out


REPORT_ROWS: list[tuple[str, dict[str | None, tuple[int, int]], list[str]]] = [
    ("empty", {}, []),
    ("healthy-corpus-86pct-uniform", {"a": (10, 12), "b": (11, 12), "c": (10, 12)}, []),
    ("all-survived", {"a": (4, 4), "b": (3, 3)}, ["all-survived"]),
    ("one-finding-survived", {"a": (1, 1)}, ["all-survived"]),
    ("exactly-half-is-not-low", {"a": (2, 4)}, []),
    ("under-half", {"a": (1, 4), "b": (1, 3)}, ["low-survival"]),
    ("nothing-survived", {"a": (0, 3)}, ["low-survival"]),
    ("sharp-lens-variation", {"a": (5, 5), "b": (2, 4)}, ["lens-variation"]),
    ("spread-exactly-25-points-is-not-sharp", {"a": (4, 4), "b": (3, 4)}, []),
    ("small-lens-not-compared", {"a": (9, 10), "b": (0, 2)}, []),
    ("no-lens-group-not-compared", {"a": (9, 10), None: (0, 4)}, []),
    (
        "low-and-lens-variation",
        {"a": (0, 3), "b": (1, 3), "c": (0, 3), "d": (3, 3)},
        ["low-survival", "lens-variation"],
    ),
]


@pytest.mark.parametrize(
    ("spec", "flags"), [r[1:] for r in REPORT_ROWS], ids=[r[0] for r in REPORT_ROWS]
)
def test_survival_report_flags(spec: dict[str | None, tuple[int, int]], flags: list[str]) -> None:
    report = survival_report(records(spec))
    assert [f.code for f in report.flags] == flags
    assert report.findings == sum(t for _, t in spec.values())
    assert report.survived == sum(s for s, _ in spec.values())


def test_survival_report_numbers_and_meanings() -> None:
    report = survival_report(records({"impact": (2, 4), "correctness": (5, 5), None: (1, 1)}))
    assert (report.findings, report.survived, report.rate) == (10, 8, 0.8)
    assert [(ls.lens, ls.findings, ls.survived, ls.rate) for ls in report.lenses] == [
        ("correctness", 5, 5, 1.0),
        ("impact", 4, 2, 0.5),
        (None, 1, 1, 1.0),
    ]
    (flag,) = report.flags
    assert flag.code == "lens-variation"
    assert flag.detail == "correctness 100% vs impact 50% (limit 25% apart)"
    assert flag.meaning == FLAG_MEANINGS["lens-variation"]


def test_flag_meanings_one_line_each() -> None:
    assert set(FLAG_MEANINGS) == {"all-survived", "low-survival", "lens-variation"}
    assert all("\n" not in m for m in FLAG_MEANINGS.values())


def test_empty_report_has_no_rate() -> None:
    report = survival_report([])
    assert (report.findings, report.rate, report.lenses, report.flags) == (0, None, (), ())


def test_a_finding_counted_twice_is_refused() -> None:
    twice = [rec("a", True, 1), rec("a", True, 1)]
    with pytest.raises(PolicyInputError) as info:
        survival_report(twice)
    assert info.value.message == (
        "finding 'a-1' appears in 2 tally records; report one tally per finding"
    )


def unnamed(claim: str, verdicts: list[object]) -> TallyRecord:
    return build_record(verdicts, claim)


REPEATED_CLAIM = (
    "claim 'Subagents inherit no budget cap, so a fan-out can exceed th…' appears in 2 "
    "tally records; report one tally per finding (deduplicate findings before verifying them)"
)

#: (id, records, the one-line refusal or None when the report is made).
REPEATED_RECORD_ROWS: list[tuple[str, list[TallyRecord], str | None]] = [
    (
        "same-finding-id-twice",
        [rec("a", True, 1), rec("a", True, 1)],
        "finding 'a-1' appears in 2 tally records; report one tally per finding",
    ),
    (
        "same-finding-id-different-votes",
        [build_record([up()], CLAIM, finding="F"), build_record([down()], "other", finding="F")],
        "finding 'F' appears in 2 tally records; report one tally per finding",
    ),
    ("identical-unnamed-records", [unnamed(CLAIM, [up()])] * 2, REPEATED_CLAIM),
    (
        "unnamed-records-one-claim",
        [unnamed(CLAIM, [up()]), unnamed(CLAIM, [UP2])],
        REPEATED_CLAIM,
    ),
    (
        "unnamed-repeats-a-named-claim",
        [build_record([up()], CLAIM, finding="F-1"), unnamed(CLAIM.upper(), [UP2])],
        REPEATED_CLAIM.replace(
            "Subagents inherit no budget cap, so a fan-out can exceed th…",
            "SUBAGENTS INHERIT NO BUDGET CAP, SO A FAN-OUT CAN EXCEED TH…",
        ),
    ),
    (
        "unnamed-distinct-claims",
        [unnamed(CLAIM, [up()]), unnamed("Retries double-charge", [down()])],
        None,
    ),
    (
        "one-claim-under-two-finding-ids",
        [build_record([up()], CLAIM, finding="F-1"), build_record([UP2], CLAIM, finding="F-2")],
        REPEATED_CLAIM,
    ),
    (
        "one-claim-up-to-whitespace",
        [build_record([up()], CLAIM, finding="F-1"), unnamed(f" {CLAIM}\n", [UP2])],
        REPEATED_CLAIM,
    ),
    (
        "named-distinct-claims",
        [build_record([up()], CLAIM, finding="F-1"), build_record([UP2], "other", finding="F-2")],
        None,
    ),
]


@pytest.mark.parametrize(
    ("items", "refusal"),
    [r[1:] for r in REPEATED_RECORD_ROWS],
    ids=[r[0] for r in REPEATED_RECORD_ROWS],
)
def test_repeated_records_do_not_inflate_survival(
    items: list[TallyRecord], refusal: str | None
) -> None:
    if refusal is None:
        assert survival_report(items).findings == len(items)
        return
    with pytest.raises(PolicyInputError) as info:
        survival_report(items)
    assert (info.value.message, info.value.exit_code) == (refusal, EXIT_INPUT)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.booleans()), max_size=12))
def test_report_is_order_independent(spec: list[tuple[str | None, bool]]) -> None:
    items = [rec(lens, ok, n) for n, (lens, ok) in enumerate(spec)]
    assert survival_report(items) == survival_report(list(reversed(items)))


# --- stakes -----------------------------------------------------------------------------------

REQUIRED_ROWS = [
    ("ordinary", False, 1),
    ("ordinary", True, 1),
    ("shipping", False, 1),
    ("shipping", True, 2),
    ("audit", False, 3),
    ("audit", True, 3),
]


@pytest.mark.parametrize(
    ("stakes", "critical", "count"),
    REQUIRED_ROWS,
    ids=[f"{s}{'-critical' if c else ''}" for s, c, _ in REQUIRED_ROWS],
)
def test_verifiers_required(stakes: str, critical: bool, count: int) -> None:
    assert verifiers_required(stakes, critical) == count


def test_stakes_rows_are_the_seed_table() -> None:
    assert [(r.id, r.stakes.value, r.verifiers, r.verifiers_critical) for r in STAKES_ROWS] == [
        ("S-ordinary", "ordinary", 1, 1),
        ("S-shipping", "shipping", 1, 2),
        ("S-audit", "audit", 3, 3),
        ("S-lens-diverse", "lens-diverse", 3, 3),
    ]


SATISFIED_ROWS = [
    ("ordinary-none", "ordinary", False, [], False),
    ("ordinary-pass", "ordinary", False, ["pass"], True),
    ("ordinary-fail", "ordinary", False, ["fail"], False),
    ("ordinary-blocked", "ordinary", False, ["blocked"], False),
    ("ordinary-tie", "ordinary", False, ["pass", "fail"], False),
    ("ordinary-tie-blocked", "ordinary", False, ["pass", "blocked"], False),
    ("ordinary-majority", "ordinary", False, ["pass", "pass", "fail"], True),
    ("ordinary-rejected-pass", "ordinary", False, ["rejected"], False),
    ("shipping-pass", "shipping", False, ["pass"], True),
    ("shipping-critical-one", "shipping", True, ["pass"], False),
    ("shipping-critical-two", "shipping", True, ["pass", "pass"], True),
    ("shipping-critical-tie", "shipping", True, ["pass", "fail"], False),
    ("audit-one", "audit", False, ["pass"], False),
    ("audit-two", "audit", False, ["pass", "pass"], False),
    ("audit-three", "audit", False, ["pass", "pass", "pass"], True),
    ("audit-majority", "audit", False, ["pass", "fail", "pass"], True),
    ("audit-minority", "audit", False, ["pass", "fail", "blocked"], False),
    ("audit-tie-of-four", "audit", False, ["pass", "pass", "fail", "fail"], False),
    ("audit-majority-of-five", "audit", False, ["pass", "fail", "pass", "blocked", "pass"], True),
    ("status-case-is-not-pass", "ordinary", False, ["PASS"], False),
]


@pytest.mark.parametrize(
    ("stakes", "critical", "statuses", "ok"),
    [r[1:] for r in SATISFIED_ROWS],
    ids=[r[0] for r in SATISFIED_ROWS],
)
def test_stakes_satisfied(stakes: str, critical: bool, statuses: list[str], ok: bool) -> None:
    assert stakes_satisfied(stakes, critical, statuses) is ok


@given(
    st.sampled_from(["ordinary", "shipping", "audit"]),
    st.booleans(),
    st.integers(0, 6),
)
def test_a_tie_is_never_a_pass(stakes: str, critical: bool, n: int) -> None:
    assert not stakes_satisfied(stakes, critical, ["pass"] * n + ["fail"] * n)


def test_unknown_stakes_exits_2_listing_every_level() -> None:
    with pytest.raises(PolicyInputError) as info:
        verifiers_required("paranoid")
    assert info.value.message == (
        "unknown stakes 'paranoid': one of ordinary, shipping, audit, lens-diverse"
    )
    assert info.value.exit_code == EXIT_INPUT
    assert parse_stakes(" Audit ").value == "audit"


def test_stakes_is_pure_policy() -> None:
    """The gate can size the high tier from stakes without importing pydantic."""
    code = (
        "import sys, gentle_hooks.policy.stakes; "
        "bad = {'pydantic', 'click', 'pygit2'} & set(sys.modules); "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_pathological_nesting_exits_2_not_3() -> None:
    deep = "[" * 100_000
    with pytest.raises(ArtifactInputError, match=r"^v: not JSON: nested too deeply$"):
        parse_verdict_values(deep, "v")
    with pytest.raises(ArtifactInputError, match=r"^r: not JSON: nested too deeply$"):
        parse_tally_records(deep, "r")


@given(st.text(max_size=80))
def test_tally_record_parser_only_raises_the_input_error(text: str) -> None:
    try:
        parse_tally_records(text, "r")
    except ArtifactInputError as exc:
        assert exc.exit_code == EXIT_INPUT
        assert "\n" not in exc.message
