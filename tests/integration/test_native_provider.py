"""The ``gentle-ai`` native provider against stand-in binaries (SPEC §4).

Each stand-in is a small shell script the test writes into a directory put first on PATH.
The envelopes are shaped exactly like the real binary's ``gentle-ai.review-assessment/v1``
(``changed_paths`` a count, reason ``path``/``detail`` optional, ``base_ref`` only for a
base comparison, the failure envelope printed with a non-zero exit). Every failure mode
must give native risk ``unassessable`` with the binary's own message kept, exit 0 from
``assess``, and a plan of ``medium`` unless escalated; a valid answer's projections must
come out byte for byte.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.report.models import AssessEnvelope
from tests.conftest import commit_all, gh, git, write

SCHEMA = "gentle-ai.review-assessment/v1"


def clean_path() -> str:
    """PATH without any directory that holds a real ``gentle-ai``."""
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    return os.pathsep.join(d for d in dirs if not os.access(os.path.join(d, "gentle-ai"), os.X_OK))


def transition(base: str) -> dict[str, Any]:
    """A ``next_transition`` as the real binary builds it (key and argument order fixed),
    with a non-ASCII value to prove nothing is re-encoded."""
    command = (
        "gentle-ai review status --cwd /r/ü --contract gentle-ai.review-integration/v2 "
        f"--agent claude-code --next-transition --base-ref {base} --committed-only"
    )
    return {
        "operation": "review.status",
        "command": command,
        "arguments": [
            {"name": "cwd", "value": "/r/ü"},
            {"name": "contract", "value": "gentle-ai.review-integration/v2"},
            {"name": "agent", "value": "claude-code"},
            {"name": "next-transition", "value": "true"},
            {"name": "base-ref", "value": base},
            {"name": "committed-only", "value": "true"},
        ],
    }


def envelope(kind: str, base: str = "15ea98ed") -> dict[str, Any]:
    """Envelopes shaped like the real binary's, by name."""
    cand = {"kind": "base-diff", "base_ref": base, "consumed": False}
    if kind == "passive":
        return {
            "schema": SCHEMA,
            "risk": "passive",
            "reasons": [{"code": "passive_documentation", "path": "README.md"}],
            "changed_paths": 1,
            "changed_lines": 3,
            "candidate": cand,
            "review_due": False,
            "review_due_reason": "passive",
        }
    if kind == "medium":
        return {
            "schema": SCHEMA,
            "risk": "medium",
            "reasons": [{"code": "source_change", "path": "src/app.py"}],
            "changed_paths": 1,
            "changed_lines": 2,
            "candidate": cand,
            "review_due": False,
            "review_due_reason": "under_budget",
        }
    if kind == "medium-old":  # an older binary: no consumed, review_due or transition
        return {
            "schema": SCHEMA,
            "risk": "medium",
            "reasons": [{"code": "source_change", "path": "src/app.py"}],
            "changed_paths": 1,
            "changed_lines": 2,
            "candidate": {"kind": "base-diff", "base_ref": base},
        }
    if kind == "high":
        return {
            "schema": SCHEMA,
            "risk": "high",
            "reasons": [
                {"code": "service_token", "path": "internal/auth/service-token.go"},
                {"code": "executable_change", "path": "run.sh", "detail": "mode 100644 -> 100755"},
            ],
            "changed_paths": 2,
            "changed_lines": 43,
            "candidate": cand,
            "review_due": True,
            "review_due_reason": "high_risk",
            "next_transition": transition(base),
        }
    if kind == "consumed":
        return {
            "schema": SCHEMA,
            "risk": "high",
            "reasons": [{"code": "service_token", "path": "internal/auth/service-token.go"}],
            "changed_paths": 1,
            "changed_lines": 43,
            "candidate": {"kind": "base-diff", "base_ref": base, "consumed": True},
            "review_due": False,
            "review_due_reason": "already_reviewed",
        }
    if kind == "failure":  # what the real binary prints on stdout when it fails closed
        return {
            "schema": SCHEMA,
            "risk": "high",
            "reasons": [{"code": "unassessable", "detail": FAILURE_MESSAGE}],
            "changed_paths": 0,
            "changed_lines": 0,
            "candidate": {"kind": "base-diff", "base_ref": base, "consumed": False},
            "review_due": True,
            "review_due_reason": "high_risk",
        }
    raise AssertionError(kind)


FAILURE_MESSAGE = (
    "review assess could not build the candidate; correct --cwd or --base-ref and retry "
    "with `gentle-ai review assess --help`: exit status 128"
)

