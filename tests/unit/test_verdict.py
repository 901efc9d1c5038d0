"""Briefs and verdicts (SPEC §6 "verdict", §9; seed 001): parse, check, accept, render."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.artifacts.brief import (
    BRIEF_RULES,
    check_brief,
    is_mutating_side_effect,
    parse_brief,
)
from gentle_hooks.artifacts.jsonio import ArtifactInputError
from gentle_hooks.artifacts.markdown import render_verdict_markdown
from gentle_hooks.artifacts.verdict import (
    EVIDENCE_SENTINELS,
    MAX_SUMMARY_CHARS,
    VERDICT_RULES,
    Criterion,
    DelegationVerdict,
    has_evidence,
    parse_verdict,
    shared_programs,
    stored_shared_programs,
    verdict_acceptance,
    verdict_json,
)
from gentle_hooks.errors import EXIT_INPUT, GentleError
from gentle_hooks.values.candidate import candidate_identity

#: V2 and V6 in words: what is missing, never a field's name (refuter r14a F2).
NO_SUITE = (
    "the full suite did not run in full: a pass needs it (fullSuite, run by a test runner, "
    "every test)"
)
NO_NEGATIVE = (
    "the change writes to the repository but no negative test ran: declare negativeTests (a "
    "check that passes on the base tree and fails on the change)"
)

# --- briefs ----------------------------------------------------------------------------------

GOOD_BRIEF: dict[str, Any] = {
    "id": "brief-7",
    "objective": "Add a tally that cannot be gamed",
    "outputFormat": "a patch and a DelegationVerdict",
    "toolGuidance": ["pytest", "ruff"],
    "boundaries": ["touch only gentle_hooks/quorum/"],
    "stopCondition": "every criterion re-checked with evidence",
    "effortBudget": 10,
    "readOnly": True,
    "sideEffects": ["write-temp-file"],
}


def brief_with(**changes: Any) -> str:
    doc = {**GOOD_BRIEF, **changes}
    return json.dumps({k: v for k, v in doc.items() if v is not ...})


BRIEF_ROWS = [
    ("complete", brief_with(), []),
    ("boundaries-absent", brief_with(boundaries=...), ["B1"]),
    ("boundaries-empty-list", brief_with(boundaries=[]), ["B1"]),
    ("boundaries-only-blank", brief_with(boundaries=["  ", ""]), ["B1"]),
    ("boundaries-one-string", brief_with(boundaries="src/ only"), []),
    ("stop-absent", brief_with(stopCondition=...), ["B2"]),
    ("stop-null", brief_with(stopCondition=None), ["B2"]),
    ("stop-blank", brief_with(stopCondition=" \t"), ["B2"]),
    # refuter r18y (issue 18): placeholders passed brief check
    ("boundaries-none", brief_with(boundaries=["none"]), ["B1"]),
    ("boundaries-placeholders", brief_with(boundaries=["N/A", " - ", "None."]), ["B1"]),
    ("boundaries-one-said", brief_with(boundaries=["none", "no network"]), []),
    ("stop-n/a", brief_with(stopCondition="n/a"), ["B2"]),
    ("stop-todo", brief_with(stopCondition="TODO"), ["B2"]),
    ("stop-said", brief_with(stopCondition="none of the tests fail"), []),
    ("readonly-false-no-effects", brief_with(readOnly=False, sideEffects=[]), ["B3"]),
    ("readonly-false-temp-file-only", brief_with(readOnly=False), ["B3"]),
    (
        "readonly-false-nonmutating-any-case",
        brief_with(readOnly=False, sideEffects=[" WRITE-TEMP-FILE ", "Read-Network", "none"]),
        ["B3"],
    ),
    ("readonly-false-blank-effect", brief_with(readOnly=False, sideEffects=["  "]), ["B3"]),
    ("readonly-false-write-repo", brief_with(readOnly=False, sideEffects=["write-repo"]), []),
    (
        "readonly-false-one-mutating-among-many",
        brief_with(readOnly=False, sideEffects=["write-temp-file", "git-commit"]),
        [],
    ),
    ("readonly-false-effect-as-string", brief_with(readOnly=False, sideEffects="write-repo"), []),
    ("readonly-absent-is-readonly", brief_with(readOnly=..., sideEffects=...), []),
    (
        "every-fault-named",
        brief_with(boundaries=..., stopCondition=..., readOnly=False, sideEffects=...),
        ["B1", "B2", "B3"],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [r[1:] for r in BRIEF_ROWS], ids=[r[0] for r in BRIEF_ROWS]
)
def test_check_brief_names_each_fault(text: str, expected: list[str]) -> None:
    faults = check_brief(parse_brief(text))
    assert [f.split(" ", 1)[0] for f in faults] == expected


#: (id, declared side effect, counts as mutating). A placeholder, a negation, a bare
#: permission or prose is not a declaration of a mutating side effect (rule B3).
SIDE_EFFECT_ROWS: list[tuple[str, str, bool]] = [
    ("n/a", "n/a", False),
    ("none-with-period", "none.", False),
    ("dash", "-", False),
    ("nothing", "nothing", False),
    ("prose-no-side-effects", "no side effects", False),
    ("readonly", "readonly", False),
    ("read", "read", False),
    ("read-only", "read-only", False),
    ("blank", "  ", False),
    ("question-mark", "?", False),
    ("tbd", "TBD", False),
    ("negated-no-write", "no-write", False),
    ("negated-does-not-write", "does-not-write", False),
    ("negated-write-nothing", "write-nothing", False),
    ("non-mutating", "non-mutating", False),
    ("prose-with-a-verb", "writes to the repo", False),
    ("snake-case", "write_repo", False),
    ("seed-temp-file", "write-temp-file", False),
    ("seed-temp-file-any-case", " WRITE-TEMP-FILE ", False),
    ("read-network", "read-network", False),
    ("write-repo", "write-repo", True),
    ("write-repo-upper", " Write-Repo ", True),
    ("git-commit", "git-commit", True),
    ("git-push", "git-push", True),
    ("run-migration", "run-migration", True),
    ("delete-branch", "delete-branch", True),
    ("modifies-files", "modifies-files", True),
    ("deploy", "deploy", True),
    ("send-email", "send-email", True),
    ("http-post", "http-post", True),
    ("shell-exec", "shell-exec", True),
    ("install-packages", "install-packages", True),
]


@pytest.mark.parametrize(
    ("effect", "mutating"), [r[1:] for r in SIDE_EFFECT_ROWS], ids=[r[0] for r in SIDE_EFFECT_ROWS]
)
def test_side_effect_counts_as_mutating_only_when_declared_as_one(
    effect: str, mutating: bool
) -> None:
    assert is_mutating_side_effect(effect) is mutating
    faults = check_brief(parse_brief(brief_with(readOnly=False, sideEffects=[effect])))
    assert [f.split(" ", 1)[0] for f in faults] == ([] if mutating else ["B3"])


def test_placeholders_together_do_not_declare_a_mutation() -> None:
    effects = ["n/a", "none.", "-", "nothing", "no side effects", "readonly", "read"]
    faults = check_brief(parse_brief(brief_with(readOnly=False, sideEffects=effects)))
    assert faults == [
        "B3 readOnly is false but no mutating side effect is declared (declared: n/a, none., -, "
        "nothing, no side effects, readonly, read); add one to sideEffects as a kebab-case id "
        'with a mutating verb, e.g. "write-repo"'
    ]


def test_brief_fault_messages_exact() -> None:
    faults = check_brief(
        parse_brief(
            brief_with(boundaries=[], stopCondition="", readOnly=False, sideEffects=["none"])
        )
    )
    assert faults == [
        'B1 no boundaries: say what the worker must not touch or do ("boundaries": ["..."]); '
        "a brief without them duplicates work",
        'B2 no stopCondition: say when the worker is done ("stopCondition": "...")',
        "B3 readOnly is false but no mutating side effect is declared (declared: none); "
        'add one to sideEffects as a kebab-case id with a mutating verb, e.g. "write-repo"',
    ]


def test_brief_rule_ids_are_stable() -> None:
    assert [r.id for r in BRIEF_RULES] == ["B1", "B2", "B3", "B4", "B5"]


BRIEF_MALFORMED = [
    ("not-json", "objective: x", "b.json: not JSON: Expecting value at line 1 column 1"),
    ("not-an-object", "[]", "b.json: not a DelegationBrief: expected a JSON object"),
    (
        "duplicate-key",
        '{"objective": "a", "objective": "b"}',
        "b.json: not JSON: duplicate key 'objective'",
    ),
    ("nan", '{"effortBudget": NaN}', "b.json: not JSON: NaN is not JSON"),
    (
        "objective-missing",
        brief_with(objective=...),
        "b.json: not a DelegationBrief: objective: required field missing",
    ),
    (
        "objective-blank",
        brief_with(objective="   "),
        "b.json: not a DelegationBrief: objective: must not be blank",
    ),
    (
        "env-name-not-a-name",  # was "must not be blank": the pattern it misses is named
        brief_with(env={"1BAD": "x"}),
        "b.json: not a DelegationBrief: env.1BAD.[key]: must match the pattern "
        "^[A-Za-z_][A-Za-z0-9_]*$",
    ),
    (
        "readonly-string",
        brief_with(readOnly="false"),
        "b.json: not a DelegationBrief: readOnly: Input should be a valid boolean",
    ),
    (
        "unknown-field",
        brief_with(readonly=False),
        "b.json: not a DelegationBrief: readonly: unknown field",
    ),
    (
        "boundary-not-string",
        brief_with(boundaries=[1]),
        "b.json: not a DelegationBrief: boundaries.0: Input should be a valid string",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [r[1:] for r in BRIEF_MALFORMED], ids=[r[0] for r in BRIEF_MALFORMED]
)
def test_malformed_brief_exits_2_with_reason(text: str, message: str) -> None:
    with pytest.raises(ArtifactInputError) as info:
        parse_brief(text, "b.json")
    assert info.value.message == message
    assert info.value.exit_code == EXIT_INPUT
    assert isinstance(info.value, GentleError)


def test_brief_not_utf8() -> None:
    with pytest.raises(ArtifactInputError, match=r"^b\.json: not UTF-8: invalid start byte"):
        parse_brief(b'{"objective": "\xff"}', "b.json")


def test_brief_effort_budget_int_or_words() -> None:
    assert parse_brief(brief_with(effortBudget="3-10 tool calls")).effortBudget == "3-10 tool calls"
    with pytest.raises(ArtifactInputError, match="effortBudget"):
        parse_brief(brief_with(effortBudget=0))


# --- verdicts ---------------------------------------------------------------------------------

GOOD_VERDICT: dict[str, Any] = {
    "briefId": "brief-7",
    "status": "pass",
    "criteria": [
        {
            "criterion": "ties are PLAUSIBLE",
            "evidence": "test_tie passed: 4 rows",
            "result": "pass",
        },
        {"criterion": "order-independent", "evidence": "hypothesis: 200 examples"},
    ],
    "negativeTestsRun": 2,
    "fullSuiteRun": True,
    "artifactMutating": True,
    "summary": "All criteria re-checked; two negative tests failed as expected.",
    "artifactRef": "artifacts/verify-delegation/brief-7.json",
    "tokensUsed": 1200,
    "durationMs": 5300,
}


def verdict_with(**changes: Any) -> DelegationVerdict:
    doc = {**GOOD_VERDICT, **changes}
    return parse_verdict(json.dumps({k: v for k, v in doc.items() if v is not ...}))


def crit(evidence: str, result: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"criterion": "c", "evidence": evidence}
    if result is not None:
        row["result"] = result
    return row


def observed_crit(kind: str, command: str) -> dict[str, Any]:
    """A criterion with the observation ``verify run`` records for it."""
    observed = {"kind": kind, "command": command, "exitCode": 0, "durationMs": 3}
    return {**crit(f"`{command}` exited 0 in 3 ms"), "observed": observed}


ACCEPTANCE_ROWS = [
    ("accepted", verdict_with(), []),
    ("optional-fields-absent", verdict_with(artifactRef=..., tokensUsed=..., durationMs=...), []),
    ("status-fail", verdict_with(status="fail"), ["V1"]),
    ("status-blocked", verdict_with(status="blocked"), ["V1"]),
    ("suite-not-run", verdict_with(fullSuiteRun=False), ["V2"]),
    ("no-criteria", verdict_with(criteria=[]), ["V3"]),
    ("evidence-missing", verdict_with(criteria=[{"criterion": "c"}]), ["V4"]),
    (
        "evidence-on-one-of-two",
        verdict_with(criteria=[crit("ran it: exit 0"), crit("n/a")]),
        ["V4"],
    ),
    ("evidence-every-criterion", verdict_with(criteria=[crit("e1"), crit("e2"), crit("e3")]), []),
    ("criterion-result-fail", verdict_with(criteria=[crit("ran: exit 1", "fail")]), ["V5"]),
    ("criterion-result-blocked", verdict_with(criteria=[crit("no network", "blocked")]), ["V5"]),
    ("criterion-result-pass", verdict_with(criteria=[crit("ran: exit 0", "pass")]), []),
    ("mutating-no-negative-test", verdict_with(negativeTestsRun=0), ["V6"]),
    ("mutating-one-negative-test", verdict_with(negativeTestsRun=1), []),
    ("not-mutating-no-negative-test", verdict_with(artifactMutating=False, negativeTestsRun=0), []),
    # seed 001 "Guardrails": "do not accept a claim whose criteria have no observable check"
    ("observed-true", verdict_with(criteria=[observed_crit("criterion", "true")]), ["V7"]),
    ("observed-exit-0", verdict_with(criteria=[observed_crit("criterion", "exit 0")]), ["V7"]),
    ("observed-colon", verdict_with(criteria=[observed_crit("suite", ":")]), ["V7"]),
    (
        "observed-masked",
        verdict_with(criteria=[observed_crit("criterion", "pytest -q || true")]),
        ["V7"],
    ),
    ("observed-a-check", verdict_with(criteria=[observed_crit("criterion", "pytest -q")]), []),
    ("observed-negative-false", verdict_with(criteria=[observed_crit("negative", "true")]), []),
    # a run that stopped at a check that changed the artifact: that check is the reason;
    # the status, the suite, its own fail and the negative test after it follow from it
    (
        "stopped-at-a-changing-check",
        verdict_with(
            status="blocked",
            fullSuiteRun=False,
            negativeTestsRun=0,
            criteria=[crit("ran: exit 0", "pass"), crit("ran: exit 0, changed a.py", "fail")],
            changedArtifact={"kind": "criterion", "command": "pytest -q", "paths": ["a.py"]},
        ),
        ["V0"],
    ),
    (
        "stopped-after-a-failed-criterion",
        verdict_with(
            status="blocked",
            fullSuiteRun=False,
            negativeTestsRun=0,
            criteria=[crit("ran: exit 1", "fail"), crit("ran: exit 0, changed a.py", "fail")],
            changedArtifact={"kind": "criterion", "command": "pytest -q", "paths": ["a.py"]},
        ),
        ["V0", "V5"],
    ),
    (
        "every-rule-named",
        verdict_with(
            status="fail",
            fullSuiteRun=False,
            criteria=[crit("TODO"), crit("exit 1", "fail")],
            negativeTestsRun=0,
        ),
        ["V1", "V2", "V4", "V5", "V6"],
    ),
]


@pytest.mark.parametrize(
    ("verdict", "failed"), [r[1:] for r in ACCEPTANCE_ROWS], ids=[r[0] for r in ACCEPTANCE_ROWS]
)
def test_verdict_acceptance_rules(verdict: DelegationVerdict, failed: list[str]) -> None:
    accepted, reasons = verdict_acceptance(verdict)
    assert [r.split(" ", 1)[0] for r in reasons] == failed
    assert accepted is (not failed)


@pytest.mark.parametrize(
    "evidence",
    [
        "",
        "   ",
        "n/a",
        "N/A",
        " NA ",
        "todo",
        "TODO",
        "pass",
        "Passed.",
        "ok",
        "OK!",
        "none",
        "None",
        "-",
        "tbd",
        " Tbd. ",
        "done",
        "yes",
        "✓",
        "...",
        # variants an adversarial review found accepted before the key dropped punctuation
        "TODO:",
        "ok,",
        "(n/a)",
        '"ok"',
        "'ok'",
        "n / a",
        "n.a.",
        "\u2014",
        "\u2026",
        "?",
        "\u2705",
        "PASS \u2705",
        "Not applicable",
        "TO DO",
        "to-do",
        "skipped",
        "\u200b",
        "\ufeff",
        "ok\u200b",
    ],
)
def test_sentinel_is_not_evidence(evidence: str) -> None:
    verdict = verdict_with(criteria=[crit(evidence)])
    assert verdict_acceptance(verdict) == (
        False,
        (f"V4 criterion 1 ('c') has no evidence ({evidence.strip()!r})",),
    )


@pytest.mark.parametrize(
    "evidence", ["exit 0", "passes: 12 tests", "okay, 3 rows checked", "none of 40 calls leaked"]
)
def test_observations_are_evidence(evidence: str) -> None:
    assert has_evidence(Criterion(criterion="c", evidence=evidence))


@given(
    st.sampled_from(sorted(EVIDENCE_SENTINELS)),
    st.text(alphabet=" \t\n", max_size=3),
    st.text(alphabet=" \t\n", max_size=3),
    st.text(alphabet=".!", max_size=2),
)
def test_sentinels_whatever_case_and_padding(word: str, pre: str, post: str, stop: str) -> None:
    for variant in (word, word.upper(), word.title()):
        assert not has_evidence(Criterion(criterion="c", evidence=pre + variant + stop + post))


def test_acceptance_messages_exact() -> None:
    verdict = verdict_with(
        status="blocked",
        fullSuiteRun=False,
        criteria=[crit("tbd"), crit("timeout", "blocked")],
        negativeTestsRun=0,
    )
    assert verdict_acceptance(verdict) == (
        False,
        (
            "V1 status is blocked, not pass",
            "V2 " + NO_SUITE,
            "V4 criterion 1 ('c') has no evidence ('tbd')",
            "V5 criterion 2 ('c') was blocked",
            "V6 " + NO_NEGATIVE,
        ),
    )
    assert verdict_acceptance(verdict_with(criteria=[])) == (
        False,
        ("V3 no criteria: nothing was re-checked",),
    )


def test_verdict_rule_ids_are_stable() -> None:
    assert [r.id for r in VERDICT_RULES] == ["V0", "V1", "V2", "V3", "V4", "V5", "V6", "V7"]


def test_summary_at_the_limit_is_kept() -> None:
    assert len(verdict_with(summary="x" * MAX_SUMMARY_CHARS).summary) == MAX_SUMMARY_CHARS


def test_oversized_summary_is_refused_with_the_limit() -> None:
    doc = {**GOOD_VERDICT, "summary": "y" * (MAX_SUMMARY_CHARS + 1)}
    with pytest.raises(ArtifactInputError) as info:
        parse_verdict(json.dumps(doc), "v.json")
    assert info.value.message == (
        f"v.json: not a DelegationVerdict: summary is {MAX_SUMMARY_CHARS + 1} characters; "
        f"the limit is {MAX_SUMMARY_CHARS} (a bounded summary plus artifactRef, never a transcript)"
    )
    assert info.value.exit_code == EXIT_INPUT


#: A candidate as ``verify run`` binds it: ids spelled as git prints them, lowercase.
LOWER_CANDIDATE = {
    "identity": candidate_identity("4f040a682917af3b65697120745caf467b33a09d", "ea7c7d4b" * 5),
    "baseTree": "4f040a682917af3b65697120745caf467b33a09d",
    "tree": "ea7c7d4b" * 5,
}


def test_a_lowercase_candidate_parses() -> None:
    """The spelling ``verify run`` writes (the uppercase one is refused, VERDICT_MALFORMED)."""
    verdict = parse_verdict(raw_verdict(candidate=LOWER_CANDIDATE), "v.json")
    assert verdict.candidate is not None
    assert verdict.candidate.model_dump() == LOWER_CANDIDATE


def raw_verdict(**changes: Any) -> str:
    doc = {**GOOD_VERDICT, **changes}
    return json.dumps({k: v for k, v in doc.items() if v is not ...})


VERDICT_MALFORMED = [
    ("not-json", "status: pass", "v.json: not JSON: Expecting value at line 1 column 1"),
    ("not-an-object", '"pass"', "v.json: not a DelegationVerdict: expected a JSON object"),
    (
        "duplicate-status",
        '{"status": "fail", "status": "pass"}',
        "v.json: not JSON: duplicate key 'status'",
    ),
    (
        "status-missing",
        raw_verdict(status=...),
        "v.json: not a DelegationVerdict: status: required field missing",
    ),
    (
        "status-uppercase",
        raw_verdict(status="PASS"),
        "v.json: not a DelegationVerdict: status: Input should be 'pass', 'fail' or 'blocked'",
    ),
    (
        "count-as-string",
        raw_verdict(negativeTestsRun="3"),
        "v.json: not a DelegationVerdict: negativeTestsRun: Input should be a valid integer",
    ),
    (
        "count-as-bool",
        raw_verdict(negativeTestsRun=True),
        "v.json: not a DelegationVerdict: negativeTestsRun: Input should be a valid integer",
    ),
    (
        "count-negative",
        raw_verdict(negativeTestsRun=-1),
        "v.json: not a DelegationVerdict: negativeTestsRun: "
        "Input should be greater than or equal to 0",
    ),
    (
        "suite-as-string",
        raw_verdict(fullSuiteRun="true"),
        "v.json: not a DelegationVerdict: fullSuiteRun: Input should be a valid boolean",
    ),
    (
        "criterion-as-string",
        raw_verdict(criteria=["tests pass"]),
        "v.json: not a DelegationVerdict: criteria.0: Input should be an object",
    ),
    (
        "criterion-blank",
        raw_verdict(criteria=[{"criterion": " ", "evidence": "e"}]),
        "v.json: not a DelegationVerdict: criteria.0.criterion: must not be blank",
    ),
    (
        "unknown-field",
        raw_verdict(accepted=True),
        "v.json: not a DelegationVerdict: accepted: unknown field",
    ),
    (
        "brief-id-blank",
        raw_verdict(briefId=""),
        "v.json: not a DelegationVerdict: briefId: must not be blank",
    ),
    (
        "candidate-uppercase",  # refuter r18y c-upper.json: was "must not be blank" thrice
        raw_verdict(candidate={k: v.upper() for k, v in LOWER_CANDIDATE.items()}),
        "v.json: not a DelegationVerdict: candidate.identity: must be sha256: and 64 "
        "lowercase hex digits; candidate.baseTree: must be a git object id: 40 or 64 "
        "lowercase hex digits; candidate.tree: must be a git object id: 40 or 64 lowercase "
        "hex digits",
    ),
    (
        "candidate-identity-uppercase-hex",
        raw_verdict(
            candidate={
                **LOWER_CANDIDATE,
                "identity": "sha256:" + LOWER_CANDIDATE["identity"][7:].upper(),
            }
        ),
        "v.json: not a DelegationVerdict: candidate.identity: must be sha256: and 64 "
        "lowercase hex digits",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [r[1:] for r in VERDICT_MALFORMED], ids=[r[0] for r in VERDICT_MALFORMED]
)
def test_malformed_verdict_exits_2_with_reason(text: str, message: str) -> None:
    with pytest.raises(ArtifactInputError) as info:
        parse_verdict(text, "v.json")
    assert info.value.message == message
    assert info.value.exit_code == EXIT_INPUT


def test_many_faults_are_folded_into_one_line() -> None:
    with pytest.raises(ArtifactInputError) as info:
        parse_verdict("{}", "v.json")
    assert info.value.message == (
        "v.json: not a DelegationVerdict: briefId: required field missing; status: required "
        "field missing; criteria: required field missing; negativeTestsRun: required field "
        "missing; and 3 more"
    )


def test_verdict_bytes_with_bom_parse() -> None:
    assert parse_verdict(b"\xef\xbb\xbf" + raw_verdict().encode()).briefId == "brief-7"


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_parse_verdict_only_ever_raises_the_input_error(data: str | bytes) -> None:
    try:
        parse_verdict(data)
    except ArtifactInputError as exc:
        assert exc.exit_code == EXIT_INPUT
        assert "\n" not in exc.message


_text = st.text(min_size=1, max_size=30).filter(lambda s: s.strip() != "")
verdicts = st.builds(
    DelegationVerdict,
    briefId=_text,
    status=st.sampled_from(["pass", "fail", "blocked"]),
    criteria=st.lists(
        st.builds(
            Criterion,
            criterion=_text,
            evidence=st.text(max_size=30),
            result=st.sampled_from([None, "pass", "fail", "blocked"]),
        ),
        max_size=4,
    ).map(tuple),
    negativeTestsRun=st.integers(0, 5),
    fullSuiteRun=st.booleans(),
    artifactMutating=st.booleans(),
    summary=st.text(max_size=100),
    artifactRef=st.none() | st.text(max_size=20),
    tokensUsed=st.none() | st.integers(0, 10**6),
    durationMs=st.none() | st.integers(0, 10**6),
)


@given(verdicts)
def test_stored_json_round_trips(verdict: DelegationVerdict) -> None:
    assert parse_verdict(verdict_json(verdict)) == verdict


@given(verdicts)
def test_acceptance_is_exactly_the_rules(verdict: DelegationVerdict) -> None:
    accepted, _ = verdict_acceptance(verdict)
    expected = (
        verdict.status == "pass"
        and verdict.fullSuiteRun
        and len(verdict.criteria) > 0
        and all(has_evidence(c) and c.result in (None, "pass") for c in verdict.criteria)
        and (not verdict.artifactMutating or verdict.negativeTestsRun >= 1)
    )
    assert accepted is expected


# --- Markdown view ----------------------------------------------------------------------------


def test_markdown_view_exact() -> None:
    assert render_verdict_markdown(verdict_with()) == (
        "# DelegationVerdict for brief `brief-7`\n"
        "\n"
        "- **Status:** pass\n"
        "- **Accepted for the gate:** yes\n"
        "- **Artifact:** `artifacts/verify-delegation/brief-7.json`\n"
        "- **Tokens used:** 1200\n"
        "- **Duration:** 5300 ms\n"
        "\n"
        "## Criteria\n"
        "\n"
        "| # | Criterion | Result | Evidence |\n"
        "|---|---|---|---|\n"
        "| 1 | ties are PLAUSIBLE | pass | test_tie passed: 4 rows |\n"
        "| 2 | order-independent | — | hypothesis: 200 examples |\n"
        "\n"
        "## Negative tests\n"
        "\n"
        "2 run; artifact mutating: yes.\n"
        "\n"
        "## Suite\n"
        "\n"
        "The full suite ran.\n"
        "\n"
        "## Summary\n"
        "\n"
        "> All criteria re-checked; two negative tests failed as expected.\n"
    )


def test_markdown_names_why_not_accepted_and_missing_evidence() -> None:
    md = render_verdict_markdown(
        verdict_with(fullSuiteRun=False, criteria=[crit("n/a")], artifactRef=...)
    )
    assert "- **Accepted for the gate:** no\n" in md
    assert f"  - not accepted: V2 {NO_SUITE}\n" in md
    assert "  - not accepted: V4 criterion 1 ('c') has no evidence ('n/a')\n" in md
    assert "| 1 | c | — | **none** |\n" in md
    assert "The full suite did **not** run.\n" in md
    assert "Artifact" not in md


def test_markdown_text_cannot_forge_rows_or_headings() -> None:
    md = render_verdict_markdown(
        verdict_with(
            criteria=[{"criterion": "a | b", "evidence": "line1\n| 9 | forged | pass | x |"}],
            summary="done\n## Accepted for the gate: yes\nreally",
        )
    )
    assert "| 1 | a \\| b | — | line1 \\| 9 \\| forged \\| pass \\| x \\| |\n" in md
    assert md.endswith("> done\n> ## Accepted for the gate: yes\n> really\n")
    assert "\n## Accepted" not in md


def test_markdown_shows_control_characters_escaped() -> None:
    """Refuter r18y ``v6.sh``: a ``--caller`` and a criterion name holding ESC sequences
    reached the Markdown view raw, so ``verdict show`` or ``cat`` of the view cleared the
    screen and recoloured it. They are written ``\\xHH`` as human output writes them."""
    md = render_verdict_markdown(
        verdict_with(
            caller="evil\x1b[2J\nverify run: pass FAKE",
            criteria=[{"criterion": "c\x1b[31mRED\nsecond line", "evidence": "ok\x07\x9b1m"}],
            summary="done\x1b]0;title\x07\nreally\r",
        )
    )
    assert "- **Caller:** evil\\\\x1b[2J verify run: pass FAKE\n" in md
    assert "| 1 | c\\\\x1b[31mRED second line | — | ok\\\\x07\\\\x9b1m |\n" in md
    assert md.endswith("> done\\x1b]0;title\\x07\n> really\\x0d\n")
    assert [ch for ch in md if ch != "\n" and not ch.isprintable()] == []


@given(verdicts)
def test_markdown_holds_no_raw_control_character(verdict: DelegationVerdict) -> None:
    """Tab is kept, as human output keeps it (it moves no cursor a line break does not)."""
    md = render_verdict_markdown(verdict, caller="x\x1b")
    raw = [ch for ch in md if (ch < " " and ch not in "\n\t") or "\x7f" <= ch <= "\x9f"]
    assert raw + [ch for ch in md if ch in "\u2028\u2029"] == []


@given(verdicts)
def test_markdown_has_one_table_row_per_criterion(verdict: DelegationVerdict) -> None:
    md = render_verdict_markdown(verdict)
    rows = [line for line in md.splitlines() if line.startswith("| ") and line[2:3].isdigit()]
    assert len(rows) == len(verdict.criteria)
    assert md.count("\n## ") == 4


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_parse_brief_only_ever_raises_the_input_error(data: str | bytes) -> None:
    try:
        parse_brief(data)
    except ArtifactInputError as exc:
        assert exc.exit_code == EXIT_INPUT
        assert "\n" not in exc.message


def test_pathological_nesting_exits_2_not_3() -> None:
    with pytest.raises(ArtifactInputError, match=r"^v: not JSON: nested too deeply$"):
        parse_verdict("[" * 100_000, "v")


def test_a_fail_verdict_without_its_suite_says_it_is_recorded_blocked() -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked
    explaining why it could not": the reason names the status it is recorded with."""
    from gentle_hooks.artifacts.verdict import parse_verdict, recorded_status, verdict_acceptance
    from tests.conftest import PASSING_VERDICT

    raw = {**PASSING_VERDICT, "status": "fail", "fullSuiteRun": False}
    verdict = parse_verdict(json.dumps(raw), "v.json")
    assert recorded_status(verdict) == "blocked"
    reasons = verdict_acceptance(verdict)[1]
    assert reasons[0] == (
        "V1 status is fail, recorded as blocked (the full suite did not run), not pass"
    )


def test_shared_programs_must_be_among_the_programs() -> None:
    """``observed.sharedPrograms`` (a run let start a program from a shared place, refuter
    r18y) names programs the check started; any other path is refused."""
    program = {"name": "pytest", "path": "/tmp/bin/pytest", "sha256": "sha256:" + "0" * 64}
    observed = {"kind": "suite", "command": "pytest", "durationMs": 3, "programs": [program]}

    def with_shared(paths: list[str]) -> str:
        row = {**crit("`pytest` exited 0"), "observed": {**observed, "sharedPrograms": paths}}
        return raw_verdict(criteria=[row])

    verdict = parse_verdict(with_shared(["/tmp/bin/pytest"]), "v.json")
    assert shared_programs(verdict) == ("/tmp/bin/pytest",)
    assert stored_shared_programs(verdict_json(verdict)) == ("/tmp/bin/pytest",)
    assert shared_programs(verdict_with()) == ()
    with pytest.raises(ArtifactInputError, match="sharedPrograms names a path that is not one"):
        parse_verdict(with_shared(["/tmp/other"]), "v.json")
