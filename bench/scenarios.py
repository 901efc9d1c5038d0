"""Repositories prepared for the benchmark cases: clones with hooks installed, a human's staged
change, a delegated change with its spot check, delegated commits to push to a bare remote.

Everything lives under one run directory (rebuilt each run; the generated fixtures it clones
are cached beside it). Git runs with a private global config (identity, ``gc.auto=0`` so
no benchmark commit triggers a gc) and without agent-runtime or repository variables from
the caller's environment: a human case must not look delegated because the benchmark
happens to run inside an agent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from gentle_hooks.services.install import DEFAULT_HOOK_TYPES

#: The hooks ``gentle-hook install`` places by default: the benchmark installs the same set.
HOOK_TYPES = DEFAULT_HOOK_TYPES
#: Variables that would make a human case delegated or bind git to another repository.
SCRUB_PREFIXES = ("GIT_", "GENTLE_", "PRE_COMMIT", "CODEX_")
SCRUB_NAMES = (
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "GEMINI_CLI",
    "CLINE_ACTIVE",
    "CURSOR_AGENT",
    "OPENCODE",
    "AI_AGENT",
)
GITCONFIG = """\
[user]
\tname = Bench
\temail = bench@example.com
[init]
\tdefaultBranch = main
[gc]
\tauto = 0
[maintenance]
\tauto = false
[advice]
\tdetachedHead = false
"""
AI_TRAILER = "Co-authored-by: Claude <noreply@anthropic.com>"
ZERO = "0" * 40
SCENARIOS_FILE = "scenarios.json"


#: A receipt that checks something (a file probe such as ``test -e .git`` does not count).
CHECK_REPORT = "python3 -c 'import os': exit 0"


def base_env(state_dir: str) -> dict[str, str]:
    """The benchmark's environment: the caller's, scrubbed, with a private git config."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(SCRUB_PREFIXES) and k not in SCRUB_NAMES
    }
    path = os.path.join(state_dir, "gitconfig")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(GITCONFIG)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=path)
    return env