HUGE_NUMBER = f'{{"schema": "{SCHEMA}", "changed_lines": {"9" * 5000}}}'

LOG = 'printf "%s\\n" "$@" > "$GENTLE_STUB_LOG"\n'
SPY = (
    LOG + 'env | grep -E "^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR)=" > "$GENTLE_STUB_LOG.env"\n'
    'if read -r first; then echo "stdin: $first" >> "$GENTLE_STUB_LOG.env"; fi\n'
)


def prints(data: dict[str, Any] | str, *, rc: int = 0, stderr: str = "") -> str:
    """A stand-in body printing ``data`` (JSON, or raw text) and exiting with ``rc``."""
    text = data if isinstance(data, str) else json.dumps(data, indent=2, ensure_ascii=False)
    body = SPY + f"cat <<'JSON'\n{text}\nJSON\n"
    if stderr:
        body += f"printf '%s\\n' {shlex.quote(stderr)} >&2\n"
    return body + f"exit {rc}\n"


class Stub:
    """A stand-in ``gentle-ai`` first on PATH, and what it saw."""

    def __init__(self, tmp: Path) -> None:
        self.dir = tmp / "stub-bin"
        self.dir.mkdir()
        self.log = tmp / "stub.log"

    def install(self, body: str) -> None:
        write(self.dir / "gentle-ai", "#!/bin/sh\n" + body, mode=0o755)

    def env(self, **extra: str) -> dict[str, str]:
        return {
            "PATH": f"{self.dir}{os.pathsep}{clean_path()}",
            "GENTLE_STUB_LOG": str(self.log),
            **extra,
        }

    @property
    def args(self) -> list[str] | None:
        """The arguments of the last run (after the binary), or None when it never ran."""
        if not self.log.exists():
            return None
        return self.log.read_text(encoding="utf-8").splitlines()

    @property
    def seen_env(self) -> str:
        return (Path(str(self.log) + ".env")).read_text(encoding="utf-8")


@pytest.fixture
def stub(tmp_path: Path) -> Stub:
    return Stub(tmp_path)


