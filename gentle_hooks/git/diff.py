"""Diff stats and added lines between two trees, from git itself (SPEC §2, §3 "Diff stats").

Room ``git``. ``git diff --raw --numstat -z`` (plumbing output, git's own rename pairing)
parsed by :mod:`gentle_hooks.git.parse`; many pairs can be diffed ahead in one
``git diff-tree --stdin``. Trees are immutable, so what was diffed is kept.
"""

from __future__ import annotations

import bisect
import contextlib
import os
from collections.abc import Callable, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git import process as git_process
from gentle_hooks.git.gitconfig import GitConfig
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.parse import (
    AddedLine,
    Listed,
    RawNumstatParser,
    Sides,
    iter_added_lines,
    listing,
    parse_raw_numstat,
    split_echoed,
    split_echoed_records,
)
from gentle_hooks.git.process import LITERAL_PATHSPECS, Drain, grow_pipe, popen_git
from gentle_hooks.values.candidate import MODE_NONE, PathChange

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess

    #: A started batch: its processes, their git arguments, and the input still to write
    #: (None: written already).
    Started = tuple[list[subprocess.Popen[bytes]], list[list[str]], bytes | None]

#: stdin bytes a pipe takes without a reader (Linux's buffer is 64 KiB; POSIX promises 4 KiB
#: for atomic writes only): below this, one process's input can be written whole up front.
_PIPE_SAFE = 16384

#: A file name in the git dir that nothing creates: an index that reads as empty.
_NO_INDEX = "gentle-hooks-no-index"

_DIFF_FLAGS = ("--no-ext-diff", "--no-textconv", "--no-color", "-M", "--ignore-submodules=none")
#: The same without rename detection: a commit's own delta, path by path.
_UNRENAMED_FLAGS = (*(f for f in _DIFF_FLAGS if f != "-M"), "--no-renames")

#: The porcelain settings :meth:`Diffs._diff_tree_batch` passes to plumbing itself.
_PORCELAIN_SETTINGS = ("diff.algorithm", "diff.orderFile", "diff.submodule")

#: Rounds of :meth:`Diffs.compose_stats` before the pairs left are diffed whole.
_COMPOSE_ROUNDS = 3


