"""The rows of :mod:`gentle_hooks.policy.doors` (SPEC §3 "Attribution follows content", §4,
§8): a setting that selects which tests are collected, where packages come from, what a
package installs or builds with, what runs or what a workflow runs with secrets is the
writer's evidence however short (issue 13, refuter r13v MED 4), while a template's own
settings open nothing. Row by row, both ways; a statement left open on its line is decided
joined (:func:`~gentle_hooks.policy.doors.opens_door`)."""

from __future__ import annotations

import time

import pytest

from gentle_hooks.policy.doors import (
    DOOR_ROWS,
    MAX_JOINED_LINES,
    door_row,
    opens_door,
    statements,
)
from gentle_hooks.policy.wholefile import identifies_writer

ROWS: dict[str, tuple[str, bytes]] = {
    "G1-collect-ignore": ("G1", b'collect_ignore = ["tests/test_auth.py"]'),
    "G1-collect-ignore-glob": ("G1", b'collect_ignore_glob = ["tests/*auth*"]'),
    "G1-addopts-ignore": ("G1", b"addopts = --ignore=tests/x"),
    "G1-addopts-no-plugin": ("G1", b"addopts = -p no:randomly"),
    "G1-addopts-deselect": ("G1", b"addopts = --deselect tests/test_a.py::test_login"),
    "G1-addopts-keyword": ("G1", b'addopts = -k "not auth"'),
    "G1-addopts-toml-list": ("G1", b'addopts = ["-q", "--ignore=tests/auth"]'),
    "G2-npm-registry": ("G2", b"registry=https://npm.evil.example/"),
    "G2-npm-scoped-registry": ("G2", b"@acme:registry=https://npm.evil.example/"),
    "G2-pip-index-url": ("G2", b"index-url = https://evil.example/simple"),
    "G2-pip-extra-index-url": ("G2", b"extra-index-url = https://evil.example/simple"),
    "G2-find-links": ("G2", b"find-links = ./wheels"),
    "G2-uv-index-section": ("G2", b"[[tool.uv.index]]"),
    "G3-pyproject-dependencies": ("G3", b'dependencies = ["evil"]'),
    "G3-build-backend": ("G3", b'build-backend = "evil_build.api"'),
    "G3-build-requires": ("G3", b'requires = ["setuptools>=61", "evil-helper"]'),
    "G3-build-requires-url": ("G3", b'requires = ["setuptools @ https://x.example/s.zip"]'),
    "G3-backend-path": ("G3", b'backend-path = ["."]'),
    "G3-install-requires": ("G3", b"install_requires = evil"),
    "G3-npm-dependencies": ("G3", b'"devDependencies": {"evil": "^1.0.0"},'),
    "G4-console-scripts": ("G4", b"console_scripts = demo = demo.cli:main"),
    "G4-project-scripts": ("G4", b"[project.scripts]"),
    "G4-entry-points-section": ("G4", b"[options.entry_points]"),
    "G4-pre-commit-entry": ("G4", b"entry: ./scripts/check.sh"),
    "G4-pre-commit-system": ("G4", b"language: system"),
    "G4-pre-commit-local": ("G4", b"- repo: local"),
    "G4-node-options": ("G4", b"node-options = --require=./hook.js"),
    "G4-pytest-plugins": ("G4", b'pytest_plugins = ["evil_plugin"]'),
    "G5-on-pull-request-target": ("G5", b"on: pull_request_target"),
    "G5-event-list": ("G5", b"on: [push, pull_request_target]"),
    "G5-event-key": ("G5", b"pull_request_target:"),
    "G5-workflow-run": ("G5", b"workflow_run:"),
    "G6-star-import": ("G6", b"from evil import *"),
}

#: Statements no row reads: a template's settings, and a statement left open on its line.
NO_DOOR: dict[str, bytes] = {
    "addopts-report-options": b"addopts = -ra -q --strict-markers",
    "addopts-toml-report-list": b'addopts = ["-ra", "--tb=short", "--cov=demo"]',
    "testpaths": b"testpaths = tests",
    "collect-ignore-empty": b"collect_ignore = []",
    "pytest-plugins-empty": b"pytest_plugins = []",
    "dependencies-empty": b"dependencies = []",
    "npm-dependencies-empty": b'"dependencies": {},',
    "build-requires-setuptools": b'requires = ["setuptools>=61", "wheel"]',
    "build-backend-setuptools": b'build-backend = "setuptools.build_meta"',
    "build-backend-hatchling": b'build-backend = "hatchling.build"',
    "python-requires": b"python_requires = >=3.8",
    "packages-find": b"packages = find:",
    "on-push": b"on: [push, pull_request]",
    "pull-request-key": b"pull_request:",
    "language-python": b"language: python",
    "repo-url": b"- repo: https://github.com/pre-commit/pre-commit-hooks",
    "relative-star-import": b"from .core import *",
    "plain-import": b"import os",
    "metadata-section": b"[metadata]",
    "tool-pytest-section": b"[tool.pytest.ini_options]",
    "gitattributes": b"* text=auto",
    "open-list": b"requires = [",
    "open-empty-value": b"install_requires =",
}