@pytest.fixture
def changed(repo: Path) -> Path:
    """The repo with a second commit changing ``src/app.py`` (HEAD~1..HEAD non-empty)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b\n\n\nX = 1\n")
    commit_all(repo, "second")
    return repo


def assess(cwd: Path, stub: Stub, *args: str, **env: str) -> dict[str, Any]:
    """``assess --json --native gentle-ai --committed-only --base-ref HEAD~1 ARGS``; the
    envelope must validate and round-trip through the exported model; exit 0."""
    proc = gh(
        cwd,
        "assess",
        "--json",
        "--native",
        "gentle-ai",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        *args,
        env=stub.env(**env),
    )
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    model = AssessEnvelope.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == data
    return data


def exact(value: object) -> str:
    """The bytes a value serialises to: key order, types and every character count."""
    return json.dumps(value, ensure_ascii=False)


def test_a_passive_answer_for_source_does_not_lower_the_tier(changed: Path, stub: Stub) -> None:
    """``gentle-ai`` answering ``passive`` for a change of ``src/app.py``: the built-in
    classifier (risk tables committed at the base) says ``medium``, and that answer is
    taken, with the line saying why (SPEC §8: verify rather than believe)."""
    stub.install(prints(envelope("passive")))
    proc = gh(
        changed,
        "assess",
        "--native",
        "gentle-ai",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        env=stub.env(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith("risk: medium  (native medium"), proc.stdout
    assert (
        "  note: native medium, not passive: gentle-ai answered passive, the built-in "
        "classifier with risk tables from the packaged defaults" in proc.stdout
    ), proc.stdout
    got = assess(changed, stub)
    assert (got["nativeRisk"], got["risk"]) == ("medium", "medium")
    assert (got["native"]["provider"], got["native"]["error"]) == ("builtin", None)


# -- valid answers: projections byte for byte ---------------------------------------------


@pytest.mark.parametrize(
    ("kind", "native_risk", "plan", "rows"),
    [
        ("passive", "passive", "passive", ["P2", "T-passive"]),
        ("medium", "medium", "medium", ["P3", "T-medium"]),
        ("medium-old", "medium", "medium", ["P3", "T-medium"]),
        ("high", "high", "medium", ["P3", "T-informs"]),
        ("consumed", "high", "medium", ["P3", "T-informs"]),
    ],
)
def test_valid_answers_are_projected_verbatim(
    changed: Path, stub: Stub, kind: str, native_risk: str, plan: str, rows: list[str]
) -> None:
    sent = envelope(kind)
    stub.install(prints(sent))
    if kind == "passive":  # a passive answer stands where the built-in classifier agrees
        write(changed / "README.md", "# notes\n\nmore words\n")
        commit_all(changed, "docs")
    got = assess(changed, stub)
    assert (got["nativeRisk"], got["risk"]) == (native_risk, plan)
    assert got["verification"]["rows"][:2] == rows
    native = got["native"]
    assert (native["provider"], native["error"]) == ("gentle-ai", None)
    assert exact(native["assessment"]) == exact(sent)  # relayed, never rebuilt
    for ours, theirs in (
        ("reviewDue", "review_due"),
        ("reviewDueReason", "review_due_reason"),
        ("nextTransition", "next_transition"),
    ):
        if theirs in sent:
            assert exact(got[ours]) == exact(sent[theirs]), ours
        else:
            assert ours not in got, ours  # absent, never invented
    if "consumed" in sent["candidate"]:
        assert got["candidate"]["consumed"] is sent["candidate"]["consumed"]
    else:
        assert "consumed" not in got["candidate"]
    # per-path changes still come from git, so the plan can be explained
    assert [c["path"] for c in got["changes"]] == [
        "README.md" if kind == "passive" else "src/app.py"
    ]


def test_the_continuation_is_relayed_byte_for_byte(changed: Path, stub: Stub) -> None:
    sent = envelope("high", base="0123abcd")
    stub.install(prints(sent))
    got = assess(changed, stub)
    assert exact(got["nextTransition"]) == exact(transition("0123abcd"))
    assert list(got["nextTransition"]) == ["operation", "command", "arguments"]
    # and in the printed text, ü kept as UTF-8 like every other non-ASCII character
    # (report.jsontext: strict JSON, non-ASCII not escaped)
    proc = gh(
        changed,
        "assess",
        "--json",
        "--native",
        "gentle-ai",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        env=stub.env(),
    )
    assert json.dumps(transition("0123abcd")["command"], ensure_ascii=False) in proc.stdout


def test_consumed_closes_the_review_and_reports_already_reviewed(changed: Path, stub: Stub) -> None:
    stub.install(prints(envelope("consumed")))
    got = assess(changed, stub)
    assert (got["nativeReviewOutcome"], got["outcome_source"]) == ("closed", "derived")
    assert (got["candidate"]["consumed"], got["reviewDue"], got["reviewDueReason"]) == (
        True,
        False,
        "already_reviewed",
    )
    # a closed review never removes what the tier requires
    assert "spot-check" in got["verification"]["required"]


def test_a_local_review_ack_does_not_close_a_gentle_ai_answer(changed: Path, stub: Stub) -> None:
    """With the gentle-ai provider, closure comes only from the binary's consumed fact."""
    assert gh(changed, "review", "ack", "--committed", "--base-ref", "HEAD~1").returncode == 0
    stub.install(prints(envelope("medium")))
    got = assess(changed, stub)
    assert got["candidate"]["consumed"] is False
    assert (got["nativeReviewOutcome"], got["outcome_source"]) == ("unknown", "unknown")


def escalating(native: dict[str, Any]) -> str:
    """A stand-in that answers as upstream's ``review assess`` does
    (Gentleman-Programming/gentle-ai ``internal/cli/review_assess.go`` at
    0dc8126f62d69d8d5122e0bc40a1a787928dd90b, ``escalateReviewAssessRisk``): given
    ``--escalate-item`` it raises passive or medium to high and appends an
    ``agent_escalation`` reason; else it prints ``native``."""
    reason = {"code": "agent_escalation", "detail": "item 2 (security): touches token checks"}
    raised = {
        **native,
        "risk": "high",
        "reasons": [*native["reasons"], reason],
        "review_due": True,
        "review_due_reason": "high_risk",
    }
    return (
        SPY
        + 'case " $* " in *" --escalate-item "*) cat <<\'JSON\'\n'
        + json.dumps(raised)
        + "\nJSON\n;; *) cat <<'JSON'\n"
        + json.dumps(native)
        + "\nJSON\n;; esac\n"
    )


