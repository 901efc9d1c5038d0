"""The writer's edits as hunks: which lines it replaced by which (row A6 of
:mod:`gentle_hooks.policy.attribution`; SPEC §3 "Attribution follows content").

Room ``policy`` (pure: bytes in, answers out). Row A6 first reads lines as sets of keys: a
change that drops a line the writer dropped and adds one it added. Sets miss an edit whose
lines are elsewhere in the file already (the writer swaps the bodies of ``add`` and ``sub``:
``return a - b`` -> ``return a + b`` changes no set) or whose added line is too short to be
keyed (``return 0`` -> ``return []``). A hunk reads the edit itself:

=====  ===========================================================================  =====
row    a replacement in the change (lines in order, as ``difflib`` aligns them; blank  edit
       ones aside)
=====  ===========================================================================  =====
H1     it replaces exactly the lines one replacement of the writer replaced by       yes
       exactly the lines the writer put there (keys: whitespace inside a line
       ignored, ``'`` read as ``"``), both sides non-empty
H2     anything else: another line written there (a person's own edit of that line),  no
       a pure insertion or deletion (rows A2, A3, A7 read those), a file past
       :data:`MAX_LINES`, binary content
=====  ===========================================================================  =====

So a ``git add -p`` of one writer hunk, committed alone, carries the writer's entry whatever
other lines of the file say, while a person who edits the same line differently writes a
replacement of their own (H2).
"""

from __future__ import annotations

from functools import lru_cache

from gentle_hooks.policy.linekeys import stripped_key

#: Lines past which a side is not compared by hunks (the other rows still read it).
MAX_LINES = 2000

#: One replacement: the keys of the lines removed and of the lines added, in order.
Hunk = tuple[tuple[str, ...], tuple[str, ...]]


def _keys(data: bytes) -> tuple[str, ...] | None:
    lines = data.splitlines()
    if len(lines) > MAX_LINES or b"\0" in data[:8000]:
        return None
    # Blank lines stay in the sequence (as ""): they anchor the alignment between
    # definitions, as in git's own diff, where two swapped bodies are two replacements.
    return tuple(stripped_key(s) if (s := line.strip()) else "" for line in lines)


def _side(keys: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(k for k in keys if k)


@lru_cache(maxsize=64)
def replacements(before: bytes | None, after: bytes | None) -> frozenset[Hunk]:
    """The replacements (row H1) that turn ``before`` into ``after`` (None: no file, no
    replacement; empty past :data:`MAX_LINES` or for binary content)."""
    if not before or not after:
        return frozenset()
    old, new = _keys(before), _keys(after)
    if old is None or new is None:
        return frozenset()
    hunks = ((_side(old[i1:i2]), _side(new[j1:j2])) for i1, i2, j1, j2 in _replaced(old, new))
    return frozenset((gone, put) for gone, put in hunks if gone and put)


def replaced_lines(
    before: bytes | None, after: bytes | None
) -> list[tuple[tuple[bytes, ...], tuple[bytes, ...]]]:
    """The replacements of :func:`replacements` as their lines (stripped, blank ones left
    out, in order), both sides non-empty: what :mod:`.renamededit` reads the writer's edit
    from."""
    if not before or not after:
        return []
    old, new = _keys(before), _keys(after)
    if old is None or new is None:
        return []
    a = [line.strip() for line in before.splitlines()]
    b = [line.strip() for line in after.splitlines()]
    spans = ((a[i1:i2], b[j1:j2]) for i1, i2, j1, j2 in _replaced(old, new))
    sides = ((tuple(s for s in gone if s), tuple(s for s in put if s)) for gone, put in spans)
    return [(gone, put) for gone, put in sides if gone and put]


def _replaced(a: tuple[str, ...], b: tuple[str, ...]) -> list[tuple[int, int, int, int]]:
    """The spans ``a[i1:i2]`` replaced by ``b[j1:j2]`` (both non-empty) between the matching
    blocks ``difflib`` would find (the longest block first, then on each side of it; no junk
    heuristic). Written out because ``difflib`` brings ``heapq`` onto a gate's pass path."""
    b2j: dict[str, list[int]] = {}
    for j, key in enumerate(b):
        b2j.setdefault(key, []).append(j)
    blocks: list[tuple[int, int, int]] = []
    todo = [(0, len(a), 0, len(b))]
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        besti, bestj, best = alo, blo, 0
        runs: dict[int, int] = {}
        for i in range(alo, ahi):
            grown: dict[int, int] = {}
            for j in b2j.get(a[i], ()):
                if j < blo:
                    continue
                if j >= bhi:
                    break
                k = grown[j] = runs.get(j - 1, 0) + 1
                if k > best:
                    besti, bestj, best = i - k + 1, j - k + 1, k
            runs = grown
        if best:
            blocks.append((besti, bestj, best))
            todo.append((alo, besti, blo, bestj))
            todo.append((besti + best, ahi, bestj + best, bhi))
    out: list[tuple[int, int, int, int]] = []
    i = j = 0
    for bi, bj, size in [*sorted(blocks), (len(a), len(b), 0)]:
        if i < bi and j < bj:
            out.append((i, bi, j, bj))
        i, j = bi + size, bj + size
    return out


def makes_writer_edit(writer: frozenset[Hunk], old: bytes | None, new: bytes | None) -> bool:
    """Row H1: the change ``old`` -> ``new`` makes one of the ``writer``'s replacements."""
    return bool(writer) and bool(writer & replacements(old, new))
