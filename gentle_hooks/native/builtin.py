"""The built-in native provider (SPEC §4 ``builtin``): a candidate's diff, classified.

Layer: native. Gathers what :func:`gentle_hooks.native.classifier.fold_changes` and
:func:`~gentle_hooks.native.classifier.assessment` need through the git adapter (per-path
diff stats, the documentation blobs to prove, the added lines that may execute a process)
and returns the envelope; no pydantic, no process but git's.
"""

from __future__ import annotations

import itertools
import operator
import os
import threading
from collections.abc import Iterable, Sequence

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.errors import GitError
from gentle_hooks.git.parse import AddedLine, Listed, Sides, listing
from gentle_hooks.git.repository import Repository
from gentle_hooks.native.classifier import (
    PROCESS_SCAN_LINE_LIMIT,
    SHEBANG,
    assessment,
    doc_blobs_to_prove,
    fold_changes,
    prepare_paths,
    process_folds,
    process_needles,
    proof_within,
    rename_blobs,
    upstream_stats,
)
from gentle_hooks.native.fold import folding
from gentle_hooks.native.result import NativeAssessment, candidate_kind
from gentle_hooks.values.candidate import MODE_GITLINK, Candidate, PathChange

#: The statuses of a rename and a copy, and a change's status.
_PAIRED = frozenset(("R", "C"))
_STATUS = operator.attrgetter("status")


def assess_native_builtin(
    repo: Repository,
    cand: Candidate,
    risk: RiskSettings,
    consumed: bool = False,
    escalation: tuple[int, str, str] | None = None,
) -> tuple[tuple[PathChange, ...], NativeAssessment]:
    """Run the built-in classifier on a candidate (SPEC §4 ``builtin``).

    ``consumed``: the native consumed fact for this exact candidate (the provider passes
    none: a caller's ``review ack`` is not one, seed 000); ``escalation``: the
    requested escalation as (item number, title, reason), applied as upstream's
    ``--escalate-item`` is (:func:`~gentle_hooks.native.classifier.assessment`).

    Returns:
        (per-path diff stats, git's rename pairing kept: SPEC §3; the review-assessment
        envelope, which counts paths and lines as upstream does, a rename as its old path
        deleted and its new path added: :func:`~gentle_hooks.native.classifier.upstream_stats`).

    Raises:
        GitError: a git command failed.
    """
    changes, blobs, added = gather_inputs(repo, cand, risk)
    if any(map(_PAIRED.__contains__, map(_STATUS, changes))):  # C loops: once per candidate
        # upstream diffs without rename detection: a rename is a deletion and an addition
        sides = repo.read_blobs(rename_blobs(changes))
        stats, whole = upstream_stats(changes, sides)
        known = {**sides, **blobs}
        wanted = doc_blobs_to_prove(stats, risk)
        more = repo.read_blobs([oid for oid in wanted if oid not in known])
        blobs = {o: b for o in wanted if (b := known.get(o, more.get(o))) is not None}
        added = [*added, *whole]
        # upstream's stats are new objects each time: nothing to fold from
        folded = fold_changes(stats, blobs, risk, proof_within(blobs))
    else:
        folded = folding().tally(changes, blobs, risk)
    # upstream names a base ref only for a base comparison (current changes are HEAD's)
    named = candidate_kind(cand.projection.value, cand.base.source, cand.base.ref)
    envelope = assessment(
        folded,
        added,
        risk,
        kind=named.kind,
        base_ref=named.base_ref,
        consumed=consumed,
        escalation=escalation,
    )
    return changes, envelope


def gather_inputs(
    repo: Repository, cand: Candidate, risk: RiskSettings
) -> tuple[tuple[PathChange, ...], dict[str, bytes], list[AddedLine]]:
    """What the classifier (:mod:`gentle_hooks.native.classifier`) reads of a candidate: per-path
    diff stats, the bytes of the documents to prove passive, the preselected added lines.

    Process execution is looked for only where it can be (:class:`_ProcessScan`): while
    git counts lines, the candidate side's blobs are read and searched for what a flagged
    line must hold; git's ``-G`` scan then runs only over the changes that may bring a hit
    (on most candidates, none). Same hits as one ``-G`` scan over the whole diff. A pair the
    push gate diffed ahead (:meth:`Repository.prefetch_diffs`: numstat and the whole ``-G``
    scan) is answered from those, without a process.

    Raises:
        GitError: a git command failed.
    """
    base_tree, tree, ere = cand.base.tree, cand.tree, risk.process_preselect
    if repo.prefetched(base_tree, tree, ere):
        changes = repo.diff_stats(base_tree, tree)
        blobs = repo.read_blobs(doc_blobs_to_prove(changes, risk))
        return changes, blobs, repo.added_lines_matching(base_tree, tree, ere)
    scan = _ProcessScan(repo, cand, risk)
    try:
        changes = repo.diff_stats(base_tree, tree, on_listed=scan.feed)
        blobs = repo.read_blobs(doc_blobs_to_prove(changes, risk))
        return changes, blobs, scan.finish(changes)
    finally:
        scan.abort()


