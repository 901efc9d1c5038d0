"""Where a line sits (SPEC §3 "Attribution follows content"): a line with its neighbours,
so a writer's *trivial* line (``return True``) counts where the writer put it.

Room ``policy`` (pure: bytes in, answers out). A line's *placement* is the triple (key of
the nearest non-blank line before it, its own key, key of the nearest non-blank line after
it), keys as :func:`~gentle_hooks.policy.linekeys.stripped_key` computes them (whitespace
and quote style aside), ``""`` at the start or the end of the content. Row A7 of
:mod:`gentle_hooks.policy.attribution` reads it: a change that puts one of the writer's
added lines between the very lines the writer put it between (``git add -p`` of the
writer's ``return True`` hunk, the same hunk applied as a patch) delivers the writer's
edit, while the same line typed anywhere else sits between other lines.
"""

from __future__ import annotations

from collections.abc import Iterable

from gentle_hooks.policy.linekeys import stripped_key, trivial_row

#: (key before, the line's key, key after); ``""`` where there is no neighbour.
Placement = tuple[str, str, str]


def placements(data: bytes | None) -> frozenset[Placement]:
    """The placement of every non-blank line of ``data`` (empty for None: no file)."""
    if not data:
        return frozenset()
    keys = ["", *(stripped_key(s) for line in data.splitlines() if (s := line.strip())), ""]
    return frozenset(zip(keys, keys[1:-1], keys[2:], strict=False))


def placed_lines(data: bytes | None, keys: Iterable[str]) -> frozenset[Placement]:
    """The placements in ``data`` of the lines whose key is one of ``keys``, imports left
    out (row L5 of :data:`~gentle_hooks.policy.linekeys.TRIVIAL_ROWS`: a formatter sorts
    them into the same place whoever adds them, and one alone runs nothing)."""
    wanted = frozenset(keys)
    if not data or not wanted:
        return frozenset()
    lines = [s for line in data.splitlines() if (s := line.strip())]
    keys_ = ["", *(stripped_key(s) for s in lines), ""]
    return frozenset(
        (keys_[i], keys_[i + 1], keys_[i + 2])
        for i, s in enumerate(lines)
        if keys_[i + 1] in wanted and trivial_row(s) != "L5"
    )


def is_placed(
    placed: frozenset[Placement], old: bytes | None, new: bytes | None, *, inner: bool = False
) -> bool:
    """Whether ``new`` holds one of the ``placed`` lines between the same neighbours and
    ``old`` does not (the change put it there). ``inner``: only a line with a neighbour on
    both sides counts (not at the start or the end of the content, where everyone adds
    lines)."""
    if inner:
        placed = frozenset(p for p in placed if p[0] and p[2])
    if not placed or not new:
        return False
    return bool((placements(new) & placed) - placements(old))
