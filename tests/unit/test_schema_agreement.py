"""`gentle-hook schema NAME` of an input and its parser give the same answer (SPEC §7, §9).

A document the schema accepts must parse, and one it refuses must be refused: otherwise a
caller that validates against the published schema is told "valid" for a brief the gate
rejects as unreadable, or the other way round. Rules of the JSON text itself (duplicate keys,
``NaN``) are the decoder's and are not compared: a schema sees decoded values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from gentle_hooks.artifacts.brief import parse_brief
from gentle_hooks.artifacts.jsonio import ArtifactInputError
from gentle_hooks.artifacts.verdict import parse_verdict
from gentle_hooks.cli.schema import INPUTS, schema_for
from gentle_hooks.quorum.ballot import parse_verdict_file
from gentle_hooks.quorum.votes import VerifierVerdict

BRIEF: dict[str, Any] = {
    "objective": "Add the quorum tally",
    "outputFormat": "a patch",
    "boundaries": ["gentle_hooks/quorum/ only"],
    "stopCondition": "tests green",
    "readOnly": False,
    "sideEffects": ["write-repo"],
}

VERDICT: dict[str, Any] = {
    "briefId": "b-1",
    "status": "pass",
    "criteria": [{"criterion": "c", "evidence": "exit 0", "result": "pass"}],
    "negativeTestsRun": 1,
    "fullSuiteRun": True,
    "artifactMutating": True,
    "summary": "ok",
}

QUORUM_VERDICT: dict[str, Any] = {
    "refuted": False,
    "reason": "reproduces",
    "whatIChecked": "opened workflow.js:142",
}


def _parses(parse: Callable[[str], object]) -> Callable[[object], bool]:
    def accepts(doc: object) -> bool:
        try:
            parse(json.dumps(doc))
        except ArtifactInputError:
            return False
        return True

    return accepts


def _quorum_verdict_parses(doc: object) -> bool:
    # classify_verdict reads answers with this model; a refused one abstains as malformed.
    try:
        VerifierVerdict.model_validate(json.loads(json.dumps(doc)))
    except ValidationError:
        return False
    return True


def _verdict_set_parses(doc: object) -> bool:
    # A verdict set is an object with a "verdicts" key; anything else is read as answers.
    # A set the model refuses is malformed verifier output: it abstains (no claim read).
    if not (isinstance(doc, dict) and "verdicts" in doc):
        return False
    return parse_verdict_file(json.dumps(doc), "v").claim is not None


PARSERS: dict[str, Callable[[object], bool]] = {
    "brief": _parses(parse_brief),
    "verdict": _parses(parse_verdict),
    "quorum-verdict": _quorum_verdict_parses,
    "quorum-verdicts": _verdict_set_parses,
}


def schema_accepts(name: str, doc: object) -> bool:
    return jsonschema.Draft202012Validator(schema_for(name)).is_valid(doc)


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    doc = {**base, **changes}
    return {k: v for k, v in doc.items() if v is not ...}


#: (id, schema name, document, accepted by both).
AGREEMENT_ROWS: list[tuple[str, str, object, bool]] = [
    ("brief-good", "brief", BRIEF, True),
    ("brief-boundaries-one-string", "brief", with_(BRIEF, boundaries="x"), True),
    ("brief-side-effects-one-string", "brief", with_(BRIEF, sideEffects="write-repo"), True),
    ("brief-tool-guidance-one-string", "brief", with_(BRIEF, toolGuidance="pytest"), True),
    ("brief-boundaries-number", "brief", with_(BRIEF, boundaries=1), False),
    ("brief-boundaries-list-of-numbers", "brief", with_(BRIEF, boundaries=[1]), False),
    ("brief-effort-budget-whole-float", "brief", with_(BRIEF, effortBudget=10.0), True),
    ("brief-effort-budget-fraction", "brief", with_(BRIEF, effortBudget=2.5), False),
    ("brief-effort-budget-zero", "brief", with_(BRIEF, effortBudget=0), False),
    ("brief-effort-budget-words", "brief", with_(BRIEF, effortBudget="3-10 calls"), True),
    ("brief-objective-blank", "brief", with_(BRIEF, objective=" \t"), False),
    ("brief-objective-file-separator", "brief", with_(BRIEF, objective="\x1c"), False),
    ("brief-objective-missing", "brief", with_(BRIEF, objective=...), False),
    ("brief-read-only-string", "brief", with_(BRIEF, readOnly="false"), False),
    ("brief-read-only-number", "brief", with_(BRIEF, readOnly=0), False),
    ("brief-unknown-field", "brief", with_(BRIEF, readonly=True), False),
    ("brief-not-an-object", "brief", [BRIEF], False),
    ("verdict-good", "verdict", VERDICT, True),
    ("verdict-negative-tests-whole-float", "verdict", with_(VERDICT, negativeTestsRun=1.0), True),
    ("verdict-negative-tests-fraction", "verdict", with_(VERDICT, negativeTestsRun=1.5), False),
    ("verdict-negative-tests-string", "verdict", with_(VERDICT, negativeTestsRun="1"), False),
    ("verdict-negative-tests-bool", "verdict", with_(VERDICT, negativeTestsRun=True), False),
    ("verdict-negative-tests-negative", "verdict", with_(VERDICT, negativeTestsRun=-1), False),
    ("verdict-tokens-whole-float", "verdict", with_(VERDICT, tokensUsed=1200.0), True),
    ("verdict-duration-null", "verdict", with_(VERDICT, durationMs=None), True),
    ("verdict-status-upper", "verdict", with_(VERDICT, status="PASS"), False),
    ("verdict-summary-at-limit", "verdict", with_(VERDICT, summary="x" * 2000), True),
    ("verdict-summary-over-limit", "verdict", with_(VERDICT, summary="x" * 2001), False),
    ("verdict-criterion-blank", "verdict", with_(VERDICT, criteria=[{"criterion": " "}]), False),
    ("verdict-criteria-one-object", "verdict", with_(VERDICT, criteria={"criterion": "c"}), False),
    ("verdict-suite-string", "verdict", with_(VERDICT, fullSuiteRun="true"), False),
    ("verdict-missing-summary", "verdict", with_(VERDICT, summary=...), False),
    ("quorum-verdict-good", "quorum-verdict", QUORUM_VERDICT, True),
    (
        "quorum-verdict-with-verifier",
        "quorum-verdict",
        with_(QUORUM_VERDICT, verifier="v1"),
        True,
    ),
    (
        "quorum-verdict-blank-verifier",
        "quorum-verdict",
        with_(QUORUM_VERDICT, verifier=" "),
        False,
    ),
    ("quorum-verdict-refuted-string", "quorum-verdict", with_(QUORUM_VERDICT, refuted="no"), False),
    ("quorum-verdicts-good", "quorum-verdicts", {"claim": "c", "verdicts": [None]}, True),
    ("quorum-verdicts-blank-claim", "quorum-verdicts", {"claim": " ", "verdicts": []}, False),
    ("quorum-verdicts-no-claim", "quorum-verdicts", {"verdicts": []}, False),
]


@pytest.mark.parametrize(
    ("name", "doc", "accepted"),
    [r[1:] for r in AGREEMENT_ROWS],
    ids=[r[0] for r in AGREEMENT_ROWS],
)
def test_schema_and_parser_agree(name: str, doc: object, accepted: bool) -> None:
    assert (schema_accepts(name, doc), PARSERS[name](doc)) == (accepted, accepted)


def test_every_compared_schema_is_an_input_schema() -> None:
    assert set(PARSERS) <= INPUTS
    assert {r[1] for r in AGREEMENT_ROWS} == set(PARSERS)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["pass", "fail", "blocked", " ", "\x1c", "write-repo"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)


def _mutations(base: dict[str, Any], extra_keys: list[str]) -> st.SearchStrategy[object]:
    keys = st.sampled_from(sorted(base) + extra_keys)
    return st.one_of(
        st.tuples(keys, json_values).map(lambda kv: with_(base, **{kv[0]: kv[1]})),
        keys.map(lambda k: with_(base, **{k: ...})),
        json_values,
    )


CRITERIA = ["criterion", "evidence", "result", "unknown"]


@given(_mutations(BRIEF, ["id", "toolGuidance", "effortBudget", "unknown"]))
def test_brief_schema_and_parser_agree_on_any_change(doc: object) -> None:
    assert schema_accepts("brief", doc) is PARSERS["brief"](doc)


@given(
    st.one_of(
        _mutations(VERDICT, ["artifactRef", "tokensUsed", "durationMs", "unknown"]),
        st.tuples(st.sampled_from(CRITERIA), json_values).map(
            lambda kv: with_(VERDICT, criteria=[{"criterion": "c", kv[0]: kv[1]}])
        ),
    )
)
def test_verdict_schema_and_parser_agree_on_any_change(doc: object) -> None:
    assert schema_accepts("verdict", doc) is PARSERS["verdict"](doc)


@given(_mutations(QUORUM_VERDICT, ["correctedImpact", "verifier", "unknown"]))
def test_quorum_verdict_schema_and_parser_agree_on_any_change(doc: object) -> None:
    assert schema_accepts("quorum-verdict", doc) is PARSERS["quorum-verdict"](doc)
