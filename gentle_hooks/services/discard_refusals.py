"""The one-line refusals of ``gentle-hook discard`` (SPEC §3 "Pending work ends
cleanly", §6 ``discard``; :mod:`gentle_hooks.services.discard`), each naming the paths and
the honest ways out, runnable exactly as printed, and the checks only a refusal needs
(:func:`committed_here`: open work a commit made with hooks off holds;
:func:`dropped_takes`: work a commit took that is on no commit ``HEAD`` holds any more;
:func:`held_off_head`: work a commit on another local branch or tag holds).

Room ``services``.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence, Set
from contextlib import suppress

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.shellwords import join, shown_paths


def refusal(paths: Sequence[str], in_head: Collection[str]) -> str:
    """The one line refusing a discard of the writer work ``paths`` (root-relative) still
    hold, with the two ways out: the spot check, or the writer's change taken out by
    :func:`take_out`, after which the discard is accepted. ``in_head``: those of ``paths``
    ``HEAD`` holds (empty before the first commit)."""
    return (
        f"{', '.join(shown_paths(paths))}: still holds the writer's change; a discard would "
        "not make it yours (the commit and push gates judge a change holding it the "
        "writer's): verify it as the gate's block says (a change a re-run refuted is "
        "changed, or let through with the recorded GENTLE_HOOKS_SKIP line the block prints), "
        f"or take it out with `{take_out(paths, in_head)}` (it drops every uncommitted "
        "change of them"
        + (", and deletes those HEAD does not have" if set(paths) - set(in_head) else "")
        + ") and discard then"
    )


def copy_refusal(held: Mapping[str, Sequence[str]]) -> str:
    """The one line refusing, in another worktree than the writer's, a discard of content
    that is the writer's blob byte for byte (``held``: each root-relative path with the
    worktrees whose pending work wrote that blob): the writer's exact content copied
    there is the writer's, as in its own worktree, so no claim here makes it a person's.
    The ways out: the spot check, or that work ended in its own worktree (taken out there
    and discarded there)."""
    roots = sorted({r for rs in held.values() for r in rs})
    return (
        f"{', '.join(shown_paths(sorted(held)))}: holds the writer's content byte for byte "
        f"(pending in {', '.join(shown_paths(roots))}); a discard here would not make it yours "
        "(the commit and push gates judge a change holding it the writer's, in every "
        "worktree): verify it as the gate's block says, or end that work where it was "
        "written: take it out there and run the discard there"
    )


def not_cleared(held: Mapping[str, Sequence[str]]) -> str:
    """The one line a discard prints when it ended writer work that commits on this branch
    took, not pushed yet (``held``: each root-relative path with those commits' ids,
    :func:`~gentle_hooks.services.discard.still_taken`): their commit records still make
    the push gate judge them the writer's, so the discard did not clear the block. The ways
    out: verify it as the push block says, drop the commit from the branch, or let it
    through with the recorded override the block prints."""
    commits = sorted({c[:12] for cs in held.values() for c in cs})
    return (
        f"not cleared: {', '.join(shown_paths(sorted(held)))}: the writer's change is in "
        f"commit {', '.join(commits)} on this branch, not pushed, recorded as the writer's; "
        "the push gate judges that commit from its record, so it stays blocked: verify it "
        "as the push block says (for HEAD: a spot check of the committed change), drop the "
        "commit from the branch, or let it through with the recorded GENTLE_HOOKS_SKIP line "
        "the block prints"
    )


def committed_here(
    repo: Repository,
    led: Ledger,
    entries: Sequence[WriterEntryRecord],
    rewrote: Set[int],
    alike: Set[int] = frozenset(),
) -> dict[str, list[str]]:
    """Of this work tree's open ``entries`` (none thrown away by a ``git reset`` or
    expired: :func:`~gentle_hooks.services.settle.returned_ids`), the paths of those whose
    writer content (not only its shape, nor an edit a human makes alike) one of ``HEAD``'s
    unpushed commits holds (the newest :data:`~gentle_hooks.services.status.UNPUSHED_READ`:
    made with hooks off, no hook took it), each with those commits' ids, sorted. An entry
    of ``rewrote`` (a person's own version of the file replaced the writer's blob here)
    counts only where such a commit holds the writer's blob byte for byte. An entry of
    ``alike`` (taken work whose commit ``HEAD`` no longer holds:
    :func:`dropped_takes`) counts where such a commit holds its edit too, alike or not:
    the commit that took it was the writer's.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.attribution import carried_by_commits
    from gentle_hooks.services.status import UNPUSHED_READ

    head = repo.head()
    infos = repo.read_commits(repo.unpushed_commits(head, UNPUSHED_READ) if head else [])
    wanted = {e.id: e for e in entries}
    found: dict[str, set[str]] = {}
    works = carried_by_commits(repo, led, infos)
    for info in infos:
        work = works[info.id]
        held = {e.id for e in work.entries} - work.by_shape - (work.claimable - alike)
        for e in (wanted[i] for i in sorted(held & set(wanted))):
            if e.id not in rewrote or repo.blobs_in(info.tree, [e.path]).get(e.path) == e.blob:
                found.setdefault(e.path, set()).add(info.id)
    return {p: sorted(cs) for p, cs in sorted(found.items())}


