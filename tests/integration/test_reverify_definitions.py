"""``gentle-hook gate --range A..B --reverify`` applies the rule the verifier and the spot
check apply (row C1-own; issue 18): a claimed command that runs what the commit itself
defines — a ``pytest.py`` it adds in the runner's place, a Makefile target it rewrites, a
pytest plugin it changes — is not re-run and does not count, so a commit whose only claim
is such a command blocks, naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, git, write

NOTES = "refs/notes/gentle-hooks"
FAKE = 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n'
#: A plugin that turns every failed test into a pass.
PASSING = (
    "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n"
    "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"
)
BROKEN = "def add(a, b):\n    return a - b\n"


def _claim(repo: Path, commit: str, command: str) -> None:
    """The note a writer's tools would leave: candidate, writer, a receipt of ``command``
    (exit 0) and an agreeing spot check of it."""
    from gentle_hooks.values.candidate import candidate_identity

    tree = git(repo, "rev-parse", f"{commit}^{{tree}}").strip()
    base_tree = git(repo, "rev-parse", f"{commit}~1^{{tree}}").strip()
    ident = candidate_identity(base_tree, tree)
    claim = {"identity": ident, "command": command}
    lines: list[dict[str, object]] = [
        {"kind": "candidate", "commit": commit, "identity": ident, "base_tree": base_tree},
        {"kind": "writer", "model": "o4-mini", "effort": "low"},
        {"kind": "receipt", **claim, "observed": "2 passed", "exit_code": 0},
        {
            "kind": "spot_check",
            **claim,
            "check": "rerun",
            "reported_exit": 0,
            "observed_exit": 0,
            "agreed": True,
            "counts": True,
        },
    ]
    lines[0]["tree"] = tree
    body = "\n".join(json.dumps({"v": 1, **x}, sort_keys=True) for x in lines) + "\n"
    git(repo, "notes", f"--ref={NOTES}", "append", "-m", body, commit)


@pytest.mark.parametrize(
    ("before", "files", "command", "named"),
    [
        ({}, {"pytest.py": FAKE}, "python3 -m pytest -q", "pytest.py"),
        (
            {"Makefile": "test:\n\tpython3 -m pytest -q\n"},
            {"Makefile": "test:\n\t@echo 1 passed\n"},
            "make test",
            "Makefile",
        ),
        (
            {"tests/helpers.py": "", "tests/test_app.py": "pytest_plugins = ['helpers']\n"},
            {"tests/helpers.py": PASSING},
            "PYTHONPATH=tests python3 -m pytest -q tests",
            "tests/helpers.py",
        ),
    ],
    ids=["runner-shadow", "make-target", "unchanged-module-plugin"],
)
def test_a_claim_the_commit_defines_is_not_re_run_and_blocks(
    repo: Path, before: dict[str, str], files: dict[str, str], command: str, named: str
) -> None:
    for path, text in before.items():
        old = repo / path
        write(old, (old.read_text() if old.exists() else "") + text)
    commit_all(repo, "the base's checks")
    write(repo / "src" / "app.py", BROKEN)
    for path, text in files.items():
        write(repo / path, text)
    head = commit_all(repo, "writer")
    _claim(repo, head, command)
    proc = gh(repo, "gate", "--range", "HEAD~1..HEAD", "--reverify", "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (commit,) = json.loads(proc.stdout)["commits"]
    assert commit["blocked"], commit
    assert commit["reverify"] == [
        f"not re-run, not counted: {command!r} runs what the commit itself defines ({named}), "
        "so its re-run would be the change's own word",
        "no claimed spot check could be re-verified: blocked",
    ]


def test_a_claim_the_commit_does_not_define_is_re_run(repo: Path) -> None:
    """The change to ``src/app.py`` is the artifact: the claimed pytest run is re-run and
    agrees."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    head = commit_all(repo, "writer")
    _claim(repo, head, "python3 -m pytest -q")
    proc = gh(repo, "gate", "--range", "HEAD~1..HEAD", "--reverify", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (commit,) = json.loads(proc.stdout)["commits"]
    assert commit["reverify"] == ["re-run agrees: 'python3 -m pytest -q' exit 0"], commit
