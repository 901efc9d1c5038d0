"""Which content a shell call's changed path is measured from when the call restored it from
a commit and edited it in the same call (SPEC §3 "Attribution follows content";
:mod:`.agent_shell`).

Room ``services``. ``git stash pop && sed -i ... f`` or ``git checkout feature -- f && sed -i
... f`` leaves ``f`` holding a blob no commit holds: :func:`.shell_commits.restored_in` does
not leave it out, and measured from the blob it held before the call (``HEAD``'s) the
person's stashed or branch lines would be the writer's. :func:`sourced` measures each such
path from the blob a ref tip or stash entry the snapshot held (not one the call made) holds
there, when that blob shares more of its lines with the path's content now than the start
does: only the call's own edit is the writer's.

One ``cat-file --batch-check`` (at most :data:`.shell_commits.MAX_LOOKUPS` names) and one
``cat-file --batch`` for the candidate blobs, only when a changed path remains to measure;
past :data:`MAX_BLOB` bytes a blob is not compared (the start stays: fail closed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.services.shell_commits import MAX_LOOKUPS

#: The largest blob whose lines are compared.
MAX_BLOB = 4 * 1024 * 1024


def _common(a: bytes, b: bytes) -> int:
    """How many lines ``a`` and ``b`` share (as a multiset)."""
    return sum((Counter(a.splitlines()) & Counter(b.splitlines())).values())


def sourced(
    repo: Repository,
    starts: Sequence[tuple[str, str | None]],
    after: Mapping[str, str | None],
    tips: Sequence[str],
    stashes: Sequence[str],
    skip: Collection[str] = (),
) -> tuple[tuple[str, str | None], ...]:
    """``starts`` (``(path, blob)``: the blob each changed path is measured from), with each
    path not in ``skip`` (renamed from another) that now holds a blob (``after``) measured
    from the blob one of ``tips`` or ``stashes`` (a stash entry's index and untracked
    commits too) holds there instead, when that one shares more lines with it.

    Raises:
        GitError: git failed.
    """
    commits = [*tips, *(f"{s}{p}" for s in stashes for p in ("", "^2", "^3"))]
    wanted = [p for p, _ in starts if after.get(p) and p not in skip and "\n" not in p]
    names: list[tuple[str, str]] = []
    for path in wanted:
        if len(names) + len(commits) > MAX_LOOKUPS:
            break
        names += [(path, f"{c}:{path}") for c in commits]
    if not names:
        return tuple(starts)
    found = repo.blobs_named([n for _, n in names])
    there: dict[str, set[str]] = {}
    for (path, _), blob in zip(names, found, strict=True):
        if blob:
            there.setdefault(path, set()).add(blob)
    if not there:
        return tuple(starts)
    held = dict(starts)
    ids = {b for bs in there.values() for b in bs} | {
        b for p in there for b in (held.get(p), after.get(p)) if b
    }
    contents = repo.read_blobs(sorted(ids))
    out = []
    for path, start in starts:
        now = contents.get(after.get(path) or "")
        best, score = start, -1
        if now is not None and len(now) <= MAX_BLOB and path in there:
            old = contents.get(start or "", b"")
            score = _common(old, now) if len(old) <= MAX_BLOB else len(now)
            for blob in sorted(there[path]):
                text = contents.get(blob)
                if text is not None and len(text) <= MAX_BLOB and _common(text, now) > score:
                    best, score = blob, _common(text, now)
        out.append((path, best))
    return tuple(out)
