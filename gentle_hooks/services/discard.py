"""Abandon pending writer work on purpose (SPEC §3 "Pending work ends cleanly"):
``gentle-hook discard [PATH...|--all] --reason TEXT``.

Room ``services``. The work tree's live writer entries (open, or taken by a commit not
pushed yet) of the named paths (or all of them), and of the clone's other worktrees only
the open entries this work tree's own change carries (the ledger is shared: a change made
in linked worktree B can carry work recorded in A, and the block in B offers this
discard), stop attributing content to a writer, recorded like an override: who, when,
which paths and entries, and why. Another worktree's work that this one's change does not
carry is that worktree's to discard (``--cwd`` names it): a discard run in B never ends
A's work behind A's back. A commit that took one keeps its commit record and trailer.
Nothing is deleted; the user's files are not touched.

A discard is refused, in one line naming the paths and the commands that take the writer's
change out (:func:`take_out`), while this work tree's change (its files or its index
against ``HEAD``) still carries this work tree's own pending work by any row the gates use
(A1-A8: the writer's blob, its lines, one of its edits, its removal): a commit holding it
would carry the writer's edit with no trailer and no note. Where it holds another
worktree's work by that work's own lines (rows A1, A2) instead, the discard is a copy
claim (below), bound to the content, which every gate reads alike. What an accepted discard leaves
is the writer's content gone from here (taken out, thrown away), an edit a human in
another worktree made alike, or a writer commit not pushed yet. This work tree's own work
discarded so is claimed (:attr:`~gentle_hooks.ledger.records.DiscardRecord.claimed`): a
human who brings its content back (types or pastes it again, pops a stash) commits it as
theirs, the discard an override line in the commit's note (issue 13). Another worktree's
work discarded here is not claimed: its own lines brought back stay the writer's (its
note carries the writer and the discard).

A discard naming only paths with no pending work of their own, each of which this work
tree's change holds one line of live writer work at, alone (a person's own file holding a
writer line that runs or reaches something: :func:`held_alone_here`), is a *claim*: it ends
no entry (the writer's work stays pending, its own path the writer's) and records the paths
and the entries (:attr:`~gentle_hooks.ledger.records.DiscardRecord.claimed`, no
``entries``), so that line there delegates no change any more
(:class:`~gentle_hooks.services.claims.Claims`); a second writer line there is the
writer's again. Where such a path holds more of the writer's lines, copied from the
writer's path (:func:`copied_here`; never the writer's blob byte for byte, never the
writer's path moved there), the claim binds the blobs the change holds there
(:func:`claim_own_paths`): exactly that content is the person's, an edit since is judged
again, and the writer's work stays pending.

A discard run in linked worktree B, naming paths whose change here holds the own lines (or
the blob) of work pending in another worktree A, none of them a distinctive writer line
(:func:`~gentle_hooks.services.claims.distinctive_copies`: that is a copy, refused as
above), none the writer's blob byte for byte
(:func:`~gentle_hooks.services.claims.exact_copies`: the writer's content, refused as in
A, :func:`~gentle_hooks.services.discard_refusals.copy_refusal`), and none of B's own
work, is a *copy claim*
(:func:`claim_copies`): a person made the same fix by hand in B (issue 13). It ends no
entry (A's work stays pending and blocks A's delivery) and binds the blobs B's change holds
at those paths: a change made in B holding exactly one of them there is the person's; any
other content there (an edit since, the writer's lines popped from a stash) is judged again.

A discard is refused too while one of ``HEAD``'s unpushed commits holds the writer content
of this work tree's open work (a commit made with hooks off: no hook took it, so it stays
open; never thrown away, so not the retyping below): the push gate judges that commit the
writer's, and a discard must not make it a person's (issue 13). The line
(:func:`~gentle_hooks.services.discard_refusals.committed_refusal`) names the commit and
the ways out: verify it, or drop the commit and discard then.

Work a commit took is refused alike once no commit ``HEAD`` holds took it (reset away,
another branch checked out) while this work tree's change holds its content, unless a
reset threw it away since (:func:`~gentle_hooks.services.discard_refusals.dropped_takes`),
or while one of ``HEAD``'s unpushed commits holds it: its commit was the writer's, so its
content kept is the writer's, never a person's (issue 13).

Records are bound to content, so a discard ends only the records of content nobody keeps:
it is refused too while a commit that a local branch or tag holds, and neither ``HEAD``
nor a remote-tracking ref does (a branch not checked out, not pushed), holds the writer
content of an entry it would end
(:func:`~gentle_hooks.services.discard_refusals.held_off_head`), in one line naming the
commits, the branches and tags, and the ``git branch -D`` / ``git tag -d`` that throws them
away (:func:`~gentle_hooks.services.discard_refusals.off_head_refusal`): checked out,
merged or cherry-picked (its trailer kept or not) that content is the writer's, and the
record kept makes every gate judge it so. An entry this work tree's change carries by the
shape of its change alone (a person's own version of the writer's place) is left out of
that refusal: the discard is how that person's change passes. Commits only a reflog holds
are thrown away, as after a ``git reset --hard``; stash entries are refused below.

A discard is refused too while a stash entry holds the writer content of an entry it
would end (:func:`~gentle_hooks.services.settle.stash_holders`), in one line naming the
entries and the ``git stash drop`` that throws them away (:func:`stash_refusal`): popped
again the content is the writer's pending work, never a human's (docs/security.md).

Writer content that went away and is here again
(:func:`~gentle_hooks.services.settle.returned_ids`: an expired entry, or open work a
``git reset`` threw away whose file was written again since) is the exception to the
refusal: content decides, so the gates judge it the writer's, and a human who typed it
claims it with the discard the block prints, in one paste, whether or not a status
expired it first. A no-op ``git reset`` (every file kept) is no such evidence. So is this
work tree's open work whose content a person's own version of the file replaced
(:func:`~gentle_hooks.services.settle.rewritten_ids`: the writer's blob gone, the file
rewritten, a writer line or two kept in it). The
discard records it as claimed: it delegates no change any more, and the note of a commit
holding it carries the discard as an override line (who, why).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress

from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import DiscardRecord, WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.inputs import validate_label, validate_paths
from gentle_hooks.services.attribution import carried
from gentle_hooks.services.claims import distinctive_copies, exact_copies
from gentle_hooks.services.discard_claims import (
    change_trees,
    claim_copies,
    claim_own_paths,
    copied_here,
    held_alone_here,
    moved_here,
)
from gentle_hooks.services.discard_refusals import (
    committed_here,
    committed_refusal,
    copy_refusal,
    dropped_takes,
    elsewhere_hint,
    held_off_head,
    moved_refusal,
    off_head_refusal,
    refusal,
    stash_refusal,
)
from gentle_hooks.services.record import open_root, open_store
from gentle_hooks.services.settle import (
    own_lines_kept,
    returned_ids,
    rewritten_ids,
    stash_holders,
)


def discard(
    cwd: str | None, paths: Sequence[str], everything: bool, reason: str | None
) -> DiscardRecord:
    """Discard the pending writer work of ``paths`` (all of it with ``everything``): the
    work tree's, and the open work of the clone's other worktrees that this work tree's
    change carries (:func:`carried_here`).

    Raises:
        UsageError: no reason, paths and ``--all`` together or neither, a bad path, or
            nothing pending for what was named (with what is pending).
        GitError / StoreError: not a repository; the store cannot be written.
    """
    why = validate_label(reason, "--reason", required=True)
    assert why is not None
    if bool(paths) == everything:
        raise UsageError("name the paths to discard, or pass --all (not both)")
    wanted = validate_paths(paths)
    repo, root = open_root(cwd)
    with open_store(repo) as led:
        live = led.live_entries()
        # taken too: a writer commit not pushed yet can be dropped on purpose; another
        # worktree's open work only where this work tree's change carries it
        others = [e for e in live if e.root != root and e.state == "open"]
        cited = carried_here(repo, led, [e.id for e in others]) if others else set()
        live = [e for e in live if e.root == root or e.id in cited]
        live += came_back(repo, led)  # expired work typed again: the gates see it too
        pending = sorted({e.path for e in live})
        if not pending:
            raise UsageError(
                "no pending writer work in this work tree: nothing to discard"
                + (elsewhere_hint(others, wanted) if others else "")
            )
        unknown = [p for p in wanted if p not in pending]
        if unknown and len(unknown) == len(wanted):  # a person's own paths, one writer line
            alone = held_alone_here(repo, led.live_entries(), unknown)
            lifted = copied_here(repo, led, unknown)  # more writer lines: bound to the blobs
            moved = moved_here(repo, led, root, {**lifted, **alone})
            if moved:  # the writer's work moved there is the writer's, never a person's
                raise UsageError(moved_refusal(repo, moved))
            if set(alone) == set(unknown):
                ids = tuple(sorted({i for got in alone.values() for i in got}))
                return led.add(DiscardRecord(root, repo.ident(), why, tuple(wanted), (), ids))
            if set(alone) | set(lifted) == set(unknown):
                held = {i for got in (*alone.values(), *lifted.values()) for i in got}
                return claim_own_paths(repo, led, root, why, unknown, held)
        if unknown:
            raise UsageError(
                f"no pending writer work on {', '.join(unknown)} (pending: {', '.join(pending)})"
                + elsewhere_hint([e for e in others if e.path in unknown], wanted)
            )
        named = [e for e in live if e.path in wanted or everything]
        gone = returned_ids(named, repo)
        rewrote = rewritten_ids(repo, named)
        back = gone | rewrote
        opened = [e for e in named if e.state == "open"]
        # taken by a commit HEAD no longer holds (reset away, another branch): its content
        # here is the writer's as much as open work is
        taken = [e for e in named if e.state == "taken" and e.root == root]
        took, thrown = dropped_takes(repo, led, taken)
        kept = kept_here(repo, led, root, [e for e in opened if e.root == root], back)
        fresh = [e.id for e in took if e.id not in thrown]
        held = carried_here(repo, led, fresh, content=True) if fresh else set()
        kept = sorted({*kept, *(e.path for e in took if e.id in held)})
        copied = [e for e in opened if e.root != root and e.id not in back]
        copies = own_lines_kept(repo, copied) if copied and not kept else []
        copied = [e for e in copied if e.path in copies]
        if copied:  # a distinctive writer line copied here is the writer's: refused
            loud = distinctive_copies(repo, copied, *change_trees(repo))
            kept = sorted({e.path for e in copied if e.id in loud})
            # the writer's blob byte for byte is the writer's, as in its own worktree
            if not kept and (same := exact_copies(repo, copied, change_trees(repo)[1])):
                raise UsageError(copy_refusal(same))
        if copies and not kept:  # a person's same change here of work pending elsewhere
            return claim_copies(repo, led, root, why, [e for e in copied if e.path in copies])
        if kept:
            head = repo.head()
            raise UsageError(refusal(kept, repo.paths_in_commit(head, kept) if head else set()))
        # a commit on HEAD holding what a dropped commit took: thrown away or not, it is
        # the writer's edit, which its commit took
        never_left = [e for e in opened if e.root == root and e.id not in gone] + took
        alike = {e.id for e in took}
        committed = committed_here(repo, led, never_left, rewrote, alike) if never_left else {}
        if committed:  # committed with hooks off: the push gate judges it the writer's
            raise UsageError(committed_refusal(committed))
        # a commit on another branch or tag keeps the writer's content: cherry-picked, it is
        # the writer's; a person's own version here (the change carries it by shape) is not
        ends = [e for e in named if e.root == root and e.id not in gone]
        shaped = carried_here(repo, led, [e.id for e in ends]) if ends else set()
        off = held_off_head(repo, led, [e for e in ends if e.id not in shaped], alike)
        if off:
            raise UsageError(off_head_refusal(off))
        stashed = stash_holders(repo, named)
        if stashed:  # popped again it is the writer's pending work: never claimed so
            raise UsageError(
                stash_refusal({e.path: stashed[e.id] for e in named if e.id in stashed})
            )
        # an expired entry whose content is here again is claimed: no change holding it
        # is the writer's any more (the commit's note carries the discard)
        # (of this work tree's own, any row the gates use: an edit of the writer's a human
        # typed again is in the note too; of another worktree's, its own lines only)
        returned = [e for e in named if e.id in back]
        here = set(own_lines_kept(repo, returned))
        mine = [e.id for e in returned if e.root == root]
        held = carried_here(repo, led, mine) if mine else set()
        claimed = {e.id for e in returned if e.path in here or e.id in held}
        # this work tree's own work, discarded on purpose while its content is away, is
        # claimed too: a human who brings that content back (types or pastes it again)
        # commits it as theirs, the discard an override line in the note (issue 13)
        # (taken too: a writer commit thrown away whose content comes back is claimed, its
        # note line written, never a silent pass)
        claimed |= {e.id for e in named if e.root == root}
        return led.discard_entries(
            root, wanted, repo.ident(), why, others=sorted(cited), claimed=sorted(claimed)
        )


def still_taken(cwd: str | None, rec: DiscardRecord) -> dict[str, list[str]]:
    """What the discard ``rec`` did not clear: of the entries it ended, the paths of those
    a commit ``HEAD`` holds took (not pushed yet), each with those commits' ids, sorted.
    Such a commit keeps its commit record, which the push gate judges the writer's whatever
    the discard says (it stays blocked until verified, overridden, or dropped from the
    branch); the discard still ends the entries, so a person's own change made after the
    commit is dropped is theirs.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    if not rec.entries:
        return {}
    repo, _ = open_root(cwd)
    head = repo.head()
    if head is None:
        return {}
    with open_store(repo) as led:
        takes = led.entry_takes(sorted(rec.entries))
        paths = {e.id: e.path for e in led.entries_taken_by(sorted({t.commit_id for t in takes}))}
    found: dict[str, set[str]] = {}
    for take in takes:
        if take.entry_id not in paths or take.entry_id not in rec.entries:
            continue
        with suppress(GitError):  # a commit gone from the clone (pruned) is on no branch
            if repo.is_ancestor(take.commit_id, head):
                found.setdefault(paths[take.entry_id], set()).add(take.commit_id)
    return {p: sorted(cs) for p, cs in sorted(found.items())}


