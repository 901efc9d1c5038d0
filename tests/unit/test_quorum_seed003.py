"""Seed 003 rows, each test naming its seed line.

Seed ``003_0245072c02421c57.txt``: narrative evidence refutes; a verifier output that is not
JSON abstains; PLAUSIBLE says what would settle it; the lens-diverse stakes row; the audit
("Verifying a verification"): two upheld findings sampled, restating ``whatIChecked``,
verdicts faster than their evidence could have been opened.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy.stakes import Stakes, stakes_row, verifiers_required
from gentle_hooks.quorum.audit import SAMPLE_SIZE, audit
from gentle_hooks.quorum.ballot import parse_verdict_file
from gentle_hooks.quorum.checkable import CheckSource
from gentle_hooks.quorum.narrative import NARRATIVE_ROWS, narrative_reason
from gentle_hooks.quorum.restatement import evidence_restatement
from gentle_hooks.quorum.ruling import (
    RULING_ROWS,
    TallyRecord,
    build_record,
    parse_tally_records,
    rule,
    tally,
)
from gentle_hooks.quorum.votes import (
    MIN_OPEN_MS,
    UnreadableOutput,
    VerifierVerdict,
    VoteKind,
    classify_verdict,
    evidence_pieces,
    too_fast_reason,
)
from tests.quorum_tree import TREE, checked_up, supported_unchecked

CLAIM = "Subagents inherit no budget cap, so a fan-out can exceed the run budget"
CITED = "opened workflow.js:142; the loop has no budget check"


def verdict(checked: str = CITED, *, refuted: bool = False, **more: Any) -> dict[str, Any]:
    return {"refuted": refuted, "reason": "re-opened it", "whatIChecked": checked, **more}


# --- "It is well known that…" | Not evidence. Refute -----------------------------------------

#: Cases of :data:`NARRATIVE_CASES` also checked as whole verdicts and tallies.
SEED_LINE_38_CASES = frozenset(
    {
        "confident",
        "miner-says-cited",
        "trusting-miner-citation",
        "per-the-finding",
        "plausible",
        "experience-shows",
        "standard-knowledge",
        "well-known-cited",
        "well-known-command",
        "common-sense",
    }
)

#: (id, whatIChecked, the narrative row it matches or None).
NARRATIVE_CASES: list[tuple[str, str, str | None]] = [
    ("it-is-well-known", "It is well known that fan-outs are unbounded", "N1"),
    ("everyone-knows", "Everyone knows spawn loops never check budgets", "N1"),
    ("obviously", "Obviously the pool grows without any limit here", "N4"),
    ("belief", "I believe the scheduler ignores the budget entirely", "N2"),
    ("likely", "The spawner likely skips the budget on retries", "N2"),
    ("must-be", "The cap must be missing from the fan-out path", "N2"),
    ("miners-word", "As the miner says, the cap is never applied to children", "N3"),
    ("according-to", "According to the finding the spawn loop has no guard", "N3"),
    # a narrative word beside concrete evidence the verifier opened is not a narrative
    ("cited-beats-hedge", "opened pool.js:88; the guard probably never runs", None),
    ("quoted-beats-hedge", 'grep found "maxAgents" nowhere; likely unenforced', None),
    # a number alone is not evidence that something was opened
    ("number-is-not-enough", "It is well known that 41 agents were spawned", "N1"),
    ("plain-check", "read spawn() in scheduler.go and found no budget argument", None),
    # the seed's wording, paraphrased: "It is well known that…", "a plausible narrative"
    ("as-is-well-known", "As is well known… fan-outs are unbounded", "N1"),
    ("generally-accepted", "It is generally accepted that fan-outs are unbounded", "N1"),
    ("widely-accepted", "It is widely accepted that spawn loops have no budget guard", "N1"),
    ("well-established", "It is a well-established fact that the pool is unbounded", "N1"),
    ("everyone-is-aware", "Everyone is aware that subagents never inherit the cap", "N1"),
    ("common-wisdom", "Common wisdom: subagents never inherit any budget cap", "N1"),
    ("needless-to-say", "Needless to say, the children run without any cap", "N1"),
    ("known-issue", "This is a known issue: children run without any cap", "N1"),
    ("clearly", "Clearly the children run without any cap", "N4"),
    # refuter 18b: an appeal to documents the verifier did not open is a narrative
    ("per-the-docs", "Per the docs, fan-outs are unbounded", "N5"),
    ("according-to-documentation", "According to the documentation, spawn() has no cap", "N5"),
    ("the-docs-say", "The docs say subagents inherit no budget", "N5"),
    ("as-documented", "As documented, the pool grows without a limit", "N5"),
    # an appeal to design or intent is not an observation
    ("by-design", "By design, the pool grows without a limit", "N6"),
    ("works-as-intended", "The fan-out works as intended and has no cap", "N6"),
    # naming a file is not opening it: no line, no command, no quote of what was found
    ("well-known-file-name", "As is well known, scheduler.py spawns agents without a cap", "N1"),
    (
        "generally-accepted-path",
        "It is generally accepted that src/spawn/pool.go never checks budgets",
        "N1",
    ),
    ("belief-file-name", "I think workflow.js has no budget check at all", "N2"),
    ("well-known-number-and-file", "As is well known, runner.go spawned 41 agents", "N1"),
    # what was re-opened, with a hedge beside it, still counts
    ("command-beats-hedge", "ran `grep -c budget pool.go`: 0; clearly unenforced", None),
    ("word-inside-another", "the unlikely path in scheduler.go:12 has no budget check", None),
    # seed 003 line 38-39: belief, the miner's word or common knowledge, with or without
    # a citation beside it, is "Not evidence. Refute"
    ("confident", "I am confident the loop is unbounded", "N2"),
    (
        "miner-says-cited",
        "The miner says workflow.js:142 spawns in a loop with no budget check",
        "N3",
    ),
    ("trusting-miner-citation", "Trusting the miner's citation of workflow.js:142", "N3"),
    ("per-the-finding", "Per the finding, 41 agents ran against a cap of 16", "N3"),
    ("plausible", "The claim is plausible given typical agent frameworks", "N2"),
    ("experience-shows", "Experience shows that spawn loops are unbounded", "N1"),
    ("standard-knowledge", "Fan-outs are unbounded; this is standard knowledge", "N1"),
    ("well-known-cited", "It is well known that fan-outs are unbounded; see workflow.js:142", "N1"),
    ("well-known-command", "It is well known that fan-outs are unbounded (`true`)", "N1"),
    ("common-sense", "Common sense says there is no budget check", "N1"),
]


@pytest.mark.parametrize(
    "text", [c[1] for c in NARRATIVE_CASES if c[2] is not None and c[0] in SEED_LINE_38_CASES]
)
def test_seed_line_38_narratives_refute_never_confirm(text: str) -> None:
    """Seed 003 line 38: ``"It is well known that…" | Not evidence. Refute``; line 39: "A
    finding whose evidence is a plausible narrative refutes"."""
    vote = classify_verdict(verdict(text), CLAIM)
    assert vote.vote is VoteKind.REFUTED
    assert tally([verdict(text)], CLAIM).survives is False


