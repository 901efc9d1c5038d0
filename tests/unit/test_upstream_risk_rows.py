"""Upstream gentle-ai's classifier rows, replayed on the built-in classifier.

Source of every row (data only, no code copied): Gentleman-Programming/gentle-ai,
``internal/reviewtransaction/risk_test.go`` at commit
38030fa21235b23b3fc6332e3cd79110bf4b2c3f. Each table below names the upstream test it
ports; an upstream ``DiffStat`` becomes the arguments of
:func:`gentle_hooks.native.rules.classify_change` (an empty mode is ``100644``), a
``RiskInput`` a candidate for :func:`tests.classifying.classify`. Rows that
need bytes in a real repository are in ``tests/integration/test_upstream_assess_rows.py``;
rows not ported, and why, are listed in ``docs/native-contract.md``.
"""

from __future__ import annotations

import pytest

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.native.content import is_passive_document_content, is_static_mdx
from gentle_hooks.native.decode import GentleAiReason, tier_from_reasons
from gentle_hooks.native.pathfacts import is_configuration, matchers, path_facts
from gentle_hooks.native.rules import NO_PATH, ChangeFacts, classify_change, is_passive_stat
from gentle_hooks.values.candidate import PathChange
from tests.classifying import classify

S = RiskSettings()
M = matchers(S)
Z, A, B = "0" * 40, "a" * 40, "b" * 40
PROSE = b"# Title\n\nOrdinary prose.\n"


def stat_facts(
    path: str,
    additions: int = 0,
    deletions: int = 0,
    *,
    binary: bool = False,
    mode_only: bool = False,
    old_mode: str = "",
    new_mode: str = "",
) -> ChangeFacts:
    """An upstream ``DiffStat`` as the facts a row reads (content not contradicted)."""
    return ChangeFacts(
        old_mode or "100644",
        new_mode or "100644",
        binary,
        mode_only,
        additions + deletions > 0,
        path_facts(path, M),
        NO_PATH,
        True,
    )


def change_class(f: ChangeFacts):
    return classify_change(
        f.old_mode, f.new_mode, f.binary, f.mode_only, f.lines, f.new, f.old, f.proven
    )


def new_file(path: str, lines: int = 1, *, binary: bool = False, mode: str = "100644"):
    """An added file (status A) with ``lines`` added lines, its bytes under blob ``B``."""
    return PathChange(
        path, None, "A", "000000", mode, Z, B, None if binary else lines, 0 if not binary else None
    )


def assess(*changes: PathChange, blobs: dict[str, bytes] | None = None, **kw: object):
    return classify(
        list(changes),
        {B: PROSE} if blobs is None else blobs,
        [],
        S,
        kind="current-changes",
        base_ref=None,
        **kw,  # type: ignore[arg-type]
    )


# -- TestClassifyRiskUsesDeterministicFirstMatch (path rows) -------------------------------

FIRST_MATCH = [
    ("auth path is high", [new_file("internal/auth/token.go")], "high"),
    (
        "generated golden does not raise authored risk",
        [new_file("testdata/golden/rendered.golden", 401)],
        "passive",
    ),
    ("passive documentation is low at any size", [new_file("docs/guide.md", 4000)], "passive"),
    (
        "operational markdown is a consolidated review, not 4R",
        [new_file("prompts/system.md", 401)],
        "medium",
    ),
    (
        "passive documentation with a semantic signal remains high",
        [new_file("docs/security/guide.md", 401)],
        "high",
    ),
    ("large code is still one consolidated review", [new_file("internal/app.go", 401)], "medium"),
    ("configuration cannot be low", [new_file("config/settings.yaml", 1)], "medium"),
    ("remaining executable change is medium", [new_file("internal/ui/view.go", 1)], "medium"),
]


@pytest.mark.parametrize(("name", "changes", "tier"), FIRST_MATCH, ids=[r[0] for r in FIRST_MATCH])
def test_classify_risk_first_match(name: str, changes: list[PathChange], tier: str) -> None:
    assert assess(*changes).risk == tier


SIGNALS = [
    "auth",
    "update",
    "security",
    "payments",
    "data_exposure",
    "data_loss",
    "permissions",
    "shell_process",
]


@pytest.mark.parametrize("signal", SIGNALS)
def test_any_signal_is_high(signal: str) -> None:
    """``ClassifyRisk`` signal rows and ``TestTierTwoRequiresGenuineEvidence``'s: a reason
    naming a signal explains ``high`` (``riskLevelFromReasons``, on the public reasons)."""
    reason = GentleAiReason(code="hot_path", path="x", detail=f"signal: {signal}")
    assert tier_from_reasons([reason]) == "high"


