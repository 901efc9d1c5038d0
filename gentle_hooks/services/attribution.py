"""Which writer work a change carries, and what a writer wrote (SPEC §3 "Attribution
follows content", §6 "pending mutation").

Room ``services``. Wires the git room (blob changes, work-tree blobs, contents), the
ledger (entries by path) and the pure rule (:mod:`gentle_hooks.policy.attribution`):

* :func:`entries_for_write` — what a writer's write left, path by path, as entries to
  record (the blob, the blob it started from, its own lines);
* :func:`carried` — the entries one change carries (the staged index against ``HEAD``, a
  commit against its parent);
* :func:`carried_by_commits` — the same for many commits, batched (a push, a rewrite).

A change is delegated exactly when it carries an entry: decided from trees and recorded
blobs, never from which commit ran a hook last, so ``reset --soft``, amend, rebase,
cherry-pick, squash or another worktree neither launder writer work nor attach it to a
human's commit.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.errors import shown_writer
from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import (
    LIVE_STATES,
    EscalationRecord,
    PendingMutation,
    WriterEntryRecord,
)
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.claims import Claims
from gentle_hooks.services.commit_steps import commit_changes
from gentle_hooks.services.ended_back import back_row, common_blobs, expired_back
from gentle_hooks.services.write_entry import write_entry
from gentle_hooks.values.frozen import frozen, replace


@frozen
class Carried:
    """The writer work one change carries.

    Attributes:
        entries: the entries it carries, oldest first; mutations: their mutations (model,
            effort, source), oldest first; escalations: escalations sticky for them;
        by_shape: ids of the entries it carries only by the shape of its change (rows A3,
            A4), not by holding the writer's content (rows A1, A2, A6);
        claimable: ids of the entries it holds only as content a human makes alike
            (:func:`~gentle_hooks.policy.attribution.holds_own_lines` false: row A6, or a
            removal-only write's blob);
        held_at: (an entry's path, a path the change holds its content at), sorted: the
            same path, or another (``git mv a.py b.py``, a copy): :func:`held_paths`;
        claimed_at: (an entry's id, a path the change holds its content at) that a
            person's claim made theirs there (:class:`~gentle_hooks.services.claims.Claims`),
            sorted: not carried, but the commit's note names the claim.
    """

    entries: tuple[WriterEntryRecord, ...] = ()
    mutations: tuple[PendingMutation, ...] = ()
    escalations: tuple[EscalationRecord, ...] = ()
    by_shape: frozenset[int] = frozenset()
    claimable: frozenset[int] = frozenset()
    held_at: tuple[tuple[str, str], ...] = ()
    claimed_at: tuple[tuple[int, str], ...] = ()

    @property
    def delegated(self) -> bool:
        """True when the change carries writer content."""
        return bool(self.entries)

    def writers(self) -> tuple[str, ...]:
        """``model/effort`` of each distinct writer, in the order they wrote; an entry
        whose mutation is not in the store (a quarantined row discarded) counts as
        ``unknown/unknown`` (SPEC §5 writer profile: no evidence → fallback, small)."""
        names = tuple(dict.fromkeys(shown_writer(m.model, m.effort) for m in self.mutations))
        known = {m.id for m in self.mutations}
        if any(e.mutation_id not in known for e in self.entries):
            names = (*names, "unknown/unknown") if "unknown/unknown" not in names else names
        return names

    def paths(self) -> tuple[str, ...]:
        """The paths whose writer content the change carries, sorted."""
        return tuple(sorted({e.path for e in self.entries}))


NOTHING = Carried()


def held_paths(paths: Sequence[str], held_at: Sequence[tuple[str, str]]) -> list[str]:
    """The paths of writer entries (``paths``) as the change holds them, each shown on
    one line (:func:`~gentle_hooks.policy.shellwords.shown_path`): held at another path
    (``held_at``: (entry path, the path holding it)), it is named where it is, ``b.py (was
    a.py)`` after ``git mv a.py b.py``, ``b.py (from a.py)`` when ``a.py`` holds it too (a
    copy); a path ``held_at`` does not place is named as it is."""
    from gentle_hooks.policy.shellwords import shown_path

    out: list[str] = []
    for path in paths:
        there = [new for old, new in held_at if old == path]
        if path in there or not there:
            out.append(shown_path(path))
        word = "from" if path in there else "was"
        out.extend(f"{shown_path(new)} ({word} {shown_path(path)})" for new in there if new != path)
    return out


def carried(
    repo: Repository, led: Ledger | None, changes: Sequence[BlobChange], commit: str = ""
) -> Carried:
    """The writer entries ``changes`` (one change, path by path) carry.

    Args:
        repo: where the blobs are; led: the ledger, or None (no ledger: nothing carried);
        changes: its paths with both sides' blob ids; commit: the commit it is ("": none).

    Raises:
        GitError: a blob cannot be read; StoreError: the ledger cannot be read.
    """
    return carried_by_change(repo, led, {commit: changes})[commit]


def carried_by_change(
    repo: Repository,
    led: Ledger | None,
    changes: Mapping[str, Sequence[BlobChange]],
    entries: Sequence[WriterEntryRecord] | None = None,
) -> dict[str, Carried]:
    """:func:`carried` for many changes (keyed by commit id, ``""``: the change made here)
    of ``entries`` (None: the live ones, and the expired ones whose content came back: their
    writer blob is a new blob of a change, or, for
    :data:`~gentle_hooks.policy.distinctive.EXPIRED_LINES_DAYS` days after the write, a
    change of their path adds one of their distinctive writer lines, removes one of the
    distinctive lines the writer removed or makes the writer's exact hunk again,
    :func:`~gentle_hooks.policy.distinctive.brought_back`,
    :func:`~gentle_hooks.policy.distinctive.removed_again`,
    :func:`~gentle_hooks.policy.distinctive.hunk_back`: a patch of the work re-applied, an
    ignored copy put back; :mod:`.ended_back`) at once; expired work never by a change to
    content too short or common to tell its writer, as the server reads it
    (:func:`~gentle_hooks.services.ended_back.common_blobs`). Another worktree than
    an entry's needs firmer evidence (``elsewhere``) unless it took it; a commit is made
    where its recorded worktree says (hooks off: where it is judged)."""
    out = dict.fromkeys(changes, NOTHING)
    if led is None:
        return out
    paths = sorted({c.path for cs in changes.values() for c in cs})
    if not paths:
        return out
    live = led.live_entries() if entries is None else list(entries)
    lined: set[int] = set()  # expired entries a change holds only by their distinctive lines
    ended: set[int] = set()  # expired entries: only content that tells its writer counts
    if entries is None:  # expired work whose blob or lines came back (a dropped stash)
        back, lines = expired_back(led, changes, paths, time.time())
        live += back + lines
        lined = {e.id for e in lines}
        ended = lined | {e.id for e in back}
    if not live:
        return out
    # imported here: only live writer work is compared (a push of recorded commits has none)
    from gentle_hooks.policy.across import carries_row_across
    from gentle_hooks.policy.attribution import CONTENT_ROWS, carries_row, holds_own_lines
    from gentle_hooks.services.across import AcrossIndex, path_change, renamed_changes
    from gentle_hooks.services.settle import (
        content_away,
        delivered_left_out,
        entry_blobs,
        policy_entry,
    )

    by_path: dict[str, list[WriterEntryRecord]] = {}
    for rec in delivered_left_out(repo, led, live):
        by_path.setdefault(rec.path, []).append(rec)
    if not by_path:
        return out
    # a change of a path with no entry of its own may hold another path's writer content
    # (a rename, a copy): every changed path is compared, against every entry
    across = [e for es in by_path.values() for e in es if not e.binary and e.id not in lined]
    relevant = {
        k: [c for c in cs if c.path in by_path or (across and c.new_blob)]
        for k, cs in changes.items()
    }
    recs = [e for es in by_path.values() for e in es]
    here = repo.paths.toplevel
    made = led.commit_worktrees([k for k in relevant if k])
    makers = {k: made.get(k, frozenset({here} if here else ())) for k in relevant}
    others = [
        e.id for e in recs if e.state == "taken" and any(e.root not in m for m in makers.values())
    ]
    took = {(t.entry_id, t.commit_id) for t in led.entry_takes(others)}
    blob_ids = sorted(
        {b for cs in relevant.values() for c in cs for b in (c.old_blob, c.new_blob) if b}
        | entry_blobs(recs)
    )
    contents = repo.read_blobs(blob_ids)
    rules = {e.id: policy_entry(e, contents) for e in recs}
    # the new contents of the changes, when expired work may come back in them
    news = {c.new_blob for cs in relevant.values() for c in cs if c.new_blob} if ended else ()
    common = common_blobs({b: contents[b] for b in news if b in contents})
    index = AcrossIndex(across, rules)
    found: dict[str, list[WriterEntryRecord]] = {}
    at: dict[str, set[tuple[int, str]]] = {}  # (entry id, the path holding its content)
    holding: dict[str, set[int]] = {}
    own: dict[str, set[int]] = {}  # held by the writer's own lines (holds_own_lines)

    def hold(key: str, rec: WriterEntryRecord, row: str) -> None:
        holding.setdefault(key, set()).add(rec.id)
        if holds_own_lines(row, rules[rec.id]):
            own.setdefault(key, set()).add(rec.id)

    def find(key: str, rec: WriterEntryRecord, where: str) -> None:
        found.setdefault(key, []).append(rec)
        at.setdefault(key, set()).add((rec.id, where))

    claims = Claims(led)  # a person's line and copy claims, read when a change holds one
    claimed: dict[str, set[tuple[int, str]]] = {}  # (entry id, path) a claim made theirs

    for key, cs in relevant.items():
        renamed = renamed_changes(changes[key], set(by_path), contents)
        for c in cs:
            change, where, grown = renamed.get(c.path) or (path_change(c, contents), c.path, False)
            # no expired work comes back in content too common to tell its writer
            skip = ended if c.new_blob in common else set()
            for rec in by_path.get(c.path, []):
                if rec.id in skip:
                    continue
                if rec.id in lined:  # ended work: only its distinctive lines bring it back
                    if by := back_row(change, rules[rec.id], contents):
                        hold(key, rec, by)
                        find(key, rec, where)
                    continue
                elsewhere = rec.root not in makers[key] and (rec.id, key) not in took
                if elsewhere and claims.copy(rec.id, rec.root, where, c.new_blob, makers[key]):
                    claimed.setdefault(key, set()).add((rec.id, where))
                    continue  # a person's same change in their own worktree, claimed
                row = carries_row(change, rules[rec.id], elsewhere=elsewhere)
                if grown and row not in CONTENT_ROWS:  # a file moved and grown: content only
                    row = "A5"
                if row in CONTENT_ROWS:
                    hold(key, rec, row)
                if row not in ("A5", "A9"):  # A9: a person's own rewrite of the file
                    find(key, rec, where)
            for rec in index.candidates(change):
                if rec.id in skip:
                    continue
                row = carries_row_across(change, rules[rec.id])
                if row not in CONTENT_ROWS:
                    continue
                if claims.line(rec.id, where, change, rules[rec.id]) or claims.copy(
                    rec.id, rec.root, where, c.new_blob, makers[key], rec.path
                ):
                    claimed.setdefault(key, set()).add((rec.id, where))
                else:
                    hold(key, rec, row)
                    find(key, rec, where)
    shaped = [  # open work a change carries only by the shape of its change (rows A3, A4)
        e
        for k, es in found.items()
        for e in es
        if e.id not in holding.get(k, ()) and e.state == "open"
    ]
    away = set(content_away(repo, shaped)) if shaped else set()
    for key, entries in found.items():
        held = holding.get(key, set())
        kept = [e for e in entries if e.id in held or e.id not in away]
        path = {e.id: e.path for e in kept}
        places = [(path[i], where) for i, where in at.get(key, ()) if i in path]
        out[key] = carried_of(led, kept, held, own.get(key, set()), places)
    for key, pairs in claimed.items():  # the note of a commit holding them names the claim
        out[key] = replace(out[key], claimed_at=tuple(sorted(pairs)))
    return out


def carried_of(
    led: Ledger,
    entries: Iterable[WriterEntryRecord],
    holding: set[int],
    own: set[int] | None = None,
    held_at: Iterable[tuple[str, str]] = (),
) -> Carried:
    """The work of ``entries`` (``holding``: ids of those holding the writer's content;
    ``own``: of those, the ids held by the writer's own lines, None: all of them;
    ``held_at``: :attr:`Carried.held_at`), with their mutations and sticky escalations."""
    unique = sorted({e.id: e for e in entries}.values(), key=lambda e: e.id)
    if not unique:
        return NOTHING
    ids = [e.id for e in unique]
    return Carried(
        tuple(unique),
        tuple(led.mutations(sorted({e.mutation_id for e in unique}))),
        tuple(led.escalations_for_entries(ids)),
        frozenset(ids) - holding,
        frozenset(holding - own) & frozenset(ids) if own is not None else frozenset(),
        tuple(sorted(set(held_at))),
    )


def revised(repo: Repository, led: Ledger, work: Carried, head: str, tree: str) -> Carried:
    """``work`` of an amend of ``head`` into ``tree``, with the entries of the writer's
    commit it revises holding (:func:`~gentle_hooks.services.settle.revised_entries`)."""
    from gentle_hooks.services.settle import revised_entries

    took = revised_entries(repo, led, head, tree)
    held = {e.id for e in (*work.entries, *took)} - work.by_shape
    if not took:
        return work
    return carried_of(led, [*work.entries, *took], held, held - work.claimable, work.held_at)


def carried_by_commits(
    repo: Repository, led: Ledger | None, infos: Sequence[CommitInfo], counted: bool = False
) -> dict[str, Carried]:
    """The writer work each commit carries against its parents
    (:func:`~gentle_hooks.services.commit_steps.commit_changes`, ``counted`` passed on)."""
    if led is None or not infos:
        return dict.fromkeys((i.id for i in infos), NOTHING)
    return carried_by_change(repo, led, commit_changes(repo, infos, counted))


def entries_for_write(
    repo: Repository, led: Ledger | None, root: str, paths: Sequence[str]
) -> list[WriterEntryRecord]:
    """Entries for what a writer just wrote to ``paths`` (root-relative), to record.

    Each holds the blob the path holds now (None: the writer deleted it), the blob it
    started from — of the root's last open entry for that path, the index's and
    ``HEAD``'s, the nearest to what it holds now
    (:func:`~gentle_hooks.policy.starts.nearest_start`; in that order on a tie: a
    human's staged work is where the writer started, not the writer's; an index that holds
    what the write left is that result staged, not a start) — and the keys of
    the lines the writer added and removed. A path whose content did not change from where
    the writer started gets no entry. With ``led`` None (a ledger that cannot be opened)
    no earlier write is a start.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.policy.starts import nearest_start

    head = repo.head()
    now = repo.hash_worktree(paths)
    at_head: dict[str, str | None] = dict(repo.blobs_in(repo.tree_of(head), paths)) if head else {}
    staged = dict(repo.blobs_staged(paths))
    written: dict[str, str | None] = {}
    # oldest first: the last write wins (no ledger: the write is measured from git alone)
    for rec in led.open_entries(root, sorted(now)) if led is not None else ():
        if rec.path in now:
            written[rec.path] = rec.blob
    versions = (*now.values(), *at_head.values(), *staged.values(), *written.values())
    contents = repo.read_blobs(sorted({b for b in versions if b}))
    out = []
    for path in sorted(now):
        after = now[path]
        starts = [written[path]] if path in written else []
        if staged.get(path) != after:  # the write's own result, staged, is no start
            starts.append(staged.get(path))
        starts.append(at_head.get(path))
        texts = [contents.get(b) if b else None for b in starts]
        start = starts[nearest_start(contents.get(after) if after else None, texts)]
        if after == start:
            continue
        out.append(write_entry(root, path, after, start, head, contents))
    return out


def expire_shaped(repo: Repository, path: str, works: Iterable[Carried]) -> list[WriterEntryRecord]:
    """Expire the pending entries ``works`` carry only by the shape of their change (rows
    A3, A4) whose content is nowhere any more (:func:`expire_gone`): the writer's lines are
    in no version of the path, so a change that merely touches the same lines is not the
    writer's. A removal-only or a binary write cannot be told from a human's change of the
    same place: it counts here only after a ``git reset`` moved ``HEAD`` of the worktree
    it was recorded in since then (its ``HEAD`` reflog:
    :meth:`~gentle_hooks.git.refs.Refs.head_reset_since` with the entry's root: the path
    put back, the work thrown away); until then it stays delegating (fail closed). The
    caller carries again when something expired.

    Args:
        path: the ledger file (opened for writing only when there is something to check).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    # taken too: its commit may have been reset away
    live = [e for w in works for e in w.entries if e.id in w.by_shape and e.state in LIVE_STATES]
    # the reset is looked for where the entry was recorded (the change may be another's)
    asked = {(e.root, e.recorded_at) for e in live if not e.added or e.binary}
    reset = {k for k in asked if repo.head_reset_since(k[1], k[0])}
    shaped = {  # a removal-only or binary write: only after a reset put the path back
        e.id: e for e in live if (e.added and not e.binary) or (e.root, e.recorded_at) in reset
    }
    if not shaped:
        return []
    with Ledger.open(path) as writable:
        return expire_gone(repo, writable, list(shaped.values()))


def expire_gone(
    repo: Repository, led: Ledger, entries: Sequence[WriterEntryRecord]
) -> list[WriterEntryRecord]:
    """Expire the open entries whose content is nowhere any more: not in the work tree,
    the index or ``HEAD`` of any worktree of the repository (``git worktree list``: the
    writer may have written in another one), not in any unpushed commit or stash that
    changes their path, and not moved to another path of this work tree
    (:func:`~gentle_hooks.services.across.moved_in_work_tree`) (SPEC §3: pending work
    "expires with a status line, never a block").

    Open and taken entries are considered: a taken entry's content stays in the commits
    that took it while one is on a branch, in the stash or checked out (they are versions
    searched here); once ``reset --hard`` threw those commits away it is gone like an open
    entry's. A commit that took it keeps its commit record, so it stays delegated wherever
    it is pushed.

    Returns:
        The entries expired now.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    candidates = [e for e in entries if e.state in LIVE_STATES]
    if not candidates or repo.paths.toplevel is None:
        return []
    from gentle_hooks.services.across import moved_in_work_tree
    from gentle_hooks.services.settle import (
        entry_blobs,
        holds_writer_content,
        local_versions,
        policy_entry,
    )

    paths = sorted({e.path for e in candidates})
    versions = local_versions(repo, paths)
    blobs = sorted({b for v in versions for b in v.values() if b} | entry_blobs(candidates))
    contents = repo.read_blobs(blobs)
    gone = []
    for rec in candidates:
        rule = policy_entry(rec, contents)
        present = any(
            holds_writer_content(rule, v.get(rec.path), contents.get(v.get(rec.path) or ""))
            for v in versions
            if rec.path in v or rec.blob is None
        )
        if not present:
            gone.append(rec)
    moved = moved_in_work_tree(repo, gone, contents) if gone else set()
    gone = [e for e in gone if e.id not in moved]
    led.set_entry_state([e.id for e in gone], "expired")
    return gone


def expiry_lines(expired: Sequence[WriterEntryRecord]) -> list[str]:
    """One status line per path whose pending writer work expired: what was searched (the
    path in every local version, :func:`expire_gone`), and that the work's distinctive
    lines brought back (or its removed ones removed again) are the writer's again for
    :data:`~gentle_hooks.policy.distinctive.EXPIRED_LINES_DAYS` days
    (:func:`carried_by_change`)."""
    if not expired:
        return []
    from gentle_hooks.policy.distinctive import EXPIRED_LINES_DAYS
    from gentle_hooks.policy.shellwords import shown_path

    paths = [shown_path(p) for p in sorted({e.path for e in expired})]
    return [
        f"pending writer work on {p} expired: no worktree, index, HEAD, unpushed commit or "
        "stash holds its content at that path (copies elsewhere, ignored ones too, are not "
        "searched); its distinctive lines brought back, or removed again, are the writer's "
        f"again for {EXPIRED_LINES_DAYS} days from the write"
        for p in paths
    ]