@pytest.mark.parametrize(
    ("text", "row"), [c[1:] for c in NARRATIVE_CASES], ids=[c[0] for c in NARRATIVE_CASES]
)
def test_narrative_rows(text: str, row: str | None) -> None:
    """Seed 003 "What counts as reproducing evidence": ``"It is well known that…" | Not
    evidence. Refute``; "A finding whose evidence is a plausible narrative refutes"."""
    reason = narrative_reason(text, CLAIM)
    if row is None:
        assert reason is None
    else:
        assert reason is not None and reason.startswith(f"narrative evidence ({row} ")
        assert reason.endswith("): not evidence, refute (seed 003)")


def test_every_narrative_row_is_covered() -> None:
    assert {c[2] for c in NARRATIVE_CASES} - {None} == {r.id for r in NARRATIVE_ROWS}


def test_narrative_upheld_verdict_refutes_and_never_confirms() -> None:
    """A ``whatIChecked`` of "It is well known that fan-outs are unbounded" is narrative:
    seed 003 says "Not evidence. Refute"."""
    raw = verdict("It is well known that fan-outs are unbounded")
    vote = classify_verdict(raw, CLAIM)
    assert (vote.vote, vote.refuted) == (VoteKind.REFUTED, False)
    assert vote.overruled == (
        "narrative evidence (N1 an appeal to common knowledge: 'well known'): not evidence, "
        "refute (seed 003)"
    )
    t = tally([raw], CLAIM)
    assert (t.survives, t.upheld, t.refuted) == (False, 0, 1)
    assert rule(t).ruling == "REFUTED"


