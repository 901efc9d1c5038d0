"""Files a test runner or the interpreter loads by name (gentle_hooks.policy.runnerfiles):
an ignored one sends the spot check's re-run to a checkout of the candidate (SPEC §5)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.runnerfiles import is_runner_loaded

LOADED = [
    "conftest.py",
    "tests/conftest.py",
    "pytest.ini",
    "tox.ini",
    "setup.cfg",
    "pyproject.toml",
    "sitecustomize.py",
    "src/usercustomize.pyc",
    "lib/site/evil.pth",
    "jest.config.js",
    "vitest.config.ts",
    ".mocharc.yml",
    "package.json",
    "GNUmakefile",
    "rules.mk",
    "noxfile.py",
    "tests/test_extra.py",
    "pkg/extra_test.py",
]
NOT_LOADED = ["app.py", "notes.txt", "build.log", "src/app.pyc", "coverage.xml", "README.md"]


@pytest.mark.parametrize("path", LOADED)
def test_a_file_a_runner_loads_by_name(path: str) -> None:
    assert is_runner_loaded(path)


@pytest.mark.parametrize("path", NOT_LOADED)
def test_other_files_are_not(path: str) -> None:
    assert not is_runner_loaded(path)