def test_what_the_binary_is_asked_and_the_environment_it_gets(changed: Path, stub: Stub) -> None:
    """Seed 000 "Receipt-driven development off or unknown": "The native
    tier stays visible as nativeRisk". The escalation is passed on as upstream's
    ``--escalate-item``, the binary raises its risk, and ``nativeRisk`` is still the tier
    before the escalation."""
    stub.install(escalating(envelope("medium")))
    write(changed / "untracked.txt", "not committed\n")
    base = git(changed, "rev-parse", "HEAD~1").strip()
    got = assess(
        changed,
        stub,
        "--escalate-item",
        "security",
        "--escalate-reason",
        "touches token checks",
        GIT_DIR=str(changed / ".git"),
        GIT_WORK_TREE=str(changed),
    )
    assert stub.args == [
        "review",
        "assess",
        "--cwd",
        str(changed),
        "--base-ref",
        base,  # the full base commit: exactly our base tree
        "--committed-only",  # committed-only: untracked files are out of scope
        "--escalate-item",
        "2",
        "--escalate-reason",
        "touches token checks",
        "--json",
    ]
    assert stub.seen_env == ""  # no GIT_DIR/GIT_WORK_TREE from the caller, stdin closed
    assert (got["risk"], got["nativeRisk"]) == ("high", "medium")  # escalated
    assert got["native"]["assessment"]["risk"] == "high"  # relayed as the binary said
    assert [c["path"] for c in got["changes"]] == ["src/app.py"]  # untracked: out of scope


def raising_silently(native: dict[str, Any]) -> str:
    """A stand-in that, given ``--escalate-item``, raises ``risk`` to high and adds no
    ``agent_escalation`` reason (nothing in the envelope says what the tier was)."""
    raised = {**native, "risk": "high", "review_due": True, "review_due_reason": "high_risk"}
    raised.pop("next_transition", None)
    return (
        SPY
        + 'case " $* " in *" --escalate-item "*) cat <<\'JSON\'\n'
        + json.dumps(raised)
        + "\nJSON\n;; *) cat <<'JSON'\n"
        + json.dumps(native)
        + "\nJSON\n;; esac\n"
    )


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("passive", escalating),
        ("high", escalating),
        ("medium", raising_silently),
        ("passive", raising_silently),
    ],
    ids=[
        "passive-escalated",
        "high-escalated",
        "medium-raised-silently",
        "passive-raised-silently",
    ],
)
def test_native_risk_is_the_tier_before_escalation_with_gentle_ai(
    changed: Path, stub: Stub, kind: str, body: Callable[[dict[str, Any]], str]
) -> None:
    """Seed 000 "Receipt-driven development off or unknown": "The native tier stays visible
    as nativeRisk"; SPEC §5: "`nativeRisk` keeps the native tier visible", the tier before
    escalation, with every provider. The binary's own tier, whatever reasons its escalated
    envelope carries: it is asked once without the escalation, then with it (the envelope
    relayed)."""
    stub.install(body(envelope(kind)))
    got = assess(
        changed, stub, "--escalate-item", "security", "--escalate-reason", "touches tokens"
    )
    assert (got["nativeRisk"], got["risk"]) == (kind, "high")
    assert got["native"]["assessment"]["risk"] == "high"  # relayed as the binary said
    assert "--escalate-item" in (stub.args or [])  # the last run carried the escalation


def test_a_recorded_escalation_is_passed_to_the_binary_as_a_requested_one_is(
    changed: Path, stub: Stub
) -> None:
    """Refuter 18r item 6: a sticky escalation (``gentle-hook escalate``, recorded) was not
    passed to the binary: it was asked once, without ``--escalate-item``, and relayed
    ``medium``, while the same escalation given on the command line asked it twice and
    relayed ``high``. The plan's escalations are the provider's, wherever they come from:
    the binary is asked as with the flag and answers the same."""
    stub.install(escalating(envelope("medium")))
    recorded = gh(
        changed,
        "escalate",
        "--committed",
        "--base-ref",
        "HEAD~1",
        "--item",
        "security",
        "--reason",
        "touches tokens",
        env=stub.env(),
    )
    assert recorded.returncode == 0, recorded.stderr
    got = assess(changed, stub)
    assert stub.args is not None and stub.args[-5:] == [
        "--escalate-item",
        "2",
        "--escalate-reason",
        "touches tokens",
        "--json",
    ]
    assert (got["risk"], got["nativeRisk"]) == ("high", "medium")
    assert got["native"]["assessment"]["risk"] == "high"  # relayed as the binary said
    flagged = assess(
        changed, stub, "--escalate-item", "security", "--escalate-reason", "touches tokens"
    )
    assert flagged["native"] == got["native"]


