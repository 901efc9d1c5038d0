"""Upstream host rows: the envelope decoder, the relayed diagnostic's redaction, and the
small-writer predicate.

Sources (rows as data, no code copied): ``tests/review-risk-assessment.test.ts`` of
Gentleman-Programming/gentle-pi at 9a4c182ea79e70803f7fd69344c04f89ffbc50b7 and of
Gentleman-Programming/gentle-shell at cb8fae3f009c170e63e7c82994cf3f67db57efd1 (the two
hold the same decoder and small-writer rows; the redaction rows are gentle-shell's). The
decoder's ``{code: "x"}`` refusal row is not ported: see ``docs/native-contract.md``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.native.binary import run_binary
from gentle_hooks.native.decode import DecodeError, decode_assessment
from gentle_hooks.policy.vocabulary import Effort
from gentle_hooks.policy.writer import WriterProfile, is_small

SCHEMA = "gentle-ai.review-assessment/v1"
_DROP = object()


def valid(**over: Any) -> dict[str, Any]:
    """Upstream's ``validEnvelope`` with overrides (``_DROP`` removes a key)."""
    env: dict[str, Any] = {
        "schema": SCHEMA,
        "risk": "medium",
        "reasons": [
            {
                "code": "touches-auth-path",
                "path": "lib/auth.ts",
                "detail": "matches a high-risk path token",
            }
        ],
        "changed_paths": 2,
        "changed_lines": 14,
        "candidate": {"kind": "current-changes"},
    }
    for key, value in over.items():
        if value is _DROP:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def decode(data: object) -> Any:
    return decode_assessment(json.dumps(data).encode())


def test_accepts_a_well_formed_envelope() -> None:
    got = decode(valid())
    assert (got.risk, got.changed_paths, got.changed_lines) == ("medium", 2, 14)
    assert [(r.code, r.path, r.detail) for r in got.reasons] == [
        ("touches-auth-path", "lib/auth.ts", "matches a high-risk path token")
    ]
    assert (got.candidate.kind, got.candidate.base_ref) == ("current-changes", None)


def test_accepts_a_base_diff_candidate_with_base_ref() -> None:
    got = decode(valid(candidate={"kind": "base-diff", "base_ref": "origin/main"}))
    assert (got.candidate.kind, got.candidate.base_ref) == ("base-diff", "origin/main")


@pytest.mark.parametrize(("risk", "reasons"), [("passive", []), ("high", None)])
def test_accepts_passive_and_high(risk: str, reasons: list[Any] | None) -> None:
    over: dict[str, Any] = {"risk": risk} if reasons is None else {"risk": risk, "reasons": reasons}
    assert decode(valid(**over)).risk == risk


REFUSED: list[tuple[str, object]] = [
    ("wrong schema", valid(schema="gentle-ai.review-assessment/v2")),
    ("no schema", valid(schema=_DROP)),
    ("risk low", valid(risk="low")),
    ("risk critical", valid(risk="critical")),
    ("risk empty", valid(risk="")),
    ("risk number", valid(risk=1)),
    ("risk null", valid(risk=None)),
    ("risk absent", valid(risk=_DROP)),
    ("null", None),
    ("a string", SCHEMA),
    ("reasons not an array", valid(reasons="none")),
    ("changed_paths negative", valid(changed_paths=-1)),
    ("changed_lines fraction", valid(changed_lines=1.5)),
    ("unknown candidate kind", valid(candidate={"kind": "unknown-kind"})),
    ("empty base_ref", valid(candidate={"kind": "current-changes", "base_ref": ""})),
]


