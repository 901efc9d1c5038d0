"""Which writer entries a change of *another* path may carry (SPEC §3 "Attribution follows
content": a rename or a copy of the writer's content).

Room ``services``. :func:`renamed_changes` reads a rename (a deleted path paired with an
added one, as git pairs them, or a file moved and grown) as a change of the path it came from;
:func:`moved_in_work_tree` finds entries whose content this work tree holds at another
path; :func:`path_change` turns a blob change into what the pure rule reads.
:class:`AcrossIndex` indexes the entries by the writer's blob, by the lines it added and
by the literals of its lines of content (a renamed copy holds none of its keys, but those
literals as written: :func:`gentle_hooks.policy.renamedcopy.copy_anchor`), so each change
is compared (by :func:`gentle_hooks.policy.across.carries_row_across`) only with the
entries it shares a blob, an introduced line or such a literal with: a change of thousands
of paths against thousands of entries stays linear in their sizes, not their product.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.policy.across import MIN_ACROSS, carries_row_across
from gentle_hooks.policy.attribution import (
    CONTENT_ROWS,
    PathChange,
    WriterEntry,
    carries_row,
)
from gentle_hooks.policy.linekeys import any_line_keys
from gentle_hooks.policy.renamedcopy import copy_anchor
from gentle_hooks.policy.renames import Side, grown_pairs, rename_pairs
from gentle_hooks.services.settle import policy_entry


class AcrossIndex:
    """The entries other paths may carry, by blob and by added line.

    Args:
        entries: the live text entries, in the order answers keep.
        rules: each entry's policy view (its blob and its writer delta), by entry id.
    """

    def __init__(
        self, entries: Iterable[WriterEntryRecord], rules: Mapping[int, WriterEntry]
    ) -> None:
        self._by_blob: dict[str, list[WriterEntryRecord]] = {}
        self._by_line: dict[str, list[WriterEntryRecord]] = {}
        self._by_anchor: dict[bytes, list[WriterEntryRecord]] = {}
        self._order: dict[int, int] = {}
        for position, rec in enumerate(entries):
            self._order[rec.id] = position
            rule = rules[rec.id]
            if rule.blob is not None:
                self._by_blob.setdefault(rule.blob, []).append(rec)
            # fewer carry across paths only as the writer's new file whole (wholefile) or
            # as one distinctive telling line (policy.distinctive)
            if len(rule.delta.added) >= MIN_ACROSS or rule.delta.telling:
                for line in rule.delta.added | rule.delta.telling:
                    self._by_line.setdefault(line, []).append(rec)
            # a renamed copy holds none of its keys: it holds a line of content's literal
            # as written (policy.renamedcopy, rows C6 and C7 of policy.coincidence)
            for anchor in {copy_anchor(c.form) for c in rule.delta.copies if c.content}:
                self._by_anchor.setdefault(anchor, []).append(rec)

    def candidates(self, change: PathChange) -> list[WriterEntryRecord]:
        """The entries of other paths whose blob is ``change``'s new blob or that added a line
        it introduces, each once, in the order given at construction; the caller decides
        with the policy row."""
        seen: dict[int, WriterEntryRecord] = {}
        if change.new_blob is not None:
            for rec in self._by_blob.get(change.new_blob, ()):
                if rec.path != change.path:
                    seen.setdefault(rec.id, rec)
        if self._by_line and change.new is not None:
            for line in any_line_keys(change.new) - any_line_keys(change.old):
                for rec in self._by_line.get(line, ()):
                    if rec.path != change.path:
                        seen.setdefault(rec.id, rec)
        if self._by_anchor and change.new is not None:
            for anchor, recs in self._by_anchor.items():
                if anchor in change.new:  # one substring search per anchor, no line read
                    for rec in recs:
                        if rec.path != change.path:
                            seen.setdefault(rec.id, rec)
        return sorted(seen.values(), key=lambda r: self._order[r.id])


def path_change(c: BlobChange, contents: Mapping[str, bytes]) -> PathChange:
    """One changed path as the pure rule reads it: both blob ids and, from ``contents``
    (blob id → bytes), both sides' contents (None where absent)."""
    return PathChange(
        c.path,
        c.old_blob,
        c.new_blob,
        contents.get(c.old_blob) if c.old_blob else None,
        contents.get(c.new_blob) if c.new_blob else None,
        c.mode_changed,
    )


def renamed_changes(
    changes: Sequence[BlobChange], paths: set[str], contents: Mapping[str, bytes]
) -> dict[str, tuple[PathChange, str, bool]]:
    """The deletions of ``paths`` (those with writer entries) that ``changes`` pair with an
    added path as a rename (:func:`~gentle_hooks.policy.renames.rename_pairs`), or as a
    file moved and grown (:func:`~gentle_hooks.policy.renames.grown_pairs`, for those
    left), each read as a change of its own path from its old side to the added path's new
    side: the writer's content renamed is judged as in the path the writer wrote. Each with
    the added path, where the change holds it, and whether it is a grown pair (the caller
    reads it for the writer's own content alone: rows
    :data:`~gentle_hooks.policy.attribution.CONTENT_ROWS`)."""
    gone = [
        Side(c.path, c.old_blob, contents.get(c.old_blob))
        for c in changes
        if c.path in paths and c.old_blob and not c.new_blob
    ]
    if not gone:
        return {}
    added = [
        Side(c.path, c.new_blob, contents.get(c.new_blob))
        for c in changes
        if c.new_blob and not c.old_blob
    ]
    pairs = {path: (new, False) for path, new in rename_pairs(gone, added).items()}
    used = {new.path for new, _ in pairs.values()}
    left = [g for g in gone if g.path not in pairs]
    if left:
        grown = grown_pairs(left, [a for a in added if a.path not in used])
        pairs.update((path, (new, True)) for path, new in grown.items())
    out: dict[str, tuple[PathChange, str, bool]] = {}
    for path, (new, grew) in pairs.items():
        old = next(g for g in gone if g.path == path)
        change = PathChange(path, old.blob, new.blob, old.content, new.content)
        out[path] = (change, new.path, grew)
    return out


def moved_in_work_tree(
    repo: Repository, recs: Sequence[WriterEntryRecord], contents: Mapping[str, bytes]
) -> set[int]:
    """Ids of the entries whose content this work tree holds at another path than theirs,
    not committed yet: ``git mv`` carries the file with the writer's edit while the index
    and the commit keep the old blob (rows A1/A2 across paths, the work tree against
    ``HEAD``; a rename with an edit, paired as git pairs it, as the path it came from). Read
    only when something would expire.

    Raises:
        GitError: git failed.
    """
    head = repo.head()
    base = repo.tree_of(head) if head else repo.empty_tree
    delta = repo.tree_delta(base, repo.snapshot_tree())
    changes = [c for c in delta if c.new_blob]
    if not changes:
        return set()
    known = dict(contents)
    known.update(repo.read_blobs(sorted({b for c in delta for b in (c.old_blob, c.new_blob) if b})))
    views = [path_change(c, known) for c in changes]
    renamed = renamed_changes(delta, {e.path for e in recs}, known)
    moved: set[int] = set()
    for rec in recs:
        rule = policy_entry(rec, known)
        there = renamed.get(rec.path)
        if there is not None and carries_row(there[0], rule) in CONTENT_ROWS:
            moved.add(rec.id)
            continue
        # gone from every version of its path: its content at another path moved there
        if any(carries_row_across(v, rule) in CONTENT_ROWS for v in views):
            moved.add(rec.id)
    return moved
