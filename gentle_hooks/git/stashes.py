"""Stash entries, kept and dropped (SPEC §3 "Pending work ends cleanly").

Room ``git``. :func:`stash_entries` lists the entries ``git stash list`` shows (the
``refs/stash`` reflog) with the commits each holds; :func:`dropped_stashes` finds the
stash commits made since a time that no longer are in that reflog (``git stash pop`` or
``drop``), among the loose objects: a stash round trip writes its commits there, and
they stay loose until ``git gc`` prunes them (two weeks by default).
"""

from __future__ import annotations

import os
import re
from contextlib import suppress
from typing import Final

from gentle_hooks.git.objects import CommitInfo, Objects

#: The subject ``git stash`` gives an entry's work-tree commit (``WIP on main: 1a2b3c4
#: subject``, ``On main: message``; ``(no branch)`` when detached).
_STASH_SUBJECT: Final = re.compile(r"(?:WIP on|On) [^\n]*: ")

#: Loose objects :func:`dropped_stashes` looks at, at most (newest kept): a bound on the
#: work of one discard or block.
MAX_LOOSE: Final = 20000


def stash_entries(repo: Objects) -> list[tuple[str, tuple[str, ...]]]:
    """Each stash entry, newest first, as ``(stash@{N}, commits)``: its work-tree commit,
    then its index commit and its untracked-files commit where it has them; [] with no
    stash.

    Raises:
        GitError: git failed.
    """
    if not repo.ref_exists("refs/stash"):
        return []
    ids = repo.out(["reflog", "show", "--format=%H", "refs/stash", "--"]).split()
    infos = {i.id: i for i in repo.read_commits(ids)}
    return [
        (f"stash@{{{n}}}", _parts(infos[oid]) if oid in infos else (oid,))
        for n, oid in enumerate(ids)
    ]


def dropped_stashes(repo: Objects, since: float) -> list[tuple[str, ...]]:
    """The stash entries written at or after ``since`` (seconds since the epoch) that the
    stash no longer lists (popped or dropped), each as the commits it holds (as
    :func:`stash_entries`): loose commit objects of that time whose subject and parents
    are a stash's. Packed ones (after ``git gc``) are not seen.

    Raises:
        GitError: git failed.
    """
    objects = os.path.join(repo.paths.common_dir, "objects")
    found: list[tuple[float, str]] = []
    try:
        dirs = [d for d in os.scandir(objects) if len(d.name) == 2 and d.is_dir()]
    except OSError:
        return []
    for d in dirs:
        try:
            with os.scandir(d.path) as names:
                for f in names:
                    with suppress(OSError):  # a loose object pruned meanwhile
                        stamp = f.stat().st_mtime
                        if stamp >= int(since):
                            found.append((stamp, d.name + f.name))
        except OSError:
            continue
    ids = [oid for _, oid in sorted(found, reverse=True)[:MAX_LOOSE]]
    if not ids:
        return []
    check = repo.run(
        ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
        input="".join(f"{i}\n" for i in ids).encode(),
    )
    commits = [
        ln.split()[0]
        for ln in check.stdout.decode("ascii", "replace").splitlines()
        if ln.endswith(" commit")
    ]
    listed = {c for _, parts in stash_entries(repo) for c in parts}
    return [
        _parts(info)
        for info in repo.read_commits(commits)
        if info.id not in listed
        and len(info.parents) >= 2
        and _STASH_SUBJECT.match(info.message)
        and info.committed_at >= int(since)
    ]


def _parts(info: CommitInfo) -> tuple[str, ...]:
    """A stash entry's commits: the work-tree commit, then its second and third parents
    (index, untracked files) where present."""
    return (info.id, *info.parents[1:3])
