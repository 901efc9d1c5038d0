"""Hostile values in every environment variable gentle-hooks or its hooks read (SPEC §7
"Exit codes"; docs/robustness.md): a result, or one line and exit 2 — never exit 3, a
traceback or a hang.

Hypothesis draws one to three variables — every ``GENTLE_*`` setting and override, the git
variables the hooks read (``GIT_DIR``, ``GIT_INDEX_FILE``, ``GIT_CONFIG_*``, identities,
...), the agent runtimes' markers (``CLAUDECODE``, ``CODEX_SANDBOX``, ...) and the pre-commit
framework's — with values that are empty, not UTF-8, huge (100 kB) or binary without NUL,
and runs a hook or command of a real repository with a writer's change staged. A fixed
budget (:data:`BUDGET` examples, derandomized: the same inputs on every run).

The one documented second line: with an agent runtime detected in the environment (or
``GENTLE_HOOKS_FORMAT=json``), a hook's error line is followed by its JSON decision object
(README "fail closed"), whose ``reason`` is that line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gentle_hooks.config.keys import ENV_KEYS
from gentle_hooks.policy.delegation import RUNTIME_ENV
from tests.fuzz import run_bounded

#: Examples per run (each is one process of the real CLI).
BUDGET = int(os.environ.get("GENTLE_ENV_FUZZ_EXAMPLES", "80"))

VARIABLES = sorted(
    {
        *ENV_KEYS,
        *(name for name, _, _ in RUNTIME_ENV),
        "GENTLE_HOOKS_FORMAT",
        "GENTLE_HOOKS_SKIP",
        "GENTLE_WRITER_EFFORT",
        "GENTLE_RDD",
        "GENTLE_AI",
        "GENTLE_HOOK_PYTHON",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_COMMON_DIR",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_QUARANTINE_PATH",
        "GIT_PREFIX",
        "GIT_NAMESPACE",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0",
        "GIT_CONFIG_VALUE_0",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_COMMITTER_DATE",
        "GIT_LITERAL_PATHSPECS",
        "GIT_GRAFT_FILE",
        "GIT_SHALLOW_FILE",
        "GIT_REPLACE_REF_BASE",
        "CODEX_HOME",
        "COPILOT_HOME",
        "GEMINI_CLI_HOME",
        "PRE_COMMIT_FROM_REF",
        "PRE_COMMIT_TO_REF",
        "PRE_COMMIT_REMOTE_NAME",
        "PRE_COMMIT_REMOTE_BRANCH",
        "PRE_COMMIT_LOCAL_BRANCH",
        "PRE_COMMIT_COMMIT_MSG_SOURCE",
        "PRE_COMMIT_COMMIT_OBJECT_NAME",
        "HOME",
        "XDG_CACHE_HOME",
    }
)

#: Bytes of one environment string at most (Linux refuses a longer one at exec).
HUGE = 100_000

VALUES = st.one_of(
    st.just(b""),
    st.binary(min_size=1, max_size=16).map(lambda b: b.replace(b"\0", b"\x01")),
    st.binary(min_size=HUGE - 10, max_size=HUGE).map(lambda b: b.replace(b"\0", b"\x01")),
    st.integers(min_value=1, max_value=4).map(lambda n: b"x" * (HUGE // n)),
    st.sampled_from(
        [
            b"\xff",
            b"caf\xe9",
            b"\xed\xa0\x80",  # a surrogate, UTF-8-encoded
            b"-1",
            b"1e999",
            b"nan",
            b"..",
            b"/",
            b"/dev/zero",
            b"/nonexistent",
            b"HEAD~999",
            b"@{-1}",
            b"a\nb",
            b"all",
            b"json",
            b"enforce",
            b"0",
        ]
    ),
)

ENVIRONMENTS = st.dictionaries(st.sampled_from(VARIABLES), VALUES, min_size=1, max_size=3)


class World:
    """A repository with a writer's change staged, a commit message file, a HEAD."""

    def __init__(self, base: Path) -> None:
        self.repo = base / "repo"
        self.message = base / "MSG"
        subprocess.run(["git", "init", "-q", str(self.repo)], capture_output=True, check=True)
        (self.repo / "app.py").write_text("def f():\n    return 1\n")
        self._run("git", "add", "-A")
        self._run("git", "-c", "user.name=f", "-c", "user.email=f@x", "commit", "-qm", "one")
        (self.repo / "app.py").write_text("def f():\n    return 2\n")
        self._run(sys.executable, "-m", "gentle_hooks", "record", "--model", "m", "--effort", "low")
        self._run("git", "add", "-A")
        self.message.write_text("subject\n")
        self.head = self._run("git", "rev-parse", "HEAD").strip()

    def _run(self, *args: str) -> str:
        return subprocess.run(
            args, cwd=self.repo, capture_output=True, text=True, check=True
        ).stdout

    def commands(self) -> list[tuple[list[str], bytes]]:
        zero = "0" * 40
        return [
            (["hook", "pre-commit"], b""),
            (
                ["hook", "pre-push", "origin", "x"],
                f"HEAD {self.head} refs/heads/x {zero}\n".encode(),
            ),
            (["hook", "commit-msg", str(self.message)], b""),
            (["hook", "prepare-commit-msg", str(self.message)], b""),
            (["hook", "post-commit"], b""),
            (["hook", "pre-receive"], f"{zero} {self.head} refs/heads/x\n".encode()),
            (["status", "--json"], b""),
            (["assess", "--json"], b""),
            (["record", "--model", "m", "--effort", "low"], b""),
        ]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("envfuzz"))


def contract(proc: subprocess.CompletedProcess[bytes]) -> None:
    """Exit 0, 1 or 2; never a traceback; UTF-8 out; exit 2 is one line on stderr, or that
    line and the JSON decision object whose reason it is (a hook under an agent runtime)."""
    err = proc.stderr.decode("utf-8")  # raises when not UTF-8
    proc.stdout.decode("utf-8")
    assert proc.returncode in (0, 1, 2), (proc.returncode, err)
    assert "Traceback" not in err and "unexpected error" not in err, err
    if proc.returncode != 2:
        return
    lines = err.strip().splitlines()
    if len(lines) == 2 and lines[1].startswith("{"):
        decision = json.loads(lines[1])
        assert decision["decision"] == "error" and decision["reason"] == lines[0], err
        return
    if len(lines) == 1 and lines[0].startswith("{"):  # GENTLE_HOOKS_FORMAT=json: the object
        assert json.loads(lines[0])["decision"] == "error", err
        return
    assert len(lines) == 1, err


@settings(
    max_examples=BUDGET,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(env=ENVIRONMENTS, pick=st.integers(min_value=0, max_value=8))
def test_hostile_environment_values_keep_the_exit_code_contract(
    world: World, env: dict[str, bytes], pick: int
) -> None:
    args, stdin = world.commands()[pick]
    full = dict(os.environb)
    full.update({k.encode(): v for k, v in env.items()})
    try:
        proc = run_bounded(args, world.repo, stdin, full)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang: {args} with {sorted(env)}")
    contract(proc)