# -- every failure: unassessable, informs only --------------------------------------------


FAILURES = [
    pytest.param(
        prints(envelope("failure"), rc=1, stderr=FAILURE_MESSAGE),
        f"gentle-ai review assess failed (exit 1): {FAILURE_MESSAGE}",
        id="failure-envelope-nonzero-exit",
    ),
    pytest.param(
        prints(envelope("failure"), rc=3),
        f"gentle-ai review assess failed (exit 3): unassessable: {FAILURE_MESSAGE}",
        id="failure-envelope-silent-stderr",
    ),
    pytest.param(
        prints(envelope("medium"), rc=2, stderr="boom: store locked"),
        "gentle-ai review assess failed (exit 2): boom: store locked",
        id="valid-envelope-nonzero-exit",
    ),
    pytest.param(
        prints("<<<garbage>>> not json"),
        "gentle-ai review assess printed undecodable output (Expecting value): "
        "<<<garbage>>> not json",
        id="garbage",
    ),
    pytest.param(prints(""), "gentle-ai review assess printed nothing on stdout", id="empty"),
    pytest.param(
        prints(HUGE_NUMBER),
        "gentle-ai review assess printed undecodable output (a number longer than 4300 "
        f"digits): {HUGE_NUMBER[:199]}\u2026",
        id="huge-integer",
    ),
    pytest.param(
        "head -c 100000 /dev/zero | tr '\\0' '['\n",
        "gentle-ai review assess printed JSON nested too deeply: " + "[" * 199 + "\u2026",
        id="nested-100k-deep",
    ),
    pytest.param(
        "head -c 100000 /dev/zero | tr '\\0' '['\nexit 1\n",
        "gentle-ai review assess failed (exit 1): " + "[" * 499 + "\u2026",
        id="nested-100k-deep-failure",
    ),
    pytest.param(
        prints({**envelope("medium"), "schema": "gentle-ai.review-assessment/v2"}),
        "gentle-ai review assess printed schema 'gentle-ai.review-assessment/v2', expected "
        "'gentle-ai.review-assessment/v1'",
        id="unknown-schema",
    ),
    pytest.param(
        prints({**envelope("medium"), "risk": "low"}),
        "gentle-ai review assess printed an envelope the typed model refuses: risk: Input "
        "should be 'passive', 'medium' or 'high'",
        id="unknown-risk",
    ),
    pytest.param(
        prints({**envelope("medium"), "review_due": True}),
        "gentle-ai review assess printed an envelope the typed model refuses: envelope: "
        "Value error, review_due True contradicts review_due_reason under_budget",
        id="contradictory",
    ),
    pytest.param(
        'echo \'Error: unknown command "assess" for "gentle-ai review"\' >&2\nexit 1\n',
        "this gentle-ai has no 'review assess' verb (upgrade gentle-ai): Error: unknown "
        'command "assess" for "gentle-ai review"',
        id="unknown-command",
    ),
    pytest.param(
        "echo 'unknown review command: assess'\necho 'usage: gentle-ai review <command>'\n",
        "this gentle-ai has no 'review assess' verb (upgrade gentle-ai): unknown review "
        "command: assess usage: gentle-ai review <command>",
        id="unknown-command-exit-0",
    ),
]


@pytest.mark.parametrize(("body", "message"), FAILURES)
def test_every_failure_is_unassessable_and_informs_only(
    changed: Path, stub: Stub, body: str, message: str
) -> None:
    stub.install(body)
    got = assess(changed, stub)
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "medium")
    assert got["verification"]["rows"][:2] == ["P3", "T-informs"]
    assert got["native"] == {"provider": "gentle-ai", "assessment": None, "error": message}
    for key in ("reviewDue", "reviewDueReason", "nextTransition"):
        assert key not in got
    assert "consumed" not in got["candidate"]
    assert (got["nativeReviewOutcome"], got["outcome_source"]) == ("unknown", "unknown")
    assert [c["path"] for c in got["changes"]] == ["src/app.py"]


@pytest.mark.parametrize(("body", "message"), FAILURES[:1] + FAILURES[3:4])
def test_a_failure_with_an_escalation_plans_high(
    changed: Path, stub: Stub, body: str, message: str
) -> None:
    stub.install(body)
    got = assess(changed, stub, "--escalate-item", "1", "--escalate-reason", "drops a table")
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "high")
    assert got["native"]["error"] == message


