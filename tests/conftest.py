"""Shared fixtures: an isolated git environment for every test, and real repositories.

Every test gets its own HOME, a private global git config (author identity, default
branch ``main``), no system config, and none of the variables a git hook, an agent runtime
or a user's shell could leak in (``GIT_DIR``, ``GENTLE_*``, ``PRE_COMMIT_*``, ``CLAUDECODE``).
Repositories are built with the real git CLI; nothing about git is mocked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from gentle_hooks.policy.delegation import RUNTIME_ENV, RUNTIME_PATH, on_path
from tests import light_python

# Timing is measured in bench/, never in tests: a shared CI machine under load must not turn
# a slow example into a failure (hypothesis' default deadline is 200 ms per example).
settings.register_profile(
    "gentle-hooks", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("gentle-hooks")

# The user these tests play installed the CLI: its scripts directory is on PATH, as the
# commands a block prints assume (they name it by its absolute path otherwise).
_BIN = os.path.dirname(sys.executable)
if _BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _BIN + os.pathsep + os.environ.get("PATH", "")

#: The light interpreter's scripts directory (:mod:`tests.light_python`), first on PATH
#: once the session's fixture made it; empty before.
_LIGHT: list[str] = []


@pytest.fixture(scope="session", autouse=True)
def light_interpreter(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Put a Python whose only packages are pytest and its requirements first on PATH for
    the session (one per xdist worker): the ``python3 -m pytest`` a test's verify room or
    spot check runs costs 0.4 s instead of 2.2 s without our dev tools' pytest plugins.
    Returns its scripts directory."""
    bin_dir = str(light_python.make(tmp_path_factory.getbasetemp() / "light-python"))
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    _LIGHT.append(bin_dir)
    return bin_dir


def user_path(rest: str | None = None) -> str:
    """The PATH of the user these tests play: the light interpreter's scripts
    (``python3``, ``pytest``), this interpreter's (``gentle-hook``, ``pre-commit``), then
    ``rest`` (default: this process's PATH)."""
    rest = os.environ.get("PATH", "") if rest is None else rest
    return os.pathsep.join([*_LIGHT, _BIN, rest])


#: ``CLAUDE_EFFORT``/``CLAUDE_CODE_EFFORT_LEVEL`` and ``AIDER_`` options are read as a
#: runtime's writer effort and aider's commit options: a session's own must not leak in.
#: ``VIRTUAL_ENV`` marks an activated environment, whose PATH a runtime's shell lacks.
_LEAKY_PREFIXES = (
    "GIT_",
    "GENTLE_",
    "PRE_COMMIT",
    "CLAUDE_EFFORT",
    "CLAUDE_CODE_EFFORT",
    "CLAUDE_PROJECT_DIR",
    "AIDER_",
    "VIRTUAL_ENV",
    # a CI's own names the range gate reads (the base repository a fork's notes go to)
    "GITHUB_",
    "GITLAB_CI",
    "CI_MERGE_REQUEST_PROJECT_URL",
    "CI_PROJECT_URL",
)
#: Agent runtime markers: a test sets them on purpose.
_RUNTIME_MARKERS = tuple(name for name, _, _ in RUNTIME_ENV)


