"""What a writer's entry still owes, and which local versions may hold it (SPEC §3
"Attribution follows content": pending work ends when the commits that contain it take
it — only what they contain).

Room ``services``. Reads the git room (pushed commits, trees, work trees, indexes) and the
ledger (entries, takes), and asks the pure rule
(:func:`gentle_hooks.policy.delivery.delivered_row`):

* :func:`policy_entry` / :func:`entry_blobs` — a stored entry as the rule reads it;
* :func:`local_versions` — the versions of some paths that may still hold writer work;
* :func:`delivered_left_out` — live entries without those pushed commits delivered whole
  (they end as ``settled``);
* :func:`rewrite_keeps_writer_content` — whether an amend or a rebase of a commit kept any
  of the writer content it carried; :func:`kept_by_amend` — the entries that names;
* :func:`own_lines_kept` / :func:`returned_ids` — what a ``discard`` may end: the writer's
  own lines still here refuse it, unless that content had expired and came back, or a
  person's own version of the file replaced it (:func:`rewritten_ids`);
  :func:`stash_holders` — the entries a stash holds (a discard of them is refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.git.checkout import other_worktrees
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.attribution import (
    UNKNOWN_BEFORE,
    WriterEntry,
    held_keys,
    holds_own_lines,
    writer_delta,
)
from gentle_hooks.policy.delivery import SETTLED_ROWS, delivered_row
from gentle_hooks.policy.delta import WriterDelta
from gentle_hooks.policy.linekeys import any_line_keys, line_keys
from gentle_hooks.policy.placement import placements


def policy_entry(
    rec: WriterEntryRecord, contents: Mapping[str, bytes] | None = None
) -> WriterEntry:
    """A stored entry as the pure rule reads it: its delta recomputed from the blobs it
    names when ``contents`` holds them (keys follow the current
    :func:`~gentle_hooks.policy.attribution.line_key`, whatever version recorded it), else
    its stored keys."""
    delta = WriterDelta(frozenset(rec.added), frozenset(rec.removed), rec.binary)
    if contents is not None and rec.before_blob != UNKNOWN_BEFORE:
        ends = (rec.before_blob, rec.blob)
        if all(b is None or b in contents for b in ends):
            before, after = (contents[b] if b else None for b in ends)
            delta = writer_delta(before, after)
    return WriterEntry(rec.path, rec.blob, rec.before_blob, delta)


def entry_blobs(entries: Iterable[WriterEntryRecord]) -> set[str]:
    """The blob ids the entries name (what the writer started from and left)."""
    return {b for e in entries for b in (e.blob, e.before_blob) if b and b != UNKNOWN_BEFORE}


def local_versions(repo: Repository, paths: Sequence[str]) -> list[dict[str, str | None]]:
    """The blob of each of ``paths`` (root-relative) in every local version that may hold
    writer work not yet pushed: the work tree, the index (the one git hands a hook, and
    this worktree's own when that is another: ``commit --only``) and ``HEAD`` of every worktree of
    the repository (``git worktree list``), and every unpushed commit or stash entry that
    changes one of them. One mapping per version; a path absent there is left out (the
    work tree maps it to None).

    Raises:
        GitError: git failed.
    """
    versions: list[dict[str, str | None]] = [
        dict(repo.hash_worktree(paths)),
        dict(repo.blobs_staged(paths)),
    ]
    own = repo.own_index()  # a hook's temporary index: the user's staged work is here
    if own is not None:
        versions.append(dict(repo.blobs_staged(paths, own)))
    head = repo.head()
    if head is not None:
        versions.append(dict(repo.blobs_in(repo.tree_of(head), paths)))
    for other in other_worktrees(repo):  # the writer's work may be pending in another one
        versions.append(dict(other.hash_worktree(paths)))
        versions.append(dict(other.blobs_staged(paths)))
        there = other.head()
        if there is not None:
            versions.append(dict(other.blobs_in(other.tree_of(there), paths)))
    for commit in repo.unpushed_commits_touching(paths):
        versions.append(dict(repo.blobs_in(repo.tree_of(commit), paths)))
    return versions


def delivered_left_out(
    repo: Repository, led: Ledger, entries: list[WriterEntryRecord]
) -> list[WriterEntryRecord]:
    """``entries`` without those already delivered whole: taken by commits on a
    remote-tracking ref (the push gates judged them; SPEC §6 ``settled``) that hold all the
    writer content any local version still holds (rows D1-D3 of
    :func:`~gentle_hooks.policy.delivery.delivered_row`). Those end as ``settled``:
    content a push delivered does not make a later commit delegated again (a merge of that
    branch into another, a rebase onto it, a human's next edit of the file), unless the
    commit adds it again onto another base (:mod:`gentle_hooks.services.reapplied`, at
    push). An entry a push
    delivered only part of (row D4) stays live, so the rest cannot pass unverified.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read or written.
    """
    taken = [e.id for e in entries if e.state == "taken"]
    if not taken:
        return entries
    takes = led.entry_takes(taken)
    pushed = repo.pushed_commits({t.commit_id for t in takes})
    by_entry: dict[int, list[str]] = {}
    for t in takes:
        if t.commit_id in pushed:
            by_entry.setdefault(t.entry_id, []).append(t.commit_id)
    if not by_entry:
        return entries
    recs = [e for e in entries if e.id in by_entry]
    paths = sorted({e.path for e in recs})
    shipped = {c: repo.blobs_in(repo.tree_of(c), paths) for c in sorted(pushed)}
    local = local_versions(repo, paths)
    blob_ids = {b for v in shipped.values() for b in v.values()}
    blob_ids |= {b for v in local for b in v.values() if b}
    contents = repo.read_blobs(sorted(blob_ids | entry_blobs(recs)))
    settled = []
    for rec in recs:
        versions = [shipped[c].get(rec.path) for c in by_entry[rec.id]]
        row = delivered_row(
            policy_entry(rec, contents),
            [(b, contents.get(b) if b else None) for b in versions],
            [contents.get(b) if b else None for v in local if (b := v.get(rec.path))],
        )
        if row in SETTLED_ROWS:
            settled.append(rec.id)
    if settled:  # once: a settled entry is never read again
        with Ledger.open(led.path) as writable:
            writable.set_entry_state(sorted(settled), "settled")
    ended = set(settled)
    return [e for e in entries if e.id not in ended]


def rewrite_keeps_writer_content(
    repo: Repository, led: Ledger, old: str, tree: str, parent: str | None = None
) -> bool:
    """Whether ``tree`` (what an amend or a rebase made of commit ``old``) is still the
    writer's commit: an entry's path there is the writer's blob, or still differs from
    where the writer started (the writer's commit revised: an amend that edits the
    writer's own line is the writer's commit still, fail closed). False only when every
    such path went back to where the writer started, or was deleted while the writer had
    left content there, or (with ``parent``, the tree the rewritten commit follows) is
    one whose writer content ``parent`` already holds (:func:`holds_writer_content`: a
    rebase onto a base that has it, so the commit adds none of it): the rewritten commit
    is then the human's (its trailer and its stale commit record dropped). The entries
    compared are those ``old`` took, else those the commit its record was first made for
    took (a record carried across rewrites). True when neither took an entry (nothing to
    compare with: its record stays).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    entries = rewritten_entries(led, old)
    if not entries:
        return True
    paths = sorted({e.path for e in entries})
    now = dict(repo.blobs_in(tree, paths))
    before = dict(repo.blobs_in(parent, paths)) if parent is not None else {}
    contents = (
        repo.read_blobs(sorted({b for b in before.values() if b} | entry_blobs(entries)))
        if before
        else {}
    )
    for rec in entries:
        base = before.get(rec.path)
        if base is not None and holds_writer_content(
            policy_entry(rec, contents), base, contents.get(base)
        ):
            continue  # the base it follows holds this writer content already
        blob = now.get(rec.path)
        if blob == rec.blob:
            return True
        if blob is not None and blob != rec.before_blob:
            return True
    return False


def rewritten_entries(led: Ledger, old: str) -> list[WriterEntryRecord]:
    """The entries (in any state) commit ``old`` took, else those the commit its record
    was first made for took (a record carried across rewrites: an amend of a pushed writer
    commit takes no settled entry), oldest first.

    Raises:
        StoreError: the ledger cannot be read.
    """
    entries = led.entries_taken_by([old])
    if not entries:
        origins = [r.origin for r in led.commit_records([old]) if r.origin and r.origin != old]
        entries = led.entries_taken_by(sorted(set(origins)))
    return entries


def kept_by_amend(repo: Repository, led: Ledger, head: str, tree: str) -> list[WriterEntryRecord]:
    """The entries of the writer's commit ``head`` (:func:`rewritten_entries`, settled by a
    push or not) when ``tree`` (an amend of it, its tree changed or not) keeps their
    writer content (:func:`rewrite_keeps_writer_content`); else none: what names the
    writers of an amended writer commit once no live record carries its content.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    entries = rewritten_entries(led, head)
    if not entries or not rewrite_keeps_writer_content(repo, led, head, tree):
        return []
    return entries


def revised_entries(repo: Repository, led: Ledger, head: str, tree: str) -> list[WriterEntryRecord]:
    """The entries ``head`` took when ``tree`` (an amend of it) is the writer's commit
    revised, as post-rewrite records it: the tree changed and still keeps the writer's
    content (:func:`rewrite_keeps_writer_content`); else none.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    took = led.entries_taken_by([head])
    if not took or repo.tree_of(head) == tree:
        return []
    return took if rewrite_keeps_writer_content(repo, led, head, tree) else []


def holds_writer_content(
    rec: WriterEntry, blob: str | None, content: bytes | None, *, own: bool = False
) -> bool:
    """Whether one version of the entry's path still holds what the writer wrote: its
    blob, or (text) as many of its lines as would make a change carry it, or one telling
    line of them, a short action included (rows A1, A2), or one of its edits: a line the
    writer added where a line it removed is gone, or the block it put there with names
    renamed on top (row A6: :mod:`gentle_hooks.policy.renamededit`), or one line it added
    between the lines it put it between (row A7), unless the version is a rewrite of the
    file (row A9, :mod:`gentle_hooks.policy.rewrite`, against the content the writer
    started from). ``own``: only the writer's own lines (rows A1
    and A2 as :func:`~gentle_hooks.policy.attribution.holds_own_lines` reads them), never
    what a human makes alike."""
    if blob == rec.blob:
        return not own or holds_own_lines("A1", rec)
    added = rec.delta.added
    if rec.delta.binary or not added or content is None:
        return False
    held = held_keys(rec.delta, content)
    if len(held) >= min(2, len(added)):
        return True
    keys = any_line_keys(content)
    telling = rec.delta.telling
    if telling and (held | keys) & telling:
        return True
    if own:
        return False
    from gentle_hooks.policy.rewrite import rewrites  # few writer lines held: row A9 next

    if rewrites(rec.delta.started, line_keys(content), rec.delta.left):
        return False  # a person's own version of the file: its edit alike is by chance
    from gentle_hooks.policy.renamededit import holds_renamed_edit

    if holds_renamed_edit(rec.delta.edits, content):  # its block, names renamed on top
        return True
    edited, dropped = rec.delta.edited()
    if keys & edited and dropped - keys:
        return True
    return bool(placements(content) & rec.delta.placed)


def _checked_out(
    repo: Repository, entries: Sequence[WriterEntryRecord]
) -> list[tuple[WriterEntryRecord, WriterEntry, list[tuple[str | None, bytes | None]]]]:
    """Per entry of ``entries``: itself, as the pure rule reads it (:func:`policy_entry`),
    and its path's (blob, content) in this work tree, then in the index (None: absent
    there). All blobs are read in one go.

    Raises:
        GitError: git failed.
    """
    paths = sorted({e.path for e in entries})
    versions: list[dict[str, str | None]] = [
        dict(repo.hash_worktree(paths)),
        dict(repo.blobs_staged(paths)),
    ]
    blobs = {b for v in versions for b in v.values() if b} | entry_blobs(entries)
    contents = repo.read_blobs(sorted(blobs))
    return [
        (
            rec,
            policy_entry(rec, contents),
            [(v.get(rec.path), contents.get(v.get(rec.path) or "")) for v in versions],
        )
        for rec in entries
    ]


def content_away(repo: Repository, entries: Sequence[WriterEntryRecord]) -> list[int]:
    """Ids of the text ``entries`` (with added lines) whose writer content neither this work
    tree nor its index holds (:func:`holds_writer_content`): it waits in a stash, a branch
    or another worktree. A change that carries such an entry only by the shape of its
    change (rows A3, A4: it removed what the writer removed) is the human's own edit of
    the same place, not the writer's work; the entry stays pending for when its content
    comes back (``git stash pop``). Each entry is answered once, however often given.

    Raises:
        GitError: git failed.
    """
    text = list({e.id: e for e in entries if e.added and not e.binary}.values())
    if not text or repo.paths.toplevel is None:
        return []
    return [
        rec.id
        for rec, rule, copies in _checked_out(repo, text)
        if not any(holds_writer_content(rule, blob, content) for blob, content in copies)
    ]


def own_lines_kept(repo: Repository, entries: Sequence[WriterEntryRecord]) -> list[str]:
    """The paths of ``entries`` whose writer's own lines (:func:`holds_writer_content` with
    ``own``) this work tree or its index still holds, sorted: a ``discard`` would not make
    them a human's (the commit and push gates judge a change holding them the writer's).

    Raises:
        GitError: git failed.
    """
    if not entries or repo.paths.toplevel is None:
        return []
    kept = {
        rec.path
        for rec, rule, copies in _checked_out(repo, entries)
        if any(holds_writer_content(rule, blob, content, own=True) for blob, content in copies)
    }
    return sorted(kept)


def returned_ids(
    entries: Sequence[WriterEntryRecord], repo: Repository | None = None
) -> frozenset[int]:
    """The ids of ``entries`` whose writer content went away after they were recorded, so
    that a change holding it again may be a human's typing of it (a ``discard`` claims it,
    recorded as an override line in the note of a commit holding it): the expired entries
    (the expiry check proved their content was nowhere: work tree, index, ``HEAD`` of every
    worktree, unpushed commits, stash), and, with ``repo``, the open ones thrown away by a
    ``git reset`` before anything expired them: a reset since the record in the ``HEAD``
    reflog of the worktree the entry was recorded in (the change holding it again may be
    another worktree's) and the path's file there written since then (a no-op ``git
    reset`` keeps every file: its entries stay the writer's), unless a stash took the
    content (:func:`stash_holders`, popped or dropped since too: ``git stash`` logs the
    same reset). So whether a status ran
    between the reset and the retyping does not change the outcome (issue 13). A taken
    entry never: its commit was the writer's.

    Raises:
        GitError: git failed.
    """
    out = {e.id for e in entries if e.state == "expired"}
    opened = [e for e in entries if e.state == "open" and _rewritten(e)]
    if repo is not None and opened:
        # the reset is looked for in the writer's worktree (its own HEAD's reflog): work
        # recorded in linked worktree B and reset away there may be typed again in A
        asked = {(e.root, e.recorded_at) for e in opened}
        reset = {k for k in asked if repo.head_reset_since(k[1], k[0])}
        opened = [e for e in opened if (e.root, e.recorded_at) in reset]
        # ``git stash`` logs the same ``reset: moving to HEAD`` as ``git reset --hard``:
        # content a stash took (kept, popped or dropped since) never was nowhere
        stashed = stash_holders(repo, opened, dropped=True) if opened else {}
        out |= {e.id for e in opened if e.id not in stashed}
    return frozenset(out)


def rewritten_ids(repo: Repository, entries: Sequence[WriterEntryRecord]) -> frozenset[int]:
    """The ids of this work tree's open text ``entries`` whose writer content a person's own
    version of the file replaced (issue 13: ``git checkout -- FILE`` or an editor, then the
    file written anew): neither this work tree nor its index holds the writer's blob at the
    entry's path, every version there rewrites the file (row A9 of
    :mod:`gentle_hooks.policy.attribution`, against the content the writer started from),
    and no stash entry holds the writer's content (:func:`stash_holders`: popped again it
    is the writer's pending work). A change holding writer lines there anyway (row A2: two
    of them, or one telling one) is a reading only the person can settle: the ``discard``
    the commit gate then offers claims it, recorded, an override line in the commit's note.
    Another worktree's entries and taken ones never.

    Raises:
        GitError: git failed.
    """
    here = repo.paths.toplevel
    mine = [e for e in entries if e.state == "open" and e.root == here and not e.binary]
    if not mine:
        return frozenset()
    from gentle_hooks.policy.rewrite import rewrites  # on a commit gate with open entries

    found = []
    for rec, rule, copies in _checked_out(repo, mine):
        held = [content for blob, content in copies if blob is not None]
        if not held or any(blob == rec.blob for blob, _ in copies):
            continue
        delta = rule.delta
        if all(c is not None and rewrites(delta.started, line_keys(c), delta.left) for c in held):
            found.append(rec)
    stashed = stash_holders(repo, found) if found else {}
    return frozenset(e.id for e in found if e.id not in stashed)


def stash_holders(
    repo: Repository, entries: Sequence[WriterEntryRecord], dropped: bool = False
) -> dict[int, str]:
    """Of ``entries``, those a stash entry holds the writer content of at their path (its
    work-tree, index or untracked-files commit, read by :func:`holds_writer_content`), each
    with the newest such entry's name (``stash@{N}``); with ``dropped``, also those a stash
    made since the entry was recorded and popped or dropped since holds
    (:func:`~gentle_hooks.git.stashes.dropped_stashes`), named ``a dropped stash``. A
    discard is refused while a stash holds the content (docs/security.md: it claims writer
    content only once its content was nowhere, stashes included), and content popped
    again is the writer's pending work as before (issue 13, refuter r13c).

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.git.stashes import dropped_stashes, stash_entries

    if not entries:
        return {}
    kept: list[tuple[str, tuple[str, ...]]] = stash_entries(repo)
    if dropped:
        since = min(e.recorded_at for e in entries)
        kept += [("a dropped stash", parts) for parts in dropped_stashes(repo, since)]
    if not kept:
        return {}
    paths = sorted({e.path for e in entries})
    versions = [
        (name, repo.blobs_in(repo.tree_of(commit), paths))
        for name, parts in kept
        for commit in parts
    ]
    blobs = {b for _, v in versions for b in v.values()} | entry_blobs(entries)
    contents = repo.read_blobs(sorted(blobs))
    found: dict[int, str] = {}
    for rec in entries:
        rule = policy_entry(rec, contents)
        for name, v in versions:
            blob = v.get(rec.path)
            if blob is not None and holds_writer_content(rule, blob, contents.get(blob)):
                found[rec.id] = name
                break
    return found


def _rewritten(rec: WriterEntryRecord) -> bool:
    """Whether the work-tree file of ``rec`` (in its own worktree) was written after the
    entry was recorded (False when it is not there)."""
    import os

    try:
        return os.stat(os.path.join(rec.root, rec.path)).st_mtime > rec.recorded_at
    except (OSError, ValueError):
        return False