@pytest.mark.parametrize(
    "checked",
    [
        "As is well known, scheduler.py spawns agents without a cap",
        "It is generally accepted that fan-outs in src/spawn/pool.go are unbounded",
        "Everyone is aware that the spawn loop has no budget guard",
    ],
)
def test_a_paraphrased_narrative_never_confirms(checked: str) -> None:
    """Seed 003: ``"It is well known that…" | Not evidence. Refute``; "A finding whose
    evidence is a plausible narrative refutes. Plausibility is what the miner already
    supplied". An upholding verifier telling the story in other words refutes it."""
    vote = classify_verdict(verdict(checked), CLAIM)
    assert vote.vote is VoteKind.REFUTED and vote.overruled is not None
    t = tally([verdict(checked)], CLAIM)
    assert (t.upheld, t.refuted, t.survives) == (0, 1, False)
    assert rule(t).ruling == "REFUTED"


def test_a_narrative_refutation_stays_a_refutation_without_overruling() -> None:
    """Seed 003 "Default to refuted when uncertain"."""
    vote = classify_verdict(verdict("Everyone knows a guard exists", refuted=True), CLAIM)
    assert (vote.vote, vote.overruled) == (VoteKind.REFUTED, None)


def test_narrative_beats_restatement() -> None:
    """ "It is well known that <the claim>" is the seed's own example of non-evidence: it
    refutes (the explicit row), it does not merely abstain as a restatement would."""
    vote = classify_verdict(verdict(f"It is well known that {CLAIM}"), CLAIM)
    assert vote.vote is VoteKind.REFUTED


# --- a verifier output that is not JSON abstains ----------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"refuted: false", b"The finding holds.", b"\xff\xfe", b"[" * 100_000],
    ids=["empty", "yaml", "prose", "not-utf8", "too-deep"],
)
def test_unreadable_output_is_one_abstention(data: bytes) -> None:
    """Seed 003 "Abstentions are not support": "A verifier that errored, timed out, or
    returned a malformed verdict has produced no evidence for the finding"."""
    parsed = parse_verdict_file(data, "v.json")
    assert parsed.claim is None and len(parsed.verdicts) == 1
    (raw,) = parsed.verdicts
    assert isinstance(raw, UnreadableOutput)
    vote = classify_verdict(raw, CLAIM)
    assert vote.vote is VoteKind.ABSTAINED
    assert vote.abstention is not None and vote.abstention.startswith("malformed: not ")


def test_two_copies_of_one_unreadable_output_count_once() -> None:
    first = parse_verdict_file(b"prose", "a").verdicts[0]
    second = parse_verdict_file(b"prose", "b").verdicts[0]
    other = parse_verdict_file(b"other prose", "c").verdicts[0]
    record = build_record([first, second, other, verdict()], CLAIM)
    assert (record.tally.abstained, record.tally.upheld) == (2, 1)
    assert record.duplicates == (
        "2 identical unreadable outputs counted once: not JSON: Expecting value at line 1 column 1",
    )


# --- PLAUSIBLE: "State it as unverified, with what would settle it" ----------------------------


def test_every_plausible_row_says_what_would_settle_it() -> None:
    """Seed 003 "Verdict meanings": PLAUSIBLE -> "State it as unverified, with what would
    settle it"; CONFIRMED and REFUTED need nothing settled."""
    for row in RULING_ROWS:
        assert (row.settle is not None) == (row.ruling == "PLAUSIBLE"), row.id