#: The test files the ``slow`` marker covers (one path per line below the repository's top, ``#``
#: comments): outside the default run (README "Quick start"), run with ``-m slow``.
_SLOW_FILES = Path(__file__).with_name("slow_files.txt")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of a file :data:`_SLOW_FILES` names ``slow``; a listed file that no
    longer exists is an error (the list would silently shrink otherwise)."""
    top = Path(__file__).parent.parent
    names = [
        line.strip()
        for line in _SLOW_FILES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    missing = [n for n in names if not (top / n).is_file()]
    if missing:
        raise pytest.UsageError(f"{_SLOW_FILES.name} names files that do not exist: {missing}")
    slow = frozenset(names)
    for item in items:
        if item.nodeid.split("::", 1)[0] in slow:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Isolate HOME, git's global/system config, author identity and default branch."""
    home = tmp_path_factory.mktemp("home")
    for name in list(os.environ):
        if name.startswith(_LEAKY_PREFIXES) or name in _RUNTIME_MARKERS:
            monkeypatch.delenv(name, raising=False)
    # a runtime's tool directory on PATH is a runtime marker too (a test run inside Pi)
    entries = os.environ.get("PATH", "").split(":")
    kept = [e for e in entries if not any(on_path(e, end) for end, _ in RUNTIME_PATH)]
    if kept != entries:
        monkeypatch.setenv("PATH", ":".join(kept))
    gitconfig = home / ".gitconfig"
    gitconfig.write_text(
        "[init]\n\tdefaultBranch = main\n"
        "[user]\n\tname = Test Author\n\temail = author@example.com\n"
        "[commit]\n\tgpgsign = false\n"
        "[core]\n\tautocrlf = false\n"
        '[protocol "file"]\n\tallow = always\n'
        "[advice]\n\tdetachedHead = false\n",
        encoding="utf-8",
    )
    # the test runner's directory, not the one a test runs git in: a shell sets PWD where
    # it runs (a test's ``sh -c`` line too); a subprocess given ``cwd=`` leaves a stale one,
    # which a hook would take for the user typing ``git -C`` from outside (hooks.elsewhere)
    monkeypatch.delenv("PWD", raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    # a session above a repository links its background windows there (agent_window_links)
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Committer")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "committer@example.com")
    return home


def run_git(cwd: Path | str, *args: str) -> str:
    """Run ``git <args>`` in ``cwd``; return stdout (stripped); fail the test on error."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc.stdout.strip()


@pytest.fixture(name="git")
def git_fixture() -> Callable[..., str]:
    """``git(cwd, *args) -> stdout``: the git CLI, failing the test on a non-zero exit."""
    return run_git


def git(
    cwd: Path | str, *args: str, input: bytes | None = None, env: dict[str, str] | None = None
) -> str:
    """Run git in ``cwd``; return stdout unstripped (surrogateescape-decoded), failing the
    test on error. For tests that import it; fixtures use ``run_git``."""
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def paste(line: str, cwd: Path | str) -> subprocess.CompletedProcess[str]:
    """Run a printed command line as printed (``sh -c``) in ``cwd``, with this
    interpreter's scripts (``gentle-hook``) on PATH behind the light interpreter's
    (``python3``, ``pytest``); never raises."""
    path = user_path()
    return subprocess.run(
        ["sh", "-c", line],
        cwd=cwd,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def gh(
    cwd: Path | str, *args: str, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI (``python -m gentle_hooks``) in ``cwd``; never raises."""
    return subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        input=input,
        check=False,
        timeout=120,
    )


def write(path: Path, content: str | bytes, mode: int | None = None) -> Path:
    """Write a file (creating parents); optionally chmod it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    if mode is not None:
        path.chmod(mode)
    return path


def commit_all(repo: Path, message: str = "change") -> str:
    """Stage everything and commit; return the new commit id."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def trust_codex_hook(
    codex_home: Path,
    hooks_file: Path,
    group: int = 0,
    handler: int = 0,
    enabled: bool = True,
    events: tuple[str, ...] = ("post_tool_use", "pre_tool_use", "stop"),
) -> Path:
    """Record, in ``codex_home/config.toml``, what Codex writes when the user trusts the hook
    at (``group``, ``handler``) of each of ``events`` (all of ours by default) in
    ``hooks_file`` with ``/hooks``: a ``[hooks.state."<file>:post_tool_use:<group>:<handler>"]``
    table with ``trusted_hash`` and ``enabled`` (developers.openai.com/codex/hooks, "Review
    and trust hooks"; the key and fields as Codex writes them, e.g.
    ``/Users/exampleperson/.codex/hooks.json:session_start:0:0`` with ``trusted_hash =
    "sha256:<hex>"`` and ``enabled = true``)."""
    config = codex_home / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    before = config.read_text() if config.exists() else ""
    for event in events:
        key = f"{hooks_file}:{event}:{group}:{handler}"
        before += (
            f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:{"0" * 64}"\n'
            f"enabled = {'true' if enabled else 'false'}\n"
        )
    config.write_text(before)
    return config


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with one commit on ``main``: README.md, ``src/app.py`` and a pytest test
    ``tests/test_app.py``; ``.gitignore`` keeps pytest's and Python's caches out."""
    root = tmp_path / "repo"
    root.mkdir()
    run_git(root, "init", "-q")
    (root / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", encoding="utf-8")
    (root / "README.md").write_text("# demo\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text(
        "import sys\nfrom pathlib import Path\n\n"
        "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'src'))\n\n"
        "from app import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n",
        encoding="utf-8",
    )
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "initial")
    return root


class CliResult:
    """What one ``python -m gentle_hooks`` run produced."""

    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    @property
    def lines(self) -> list[str]:
        """stdout and stderr lines together (stdout first)."""
        return self.out.splitlines() + self.err.splitlines()

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out!r}, err={self.err!r})"


def run_cli(
    *args: str, cwd: Path | str, env: dict[str, str] | None = None, input: str | None = None
) -> CliResult:
    """Run the real CLI (``python -m gentle_hooks ARGS``) in ``cwd``."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        input=input,
        check=False,
        timeout=120,
    )
    return CliResult(proc)


