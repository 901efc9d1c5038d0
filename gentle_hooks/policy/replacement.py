"""Whether a file's content is an edit tool's text replacements made once more (SPEC §6 "a
replay records once"; docs/agents/cursor.md).

Room ``policy`` (pure: text in, a verdict out). A runtime that names no tool call (Cursor,
Kiro, Augment) gets an id derived from the call's fields, so two calls making the same
replacement in one file share it. Whether a second input with that id is a replay or a new
call is read from the file: the same content the first call left is a replay; content that
is exactly the first call's result with the replacements applied once more is a new call;
a person's edit since, with the replacements made once more in a region of lines of their
own, is a new call too, measured from the file as the person left it
(:func:`replaced_again_from`); anything else (the person's edit alone, or one that touches
the replaced lines) is not explained by the call, and is never recorded as the writer's.

A replacement ``(old, new)`` replaces one occurrence of ``old`` (any one: the tool chose
which) with ``new``; several are applied in order. An empty ``old`` explains nothing (it
matches everywhere).
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

#: Most contents kept while the replacements before the last are tried at every
#: occurrence: past it the content is not explained (the input records once, as before).
MOST_CANDIDATES = 32


def _occurrences(text: str, old: str) -> list[int]:
    """The indexes at which ``old`` starts in ``text`` (overlapping ones too), at most one
    past :data:`MOST_CANDIDATES`."""
    found: list[int] = []
    at = text.find(old)
    while at >= 0 and len(found) <= MOST_CANDIDATES:
        found.append(at)
        at = text.find(old, at + 1)
    return found


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (a binary search over
    slice comparisons: a large file is compared in C, not a character at a time)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _replaced_once(before: str, after: str, old: str, new: str) -> bool:
    """Whether ``after`` is ``before`` with one occurrence of ``old`` replaced by ``new``,
    without trying every occurrence: the one replaced must lie within the common prefix
    and the common suffix of the two texts."""
    if len(after) != len(before) - len(old) + len(new):
        return False
    prefix = _common_prefix(before, after)
    suffix = _common_prefix(before[::-1], after[::-1])
    lowest = max(0, len(before) - len(old) - suffix)
    at = before.find(old, lowest)
    while 0 <= at <= prefix:
        if after.startswith(new, at):
            return True
        at = before.find(old, at + 1)
    return False


def is_replaced_again(before: str, after: str, replacements: Sequence[tuple[str, str]]) -> bool:
    """Whether ``after`` is ``before`` with ``replacements`` applied once more, each at one
    occurrence of its old text, in order. False when there are none, when one has an empty
    old text, when ``after`` equals ``before``, or when the tries grow past
    :data:`MOST_CANDIDATES`."""
    if not replacements or after == before or any(not old for old, _ in replacements):
        return False
    candidates = {before}
    for old, new in replacements[:-1]:
        grown = {
            text[:at] + new + text[at + len(old) :]
            for text in candidates
            for at in _occurrences(text, old)
        }
        if not grown or len(grown) > MOST_CANDIDATES:
            return False
        candidates = grown
    old, new = replacements[-1]
    return any(_replaced_once(text, after, old, new) for text in candidates)


#: Most lines (both sides together) compared region by region: past it a file a person edited
#: too is not explained (the input records once, as before).
MOST_LINES = 20000


def replaced_again_from(
    before: str, after: str, replacements: Sequence[tuple[str, str]]
) -> str | None:
    """The content ``replacements`` were made in, once more, to give ``after``, where
    ``before`` is what the first call left; None when they explain nothing.

    ``before`` itself when :func:`is_replaced_again` says so. Otherwise, when a person
    edited the file between the two calls: the changed regions of lines from ``before`` to
    ``after`` (``difflib``, no junk heuristic) are tried one by one, and the first whose
    lines are its ``before`` lines with the replacements made once more explains the call;
    the content returned is ``after`` with that region as ``before`` had it (the file as the
    person left it, the region the call wrote put back). A single changed region is
    explained by :func:`is_replaced_again` alone (a person's edit touching the replaced
    lines is never split from the call's); more than :data:`MOST_LINES` lines are not
    compared."""
    if is_replaced_again(before, after, replacements):
        return before
    if not replacements or any(not old for old, _ in replacements):
        return None
    old_lines = before.splitlines(keepends=True)
    new_lines = after.splitlines(keepends=True)
    if len(old_lines) + len(new_lines) > MOST_LINES:
        return None
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    regions = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(regions) < 2:
        return None
    for _, i1, i2, j1, j2 in regions:
        was, now = "".join(old_lines[i1:i2]), "".join(new_lines[j1:j2])
        if is_replaced_again(was, now, replacements):
            return "".join(new_lines[:j1]) + was + "".join(new_lines[j2:])
    return None