def test_every_row_has_an_example() -> None:
    assert {row for row, _ in ROWS.values()} == {r.id for r in DOOR_ROWS}


@pytest.mark.parametrize(("row", "line"), ROWS.values(), ids=ROWS.keys())
def test_a_statement_is_of_its_first_matching_row(row: str, line: bytes) -> None:
    assert door_row(line) == row


@pytest.mark.parametrize("line", NO_DOOR.values(), ids=NO_DOOR.keys())
def test_a_templates_setting_opens_no_door(line: bytes) -> None:
    assert door_row(line) is None


FILES: dict[str, tuple[bytes, bool]] = {
    "build-requires-multiline-template": (
        b'[build-system]\nrequires = [\n    "setuptools>=61",\n    "wheel",\n]\n',
        False,
    ),
    "build-requires-multiline-other": (
        b'[build-system]\nrequires = [\n    "setuptools>=61",\n    "evil-helper",\n]\n',
        True,
    ),
    "dependencies-multiline-empty": (b"[project]\ndependencies = [\n]\n", False),
    "dependencies-multiline": (b'[project]\ndependencies = [\n    "evil",\n]\n', True),
    "setup-cfg-install-requires": (b"[options]\ninstall_requires =\n    evil\n", True),
    "setup-cfg-console-scripts": (
        b"[options.entry_points]\nconsole_scripts =\n    demo = demo.cli:main\n",
        True,
    ),
    "pytest-ini-addopts-continued": (
        b"[pytest]\naddopts =\n    -ra\n    --ignore=tests/test_auth.py\n",
        True,
    ),
    "pytest-ini-addopts-continued-report": (b"[pytest]\naddopts =\n    -ra\n    -q\n", False),
    "conftest-collect-ignore-multiline": (
        b'collect_ignore = [\n    "tests/test_auth.py",\n]\n',
        True,
    ),
    "npm-dependencies-block": (b'{\n  "dependencies": {\n    "evil": "^1.0.0"\n  }\n}\n', True),
    "workflow-on-block": (b"on:\n  pull_request_target:\n    branches: [main]\n", True),
    "workflow-on-list": (b"on:\n- push\n- pull_request_target\njobs: {}\n", True),
    "workflow-on-list-template": (b"on:\n- push\n- pull_request\njobs: {}\n", False),
    "conda-dependencies-same-indent": (b"name: demo\ndependencies:\n- evil\n", True),
    "pre-commit-local-hooks": (b"repos:\n- repo: local\n  hooks: []\n", True),
    "open-value-at-the-end": (b"[options]\ninstall_requires =\n", False),
    "empty-value-then-next-key": (b"[options]\ninstall_requires =\nzip_safe = false\n", False),
}


@pytest.mark.parametrize(("data", "opens"), FILES.values(), ids=FILES.keys())
def test_an_open_statement_is_decided_joined(data: bytes, opens: bool) -> None:
    assert opens_door(data) is opens


def test_statements_join_a_list_to_its_closing_bracket() -> None:
    data = b'a = 1\nrequires = [\n  "x",\n]\nb = 2\n'
    assert list(statements(data)) == [
        (b"a = 1", False),
        (b"requires = [", False),
        (b'requires = [ "x", ]', True),
        (b'"x",', False),
        (b"]", False),
        (b"b = 2", False),
    ]


def test_a_list_left_open_is_read_as_far_as_it_goes() -> None:
    data = b"[project]\ndependencies = [\n" + b'  "x",\n' * (MAX_JOINED_LINES + 5)
    assert opens_door(data) is True


def test_lines_joined_once_are_not_joined_again() -> None:
    """Each line is joined to one setting at most: many settings left open read the lines
    once (linear), the first deciding for those within it."""
    data = b"requires = [\n" * 3 + b"]\n"
    assert [s for s, joined in statements(data) if joined] == [
        b"requires = [ requires = [ requires = [ ]"
    ]


#: Lines shaped to make a backtracking pattern take exponential time, and a file of settings
#: each left open (each would join the next lines again): each read in well under a second.
HOSTILE: dict[str, bytes] = {
    "requirement-of-many-bounds": b'requires = ["a' + b" = b" * 40 + b' !"]\n',
    "camel-case-key-of-capitals": b"Ab" + b"A" * 40 + b"! x\n" + b"Ab" + b"A" * 40 + b" x!\n",
    "settings-left-open": b"dependencies = [\n" * 100_000,
    "empty-values-nested": b"requires =\n" + b"  requires =\n" * 100_000,
}


@pytest.mark.parametrize("data", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_content_is_read_in_linear_time(data: bytes) -> None:
    start = time.monotonic()
    identifies_writer(data)
    assert time.monotonic() - start < 5
