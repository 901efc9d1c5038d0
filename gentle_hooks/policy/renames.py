"""Which path of a change is another path renamed (SPEC §3 "Attribution follows content":
a rename carries the writer's content with its path).

Room ``policy`` (pure: contents in, pairs out). Blob changes are read without git's rename
detection (``--no-renames``: :mod:`gentle_hooks.git.delta`), so a ``git mv`` with an edit
is one path deleted and another added. :func:`rename_pairs` pairs them again the way git's
rename detection does by default: an added path whose content is at least
:data:`SIMILAR` alike a deleted one (the same blob first; then the share of lines they
have in common, of the longer one), each path paired once, the most alike first.

The attribution rule then reads a renamed path as the path it came from (row A1-A6 of
:mod:`gentle_hooks.policy.attribution` "in the same path"): ``git mv app.py app2.py`` and
one more edit keep the writer's one changed line in ``app.py`` the writer's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from gentle_hooks.values.frozen import frozen

#: How alike a deleted and an added path must be to be a rename: git's default
#: (``-M50%``), as the share of lines in common of the longer content.
SIMILAR = 0.5


@frozen
class Side:
    """One side of a path a change deleted or added.

    Attributes:
        path: the path; blob: its blob id; content: its bytes (None: not read, binary
            content pairs only by blob).
    """

    path: str
    blob: str
    content: bytes | None


def similarity(a: bytes | None, b: bytes | None) -> float:
    """The share of lines ``a`` and ``b`` have in common (stripped, blank lines left
    out, counted with repetition) of the longer of the two; 0.0 when either is unknown or
    empty."""
    if not a or not b:
        return 0.0
    left = Counter(s for line in a.splitlines() if (s := line.strip()))
    right = Counter(s for line in b.splitlines() if (s := line.strip()))
    longer = max(sum(left.values()), sum(right.values()))
    if not longer:
        return 0.0
    return sum((left & right).values()) / longer


def rename_pairs(deleted: Sequence[Side], added: Iterable[Side]) -> dict[str, Side]:
    """Each deleted path git would read as renamed, with the added path it became.

    Args:
        deleted: the paths a change deleted (their old side); added: the paths it added
            (their new side).

    Returns:
        deleted path → the added side paired with it; a path in neither pair is left out.
    """
    targets = list(added)
    if not deleted or not targets:
        return {}
    scored: list[tuple[float, int, int]] = []
    for i, gone in enumerate(deleted):
        for j, new in enumerate(targets):
            score = 1.0 if gone.blob == new.blob else similarity(gone.content, new.content)
            if score >= SIMILAR:
                scored.append((-score, i, j))
    out: dict[str, Side] = {}
    used: set[int] = set()
    for _, i, j in sorted(scored):
        if deleted[i].path in out or j in used:
            continue
        out[deleted[i].path] = targets[j]
        used.add(j)
    return out