@pytest.fixture
def cli() -> Callable[..., CliResult]:
    """``cli(*args, cwd=..., env=None, input=None) -> CliResult``: the real CLI."""
    return run_cli


#: A DelegationVerdict the gate accepts (seed 001): pass, full suite, evidence, a negative test.
PASSING_VERDICT: dict[str, object] = {
    "briefId": "brief-1",
    "status": "pass",
    "criteria": [
        {
            "criterion": "tokens are validated before use",
            "evidence": "re-ran pytest tests/test_app.py: 1 passed; read src/app.py lines 1-2",
        }
    ],
    "negativeTestsRun": 1,
    "fullSuiteRun": True,
    "artifactMutating": True,
    "summary": "re-checked the criterion against the artifact; the full suite passed",
}


def bound_verdict(cwd: Path | str, data: dict[str, object], *flags: str) -> dict[str, object]:
    """``data`` naming the candidate ``verdict add FLAGS`` binds to in ``cwd`` (``candidate``:
    identity, baseTree, tree, as ``assess --json`` resolves them); ``verdict add`` refuses a
    verdict that names none."""
    selector = {"--committed": "--committed-only"}
    proc = gh(cwd, "assess", "--json", *(selector.get(f, f) for f in flags))
    assert proc.returncode == 0, proc.stderr
    cand = json.loads(proc.stdout)["candidate"]
    ref = {"identity": cand["identity"], "baseTree": cand["base_tree"], "tree": cand["tree"]}
    return {**data, "candidate": ref}


#: ``verification.require_observed = false``: the repository's explicit opt-out (README
#: "Opting out"), under which a schema-valid verdict no ``verify run`` observed counts.
OPT_OUT = "[verification]\nrequire_observed = false\n"


def opt_out_of_observed(repo: Path) -> str:
    """Commit :data:`OPT_OUT` as ``.gentle-hooks.toml`` and push it (:func:`share`: an
    opt-out counts only from the candidate's base commit, once a remote holds it); the new
    commit id. For tests of the verdict rules (V1-V3) and of how an accepted verdict
    travels, on verdicts written by hand; by default such a verdict is never accepted
    (``tests/integration/test_verify.py``)."""
    write(repo / ".gentle-hooks.toml", OPT_OUT)
    commit = commit_all(repo, "config: accept verdicts no verify run observed")
    share(repo)
    return commit


def share(repo: Path) -> None:
    """Push ``HEAD`` to a bare remote named ``shared`` (created beside ``repo`` the first
    time) as its branch ``config``: a remote-tracking ref then reaches it, so settings
    committed there count (README "Opting out"), and the base ref chain (``origin/*``,
    ``main``, ``master``) is as it was."""
    bare = repo.parent / f"{repo.name}-shared.git"
    if not bare.exists():
        git(repo.parent, "init", "-q", "--bare", str(bare))
        git(repo, "remote", "add", "shared", str(bare))
    git(repo, "push", "-q", "--no-verify", "shared", "+HEAD:refs/heads/config")


def verdict_file(directory: Path, data: dict[str, object], name: str = "verdict.json") -> str:
    """Write ``data`` as a verdict JSON file in ``directory``; return its path."""
    path = directory / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)