def failing_when_escalated(native: dict[str, Any]) -> str:
    """A stand-in that prints ``native`` without ``--escalate-item`` and fails (exit 3, one
    line on stderr) with it (refuter r18y ``rv.sh``, ``FAIL_ESC=1``)."""
    return (
        SPY
        + 'case " $* " in *" --escalate-item "*) echo "escalation store locked" >&2; exit 3;; '
        + "esac\ncat <<'JSON'\n"
        + json.dumps(native)
        + "\nJSON\n"
    )


def test_a_failed_escalated_call_keeps_the_native_tier(changed: Path, stub: Stub) -> None:
    """Refuter r18y: when only the escalated call failed, the first answer was dropped and
    ``nativeRisk`` was ``unassessable``, though the binary had said ``medium``. The
    envelope without the escalation stands (seed 000: "The native tier stays visible as
    nativeRisk"), the plan is still escalated, and one line says the escalated call failed."""
    stub.install(failing_when_escalated(envelope("medium")))
    args = ("--escalate-item", "security", "--escalate-reason", "touches tokens")
    got = assess(changed, stub, *args)
    assert (got["nativeRisk"], got["risk"]) == ("medium", "high")
    assert got["native"]["assessment"] == envelope("medium")  # the first answer, relayed
    assert got["native"]["error"] is None
    said = (
        "the escalated call (--escalate-item) failed, the envelope is the one without it: "
        "gentle-ai review assess failed (exit 3): escalation store locked"
    )
    assert got["native"]["note"] == said
    assert "--escalate-item" in (stub.args or [])  # the escalated call did run
    proc = gh(
        changed, "assess", "--native", "gentle-ai", "--committed-only", "--base-ref", "HEAD~1",
        *args, env=stub.env(),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "risk: high  (native medium from gentle-ai)"
    assert f"  note: {said}" in lines


def test_a_missing_binary_is_unassessable(changed: Path, stub: Stub) -> None:
    got = assess(changed, stub)  # nothing installed in the stub directory
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "medium")
    assert got["native"]["error"] == (
        'gentle-ai not found on PATH; install gentle-ai, or set native.provider = "builtin" '
        '(or "auto")'
    )


def test_a_binary_that_cannot_run_is_unassessable(changed: Path, stub: Stub) -> None:
    write(stub.dir / "gentle-ai", "#!/nonexistent/interpreter\n", mode=0o755)
    got = assess(changed, stub)
    assert got["nativeRisk"] == "unassessable"
    # the binary's path is not relayed (upstream's host redacts absolute paths)
    assert got["native"]["error"].startswith("cannot run gentle-ai: ")
    assert str(stub.dir) not in got["native"]["error"]


def test_a_binary_sleeping_past_the_timeout_is_killed(changed: Path, stub: Stub) -> None:
    # the sleep is a grandchild holding stdout open: the whole process group must die
    stub.install(SPY + "sleep 30\n" + prints(envelope("medium")))
    start = time.monotonic()
    got = assess(changed, stub, GENTLE_HOOKS_NATIVE_TIMEOUT="1")
    elapsed = time.monotonic() - start
    assert elapsed < 15, elapsed
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "medium")
    assert got["native"]["error"] == (
        "gentle-ai review assess did not answer within 1s "
        "(GENTLE_HOOKS_NATIVE_TIMEOUT / native.timeout); killed"
    )


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_binary_printing_300_mb_is_killed_at_the_cap(
    changed: Path, stub: Stub, stream: str
) -> None:
    redirect = " >&2" if stream == "stderr" else ""
    stub.install(f"head -c 314572800 /dev/zero{redirect}\n" + prints(envelope("medium")))
    start = time.monotonic()
    got = assess(changed, stub, GENTLE_HOOKS_NATIVE_TIMEOUT="20")
    assert time.monotonic() - start < 15
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "medium")
    assert got["native"]["error"] == (
        f"gentle-ai review assess printed more than 4194304 bytes on {stream}; killed"
    )


def test_a_binary_printing_without_end_is_killed_at_the_timeout(changed: Path, stub: Stub) -> None:
    stub.install("while :; do echo '{'; sleep 0.05; done\n")
    start = time.monotonic()
    got = assess(changed, stub, GENTLE_HOOKS_NATIVE_TIMEOUT="1")
    assert time.monotonic() - start < 15
    assert got["native"]["error"] == (
        "gentle-ai review assess did not answer within 1s "
        "(GENTLE_HOOKS_NATIVE_TIMEOUT / native.timeout); killed"
    )


