"""End-to-end fixtures: installed hooks, real ``git commit`` and ``git push`` to a bare remote.

Every test gets a *world*: a bare remote, a clone of it with one pushed commit, and the
hooks installed one of two ways (the ``installer`` parameter):

* ``pre-commit``: ``pre-commit install -t pre-commit -t pre-push -t post-commit -t
  post-rewrite`` with a ``.pre-commit-config.yaml`` whose ``repo:`` is a snapshot of this
  checkout (its committed and uncommitted files, committed in a temporary repository) at that
  snapshot's commit. The framework builds its hook environment from it once per session, in a
  session-wide ``PRE_COMMIT_HOME``;
* ``gentle-hook``: ``gentle-hook install`` (the plain git hooks of this package).

The writer/parent workflow runs the real CLI (``python -m gentle_hooks``); nothing about git is
mocked. Assertions read the exit code and the ``gentle-hooks:`` lines the hooks print.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from bench.snapshot import snapshot_checkout
from tests.conftest import PASSING_VERDICT, verdict_file

CHECKOUT = Path(__file__).resolve().parents[2]
INSTALLERS = ("pre-commit", "gentle-hook")
#: The hook types installed through the framework.
PRE_COMMIT_TYPES = ("pre-commit", "pre-push", "post-commit", "post-rewrite")
#: Every hook id published in .pre-commit-hooks.yaml, as a user's config lists them.
HOOK_IDS = (
    "gentle-hooks-commit-gate",
    "gentle-hooks-commit-msg-gate",
    "gentle-hooks-push-gate",
    "gentle-hooks-prepare-commit-msg",
    "gentle-hooks-post-commit",
    "gentle-hooks-post-rewrite",
)
#: The program of :data:`CHECK`: compile every source, failing on a syntax error (it leaves
#: ``src/__pycache__/``). A program of its own: a receipt of ``python -m compileall`` alone
#: is a byte-compile only (row N-compile) and counts as no self-verification.
CHECK_CODE = "import compileall, sys; sys.exit(not compileall.compile_dir('src', quiet=1))"
#: The command the writer reports and the parent re-runs.
CHECK = (sys.executable, "-c", CHECK_CODE)
PREFIX = "gentle-hooks: "
OVERRIDE_LINE = (
    "gentle-hooks: note: to let it through on purpose, run the same git command again with "
    "GENTLE_HOOKS_SKIP set to the reason in its environment (recorded: who, when, which "
    "candidate, why)"
)


def named_brief(work: Path, said: Sequence[str]) -> Path:
    """The brief file a block's ``write:`` line names: this worktree's
    ``.git/gentle-hooks/brief-<first 12 hex digits of the candidate's identity>.json``,
    outside the work tree and the candidate's own (issue 18)."""
    written = [ln.split("write: ", 1)[1] for ln in said if ln.startswith("gentle-hooks:   write: ")]
    assert len(written) == 1, said
    path = Path(written[0])
    assert path.parent == work / ".git" / "gentle-hooks", path
    assert path.name.startswith("brief-") and path.name.endswith(".json"), path
    assert len(path.name) == len("brief-.json") + 12 and not path.name[6:18].strip(
        "0123456789abcdef"
    ), path
    return path


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(extra)
    return env


