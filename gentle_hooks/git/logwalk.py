"""One ``git log`` for the commits a push sends: the walk, each commit's tree and parents,
and each commit's own change against its parent (SPEC §2 "Git access", §3).

Room ``git``; standard library only and no ``subprocess``: :class:`LogWalk` is started from
the push hook's entry, before the gate's modules are imported, so git walks and diffs on
another core while Python imports. The walk is the one
:meth:`~gentle_hooks.git.refs.Refs.new_commits` or
:meth:`~gentle_hooks.git.refs.Refs.new_commits_of_tips` would run (same revisions, same
``--topo-order --reverse``, so the same commits in the same order), and a commit's change
is what ``git diff-tree -r --raw --numstat -z --no-renames`` prints for its parent's tree
and its own (the flags :meth:`~gentle_hooks.git.diff.Diffs.step_changes` passes; like a
diff of two trees, ``git log`` reads attributes from the work tree and no index). What it
prints is kept as facts about ids: :meth:`~gentle_hooks.git.refs.Refs.know_log` hands them
to a repository, which answers from them only when asked the same walk.

Output, with ``-z``: per commit ``\\x01<id> <tree> <parents...>\\0``, then (when it has
a change) ``\\n`` and its raw and numstat records. A merge (``--diff-merges=off``) lists no
change; a root commit's change is against the empty tree (``--root``). A header is read
only where a record starts (:func:`~gentle_hooks.git.parse.record_end`), so no path is
taken for one.
"""

from __future__ import annotations

import os

from gentle_hooks.values.frozen import frozen
from gentle_hooks.values.oid import is_object_id

TYPE_CHECKING = False  # typing costs ~10 ms to import: this module runs before the imports
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: Every option that shapes what ``git log`` prints, so no configuration can change it:
#: the walk of ``rev-list --topo-order --reverse``, and each commit's change as
#: ``diff-tree -r --raw --numstat -z --no-abbrev`` with the step flags prints it.
WALK_FLAGS = (
    "log",
    "-z",
    "--format=%x01%H %T %P",
    "--no-color",
    "--no-decorate",
    "--no-notes",
    "--no-show-signature",
    "--topo-order",
    "--reverse",
)
DIFF_FLAGS = (
    "--root",
    "--diff-merges=off",
    "-r",
    "--raw",
    "--numstat",
    "--no-abbrev",
    "--no-relative",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--ignore-submodules=none",
)
#: The most bytes written to ``git log --stdin`` up front (a pipe's buffer takes them).
STDIN_LIMIT = 32768


@frozen
class Logged:
    """One commit as ``git log`` printed it: its id, tree and parents (as the walk sees
    them: grafts and a shallow boundary applied, like ``rev-list --parents``), and its
    change's raw and numstat records (None for a merge, or a walk without changes)."""

    id: str
    tree: str
    parents: tuple[str, ...]
    change: bytes | None


class LogWalk:
    """A ``git log`` started at once (``os.posix_spawnp``) and read when asked.

    Args:
        cwd, env: where and with what environment git runs (the repository's own; ``cwd``
            is this process's directory: spawning changes none).
        revs: revision arguments (``<tip> ^<id>``, or ``--stdin --not --remotes=X``);
        stdin: lines for ``--stdin`` (at most :data:`STDIN_LIMIT` bytes in all);
        changes: diff each commit against its parent too.

    Raises:
        OSError: git cannot be started (the caller then goes without it).
        ValueError: more standard input than :data:`STDIN_LIMIT`, or ``cwd`` is not the
            current directory.
    """

    def __init__(
        self,
        cwd: str,
        env: Mapping[str, str],
        revs: Sequence[str],
        stdin: Sequence[str] = (),
        changes: bool = True,
    ) -> None:
        data = "".join(f"{line}\n" for line in stdin).encode("utf-8", "surrogateescape")
        if len(data) > STDIN_LIMIT:
            raise ValueError("too many revisions for one git log --stdin")
        self.cwd, self.env = cwd, dict(env)
        self.changes = changes
        if os.path.realpath(cwd) != os.path.realpath(os.getcwd()):
            raise ValueError("git log runs in the directory the hook runs in")
        argv = ["git", *WALK_FLAGS, *(DIFF_FLAGS if changes else ()), *revs]
        out_r, out_w = os.pipe()
        in_r, in_w = os.pipe()
        devnull = os.open(os.devnull, os.O_RDWR)
        try:
            self._pid: int | None = os.posix_spawnp(
                "git",
                argv,
                self.env,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, in_r, 0),
                    (os.POSIX_SPAWN_DUP2, out_w, 1),
                    (os.POSIX_SPAWN_DUP2, devnull, 2),
                    (os.POSIX_SPAWN_CLOSE, out_r),
                    (os.POSIX_SPAWN_CLOSE, in_w),
                ],
            )
        except BaseException:
            os.close(out_r)
            raise
        finally:
            for fd in (out_w, in_r, devnull):
                os.close(fd)
            try:
                os.write(in_w, data)  # fits the pipe's buffer: never waits for git
            except OSError:  # git is gone already: its exit code says so
                data = b""
            os.close(in_w)
        self._out = out_r
        self._result: list[Logged] | None = None

    def result(self) -> list[Logged] | None:
        """The commits in the walk's order, once git is done; None when git failed or
        printed something else than expected (the caller then asks git as before)."""
        if self._pid is None:
            return self._result
        chunks = []
        while chunk := os.read(self._out, 1 << 16):
            chunks.append(chunk)
        os.close(self._out)
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        if os.waitstatus_to_exitcode(status) == 0:
            self._result = parse_log(b"".join(chunks), self.changes)
        return self._result

    def close(self) -> None:
        """Stop git if it is still running (its output is not needed)."""
        if self._pid is None:
            return
        import signal

        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:  # reaped elsewhere: nothing to wait for
            self._result = None
        else:
            os.waitpid(self._pid, 0)
        os.close(self._out)
        self._pid = None


def parse_log(out: bytes, changes: bool) -> list[Logged] | None:
    """The commits of :class:`LogWalk`'s output (see the module docstring), in order;
    None when it does not read so."""
    from gentle_hooks.git.parse import record_end

    found: list[tuple[str, str, tuple[str, ...], int, int]] = []  # ids, change span
    pos, size = 0, len(out)
    while pos < size:
        if out[pos] == 1:
            stop = out.find(b"\0", pos)
            if stop < 0:
                return None
            ids = out[pos + 1 : stop].decode("ascii", "replace").split(" ")
            if len(ids) < 3 or not all(is_object_id(i) for i in ids[:2]):
                return None
            parents = tuple(ids[2:]) if ids[2:] != [""] else ()
            if not all(is_object_id(p) for p in parents):
                return None
            pos = stop + 1
            if out.startswith(b"\n", pos):
                pos += 1
            found.append((ids[0], ids[1], parents, pos, pos))
            continue
        if not found or not changes:
            return None  # a record before the first commit, or one not asked for
        end = record_end(out, pos)
        if end is None:
            return None
        c, tree, parents, start, _ = found[-1]
        found[-1] = (c, tree, parents, start, end)
        pos = end
    return [
        Logged(c, tree, parents, out[start:end] if changes and len(parents) < 2 else None)
        for c, tree, parents, start, end in found
    ]
