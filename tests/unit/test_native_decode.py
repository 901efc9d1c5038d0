"""The typed decode of ``gentle-ai review assess --json`` and the candidate the binary may
judge (SPEC §4 ``gentle-ai``), without git or processes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gentle_hooks.native.binary import build_argv, selector_args
from gentle_hooks.native.decode import DecodeError, decode_assessment
from gentle_hooks.native.message import one_line
from gentle_hooks.native.result import ABSENT
from gentle_hooks.report.models import ReviewAssessment
from gentle_hooks.values.candidate import BaseResolution, Candidate, Projection

SCHEMA = "gentle-ai.review-assessment/v1"


def env(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "schema": SCHEMA,
        "risk": "high",
        "reasons": [{"code": "service_token", "path": "a/auth.go"}],
        "changed_paths": 1,
        "changed_lines": 43,
        "candidate": {"kind": "base-diff", "base_ref": "15ea98ed", "consumed": False},
        "review_due": True,
        "review_due_reason": "high_risk",
        "next_transition": {"operation": "review.status", "command": "c", "arguments": []},
    }
    for key, value in over.items():
        if value is _DROP:
            base.pop(key, None)
        else:
            base[key] = value
    return base


_DROP = object()


def decode(data: object) -> Any:
    return decode_assessment(json.dumps(data).encode())


def test_a_full_envelope_decodes_and_is_relayed_as_printed() -> None:
    sent = env()
    got = decode(sent)
    assert (got.risk, got.changed_lines, got.review_due, got.review_due_reason) == (
        "high",
        43,
        True,
        "high_risk",
    )
    assert got.next_transition == sent["next_transition"]
    assert got.candidate.consumed is False
    assert json.dumps(got.to_json()) == json.dumps(sent)
    ReviewAssessment.model_validate(got.to_json())


def test_an_older_envelope_invents_nothing() -> None:
    sent = env(
        candidate={"kind": "current-changes"},
        review_due=_DROP,
        review_due_reason=_DROP,
        next_transition=_DROP,
    )
    got = decode(sent)
    assert got.review_due is ABSENT and got.review_due_reason is ABSENT
    assert got.next_transition is ABSENT and got.candidate.consumed is None
    assert got.to_json() == sent
    assert got.reasons[0].detail is None
    assert "detail" not in got.to_json()["reasons"][0]


def test_unknown_fields_are_ignored_and_never_projected() -> None:
    got = decode(
        env(future_field={"x": 1}, candidate={"kind": "base-diff", "consumed": False, "new": 1})
    )
    assert "future_field" not in got.to_json()
    assert got.to_json()["candidate"] == {"kind": "base-diff", "consumed": False}


def test_the_former_builtin_shape_is_refused() -> None:
    """Paths as a list, a null path and a projection as the kind are not
    upstream's v1 shape; upstream's decoder refuses each of them."""
    for over in (
        {"changed_paths": ["a/auth.go"]},
        {"reasons": [{"code": "hot_path", "path": None, "detail": "d"}]},
        {"candidate": {"kind": "committed", "base_ref": "main", "consumed": False}},
    ):
        with pytest.raises(DecodeError, match="the typed model refuses"):
            decode(env(**over))


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"reasons": [{"path": "x"}]}, "reasons.0.code: Field required"),
        ({"reasons": [{"code": ""}]}, "reasons.0.code: String should have at least 1 character"),
        ({"reasons": "none"}, "reasons: Input should be a valid list"),
        ({"changed_lines": 1.5}, "changed_lines: Value error, must be a non-negative integer"),
        ({"changed_lines": -1}, "changed_lines: Value error, must be a non-negative safe integer"),
        ({"changed_lines": True}, "changed_lines: Value error, must be a non-negative integer"),
        ({"changed_paths": -1}, "changed_paths: Value error, must be a non-negative safe integer"),
        ({"candidate": _DROP}, "candidate: Field required"),
        ({"candidate": {"kind": "base-diff", "consumed": "true"}}, "candidate.consumed"),
        ({"candidate": {"kind": "base-diff", "consumed": None}}, "candidate.consumed is null"),
        ({"review_due": None}, "review_due is null"),
        ({"review_due": "true"}, "review_due: Input should be a valid boolean"),
        ({"review_due_reason": "low_risk"}, "review_due_reason: Input should be"),
        ({"next_transition": None}, "next_transition is null"),
        ({"next_transition": "run this"}, "next_transition: Input should be a valid dictionary"),
        (
            {"review_due_reason": _DROP, "next_transition": _DROP},
            "review_due and review_due_reason must come together",
        ),
        (
            {"review_due": _DROP, "next_transition": _DROP},
            "review_due and review_due_reason must come together",
        ),
        (
            {"review_due": False, "next_transition": _DROP},
            "review_due False contradicts review_due_reason high_risk",
        ),
        (
            {"review_due_reason": "under_budget", "next_transition": _DROP},
            "review_due True contradicts review_due_reason under_budget",
        ),
        (
            {
                "candidate": {"kind": "base-diff"},
                "review_due": False,
                "review_due_reason": "already_reviewed",
                "next_transition": _DROP,
            },
            "already_reviewed requires an explicit candidate.consumed",
        ),
        (
            {"candidate": {"kind": "base-diff", "consumed": True}},
            "candidate.consumed true requires review_due_reason already_reviewed",
        ),
        (
            {"review_due": False, "review_due_reason": "passive"},
            "next_transition comes only with review_due: true",
        ),
        (
            {"review_due": _DROP, "review_due_reason": _DROP},
            "next_transition comes only with review_due: true",
        ),
    ],
)
def test_the_typed_model_refuses(over: dict[str, Any], message: str) -> None:
    with pytest.raises(DecodeError, match="printed an envelope the typed model refuses") as exc:
        decode(env(**over))
    assert message in str(exc.value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "printed nothing on stdout"),
        (b"  \n", "printed nothing on stdout"),
        (b"\xff\xfe", "printed output that is not UTF-8"),
        (b"{not json", "printed undecodable output (Expecting property name"),
        (b"[1, 2]", "printed JSON that is not an object: [1, 2]"),
        (json.dumps({"schema": "other/v9"}).encode(), "printed schema 'other/v9'"),
        (json.dumps({"risk": "high"}).encode(), "printed schema None"),
    ],
)
def test_undecodable_output(raw: bytes, message: str) -> None:
    with pytest.raises(DecodeError) as exc:
        decode_assessment(raw)
    assert str(exc.value).startswith(message)


def test_one_line_folds_and_bounds() -> None:
    assert one_line("a\n  b\tc\n") == "a b c"
    assert one_line("x" * 600) == "x" * 499 + "…"


# -- which candidate the binary can judge --------------------------------------------------

HEAD, HEAD_TREE, BASE = "h" * 40, "t" * 40, "b" * 40


def cand(projection: Projection, tree: str, base: str | None, head: str | None = HEAD) -> Candidate:
    return Candidate(
        projection=projection,
        base=BaseResolution("main", "flag", base, "e" * 40, "merge-base of main (flag)"),
        tree=tree,
        head=head,
        identity="sha256:" + "0" * 64,
        object_format="sha1",
    )


COMMITTED = ["--base-ref", BASE, "--committed-only"]


@pytest.mark.parametrize(
    ("candidate", "head", "expected"),
    [
        (cand(Projection.COMMITTED, HEAD_TREE, BASE), HEAD, COMMITTED),
        (cand(Projection.SNAPSHOT, HEAD_TREE, BASE), HEAD, COMMITTED),  # clean work tree
        (cand(Projection.STAGED, HEAD_TREE, BASE), HEAD, COMMITTED),  # index equals HEAD
        (cand(Projection.SNAPSHOT, "w" * 40, HEAD), HEAD, []),  # uncommitted changes only
        (cand(Projection.SNAPSHOT, "w" * 40, BASE), HEAD, "this snapshot candidate is neither"),
        (cand(Projection.STAGED, "i" * 40, HEAD), HEAD, "this staged candidate is neither"),
        (cand(Projection.COMMITTED, HEAD_TREE, None), HEAD, "the base is the empty tree"),
        (cand(Projection.COMMITTED, HEAD_TREE, BASE, "c" * 40), HEAD, "judges HEAD"),
        (cand(Projection.SNAPSHOT, "w" * 40, None, None), None, "HEAD is unborn"),
    ],
    ids=[
        "committed",
        "clean-snapshot",
        "clean-index",
        "dirty-on-base",
        "dirty-after-commits",
        "index",
        "empty-base",
        "not-head",
        "unborn",
    ],
)
def test_selector_for_each_candidate(
    candidate: Candidate, head: str | None, expected: list[str] | str
) -> None:
    got = selector_args(candidate, head, HEAD_TREE if head else None)
    if isinstance(expected, list):
        assert got == expected
    else:
        assert isinstance(got, str) and expected in got


def test_argv_order() -> None:
    assert build_argv("/bin/gentle-ai", "/r", COMMITTED, (2, "token checks")) == (
        "/bin/gentle-ai",
        "review",
        "assess",
        "--cwd",
        "/r",
        *COMMITTED,
        "--escalate-item",
        "2",
        "--escalate-reason",
        "token checks",
        "--json",
    )
    assert build_argv("g", "/r", [], None) == ("g", "review", "assess", "--cwd", "/r", "--json")


@pytest.mark.parametrize(
    ("own", "tier"),
    [
        ([{"code": "non_executable_only"}], "passive"),
        ([{"code": "executable_change", "path": "a.txt"}], "medium"),
        ([{"code": "hot_path", "path": "a/auth.go", "detail": "signal: auth"}], "high"),
    ],
    ids=["passive", "medium", "high"],
)
def test_an_escalated_answer_keeps_the_tier_before_it(own: list[Any], tier: str) -> None:
    """The binary raises ``risk`` for ``--escalate-item``; ``nativeRisk`` is the tier its
    own reasons explain (upstream ``riskLevelFromReasons``)."""
    escalation = {"code": "agent_escalation", "detail": "item 2 (security): token checks"}
    got = decode(
        env(reasons=[*own, escalation], candidate={"kind": "base-diff", "consumed": False})
    )
    assert (got.risk, got.native_risk) == ("high", tier)
    assert decode(env()).native_risk == "high" and decode(env()).unescalated is None