def _identity_env(home: Path) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    return _clean_env(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="snapshot",
        GIT_AUTHOR_EMAIL="snapshot@example.com",
        GIT_COMMITTER_NAME="snapshot",
        GIT_COMMITTER_EMAIL="snapshot@example.com",
    )


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout as a pre-commit hook repository: (path, commit)
    (:func:`bench.snapshot.snapshot_checkout`), so the tests exercise the code as it is now.
    """
    dest = tmp_path_factory.mktemp("hook-repo")
    env = _identity_env(dest.parent / "snapshot-home")
    return dest, snapshot_checkout(CHECKOUT, dest, env)


def pre_commit_config(hook_repo: tuple[Path, str]) -> str:
    """A ``.pre-commit-config.yaml`` that takes every published hook from ``hook_repo``."""
    path, sha = hook_repo
    hooks = "".join(f"      - id: {h}\n" for h in HOOK_IDS)
    return f"repos:\n  - repo: {path}\n    rev: {sha}\n    hooks:\n{hooks}"


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory, hook_repo: tuple[Path, str]) -> Path:
    """A ``PRE_COMMIT_HOME`` shared by the session, its hook environment built once here."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    scratch = tmp_path_factory.mktemp("pre-commit-scratch")
    env = _identity_env(scratch.parent / "scratch-home")
    (scratch / ".pre-commit-config.yaml").write_text(pre_commit_config(hook_repo))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "config"]):
        subprocess.run(["git", *args], cwd=scratch, env=env, check=True, capture_output=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install-hooks"],
        cwd=scratch,
        env={**env, "PRE_COMMIT_HOME": str(home)},
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert proc.returncode == 0, f"pre-commit install-hooks failed:\n{proc.stdout}\n{proc.stderr}"
    return home


class Run:
    """One finished command: exit code and output."""

    def __init__(self, proc: subprocess.CompletedProcess[bytes]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout.decode("utf-8", "replace")
        self.err = proc.stderr.decode("utf-8", "replace")

    @property
    def lines(self) -> list[str]:
        """stdout then stderr lines."""
        return self.out.splitlines() + self.err.splitlines()

    @property
    def said(self) -> list[str]:
        """The lines gentle-hooks printed (``gentle-hooks: ...``), wherever they went."""
        return [line for line in self.lines if line.startswith(PREFIX)]

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


class World:
    """A bare remote, a clone with hooks installed, and the commands a test runs there."""

    def __init__(self, base: Path, installer: str) -> None:
        self.base = base
        self.installer = installer
        self.remote = base / "remote.git"
        self.work = base / "work"

    # -- running things ---------------------------------------------------------------------

    def run(
        self,
        argv: Sequence[str],
        *,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        input: bytes | None = None,
    ) -> Run:
        proc = subprocess.run(
            list(argv),
            cwd=cwd or self.work,
            env={**os.environ, **(env or {})},
            input=input,
            capture_output=True,
            check=False,
            timeout=300,
        )
        return Run(proc)

    def git(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
        """``git ARGS`` (hooks run); never raises."""
        return self.run(["git", *args], cwd=cwd, env=env)

    def ok(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
        """``git ARGS``, failing the test unless it exits 0; its stdout."""
        r = self.git(*args, cwd=cwd, env=env)
        assert r.code == 0, f"git {' '.join(args)}: {r}"
        return r.out

    def person_commits(self, *args: str, cwd: Path | None = None) -> Run:
        """``git commit ARGS`` with the hooks, as a person: fails the test unless it exits 0
        with no BLOCKED line and the new commit carries no ``Gentle-Writer`` trailer; the run."""
        r = self.git("commit", *args, cwd=cwd)
        assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r
        assert "Gentle-Writer" not in self.ok("log", "-1", "--format=%B", cwd=cwd)
        return r

    def gh(
        self,
        *args: str,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        input: bytes | None = None,
    ) -> Run:
        """The real CLI, ``gentle-hook ARGS``."""
        return self.run(
            [sys.executable, "-m", "gentle_hooks", *args], cwd=cwd, env=env, input=input
        )

    def rev(self, expr: str, cwd: Path | None = None) -> str:
        return self.ok("rev-parse", expr, cwd=cwd).strip()

    def write(self, rel: str, text: str, cwd: Path | None = None) -> Path:
        path = (cwd or self.work) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def serve(self, files: dict[str, str]) -> World:
        """The server gate installed on the remote and notes shared with it; ``files``
        (root-relative path: text) committed by a human and pushed to ``main`` (none: no
        commit)."""
        assert self.gh("install", "--server", cwd=self.remote).code == 0
        assert self.gh("install", "--share", "origin").code == 0
        if not files:
            return self
        self.human_base(files)
        self.ok("push", "-q", "origin", "main")
        return self

    def ci_clone(self, where: Path) -> Path:
        """A fresh clone of the remote at ``where / "ci"`` with every notes ref fetched, as a
        CI job checks out; its path."""
        ci = where / "ci"
        self.ok("clone", "-q", str(self.remote), str(ci), cwd=where)
        self.ok("fetch", "-q", "origin", "+refs/notes/*:refs/notes/*", cwd=ci)
        return ci

    def human_base(self, files: dict[str, str]) -> World:
        """``files`` (root-relative path: text) written and committed by a human as
        ``human: base``; not pushed."""
        for rel, text in files.items():
            self.write(rel, text)
        self.ok("add", "--", *files)
        self.ok("commit", "-qm", "human: base")
        return self

    # -- the writer / parent workflow -------------------------------------------------------

    def delegate(
        self, rel: str = "src/app.py", text: str | None = None, cwd: Path | None = None
    ) -> None:
        """A writer (o4-mini, low) changes ``rel``, records the work and reports ``CHECK``."""
        where = cwd or self.work
        if text is not None:
            self.write(rel, text, cwd=where)
        r = self.gh("record", "--model", "o4-mini", "--effort", "low", cwd=where)
        assert r.code == 0, r
        self.report(cwd=where)

    def unverified(self, text: str, message: str = "writer: unverified") -> str:
        """A delegated commit of ``src/app.py`` nobody spot-checked, made with ``--no-verify``
        (the post-commit hook still records it); its id."""
        self.delegate(text=text)
        self.ok("add", "-A")
        self.ok("commit", "-q", "--no-verify", "-m", message)
        return self.rev("HEAD")

    def report(self, *flags: str, cwd: Path | None = None) -> None:
        """The writer reports ``CHECK`` (``receipt run``) for the bound candidate."""
        r = self.gh("receipt", "run", *flags, "--", *CHECK, cwd=cwd)
        assert r.code == 0, r

    def spot_check(self, *flags: str, cwd: Path | None = None) -> None:
        """The parent re-runs the writer's report; it must agree."""
        r = self.gh("spot-check", *flags, cwd=cwd)
        assert r.code == 0, r
        assert r.err.splitlines()[-1].endswith(": agreed"), r

    def escalate(self, cwd: Path | None = None) -> None:
        r = self.gh("escalate", "--item", "security", "--reason", "token checks", cwd=cwd)
        assert r.code == 0, r

    def verdict(self, *flags: str, data: dict[str, object] | None = None) -> Run:
        """``verdict add FLAGS`` of ``data`` (default :data:`PASSING_VERDICT`) bound to the
        candidate those flags name, as ``assess --json`` resolves it."""
        verdict = dict(data or PASSING_VERDICT)
        if "candidate" not in verdict:
            selector = {"--committed": "--committed-only"}
            assessed = self.gh("assess", "--json", *(selector.get(f, f) for f in flags))
            cand = json.loads(assessed.out)["candidate"]
            verdict["candidate"] = {
                "identity": cand["identity"],
                "baseTree": cand["base_tree"],
                "tree": cand["tree"],
            }
        path = verdict_file(self.base, verdict)
        return self.gh("verdict", "add", *flags, path)

    def verified(self, *flags: str) -> Run:
        """``verify run FLAGS`` of :data:`TOKEN_BRIEF` (written outside the work tree), then
        the ``verdict add`` it prints, run exactly as printed; that command's result."""
        path = self.base / "token-brief.json"
        path.write_text(json.dumps(TOKEN_BRIEF), encoding="utf-8")
        ran = self.gh("verify", "run", *flags, "--brief", str(path))
        assert ran.code == 0, ran
        last = ran.out.splitlines()[-1]
        assert last.startswith("run: "), ran
        return self.gh(*shlex.split(last.removeprefix("run: "))[1:])

    # -- what the world holds ---------------------------------------------------------------

    def ledger(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        """Rows of a query on the ledger (``<common dir>/gentle-hooks/ledger.sqlite3``)."""
        conn = sqlite3.connect(self.work / ".git" / "gentle-hooks" / "ledger.sqlite3")
        try:
            return list(conn.execute(sql, tuple(params)))
        finally:
            conn.close()

    def remote_ref(self, ref: str) -> str | None:
        r = self.git("rev-parse", "--verify", "-q", ref, cwd=self.remote)
        return r.out.strip() if r.code == 0 else None

    def assert_clean(self, cwd: Path | None = None) -> None:
        """``git status`` shows nothing and ``git fsck`` finds nothing."""
        assert self.ok("status", "--porcelain", cwd=cwd) == ""
        fsck = self.git("fsck", "--no-progress", "--no-dangling", cwd=cwd)
        assert (fsck.code, fsck.out, fsck.err) == (0, "", "")


#: A verifier's brief for a writer's ``check_token`` in ``src/app.py`` (the base has none):
#: a criterion and a negative test whose outcomes depend on it, and a full suite.
TOKEN_BRIEF: dict[str, object] = {
    "id": "tokens-1",
    "objective": "check_token accepts a token and refuses an empty one",
    "outputFormat": "a patch to src/app.py",
    "boundaries": ["src/app.py only"],
    "stopCondition": "the criteria pass",
    "readOnly": False,
    "sideEffects": ["write-repo"],
    "successCriteria": [
        {
            "criterion": "a token is accepted, an empty one refused",
            "run": "cd src && python3 -c \"import app; assert app.check_token('tok-1')"
            " and not app.check_token('')\"",
        }
    ],
    "negativeTests": [
        {
            "criterion": "the module has no token check",
            "run": "cd src && python3 -c \"import app; assert not hasattr(app, 'check_token')\"",
        }
    ],
    "fullSuite": "python3 -m unittest discover -s tests",
}


INITIAL_FILES = {
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
    "README.md": "# demo\n",
    "src/app.py": "def add(a, b):\n    return a + b\n",
    # the project's test suite (a full suite must run a test runner that runs tests)
    "tests/test_app.py": "import sys\nimport unittest\n\nsys.path.insert(0, 'src')\n\n\n"
    "class AppTest(unittest.TestCase):\n    def test_imports(self):\n"
    "        import app  # noqa: F401\n",
}


def build_world(
    base: Path, installer: str, hook_repo: tuple[Path, str] | None, object_format: str = "sha1"
) -> World:
    """Create the remote and the clone, push ``main``, install the hooks."""
    w = World(base, installer)
    fmt = f"--object-format={object_format}"
    w.ok("init", "-q", "--bare", fmt, str(w.remote), cwd=base)
    w.work.mkdir()
    w.ok("init", "-q", fmt)
    for rel, text in INITIAL_FILES.items():
        w.write(rel, text)
    if installer == "pre-commit":
        assert hook_repo is not None
        w.write(".pre-commit-config.yaml", pre_commit_config(hook_repo))
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "initial")
    w.ok("remote", "add", "origin", str(w.remote))
    w.ok("push", "-q", "-u", "origin", "main")
    w.ok("remote", "set-head", "origin", "main")
    if installer == "pre-commit":
        types = [a for t in PRE_COMMIT_TYPES for a in ("-t", t)]
        r = w.run([sys.executable, "-m", "pre_commit", "install", *types])
    else:
        r = w.gh("install")
    assert r.code == 0, r
    return w


@pytest.fixture(params=INSTALLERS)
def installer(request: pytest.FixtureRequest) -> str:
    """How the hooks are installed: ``pre-commit`` or ``gentle-hook``."""
    return str(request.param)


@pytest.fixture
def world(
    installer: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[World]:
    """A world whose hooks were installed by ``installer``."""
    hook_repo = None
    if installer == "pre-commit":
        monkeypatch.setenv("PRE_COMMIT_HOME", str(request.getfixturevalue("pre_commit_home")))
        hook_repo = request.getfixturevalue("hook_repo")
    yield build_world(tmp_path, installer, hook_repo)


@pytest.fixture
def native(tmp_path: Path) -> World:
    """A world with ``gentle-hook install`` only (the native hooks' own behaviour)."""
    return build_world(tmp_path, "gentle-hook", None)


def paste_first_way(
    world: World,
    said: list[str],
    where: Path,
    test: str | None,
    *,
    brief: object = None,
    follow_verify: bool = False,
) -> list[str]:
    """Run the first way of a block literally with ``sh -c`` in ``where``: every
    ``run:``/``prefix:`` line up to an ``otherwise`` line, then those after a ``then,``
    line; each must exit 0. The commands run (at least one).

    ``test``: the words a ``prefix:`` line is completed with (``None``: a prefix line fails
    the test, nothing is left for the user to complete). ``brief``: what a ``write:`` line's
    file gets, as JSON (``None``: write lines are not looked at). ``follow_verify``: a
    ``verify run`` is followed by the ``run:`` line it prints last (the verdict add)."""
    ran: list[str] = []
    inside = True
    for line in said:
        words = line.removeprefix("gentle-hooks:").strip()
        if words.startswith("otherwise"):
            inside = False
        elif words.startswith("then, "):
            inside = True
        elif inside and brief is not None and words.startswith("write: "):
            Path(words.removeprefix("write: ")).write_text(json.dumps(brief), encoding="utf-8")
        elif inside and words.startswith(("run: ", "prefix: ")):
            label, cmd = words.split(": ", 1)
            if label == "prefix":
                assert test is not None, said  # nothing left for the user to complete
                cmd = f"{cmd} {test}"
            done = world.run(["sh", "-c", cmd], cwd=where)
            assert done.code == 0, (cmd, done)
            ran.append(cmd)
            if follow_verify and " verify run " in f" {cmd}":
                nxt = done.out.splitlines()[-1]
                assert nxt.startswith("run: "), done
                added = world.run(["sh", "-c", nxt.removeprefix("run: ")], cwd=where)
                assert added.code == 0, (nxt, added)
                ran.append(nxt.removeprefix("run: "))
    assert ran, said
    return ran


def blocked_at_push(w: World) -> None:
    """The push of ``w``'s branch to ``origin`` is blocked by the local push gate, with no
    ``human:`` way out printed (the content is the writer's), and refused by the server gate
    with hooks off: the remote's branch does not get ``HEAD``."""
    head = w.rev("HEAD")
    blocked = w.git("push", "origin", "HEAD")
    assert blocked.code == 1 and any("BLOCKED commit" in s for s in blocked.said), blocked
    assert not any("  human: " in s for s in blocked.said), blocked
    served = w.git("push", "--no-verify", "origin", "HEAD")
    assert served.code != 0, served
    assert w.remote_ref(w.ok("rev-parse", "--abbrev-ref", "HEAD").strip()) != head
