"""What an agent's shell command changed in the work tree: a snapshot taken at the runtime's
pre-tool event of the call, compared at its post-tool event (SPEC §3 "Attribution follows content",
§6 "pending mutation", §7 "Hooks"; docs/agents/claude-code.md).

Room ``services``. A shell call names no file it writes (a heredoc, ``sed -i``, a generator), so
before it runs the recorder keeps the blob of every path ``git status`` shows as changed
(:meth:`gentle_hooks.git.delta.Deltas.dirty_paths`, hashed as ``git add`` would and written to the
object store, so the content can be read back) in one small file per call, ``<common
dir>/gentle-hooks/shell/<runtime>.<hash of session, call id (or the runtime's pairing key,
:attr:`RuntimeEvent.shell_key`), work tree>.json``, with the commit ``HEAD`` was at. After it runs,
the same is done for the paths changed then or before. Every path whose blob appeared, changed or
vanished is the writer's, measured from the blob it held before (:attr:`Changed.starts`: the
snapshot's, or, for a path unchanged before, its blob in that commit), so a command that only moves
``HEAD`` (``git reset --soft``) changes no path. The index is compared too: a blob the call staged
that no path's work tree or index nor ``HEAD`` held before it and the work tree does not hold now
(``git apply --cached``, ``git update-index --cacheinfo``, ``git add`` then the work tree put back)
is the writer's, measured from the path's index blob before (:attr:`Changed.staged`,
:func:`.shell_commits.written_in_index`); a person's edits the call stages are not new content, nor
is a blob ``HEAD`` held at another path the call changed (``git mv``). A path that gave its blob up
to another (``mv a b``, ``git mv``) is moved content, as that other path is, whether the work tree
alone held it or the index too; a path the call created by moving another and editing it (``git mv
a b && sed -i ... b``, paired as git pairs renames: :mod:`.shell_moves`) is measured from what that
one held before (its work tree content), so only the edit is the writer's. A person's unsaved lines
in a file the command did not touch keep their blob, so they stay the person's; in a file it
touched they are in its start, so not the writer's.

Content a commit held before the call is restored, not written: the snapshot also keeps the tips of
the branches, tags, remote-tracking branches and ``refs/stash`` and the stash entries
(:meth:`gentle_hooks.git.delta.Deltas.ref_tips`, at most :data:`.shell_files.MAX_TIPS`); a changed
path whose new blob one of them (a stash entry's index or untracked commit too) or a commit ``git
fetch`` brought in from another repository (``FETCH_HEAD``: a teammate's file a stopped ``git
pull`` left) holds at that path is left out (:attr:`Changed.restored`: an agent's ``git checkout
feature -- f``, ``git restore --source``, ``cherry-pick -n``, ``stash pop`` brings back a person's
work); restored and edited in the same call, it is measured from that blob (:mod:`.shell_sources`).
A commit that is no ref tip (``git checkout HEAD~3 -- f``) is not looked at: what it brings back
stays the writer's (fail closed). Nor is a tip or stash entry a shell call made (one the snapshot
did not hold and the call's end does: kept in :data:`.shell_files.MADE_FILE`): the agent's own
``git stash`` or ``git commit --no-verify`` of what it wrote, brought back by a later call, is
still the writer's; one made of content the snapshot held (a person's work stashed) is not.

What the call wrote into the commits it made (``sed -i f && git commit --no-verify``, ``&& git
stash``, on a branch and back) never shows in the work tree: those commits are walked
(:mod:`.shell_commits`) and what they hold that no version the snapshot held has at any path
(``git mv`` then commit is moved content) is :attr:`Changed.committed`, the writer's.

A snapshot is kept in every worktree of the repository (:mod:`.shell_trees`: a command may ``cd
../b`` into a linked one) and each is compared at the post-tool event, whichever worktree its
``cwd`` is in: a write is recorded in the worktree it landed in; one the call created is measured
from its ``HEAD`` (:func:`.shell_trees.created_since`). An ignored file (never in a snapshot) that
the call tracked or unignored and that no agent shell call changed (:mod:`.shell_unseen`) is
measured from itself (:attr:`Changed.unseen`).

Each snapshot holds a random nonce. A runtime that names no call id both events share
(:attr:`RuntimeEvent.shell_key`: Gemini CLI, Cursor) gets a call id of its derived id and the
nonce, so the same command run again is another call. Once read, a snapshot is a "spent" marker:
a replayed post-tool input records nothing again, nor does a replayed pre-tool input of a call the
runtime names keep anything (:mod:`.shell_files`).

The pre-tool side runs five git processes (``status``, ``hash-object``, ``ls-files``, ``rev-parse``,
``for-each-ref``; stash entries come from its reflog file), the post-tool side six (``status``,
``ls-tree``, ``ls-files``, ``hash-object``, ``for-each-ref``, ``cat-file --batch-check``),
``rev-parse`` when a tracked path is changed, ``cat-file --batch-check`` (and ``--batch`` if a ref
holds it) for a path left changed, ``ls-tree`` when ``HEAD`` moved, ``cat-file --batch`` when a path
is gone and another created, and, when the call made or moved a ref, up to five more (``rev-list``,
``cat-file --batch`` twice, ``diff-tree``, ``ls-tree``).

The snapshot stays bounded and still sees every write. The first :data:`MAX_PATHS` changed paths
(tracked ones first) are hashed; the rest (an agent's unignored ``.venv``) are kept as an ``lstat``
listing (size, mtime, ctime, inode, mode; at most :data:`MAX_STATS`: :func:`.shell_files.listing`),
and at the post-tool event a listed path whose ``lstat`` changed is hashed and measured from its
blob in the commit ``HEAD`` was at (None for an untracked one: a person's unsaved lines in it count
as the writer's, fail closed; so do they when a commit the call made holds them). The index's blob
of every changed tracked path is kept too (``staged``, listed ones included). Past :data:`MAX_STATS`
(or a snapshot file over :data:`.shell_files.MAX_FILE` bytes) only ``HEAD``, the nonce and the ref
tips are kept, and the post-tool event records every tracked path whose content then differs from
that commit, and all a commit the call made holds that ``HEAD`` does not, as the writer's, and says
so in one line (:attr:`Changed.over`): never nothing, silently."""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Mapping

