"""How this room runs git in a repository (SPEC §2, §3).

Room ``git``. :class:`RepositoryCore` holds where the repository lives
(:class:`~gentle_hooks.git.location.RepoPaths`), the environment every child git gets, and
the one way to run git there, with the paths git keeps for it (``--git-path``, the
worktree list); the reads and writes of each job (config, refs, objects, notes, index,
diffs, bases) build on it in their own modules, and
:class:`gentle_hooks.git.repository.Repository` composes them.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.process import run_git
from gentle_hooks.values.candidate import EMPTY_TREES
from gentle_hooks.values.oid import is_object_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.logwalk import Logged

#: What git's stderr says (the system's words, or git's own for ``EACCES`` on the object
#: database) when the system refused a write: the line then names the directory and why.
_SYSTEM_REFUSALS = ("Read-only file system", "Permission denied", "insufficient permission")


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
        #: commit id -> its parents' ids, as a walk with ``--parents`` printed them.
        self._walked: dict[str, list[str]] = {}
        #: walks ``git log`` made ahead (:meth:`gentle_hooks.git.refs.Refs.know_log`), by
        #: the walk's question; the commits whose change it printed, not yet kept as a
        #: diff (:mod:`gentle_hooks.git.diff`); ids it proved are objects here.
        self._logged_walks: dict[tuple[object, ...], list[Logged]] = {}
        self._logged_changes: list[Logged] = []
        self._present: set[str] = set()

    def run(
        self,
        args: Sequence[str],
        *,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: Iterable[int] = (0,),
        timeout: float | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git <args>`` in the work tree (or git dir when bare).

        Args:
            args: arguments after ``git``.
            input: bytes for stdin, or None for no stdin.
            env: extra variables on top of the repository environment.
            ok: exit codes that are not failures.
            timeout: seconds before git is killed (a ``-G`` scan), None for no bound.

        Raises:
            GitError: git exited with a code outside ``ok`` (the message carries git's
                stderr), or ran past ``timeout``.
        """
        full_env = self.env if env is None else {**self.env, **env}
        cwd = self.paths.toplevel or self.paths.git_dir
        self._will_run(args)
        proc = run_git(args, cwd, full_env, input, timeout)
        if proc.returncode not in tuple(ok):
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            last = err[-1] if err else f"exit {proc.returncode}"
            if any(reason in line for line in err for reason in _SYSTEM_REFUSALS):
                last = self._write_refusal() or last
            raise GitError(f"git {args[0]} failed: {last}")
        return proc

    def _write_refusal(self) -> str | None:
        """Which of the directories git writes (the object database, the git dirs) the
        system refuses writes to, and why (:func:`~gentle_hooks.bounded.write_refusal`)."""
        from gentle_hooks.bounded import write_refusal

        common = self.paths.common_dir
        for directory in (os.path.join(common, "objects"), self.paths.git_dir, common):
            refusal = write_refusal(directory)
            if refusal is not None:
                return refusal
        return None

    def _will_run(self, args: Sequence[str]) -> None:
        """Called by :meth:`run` before each git process; a job module that keeps what git
        printed forgets there what ``git <args>`` may change. Here: nothing kept."""

    def out(self, args: Sequence[str], **kw: object) -> str:
        """``git <args>`` as :meth:`run` runs it; its stdout decoded, without the one line end
        git writes last (only that: a path may end in a space or a U+2028)."""
        text = self.run(args, **kw).stdout.decode("utf-8", "surrogateescape")  # type: ignore[arg-type]
        return text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")

    @property
    def empty_tree(self) -> str:
        """The empty tree id for this repository's object format."""
        return EMPTY_TREES[self.paths.object_format]

    def git_path(self, name: str) -> str:
        """``git rev-parse --git-path NAME``, absolute: where git keeps ``NAME`` for this
        worktree (``.git/worktrees/<wt>/NAME`` in a linked worktree, ``hooks`` honouring
        ``core.hooksPath``)."""
        return self.out(["rev-parse", "--path-format=absolute", "--git-path", name])

    def git_paths(self, *names: str) -> list[str]:
        """:meth:`git_path` of each of ``names``, in order, asked of one ``git rev-parse``
        (each one its own when a path holds a line end and the lines cannot be told apart)."""
        args = [a for name in names for a in ("--git-path", name)]
        lines = self.out(["rev-parse", "--path-format=absolute", *args]).split("\n")
        return lines if len(lines) == len(names) else [self.git_path(n) for n in names]

    def worktree_paths(self) -> list[str]:
        """The work tree root of every worktree of the repository, main first, bare
        entries left out (``git worktree list --porcelain -z``: a path may hold a newline;
        a git older than 2.36 refuses ``-z`` with exit 129, and its line output is read
        instead). A path that is not UTF-8 keeps its bytes (``surrogateescape``)."""
        proc = self.run(["worktree", "list", "--porcelain", "-z"], ok=(0, 129))
        end = "\0"
        if proc.returncode != 0:
            proc, end = self.run(["worktree", "list", "--porcelain"]), "\n"
        return _worktree_paths(proc.stdout.decode("utf-8", "surrogateescape"), end)


def _worktree_paths(porcelain: str, end: str = "\n") -> list[str]:
    """The ``worktree <path>`` of each record without a ``bare`` line: records of lines
    each ended by ``end``, an empty line after each record."""
    paths, bare = [], False
    current = None
    for line in [*porcelain.split(end), ""]:
        if line.startswith("worktree "):
            current, bare = line[len("worktree ") :], False
        elif line == "bare":
            bare = True
        elif not line and current is not None:
            if not bare:
                paths.append(current)
            current = None
    return paths


#: Whether a name is a whole object id (:func:`gentle_hooks.values.oid.is_object_id`).
is_full_id = is_object_id
