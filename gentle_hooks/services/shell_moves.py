"""Which paths a shell call moved: a path gone and a path it created holding the same content,
or content git's rename detection pairs with it (SPEC §3 "Attribution follows content": a
rename carries content with its path; :mod:`.agent_shell`).

Room ``services``. A command's ``git mv a b`` or ``mv a b`` leaves ``a`` gone and ``b``
new. Unchanged, both are moved content (:func:`moved`). Edited in the same call (``git mv
calc.py pricing.py && sed -i ... pricing.py``), ``b`` is ``a`` renamed and edited:
:func:`renamed` pairs them as git does by default
(:func:`gentle_hooks.policy.renames.rename_pairs`: the same blob, else half of the lines in
common), and ``b`` is measured from what ``a`` held before the call (its work tree content,
staged and unstaged edits included), so only the call's own edit is the writer's.

One ``cat-file --batch`` reads the contents, only when the call left a path gone and
created another; past :data:`MAX_COMPARED` gone-by-new pairs only the same blob pairs
(the rest stay measured from nothing: fail closed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.renames import Side, rename_pairs

#: The most (gone path, new path) pairs whose contents are compared; past it a new path
#: pairs only with a gone path of the same blob.
MAX_COMPARED = 10000


def moved(
    changed: Sequence[str], held: Mapping[str, str | None], after: Mapping[str, str | None]
) -> set[str]:
    """The paths of ``changed`` that now hold, unchanged, the blob another changed path held
    before the call and no longer holds (``git mv a b``, ``mv a b``), and the paths gone
    whose blob one of those now holds: content moved, not written, whether the work tree
    alone held it or the index too (a writer's earlier record follows a rename)."""
    left = {held[p]: p for p in changed if held.get(p) is not None and after.get(p) != held[p]}
    to = {p for p in changed if (b := after.get(p)) is not None and left.get(b, p) != p}
    gone = {after[t] for t in to}
    return to | {p for p in changed if after.get(p) is None and held.get(p) in gone}


def renamed(
    repo: Repository,
    changed: Sequence[str],
    held: Mapping[str, str | None],
    after: Mapping[str, str | None],
) -> dict[str, str]:
    """New path -> the gone path it is renamed from: among ``changed``, each path gone
    (``held``: its blob before the call; ``after``: None now) paired with a path the call
    created (None before), as git's rename detection pairs them.

    Raises:
        GitError: a blob cannot be read.
    """
    gone = [(p, b) for p in changed if (b := held.get(p)) is not None and after.get(p) is None]
    new = [(p, b) for p in changed if (b := after.get(p)) is not None and held.get(p) is None]
    if not gone or not new:
        return {}
    contents: Mapping[str, bytes] = {}
    if len(gone) * len(new) <= MAX_COMPARED:
        contents = repo.read_blobs(sorted({b for _, b in (*gone, *new)}))
    sides = [Side(p, b, contents.get(b)) for p, b in gone]
    pairs = rename_pairs(sides, (Side(p, b, contents.get(b)) for p, b in new))
    return {side.path: path for path, side in pairs.items()}