def prefetch_builtin(
    repo: Repository,
    pairs: Sequence[tuple[str, str]],
    risk: RiskSettings,
    previous: Sequence[str | None] = (),
) -> bool:
    """Diff the candidates of many commits ahead for :func:`assess_native_builtin` (the push
    gate): a handful of git processes for all of them instead of a few for each.

    Every pair's numstat comes from one ``git diff-tree --stdin``; the new blobs of all of
    them are searched in one ``git cat-file --batch`` for what a flagged line must hold
    (as :class:`_ProcessScan` does for one candidate); the ``-G`` scan then runs, in one
    more ``diff-tree``, only over the pairs with a change that may bring a hit (a blob that
    may, or a submodule commit). A pair with none gets the scan's answer proved empty of
    hits. Without needles every pair is scanned whole.

    A pair that follows another of the same base (``previous``: the tree of the pair
    before it, the parent commit's, or the base tree itself) has its numstat composed from
    that pair's and its own step (:meth:`Repository.compose_stats`), so a range judged
    against one base does not diff every unchanged path again for each commit.

    Args:
        pairs: (base tree, candidate tree) ids; risk: the classifier settings;
        previous: for each pair, the tree of the pair it follows, or None.

    Returns:
        True when every pair is now answered without a process.

    Raises:
        GitError: cat-file failed.
    """
    ere = risk.process_preselect
    needles = process_needles(risk)
    repo.compose_stats(
        [(*pair, p) for pair, p in zip(pairs, previous, strict=False) if p is not None]
    )
    if not repo.prefetch_diffs(pairs, None):
        return False
    if needles is None:
        _keep_docs(repo, [repo.diff_stats(*pair) for pair in dict.fromkeys(pairs)], risk)
        return repo.prefetch_scans(pairs, ere)
    changes = {pair: repo.diff_stats(*pair) for pair in dict.fromkeys(pairs)}
    unique = _unique(changes.values())
    _keep_docs(repo, [tuple(unique)], risk)
    # a line too long to scan is flagged unscanned in a file the -G scan selects: its blob
    # may bring a hit whatever it holds
    search = repo.search_blobs(
        needles, SHEBANG, process_folds(risk), longer=PROCESS_SCAN_LINE_LIMIT
    )
    try:
        blobs = list(dict.fromkeys(blob for c in unique if (blob := listing(c)[2])))
        # read through the run's cat-file (the commits were read there): the search then
        # starts no process of its own for the blobs kept
        repo.keep_blobs(blobs)
        search.add(blobs)  # a blob many pairs share is searched once
        maybe = search.finish()
    finally:
        search.abort()
    hits = {id(c) for c in unique if c.new_oid in maybe or c.new_mode == MODE_GITLINK}
    scan = []
    for pair, cs in changes.items():
        if not hits.isdisjoint(map(id, cs)):
            scan.append(pair)
        else:  # no added line of this pair can be flagged: nothing to scan
            repo.know_scan(*pair, ere, [])
    return repo.prefetch_scans(scan, ere)


def _unique(changes: Iterable[tuple[PathChange, ...]]) -> list[PathChange]:
    """Every change object of these pairs once, in order (pairs composed from one another
    share most of theirs: :meth:`~gentle_hooks.git.diff.Diffs.compose_stats`)."""
    every = list(itertools.chain.from_iterable(changes))
    return list(dict(zip(map(id, every), every, strict=True)).values())


def _keep_docs(
    repo: Repository, changes: Sequence[tuple[PathChange, ...]], risk: RiskSettings
) -> None:
    """Read the documents every pair proves passive, in one process for all of them."""
    repo.keep_blobs(doc_blobs_to_prove(_unique(changes), risk))


#: More paths than this are diffed as trees of their own instead of by pathspecs: git
#: matches every tree entry it walks against every pathspec, so thousands of literal
#: pathspecs cost more than the whole scan.
_MAX_PATHSPECS = 64

