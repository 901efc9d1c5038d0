"""Upstream host rows: the envelope decoder, the relayed diagnostic's redaction, and the
small-writer predicate.

Sources (rows as data, no code copied): ``tests/review-risk-assessment.test.ts`` of
Gentleman-Programming/gentle-pi at 9a4c182ea79e70803f7fd69344c04f89ffbc50b7 and of
Gentleman-Programming/gentle-shell at cb8fae3f009c170e63e7c82994cf3f67db57efd1 (the two
hold the same decoder and small-writer rows; the redaction rows are gentle-shell's); the
decoder's own rules in santiago-ramos-02/gentle-shell ``lib/review-risk-assessment.ts`` at
2a49a2a12e1494cc23b2a7314ced3df2f7ece082; gentle-pi's ``sanitizeNativeDiagnosticText``
(``lib/native-review-cli.ts``) and its row in ``tests/review-controller-native-routing.
test.ts`` at 7313aa9a4813e10ed240e8f77f20c7a714341bdb; ``isSmallWriterProfile`` in
gentle-pi ``lib/review-risk-assessment.ts`` at cde8010230351e24d42c2a289f57be3c399c07bd.
The decoder's ``{code: "x"}`` refusal row is not ported: see ``docs/native-contract.md``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.native.binary import run_binary
from gentle_hooks.native.decode import DecodeError, decode_assessment
from gentle_hooks.native.message import relay
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


# -- inputs upstream refuses, and the decoder refuses too -----------------------------------

UPSTREAM_REFUSED = [
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
            next_transition={"operation": "review.status", "command": "c", "arguments": "--cwd=x"},
        ),
        "next_transition.arguments must be an array",
    ),
    (
        "next_transition argument without a name",
        valid(
            review_due=True,
            review_due_reason="high_risk",
            next_transition={
                "operation": "review.status",
                "command": "c",
                "arguments": [{"value": "x"}],
            },
        ),
        "next_transition.arguments.0.name",
    ),
]


@pytest.mark.parametrize(
    ("name", "data", "where"), UPSTREAM_REFUSED, ids=[r[0] for r in UPSTREAM_REFUSED]
)
def test_refuses_what_upstream_refuses(name: str, data: object, where: str) -> None:
    with pytest.raises(DecodeError, match="printed an envelope the typed model refuses") as exc:
        decode(data)
    assert where in str(exc.value)


def test_an_integral_number_is_a_count() -> None:
    """JavaScript's ``Number.isSafeInteger(14.0)`` holds: the count decodes as 14."""
    assert decode(valid(changed_lines=14.0)).changed_lines == 14


# -- gentle-shell's decoder rules, as data -------------------------------------------------
# santiago-ramos-02/gentle-shell lib/review-risk-assessment.ts at
# 2a49a2a12e1494cc23b2a7314ced3df2f7ece082: decodeReviewAssessmentV1, decodeCandidate,
# decodeReason, validateReviewDueConsistency, decodeNextTransition and
# validateNextTransitionArgument. Each refusal is the rule that throws; each acceptance a
# shape the same functions let through.

TRANSITION: dict[str, Any] = {
    "operation": "review.status",
    "command": "gentle-ai review status --cwd /repo --next-transition",
    "arguments": [
        {"name": "cwd", "value": "/repo", "token": "--cwd=/repo"},
        {"name": "next-transition", "value": "true"},
    ],
}


def due(**over: Any) -> dict[str, Any]:
    """A v2 envelope that is due, with its continuation, and the overrides."""
    env = valid(
        risk="high",
        candidate={"kind": "current-changes", "consumed": False},
        review_due=True,
        review_due_reason="high_risk",
        next_transition=TRANSITION,
    )
    env.update(over)
    return env


def transition(**over: Any) -> dict[str, Any]:
    return due(next_transition={**TRANSITION, **over})


def argument(**over: Any) -> dict[str, Any]:
    return transition(arguments=[{"name": "cwd", "value": "/repo", **over}])


