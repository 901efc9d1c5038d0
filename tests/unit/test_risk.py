"""The built-in classifier (SPEC §4) beyond upstream's own rows: what the settings widen,
the envelope's shape, changed_lines, review_due, escalation, and two invariants (the tier
is the one its public reasons explain; the path-fact cache answers as one path at a time).

Upstream gentle-ai's rows are replayed in ``test_upstream_risk_rows.py``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.classifier import doc_blobs_to_prove, review_due
from gentle_hooks.native.decode import GentleAiReason, decode_assessment, tier_from_reasons
from gentle_hooks.native.pathfacts import FactCache, Matchers, is_generated, path_facts, path_tokens
from gentle_hooks.values.candidate import PathChange
from tests.classifying import classify

S = RiskSettings()
Z, A, B = "0" * 40, "a" * 40, "b" * 40
DOC = b"# Title\n\nPlain words, caf\xc3\xa9.\n"


def change(
    path,
    status="M",
    old_mode="100644",
    new_mode="100644",
    add=1,
    dele=1,
    old_path=None,
    old=A,
    new=B,
):
    if status == "A":
        old_mode, old = "000000", Z
    if status == "D":
        new_mode, new = "000000", Z
    return PathChange(path, old_path, status, old_mode, new_mode, old, new, add, dele)


def env_of(*changes, blobs=None, added=(), s=S, **kw):
    return classify(
        list(changes),
        {A: DOC, B: DOC} if blobs is None else blobs,
        list(added),
        s,
        kind="base-diff",
        base_ref="main",
        **kw,
    )


def first(env):
    r = env.reasons[0]
    return (env.risk, r.code, r.path, r.detail)


ROWS = [
    # README-like names are documentation by the settings (SPEC §4), proven by bytes
    ("bare README", [change("README")], ("passive", "non_executable_only", None, None)),
    ("LICENSE.txt", [change("LICENSE.txt")], ("passive", "non_executable_only", None, None)),
    (
        "deleted reStructuredText",
        [change("old.rst", status="D")],
        ("passive", "non_executable_only", None, None),
    ),
    # hot tokens: upstream's five, whole tokens of the lowercased path split on / \\ . - _
    (
        "camelCase is one token",
        [change("app/PaymentsController.rb")],
        ("medium", "executable_change", "app/PaymentsController.rb", None),
    ),
    (
        "payments folder",
        [change("app/payments/charge.rb")],
        ("high", "hot_path", "app/payments/charge.rb", "signal: payments"),
    ),
    (
        "login is not upstream's",
        [change("src/login_view.py")],
        ("medium", "executable_change", "src/login_view.py", None),
    ),
    (
        "a hot token in documentation",
        [change("docs/auth.md")],
        ("high", "hot_path", "docs/auth.md", "signal: auth"),
    ),
    (
        "webhook is security",
        [change("src/webhook-dispatcher.ts")],
        ("high", "hot_path", "src/webhook-dispatcher.ts", "signal: security"),
    ),
    (
        "update",
        [change("internal/update/check.go")],
        ("high", "hot_path", "internal/update/check.go", "signal: update"),
    ),
    (
        "not a whole token",
        [change("src/author.py")],
        ("medium", "executable_change", "src/author.py", None),
    ),
    (
        "renamed away from a hot path",
        [change("src/new_place.py", status="R", old_path="src/auth.py")],
        ("high", "hot_path", "src/new_place.py", "signal: auth"),
    ),
    # shell sources: upstream's .sh .bash .zsh and GitHub workflow YAML
    (
        "PowerShell is not upstream's",
        [change("scripts/deploy.ps1")],
        ("medium", "executable_change", "scripts/deploy.ps1", None),
    ),
    (
        "GitHub workflow YAML",
        [change(".github/workflows/ci.yml")],
        ("high", "shell_source", ".github/workflows/ci.yml", "signal: shell_process"),
    ),
    (
        "gate configuration is configuration",
        [change(".gentle-hooks.toml")],
        ("medium", "configuration_change", ".gentle-hooks.toml", None),
    ),
    (
        "Jenkinsfile is not upstream's",
        [change("Jenkinsfile")],
        ("medium", "executable_change", "Jenkinsfile", None),
    ),
    (
        "workflow folder Markdown is not CI",
        [change(".github/workflows/release.md")],
        ("medium", "executable_change", ".github/workflows/release.md", None),
    ),
    (
        "empty shell script",
        [change("tools/run.sh", status="A", add=0, dele=0)],
        ("medium", "empty_content", "tools/run.sh", None),
    ),
    # executable bits, both ways and on add or delete
    (
        "exec flip",
        [change("tool.py", new_mode="100755", add=0, dele=0, new=A)],
        ("high", "executable_mode", "tool.py", "signal: permissions; mode 100644 -> 100755"),
    ),
    (
        "new executable",
        [change("bin/new", status="A", new_mode="100755")],
        ("high", "executable_mode", "bin/new", "signal: permissions; mode 000000 -> 100755"),
    ),
    (
        "deleted executable",
        [change("bin/old", status="D", old_mode="100755")],
        ("high", "executable_mode", "bin/old", "signal: permissions; mode 100755 -> 000000"),
    ),
    # the rest is medium, first non-passive change as the reason
    (
        "submodule",
        [change("vendor/lib", old_mode="160000", new_mode="160000")],
        ("medium", "executable_change", "vendor/lib", None),
    ),
    (
        "symlink",
        [change("link.md", old_mode="120000", new_mode="120000")],
        ("medium", "executable_change", "link.md", None),
    ),
    (
        "binary",
        [change("blob.bin", add=None, dele=None)],
        ("medium", "executable_change", "blob.bin", None),
    ),
    (
        "configuration first",
        [change("a.py"), change("b.yaml")],
        ("medium", "executable_change", "a.py", None),
    ),
    (
        "doc then configuration",
        [change("docs/a.md"), change("setup.toml")],
        ("medium", "configuration_change", "setup.toml", None),
    ),
    ("dot env", [change(".env")], ("medium", "configuration_change", ".env", None)),
]


@pytest.mark.parametrize(("name", "changes", "want"), ROWS, ids=[r[0] for r in ROWS])
def test_row(name, changes, want) -> None:
    assert first(env_of(*changes)) == want


def test_every_side_of_a_document_must_be_proven() -> None:
    env = env_of(change("docs/a.md"), blobs={A: b"#!/bin/sh\n", B: DOC})
    assert first(env) == ("medium", "executable_change", "docs/a.md", None)


def test_agent_folders_from_the_settings_are_never_passive() -> None:
    s = RiskSettings(agent_dirs=("handbook",))
    assert first(env_of(change("handbook/x.md"), s=s))[:2] == ("medium", "executable_change")
    assert first(env_of(change("handbook/x.md")))[:2] == ("passive", "non_executable_only")


def test_configurable_tokens() -> None:
    s = RiskSettings(hot_path_tokens=("ledger",))
    assert first(env_of(change("src/ledger.py"), s=s))[:2] == ("high", "hot_path")
    assert env_of(change("src/ledger.py"), s=s).reasons[0].detail == "signal: security"
    assert env_of(change("src/auth.py"), s=s).risk == "medium"


def test_path_tokens_are_upstreams() -> None:
    """hotPathRiskSignals: the lowercased path split on / \\ . - _ and nothing else."""
    assert path_tokens("src/authService/login_view.py") == [
        "src",
        "authservice",
        "login",
        "view",
        "py",
    ]
    assert path_tokens("A\\Auth.v2-x_y z") == ["a", "auth", "v2", "x", "y z"]


def test_settings_widen_shell_and_delivery() -> None:
    s = RiskSettings(shell_extensions=(".ps1",), delivery_globs=("Jenkinsfile",))
    assert first(env_of(change("scripts/deploy.ps1"), s=s))[:2] == ("high", "shell_source")
    assert first(env_of(change("Jenkinsfile"), s=s))[:2] == ("high", "shell_source")


def test_reasons_are_canonical_one_per_code_and_signal() -> None:
    env = env_of(change("z/auth.go"), change("a/auth.go"), change("m/security.go"), change("x.py"))
    assert [(r.code, r.path, r.detail) for r in env.reasons] == [
        ("hot_path", "a/auth.go", "signal: auth"),
        ("hot_path", "m/security.go", "signal: security"),
    ]


# -- process execution: eligible files only, in the added lines -----------------------------


@pytest.mark.parametrize(
    ("path", "text", "line", "high"),
    [
        ("src/x.py", "#!/usr/bin/env python3", 1, True),
        ("src/x.py", "#!/usr/bin/env python3", 3, False),
        ("src/x.py", "    subprocess.run(['ls'])", 9, True),
        ("src/x.py", "os.system('rm -rf /')", 2, True),
        ("src/x.js", "const { execSync } = require('child_process')", 4, True),
        ("src/x.go", 'cmd := exec.Command("git", "status")', 7, True),
        ("CMakeLists.txt", "EXECUTE_PROCESS(COMMAND ls)", 2, True),
        ("src/x.py", "let x = subprocessing_helper", 5, False),
        ("docs/x.py", "subprocess.run(['ls'])", 2, False),  # docs describe, not perform
        ("notes.md", "subprocess.run(['ls'])", 2, False),  # not a content-scan file
        ("bin/tool", "#!/bin/sh", 1, False),  # no extension: not scanned
    ],
)
def test_process_execution_in_added_lines(path: str, text: str, line: int, high: bool) -> None:
    env = env_of(change(path), added=[AddedLine(path, line, text)])
    assert (env.risk == "high") is high
    if high:
        assert first(env) == ("high", "process_boundary", path, "signal: shell_process")


def test_a_process_hit_replaces_the_fallback_reason() -> None:
    env = env_of(
        change("a.txt"),
        change("b.py"),
        added=[AddedLine("b.py", 1, "import subprocess; subprocess.run(x)")],
    )
    assert [r.code for r in env.reasons] == ["process_boundary"]


# -- changed_lines, review_due, escalation, the empty candidate ----------------------------


def test_size_never_sets_the_tier_but_reports_slice_budget() -> None:
    big = [change(f"src/m{i}.py", add=100, dele=0) for i in range(4)]
    env = env_of(*big)
    assert (env.risk, env.changed_lines, env.review_due, env.review_due_reason) == (
        "medium",
        400,
        True,
        "slice_budget_reached",
    )
    env = env_of(*big[:3], change("src/z.py", add=99, dele=0))
    assert (env.changed_lines, env.review_due_reason) == (399, "under_budget")


def test_changed_lines_excludes_binary_mode_only_and_golden() -> None:
    env = env_of(
        change("a.py", add=5, dele=5),
        change("b.png", add=None, dele=None),
        change("tool.py", new_mode="100755", add=0, dele=0, new=A),
        change("testdata/golden/out.golden", add=50, dele=50),
        change("ui/__snapshots__/x.snap", add=7, dele=0),  # not upstream's golden
    )
    assert env.changed_lines == 17


@pytest.mark.parametrize(
    ("risk", "lines", "consumed", "want"),
    [
        ("high", 1, True, (False, "already_reviewed")),
        ("high", 1, False, (True, "high_risk")),
        ("medium", 400, False, (True, "slice_budget_reached")),
        ("medium", 399, False, (False, "under_budget")),
        ("passive", 9000, False, (False, "passive")),
    ],
)
def test_review_due_first_match(
    risk: str, lines: int, consumed: bool, want: tuple[bool, str]
) -> None:
    assert review_due(risk, lines, consumed, 400) == want


def test_escalation_raises_the_envelope_and_keeps_the_native_tier() -> None:
    env = env_of(change("docs/a.md"), escalation=(2, "security", "token checks"))
    assert (env.risk, env.native_risk, env.review_due_reason) == ("high", "passive", "high_risk")
    assert (env.reasons[-1].code, env.reasons[-1].detail) == (
        "agent_escalation",
        "item 2 (security): token checks",
    )
    plain = env_of(change("docs/a.md"))
    assert (plain.risk, plain.native_risk, plain.unescalated) == ("passive", "passive", None)


def test_empty_candidate_is_medium_with_a_reason() -> None:
    env = env_of()
    assert (env.risk, env.changed_lines, env.changed_paths) == ("medium", 0, 0)
    assert (env.reasons[0].code, env.reasons[0].path) == ("empty_content", None)


def test_golden_files_alone_are_passive() -> None:
    env = env_of(change("testdata/golden/out.golden", add=500, dele=0))
    assert (env.risk, env.changed_lines) == ("passive", 0)


def test_doc_blobs_to_prove_reads_both_sides_of_nominated_changes() -> None:
    changes = [
        change("docs/a.md"),
        change("src/a.py"),
        change("b.md", status="A"),
        change("c.md", status="D"),
    ]
    assert doc_blobs_to_prove(changes, S) == [A, B, B, A]


def test_doc_blobs_to_prove_over_cumulative_candidates_reads_each_change_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a push's candidates share a base: candidate i holds the change objects of i-1 and one
    # more; each change's sides are worked out once, not once per candidate holding it
    from gentle_hooks.native import classifier

    sided: list[str] = []
    sides = classifier._sides

    def counting(c: PathChange) -> list[tuple[str, str]]:
        sided.append(c.path)
        return sides(c)

    monkeypatch.setattr(classifier, "_sides", counting)
    docs = [change(f"once/d{i:03}.md") for i in range(60)]
    code = [change(f"once/src/m{i:03}.py") for i in range(60)]
    every = [c for pair in zip(docs, code, strict=True) for c in pair]
    for i in range(1, len(every) + 1):
        held = every[:i]
        expected = [oid for c in held if c.path.endswith(".md") for oid in (A, B)]
        assert doc_blobs_to_prove(held, S) == expected
    assert sorted(sided) == sorted(c.path for c in docs)


def test_envelope_is_upstreams_shape() -> None:
    env = env_of(change("docs/a.md"), consumed=True)
    assert json.dumps(env.to_json()) == json.dumps(
        {
            "schema": "gentle-ai.review-assessment/v1",
            "risk": "passive",
            "reasons": [{"code": "non_executable_only"}],
            "changed_paths": 1,
            "changed_lines": 2,
            "candidate": {"kind": "base-diff", "base_ref": "main", "consumed": True},
            "review_due": False,
            "review_due_reason": "already_reviewed",
        }
    )
    assert decode_assessment(json.dumps(env.to_json()).encode()).to_json() == env.to_json()


# -- invariants -----------------------------------------------------------------------------

PARTS = [
    "src", "auth", "authService", "UPDATE", "oauth2", "README", "readme.txt", "CHANGELOG.rst",
    "x.MD", "AGENTS.md", "SKILL.md", "prompts", ".github", "workflows", "ci.yml", "Jenkinsfile",
    ".gitlab-ci.yml", "deploy.sh", "a.golden", "golden", "testdata", "__snapshots__", "s.snap",
    "setup.cfg", "x.", ".env", "é", "a b", "a-b_c", "service-token.go", "docs", "internal",
    "runtime", "assets", "logo.png", "page.mdx", "x.txt", "go.mod", "run.py",
]  # fmt: skip
MODES = ["100644", "100755", "120000", "160000", "000000"]
paths = st.lists(st.sampled_from(PARTS), min_size=1, max_size=4).map("/".join)
changes = st.builds(
    PathChange,
    paths,
    st.one_of(st.none(), paths),
    st.sampled_from(["A", "M", "D", "R", "C", "T"]),
    st.sampled_from(MODES),
    st.sampled_from(MODES),
    st.sampled_from([A, B, Z]),
    st.sampled_from([A, B, Z]),
    st.sampled_from([None, 0, 3, 250]),
    st.sampled_from([None, 0, 4]),
)
ODD = RiskSettings(
    hot_path_tokens=("auth", "readme", "ledger"),
    agent_dirs=("src",),
    doc_extensions=(".py", ".MD"),
    shell_extensions=(".sh", ".txt"),
    delivery_globs=("*.yml", "[Jj]enkinsfile"),
    generated_globs=("*/golden/*", "*.snap"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(changes, max_size=25), st.sampled_from([S, ODD]))
def test_the_tier_is_the_one_its_reasons_explain(changes, s) -> None:
    """Upstream fails closed on a tier its reasons do not explain; here it cannot happen."""
    env = classify(changes, {A: DOC, B: b"#!/bin/sh\n"}, [], s, kind="base-diff", base_ref=None)
    public = [GentleAiReason.model_validate(r) for r in env.to_json()["reasons"]]
    if changes:
        assert tier_from_reasons(public) == env.risk
    keys = [(r.code, r.detail) for r in env.reasons]
    assert len(keys) == len(set(keys))
    assert env.changed_lines == sum(
        c.lines for c in changes if not (c.binary or c.mode_only or is_generated(c.path, s))
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(paths, max_size=30), st.sampled_from([S, ODD]))
def test_the_fact_cache_answers_as_one_path_at_a_time(many, s) -> None:
    m = Matchers(s)
    cache = FactCache(m)
    cache.learn(many[::2])
    for p in many:
        assert cache.facts(p) is path_facts(p, m)


def test_matchers_asked_per_candidate_hash_the_settings_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a push asks for the same settings object's matchers once per candidate (the blobs to
    # prove, then the fold): hashing the whole settings each time cost more than the answer
    from gentle_hooks.native import pathfacts
    from gentle_hooks.values import frozen

    hashed: list[object] = []
    real = frozen._hash

    def counting(self: object) -> int:
        hashed.append(self)
        return real(self)

    s = RiskSettings(hot_path_tokens=("once-per-push",))
    monkeypatch.setattr(RiskSettings, "__hash__", counting)
    first = pathfacts.matchers(s)
    for _ in range(100):
        assert pathfacts.matchers(s) is first
    assert len(hashed) <= 1
    other = RiskSettings(hot_path_tokens=("another",))  # another object: its own matchers
    assert pathfacts.matchers(other) is not first
    assert pathfacts.matchers(other).hot_tokens == {"another"}