@pytest.mark.parametrize(
    ("verdicts", "required", "row", "settle_starts"),
    [
        ([], 1, "Q1", "a verifier re-opens the cited evidence itself"),
        ([verdict(), verdict("read pool.js:90", refuted=True)], 1, "Q3", "one more verifier"),
        ([verdict(), verdict("read a.py:1: no cap there")], 3, "Q5", "1 more valid verdict(s): "),
    ],
    ids=["Q1", "Q3", "Q5"],
)
def test_plausible_record_carries_its_settle(
    verdicts: list[object], required: int, row: str, settle_starts: str
) -> None:
    stakes = "audit" if required == 3 else "ordinary"
    record = build_record(verdicts, CLAIM, stakes=stakes)
    assert (record.ruling, record.row) == ("PLAUSIBLE", row)
    assert record.settle is not None and record.settle.startswith(settle_starts)


def test_confirmed_record_has_no_settle() -> None:
    assert build_record([checked_up()], CLAIM, source=TREE).settle is None


def test_upheld_but_unchecked_says_how_to_check_it() -> None:
    """Issue 18 (r18p): with no tree an upheld finding is PLAUSIBLE, "with what would
    settle it": a tally that can read the candidate's tree."""
    record = build_record([verdict()], CLAIM)
    assert (record.ruling, record.row) == ("PLAUSIBLE", "Q6U")
    assert record.settle is not None and "--tree REV" in record.settle
    assert "--observed VERDICT" in record.settle


def test_a_record_with_an_edited_settle_is_refused_and_an_old_one_without_is_read() -> None:
    record = json.loads(build_record([], CLAIM).model_dump_json(by_alias=True))
    edited = {**record, "settle": "trust me"}
    with pytest.raises(Exception, match="settle must be"):
        parse_tally_records(json.dumps(edited), "t.json")
    old = {k: v for k, v in record.items() if k != "settle"}
    old["tally"] = {k: v for k, v in old["tally"].items() if k not in ("lenses", "diverse")}
    assert parse_tally_records(json.dumps(old), "t.json")[0].ruling == "PLAUSIBLE"


# --- "Where failure modes differ in kind | 3, each with a different lens" ---------------------


def test_lens_diverse_stakes_row() -> None:
    """Seed 003 "How many verifiers": "Where failure modes differ in kind | 3, each with a
    different lens"."""
    row = stakes_row("lens-diverse")
    assert (row.id, row.verifiers, row.verifiers_critical, row.distinct_lenses) == (
        "S-lens-diverse",
        3,
        3,
        True,
    )
    assert row.text == "Where failure modes differ in kind: 3, each with a different lens"
    assert verifiers_required(Stakes.LENS_DIVERSE) == 3


def _lensed(lens: str | None, n: int, refuted: bool = False) -> dict[str, Any]:
    checked = f"re-ran check number {n} on scheduler.go:{n}0: `go spawn(job)` and saw no cap"
    return verdict(checked, refuted=refuted, **({"lens": lens} if lens else {}))


#: (id, verdicts, (survives, lenses), row): seed 003 "a correctness refuter, a reproduction
#: refuter, and an impact refuter catch three classes".
LENS_ROWS: list[tuple[str, list[object], tuple[bool, int], str]] = [
    (
        "three-lenses",
        [_lensed("correctness", 1), _lensed("reproduction", 2), _lensed("impact", 3)],
        (True, 3),
        "Q6",
    ),
    (
        "one-lens-three-times",
        [_lensed("correctness", 1), _lensed("correctness", 2), _lensed("Correctness", 3)],
        (False, 1),
        "Q5L",
    ),
    (
        "no-lens-named",
        [_lensed(None, 1), _lensed(None, 2), _lensed(None, 3)],
        (False, 0),
        "Q5L",
    ),
    (
        "an-abstaining-lens-does-not-count",
        [
            _lensed("correctness", 1),
            _lensed("reproduction", 2),
            _lensed("impact", 3),
            {"error": "crashed", "lens": "security"},
        ],
        (True, 3),
        "Q6",
    ),
    (
        "two-valid-of-three-lenses",
        [_lensed("correctness", 1), _lensed("impact", 2), {**_lensed("x", 3), "reason": " "}],
        (False, 2),
        "Q5",
    ),
]


