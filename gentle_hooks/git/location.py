"""Where a repository lives, as git resolved it (SPEC §2 "Git access", §3).

Room ``git``. :func:`open_paths` finds the repository containing a directory and the
environment its child git processes get (a hook's ``GIT_DIR``/``GIT_INDEX_FILE`` kept only
when they describe that repository); :func:`probe_paths` asks git once, or reuses what the
hook's light probe already asked (:mod:`gentle_hooks.git.probe`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.probe import WHERE_ARGS, asked_where, check_index, where_fields
from gentle_hooks.git.process import REPO_ENV_VARS, run_git, scrubbed_env
from gentle_hooks.values.frozen import frozen


@frozen
class RepoPaths:
    """Where a repository lives, as git resolved it.

    Attributes:
        toplevel: absolute work tree root (None for a bare repository).
        git_dir: absolute git dir of this worktree (``.git/worktrees/<name>`` when linked).
        common_dir: absolute common git dir shared by all worktrees.
        index_file: absolute path of the index git uses here (honours ``GIT_INDEX_FILE``).
        object_format: ``sha1`` or ``sha256``.
        is_bare: True for a bare repository.
        is_shallow: True for a shallow clone.
    """

    toplevel: str | None
    git_dir: str
    common_dir: str
    index_file: str
    object_format: str
    is_bare: bool
    is_shallow: bool


def open_paths(cwd: str | None, allow_bare: bool) -> tuple[RepoPaths, dict[str, str]]:
    """Open the repository containing ``cwd`` (default: the current directory).

    Without ``cwd`` the process environment is honoured as git handed it (a hook's
    ``GIT_DIR``/``GIT_INDEX_FILE``/``GIT_WORK_TREE``). With ``cwd``, those variables
    are kept only when they describe the same repository; otherwise they are dropped.

    Raises:
        GitError: not a git repository, inside a git dir, or a bare repository when
            ``allow_bare`` is False; git missing from PATH.
        UsageError: ``GIT_INDEX_FILE`` names a FIFO, a device or a directory
            (:func:`~gentle_hooks.git.probe.check_index`).
    """

    start = os.path.abspath(cwd) if cwd is not None else os.getcwd()
    if not os.path.isdir(start):
        raise GitError(f"{start}: no such directory")
    env = dict(os.environ)
    if cwd is not None and any(v in env for v in REPO_ENV_VARS):
        mine = probe_paths(start, scrubbed_env(env))
        theirs = probe_paths(start, env)
        if mine is None or theirs is None or mine.common_dir != theirs.common_dir:
            env = scrubbed_env(env)
    paths = probe_paths(start, env)
    if paths is None:
        raise GitError(f"{start}: not a git repository (run inside a clone, or pass --cwd)")
    if paths.is_bare and not allow_bare:
        raise GitError(
            f"{paths.git_dir}: a bare repository has no work tree to assess; run in a "
            "clone, or judge a pushed range with the range gate (gate --range, docs/ci.md)"
        )
    if paths.toplevel is None and not paths.is_bare:
        raise GitError(f"{start}: inside the git directory; run from the work tree")
    if env.get("GIT_INDEX_FILE") and not os.path.isabs(env["GIT_INDEX_FILE"]):
        env["GIT_INDEX_FILE"] = paths.index_file
    check_index(env)  # a FIFO or a device would hang or mislead every git that reads it
    return paths, env


def probe_paths(start: str, env: Mapping[str, str]) -> RepoPaths | None:
    """Where the repository containing ``start`` lives, as git says with ``env``; None
    outside a repository. A hook's probe that already asked is not asked again.

    Raises:
        GitError: git is not on PATH.
    """
    asked = asked_where(start, env)
    if asked is None:
        proc = run_git(list(WHERE_ARGS), start, env)
        asked = (proc.returncode, proc.stdout)

    def ask(args: Sequence[str]) -> tuple[int, bytes]:
        one = run_git(args, start, env)
        return one.returncode, one.stdout

    fields = where_fields(*asked, ask)
    if fields is None:
        return None
    bare = fields[0] == "true"
    return RepoPaths(
        toplevel=None if bare else fields[6] or None,
        git_dir=fields[3],
        common_dir=os.path.normpath(fields[4]),
        index_file=fields[5],
        object_format=fields[2],
        is_bare=bare,
        is_shallow=fields[1] == "true",
    )


def root_relative(root: str, here: str, path: str) -> str:
    """``path`` as given on a command line in the directory ``here`` (relative to it, like
    every git command, or absolute), relative to the work tree ``root``.

    Raises:
        UsageError: the path is outside the work tree.
    """
    full = os.path.normpath(os.path.join(here, path))
    for base in (root, os.path.realpath(root)):
        for candidate in (full, os.path.realpath(full)):
            rel = os.path.relpath(candidate, base)
            if rel != ".." and not rel.startswith("../"):
                return rel.replace(os.sep, "/")
    raise UsageError(f"{path!r} is outside the work tree {root}; name the files the writer wrote")


def is_away_from(top: str) -> bool:
    """True when the user is somewhere other than the work tree root ``top``: git runs
    hooks at the root and says where the user is in ``GIT_PREFIX``; outside a hook, the
    current directory (removed: away)."""
    prefix = os.environ.get("GIT_PREFIX")
    if prefix is not None:
        return prefix.strip("/") != ""
    try:
        return os.path.realpath(os.getcwd()) != os.path.realpath(top)
    except OSError:
        return True


def is_on_server() -> bool:
    """True under a server's pre-receive (git sets ``GIT_QUARANTINE_PATH`` there)."""
    return bool(os.environ.get("GIT_QUARANTINE_PATH"))


#: How many processes up from this one :func:`shell_directory` looks for git.
_ANCESTORS = 8


def shell_directory() -> str | None:
    """The directory the user's shell was in when it ran the git command whose hook this
    is: ``PWD`` in the environment that git process started with. Git changes directory
    for ``git -C DIR`` and runs hooks at the work tree root without changing ``PWD``, but
    the hook's ``/bin/sh`` resets ``PWD`` to where it runs, and ``GIT_PREFIX`` is relative to
    ``DIR``: neither says where the user is. So the nearest ancestor process named ``git``
    (the hook's parent, or the framework's) is read from ``/proc`` (Linux). None when there
    is no such process, it cannot be read, or its ``PWD`` is not an absolute directory:
    then nothing is known (a program that ran git with another working directory and no
    ``PWD`` of its own leaves none)."""
    pid = os.getppid()
    for _ in range(_ANCESTORS):
        if pid <= 1:
            return None
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read(4096)
            name = stat[stat.index(b"(") + 1 : stat.rindex(b")")]
            if name == b"git":
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read(1 << 20).split(b"\0")
                found = [e[4:] for e in environ if e.startswith(b"PWD=")]
                pwd = os.fsdecode(found[0]) if found else ""
                return pwd if os.path.isabs(pwd) and os.path.isdir(pwd) else None
            pid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            return None
    return None


def is_outside(top: str) -> bool:
    """True when the user's shell (:func:`shell_directory`) is known to be outside the
    work tree rooted at ``top`` (neither it nor below it): a command printed for them must
    name the repository itself."""
    where = shell_directory()
    if where is None:
        return False
    real, root = os.path.realpath(where), os.path.realpath(top)
    return real != root and not real.startswith(root.rstrip(os.sep) + os.sep)
