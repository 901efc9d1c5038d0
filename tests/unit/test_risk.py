"""The built-in classifier (SPEC §4): every tier rule, reasons, changed_lines, review_due."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.classifier import MAX_HIGH_REASONS, classify, classify_path
from gentle_hooks.native.pathfacts import is_generated, path_tokens
from gentle_hooks.values.candidate import PathChange

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


CASES = [
    ("passive", "documentation", change("docs/guide.md"), {B: DOC}),
    ("passive", "documentation", change("README"), {B: DOC}),
    ("passive", "documentation", change("LICENSE.txt"), {B: DOC}),
    ("passive", "documentation", change("old.rst", status="D"), {A: DOC}),
    ("medium", "unproven_documentation", change("docs/a.md"), {B: b"bin\0ary"}),
    ("medium", "unproven_documentation", change("docs/a.md"), {B: b"\xff\xfe"}),
    ("medium", "unproven_documentation", change("docs/a.md"), {B: b"#!/bin/sh\necho\n"}),
    ("medium", "agent_instruction", change("AGENTS.md"), {B: DOC}),
    ("medium", "agent_instruction", change("sub/CLAUDE.md"), {B: DOC}),
    ("medium", "agent_instruction", change("skills/review/SKILL.md"), {B: DOC}),
    ("medium", "agent_instruction", change("prompts/system.md"), {B: DOC}),
    ("medium", "agent_instruction", change(".github/PULL_REQUEST_TEMPLATE.md"), {B: DOC}),
    ("medium", "source", change("src/app.py"), {}),
    ("medium", "configuration", change("setup.cfg"), {}),
    ("medium", "binary", change("img/logo.png", add=None, dele=None), {}),
    ("medium", "submodule", change("vendor/lib", old_mode="160000", new_mode="160000"), {}),
    ("medium", "symlink", change("link.md", old_mode="120000", new_mode="120000"), {B: DOC}),
    ("high", "hot_path", change("src/auth/session.py"), {}),
    ("high", "hot_path", change("app/PaymentsController.rb"), {}),
    ("high", "hot_path", change("docs/security.md"), {B: DOC}),
    ("high", "hot_path", change("lib/webhooks.ts"), {}),
    ("high", "shell_script", change("scripts/deploy.sh"), {}),
    ("high", "delivery_config", change(".github/workflows/ci.yml"), {}),
    ("high", "delivery_config", change(".gentle-hooks.toml"), {}),
    (
        "high",
        "exec_bit",
        change("tool.py", old_mode="100644", new_mode="100755", add=0, dele=0, new=A),
        {},
    ),
    ("high", "exec_bit", change("bin/run", old_mode="100755", new_mode="100644"), {}),
    ("high", "exec_bit", change("bin/new", status="A", new_mode="100755"), {}),
    ("high", "hot_path", change("src/new_place.py", status="R", old_path="src/auth.py"), {}),
]


@pytest.mark.parametrize(
    ("tier", "code", "pc", "blobs"), CASES, ids=[f"{c[1]}:{c[2].path}" for c in CASES]
)
def test_path_rule(tier, code, pc, blobs) -> None:
    got = classify_path(pc, blobs, S)
    assert (got.tier, got.code) == (tier, code)


@pytest.mark.parametrize(
    "path", ["src/author.py", "docs/authority.md", "lib/updated_at.py", "src/secureish_name.py"]
)
def test_hot_tokens_match_whole_tokens_only(path: str) -> None:
    assert classify_path(change(path), {B: DOC}, S).code != "hot_path"


def test_path_tokens_split_camel_case() -> None:
    assert path_tokens("src/authService/login_view.py") == [
        "src",
        "auth",
        "service",
        "login",
        "view",
        "py",
    ]


def test_tier_is_the_maximum_and_every_tier_has_reasons() -> None:
    doc = change("README.md")
    src = change("src/app.py", add=10, dele=2)
    passive = classify([doc], {B: DOC}, [], S, kind="committed", base_ref="main")
    assert passive.risk == "passive" and passive.reasons[0].code == "documentation"
    assert passive.review_due_reason == "passive" and passive.review_due is False
    medium = classify([doc, src], {B: DOC}, [], S, kind="committed", base_ref="main")
    assert medium.risk == "medium" and {r.code for r in medium.reasons} == {
        "documentation",
        "source",
    }
    assert medium.changed_lines == 14 and medium.review_due_reason == "under_budget"


@pytest.mark.parametrize(
    ("text", "line", "high"),
    [
        ("#!/usr/bin/env python3", 1, True),
        ("#!/usr/bin/env python3", 3, False),
        ("    subprocess.run(['ls'])", 9, True),
        ("os.system('rm -rf /')", 2, True),
        ("const { execSync } = require('child_process')", 4, True),
        ('cmd := exec.Command("git", "status")', 7, True),
        ("let x = subprocessing_helper", 5, False),
        ("print('hello')", 1, False),
    ],
)
def test_process_execution_in_added_lines(text: str, line: int, high: bool) -> None:
    env = classify(
        [change("src/x.py")],
        {},
        [AddedLine("src/x.py", line, text)],
        S,
        kind="snapshot",
        base_ref=None,
    )
    assert (env.risk == "high") is high
    if high:
        assert env.reasons[0].code == "process_execution" and env.reasons[0].path == "src/x.py"
        assert f"line {line}" in env.reasons[0].detail


def test_size_never_sets_the_tier_but_reports_slice_budget() -> None:
    big = [change(f"src/m{i}.py", add=100, dele=0) for i in range(4)]
    env = classify(big, {}, [], S, kind="committed", base_ref="main")
    assert env.risk == "medium" and env.changed_lines == 400
    assert env.review_due is True and env.review_due_reason == "slice_budget_reached"
    env = classify(
        [*big[:3], change("src/z.py", add=99, dele=0)], {}, [], S, kind="committed", base_ref="main"
    )
    assert env.changed_lines == 399 and env.review_due_reason == "under_budget"


def test_changed_lines_excludes_binary_mode_only_and_golden() -> None:
    env = classify(
        [
            change("a.py", add=5, dele=5),
            change("b.png", add=None, dele=None),
            change("tool.py", old_mode="100644", new_mode="100755", add=0, dele=0, new=A),
            change("testdata/out.golden", add=50, dele=50),
            change("ui/__snapshots__/x.snap", add=7, dele=0),
        ],
        {},
        [],
        S,
        kind="committed",
        base_ref=None,
    )
    assert env.changed_lines == 10


def test_high_is_high_risk_due_and_consumed_is_already_reviewed() -> None:
    env = classify([change("auth.py")], {}, [], S, kind="committed", base_ref=None)
    assert (env.review_due, env.review_due_reason) == (True, "high_risk")
    env = classify([change("auth.py")], {}, [], S, kind="committed", base_ref=None, consumed=True)
    assert (env.review_due, env.review_due_reason) == (False, "already_reviewed")
    assert env.candidate.consumed is True


def test_empty_candidate_is_medium_with_a_reason() -> None:
    env = classify([], {}, [], S, kind="staged", base_ref=None)
    assert env.risk == "medium" and env.reasons[0].code == "empty" and env.changed_lines == 0


def test_configurable_tokens() -> None:
    s = RiskSettings(hot_path_tokens=("ledger",))
    assert classify_path(change("src/ledger.py"), {}, s).tier == "high"
    assert classify_path(change("src/auth.py"), {}, s).tier == "medium"


# -- classify over many paths answers as classify_path does, path by path -------------------

PARTS = [
    "src",
    "auth",
    "authService",
    "UPDATE",
    "oauth2",
    "README",
    "readme.txt",
    "CHANGELOG.rst",
    "x.MD",
    "AGENTS.md",
    "SKILL.md",
    "prompts",
    ".github",
    "workflows",
    "ci.yml",
    "Jenkinsfile",
    ".gitlab-ci.yml",
    "deploy.sh",
    "a.golden",
    "golden",
    "__snapshots__",
    "s.snap",
    "setup.cfg",
    "x.",
    ".env",
    "é",
    "a b",
    "a-b_c",
]
MODES = ["100644", "100755", "120000", "160000", "000000"]
paths = st.lists(st.sampled_from(PARTS), min_size=1, max_size=4).map("/".join)
changes = st.builds(
    PathChange,
    paths,
    st.one_of(st.none(), st.just(""), paths),
    st.sampled_from(["A", "M", "D", "R", "C", "T"]),
    st.sampled_from(MODES),
    st.sampled_from(MODES),
    st.sampled_from([A, B, Z]),
    st.sampled_from([A, B, Z]),
    st.sampled_from([None, 0, 3, 250]),
    st.sampled_from([None, 0, 4]),
)
ODD = RiskSettings(
    hot_path_tokens=("auth", "readme", ""),
    agent_dirs=("src", ""),
    doc_extensions=("", ".py", ".MD"),
    shell_extensions=(".sh", ""),
    delivery_globs=("*.yml", "[Jj]enkinsfile"),
    generated_globs=("*", "*/golden/*"),
)


def reference(changes, blobs, s):
    """classify's reasons, tier and changed_lines from classify_path and is_generated, one
    path at a time (what classify did before it learnt directories and names)."""
    high, groups, tier = [], {}, "passive"
    order = {"passive": 0, "medium": 1, "high": 2}
    for c in changes:
        pc = classify_path(c, blobs, s)
        tier = max(tier, pc.tier, key=order.__getitem__)
        if pc.tier == "high":
            high.append((pc.code, c.path, pc.detail))
        else:
            groups.setdefault((pc.tier, pc.code), []).append(c.path)
    lines = sum(
        c.lines for c in changes if not (c.binary or c.mode_only or is_generated(c.path, s))
    )
    grouped = [
        (code, ps[0], len(ps))
        for (_, code), ps in sorted(groups.items(), key=lambda kv: -order[kv[0][0]])
    ]
    return tier if changes else "medium", high[:MAX_HIGH_REASONS], grouped, lines


@settings(max_examples=300, deadline=None)
@given(st.lists(changes, max_size=25), st.sampled_from([S, ODD]))
def test_classify_answers_as_classify_path(changes, s) -> None:
    blobs = {A: DOC, B: b"#!/bin/sh\n"}
    env = classify(changes, blobs, [], s, kind="committed", base_ref=None)
    tier, high, grouped, lines = reference(changes, blobs, s)
    assert env.risk == tier and env.changed_lines == lines
    got_high = [(r.code, r.path, r.detail) for r in env.reasons if r.code != "more"][: len(high)]
    assert got_high == high
    got_groups = [
        (r.code, r.path, int(r.detail.split()[0]))
        for r in env.reasons[len(high) :]
        if r.code not in ("more", "empty")
    ]
    assert got_groups == grouped