@pytest.mark.parametrize(
    ("verdicts", "expected", "row"), [r[1:] for r in LENS_ROWS], ids=[r[0] for r in LENS_ROWS]
)
def test_lens_diverse_tally(verdicts: list[object], expected: tuple[bool, int], row: str) -> None:
    # scheduler.go of the candidate: every line spawns with no cap
    tree = CheckSource("d" * 40, lambda p: ["go spawn(job)"] * 99 if p == "scheduler.go" else None)
    record = build_record(verdicts, CLAIM, stakes="lens-diverse", source=tree)
    assert (record.tally.survives, record.tally.lenses) == expected
    assert record.tally.diverse and record.row == row
    again = parse_tally_records(record.model_dump_json(by_alias=True), "t")[0]
    assert again == record


def test_lens_diverse_settle_names_the_missing_lenses() -> None:
    record = build_record(LENS_ROWS[1][1], CLAIM, stakes="lens-diverse")
    assert (
        record.why == "upheld by verifiers of fewer different lenses than the stakes need (1 of 3)"
    )
    assert (
        record.settle is not None
        and "more verifier(s), each of a lens not yet used" in record.settle
    )


def test_lens_diverse_settle_suggests_only_lenses_not_present() -> None:
    """Seed 003 "3, each with a different lens": the settle of a correctness-only tally
    suggests two other lenses and never correctness itself (it said "say correctness,
    reproduction, impact" whatever lens the votes held); a stored record reads back."""
    record = build_record(LENS_ROWS[1][1], CLAIM, stakes="lens-diverse")
    assert record.settle == (
        "2 more verifier(s), each of a lens not yet used (say reproduction, impact; not "
        "correctness, already used), re-open the evidence, each naming its lens"
    )
    two = [_lensed("reproduction", 1), _lensed("Impact", 2), _lensed("impact", 3)]
    settle = build_record(two, CLAIM, stakes="lens-diverse").settle or ""
    suggested = settle.split("(say ", 1)[1].split(";", 1)[0]
    assert suggested == "correctness", settle
    unnamed = build_record(LENS_ROWS[2][1], CLAIM, stakes="lens-diverse")
    assert "(say correctness, reproduction, impact; none is named yet)" in (unnamed.settle or "")
    assert parse_tally_records(record.model_dump_json(by_alias=True), "t")[0] == record
    # a record stored before the settle named the lenses in use still reads
    old = record.model_dump(mode="json", by_alias=True)
    old["settle"] = (
        "verifiers of the missing lenses (say correctness, reproduction, impact) re-open "
        "the evidence, each naming its lens"
    )
    assert parse_tally_records(json.dumps(old), "t")[0].row == "Q5L"


# --- "Look for verdicts returned faster than the evidence could have been opened" -------------


@pytest.mark.parametrize(
    ("checked", "duration", "flagged"),
    [
        (CITED, None, False),
        (CITED, 0, True),
        (CITED, MIN_OPEN_MS - 1, True),
        (CITED, MIN_OPEN_MS, False),
        ("opened pool.js:88 and scheduler.go:12 and ran `grep -n budget`", 2 * MIN_OPEN_MS, True),
        ("opened pool.js:88 and scheduler.go:12 and ran `grep -n budget`", 3 * MIN_OPEN_MS, False),
        ("ran the spawner with a budget of 2 and counted 41 agents", 999, True),
    ],
    ids=["no-duration", "zero", "just-under", "at-floor", "three-pieces-fast", "three-ok", "none"],
)
def test_too_fast(checked: str, duration: int | None, flagged: bool) -> None:
    """Seed 003 "Verifying a verification": "Look for verdicts returned faster than the
    evidence could have been opened." The floor is :data:`MIN_OPEN_MS` per piece of evidence
    cited (at least one)."""
    raw = verdict(checked, **({} if duration is None else {"durationMs": duration}))
    reason = too_fast_reason(VerifierVerdict.model_validate(raw), CLAIM)
    assert (reason is not None) == flagged
    vote = classify_verdict(raw, CLAIM)
    assert vote.tooFast == reason and vote.durationMs == duration
    assert vote.vote is VoteKind.UPHELD  # a flag for the audit, not a change of count


