"""Whether the pushed commits that took a writer's entry delivered all of it (SPEC §3
"Attribution follows content": pending work ends when the commits that contain it take it,
only the part they contain): rows D1-D4.

Room ``policy`` (pure: contents in, a row out). The entry is read as
:mod:`gentle_hooks.policy.attribution` reads it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.attribution import WriterEntry
from gentle_hooks.policy.linekeys import any_line_keys

#: Rows of :func:`delivered_row`: pushed commits that took an entry delivered all of it.
SETTLED_ROWS = ("D1", "D2", "D3")


def delivered_row(
    entry: WriterEntry,
    pushed: Sequence[tuple[str | None, bytes | None]],
    local: Sequence[bytes | None],
) -> str:
    """Whether the pushed commits that took ``entry`` delivered *all* of the writer's
    content, so the entry may end as ``settled`` (SPEC §3: pending work ends when the
    commits that contain it take it — only what they contain).

    =====  ===================================================================  =======
    row    the entry's path in the pushed commits that took it                 settled
    =====  ===================================================================  =======
    D1     one of them holds the writer's blob (a deletion: the path is gone)  yes
    D2     binary, or the writer added no line: the take is all there is       yes
    D3     text: every writer line (significant, or a telling short action)    yes
           some local version still holds is in one of them (lines a human
           changed or dropped since are not owed)
    D4     a local version holds writer lines none of them holds (a copy of     no
           part into another path, ``git add -p`` of part): the rest stays
           pending and a later change adding it carries it
    =====  ===================================================================  =======

    Args:
        entry: the entry as the rule reads it.
        pushed: (blob id, content) of the entry's path in each pushed commit that took it
            (``(None, None)``: the path is absent there).
        local: the path's content in each local version that may still hold writer work
            (work trees, indexes, ``HEAD``s, unpushed commits; None: absent).
    """
    if any(blob == entry.blob for blob, _ in pushed):
        return "D1"
    added = entry.delta.added | entry.delta.telling  # a short action is owed too
    if entry.delta.binary or not added:
        return "D2"
    shipped: set[str] = set()
    for _, content in pushed:
        shipped |= any_line_keys(content) & added
    kept: set[str] = set()
    for content in local:
        kept |= any_line_keys(content) & added
    return "D3" if kept <= shipped else "D4"