from gentle_hooks.agents.event import RuntimeEvent, derived_call_id
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.fetchhead import fetched_ids
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.services.shell_commits import (
    Written,
    clean_stashes,
    new_commits,
    restored_in,
    written_in,
    written_in_index,
)
from gentle_hooks.services.shell_files import (
    MADE_FILE,
    MAX_TIPS,
    encode,
    is_spent,
    known_made,
    listing,
    modes,
    note_made,
    read_snapshot,
    settles,
    spend,
    sweep,
    unlink,
)
from gentle_hooks.services.shell_modes import flipped
from gentle_hooks.services.shell_moves import moved, renamed
from gentle_hooks.services.shell_notes import (
    no_snapshot_note,
    outside,
    over_note,
    replayed_before,
    restored_note,
    trees_note,
    unseen_note,
)
from gentle_hooks.services.shell_sources import sourced
from gentle_hooks.services.shell_trees import created_since, other_trees, snapshot_time, status_same
from gentle_hooks.services.shell_unseen import bound, mark_first, untouched
from gentle_hooks.values.frozen import frozen, replace

#: The directory of the snapshots, under the state directory.
SHELL_DIR = "shell"
#: The most changed paths a snapshot hashes; the rest are listed by ``lstat``.
MAX_PATHS = 2000
#: The most changed paths a snapshot lists by ``lstat``; above it only ``HEAD`` is kept
#: (:attr:`Changed.over`).
MAX_STATS = 100000
#: The changed paths a snapshot holds at most (hashed or listed).
_BOUND = MAX_PATHS + MAX_STATS


