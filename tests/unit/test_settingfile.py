"""The rows of :mod:`gentle_hooks.policy.settingfile` (SPEC §3 "Attribution follows content",
§8): which lines of a file are a template's settings, patterns, headings or prose, which
are code, and which tell the writer however short (issue 13, refuter r13u MED). Row by
row: each line is of the first row that matches."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.settingfile import SETTING_ROWS, setting_only, setting_row

ROWS: dict[str, tuple[str, bytes]] = {
    "S1-os-system": ("S1", b'os.system("rm -rf /tmp/x")'),
    "S1-setting-of-a-command": ("S1", b"commands = rm -rf /"),
    "S2-allowed-hosts": ("S2", b'ALLOWED_HOSTS = ["*"]'),
    "S2-camel-case-key": ("S2", b"allowedOrigins: '*'"),
    "S2-yaml-item": ("S2", b"- api_key: abc"),
    "S2-json-key": ("S2", b'"password": "hunter2",'),
    "S3-shell-command": ("S3", b"sh install.sh"),
    "S3-call": ("S3", b"setup()"),
    "S4-section": ("S4", b"[tool.pytest.ini_options]"),
    "S4-glob-section": ("S4", b"[*.{js,py}]"),
    "S4-array-of-tables": ("S4", b"[[tool.mypy.overrides]]"),
    "S5-word": ("S5", b"indent_style = space"),
    "S5-colon": ("S5", b"runs-on: ubuntu-latest"),
    "S5-list": ("S5", b'requires = ["setuptools>=61"]'),
    "S5-commas": ("S5", b"envlist = py311, lint"),
    "S5-one-word-command": ("S5", b"commands = pytest"),
    "S5-json": ("S5", b'"name": "demo",'),
    "S6-ignore": ("S6", b"__pycache__/"),
    "S6-negated": ("S6", b"!keep.txt"),
    "S6-attributes": ("S6", b"* text=auto eol=lf"),
    "S6-named-file-attributes": ("S6", b"Makefile text eol=lf"),
    "S7-heading": ("S7", b"# Demo App"),
    "S7-ini-comment": ("S7", b"; the defaults"),
    "S8-sentence": ("S8", b"A small demo project."),
    "S8-setting-of-prose": ("S8", b'description = "A small demo project"'),
    "S9-phrase-value": ("S9", b'"postinstall": "node evil.js"'),
    "S9-url-value": ("S9", b"index-url = https://evil.example/simple"),
    "S9-two-word-value": ("S9", b"commands = pytest {posargs}"),
    "S9-lowercase-command": ("S9", b"pip install evil-package"),
    "S9-path-in-words": ("S9", b"cat /etc/passwd"),
    "S9-statement": ("S9", b"for x in items:"),
}


def test_every_row_has_an_example() -> None:
    assert {row for row, _ in ROWS.values()} == {r.id for r in SETTING_ROWS}


@pytest.mark.parametrize(("row", "line"), ROWS.values(), ids=ROWS.keys())
def test_a_line_is_of_its_first_matching_row(row: str, line: bytes) -> None:
    assert setting_row(line) == row


FILES: dict[str, tuple[bytes, tuple[bytes, ...] | None]] = {
    "settings-only": (b"[metadata]\nname = demo\n", ()),
    "prose-counted": (b"# demo\n\nA small demo project.\n", (b"A small demo project.",)),
    "trivial-lines-skipped": (b"[options]\n*.pyc\nversion = 0.1.0\n", ()),
    "one-code-line": (b"[metadata]\nname = demo\nsetup()\n", None),
    "a-trivial-security-setting-tells": (b"debug = 1\n", None),
    "a-setting-of-a-command-tells": (b"[testenv]\ncommands = rm -rf /\n", None),
}


@pytest.mark.parametrize(("data", "prose"), FILES.values(), ids=FILES.keys())
def test_setting_only_gives_the_prose_of_a_template(
    data: bytes, prose: tuple[bytes, ...] | None
) -> None:
    assert setting_only(data) == prose