def test_the_timeout_comes_from_config_and_the_environment_overrides_it(
    changed: Path, stub: Stub
) -> None:
    stub.install("sleep 30\n")
    write(changed / ".gentle-hooks.toml", "[native]\ntimeout = 1\n")
    assert "within 1s" in assess(changed, stub)["native"]["error"]
    got = assess(changed, stub, GENTLE_HOOKS_NATIVE_TIMEOUT="1.5")
    assert "within 1.5s" in got["native"]["error"]


def test_human_output_names_the_failure_and_exits_0(changed: Path, stub: Stub) -> None:
    stub.install(prints(envelope("failure"), rc=1, stderr=FAILURE_MESSAGE))
    proc = gh(
        changed,
        "assess",
        "--native",
        "gentle-ai",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        env=stub.env(),
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "risk: medium  (native unassessable from gentle-ai)"
    assert lines[1] == (
        f"  native assessment failed: gentle-ai review assess failed (exit 1): {FAILURE_MESSAGE}"
    )


# -- which candidate the binary may judge -------------------------------------------------


def test_uncommitted_changes_on_the_base_go_without_a_selector(repo: Path, stub: Stub) -> None:
    stub.install(prints(envelope("medium")))
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b + 0\n")  # dirty, on main
    proc = gh(repo, "assess", "--json", "--native", "gentle-ai", env=stub.env())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["nativeRisk"] == "medium"
    assert stub.args == ["review", "assess", "--cwd", str(repo), "--json"]


def test_a_snapshot_spanning_commits_and_dirty_files_is_not_sent(repo: Path, stub: Stub) -> None:
    stub.install(prints(envelope("medium")))
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / "src" / "app.py", "X = 1\n")
    commit_all(repo, "on feature")
    write(repo / "src" / "app.py", "X = 22\n")  # and dirty (another size: racy-git safe)
    proc = gh(repo, "assess", "--json", "--native", "gentle-ai", env=stub.env())
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert (got["nativeRisk"], got["risk"]) == ("unassessable", "medium")
    assert got["native"]["error"] == (
        "gentle-ai review assess sees HEAD against a base (--committed-only) or the "
        "uncommitted changes against HEAD; this snapshot candidate is neither (rerun with "
        "--committed-only, or --base-ref HEAD for the uncommitted changes)"
    )
    assert stub.args is None  # never ran: its answer would be about another candidate
    # clean again: the snapshot is HEAD's tree, so the committed comparison is exact
    git(repo, "checkout", "-q", "--", ".")
    proc = gh(repo, "assess", "--json", "--native", "gentle-ai", env=stub.env())
    assert json.loads(proc.stdout)["nativeRisk"] == "medium"
    main = git(repo, "rev-parse", "main").strip()
    assert stub.args is not None and stub.args[3:7] == [
        str(repo),
        "--base-ref",
        main,
        "--committed-only",
    ]
    assert "--untracked-scope" not in stub.args


# -- provider selection -------------------------------------------------------------------


def test_auto_picks_the_binary_when_it_is_on_path(changed: Path, stub: Stub) -> None:
    args = ("assess", "--json", "--committed-only", "--base-ref", "HEAD~1")
    proc = gh(changed, *args, env=stub.env(GENTLE_HOOKS_NATIVE="auto"))
    got = json.loads(proc.stdout)
    assert (got["native"]["provider"], got["native"]["error"]) == ("builtin", None)
    assert got["native"]["assessment"]["candidate"] == {
        "kind": "base-diff",
        "base_ref": "HEAD~1",
        "consumed": False,
    }
    stub.install(prints(envelope("medium")))
    proc = gh(changed, *args, env=stub.env(GENTLE_HOOKS_NATIVE="auto"))
    assert json.loads(proc.stdout)["native"]["provider"] == "gentle-ai"