SHELL_REFUSED: list[tuple[str, object, str]] = [
    ("reason not an object", valid(reasons=["x"]), "reasons.0"),
    ("reason code a number", valid(reasons=[{"code": 7}]), "reasons.0.code"),
    ("reason path a number", valid(reasons=[{"code": "x", "path": 7}]), "reasons.0.path"),
    ("candidate not an object", valid(candidate="current-changes"), "candidate"),
    ("candidate kind absent", valid(candidate={}), "candidate.kind"),
    ("base_ref a number", valid(candidate={"kind": "base-diff", "base_ref": 7}), "base_ref"),
    (
        "consumed not a boolean",
        valid(candidate={"kind": "current-changes", "consumed": "false"}),
        "candidate.consumed",
    ),
    ("changed_paths a string", valid(changed_paths="2"), "changed_paths"),
    ("review_due without its reason", valid(review_due=False), "must come together"),
    ("reason without review_due", valid(review_due_reason="passive"), "must come together"),
    (
        "review_due not a boolean",
        valid(review_due="true", review_due_reason="high_risk"),
        "review_due",
    ),
    (
        "unknown review_due_reason",
        valid(review_due=True, review_due_reason="soon"),
        "review_due_reason",
    ),
    (
        "review_due contradicts its reason",
        valid(review_due=False, review_due_reason="high_risk"),
        "contradicts",
    ),
    (
        "consumed true without already_reviewed",
        valid(
            candidate={"kind": "current-changes", "consumed": True},
            review_due=False,
            review_due_reason="under_budget",
        ),
        "candidate.consumed true requires review_due_reason already_reviewed",
    ),
    (
        "already_reviewed without consumed",
        valid(review_due=False, review_due_reason="already_reviewed"),
        "requires an explicit candidate.consumed",
    ),
    (
        "next_transition when not due",
        valid(
            review_due=False,
            review_due_reason="under_budget",
            next_transition=TRANSITION,
        ),
        "next_transition comes only with review_due: true",
    ),
    ("next_transition without review_due", valid(next_transition=TRANSITION), "only with"),
    ("next_transition not an object", due(next_transition=["review.status"]), "next_transition"),
    ("next_transition with another key", transition(extra="x"), "must hold only"),
    ("next_transition another operation", transition(operation="review.start"), "review.status"),
    ("next_transition empty command", transition(command=""), "next_transition.command"),
    ("next_transition arguments an object", transition(arguments={}), "must be an array"),
    ("argument not an object", transition(arguments=["--cwd"]), "arguments.0 must be"),
    ("argument with another key", argument(extra="x"), "must hold only name, value and token"),
    ("argument empty name", transition(arguments=[{"name": "", "value": "x"}]), "name"),
    ("argument value a number", transition(arguments=[{"name": "n", "value": 1}]), "value"),
    ("argument without value", transition(arguments=[{"name": "n"}]), "value"),
    ("argument empty token", argument(token=""), "token must be a non-empty string"),
    ("argument token a number", argument(token=1), "token must be a non-empty string"),
]


@pytest.mark.parametrize(
    ("name", "data", "where"), SHELL_REFUSED, ids=[r[0] for r in SHELL_REFUSED]
)
def test_refuses_what_gentle_shells_decoder_refuses(name: str, data: object, where: str) -> None:
    with pytest.raises(DecodeError, match="printed an envelope the typed model refuses") as exc:
        decode(data)
    assert where in str(exc.value)


SHELL_ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("an older envelope without the v2 fields", valid()),
    ("a due envelope with its continuation", due()),
    ("a continuation with no arguments", transition(arguments=[])),
    ("an argument with an empty value", transition(arguments=[{"name": "n", "value": ""}])),
    (
        "already_reviewed with consumed false (a passive delta after an acknowledged one)",
        valid(
            candidate={"kind": "current-changes", "consumed": False},
            review_due=False,
            review_due_reason="already_reviewed",
        ),
    ),
    (
        "already_reviewed with consumed true",
        valid(
            candidate={"kind": "current-changes", "consumed": True},
            review_due=False,
            review_due_reason="already_reviewed",
        ),
    ),
    ("base-diff without base_ref", valid(candidate={"kind": "base-diff"})),
    ("a reason with only its code", valid(reasons=[{"code": "touches-auth-path"}])),
    (
        "unknown top-level and candidate fields",
        valid(extra=1, candidate={"kind": "base-diff", "x": 1}),
    ),
]


@pytest.mark.parametrize(("name", "data"), SHELL_ACCEPTED, ids=[r[0] for r in SHELL_ACCEPTED])
def test_accepts_what_gentle_shells_decoder_accepts(name: str, data: dict[str, Any]) -> None:
    got = decode(data)
    if "next_transition" in data:  # relayed unchanged, key order kept
        assert json.dumps(got.next_transition) == json.dumps(data["next_transition"])
    assert "extra" not in got.to_json()  # unknown fields are never projected


def answered(tmp_path: Path, stdout: str) -> Any:
    """What the provider makes of a stand-in binary that prints ``stdout`` and exits 0."""
    (tmp_path / "said.json").write_text(stdout)
    binary = tmp_path / "gentle-ai"
    binary.write_text(f"#!/bin/sh\ncat '{tmp_path / 'said.json'}'\nexit 0\n")
    binary.chmod(0o755)
    return run_binary(
        [str(binary), "review", "assess", "--json"], str(tmp_path), 10, {"PATH": "/usr/bin:/bin"}
    )


