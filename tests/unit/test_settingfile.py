"""The rows of :mod:`gentle_hooks.policy.settingfile` (SPEC §3 "Attribution follows content",
§8): which lines of a file are a template's settings, patterns, headings or prose, which
are code, and which tell the writer however short (issue 13, refuter r13u MED; a setting
that opens a door, refuter r13v MED 4). Row by row: each line is of the first row that
matches."""

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
    # refuter r13v MED 4: what is trusted, by a key naming a security matter
    "S2-ssh-host-key-checking": ("S2", b"StrictHostKeyChecking no"),
    "S2-ssh-known-hosts-file": ("S2", b"UserKnownHostsFile /dev/null"),
    "S2-selinux": ("S2", b"SELINUX=disabled"),
    # refuter r13v MED 4: a setting that opens a door (rows G1-G6 of policy.doors)
    "S10-workflow-pull-request-target": ("S10", b"on: pull_request_target"),
    "S10-conftest-collect-ignore": ("S10", b'collect_ignore = ["tests/test_auth.py"]'),
    "S10-conftest-collect-ignore-glob": ("S10", b'collect_ignore_glob = ["tests/*auth*"]'),
    "S10-addopts-ignore": ("S10", b"addopts = --ignore=tests/x"),
    "S10-addopts-no-plugin": ("S10", b"addopts = -p no:randomly"),
    "S10-addopts-deselect": ("S10", b"addopts = --deselect tests/test_a.py::test_login"),
    "S10-addopts-keyword": ("S10", b'addopts = -k "not auth"'),
    "S10-pyproject-dependencies": ("S10", b'dependencies = ["evil"]'),
    "S10-build-backend": ("S10", b'build-backend = "evil_build.api"'),
    "S10-build-requires": ("S10", b'requires = ["evil-helper"]'),
    "S10-install-requires": ("S10", b"install_requires = evil"),
    "S10-npmrc-registry": ("S10", b"registry=https://npm.evil.example/"),
    "S10-pip-index-url": ("S10", b"index-url = https://evil.example/simple"),
    "S10-pip-extra-index-url": ("S10", b"extra-index-url = https://evil.example/simple"),
    "S10-console-scripts": ("S10", b"console_scripts = demo = demo.cli:main"),
    "S10-project-scripts": ("S10", b"[project.scripts]"),
    "S10-pre-commit-system": ("S10", b"language: system"),
    "S10-pre-commit-entry": ("S10", b"entry: ./scripts/check.sh"),
    "S10-star-import": ("S10", b"from evil import *"),
    "S10-pytest-plugins": ("S10", b'pytest_plugins = ["evil_plugin"]'),
    "S10-pypirc-index-servers": ("S10", b"index-servers ="),
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
    # a template's settings that open no door
    "S5-addopts-report": ("S5", b"addopts = -q"),
    "S5-build-backend-setuptools": ("S5", b'build-backend = "setuptools.build_meta"'),
    "S5-dependencies-empty": ("S5", b"dependencies = []"),
    "S5-workflow-on-push": ("S5", b"on: [push, pull_request]"),
    "S5-language-python": ("S5", b"language: python"),
    "S6-ignore": ("S6", b"__pycache__/"),
    "S6-negated": ("S6", b"!keep.txt"),
    "S6-attributes": ("S6", b"* text=auto eol=lf"),
    "S6-named-file-attributes": ("S6", b"Makefile text eol=lf"),
    "S7-heading": ("S7", b"# Demo App"),
    "S7-ini-comment": ("S7", b"; the defaults"),
    "S8-sentence": ("S8", b"A small demo project."),
    "S8-setting-of-prose": ("S8", b'description = "A small demo project"'),
    "S8-two-capitalised-words": ("S8", b"OAuth tokens."),
    "S9-phrase-value": ("S9", b'"postinstall": "node evil.js"'),
    "S9-url-value": ("S9", b"homepage = https://demo.example/docs"),
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
    "an-import-is-code": (b"from evil import thing\nLEVEL = 1\n", None),
    "a-setting-named-package-is-no-import": (b"[metadata]\npackage = demo\n", ()),
    "a-door-tells": (b"[pytest]\naddopts = --deselect=tests/test_auth.py\n", None),
    "a-trivial-door-tells": (b"[global]\nfind-links = wheels\n", None),
}


@pytest.mark.parametrize(("data", "prose"), FILES.values(), ids=FILES.keys())
def test_setting_only_gives_the_prose_of_a_template(
    data: bytes, prose: tuple[bytes, ...] | None
) -> None:
    assert setting_only(data) == prose
