"""The repository as git resolved it, and how this room runs git in it (SPEC §2, §3).

Room ``git``. :class:`RepositoryCore` holds where the repository lives (:class:`RepoPaths`),
the environment every child git gets, and the one way to run git there; the reads and
writes of each job (refs, objects, commits, notes, index, diffs, bases) build on it in
their own modules, and :class:`gentle_hooks.git.repository.Repository` composes them.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.probe import WHERE_ARGS, asked_where
from gentle_hooks.git.process import REPO_ENV_VARS, run_git, scrubbed_env
from gentle_hooks.values.candidate import EMPTY_TREES
from gentle_hooks.values.frozen import frozen

#: What :meth:`RepositoryCore.gentle_config` reads in its one ``git config`` process.
_PRELOAD_REGEXP = r"^(gentle\.|diff\.(algorithm|submodule|orderfile)$|remote\..*\.url$)"
#: The keys among those that :meth:`RepositoryCore.config_get` answers from it.
_PRELOADED = re.compile(r"^(diff\.(algorithm|submodule|orderfile)|remote\..*\.url)$")


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
            f"clone, or use 'gentle-hook gate --range A..B' for a pushed range"
        )
    if paths.toplevel is None and not paths.is_bare:
        raise GitError(f"{start}: inside the git directory; run from the work tree")
    if env.get("GIT_INDEX_FILE") and not os.path.isabs(env["GIT_INDEX_FILE"]):
        env["GIT_INDEX_FILE"] = paths.index_file
    return paths, env


class RepositoryCore:
    """A repository and the environment its child git processes get.

    Attributes:
        paths: where it lives; env: the environment of every child git (the hook's own,
            or scrubbed when another repository was named).
    """

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        self.paths = paths
        self.env = env
        #: commit id -> tree id, for commits whose tree an earlier git call already printed
        #: (saves a ``rev-parse`` per merge-base; a commit's tree never changes).
        self._trees: dict[str, str] = {}
        #: ``<full id>^{commit}`` / ``^{tree}`` -> what rev-parse printed (immutable).
        self._peeled: dict[str, str] = {}
        #: diff.algorithm/submodule/orderFile and remote.*.url, as gentle_config read them.
        self._config: dict[str, str] | None = None

    def run(
        self,
        args: Sequence[str],
        *,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: Iterable[int] = (0,),
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git <args>`` in the work tree (or git dir when bare).

        Args:
            args: arguments after ``git``.
            input: bytes for stdin, or None for no stdin.
            env: extra variables on top of the repository environment.
            ok: exit codes that are not failures.

        Raises:
            GitError: git exited with a code outside ``ok``; the message carries git's stderr.
        """
        full_env = self.env if env is None else {**self.env, **env}
        cwd = self.paths.toplevel or self.paths.git_dir
        if args and args[0] in ("config", "remote"):
            self._config = None  # it may write: what gentle_config read is stale
        proc = run_git(args, cwd, full_env, input)
        if proc.returncode not in tuple(ok):
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            last = err[-1] if err else f"exit {proc.returncode}"
            raise GitError(f"git {args[0]} failed: {last}")
        return proc

    def out(self, args: Sequence[str], **kw: object) -> str:
        """``git <args>`` as :meth:`run` runs it; its stdout decoded and stripped."""
        return self.run(args, **kw).stdout.decode("utf-8", "surrogateescape").strip()  # type: ignore[arg-type]

    @property
    def empty_tree(self) -> str:
        """The empty tree id for this repository's object format."""
        return EMPTY_TREES[self.paths.object_format]

    def config_get(self, key: str) -> str | None:
        """``git config --get key`` (the last value) or None when unset.

        ``diff.algorithm`` and ``remote.<name>.url`` are answered from what
        :meth:`gentle_config` read in the same process, when it was called.
        """
        value = self.config_value(key)
        return None if value is None else value.strip()

    def config_value(self, key: str) -> str | None:
        """The value exactly as git stores it (spaces kept), or None when unset."""
        canonical = _canonical_key(key)
        if self._config is not None and _PRELOADED.match(canonical):
            return self._config.get(canonical)
        proc = self.run(["config", "--get", key], ok=(0, 1))
        if proc.returncode != 0:
            return None
        return proc.stdout.decode("utf-8", "surrogateescape").removesuffix("\n")

    def config_get_all(self, key: str) -> list[str]:
        """Every value of a multi-valued key (``git config --get-all``), in order; empty
        when unset."""
        proc = self.run(["config", "--get-all", key], ok=(0, 1))
        return proc.stdout.decode("utf-8", "surrogateescape").splitlines()

    def config_set(self, key: str, value: str) -> None:
        """``git config key value`` in the repository's own config (replaces one value).

        Raises:
            GitError: git refused (a multi-valued key, an unwritable config).
        """
        self.run(["config", key, value])

    def config_remotes(self) -> list[str]:
        """The names of the remotes this repository configures (``git remote``)."""
        return self.out(["remote"]).split()

    def config_unset_value(self, key: str, value: str) -> bool:
        """Remove every ``key`` whose value is exactly ``value`` from the repository's own
        config (``git config --local --fixed-value --unset-all``); True when one was there.

        Raises:
            GitError: git refused (an unwritable config).
        """
        proc = self.run(
            ["config", "--local", "--fixed-value", "--unset-all", key, value], ok=(0, 5)
        )
        return proc.returncode == 0

    def config_add(self, key: str, value: str) -> None:
        """``git config --add key value``: one more value of a multi-valued key.

        Raises:
            GitError: git refused (an unwritable config).
        """
        self.run(["config", "--add", key, value])

    def gentle_config(self) -> bytes:
        """``git config -z --get-regexp ^gentle\\.`` output (empty when nothing is set).

        The same process reads ``diff.algorithm``, ``diff.submodule``, ``diff.orderFile`` and
        every ``remote.<name>.url`` for
        :meth:`config_get` (a hook asks for them next; one process instead of three). Any
        ``git config`` or ``git remote`` run through :meth:`run` forgets them.
        """
        out = self.run(["config", "-z", "--get-regexp", _PRELOAD_REGEXP], ok=(0, 1)).stdout
        gentle: list[bytes] = []
        other: dict[str, str] = {}
        for entry in out.split(b"\0"):
            key, newline, value = entry.partition(b"\n")
            if key.startswith(b"gentle."):
                gentle.append(entry + b"\0")
            elif key:
                # a key without "=" is a boolean true; --get prints it as an empty line
                other[key.decode("utf-8", "surrogateescape")] = (
                    value.decode("utf-8", "surrogateescape") if newline else ""
                )
        self._config = other
        return b"".join(gentle)

    def git_path(self, name: str) -> str:
        """``git rev-parse --git-path NAME``, absolute: where git keeps ``NAME`` for this
        worktree (``.git/worktrees/<wt>/NAME`` in a linked worktree, ``hooks`` honouring
        ``core.hooksPath``)."""
        return self.out(["rev-parse", "--path-format=absolute", "--git-path", name])

    def worktree_paths(self) -> list[str]:
        """The work tree root of every worktree of the repository, main first, bare
        entries left out (``git worktree list --porcelain``)."""
        out = self.run(["worktree", "list", "--porcelain"]).stdout.decode("utf-8", "replace")
        return _worktree_paths(out)

    def ident(self) -> str:
        """``Name <email>`` of the committer git would record now."""
        raw = self.out(["var", "GIT_COMMITTER_IDENT"])
        return raw.rsplit(" ", 2)[0] if raw.count(" ") >= 2 else raw

    def head_reflog_action(self) -> str | None:
        """What last moved HEAD, from its reflog: ``commit``, ``commit (amend)``, ``rebase
        (pick)``, ``pull --rebase origin main (pick)``, ``cherry-pick``...; None when HEAD
        has no reflog (``core.logAllRefUpdates`` off)."""
        proc = self.run(["reflog", "-1", "--format=%gs", "HEAD", "--"], ok=(0, 128))
        subject = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode != 0 or not subject:
            return None
        return subject.split(": ", 1)[0]