# -- TestNativeReviewAuthorityPathsEmitCanonicalAuthHotPath, TestWebhookPathsEmitSecurityHotPath

AUTHORITY = [
    ("internal/reviewtransaction/compact.go", True),
    ("internal/reviewtransaction/transaction.go", True),
    ("internal/reviewtransaction/compact_store.go", True),
    ("internal/reviewtransaction/store.go", True),
    ("internal/reviewtransaction/compact_gate.go", True),
    ("internal/reviewtransaction/gate.go", True),
    ("internal/reviewtransaction/compact_test.go", False),
    ("docs/internal/reviewtransaction/compact.go", False),
    ("internal/reviewtransaction/compact_chain.go", False),
    ("internal/reviewtransaction/snapshot.go", False),
]
WEBHOOK = [
    ("backend/app/api/routes/meta_webhook.py", "security"),
    ("internal/webhook/handler.go", "security"),
    ("src/webhook-dispatcher.ts", "security"),
    ("internal/ui/view.go", None),
    ("docs/guide.md", None),
]


@pytest.mark.parametrize(("path", "authority"), AUTHORITY)
def test_review_authority_paths(path: str, authority: bool) -> None:
    assert path_facts(path, M).hot == (("auth",) if authority else ())
    env = assess(new_file(path))
    assert env.risk == ("high" if authority else "medium")
    if authority:
        assert [(r.code, r.path, r.detail) for r in env.reasons] == [
            ("hot_path", path, "signal: auth")
        ]


@pytest.mark.parametrize(("path", "signal"), WEBHOOK)
def test_webhook_paths(path: str, signal: str | None) -> None:
    assert ("security" in path_facts(path, M).hot) is (signal is not None)
    if signal:
        env = assess(new_file(path))
        assert env.risk == "high"
        assert [(r.code, r.path, r.detail) for r in env.reasons] == [
            ("hot_path", path, "signal: security")
        ]


# -- TestPureDocumentationReviewPathExcludesOperationalMarkdown ---------------------------

PASSIVE_PATH = [
    ("docs/guide.md", True),
    ("README.md", True),
    ("book/chapter.mdx", True),
    ("docs/agents.md", False),
    ("prompts/system.md", False),
    ("docs/system-prompt.md", False),
    ("docs/agent-rules.md", False),
    ("docs/workflow.md", False),
    ("docs/runtime.md", False),
    ("internal/assets/claude/agents/review-risk.md", False),
    ("AGENTS.md", False),
    ("claude.md", False),
    ("Gemini.md", False),
    ("tools.md", False),
    (".github/workflows/release.md", False),
    ("runtime/README.md", False),
    ("docs/diagram.svg", False),
    ("config/settings.yaml", False),
    ("internal/app.go", False),
]


@pytest.mark.parametrize(("path", "passive"), PASSIVE_PATH)
def test_passive_candidate_path(path: str, passive: bool) -> None:
    assert path_facts(path, M).passive is passive


# -- TestPureDocumentationReviewStatRequiresRegularNonExecutableFiles ---------------------

MODES = [
    ("100644", "120000", False),
    ("100755", "100755", False),
    ("160000", "160000", False),
    ("100644", "100644", True),
]


@pytest.mark.parametrize(("old", "new", "passive"), MODES)
def test_passive_stat_requires_regular_files(old: str, new: str, passive: bool) -> None:
    assert is_passive_stat(stat_facts("docs/guide.md", old_mode=old, new_mode=new)) is passive


# -- TestStaticMDXDocumentRejectsRuntimeSyntaxOutsideCodeExamples -------------------------

MDX = [
    ("plain prose", "# Chapter\n\nStatic prose.\n", True),
    ("fenced example", "```tsx\nexport const Example = <Widget />\n```\n", True),
    ("inline code example", "Use `<Widget value={1} />` here.\n", True),
    ("double-backtick inline code", "Use ``<Widget value={1} />`` here.\n", True),
    ("mismatched code span", "Use `<Widget />`` here.\n", False),
    ("escaped opening backtick", "Use \\`<Widget />` here.\n", False),
    ("escaped closing backtick", "Use `<Widget />\\` here.\n", False),
    ("ESM import", "import Widget from './widget'\n", False),
    ("comment-separated ESM import", "import/* runtime */Widget from './widget'\n", False),
    ("comment-prefixed ESM import", "/* runtime */ import Widget from './widget'\n", False),
    ("BOM-prefixed ESM import", "\ufeffimport Widget from './widget'\n", False),
    ("multiline ESM import", "import\nWidget from './widget'\n", False),
    ("ESM export", "export const value = 1\n", False),
    ("JSX component", "Read <Widget /> next.\n", False),
    ("expression", "Current value: {value}\n", False),
    ("comment delimiter prose", "C comments begin with /* and end with */.\n", True),
]


