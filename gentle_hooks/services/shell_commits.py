"""What a shell call wrote into commits it made: content that came into being during the call
and went into a branch, tag or stash entry instead of (or as well as) the work tree (SPEC §3
"Attribution follows content", §6 "pending mutation"; :mod:`.agent_shell`).

Room ``services``. An agent's ``sed -i f && git commit -qam x --no-verify``, ``sed -i f &&
git stash`` or ``git checkout -b w && sed -i f && git commit --no-verify -am w && git
checkout -`` leaves the work tree as it found it: comparing the work tree alone records
nothing, and the person's later push, ``stash pop`` or ``merge w`` delivers the writer's
lines unverified. So the post-tool side also walks the commits the call made (reachable
from a ref tip or stash entry its snapshot did not hold, not from any it did nor from what
``git fetch`` brought in from another repository: a remote-tracking branch the call moved
itself hides nothing; at most :data:`MAX_COMMITS`, one ``rev-list``, one ``cat-file
--batch``, one ``diff-tree --stdin``) and takes, from each commit's change against its
parents (a stash entry's index and untracked commits included: they are commits it made
too), every path whose blob differs from every version the snapshot held for it (the work
tree's and the index's before the call, ``HEAD``'s) and from what a ref tip or stash entry
the snapshot held holds there. Those are the writer's, each measured from the work tree's
(else ``HEAD``'s) blob before the call, recorded like a work-tree write (path and blob ids:
:func:`committed_entries`). A commit of content that already existed before the call (a
person's edits the agent commits or stashes) records nothing: it stays the person's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.services.shell_moves import renamed
from gentle_hooks.services.write_entry import write_entry

#: The most commits one call's new refs are walked for; past it the older ones are not
#: looked at (their content is not recorded: see the module's open limits).
MAX_COMMITS = 200
#: The most ``<commit>:<path>`` names one post-tool event looks up; the changed paths past
#: it are not looked up (they stay the writer's: fail closed).
MAX_LOOKUPS = 20000

#: One write the call left in a commit: (root-relative path, the blob written there, None:
#: deleted; the blob it is measured from, None: absent before the call).
Written = tuple[str, str | None, str | None]


def new_commits(
    repo: Repository, made: Sequence[str], held: Sequence[str], fetched: Sequence[str]
) -> list[str]:
    """The commits reachable from ``made`` (ref tips and stash entries the call made or
    moved) and from none of ``held`` (those its snapshot kept: a remote-tracking branch's
    tip before the call among them) nor ``fetched`` (what ``git fetch`` brought in from
    another repository: :func:`gentle_hooks.git.fetchhead.fetched_ids`), newest first, at
    most :data:`MAX_COMMITS` (one ``rev-list``; none without ``made``).

    A remote-tracking branch the call moved without fetching (``git update-ref
    refs/remotes/origin/main HEAD``, ``git push . HEAD:refs/remotes/origin/main``, ``git
    fetch . HEAD:...``, the ``git push`` of its own commit) hides nothing: the commits it
    reaches are walked like those of any ref the call moved.

    Raises:
        GitError: git failed.
    """
    if not made:
        return []
    # on stdin: no argument-length limit for a FETCH_HEAD of every branch of a large remote
    lines = [*made, *(f"^{h}" for h in dict.fromkeys([*held, *fetched]))]
    args = ["rev-list", f"--max-count={MAX_COMMITS}", "--ignore-missing", "--stdin"]
    out = repo.run(args, input="".join(f"{x}\n" for x in lines).encode()).stdout
    return out.decode("ascii", "replace").split()


def written_in(
    repo: Repository,
    commits: Sequence[str],
    before: Mapping[str, str | None],
    staged: Mapping[str, str | None],
    head: str | None,
) -> dict[str, list[Written]]:
    """What each of ``commits`` wrote: commit id -> :data:`Written` for each path its change
    against each of its parents (the empty tree for a root commit; a merge's path that one
    parent holds as it is came from that parent) gives a blob the snapshot
    held for it nowhere: not in the work tree (``before``: the changed paths' blobs then,
    None: absent), not in the index (``staged``) and not in ``head`` (the commit ``HEAD``
    was at), at that path or any other (a ``git mv`` committed or stashed in the same
    call, a person's staged file moved: content moved, not written). A deletion counts
    only where the path existed before the call and the commit put none of its blobs at
    another path. Each is measured from the work tree's blob before the call, else
    ``head``'s; a path the commit created from one it removed (paired as git pairs renames:
    :func:`.shell_moves.renamed`) from that one's, whose removal is moved content.

    Raises:
        GitError: git failed.
    """
    infos = repo.read_commits(list(commits))
    parents = list(dict.fromkeys(p for i in infos for p in i.parents))
    repo.read_commits(parents)  # their trees, known from here on without a process each
    # each commit against each of its parents (the empty tree for a root commit)
    pairs = [
        (c.id, repo.tree_of(p) if p else repo.empty_tree, c.tree)
        for c in infos
        for p in (c.parents or ("",))
    ]
    deltas = repo.tree_deltas([(a, b) for _, a, b in pairs]) if pairs else []
    paths = {c.path for cs in deltas for c in cs}
    at_head: dict[str, str | None] = dict.fromkeys(paths)
    if head and paths:
        at_head.update(repo.blobs_in(repo.tree_of(head), paths))
    starts = {**at_head, **before}
    against: dict[str, list[dict[str, str | None]]] = {}
    for (commit, _, _), changes in zip(pairs, deltas, strict=True):
        against.setdefault(commit, []).append({c.path: c.new_blob for c in changes})
    # content any path held before the call (moved by git mv, a person's staged file) is
    # not new wherever a commit puts it
    seen = {b for b in (*before.values(), *staged.values(), *at_head.values()) if b}
    out: dict[str, list[Written]] = {}
    for commit, each in against.items():
        mine = out.setdefault(commit, [])
        put = {b for b in each[0].values() if b}  # a path gone whose blob another got: moved
        # a path created from one gone (git mv a b && sed -i b && git commit) is measured
        # from what that one held; the one gone is moved content
        came = renamed(repo, list(each[0]), {p: starts.get(p) for p in each[0]}, each[0])
        # a merge's path holding what one of its parents holds there came from that parent
        for path, blob in each[0].items():
            if any(path not in other for other in each[1:]):
                continue
            start = starts.get(came.get(path, path))
            known = {start, staged.get(path, start), at_head.get(path)}
            if blob is None and (known & put or path in came.values()):
                continue
            if blob not in known and blob not in seen and (blob is not None or any(known)):
                mine.append((path, blob, start))
    return out


def written_in_index(
    now: Mapping[str, str],
    staged: Mapping[str, str | None],
    before: Mapping[str, str | None],
    at_head: Mapping[str, str | None],
    after: Mapping[str, str | None],
    at_now: Mapping[str, str | None],
    came: Mapping[str, str] | None = None,
) -> list[Written]:
    """What a shell call wrote into the index alone (``git apply --cached``, ``git
    update-index --cacheinfo``, ``git add`` of content it wrote then put back in the work
    tree): :data:`Written` for each path whose index blob now (``now``: path -> blob, the
    paths ``git status`` shows as tracked after the call) no version the snapshot held has
    anywhere: no path's work-tree or index blob before the call (``before``, ``staged``:
    content moved by ``git mv`` or staged by ``git add`` of a person's edits is not new),
    not ``HEAD``'s at any path looked up (``at_head``: path -> its blob in the commit
    ``HEAD`` was at, for the paths changed before or after the call: a ``git mv``'d path's
    blob is the one ``HEAD`` held where it came from) nor at that path now (``at_now``:
    the one it is at now, when the call moved it: ``git reset --mixed HEAD~1`` stages what
    that commit holds, and a commit the call made is walked by :func:`written_in`), nor
    what the work tree holds there now (``after``: that write is recorded as the work
    tree's).
    Each is measured from the path's index blob before the call (``staged``; a path the
    snapshot did not hold was ``HEAD``'s; a path the call created by moving another,
    ``came``: new path -> the path it came from (:func:`.shell_moves.renamed`), from that
    path's index blob before the call). A path the call only removed from the index
    (``git rm --cached``) brings no content into being and is not listed.
    """
    seen = {b for b in (*before.values(), *staged.values(), *at_head.values()) if b}
    out: list[Written] = []
    for path, blob in sorted(now.items()):
        if blob in seen or blob in (at_now.get(path), after.get(path)):
            continue
        if path in before or path in staged:
            out.append((path, blob, staged.get(path)))
            continue
        source = (came or {}).get(path, path)  # where its content was before the call
        out.append((path, blob, staged[source] if source in staged else at_head.get(source)))
    return out


def committed_entries(
    repo: Repository, root: str, written: Sequence[Written]
) -> list[WriterEntryRecord]:
    """Entries of the work tree ``root`` for what a shell call left in commits
    (:data:`Written`), each measured from its start, as
    :func:`~gentle_hooks.services.attribution.entries_for_write` measures a work-tree write.

    Raises:
        GitError: a blob cannot be read.
    """
    if not written:
        return []
    head = repo.head()
    contents = repo.read_blobs(sorted({b for _, w, s in written for b in (w, s) if b}))
    return [write_entry(root, path, blob, start, head, contents) for path, blob, start in written]


def original_start(
    repo: Repository,
    paths: Sequence[str],
    entries: Sequence[WriterEntryRecord],
    original: str | None,
) -> tuple[tuple[str, str | None], ...]:
    """The start of a runtime's call on one path that got no entry, as :func:`written_again`
    reads a shell call's: ``(path, blob)`` of ``original``, the file just before the call
    as the runtime hands it whole (Claude Code's ``originalFile``). Measured from the
    writer's last write, content the writer writes again after a ``git reset --hard``
    threw it away differs from nothing, though the call started from ``HEAD``'s file; its
    own start says the call changed it. Empty for a call of several paths, with no
    ``original``, or when the path got an entry. One ``hash-object -w``.

    Raises:
        GitError: git failed.
    """
    if original is None or len(paths) != 1 or any(e.path == paths[0] for e in entries):
        return ()
    return ((paths[0], repo.write_blob(original.encode("utf-8"))),)


def written_again(
    repo: Repository,
    root: str,
    entries: Sequence[WriterEntryRecord],
    starts: Sequence[tuple[str, str | None]],
) -> list[WriterEntryRecord]:
    """Entries of the work tree ``root`` for the paths of ``starts`` (a shell call's
    snapshot, or a runtime's pre-image: :func:`original_start`; ``(path, blob)`` it is
    measured from) that ``entries`` (measured as any write)
    lack and that now hold neither that blob nor ``HEAD``'s: measured from the writer's last
    write, which the call wrote once more after it was undone (``git checkout f``, then a
    ``sed -i`` giving the same content), they got none. The call changed them all the same:
    each is measured from its start, as :func:`committed_entries` measures.

    Raises:
        GitError: git failed.
    """
    have = {e.path for e in entries}
    missing = [p for p, _ in starts if p not in have]
    if not missing:
        return []
    now, head = repo.hash_worktree(missing), repo.head()
    at_head = dict(repo.blobs_in(repo.tree_of(head), missing)) if head else {}
    wrote = [(p, now.get(p), s) for p, s in starts if p in missing]
    return committed_entries(
        repo, root, [w for w in wrote if w[1] not in (w[2], at_head.get(w[0]))]
    )


def clean_stashes(
    repo: Repository, made: list[str], wrote: Mapping[str, list[Written]]
) -> set[str]:
    """The stash entries of ``made`` (new in this call) whose commits, each of them and its
    index and untracked commits, wrote nothing new (``wrote``, :func:`written_in`): content
    the work tree or index held before the call, so a person's."""
    if not made:
        return set()
    infos = repo.read_commits(made)
    return {i.id for i in infos if not any(wrote.get(c) for c in (i.id, *i.parents[1:]))}


def restored_in(
    repo: Repository,
    now: Sequence[tuple[str, str | None]],
    tips: list[str],
    stashes: list[str],
) -> set[tuple[str, str | None]]:
    """The ``(path, blob)`` of ``now`` (None: gone) whose blob one of ``tips`` or
    ``stashes`` (with a stash entry's index and untracked commits, ``^2`` and ``^3``) holds
    at that path: one ``cat-file --batch-check``, at most :data:`MAX_LOOKUPS` names (the
    paths past it are not looked up)."""
    commits = [*tips, *(f"{s}{p}" for s in stashes for p in ("", "^2", "^3"))]
    names: list[str] = []
    wanted: list[tuple[str, str]] = []
    for path, blob in now:
        if blob is None or "\n" in path or not commits:
            continue
        if len(names) + len(commits) > MAX_LOOKUPS:
            break
        for c in commits:
            names.append(f"{c}:{path}")
            wanted.append((path, blob))
    found = repo.blobs_named(names)
    return {(path, blob) for (path, blob), got in zip(wanted, found, strict=True) if got == blob}