class Diffs(GitConfig):
    """Diff reads of a repository, with what was diffed ahead."""

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        super().__init__(paths, env)
        #: diffs of tree pairs computed ahead by :meth:`prefetch_diffs` (trees are immutable).
        self._stats: dict[tuple[str, str], tuple[PathChange, ...]] = {}
        self._scans: dict[tuple[str, str, str], list[AddedLine]] = {}
        #: per-path changes between trees without rename detection (:meth:`compose_stats`).
        self._deltas: dict[tuple[str, str], tuple[PathChange, ...]] = {}
        #: the pairs and processes :meth:`start_steps` started, until :meth:`step_changes`
        self._steps_started: tuple[list[tuple[str, str]], Started] | None = None

    def prefetch_diffs(self, pairs: Sequence[tuple[str, str]], ere: str | None) -> bool:
        """Diff many (base tree, tree) pairs ahead, in one or two git processes instead of
        one or two per pair, for :meth:`diff_stats` and :meth:`added_lines_matching` to
        answer from: every pair's numstat, and with ``ere`` every pair's ``-G ere`` scan.

        ``git diff-tree --stdin`` reads one pair per line and prints each pair's diff after
        the line echoed (``<base> <tree>``), with the flags :meth:`diff_stats` and
        :meth:`added_lines_matching` use. The porcelain's one setting that can change
        counts, ``diff.algorithm``, is passed explicitly (plumbing does not read it).
        Anything unexpected (a failed process, an echo line not where it should be) keeps
        nothing: each pair is then diffed on its own.

        Args:
            pairs: (base tree id, tree id) pairs; ere: the ``-G`` preselect, or None for
                the numstat alone.

        Returns:
            True when what was asked for every pair is now at hand.
        """
        todo = list(dict.fromkeys(p for p in pairs if p not in self._stats))
        if len(todo) < 2:
            return not todo and (ere is None or self.prefetch_scans(pairs, ere))
        return self._diff_tree_batch(todo, True, ere)

    def compose_stats(self, steps: Sequence[tuple[str, str, str]]) -> None:
        """Diff stats of (base tree, tree) pairs that follow one another, from the previous
        pair's and the step between them: what :meth:`diff_stats` answers, without diffing
        the same unchanged paths again for every pair (a range of commits judged against
        one base). Pairs it cannot prove are left for :meth:`prefetch_diffs`.

        Each step is (base tree ``B``, tree ``T``, previous tree ``P``): the pair
        ``(B, T)`` follows ``(B, P)`` (``P`` may be ``B``: the pair follows the empty
        diff). Steps come in an order where a step's ``(B, P)`` comes before it. The step's
        own changes ``P -> T`` (no rename detection) come from one ``git diff-tree --stdin``
        for all steps (none when :meth:`step_changes` read them). What ``B`` holds at a
        path the step touches is read from ``(B, P)``: that pair's entry's old side, or,
        with no entry there, what ``P`` holds (the step's old side). Then ``(B, T)`` is
        ``(B, P)`` with each touched path's entry replaced:

        * a path whose ``B`` side is its ``P`` side: the step's own entry (the same two
          blobs and modes, hence the same counts);
        * a path whose ``B`` side is its ``T`` side: no entry (it is back to the base);
        * any other: not provable without diffing its two blobs; the pair is diffed whole.

        The result is sorted by path bytes, git's order for ``diff-tree -r``. It is git's
        whole answer only when rename detection can pair nothing: the previous pair holds
        no rename (then every path it does not list is the same in ``B`` and ``P``), and
        the result does not hold both a deletion and an addition (``-M`` pairs a deleted
        path with an added one; nothing else). Otherwise, or with ``diff.orderFile`` set
        (another order), the pair is diffed whole. Steps whose previous pair is not known
        yet wait for it: the pairs that could not be composed, and the previous pairs no
        step gives, are diffed in one batch per round, for a few rounds; the caller diffs
        the pairs left. A lone step is composed only from a step and a previous pair at
        hand (a push of one commit, whose step the attribution diff read): otherwise
        diffing its pair whole costs no more.
        """
        if self.config_value("diff.orderFile") is not None:
            return
        self._keep_logged_changes()
        todo = [s for s in dict.fromkeys(steps) if (s[0], s[1]) not in self._stats]
        todo = [s for s in todo if s[2] != s[1]]  # (B, T) after (B, T): the same pair
        if not todo:
            return
        if len(todo) == 1:  # one pair: composed only from what is at hand, else diffed whole
            base, tree, prev = todo[0]
            if (prev, tree) not in self._deltas or (
                prev != base and (base, prev) not in self._stats
            ):
                return
        deltas = [(p, t) for _, t, p in todo if (p, t) not in self._deltas]
        if deltas and not self._diff_tree_batch(list(dict.fromkeys(deltas)), True, None, False):
            return
        given = {(b, t) for b, t, _ in todo}
        # a previous pair no step composes (the first of a chain) is diffed whole
        whole = [(b, p) for b, _, p in todo if p != b and (b, p) not in given]
        for _ in range(_COMPOSE_ROUNDS):
            if whole and not self._diff_tree_batch(list(dict.fromkeys(whole)), True, None):
                return
            whole, left = [], []
            for base, tree, prev in todo:
                if (base, tree) in self._stats:
                    continue
                known = () if prev == base else self._stats.get((base, prev))
                if known is None:
                    left.append((base, tree, prev))
                    continue
                composed = _compose(known, self._deltas[(prev, tree)])
                if composed is None:
                    whole.append((base, tree))
                else:
                    self._stats[(base, tree)] = composed
            todo = left
            if not whole:
                return

    def step_changes(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[PathChange, ...]] | None:
        """Per-path changes of (old tree, new tree) pairs without rename detection, with
        their counts, in one ``git diff-tree --stdin`` for all of them; kept, so that
        :meth:`compose_stats` steps over the same pairs diff nothing again. One tuple per
        pair, in order (empty for a pair of one tree); None when git's output could not
        be cut by pair (the caller then diffs another way)."""
        self._keep_logged_changes()
        todo = list(dict.fromkeys(p for p in pairs if p[0] != p[1] and p not in self._deltas))
        started, self._steps_started = self._steps_started, None
        if todo and started is not None and started[0] == todo:
            ok = self._finish_batch(todo, True, None, False, started[1])
        else:
            for proc in started[1][0] if started is not None else ():
                proc.kill()  # started for other pairs: not read
                proc.communicate()
            ok = not todo or self._diff_tree_batch(todo, True, None, False)
        if not ok:
            return None
        return [() if a == b else self._deltas[(a, b)] for a, b in pairs]

    def start_steps(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Start the ``git diff-tree --stdin`` :meth:`step_changes` runs for the same
        ``pairs`` (it reads it when asked for exactly these pairs), so that git diffs while
        the caller does other work. Nothing is started for pairs the early ``git log``
        printed, when the input would not fit a pipe's buffer unread, or when the diff
        settings keep the batch from running. Raises GitError: git is not on PATH."""
        self._keep_logged_changes()
        todo = list(dict.fromkeys(p for p in pairs if p[0] != p[1] and p not in self._deltas))
        stdin_size = sum(len(a) + len(b) + 2 for a, b in todo)
        if not todo or stdin_size > _PIPE_SAFE:
            return
        procs = self._start_batch(todo, True, None, False)
        self._steps_started = None if procs is None else (todo, procs)

    def _keep_logged_changes(self) -> None:
        """Keep the changes a walk printed (:meth:`~gentle_hooks.git.refs.Refs.know_log`)
        as the steps they are: (the parent's tree, or the empty tree for a root, the
        commit's tree), once that tree is known. ``git log`` diffs as
        :meth:`step_changes` does unless the configuration sets a diff algorithm or an
        order file (the batch passes those itself): then they are dropped."""
        if not self._logged_changes:
            return
        if any(self.config_value(k) is not None for k in _PORCELAIN_SETTINGS):
            self._logged_changes = []
            return
        waiting = []
        for c in self._logged_changes:
            base = self._trees.get(c.parents[0]) if c.parents else self.empty_tree
            if base is None:
                waiting.append(c)  # its parent's tree is read later
            elif base != c.tree and (base, c.tree) not in self._deltas and c.change is not None:
                with contextlib.suppress(GitError):  # else the pair is diffed as before
                    self._deltas[(base, c.tree)] = parse_raw_numstat(c.change)
        self._logged_changes = waiting

    def prefetch_scans(self, pairs: Sequence[tuple[str, str]], ere: str) -> bool:
        """The ``-G ere`` scan of many pairs ahead, in one ``git diff-tree --stdin`` (see
        :meth:`prefetch_diffs`); True when every pair's scan is at hand."""
        todo = list(dict.fromkeys(p for p in pairs if (*p, ere) not in self._scans))
        if len(todo) < 2:
            return not todo
        return self._diff_tree_batch(todo, False, ere)

    def know_scan(self, base_tree: str, tree: str, ere: str, lines: Sequence[AddedLine]) -> None:
        """Record what :meth:`added_lines_matching` is to answer for a pair, for a caller that
        proved it (no changed blob of the pair can hold a line the scan is for)."""
        self._scans[(base_tree, tree, ere)] = list(lines)

    def _diff_tree_batch(
        self,
        todo: list[tuple[str, str]],
        stats: bool,
        ere: str | None,
        renames: bool = True,
    ) -> bool:
        procs = self._start_batch(todo, stats, ere, renames)
        return procs is not None and self._finish_batch(todo, stats, ere, renames, procs)

    def _start_batch(
        self,
        todo: list[tuple[str, str]],
        stats: bool,
        ere: str | None,
        renames: bool,
    ) -> Started | None:
        """The processes of :meth:`_diff_tree_batch`, started (their input written when it
        fits a pipe unread); None when a diff setting git refuses keeps them from starting."""
        # exactly as stored: a value git refuses (" histogram", or none at all) must fail
        # here as the porcelain would, and then pair by pair with git's own message
        # The porcelain settings plumbing does not read, passed as the porcelain would
        # apply them: the algorithm (counts), the file order, and how a submodule's change
        # shows in a patch (diff.submodule=diff puts its content in the scan).
        algorithm = self.config_value("diff.algorithm")
        order = self.config_value("diff.orderFile")
        submodule = self.config_value("diff.submodule")
        if "" in (algorithm, order, submodule):
            return None
        flags = [*_DIFF_FLAGS] if renames else [*_UNRENAMED_FLAGS]
        flags += [f"--diff-algorithm={algorithm}"] if algorithm else []
        flags += [f"-O{order}"] if order else []
        stdin = "".join(f"{a} {b}\n" for a, b in todo).encode()
        argvs = []
        if stats:
            argvs.append(["diff-tree", "--stdin", "-r", "--raw", "--numstat", "-z", "--no-abbrev"])
        if ere is not None:
            scan = ["diff-tree", "--stdin", "-r", "-U0", "--src-prefix=a/", "--dst-prefix=b/"]
            argvs.append([*scan, "-G", ere] + ([f"--submodule={submodule}"] if submodule else []))
        cwd = self.paths.toplevel or self.paths.git_dir
        # diff-tree reads the index (porcelain diff of two trees does not): ≈ 4 ms per
        # process on a 30k-file index. A path that names no file reads as an empty index,
        # and attributes then come from the work tree, as for ``git diff <tree> <tree>``.
        env = {**self.env, "GIT_INDEX_FILE": os.path.join(self.paths.git_dir, _NO_INDEX)}
        procs = [popen_git([*argv, *flags], cwd, env, stdin=True) for argv in argvs]
        overlap = len(stdin) <= _PIPE_SAFE
        if overlap:  # fits a pipe's buffer: every process starts before any is read
            for proc in procs:
                assert proc.stdin is not None
                try:
                    proc.stdin.write(stdin)
                    proc.stdin.flush()  # communicate() below closes it
                except BrokenPipeError:
                    pass  # git exited early: its exit code says so below
        return procs, argvs, None if overlap else stdin

    def _finish_batch(
        self,
        todo: list[tuple[str, str]],
        stats: bool,
        ere: str | None,
        renames: bool,
        started: Started,
    ) -> bool:
        """Read what :meth:`_start_batch` started for ``todo`` and keep each pair's diff;
        False when a process failed or its output cannot be cut by pair (nothing kept)."""
        procs, argvs, stdin = started
        outs, bound = [], git_process.scan_seconds(self.env) if ere is not None else None
        for proc, argv in zip(procs, argvs, strict=True):
            out = git_process.communicate_within(proc, stdin, argv, bound)
            outs.append(out if proc.returncode == 0 else None)
        if any(out is None for out in outs):
            return False
        stats_chunks = split_echoed_records(outs[0], todo) if stats else None  # type: ignore[arg-type]
        scan_chunks = split_echoed(outs[-1], todo, b"\n") if ere is not None else None  # type: ignore[arg-type]
        if (stats and stats_chunks is None) or (ere is not None and scan_chunks is None):
            return False
        into = self._stats if renames else self._deltas
        for i, pair in enumerate(todo):
            if stats_chunks is not None:
                into[pair] = parse_raw_numstat(stats_chunks[i])
            if scan_chunks is not None and ere is not None:
                self._scans[(pair[0], pair[1], ere)] = list(iter_added_lines(scan_chunks[i]))
        return True

    def prefetched(self, base_tree: str, tree: str, ere: str) -> bool:
        """True when :meth:`prefetch_diffs` holds this pair's numstat and ``-G ere`` scan:
        :meth:`diff_stats` and :meth:`added_lines_matching` answer without a process."""
        return (base_tree, tree) in self._stats and (base_tree, tree, ere) in self._scans

    def diff_stats(
        self,
        base_tree: str,
        tree: str,
        on_listed: Callable[[list[Listed], bool], None] | None = None,
    ) -> tuple[PathChange, ...]:
        """Per-path diff stats between two trees, as ``git diff --raw --numstat`` sees them.

        Args:
            on_listed: called in this thread with the changed paths as git lists them
                (:data:`~gentle_hooks.git.parse.Listed`: paths and the candidate side's blob
                id), before it counts their lines (most of its time on a large diff), and
                with True once every path is listed: a caller can read those blobs while
                git counts. It must not block. Git's output is then parsed as it comes.
                (A pair :meth:`prefetch_diffs` diffed is listed at once, then returned.)

        Raises:
            GitError: git failed or printed something unexpected.
        """
        known = self._stats.get((base_tree, tree))
        if known is not None:
            if on_listed is not None:
                on_listed([listing(c) for c in known], True)
            return known
        args = ["diff", "--raw", "--numstat", "-z", "--no-abbrev", *_DIFF_FLAGS, base_tree, tree]
        if on_listed is None:
            return parse_raw_numstat(self.run(args).stdout)
        parser = RawNumstatParser()
        listed = False
        proc = popen_git(args, self.paths.toplevel or self.paths.git_dir, self.env)
        assert proc.stdout is not None and proc.stderr is not None
        grow_pipe(proc.stdout.fileno())  # git lists every path without waiting for us
        errors = Drain(proc.stderr)
        out = proc.stdout.fileno()
        try:
            while chunk := os.read(out, 1 << 18):
                parser.feed(chunk)
                if not listed:
                    listed = parser.raw_complete
                    on_listed(parser.take_listed(), listed)
            err = errors.wait()
            if proc.wait() != 0:
                lines = err.decode("utf-8", "replace").strip().splitlines()
                raise GitError(f"git diff failed: {lines[-1] if lines else proc.returncode}")
            if not listed:
                parser.end()
                on_listed(parser.take_listed(), True)
            return parser.finish()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()

    def list_changes(self, base_tree: str, tree: str) -> list[Listed]:
        """The changes :meth:`diff_stats` lists (same order, same rename pairing), from a
        ``git diff --raw`` of their own: no line is counted, so on a large diff this ends
        long before the count, which holds its last piece of the listing until the end.

        Raises:
            GitError: git failed or printed something unexpected.
        """
        known = self._stats.get((base_tree, tree))
        if known is not None:
            return [listing(c) for c in known]
        args = ["diff", "--raw", "-z", "--no-abbrev", *_DIFF_FLAGS, base_tree, tree]
        out = self.run(args).stdout
        if out and not out.endswith(b"\0"):
            raise GitError("unexpected output from git diff --raw: no final NUL")
        parser = RawNumstatParser()
        parser.feed(out)
        return parser.take_listed()

    def added_lines_matching(
        self, base_tree: str, tree: str, ere: str, paths: Sequence[str] | None = None
    ) -> list[AddedLine]:
        """Added lines of files whose diff adds or removes a line matching ``ere``.

        Git's ``-G`` (POSIX extended regex) preselects the files, so only their patches
        are produced; the caller applies its precise pattern to the lines returned.

        Args:
            paths: only these paths (literal pathspecs), compared path to path without
                rename detection: each must be a change that is not a rename or a copy in
                the diff with renames, so its patch is the same in both (its old and new
                blob are the same). None: the whole diff, with renames.
        """
        known = self._scans.get((base_tree, tree, ere)) if paths is None else None
        if known is not None:
            return list(known)
        flags: Sequence[str] = _DIFF_FLAGS
        env = None
        limit: list[str] = []
        if paths is not None:
            flags = [f for f in _DIFF_FLAGS if f != "-M"] + ["--no-renames"]
            env = LITERAL_PATHSPECS
            limit = ["--", *paths]
        out = self.run(
            [
                "diff",
                "-U0",
                "--src-prefix=a/",
                "--dst-prefix=b/",
                "-G",
                ere,
                *flags,
                base_tree,
                tree,
                *limit,
            ],
            env=env,
            timeout=git_process.scan_seconds(self.env),
        ).stdout
        return list(iter_added_lines(out))

    def added_lines_of(
        self, changes: Sequence[tuple[str, Sides]], ere: str
    ) -> list[AddedLine] | None:
        """:meth:`added_lines_matching` limited to ``changes`` ((path, its
        :data:`~gentle_hooks.git.parse.Sides`), none a rename or a copy),
        without pathspecs: their two sides are diffed as trees of their own
        (:func:`~gentle_hooks.git.pairtrees.write_pair_trees`, in a temporary object
        directory removed after), so git diffs only them whatever their number.
        None when the repository's object directories cannot be borrowed that way.
        """
        from gentle_hooks.bounded import scratch_dir
        from gentle_hooks.git.pairtrees import borrowing_env, write_pair_trees

        with scratch_dir("gentle-hooks-objects-") as dest:
            env = borrowing_env(dest, self.env, self.paths.common_dir)
            if env is None:
                return None
            old, new = write_pair_trees(changes, dest, self.paths.object_format)
            args = ["diff", "-U0", "--src-prefix=a/", "--dst-prefix=b/", "-G", ere]
            bound = git_process.scan_seconds(self.env)
            out = self.run([*args, *_UNRENAMED_FLAGS, old, new], env=env, timeout=bound).stdout
            return list(iter_added_lines(out))


def _compose(
    known: tuple[PathChange, ...], delta: tuple[PathChange, ...]
) -> tuple[PathChange, ...] | None:
    """``(B, T)`` from ``(B, P)`` (``known``) and the step ``P -> T`` (``delta``, no
    renames), as :meth:`Diffs.compose_stats` states; None when a path's entry is not
    provable or rename detection could pair something."""
    if any(c.old_path is not None for c in known):
        return None
    listed = {c.path: c for c in known}
    touched: dict[str, PathChange | None] = {}
    for d in delta:
        p_side = None if d.old_mode == MODE_NONE else (d.old_mode, d.old_oid)
        t_side = None if d.new_mode == MODE_NONE else (d.new_mode, d.new_oid)
        k = listed.get(d.path)
        if k is None:  # not in (B, P): B holds what P holds there
            b_side = p_side
        else:
            b_side = None if k.old_mode == MODE_NONE else (k.old_mode, k.old_oid)
        if b_side == p_side:
            touched[d.path] = d
        elif b_side == t_side:
            touched[d.path] = None
        else:
            return None
    out = [c for c in known if c.path not in touched]
    for c in sorted((c for c in touched.values() if c is not None), key=_path_bytes):
        # ``out`` is in git's order (path bytes): each entry goes where it belongs
        out.insert(bisect.bisect_left(out, _path_bytes(c), key=_path_bytes), c)
    statuses = {c.status for c in out}
    if "D" in statuses and "A" in statuses:
        return None
    return tuple(out)


def _path_bytes(c: PathChange) -> bytes:
    return os.fsencode(c.path)