@pytest.mark.parametrize(("name", "text", "static"), MDX, ids=[r[0] for r in MDX])
def test_static_mdx(name: str, text: str, static: bool) -> None:
    assert is_static_mdx(text) is static


# -- TestLowRiskReviewPathPolicyUsesCanonicalPOSIXOperationalBoundaries -------------------

LOW_RISK = [
    ("ordinary Markdown", stat_facts("docs/guide.md", 1, new_mode="100644"), True),
    ("active SVG", stat_facts("docs/diagram.svg", 1, new_mode="100644"), False),
    ("AGENTS instructions", stat_facts("AGENTS.md", 1, new_mode="100644"), False),
    ("nested CLAUDE instructions", stat_facts("docs/CLAUDE.md", 1, new_mode="100644"), False),
    ("GEMINI instructions", stat_facts("GEMINI.md", 1, new_mode="100644"), False),
    ("KIMI instructions", stat_facts("KIMI.md", 1, new_mode="100644"), False),
    ("SKILL instructions", stat_facts("skills/go/SKILL.md", 1, new_mode="100644"), False),
    (
        "copilot instructions",
        stat_facts(".github/copilot-instructions.md", 1, new_mode="100644"),
        False,
    ),
    ("agent name", stat_facts("docs/review-agent.md", 1, new_mode="100644"), False),
    ("skill path", stat_facts("skills/review/guide.md", 1, new_mode="100644"), False),
    ("prompt path", stat_facts("prompts/review.md", 1, new_mode="100644"), False),
    ("instruction name", stat_facts("docs/review-instructions.md", 1, new_mode="100644"), False),
    ("orchestrator name", stat_facts("docs/review-orchestrator.md", 1, new_mode="100644"), False),
    ("workflow path", stat_facts("workflows/release.md", 1, new_mode="100644"), False),
    ("dot agent", stat_facts(".agent/rules.md", 1, new_mode="100644"), False),
    ("dot agents", stat_facts(".agents/reviewer.md", 1, new_mode="100644"), False),
    ("dot codex", stat_facts(".codex/instructions.md", 1, new_mode="100644"), False),
    ("dot cursor", stat_facts(".cursor/rules.md", 1, new_mode="100644"), False),
    ("Claude command", stat_facts(".claude/commands/deploy.md", 1, new_mode="100644"), False),
    ("dot opencode", stat_facts(".opencode/agents.md", 1, new_mode="100644"), False),
    ("GitHub agents", stat_facts(".github/agents/reviewer.md", 1, new_mode="100644"), False),
    (
        "Windsurf workflows",
        stat_facts(".windsurf/workflows/release.md", 1, new_mode="100644"),
        False,
    ),
    ("internal runtime", stat_facts("internal/runtime/prompt.md", 1, new_mode="100644"), False),
    ("internal assets", stat_facts("internal/assets/agent.md", 1, new_mode="100644"), False),
    ("internal templates", stat_facts("internal/templates/review.md", 1, new_mode="100644"), False),
    ("runtime policy", stat_facts("runtime/policy.md", 1, new_mode="100644"), False),
    ("OpenSpec", stat_facts("openspec/changes/example/proposal.md", 1, new_mode="100644"), False),
    ("MDX", stat_facts("docs/guide.mdx", 1, new_mode="100644"), True),
    ("source comment", stat_facts("internal/view.go", 1, new_mode="100644"), False),
    ("binary Markdown", stat_facts("docs/guide.md", binary=True, new_mode="100644"), False),
    ("binary image asset", stat_facts("assets/logo.png", binary=True, new_mode="100644"), True),
    (
        "binary image under agents",
        stat_facts(".claude/agents/logo.png", binary=True, new_mode="100644"),
        False,
    ),
    ("executable image", stat_facts("assets/logo.png", binary=True, new_mode="100755"), False),
    ("symlink Markdown", stat_facts("docs/guide.md", 1, new_mode="120000"), False),
    ("gitlink Markdown", stat_facts("docs/guide.md", 1, new_mode="160000"), False),
    ("executable Markdown", stat_facts("docs/guide.md", 1, new_mode="100755"), False),
]


@pytest.mark.parametrize(("name", "facts", "passive"), LOW_RISK, ids=[r[0] for r in LOW_RISK])
def test_low_risk_path_policy(name: str, facts: ChangeFacts, passive: bool) -> None:
    assert is_passive_stat(facts) is passive