@dataclass
class Bench:
    """The run directory, the interpreter under test and the environment every run gets."""

    root: str
    python: str
    env: dict[str, str]

    def git(self, cwd: str, *args: str, input: bytes | None = None, ok: bool = False) -> str:
        """Run git; its stdout (stripped). Raises on failure unless ``ok``."""
        proc = subprocess.run(
            ["git", *args], cwd=cwd, env=self.env, input=input, capture_output=True, check=False
        )
        if proc.returncode != 0 and not ok:
            raise RuntimeError(
                f"git {' '.join(args)} in {cwd}: {proc.stderr.decode(errors='replace').strip()}"
            )
        return proc.stdout.decode("utf-8", "surrogateescape").strip()

    def gentle(
        self, cwd: str, *args: str, env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``gentle-hook`` with the interpreter under test; raise on a non-zero exit."""
        proc = subprocess.run(
            [self.python, "-m", "gentle_hooks", *args],
            cwd=cwd,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(
                f"gentle-hook {' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()}"
            )
        return proc

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)


def fresh_dir(path: str) -> str:
    """Remove ``path`` if present and create it empty."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def clone(b: Bench, source: str, dest: str, checkout: bool = True) -> str:
    """A ``--shared`` clone (objects borrowed, nothing copied)."""
    args = ["clone", "-q", "--shared", *([] if checkout else ["--no-checkout"]), source, dest]
    b.git(b.root, *args)
    return dest


def sh_hooks(directory: str, types: Sequence[str] = HOOK_TYPES) -> str:
    """A hooks directory of plain ``sh`` hooks doing nothing (the S floor)."""
    fresh_dir(directory)
    for t in types:
        p = os.path.join(directory, t)
        with open(p, "w", encoding="utf-8") as fh:
            fh.write("#!/bin/sh\nexit 0\n")
        os.chmod(p, 0o755)
    return directory


def install_hooks(b: Bench, repo: str) -> str:
    """``gentle-hook install`` into the repository; returns its hooks directory."""
    b.gentle(repo, "install")
    return os.path.join(repo, ".git", "hooks")


def gate_only_hooks(installed: str, directory: str) -> str:
    """A hooks directory holding only the installed gentle-hooks pre-commit script."""
    fresh_dir(directory)
    shutil.copy2(os.path.join(installed, "pre-commit"), os.path.join(directory, "pre-commit"))
    return directory


def hook_env(b: Bench, repo: str, hook: str, trigger: Sequence[str]) -> dict[str, str]:
    """The environment git gives ``hook``, captured from a real run of ``trigger``.

    A probe hook dumps its environment and fails, so the triggering commit or push stops
    there; the variables git added or changed (``GIT_INDEX_FILE``...) are returned, to run
    the installed script directly exactly as git would.
    """
    probe = fresh_dir(b.path("probe-hooks"))
    dump = os.path.join(probe, "env.bin")
    script = os.path.join(probe, hook)
    with open(script, "w", encoding="utf-8") as fh:
        fh.write(f'#!/bin/sh\nenv -0 > "{dump}"\nexit 1\n')
    os.chmod(script, 0o755)
    # core.hooksPath in the repository's config, not ``-c``: ``-c`` would add
    # GIT_CONFIG_PARAMETERS to what the hook sees.
    b.git(repo, "config", "core.hooksPath", probe)
    try:
        b.git(repo, *trigger, ok=True)
    finally:
        b.git(repo, "config", "--unset", "core.hooksPath")
    with open(dump, "rb") as fh:
        pairs = [
            e.decode("utf-8", "surrogateescape").split("=", 1)
            for e in fh.read().split(b"\0")
            if b"=" in e
        ]
    got = dict(pairs)
    shutil.rmtree(probe)
    return {k: v for k, v in got.items() if k.startswith("GIT_") and b.env.get(k) != v}


def regular_files(b: Bench, repo: str, count: int) -> list[str]:
    """``count`` regular files of HEAD, spread evenly over ``git ls-files`` order."""
    out = b.git(repo, "ls-files", "-s", "-z")
    paths = [e.split("\t", 1)[1] for e in out.split("\0") if e.startswith("100644 ")]
    if len(paths) < count:
        raise RuntimeError(f"{repo}: needs {count} regular files, has {len(paths)}")
    step = len(paths) // count
    return [paths[i * step] for i in range(count)]


def touch(repo: str, paths: Sequence[str], tag: str) -> None:
    """Append one line to each path (a small, ordinary change)."""
    for p in paths:
        with open(os.path.join(repo, p), "ab") as fh:
            fh.write(f"# bench change {tag}\n".encode())


@dataclass
class HumanRepo:
    """A clone with gentle-hooks installed and a staged one-file change; no ledger."""

    repo: str
    hooks: str  # the full install (.git/hooks)
    gate_hooks: str  # only the pre-commit gate
    base: str  # HEAD before any benchmark commit
    env: dict[str, str]  # git's pre-commit environment


def human_repo(b: Bench, source: str, name: str) -> HumanRepo:
    repo = clone(b, source, b.path(name))
    hooks = install_hooks(b, repo)
    gate = gate_only_hooks(hooks, b.path(f"{name}-gate-hooks"))
    touch(repo, regular_files(b, repo, 1), "human")
    b.git(repo, "add", "-A")
    env = hook_env(b, repo, "pre-commit", ["commit", "-q", "-m", "probe"])
    return HumanRepo(repo, hooks, gate, b.git(repo, "rev-parse", "HEAD"), env)


@dataclass
class AgentRepo:
    """A clone whose work tree has pending writer work (``gentle-hook record``)."""

    repo: str
    hooks: str
    gate_hooks: str
    base: str
    env: dict[str, str]
    staged_tree: str = ""


def agent_repo(b: Bench, source: str, name: str) -> AgentRepo:
    repo = clone(b, source, b.path(name))
    hooks = install_hooks(b, repo)
    gate = gate_only_hooks(hooks, b.path(f"{name}-gate-hooks"))
    base = b.git(repo, "rev-parse", "HEAD")
    return AgentRepo(repo, hooks, gate, base, {})


def stage_delegated(b: Bench, a: AgentRepo, files: int) -> None:
    """Stage a ``files``-file change recorded as a writer's, with a receipt and an agreeing
    spot check bound to the staged candidate: the commit gate evaluates it fully and passes.
    The receipt checks something (`true` verifies nothing and would not count)."""
    b.git(a.repo, "reset", "-q", "--hard", a.base)
    paths = regular_files(b, a.repo, files)
    touch(a.repo, paths, f"agent-{files}")
    b.git(a.repo, "add", "-A")
    b.gentle(
        a.repo,
        "record",
        "--model",
        "o4-mini",
        "--effort",
        "low",
        "--source",
        "bench",
        *[f"--paths={p}" for p in paths],
    )
    b.gentle(a.repo, "receipt", "add", "--staged", CHECK_REPORT, "--exit-code", "0")
    b.gentle(a.repo, "spot-check", "--staged")
    a.staged_tree = b.git(a.repo, "write-tree")
    a.env = hook_env(b, a.repo, "pre-commit", ["commit", "-q", "-m", "probe"])


@dataclass
class PushRepo:
    """A clone of a bare remote with branches of delegated commits (AI co-author trailers),
    each commit spot-checked by its committed candidate."""

    repo: str
    remote: str
    hooks: str
    base: str
    branches: dict[int, str]  # commit count -> branch name
    env: dict[str, str]  # git's pre-push environment


def push_repo(b: Bench, remote: str, name: str, counts: Sequence[int]) -> PushRepo:
    repo = clone(b, remote, b.path(name))
    hooks = install_hooks(b, repo)
    base = b.git(repo, "rev-parse", "HEAD")
    most = max(counts)
    b.git(repo, "switch", "-q", "-c", f"delegated-{most}")
    for i, path in enumerate(regular_files(b, repo, most)):
        touch(repo, [path], f"push-{i}")
        b.git(
            repo, "commit", "-q", "--no-verify", "-a", "-m", f"delegated change {i}\n\n{AI_TRAILER}"
        )
    tip = b.git(repo, "rev-parse", "HEAD")
    commits = b.git(repo, "rev-list", "--reverse", f"{base}..{tip}").split()
    for c in commits:
        b.git(repo, "switch", "-q", "--detach", c)
        b.gentle(repo, "receipt", "add", "--committed", CHECK_REPORT, "--exit-code", "0")
        b.gentle(repo, "spot-check", "--committed")
    branches = {}
    for n in counts:
        branches[n] = f"delegated-{n}"
        b.git(repo, "branch", "-f", branches[n], commits[n - 1])
    b.git(repo, "switch", "-q", f"delegated-{most}")
    env = hook_env(b, repo, "pre-push", ["push", "-q", "origin", f"delegated-{most}"])
    return PushRepo(repo, remote, hooks, base, branches, env)


def push_stdin(b: Bench, p: PushRepo, count: int) -> str:
    """A file holding the line git writes to pre-push's stdin for a new branch."""
    ref = f"refs/heads/{p.branches[count]}"
    tip = b.git(p.repo, "rev-parse", ref)
    path = b.path(f"pre-push-{count}.stdin")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{ref} {tip} {ref} {ZERO}\n")
    return path


def unpush(b: Bench, p: PushRepo, count: int) -> None:
    """Forget a benchmark push: the remote's branch and our remote-tracking ref (either may
    be absent)."""
    name = p.branches[count]
    for cwd, ref in ((p.remote, f"refs/heads/{name}"), (p.repo, f"refs/remotes/origin/{name}")):
        subprocess.run(
            ["git", "update-ref", "-d", ref], cwd=cwd, env=b.env, check=False, capture_output=True
        )


@dataclass
class Scenarios:
    """Every prepared repository of a run directory."""

    large: HumanRepo
    small: HumanRepo
    push: PushRepo
    agent: AgentRepo
    assess: str


def prepare(b: Bench, large_src: str, small_src: str) -> Scenarios:
    """Clone and prepare every repository under ``b.root`` and record them (reused by the
    next run while the code and the sources are the same: see ``run.scenario_key``)."""
    remote = b.path("remote.git")
    b.git(b.root, "clone", "-q", "--bare", "--shared", large_src, remote)
    s = Scenarios(
        large=human_repo(b, remote, "human-large"),
        small=human_repo(b, small_src, "human-small"),
        push=push_repo(b, remote, "pusher", (1, 10, 100)),
        agent=agent_repo(b, remote, "agent"),
        assess=clone(b, remote, b.path("assess"), checkout=False),
    )
    with open(b.path(SCENARIOS_FILE), "w", encoding="utf-8") as fh:
        json.dump(asdict(s), fh, indent=1)
    return s


def load(b: Bench) -> Scenarios:
    """The repositories :func:`prepare` recorded in ``b.root``."""
    with open(b.path(SCENARIOS_FILE), encoding="utf-8") as fh:
        raw = json.load(fh)
    push = raw["push"]
    push["branches"] = {int(k): v for k, v in push["branches"].items()}
    return Scenarios(
        large=HumanRepo(**raw["large"]),
        small=HumanRepo(**raw["small"]),
        push=PushRepo(**push),
        agent=AgentRepo(**raw["agent"]),
        assess=raw["assess"],
    )
