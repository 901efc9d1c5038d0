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

A file moved and *grown* (``git mv app.py calc.py``, then three functions appended) holds
all of what it was, yet shares too few lines with it to pair as git pairs (the share is of
the longer side). :func:`grown_pairs` pairs a deleted path left unpaired with an added path,
longer than it, that keeps at least :data:`SIMILAR` of its lines (the share of the deleted
side's lines). The services pair only a path a writer wrote that way, and read
the pair for the writer's own content alone (rows A1, A2, A6-A8): the writer's one-line fix
in the module moved and grown stays the writer's, while a person's own file is never paired
with a path they did not delete, and a person's move of a file with no writer entry is not
read at all.
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


def _lines(data: bytes) -> Counter[bytes]:
    """Stripped non-blank lines of ``data``, counted."""
    return Counter(s for line in data.splitlines() if (s := line.strip()))


def similarity(a: bytes | None, b: bytes | None) -> float:
    """The share of lines ``a`` and ``b`` have in common (stripped, blank lines left
    out, counted with repetition) of the longer of the two; 0.0 when either is unknown or
    empty."""
    if not a or not b:
        return 0.0
    left, right = _lines(a), _lines(b)
    longer = max(sum(left.values()), sum(right.values()))
    if not longer:
        return 0.0
    return sum((left & right).values()) / longer


def grown_pairs(deleted: Sequence[Side], added: Iterable[Side]) -> dict[str, Side]:
    """Each deleted path an added path holds grown (the module docstring): the added side has
    more non-blank lines and keeps at least :data:`SIMILAR` of the deleted side's (stripped,
    blank ones left out, counted with repetition). Each path paired once, the most kept
    first; binary or unread content never pairs. Meant for the paths :func:`rename_pairs`
    left unpaired."""
    targets = [(t, _lines(t.content)) for t in added if t.content]
    scored: list[tuple[float, int, int]] = []
    for i, gone in enumerate(deleted):
        left = _lines(gone.content) if gone.content else Counter[bytes]()
        size = sum(left.values())
        for j, (_, right) in enumerate(targets):
            if size and sum(right.values()) > size:
                score = sum((left & right).values()) / size
                if score >= SIMILAR:
                    scored.append((-score, i, j))
    return _best_pairs(scored, deleted, [t for t, _ in targets])


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
    return _best_pairs(scored, deleted, targets)


def _best_pairs(
    scored: list[tuple[float, int, int]], deleted: Sequence[Side], targets: Sequence[Side]
) -> dict[str, Side]:
    """Pairs taken best score first, each deleted path and each target at most once.

    Args:
        scored: ``(-score, index in deleted, index in targets)`` of every pair worth taking.

    Returns:
        deleted path → the target side paired with it."""
    out: dict[str, Side] = {}
    used: set[int] = set()
    for _, i, j in sorted(scored):
        if deleted[i].path in out or j in used:
            continue
        out[deleted[i].path] = targets[j]
        used.add(j)
    return out