# -- TestClassifyRiskIgnoresTheFormerFourHundredLineBoundary, TestVolumeAlone* ------------


@pytest.mark.parametrize("lines", [400, 401, 1, 9000])
def test_volume_never_escalates_passive_documentation(lines: int) -> None:
    assert assess(new_file("docs/ordinary-guide.md", lines)).risk == "passive"
    assert assess(new_file("docs/guide.md", lines)).risk == "passive"


@pytest.mark.parametrize("lines", [1, 399, 400, 401, 1000, 5000, 50000])
def test_volume_alone_never_selects_a_tier(lines: int) -> None:
    view = PathChange(
        "internal/ui/view.go", None, "M", "100644", "100644", A, B, lines // 2, lines - lines // 2
    )
    render = PathChange("internal/ui/render.go", None, "M", "100644", "100644", A, B, lines, 0)
    assert assess(view, render).risk == "medium"


# -- TestFallbackRiskReasonUsesTheSameLowRiskStatPolicy -----------------------------------

FALLBACK = [
    ("ordinary Markdown", stat_facts("docs/guide.md", 1, new_mode="100644"), "non_executable_only"),
    ("active SVG", stat_facts("docs/diagram.svg", 1, new_mode="100644"), "executable_change"),
    (
        "binary Markdown",
        stat_facts("docs/guide.md", binary=True, new_mode="100644"),
        "executable_change",
    ),
    (
        "mode-only Markdown",
        stat_facts("docs/guide.md", mode_only=True, old_mode="100644", new_mode="100644"),
        "executable_change",
    ),
    ("operational Markdown", stat_facts("AGENTS.md", 1, new_mode="100644"), "executable_change"),
    (
        "Claude command",
        stat_facts(".claude/commands/deploy.md", 1, new_mode="100644"),
        "executable_change",
    ),
    ("runtime policy", stat_facts("runtime/policy.md", 1, new_mode="100644"), "executable_change"),
]


@pytest.mark.parametrize(("name", "facts", "code"), FALLBACK, ids=[r[0] for r in FALLBACK])
def test_fallback_reason(name: str, facts: ChangeFacts, code: str) -> None:
    cls = change_class(facts)
    assert cls.signals == () and cls.fallback.id == code


# -- TestCountChangedLinesHasOneCrossAdapterRule ------------------------------------------


def test_count_changed_lines() -> None:
    env = assess(
        PathChange("generated/client.go", None, "M", "100644", "100644", A, B, 250, 50),
        PathChange("internal/x.go", None, "M", "100644", "100644", A, B, 100, 1),
        PathChange("image.bin", None, "M", "100644", "100644", A, B, None, None),
        PathChange("script.sh", None, "M", "100644", "100755", A, A, 0, 0),
        PathChange("renamed.txt", "old.txt", "R", "100644", "100644", A, A, 0, 0),
    )
    assert env.changed_lines == 401


# -- TestConfigurationReviewPathRecognizesDotEnvVariants ----------------------------------


@pytest.mark.parametrize(
    ("path", "config"),
    [(".env", True), ("config/.env.production", True), ("config/env.example", False)],
)
def test_dot_env_is_configuration(path: str, config: bool) -> None:
    assert is_configuration(path) is config
    assert path_facts(path, M).config is config


# -- TestDeriveSemanticRiskSignals* (service token) and the near misses -------------------

SEMANTIC = ("service_token", "shell_source", "executable_mode")
SERVICE_TOKEN = [
    ("underscore Go source", stat_facts("internal/identity/service_token.go", 1)),
    ("hyphen TypeScript source", stat_facts("internal/identity/service-token.ts", 1)),
    ("configuration path", stat_facts("config/service-token.yaml", 1)),
    ("deletion-only source", stat_facts("internal/identity/service-token.ts", 0, 1)),
]
NOT_SERVICE_TOKEN = [
    ("joined token", stat_facts("internal/identity/servicetoken.go", 1)),
    ("cross segment token", stat_facts("internal/service/token.go", 1)),
    ("zero change", stat_facts("internal/identity/service-token.ts")),
    ("binary", stat_facts("internal/identity/service-token.ts", 1, binary=True)),
    ("mode only", stat_facts("internal/identity/service-token.ts", 1, mode_only=True)),
    ("generated golden", stat_facts("testdata/golden/service-token.golden", 1)),
    ("fixture", stat_facts("fixtures/service-token.ts", 1)),
    ("testdata", stat_facts("testdata/service-token.ts", 1)),
    ("requirements prose", stat_facts("service-token-requirements.txt", 1)),
    ("CMake prose", stat_facts("service-token-CMakeLists.txt", 1)),
    ("executable MDX", stat_facts("service-token.mdx", 1)),
    ("README shell", stat_facts("README-service-token.sh", 1)),
]