@frozen
class Changed:
    """What a shell call changed in one work tree.

    Attributes:
        paths: the root-relative paths whose blob appeared, changed or vanished, sorted.
        starts: ``(path, blob)`` for each of them: the blob it held before the call (the
            snapshot's; for a path unchanged then, its blob in the commit ``HEAD`` was at;
            None: it was absent; for a path renamed from another, that one's), which it
            is measured from.
        restored: the changed paths left out of ``paths``, sorted: each holds the blob a
            ref tip or stash entry the snapshot kept, or a fetched commit, holds there (``git
            checkout feature -- f``, ``stash pop``) or one another path gave up (``git mv``),
            or is gone, its content moved: content a commit held, or moved, is not new.
        nonce: the snapshot's own random id (None: a snapshot kept without one), which
            tells two runs of one command apart when the runtime names no call id.
        committed: what the call wrote into commits it made (a branch, tag or stash entry
            its snapshot did not hold): content no version the snapshot held has
            (:mod:`.shell_commits`), sorted; a path may also be in ``paths``.
        over: the work tree had more changed paths than the snapshot holds: ``paths`` are
            all the tracked paths differing from the commit ``HEAD`` was at (fail closed).
        staged: the paths of ``committed`` whose content the call wrote into the index
            alone (``git apply --cached``: :func:`.shell_commits.written_in_index`), sorted.
        unseen: the paths the snapshot did not see (ignored) that the call tracked or
            unignored and that hold what they held before any agent shell call
            (:mod:`.shell_unseen`): not the writer's, left out of ``paths``, sorted.
        flipped: the paths of ``committed`` whose mode alone the call changed (``chmod
            +x``: :mod:`.shell_modes`), each written as the blob it held, sorted.
    """

    paths: tuple[str, ...]
    starts: tuple[tuple[str, str | None], ...]
    restored: tuple[str, ...] = ()
    nonce: str | None = None
    committed: tuple[Written, ...] = ()
    over: bool = False
    staged: tuple[str, ...] = ()
    unseen: tuple[str, ...] = ()
    flipped: tuple[str, ...] = ()


def snapshot_file(repo: Repository, runtime: str, event: RuntimeEvent) -> str:
    """The snapshot file of ``event``'s call in ``repo``."""
    call = event.shell_key or event.tool_call_id or ""
    key = "\0".join((event.session_id or "", call, repo.paths.toplevel or ""))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(repo.paths.common_dir, STATE_DIR, SHELL_DIR, f"{runtime}.{digest}.json")