def _worktree_paths(porcelain: str) -> list[str]:
    """The ``worktree <path>`` of each blank-line-separated record without a ``bare`` line."""
    paths, bare = [], False
    current = None
    for line in [*porcelain.splitlines(), ""]:
        if line.startswith("worktree "):
            current, bare = line[len("worktree ") :], False
        elif line == "bare":
            bare = True
        elif not line and current is not None:
            if not bare:
                paths.append(current)
            current = None
    return paths


def _canonical_key(key: str) -> str:
    """A config key as ``git config --get-regexp`` prints it: section and variable
    lower-cased, a subsection kept as written."""
    section, _, rest = key.partition(".")
    sub, _, var = rest.rpartition(".")
    return f"{section.lower()}.{sub}.{var.lower()}" if sub else f"{section.lower()}.{var.lower()}"


def is_full_id(name: str) -> bool:
    """Whether ``name`` is a whole object id: 40 (SHA-1) or 64 (SHA-256) lowercase hex."""
    return len(name) in (40, 64) and not name.strip("0123456789abcdef")


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
    returncode, stdout = asked
    lines = stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 6 or lines[0] not in ("true", "false"):
        return None
    bare = lines[0] == "true"
    toplevel = lines[6] if returncode == 0 and len(lines) > 6 and lines[6] else None
    return RepoPaths(
        toplevel=None if bare else toplevel,
        git_dir=lines[3],
        common_dir=os.path.normpath(lines[4]),
        index_file=lines[5],
        object_format=lines[2],
        is_bare=bare,
        is_shallow=lines[1] == "true",
    )