def test_evidence_pieces_count_distinct_citations() -> None:
    assert evidence_pieces(CITED, CLAIM) == 1
    assert evidence_pieces("opened a.py:1, b.py:2 and `rg budget`", CLAIM) == 3
    assert evidence_pieces("nothing cited", CLAIM) == 0


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=10**7))
def test_too_fast_is_monotone_in_duration(a: int, b: int) -> None:
    """A slower verdict is never flagged when a faster one with the same text is not."""
    low, high = sorted((a, b))
    fast = too_fast_reason(VerifierVerdict(**verdict(durationMs=low)), CLAIM)
    slow = too_fast_reason(VerifierVerdict(**verdict(durationMs=high)), CLAIM)
    assert not (fast is None and slow is not None)


def test_a_record_hiding_its_too_fast_flag_is_refused() -> None:
    record = json.loads(build_record([verdict(durationMs=5)], CLAIM).model_dump_json(by_alias=True))
    assert record["votes"][0]["tooFast"]
    record["votes"][0]["tooFast"] = None
    with pytest.raises(Exception, match="tooFast contradicts"):
        TallyRecord.model_validate(record)


# --- "Sample two upheld findings and re-check them yourself" ----------------------------------


def _records() -> list[TallyRecord]:
    # upheld: CONFIRMED, so checked against the candidate's tree (issue 18: a Q6U finding,
    # PLAUSIBLE, is not upheld)
    out = [
        build_record([checked_up(verifier=f"v{n}")], f"claim {n}", finding=f"F{n}", source=TREE)
        for n in range(5)
    ]
    out.append(build_record([verdict("read pool.js:9", refuted=True)], "claim r", finding="FR"))
    out.append(build_record([verdict("It is well known")], "claim n", finding="FN"))
    out.append(build_record([verdict("claim x")], "claim x", finding="FX"))
    out.append(build_record([verdict(CITED, durationMs=3)], "claim f", finding="FF"))
    return out


def test_audit_samples_two_upheld_findings_with_what_they_opened() -> None:
    """Seed 003 "Verifying a verification": "Sample two upheld findings and re-check them
    yourself. Look for whatIChecked that merely restates the claim. Look for verdicts
    returned faster than the evidence could have been opened.\""""
    records = _records()
    report = audit(records, seed=7)
    assert (report.findings, report.upheld, report.seed) == (9, 5, 7)
    assert len(report.sample) == SAMPLE_SIZE == 2
    rows = {r.finding: r.row for r in records}
    assert all(rows[f.finding] == "Q6" for f in report.sample)  # CONFIRMED only
    opened = {r.finding: [v.whatIChecked for v in r.votes] for r in records}
    for f in report.sample:
        assert [v.whatIChecked for v in f.votes] == opened[f.finding]
    assert audit(records, seed=7) == report  # the seed decides the sample
    assert [f.finding for f in report.restating] == ["FX"]
    assert [f.finding for f in report.too_fast] == ["FF"]
    assert [f.finding for f in report.narrative] == ["FN"]
    assert report.narrative[0].votes[0].note is not None


def test_audit_with_fewer_upheld_findings_samples_them_all() -> None:
    records = _records()[:1] + _records()[5:6]
    report = audit(records, seed=1)
    assert [f.finding for f in report.sample] == ["F0"]
    assert audit([], seed=1).sample == ()


@given(st.integers(min_value=0, max_value=2**31), st.integers(min_value=0, max_value=6))
def test_audit_sample_is_always_upheld_and_bounded(seed: int, upheld: int) -> None:
    records = [
        build_record([checked_up()], f"claim {n}", finding=f"F{n}", source=TREE)
        for n in range(upheld)
    ] + [build_record([], "claim none", finding="Z")]
    report = audit(records, seed)
    names = [f.finding for f in report.sample]
    assert len(names) == min(SAMPLE_SIZE, upheld) == len(set(names))
    assert "Z" not in names


# --- "A verifier that only reads the finding is an opinion generator" -------------------------

#: Upheld ``whatIChecked`` texts that state no act of checking the verifier performed with
#: what it observed: certainty, experience, the summary or the miner's citations taken as
#: they are. Each counts as a refutation (seed 003: "Not evidence. Refute").
NO_ACT_OF_CHECKING = [
    "I am certain the budget is not enforced.",
    "From experience, spawn loops like this never enforce caps.",
    "Textbook case, nothing to check: fan-outs are unbounded.",
    "Anyone familiar with the codebase knows the spawn loop has no budget check.",
    "Reading the summary, it is clear the cap is exceeded.",
    "As the miner reported, workflow.js:142 spawns agents without a cap.",
    "Trusting the submitted evidence: workflow.js:142 spawns agents without a cap.",
    "The miner already showed workflow.js:142 and the run log; that is sufficient.",
    "Taken at face value, `workflow.js:142` spawns agents without a cap.",
    "In my opinion the claim holds.",
    "I'd bet the fan-out exceeds the budget.",
    "It is well known that fan-outs are unbounded.",
    "Read the summary: 41 agents were spawned.",
]