@pytest.mark.parametrize(
    ("name", "data", "where"),
    [r for r in SHELL_REFUSED if isinstance(r[1], dict)][::4],
    ids=[r[0] for r in SHELL_REFUSED if isinstance(r[1], dict)][::4],
)
def test_a_refused_envelope_is_unassessable_with_its_reason(
    tmp_path: Path, name: str, data: dict[str, Any], where: str
) -> None:
    answer = answered(tmp_path, json.dumps(data))
    assert answer.native is None  # native risk unassessable: nothing decoded is used
    assert answer.error is not None and where in answer.error


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


# -- gentle-pi: sanitizeNativeDiagnosticText, rule for rule ---------------------------------
# Gentleman-Programming/gentle-pi lib/native-review-cli.ts at
# 7313aa9a4813e10ed240e8f77f20c7a714341bdb (sanitizeNativeDiagnosticText), and its row in
# tests/review-controller-native-routing.test.ts at the same commit ("projection stalled
# token=abc123" -> "projection stalled token=[REDACTED]"). Each rule's input, and what
# relay() makes of it, as data.

SANITIZED = [
    ("upstream's row", "projection stalled token=abc123", "projection stalled token=[REDACTED]"),
    ("CSI colour", "\x1b[31mfailed\x1b[0m", "[REDACTED CONTROL]failed[REDACTED CONTROL]"),
    ("OSC title, BEL", "\x1b]0;title\x07failed", "[REDACTED CONTROL]failed"),
    ("OSC link, ST", "\x1b]8;;http://x\x1b\\failed", "[REDACTED CONTROL]failed"),
    ("DCS string", "\x1bPq#0;2\x1b\\failed", "[REDACTED CONTROL]failed"),
    (
        "PEM block across lines",
        "key -----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY----- end",
        "key [REDACTED PEM] end",
    ),
    (
        "JSON secret fields",
        '{"token": "abc", "password":"p\\"w", "github_token": "g", "name": "kept"}',
        '{"token": "[REDACTED]", "password":"[REDACTED]", "github_token": "[REDACTED]", '
        '"name": "kept"}',
    ),
    ("bearer token", "sent Bearer eyJ.abc.def", "sent Bearer [REDACTED]"),
    ("authorization header", "Authorization: Bearer x", "Authorization:[REDACTED] [REDACTED]"),
    ("secret key, colon", "secret: s3cr3t", "secret:[REDACTED]"),
    (
        "api key, equals",
        "api-key=k1 apikey=k2 api_key = k3",
        "api-key=[REDACTED] apikey=[REDACTED] api_key=[REDACTED]",
    ),
    (
        "any *_token",
        "GITHUB_TOKEN=ghp_x refresh_token=r",
        "GITHUB_TOKEN=[REDACTED] refresh_token=[REDACTED]",
    ),
    (
        "cookie and private key",
        "cookie=c private_key: k",
        "cookie=[REDACTED] private_key:[REDACTED]",
    ),
    ("a flag's value", "--password=p --api-key=k", "--password=[REDACTED] --api-key=[REDACTED]"),
    ("control characters dropped", "a\x00b\x07c\x7fd", "abcd"),
    (
        "guidance kept",
        "use --untracked-scope=exclude or select",
        "use --untracked-scope=exclude or select",
    ),
]


@pytest.mark.parametrize(("name", "said", "relayed"), SANITIZED, ids=[r[0] for r in SANITIZED])
def test_relay_sanitizes_as_gentle_pi_does(name: str, said: str, relayed: str) -> None:
    assert relay(said) == relayed


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
    # isSmallWriterProfile's branches on a model id that is a string but holds no token
    ("blank model id", " ", None, False),
    ("empty model id", "", None, False),
    ("blank model id, effort high", " ", Effort.HIGH, False),
    ("blank model id, effort low", " ", Effort.LOW, True),
    ("MINI in capitals", "GPT-5-MINI", None, True),
    ("mini with whitespace", "gpt mini", None, True),
    ("minion is not mini", "minion-7b", None, False),
]


@pytest.mark.parametrize(("name", "model", "effort", "small"), SMALL, ids=[s[0] for s in SMALL])
def test_small_writer_profile(
    name: str, model: str | None, effort: Effort | None, small: bool
) -> None:
    assert is_small(WriterProfile(model, effort)) is small