def test_provider_precedence_flag_env_file(changed: Path, stub: Stub) -> None:
    stub.install(prints(envelope("medium")))
    write(changed / ".gentle-hooks.toml", '[native]\nprovider = "gentle-ai"\n')
    args = ("assess", "--json", "--committed-only", "--base-ref", "HEAD~1")

    def provider(*extra: str, **env: str) -> str:
        proc = gh(changed, *args, *extra, env=stub.env(**env))
        assert proc.returncode == 0, proc.stderr
        return str(json.loads(proc.stdout)["native"]["provider"])

    assert provider() == "gentle-ai"  # file
    git(changed, "config", "gentle.nativeProvider", "builtin")
    assert provider() == "builtin"  # git config over file
    assert provider(GENTLE_HOOKS_NATIVE="gentle-ai") == "gentle-ai"  # env over git config
    assert provider("--native", "builtin", GENTLE_HOOKS_NATIVE="gentle-ai") == "builtin"  # flag


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (
            ["--native", "gentle"],
            {},
            "unknown native provider 'gentle': use builtin, gentle-ai, auto (SPEC §4)",
        ),
        (
            [],
            {"GENTLE_HOOKS_NATIVE": "external"},
            "GENTLE_HOOKS_NATIVE: 'external' is not one of builtin, gentle-ai, auto",
        ),
        (
            ["--native", "gentle-ai"],
            {"GENTLE_HOOKS_NATIVE_TIMEOUT": "soon"},
            "GENTLE_HOOKS_NATIVE_TIMEOUT: 'soon' is not a timeout in seconds (0 < t <= 600)",
        ),
        (
            ["--native", "gentle-ai"],
            {"GENTLE_HOOKS_NATIVE_TIMEOUT": "0"},
            "GENTLE_HOOKS_NATIVE_TIMEOUT: '0' is not a timeout in seconds (0 < t <= 600)",
        ),
    ],
    ids=["flag", "env", "timeout-text", "timeout-zero"],
)
def test_bad_provider_or_timeout_is_one_line_and_exit_2(
    changed: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    proc = gh(changed, "assess", "--committed-only", "--base-ref", "HEAD~1", *args, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2,
        "",
        f"gentle-hook: error: {message}\n",
    )


def test_auto_without_the_binary_imports_no_pydantic(changed: Path) -> None:
    code = (
        "import sys\n"
        "from gentle_hooks.main import main\n"
        "rc = main(['assess', '--json', '--committed-only', '--base-ref', 'HEAD~1'])\n"
        "heavy = sorted(m for m in ('pydantic', 'pygit2') if m in sys.modules)\n"
        "sys.stderr.write(repr((rc, heavy)))\n"
    )
    env = {**os.environ, "GENTLE_HOOKS_NATIVE": "auto", "PATH": clean_path()}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=changed, capture_output=True, text=True, env=env
    )
    assert proc.stderr.strip().splitlines()[-1] == "(0, [])"


# -- the builtin provider's consumed fact --------------------------------------------------


def test_builtin_never_closes_on_a_callers_review_ack(changed: Path) -> None:
    """Seed 000 "How assess resolves the review outcome": "derives closed only from the
    native candidate.consumed fact ... A caller-supplied closed is not authority"; the
    built-in provider has no native review, so ``review ack`` (any caller's word) is
    recorded and shown but never closes."""
    args = ("assess", "--json", "--committed-only", "--base-ref", "HEAD~1")

    def run() -> dict[str, Any]:
        proc = gh(changed, *args)
        assert proc.returncode == 0, proc.stderr
        data: dict[str, Any] = json.loads(proc.stdout)
        AssessEnvelope.model_validate(data)
        return data

    before = run()
    assert before["native"]["provider"] == "builtin"
    # the built-in provider knows: no review ack recorded for this candidate
    assert before["candidate"]["consumed"] is False
    assert (before["reviewDue"], before["reviewDueReason"]) == (False, "under_budget")
    assert (before["nativeReviewOutcome"], before["outcome_source"]) == ("unknown", "unknown")

    ack = gh(changed, "review", "ack", "--committed", "--base-ref", "HEAD~1")
    assert ack.returncode == 0, ack.stderr
    assert "the review closes only when the native provider reports candidate.consumed" in (
        ack.stdout
    )
    for outcome in (None, "closed"):
        extra = ("--review-outcome", outcome) if outcome else ()
        proc = gh(changed, *args, *extra)
        after = json.loads(proc.stdout)
        assert after["candidate"]["identity"] == before["candidate"]["identity"]
        assert after["candidate"]["consumed"] is False
        assert (after["reviewDue"], after["reviewDueReason"]) == (False, "under_budget")
        assert (after["nativeReviewOutcome"], after["outcome_source"]) == ("unknown", "unknown")
    status = gh(changed, "status", "--committed", "--base-ref", "HEAD~1")
    # recorded and shown, as what it is (refuter 18r item 7: it was listed as "review #1:
    # consumed" beside an outcome of unknown)
    assert "  review #1: acknowledged by a caller (review ack), not closed" in status.stdout
    assert ": consumed" not in status.stdout
    assert "; review: unknown; " in status.stdout