#: Pathspecs beyond this many bytes in all are diffed as trees of their own instead (the
#: command line has a limit).
_MAX_PATHSPEC_BYTES = 256 * 1024


class _ProcessScan:
    """The process-execution scan of one candidate (``risk.process_patterns``).

    :func:`~gentle_hooks.native.classifier.process_hits` flags, among the lines
    :meth:`finish` returns, exactly the lines, in the same order, it flags among those of
    one ``git diff -U0 -G <process_preselect>`` over the whole diff. A flagged line is an
    added line of a file that scan selects, and it is in that file's new blob, which
    therefore holds one of :func:`~gentle_hooks.native.classifier.process_needles`, starts
    with ``#!`` (a shebang on line 1) or has a line over
    :data:`~gentle_hooks.native.classifier.PROCESS_SCAN_LINE_LIMIT` bytes (flagged
    unscanned). So the new blobs are read while git counts
    lines (:class:`~gentle_hooks.git.repository.BlobSearch`), and only the changes whose
    blob may hold a hit are scanned (submodule commits always: they have no blob here):
    none on most candidates; path to path when none of them is a rename or copy (each then
    has the same old and new blob as in the diff with renames, hence the same patch), by
    pathspecs when they are few, else as two trees holding only their sides (one diff of
    those changes alone, however many: realistic code holds process calls in many files
    whose changes bring none); else the whole diff. Once every path is listed, the search
    ends and the scan runs on a thread while git still counts (a listing with a deletion
    or a submodule commit, which it does not tell apart, waits for the counted changes).
    Git lists the paths before it counts lines but holds the last piece of its listing
    until the count ends: a listing that comes in pieces, once one of its blobs may bring
    a hit, is completed by a ``git diff --raw`` of its own
    (:meth:`~gentle_hooks.git.repository.Repository.list_changes`), so the scan runs
    alongside the count, not after it. Without needles (patterns with no literal to look
    for) the whole diff is scanned while git counts.
    """

    def __init__(self, repo: Repository, cand: Candidate, risk: RiskSettings) -> None:
        self.repo, self.cand, self.risk = repo, cand, risk
        needles = process_needles(risk)
        self.search = (
            repo.search_blobs(needles, SHEBANG, process_folds(risk), longer=PROCESS_SCAN_LINE_LIMIT)
            if needles is not None
            else None
        )
        self.lock = threading.Lock()
        self.whole: threading.Thread | None = None
        self.early: threading.Thread | None = None
        self.lister: threading.Thread | None = None
        self.listed: list[Listed] = []
        self.complete = False  # every path is in self.listed
        self.early_maybe: set[str] | None = None  # the search's answer, left to finish()
        self.added: list[AddedLine] = []
        self.errors: list[GitError] = []
        # Both start before the diff: cat-file is then ready when git lists the first blob
        # (on a small candidate its start-up would otherwise follow the diff's), and a scan
        # of the whole diff runs alongside it.
        if self.search is not None:
            self.search.start(early=True)
        else:
            self.whole = threading.Thread(target=self._scan_whole, daemon=True)
            self.whole.start()

    def feed(self, listed: list[Listed], done: bool) -> None:
        """Changed paths as git lists them (``done``: all of them now)."""
        if self.search is not None:
            self._extend(listed, done)
            if not done:
                # the count's listing comes in pieces: once a blob may bring a hit, the
                # scan will run, and a listing of its own lets it start before the count
                # ends (a listing where none may costs no process more)
                self.search.watch(0, self._list_early)
        # while git counts lines, the path rules can learn these paths
        prepare_paths((path for path, _, _, _ in listed), self.risk)
        prepare_paths((old for _, old, _, _ in listed if old), self.risk)

    def _extend(self, listed: list[Listed], done: bool, every: bool = False) -> None:
        """Add to the listing the next paths git listed (``every``: the whole listing,
        of which those known are the start); ``done``: every path is listed now."""
        assert self.search is not None
        with self.lock:
            if self.complete:
                return
            if every:
                have = len(self.listed)
                if listed[:have] != self.listed:
                    return  # not the count's listing: the count completes its own
                listed = listed[have:]
            self.listed.extend(listed)
            self.complete = done
        self.search.add([blob for _, _, blob, _ in listed if blob is not None])
        if done:
            # most changes may bring a hit (every changed file of a module that calls
            # processes): the scan of the whole diff costs no more than theirs, and can
            # start before the search ends
            self.search.watch(max(_MAX_PATHSPECS, len(self.listed) // 2), self._most)
            # every path is listed: the blob search ends and the scan runs while git
            # still counts lines, not after it
            self.early = threading.Thread(target=self._scan_early, daemon=True)
            self.early.start()

    def _list_early(self) -> None:
        """Start :meth:`_list_all` on a thread, unless every path is listed (called once,
        by the search)."""
        with self.lock:
            if self.complete or self.lister is not None:
                return
            self.lister = threading.Thread(target=self._list_all, daemon=True)
            self.lister.start()

    def _join_lister(self) -> None:
        with self.lock:
            lister = self.lister
        if lister is not None:
            lister.join()

    def _list_all(self) -> None:
        try:
            every = self.repo.list_changes(self.cand.base.tree, self.cand.tree)
        except GitError:
            return  # the count lists every path too, or fails with this error
        self._extend(every, True, every=True)

    def _scan_whole(self) -> None:
        try:
            self.added = self._whole()
        except GitError as exc:
            self.errors.append(exc)

    def _most(self) -> None:
        """More than half of the changes may bring a hit: the scan of the whole diff starts
        now, and the search ends (called on the search's reading thread, or in
        :meth:`feed`)."""
        with self.lock:
            if self.whole is None:
                self.whole = threading.Thread(target=self._scan_whole, daemon=True)
                self.whole.start()
        assert self.search is not None
        self.search.stop()

    def _went_whole(self) -> bool:
        with self.lock:
            return self.whole is not None

    def _scan_early(self) -> None:
        try:
            assert self.search is not None
            maybe = self.search.finish()
            if self._went_whole():
                return  # :meth:`finish` waits for that scan
            if any(blob is None for _, _, blob, _ in self.listed):
                # a deletion or a submodule commit (scanned always): told apart by the
                # counted changes only, so :meth:`finish` decides
                self.early_maybe = maybe
                return
            self.added = self._scan(
                [(p, old, sides) for p, old, blob, sides in self.listed if blob in maybe]
            )
        except GitError as exc:
            self.errors.append(exc)

    def _scan(self, wanted: Sequence[tuple[str, str | None, Sides]]) -> list[AddedLine]:
        """The lines to judge, given the changes (path, old path of a rename or copy, its
        sides) whose new side may bring a hit: none; when none is a rename or copy, those
        changes' patches (by pathspecs when they are few, else diffed as trees of their
        own: :meth:`~gentle_hooks.git.repository.Repository.added_lines_of`); else the
        whole diff."""
        if not wanted:
            return []
        if any(old is not None for _, old, _ in wanted):
            return self._whole()
        paths = [p for p, _, _ in wanted]
        ere = self.risk.process_preselect
        if (
            len(paths) <= _MAX_PATHSPECS
            and sum(len(os.fsencode(p)) + 1 for p in paths) <= _MAX_PATHSPEC_BYTES
        ):
            return self.repo.added_lines_matching(self.cand.base.tree, self.cand.tree, ere, paths)
        added = self.repo.added_lines_of([(p, sides) for p, _, sides in wanted], ere)
        return self._whole() if added is None else added

    def _whole(self) -> list[AddedLine]:
        return self.repo.added_lines_matching(
            self.cand.base.tree, self.cand.tree, self.risk.process_preselect
        )

    def finish(self, changes: tuple[PathChange, ...]) -> list[AddedLine]:
        """The added lines to judge, once the diff's ``changes`` are known.

        Raises:
            GitError: a git command failed.
        """
        if self.search is None:
            return self._whole_result()
        self._join_lister()  # it may be starting the scan
        if self.early is not None:
            self.early.join()
            if self._went_whole():
                return self._whole_result()
            if self.errors:
                raise self.errors[0]
            if self.early_maybe is None:
                return self.added
            maybe = self.early_maybe
        else:
            maybe = self.search.finish()
        wanted = [c for c in changes if c.new_oid in maybe or c.new_mode == MODE_GITLINK]
        return self._scan([(c.path, c.old_path, listing(c)[3]) for c in wanted])

    def _whole_result(self) -> list[AddedLine]:
        """The added lines of the whole-diff scan, once it ends (its error raised)."""
        assert self.whole is not None
        self.whole.join()
        if self.errors:
            raise self.errors[0]
        return self.added

    def abort(self) -> None:
        """Stop what still runs (after :meth:`finish`, or when the diff failed)."""
        self._join_lister()
        if self.search is not None:
            self.search.abort()
        if self.whole is not None:
            self.whole.join()
        if self.early is not None:
            self.early.join()