def take(root: str, runtime: str, event: RuntimeEvent) -> int | None:
    """Keep the snapshot of the work tree ``root`` before ``event``'s shell call, sweeping
    expired ones first. Returns how many changed paths it holds (hashed or listed), or
    None when there were more than :data:`MAX_STATS` besides the hashed ones (only
    ``HEAD`` is kept then: :attr:`Changed.over`).

    Raises:
        GentleError: the snapshot cannot be written (one line, nothing kept).
        GitError: git failed.
    """
    repo = Repository.open(root)
    path = snapshot_file(repo, runtime, event)
    where = os.path.dirname(path)
    if os.path.islink(os.path.dirname(where)) or os.path.islink(where):
        raise GentleError(f"cannot keep the work tree's snapshot: {where} goes through a link")
    sweep(where, time.time())
    tracked, untracked = repo.dirty_split()
    dirty = [*tracked, *untracked]
    hashed, listed = dirty[:MAX_PATHS], dirty[MAX_PATHS:]
    # a path git status does not show held HEAD's blob: kept by its commit, so a command
    # that only moves HEAD (an agent's `git reset --soft`) changes none of them
    tips, stashes = repo.ref_tips(MAX_TIPS)
    doc: dict[str, object] = {
        "head": repo.head() or "",
        "nonce": secrets.token_hex(16),
        "tips": tips,
        "stashes": stashes,
    }
    bounded = None
    if len(listed) <= MAX_STATS:
        bounded = {
            "blobs": repo.hash_worktree(hashed),
            "stats": listing(repo.paths.toplevel or root, listed),
            "staged": repo.blobs_staged(tracked),
            "modes": modes(repo.paths.toplevel or root, hashed),
        }
    data, over = encode(doc, bounded)
    try:
        os.makedirs(where, exist_ok=True)
        mark_first(where)
        write_whole(path, data)
    except (OSError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GentleError(f"cannot keep the work tree's snapshot in {where}: {why}") from None
    return None if over else len(dirty)


def compare(root: str, runtime: str, event: RuntimeEvent) -> Changed | None:
    """What ``event``'s shell call changed in the work tree ``root`` since its snapshot,
    which is replaced by its spent marker; None when no usable snapshot was kept.

    Raises:
        GitError: git failed.
    """
    repo = Repository.open(root)
    path = snapshot_file(repo, runtime, event)
    kept = read_snapshot(path)
    if kept is None:
        if not is_spent(path):
            unlink(path)
        return None
    unseen_before = bound(os.path.dirname(path), path)
    spend(path)
    before, head, nonce, tips, stashes = kept.blobs, kept.head, kept.nonce, kept.tips, kept.stashes
    tracked, untracked = repo.dirty_split()
    # over the bound: every tracked path differing from HEAD's commit (fail closed); else a
    # listed path whose lstat is as it was holds what it held, and is not hashed again
    dirty = tracked if kept.over else [*tracked, *untracked]
    top = repo.paths.toplevel or root
    now = listing(top, list(kept.stats))
    same = {p for p, st in kept.stats.items() if now.get(p) == st}
    look = {*dirty, *before, *kept.stats} - same
    fresh = [p for p in look if p not in before]
    # what a path unchanged before held: its blob in the commit HEAD was then (None: absent
    # there, or HEAD unborn), not in the index or HEAD the command may have moved
    old: dict[str, str | None] = dict.fromkeys({*fresh, *tracked})
    if head and old:
        old.update(repo.blobs_in(head, list(old)))
    held = {**{p: old[p] for p in fresh}, **before}
    after = repo.hash_worktree(look)
    # a file the snapshot did not see (ignored) that an agent tracked or unignored: one whose
    # inode no shell call changed held what it holds (a person's long-ignored file)
    unseen = [p for p in fresh if old[p] is None and after.get(p) and p not in kept.stats]
    quiet = untouched(top, unseen, unseen_before)
    held.update({p: after[p] for p in quiet})
    changed = sorted(p for p, blob in after.items() if held.get(p) != blob)
    listed = os.path.join(os.path.dirname(path), MADE_FILE)
    known = known_made(listed)
    now_tips, now_stashes = repo.ref_tips(MAX_TIPS)
    new = [c for c in (*now_tips, *now_stashes) if c not in {*tips, *stashes}]
    # what git fetch brought in is the remote's; a remote-tracking tip moved otherwise is not
    fetched = fetched_ids(repo.paths.common_dir) if new or changed else []
    commits = new_commits(repo, new, [*tips, *stashes], fetched)
    wrote = written_in(repo, commits, before, kept.staged, head)
    # a stash entry the call made of content that existed before it (a person's work an
    # agent stashed) is a source a later call restores from; any other new one is not
    clean = clean_stashes(repo, [c for c in now_stashes if c in new], wrote)
    made_now = [c for c in new if c not in clean and c not in fetched]
    note_made(listed, known, [c for c in made_now if c not in known])
    made = {*known, *made_now} - clean
    # a fetched commit's content that a stopped merge left is the remote's, not new
    tips = [t for t in dict.fromkeys([*tips, *fetched]) if t not in made]
    stashes = [t for t in stashes if t not in made]
    back = {p for p, _ in restored_in(repo, [(p, after[p]) for p in changed], tips, stashes)}
    # a path created by moving another (edited too: git mv a b && sed -i b) is measured
    # from what that one held; the one it came from is moved content
    came = renamed(repo, [p for p in changed if p not in back], held, after)
    back |= moved(changed, held, after) | set(came.values())
    paths = [p for p in changed if p not in back]
    pairs = [(p, held.get(came.get(p, p))) for p in paths]  # restored then edited: from there
    starts = sourced(repo, pairs, after, tips, stashes, came)
    ours = {(p, b, s) for ws in wrote.values() for p, b, s in ws if p not in after or after[p] != b}
    # what the call staged of its own and left out of the work tree (git apply --cached)
    at = repo.head() if tracked else head  # HEAD moved (a mixed reset): its blobs are not new
    at_now = repo.blobs_in(at, tracked) if at and at != head else {}
    now_staged = repo.blobs_staged(tracked)
    index = written_in_index(now_staged, kept.staged, before, old, after, at_now, came)
    ours |= set(index)
    olden = restored_in(repo, [(p, b) for p, b, _ in ours], tips, stashes)
    kept_blob = {p: b for p in look if (b := after.get(p)) and held.get(p) == b}  # unchanged
    ours |= set(flips := flipped(repo, top, kept, head, {} if kept.over else kept_blob, commits))
    committed = tuple(sorted((w for w in ours if (w[0], w[1]) not in olden), key=str))
    staged = tuple(sorted({p for p, b, s in committed if (p, b, s) in index}))
    back_, quiet_ = tuple(sorted(back)), tuple(sorted(quiet))
    flip = tuple(sorted({p for p, _, _ in flips}))
    return Changed(tuple(paths), starts, back_, nonce, committed, kept.over, staged, quiet_, flip)


def spent(root: str, runtime: str, event: RuntimeEvent) -> bool:
    """Whether ``event``'s call had its snapshot read by an earlier post-tool input (the
    same input replayed, or sent again after it recorded) within :data:`.shell_files.MAX_AGE`."""
    return is_spent(snapshot_file(Repository.open(root), runtime, event))


def before(runtime: str, title: str, event: RuntimeEvent, root: str | None) -> str:
    """Keep the snapshot before ``event``'s shell call (:func:`take`) in the work tree
    ``root`` (None: outside any) and in each other worktree of its repository
    (:func:`.shell_trees.other_trees`: a command may ``cd`` into one); returns the line said
    (nothing is recorded yet). A worktree git cannot read is named in that line.

    Raises:
        GentleError / GitError: as :func:`take` in ``root``.
    """
    call = f"the {event.tool or 'shell'} call of {title}"
    if root is None:
        return outside(event)
    if settles(event.tool_call_id, event.shell_key) and spent(root, runtime, event):
        return replayed_before(call)  # kept again, a person's later edits would be the call's
    held = take(root, runtime, event)
    trees, past = other_trees(root)
    over, failed = [], []
    for tree in trees:
        try:
            if take(tree, runtime, event) is None:
                over.append(tree)
        except (GentleError, GitError):
            failed.append(tree)
    said = (
        f"{call}: {over_note(root, _BOUND)}"
        if held is None
        else f"kept the work tree before {call}: what the command changes is recorded after it"
    )
    return said + trees_note(len(trees) - len(failed), [*failed, *past], over, _BOUND)


class Starts(dict[str, str | None]):
    """Real absolute path -> the blob a shell call's write of it is measured from
    (:attr:`Changed.starts`), with :attr:`committed`: real absolute path -> what the call
    wrote there into commits it made (``(blob, start)`` pairs, :attr:`Changed.committed`)."""

    committed: dict[str, list[tuple[str | None, str | None]]]

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        self.committed = {}


def after(
    runtime: str, title: str, event: RuntimeEvent, root: str | None
) -> tuple[RuntimeEvent, dict[str, str | None], str | None]:
    """``event`` of a shell call that ran, as the write of every path it changed in the work
    tree ``root`` (:func:`compare`; absolute paths) or wrote into commits it made, with each
    path's start (:class:`Starts`: real absolute path -> the blob it is measured from, and
    what it left in commits); or, with nothing to record, the event and why (no snapshot
    was kept, or the command changed no file and committed nothing of its own).

    A command the runtime reports failed (:attr:`RuntimeEvent.failed`: Codex's and Gemini
    CLI's post-tool events fire after a non-zero exit too) may have written before it
    failed (``sed -i f && false``): what changed is the writer's all the same (content
    decides, not the exit status), and a note says so.

    Raises:
        GitError: git failed.
    """
    call = f"the {event.tool or 'shell'} call of {title}"
    if root is None:
        return event, {}, f"{call} ran outside a repository: {outside(event)}"
    every = [root, *other_trees(root)[0]]  # when the snapshots were kept, before they are spent
    files = [snapshot_file(Repository.open(t), runtime, event) for t in every]
    kept = [x for f in files if (x := snapshot_time(f))]
    since, trees, made = min(kept, default=None), list[tuple[str, Changed]](), tuple[str, ...]()
    for t in every:  # a worktree the call created is measured from its HEAD
        if (c := compare(t, runtime, event)) or not (n := created_since(t, since)):
            trees += [(t, c)] if c else []
            continue
        trees.append((t, Changed(*n)))
        made += (f"{call} created the worktree {t}: what it holds is measured from its HEAD",)
    if not trees and spent(root, runtime, event):
        # a replay: what the call changed was recorded (or found empty) when its first
        # post-tool input read the snapshot; nothing to install, nothing to record again
        said = event.hook_event or "post-tool"
        return (
            event,
            {},
            (
                f"{call} was read already: an earlier {said} input of this call used its "
                f"snapshot of the work tree (this {said} input is a replay or a stale copy), so "
                "what it changed is not recorded again"
            ),
        )
    if not trees:
        return event, {}, f"{call} {event.not_written}{no_snapshot_note(root)}"
    if not any(c.paths or c.committed for _, c in trees):
        tree, first = trees[0]
        if first.unseen:
            return event, {}, f"{call} changed no file in {tree}: {unseen_note(first.unseen)}"
        if back := restored_note(first.restored):
            return event, {}, f"{call} changed no file in {tree} with content of its own: {back}"
        if first.over:
            return event, {}, f"{call} changed no tracked file: {over_note(tree, _BOUND)}"
        return event, {}, f"{call} changed no file in {tree}{status_same(tree)}"
    nonce = next((c.nonce for _, c in trees if c.nonce is not None), None)
    if event.shell_key is not None and nonce is not None:
        # a runtime that names no call id: the same command run again is another call,
        # told apart by its snapshot's nonce (a replayed post-tool input finds none left)
        event = replace(event, tool_call_id=derived_call_id(event.tool_call_id, nonce))
    paths: list[str] = []
    starts = Starts()
    notes = event.notes + made
    for tree, changed in trees:
        where = call if tree == root else f"{call} in the worktree {tree}"
        notes += _gather(where, tree, changed, paths, starts)
    if event.failed is not None:
        notes += (
            f"{call} {event.failed}, but changed {len(paths)} file(s) before it ended: what it "
            "changed is recorded (content decides, not the exit status)",
        )
    done = replace(
        event, paths=tuple(paths), writes=True, not_written=None, failed=None, notes=notes
    )
    return done, starts, None


def _gather(
    call: str, root: str, changed: Changed, paths: list[str], starts: Starts
) -> tuple[str, ...]:
    """Add what ``changed`` (of the work tree ``root``) holds to ``paths`` (absolute) and
    ``starts``; returns its notes (restored, staged, committed content, over the bound)."""
    real = os.path.realpath(root)
    wrote = sorted({*changed.paths, *(p for p, _, _ in changed.committed)})
    paths.extend(os.path.join(real, p) for p in wrote)
    starts.update((os.path.join(real, p), blob) for p, blob in changed.starts)
    for p, blob, start in changed.committed:
        starts.committed.setdefault(os.path.join(real, p), []).append((blob, start))
    back = restored_note(changed.restored)
    notes: tuple[str, ...] = (f"{call}: {back}",) if back else ()
    notes += (f"{call}: {unseen_note(changed.unseen)}",) if changed.unseen else ()
    if changed.staged:
        notes += (
            f"{call} staged content of its own that the work tree does not hold (git apply "
            f"--cached, update-index: {', '.join(changed.staged)}): recorded as the writer's",
        )
    if changed.flipped:
        notes += (
            f"{call} changed the mode of {', '.join(changed.flipped)} (chmod): recorded as "
            "the writer's change of that path",
        )
    plain = {*changed.staged, *changed.flipped}
    if shown := ", ".join(sorted({p for p, _, _ in changed.committed} - plain)):
        notes += (
            f"{call} left content of its own in commits it made (a branch, tag or stash "
            f"entry: {shown}): recorded as the writer's wherever it goes",
        )
    return notes + ((f"{call}: {over_note(root, _BOUND)}",) if changed.over else ())


def committed_in(
    root: str, paths: tuple[str, ...], starts: Mapping[str, str | None] | None
) -> tuple[Written, ...]:
    """What a shell call left in commits it made (:class:`Starts`, empty or not; another
    mapping or None: nothing) at each of the root-relative ``paths`` of the work tree
    ``root``."""
    held = starts.committed if isinstance(starts, Starts) else {}
    real = os.path.realpath(root)
    return tuple((p, b, s) for p in paths for b, s in held.get(os.path.join(real, p), ()))


def starts_in(
    root: str, paths: tuple[str, ...], starts: Mapping[str, str | None]
) -> tuple[tuple[str, str | None], ...]:
    """``(path, blob)`` for each of the root-relative ``paths`` of the work tree ``root``
    that ``starts`` (real absolute path -> blob, :func:`after`) names."""
    out = []
    real = os.path.realpath(root)
    for p in paths:
        full = os.path.join(real, p)
        if full in starts:
            out.append((p, starts[full]))
    return tuple(out)
