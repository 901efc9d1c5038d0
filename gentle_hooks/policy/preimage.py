"""A file as it was just before an edit tool wrote it: its replacements undone (SPEC §3
"Attribution follows content": a person's lines are never the writer's).

Room ``policy`` (pure: text in, text out). An edit tool's input names exactly what the
call changed: text replacements ``(old, new)``, made in order, each at one occurrence of
``old`` or, when the tool says so (Claude Code's ``replace_all``, Gemini CLI's
``expected_replacements`` above one), at every occurrence. Undoing them on the file the
call left, last first, gives the file the call started from: lines it held then (a
person's unsaved lines) are not the writer's.

An undo is made only where it is exact: a replacement at one occurrence is undone only
when its ``new`` text occurs exactly once in the text (overlapping occurrences counted),
which is then the occurrence the call wrote; one at every occurrence only when no two
occurrences of ``new`` overlap, so every one the call wrote is undone (a ``new`` that was
in the file already is undone too: more lines count as the writer's, never fewer).
Nothing is explained (None: the write is measured as before, fail closed toward the
writer) by an empty ``new`` (a removal: where it was is not told) or ``old`` (a new file,
or an input too large to hold whole, its long strings blanked), a ``new`` absent or found
more than once, overlapping occurrences, a result that the replacements made again do not
turn back into the file, or a result equal to the file.

Some runtimes hand the file as it was just before the call (Claude Code's ``Edit``,
``MultiEdit`` and ``Write`` ``tool_response.originalFile``): :func:`exact_start` takes it
as the start only where it is consistent: the replacements made on it, first to last,
leave exactly the file, and where the undo is exact it gives the same text. Otherwise
nothing is explained (fail closed, as for an inexact undo).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def _count(text: str, part: str, most: int) -> int:
    """Occurrences of ``part`` in ``text``, overlapping ones too, counted up to ``most``."""
    found, at = 0, text.find(part)
    while at >= 0 and found < most:
        found += 1
        at = text.find(part, at + 1)
    return found


def _undone(text: str, old: str, new: str, every: bool) -> str | None:
    """``text`` with one replacement undone, or None where the undo is not exact."""
    if not new or not old:
        return None
    if not every:
        if _count(text, new, 2) != 1:
            return None
        at = text.find(new)
        before = text[:at] + old + text[at + len(new) :]
        redone = before[:at] + new + before[at + len(old) :]
    else:
        plain = text.count(new)  # non-overlapping, left to right
        if plain == 0 or _count(text, new, plain + 1) != plain:
            return None
        before = text.replace(new, old)
        redone = before.replace(old, new)
    return before if redone == text else None


def preimage(
    after: str, replacements: Sequence[tuple[str, str]], every: Collection[int] = ()
) -> str | None:
    """The content ``replacements`` were made in to leave ``after``: each undone, the last
    first (the indexes in ``every`` at every occurrence of their ``new`` text, the others
    at its one occurrence); None when there are none, when one cannot be undone exactly
    (see the module docstring), or when the result is ``after`` itself."""
    if not replacements:
        return None
    text = after
    for index in range(len(replacements) - 1, -1, -1):
        old, new = replacements[index]
        undone = _undone(text, old, new, index in every)
        if undone is None:
            return None
        text = undone
    return None if text == after else text


def _redone(
    before: str, replacements: Sequence[tuple[str, str]], every: Collection[int]
) -> str | None:
    """``before`` with ``replacements`` made in order (the indexes in ``every`` at every
    occurrence of their ``old`` text, the others at its one occurrence, as an edit tool
    refuses an ``old`` found more than once); None when one cannot be made so."""
    text = before
    for index, (old, new) in enumerate(replacements):
        if not old:
            return None
        if index in every:
            if old not in text:
                return None
            text = text.replace(old, new)
        elif _count(text, old, 2) != 1:
            return None
        else:
            text = text.replace(old, new, 1)
    return text


def exact_start(
    after: str,
    replacements: Sequence[tuple[str, str]],
    every: Collection[int],
    original: str,
) -> str | None:
    """``original``, the file a runtime says the call started from, when it explains
    ``after``: the ``replacements`` made on it leave exactly ``after`` (a call with none,
    a whole-file write, is told by ``original`` alone only when paired with its content as
    one replacement), and :func:`preimage`, where it can undo them, gives ``original`` too.
    None (measure as before: fail closed) when it is empty (a new file, or a string too
    large to hold, blanked), equal to ``after``, or inconsistent with either."""
    if not original or original == after or not replacements:
        return None
    if _redone(original, replacements, every) != after:
        return None
    undone = preimage(after, replacements, every)
    return original if undone is None or undone == original else None