def held_off_head(
    repo: Repository, led: Ledger, entries: Sequence[WriterEntryRecord], alike: Set[int]
) -> dict[str, dict[str, list[str]]]:
    """Of this work tree's ``entries`` (none thrown away by a ``git reset`` or expired), the
    paths of those whose writer content (not only its shape, nor an edit a human makes
    alike, unless the entry is of ``alike``: taken by a commit, which was the writer's) a
    commit holds that a local branch or tag holds and neither ``HEAD`` nor a
    remote-tracking ref does (the newest
    :data:`~gentle_hooks.services.status.UNPUSHED_READ`: a branch not checked out, not
    pushed), each with those commits' ids and the full names of the branches and tags
    holding each (sorted). Such a commit keeps the writer's content: checked out, merged or
    cherry-picked (with or without its trailer) it is the writer's, so a discard must not
    end its record (issue 13). Not covered: commits only a reflog holds (a reset or a
    branch deletion threw them away), and another worktree's detached ``HEAD``.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.attribution import carried_by_commits
    from gentle_hooks.services.status import UNPUSHED_READ

    if not entries:
        return {}
    infos = repo.read_commits(repo.unpushed_off_head(UNPUSHED_READ))
    wanted = {e.id: e for e in entries}
    works = carried_by_commits(repo, led, infos)
    found: dict[str, dict[str, list[str]]] = {}
    for info in infos:
        work = works[info.id]
        held = {e.id for e in work.entries} - work.by_shape - (work.claimable - alike)
        for i in sorted(held & set(wanted)):
            found.setdefault(wanted[i].path, {})[info.id] = repo.local_refs_holding(info.id)
    return {p: found[p] for p in sorted(found)}


def off_head_refusal(held: Mapping[str, Mapping[str, Sequence[str]]]) -> str:
    """The one line refusing a discard of writer work commits on another local branch or
    tag hold, not pushed (``held``: :func:`held_off_head`), with the ways out: verify it
    there as the push block says, or delete those branches and tags (the command,
    runnable as printed) and discard then."""
    commits = sorted({c[:12] for cs in held.values() for c in cs})
    refs = sorted({r for cs in held.values() for rs in cs.values() for r in rs})
    shown = [r.removeprefix("refs/heads/").removeprefix("refs/tags/") for r in refs]
    drops = [
        join(["git", "branch", "-D", n] if r.startswith("refs/heads/") else ["git", "tag", "-d", n])
        for r, n in zip(refs, shown, strict=True)
    ]
    return (
        f"{', '.join(shown_paths(sorted(held)))}: the writer's change is in commit "
        f"{', '.join(commits)} on {', '.join(shown)}, not pushed; a discard would not make it "
        "yours (the push gate judges a commit holding it the writer's, checked out, merged or "
        "cherry-picked): verify it there as the push block says, or delete it with "
        f"`{' && '.join(drops)}` (it drops every commit only those hold) and discard then"
    )


def dropped_takes(
    repo: Repository, led: Ledger, entries: Sequence[WriterEntryRecord]
) -> tuple[list[WriterEntryRecord], frozenset[int]]:
    """Of this work tree's taken ``entries``, those no commit ``HEAD`` holds took (the
    commit that took them reset away, ``git reset --soft|--mixed HEAD~1``, or on another
    branch than the one checked out), with the ids of those whose writer content was
    thrown away since. A commit on ``HEAD`` not pushed yet holding the content of such an
    entry holds the writer's work, which its commit took (:func:`committed_here`); so does
    this work tree's change, unless it was thrown away: a discard is refused as for open
    work (:func:`refusal`, :func:`committed_refusal`; issue 13, refuter r13t).

    Thrown away, as :func:`~gentle_hooks.services.settle.returned_ids` reads open work: a
    ``git reset`` in the ``HEAD`` reflog of the entry's worktree since the last take, the
    path's file there written since then, the index not holding the writer's blob there
    (a ``reset --soft`` keeps the commit's content staged: nothing was thrown away), and no
    stash holding the content (kept, popped or dropped since:
    :func:`~gentle_hooks.services.settle.stash_holders`): a person who applies the writer's
    patch again after a ``reset --hard`` claims it with the discard, an override line in
    the note of a commit holding it.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.settle import stash_holders

    head = repo.head()
    if not entries or head is None:
        return [], frozenset()
    takes: dict[int, list[tuple[str, float]]] = {}
    for take in led.entry_takes(sorted({e.id for e in entries})):
        takes.setdefault(take.entry_id, []).append((take.commit_id, take.recorded_at))
    dropped = []
    for e in entries:
        on_head = False
        for commit, _ in takes.get(e.id, []):
            with suppress(GitError):  # a commit gone from the clone (pruned) is on no branch
                on_head = on_head or repo.is_ancestor(commit, head)
        if not on_head:
            dropped.append(e)
    if not dropped:
        return [], frozenset()
    staged: dict[str, str] = {}
    with suppress(GitError):  # a conflict in progress: the files decide
        staged = repo.blobs_in(repo.staged_tree(), sorted({e.path for e in dropped}))
    away = []
    for e in dropped:
        since = max([e.recorded_at, *(when for _, when in takes.get(e.id, []))])
        if (
            staged.get(e.path) != e.blob
            and _written_since(e.root, e.path, since)
            and repo.head_reset_since(since, e.root)
        ):
            away.append(e)
    stashed = stash_holders(repo, away, dropped=True) if away else {}
    return dropped, frozenset(e.id for e in away if e.id not in stashed)


def _written_since(root: str, path: str, when: float) -> bool:
    """Whether the work-tree file ``path`` of the worktree ``root`` was written after
    ``when`` (seconds since the epoch; False when it is not there)."""
    try:
        return os.stat(os.path.join(root, path)).st_mtime > when
    except (OSError, ValueError):
        return False


def committed_refusal(held: Mapping[str, Sequence[str]]) -> str:
    """The one line refusing a discard of this work tree's open writer work that commits
    on this branch, not pushed yet, hold (``held``: each root-relative path with those
    commits' ids, :func:`~gentle_hooks.services.discard.committed_here`): made with hooks
    off, so no hook took it, and the push gate judges a commit holding it the writer's. The
    ways out: verify it as the push block says, or drop the commit and discard then."""
    commits = sorted({c[:12] for cs in held.values() for c in cs})
    return (
        f"{', '.join(shown_paths(sorted(held)))}: the writer's change is in commit "
        f"{', '.join(commits)} on this branch, not pushed; a discard would not make it yours "
        "(the push gate judges a commit holding it the writer's): verify it as the push "
        "block says (for HEAD: a spot check of the committed change), or drop the commit "
        "from the branch and discard then"
    )


def stash_refusal(held: dict[str, str]) -> str:
    """The one line refusing a discard of writer work a stash entry holds: ``held`` maps
    each root-relative path to the stash entry holding its writer content (``stash@{N}``,
    or ``a dropped stash`` never named here: only listed entries refuse). The ways out:
    drop the entries (newest last, so the numbers named stay right), or pop them and
    verify the work as the gate's block says."""
    names = sorted(set(held.values()), key=_stash_number, reverse=True)
    drops = " && ".join(join(["git", "stash", "drop", n]) for n in names)
    return (
        f"{', '.join(shown_paths(sorted(held)))}: the writer's change is held in "
        f"{', '.join(sorted(names, key=_stash_number))}; a discard would not make it yours "
        "(popped again it is the writer's pending work): throw it away with "
        f"`{drops}` (it drops everything those entries hold) and discard then, or pop it "
        "first and verify it as the gate's block says"
    )


def _stash_number(name: str) -> int:
    """N of ``stash@{N}`` (-1 for another name)."""
    digits = name.removeprefix("stash@{").removesuffix("}")
    return int(digits) if digits.isdigit() else -1


def take_out(paths: Sequence[str], in_head: Collection[str]) -> str:
    """The shell line that takes the writer's change of ``paths`` out, runnable exactly as
    printed anywhere in the work tree (its paths literal pathspecs from the root, quoted):
    those ``HEAD`` holds (``in_head``) restored from it, index and files; the others (new
    since ``HEAD``, or no ``HEAD`` yet) removed from the index, then their files deleted
    (``git clean -x``: an untracked or ignored file of that exact name). A ``git restore``
    naming a path ``HEAD`` lacks would abort whole ("did not match"), and one with no
    ``HEAD`` cannot resolve it: each command names only paths it can take."""
    kept = [p for p in paths if p in in_head]
    new = [p for p in paths if p not in in_head]
    words = [":(top,literal)" + p for p in kept], [":(top,literal)" + p for p in new]
    steps = []
    if kept:
        steps.append(
            join(["git", "restore", "--source=HEAD", "--staged", "--worktree", "--"] + words[0])
        )
    if new:
        steps.append(
            join(["git", "rm", "-q", "--cached", "-f", "--ignore-unmatch", "--"] + words[1])
        )
        steps.append(join(["git", "clean", "-q", "-f", "-x", "--"] + words[1]))
    return " && ".join(steps)


def moved_refusal(repo: Repository, moved: Mapping[str, Sequence[str]]) -> str:
    """The one line refusing a claim of paths holding the writer's pending work moved
    there (``moved``: each such path with the writer's paths it left), with the honest ways
    out: verify it as the gate's block says, or take it out (:func:`take_out`) and then
    discard the writer's path.

    Raises:
        GitError: git failed.
    """
    paths = sorted(moved)
    writers = sorted({p for ps in moved.values() for p in ps})
    head = repo.head()
    in_head = repo.paths_in_commit(head, paths) if head else set()
    shown = ", ".join(
        f"{w} (was {', '.join(shown_paths(moved[p]))})"
        for p, w in zip(paths, shown_paths(paths), strict=True)
    )
    return (
        f"{shown}: holds the writer's pending work on {', '.join(shown_paths(writers))} moved "
        "there, not a person's own file; a discard would not make it yours (the commit and "
        "push gates judge it the writer's): verify it as the gate's block says (a change a "
        "re-run refuted is changed, or let through with the recorded GENTLE_HOOKS_SKIP line "
        f"the block prints), or take it out with `{take_out(paths, in_head)}` (it drops every "
        "uncommitted change of them"
        + (", and deletes those HEAD does not have" if set(paths) - set(in_head) else "")
        + f") and discard {', '.join(shown_paths(writers))} then"
    )


def elsewhere_hint(entries: Sequence[WriterEntryRecord], paths: Sequence[str]) -> str:
    """The tail of the refusal naming the worktrees whose pending work ``entries`` are,
    which this work tree's change does not carry ("" for none)."""
    roots = sorted({e.root for e in entries if not paths or e.path in paths})
    if not roots:
        return ""
    return (
        f"; the writer work pending in {', '.join(shown_paths(roots))} is not in this work "
        "tree's change: it is that worktree's to discard, run there"
    )