def kept_here(
    repo: Repository,
    led: Ledger,
    root: str,
    entries: Sequence[WriterEntryRecord],
    back: frozenset[int],
) -> list[str]:
    """The paths of the open ``entries`` a discard run in the work tree ``root`` must
    refuse, sorted: this work tree's own entries (``back`` left out: expired content that
    came back, which a discard claims) that its change (work tree or index against
    ``HEAD``) still carries by any row the gates use (A1-A8: the writer's blob, its lines,
    one of its edits, its removal), and another worktree's entries whose own lines (rows
    A1, A2) this work tree holds. An edit a human makes alike in another worktree is that
    human's; in the writer's own work tree it is the writer's edit, still there.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    fresh = [e for e in entries if e.id not in back]
    mine = [e for e in fresh if e.root == root]
    held = carried_here(repo, led, [e.id for e in mine]) if mine else set()
    paths = {e.path for e in mine if e.id in held}
    paths |= set(own_lines_kept(repo, [e for e in fresh if e.root != root]))
    return sorted(paths)


def came_back(repo: Repository, led: Ledger) -> list[WriterEntryRecord]:
    """The expired entries this work tree's change carries again (the work tree as ``git
    add -A`` would stage it, or the index, against ``HEAD``), or one of ``HEAD``'s unpushed
    commits does (the newest :data:`~gentle_hooks.services.status.UNPUSHED_READ`: a commit
    made with hooks off, which the push gate judges): their writer blob, or their
    distinctive writer lines brought back
    (:func:`~gentle_hooks.services.attribution.carried_by_change`). The gates judge such a
    change the writer's (content decides), so a ``discard`` reaches them.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.attribution import carried_by_commits
    from gentle_hooks.services.status import UNPUSHED_READ

    base, trees = change_trees(repo)
    works = [carried(repo, led, repo.tree_delta(base, tree)) for tree in trees]
    head = repo.head()
    commits = repo.unpushed_commits(head, UNPUSHED_READ) if head else []
    if commits:  # the expiry proved the content was nowhere: a commit since is typing
        works += carried_by_commits(repo, led, repo.read_commits(commits)).values()
    found = {e.id: e for work in works for e in work.entries if e.state == "expired"}
    return [found[i] for i in sorted(found)]


def carried_here(
    repo: Repository, led: Ledger, ids: Sequence[int], content: bool = False
) -> set[int]:
    """Of the entries ``ids``, those this work tree's change carries: the work tree as
    ``git add -A`` would stage it, or its index, against ``HEAD`` (what a commit made here
    would add, as the commit gate reads it); with ``content``, only by holding the writer's
    content (its blob, its lines, its edit), never by the shape of the change alone (a
    person's own version of the same place, rows A3, A4).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    base, trees = change_trees(repo)
    wanted = set(ids)
    found: set[int] = set()
    for tree in trees:
        work = carried(repo, led, repo.tree_delta(base, tree))
        found |= {e.id for e in work.entries} - (work.by_shape if content else frozenset())
    return found & wanted