def semantic_signals(f: ChangeFacts) -> list[str]:
    return [signal for code, signal in change_class(f).signals if code in SEMANTIC]


@pytest.mark.parametrize(("name", "facts"), SERVICE_TOKEN, ids=[r[0] for r in SERVICE_TOKEN])
def test_service_token_paths(name: str, facts: ChangeFacts) -> None:
    assert semantic_signals(facts) == ["auth"]


@pytest.mark.parametrize(
    ("name", "facts"), NOT_SERVICE_TOKEN, ids=[r[0] for r in NOT_SERVICE_TOKEN]
)
def test_ineligible_and_ambiguous_paths(name: str, facts: ChangeFacts) -> None:
    assert semantic_signals(facts) == []


NEAR_MISSES = [
    stat_facts("docs/run.sh", 1, old_mode="000000", new_mode="100644"),
    stat_facts("docs/workflow.yml", 1, old_mode="000000", new_mode="100644"),
    stat_facts("config/app.yaml", 1, old_mode="000000", new_mode="100644"),
    stat_facts("README-run.sh", 1, old_mode="000000", new_mode="100644"),
    stat_facts("fixtures/run.sh", 1, old_mode="000000", new_mode="100644"),
    stat_facts("tools/run.sh.txt", 1, old_mode="000000", new_mode="100644"),
    stat_facts("tools/already-executable.txt", 1, old_mode="100755", new_mode="100755"),
    stat_facts("internal/data-exposure.go", 1, old_mode="000000", new_mode="100644"),
    stat_facts("internal/data-loss.go", 1, old_mode="000000", new_mode="100644"),
]


@pytest.mark.parametrize("facts", NEAR_MISSES, ids=lambda f: repr(f.new)[:40])
def test_near_misses_guess_no_unsafe_reason(facts: ChangeFacts) -> None:
    unsafe = {"shell_process", "permissions", "data_exposure", "data_loss"}
    assert not unsafe & {signal for _, signal in change_class(facts).signals}


# -- TestPassiveDocumentContentFailsClosedUpward, TestPassiveContentReadbackStaysBounded -

CONTENT = [
    ("ordinary prose", "docs/guide.md", b"# Title\n\nProse.\n", True),
    ("static MDX", "book/chapter.mdx", b"# Title\n\nProse.\n", True),
    ("executable MDX", "book/chapter.mdx", b"export const value = 1\n", False),
    ("interpreter directive", "docs/guide.md", b"#!/bin/sh\necho hi\n", False),
    ("embedded NUL byte", "docs/guide.md", b"prose\x00more\n", False),
    ("invalid UTF-8", "docs/guide.md", b"prose \xff\xfe\n", False),
    ("binary image bytes", "assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00", True),
    ("image wearing a shebang", "assets/logo.png", b"#!/bin/sh\necho hi\n", False),
    ("text wearing an image extension", "assets/logo.png", b"prose\n", False),
    ("archive wearing an image extension", "assets/logo.jpg", b"PK\x03\x04payload", False),
]


@pytest.mark.parametrize(("name", "path", "data", "passive"), CONTENT, ids=[r[0] for r in CONTENT])
def test_passive_document_content(name: str, path: str, data: bytes, passive: bool) -> None:
    assert is_passive_document_content(path, data) is passive


def test_passive_readback_stays_bounded() -> None:
    data = b"Ordinary prose line.\n" * 100
    assert assess(new_file("docs/guide.md", 100), blobs={B: data}).risk == "passive"
    bounded = assess(new_file("docs/guide.md", 100), blobs={B: data}, proof_limit=16)
    assert bounded.risk != "passive"


def test_every_reason_code_is_one_row_id() -> None:
    """Signal, fallback and whole-candidate rows: one row per reason code, and the two
    fallback rows the whole candidate reads give it a tier."""
    from gentle_hooks.native.rules import CANDIDATE_ROWS, FALLBACK, FALLBACK_ROWS, SIGNAL_ROWS

    ids = [row.id for table in (SIGNAL_ROWS, FALLBACK_ROWS, CANDIDATE_ROWS) for row in table]
    assert len(ids) == len(set(ids)), ids
    assert {"process_boundary", "agent_escalation"} <= {row.id for row in CANDIDATE_ROWS}
    assert FALLBACK["empty_content"].tier == "medium"
    assert FALLBACK["non_executable_only"].tier == "passive"
