"""The paths whose mode alone a writer changed: ``chmod +x run.sh`` keeps the file's blob,
yet the flip makes it runnable, so it is the writer's change of that path (SPEC §3
"Attribution follows content": what a tree holds at a path is its blob and its mode; §4:
an exec-bit flip makes a change high risk).

Room ``services``. Each is recorded as a write whose blob is the one it started from
(:func:`gentle_hooks.policy.attribution.carries_row` row A8: a change of that path that
keeps that blob, so changes only its mode, carries it): of a shell call
(:func:`flipped`, :mod:`.agent_shell` compares), whether the work tree holds the flip after
the call or a commit the call made does (``chmod +x f && git commit``); of the generic
``record [PATH...]`` (:func:`named_flips`), whose paths are all the writer's. Such an
entry's blob stays in ``HEAD``, so it ends by its flip: :func:`flips_held` says which
flips a local version still holds (the rest expire, :mod:`.expiry`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.services.shell_commits import Written
from gentle_hooks.services.shell_files import Kept, mode_of, modes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.ledger.store import Ledger


def flipped(
    repo: Repository,
    top: str,
    kept: Kept,
    head: str | None,
    same: Mapping[str, str],
    commits: Sequence[str] = (),
) -> list[Written]:
    """``(path, blob, blob)`` for each path whose mode alone the call changed, sorted:

    * of ``same`` (paths of the work tree ``top`` -> the blob they hold, as before the
      call), each whose mode (:func:`.shell_files.modes`) differs from the one it had;
    * of ``commits`` (the commits the call made, :func:`.shell_commits.new_commits`), each
      path a commit with one parent changes the mode of alone (its blob kept) to a mode the
      path did not have before the call (a merge's are its parents').

    The mode before the call is the snapshot's (``kept``: a hashed path's, a listed path's
    ``lstat``), else its mode in ``head`` (one ``ls-tree``, only for such paths); a path
    with no mode known from before is left out. One ``diff-tree`` and one ``ls-tree`` per
    commit that changes a mode alone, when there are ``commits``.

    Raises:
        GitError: git failed.
    """
    now = modes(top, list(same))
    wanted = {p: (m, same[p]) for p, m in now.items()}  # path -> (mode, blob)
    infos = [i for i in repo.read_commits(list(commits)) if len(i.parents) == 1]
    pairs = [(repo.tree_of(i.parents[0]), i.tree) for i in infos]
    for (_, tree), changes in zip(pairs, repo.tree_deltas(pairs) if pairs else [], strict=True):
        only = {c.path: c.new_blob for c in changes if c.new_blob and c.old_blob == c.new_blob}
        for p, m in repo.modes_in(tree, only).items() if only else ():
            if blob := only[p]:
                wanted.setdefault(p, (m, blob))
    before = {p: kept.modes[p] for p in wanted if p in kept.modes}
    before |= {p: mode_of(kept.stats[p][-1]) for p in wanted if kept.stats.get(p)}
    clean = [p for p in wanted if p not in before and p not in kept.blobs]
    if clean and head:
        before |= repo.modes_in(head, clean)
    return [(p, b, b) for p, (m, b) in sorted(wanted.items()) if before.get(p, m) != m]


def named_flips(
    repo: Repository,
    led: Ledger | None,
    root: str,
    paths: Sequence[str],
    entries: Sequence[WriterEntryRecord],
) -> list[Written]:
    """``(path, blob, blob)`` for each of ``paths`` (root-relative, of the work tree
    ``root``) the generic ``record`` names, or finds differing from ``HEAD``, whose mode
    alone differs there, sorted: it got no entry in ``entries`` (its content is where the
    writer started), the work tree holds ``HEAD``'s blob at it with another mode than
    ``HEAD``'s, and no open entry of ``led`` for it holds that blob already (the same flip
    recorded again is stored once). None with an unborn ``HEAD`` (every path is new
    content there). One ``ls-tree`` and one ``hash-object``, only for such paths.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    head = repo.head()
    left = sorted(set(paths) - {e.path for e in entries})
    now = modes(root, left)
    at_head = repo.modes_in(head, now) if head and now else {}
    differ = [p for p, m in now.items() if p in at_head and at_head[p] != m]
    if not differ or head is None:
        return []
    blobs = repo.blobs_in(repo.tree_of(head), differ)
    held = repo.hash_worktree(differ)
    known = {(e.path, e.blob) for e in led.open_entries(root, differ)} if led else set()
    return [
        (p, b, b)
        for p in differ
        if (b := held.get(p)) is not None and blobs.get(p) == b and (p, b) not in known
    ]


def is_flip(entry: WriterEntryRecord) -> bool:
    """Whether ``entry`` records a mode change alone (its blob is the one it started from)."""
    return entry.blob is not None and entry.blob == entry.before_blob


def flips_held(repo: Repository, entries: Sequence[WriterEntryRecord]) -> set[int]:
    """The ids of ``entries`` (:func:`is_flip` ones) whose flip a local version still holds:
    the work tree or the index holds its path (any blob: the entry's, or a person's edit of
    the file on top) with another mode than ``HEAD``'s, or an unpushed commit or stash
    entry changes the mode of that path (one its first parent has: a commit adding the
    path flips nothing). With another worktree in
    the repository every one is held (fail closed: the flip may be pending there); so with
    a conflict in progress. One ``ls-tree`` per version read.

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.git.checkout import other_worktrees

    if not entries or other_worktrees(repo):
        return {e.id for e in entries}
    paths = sorted({e.path for e in entries})
    head = repo.head()
    at_head = repo.modes_in(head, paths) if head else {}
    blobs = repo.hash_worktree(paths)
    now = {p: m for p, m in modes(repo.paths.toplevel or "", paths).items() if blobs.get(p)}
    try:
        staged_tree = repo.staged_tree()
    except GitError:  # a conflict in progress: the index is no tree yet (fail closed)
        return {e.id for e in entries}
    staged = repo.modes_in(staged_tree, paths)
    staged_blobs = repo.blobs_in(staged_tree, paths)
    held: set[int] = set()
    for e in entries:
        # the flip whatever blob the path holds: a person's own hunk of the file, committed
        # alone (``git add -p``, the mode declined), leaves the writer's mode in place
        if (e.path in now and now[e.path] != at_head.get(e.path)) or (
            staged_blobs.get(e.path) and staged.get(e.path) != at_head.get(e.path)
        ):
            held.add(e.id)
    left = [e for e in entries if e.id not in held]
    for info in repo.read_commits(repo.unpushed_commits_touching({e.path for e in left})):
        if not left:
            break
        mine = repo.modes_in(info.tree, paths)
        theirs = repo.modes_in(info.parents[0], paths) if info.parents else {}
        held |= {e.id for e in left if e.path in theirs and mine.get(e.path) != theirs[e.path]}
        left = [e for e in left if e.id not in held]
    return held