@pytest.mark.parametrize(("name", "data"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refuses_a_malformed_shape(name: str, data: object) -> None:
    with pytest.raises(DecodeError):
        decode(data)


# -- the issue's own list: what the decoder accepted and upstream refuses ------------------

ISSUE_REFUSED = [
    ("reason with empty path", valid(reasons=[{"code": "x", "path": ""}]), "reasons.0.path"),
    ("reason with empty detail", valid(reasons=[{"code": "x", "detail": ""}]), "reasons.0.detail"),
    ("reason with null path", valid(reasons=[{"code": "x", "path": None}]), "reason.path is null"),
    ("changed_paths a list", valid(changed_paths=["a"]), "changed_paths"),
    ("changed_lines beyond 2**53 - 1", valid(changed_lines=2**53), "changed_lines"),
    ("changed_lines a boolean", valid(changed_lines=True), "changed_lines"),
    ("candidate kind snapshot", valid(candidate={"kind": "snapshot"}), "candidate.kind"),
    ("candidate kind committed", valid(candidate={"kind": "committed"}), "candidate.kind"),
    ("null base_ref", valid(candidate={"kind": "base-diff", "base_ref": None}), "base_ref is null"),
    (
        "next_transition without command",
        valid(
            review_due=True,
            review_due_reason="high_risk",
            next_transition={"operation": "review.status", "arguments": []},
        ),
        "next_transition.command",
    ),
    (
        "next_transition arguments not an array",
        valid(
            review_due=True,
            review_due_reason="high_risk",
            next_transition={"operation": "o", "command": "c", "arguments": "--cwd=x"},
        ),
        "next_transition.arguments must be an array",
    ),
    (
        "next_transition argument without a name",
        valid(
            review_due=True,
            review_due_reason="high_risk",
            next_transition={"operation": "o", "command": "c", "arguments": [{"value": "x"}]},
        ),
        "next_transition.arguments.0.name",
    ),
]


@pytest.mark.parametrize(
    ("name", "data", "where"), ISSUE_REFUSED, ids=[r[0] for r in ISSUE_REFUSED]
)
def test_refuses_what_upstream_refuses(name: str, data: object, where: str) -> None:
    with pytest.raises(DecodeError, match="printed an envelope the typed model refuses") as exc:
        decode(data)
    assert where in str(exc.value)


def test_an_integral_number_is_a_count() -> None:
    """JavaScript's ``Number.isSafeInteger(14.0)`` holds: the count decodes as 14."""
    assert decode(valid(changed_lines=14.0)).changed_lines == 14


# -- gentle-shell: a relayed refusal keeps its guidance and loses its secrets --------------

GUIDANCE = "untracked scope declaration required; use --untracked-scope=exclude or select"
SHAPES = [
    ("lowercase environment", "private_project=hidden-project"),
    ("quoted environment", 'private_project="hidden project value"'),
    ("credential argument", "--password hidden-credential"),
    ("quoted credential argument", '--api-key "hidden credential value"'),
    ("POSIX path with spaces", "/private/hidden project/hidden file.ts"),
    ("quoted POSIX path", '"/private/hidden project/hidden file.ts"'),
    ("Windows path with spaces", r"C:\private\hidden project\hidden file.ts"),
    ("quoted Windows path", r'"C:\private\hidden project\hidden file.ts"'),
]
LEAK = re.compile(r"hidden|private_project| project|file\.ts|/private/")


def refusal(tmp_path: Path, stderr: str) -> str:
    """What the provider relays when a stand-in binary refuses with ``stderr`` on stderr,
    nothing on stdout, exit 1."""
    (tmp_path / "said").write_text(stderr)
    binary = tmp_path / "gentle-ai"
    binary.write_text(f"#!/bin/sh\ncat '{tmp_path / 'said'}' >&2\nexit 1\n")
    binary.chmod(0o755)
    answer = run_binary(
        [str(binary), "review", "assess", "--json"], str(tmp_path), 10, {"PATH": "/usr/bin:/bin"}
    )
    assert answer.native is None and answer.error is not None
    return answer.error


def test_stderr_refusal_keeps_actionable_diagnostics(tmp_path: Path) -> None:
    said = refusal(tmp_path, GUIDANCE + "; token=hidden-secret")
    assert GUIDANCE in said and "hidden-secret" not in said


def test_diagnostic_is_bounded_and_redacts_paths_and_assignments(tmp_path: Path) -> None:
    said = refusal(
        tmp_path,
        "untracked declaration required /private/project/file C:\\private\\project\\file "
        "PRIVATE_PROJECT=hidden-project token=hidden-token " + "x" * 6000,
    )
    assert "untracked declaration required" in said and len(said) < 4300
    assert not re.search(r"hidden-project|hidden-token|private.project", said)
    assert str(tmp_path) not in said  # the binary's own path is not relayed either


@pytest.mark.parametrize(("shape", "sensitive"), SHAPES, ids=[s[0] for s in SHAPES])
def test_diagnostic_redacts_without_losing_guidance(
    tmp_path: Path, shape: str, sensitive: str
) -> None:
    said = refusal(tmp_path, f"{sensitive}\n{GUIDANCE}")
    assert not LEAK.search(said), said
    assert GUIDANCE in said and len(said) < 4300


# -- isSmallWriterProfile ----------------------------------------------------------------

SMALL = [
    ("effort low", None, Effort.LOW, True),
    ("gpt-5-mini", "gpt-5-mini", None, True),
    ("Claude-Mini-Fast", "Claude-Mini-Fast", None, True),
    ("path-delimited mini", "openai/gpt-5.4-mini", None, True),
    ("o4-mini", "o4-mini", None, True),
    ("claude-mini", "claude-mini", None, True),
    ("mini at the start", "mini-high", None, True),
    ("gemini", "gemini", None, False),
    ("gemini-2.5-pro", "gemini-2.5-pro", None, False),
    ("gemini-2.5-flash", "gemini-2.5-flash", None, False),
    ("claude-opus-4 high", "claude-opus-4", Effort.HIGH, False),
    ("claude-sonnet-5 medium", "claude-sonnet-5", Effort.MEDIUM, False),
    ("gemini-2.5-pro high", "gemini-2.5-pro", Effort.HIGH, False),
    ("omitted profile", None, None, True),
    ("effort alone, not low", None, Effort.HIGH, False),
    ("resolveWriterProfile o-mini", "o-mini", None, True),
    ("resolveWriterProfile claude-sonnet-5 high", "claude-sonnet-5", Effort.HIGH, False),
]


@pytest.mark.parametrize(("name", "model", "effort", "small"), SMALL, ids=[s[0] for s in SMALL])
def test_small_writer_profile(
    name: str, model: str | None, effort: Effort | None, small: bool
) -> None:
    assert is_small(WriterProfile(model, effort)) is small