@pytest.mark.parametrize("checked", NO_ACT_OF_CHECKING)
def test_an_upheld_verdict_without_an_act_of_checking_refutes(checked: str) -> None:
    """Seed 003 "The contract": "Independently re-open — the verifier must go to the
    source, not reason about the summary. A verifier that only reads the finding is an
    opinion generator"; "What counts as reproducing evidence": ``"It is well known that…"``
    | Not evidence. Refute."""
    vote = classify_verdict(verdict(checked), CLAIM)
    assert vote.vote is VoteKind.REFUTED, checked
    assert vote.overruled is not None and vote.overruled.endswith("refute (seed 003)")


#: Upheld ``whatIChecked`` texts that say what the verifier opened or ran and what it saw.
ACTS_OF_CHECKING = [
    CITED,
    "ran `grep -n budget workflow.js`: no match in its 300 lines",
    "re-ran the fan-out with a budget of 2: 41 agents spawned (log line 'spawned 41')",
    "opened pool.js:88; `spawn()` is called in a loop without checking `budget`",
    "File and line: opened workflow.js:142, the line exists and spawns without a cap",
]


@pytest.mark.parametrize("checked", ACTS_OF_CHECKING)
def test_an_upheld_verdict_that_states_its_act_of_checking_confirms(checked: str) -> None:
    """Seed 003 "What counts as reproducing evidence": "File and line | Open it. The line
    exists"; "A count or metric | Re-run the query or the grep"."""
    vote = classify_verdict(verdict(checked), CLAIM)
    assert vote.vote is VoteKind.UPHELD, vote.overruled or vote.abstention


# --- "Look for whatIChecked that merely restates the claim": the miner's evidence too ------

EVIDENCE = "Opened workflow.js:142: the loop spawns agents with no budget check."


@pytest.mark.parametrize(
    ("what", "restates"),
    [
        ("Opened workflow.js:142: the loop spawns agents with no budget check.", True),
        ("opened   WORKFLOW.js:142 -- the loop spawns agents with no budget check", True),
        ("the loop spawns agents with no budget check", True),
        ("I checked: opened workflow.js:142: the loop spawns agents with no budget check", True),
        ("opened workflow.js:142: the loop spawns agents; budget is checked in spawn()", False),
        ("ran `grep -n budget workflow.js`: no match", False),
    ],
    ids=["verbatim", "normalised", "contained", "behind-filler", "own-words", "another-check"],
)
def test_a_check_restating_the_miners_evidence_abstains(what: str, restates: bool) -> None:
    """h18h finding 5 (issue 18): an upheld whatIChecked that is the miner's evidence (or a
    part of it) word for word was CONFIRMED; it is no independent check."""
    upheld = {"refuted": False, "reason": "real", "whatIChecked": what, "durationMs": 9000}
    found = evidence_restatement(what, EVIDENCE)
    assert (found is not None) is restates
    assert evidence_restatement(what, None) is None
    record = build_record([upheld], CLAIM, evidence=EVIDENCE)
    assert (record.votes[0].vote is VoteKind.UPHELD) is not restates
    assert supported_unchecked(record) is not restates


def test_a_stored_record_counting_a_restated_evidence_is_refused() -> None:
    """The record keeps the evidence; one that counts a check restating it as upheld
    contradicts itself and is refused."""
    upheld = {"refuted": False, "reason": "real", "whatIChecked": EVIDENCE, "durationMs": 9000}
    honest = build_record([upheld], CLAIM)
    assert supported_unchecked(honest)
    forged = honest.model_dump(mode="json", by_alias=True) | {"evidence": EVIDENCE}
    with pytest.raises(ValueError, match="restates the miner's evidence"):
        TallyRecord.model_validate(forged)
