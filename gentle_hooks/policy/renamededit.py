"""The writer's edit with its names consistently renamed on top of it (row A6 of
:mod:`gentle_hooks.policy.attribution`; SPEC §3 "Attribution follows content": an edit on
top of the writer's live content keeps that content the writer's).

Room ``policy`` (pure: bytes in, answers out). The writer replaces ``return a - b`` by
``c = a * b`` / ``return c``; a person renames ``c`` to ``total`` on top of it (``sed
s/\\bc\\b/total/g``, an editor's rename). Every writer line is gone: ``return c`` became
``return total`` and ``c = a * b`` has a name too few to have a shape of its own
(:mod:`.shapes`), so rows A2, A6 and A7 find none of them, and what the writer removed is
all that is left (row A3, the shape of the change alone). Yet the block the writer put
there is still there, line by line, its names renamed. The writer's edits are read as
blocks (:func:`edit_forms`: each replacement of :func:`~.hunks.replaced_lines` that put
:data:`MIN_PUT` lines or more, each line in its copy form,
:func:`~gentle_hooks.policy.renamedcopy.copy_form`), and a content holds one renamed
(:func:`holds_renamed_edit`) by the first row that matches:

=====  ==========================================================================  =======
row    consecutive non-blank lines of the content against one writer block          renamed
=====  ==========================================================================  =======
E1     the writer's block put fewer than :data:`MIN_PUT` lines (one line renamed    no
       is :mod:`.shapes`'s to judge), or the content holds no run of its forms
E2     the run's names do not map one to one onto the writer's (a name of the run   no
       standing for two of the writer's, or a swap)
E3     as many of the writer's names renamed as kept, or more (a block of the       no
       writer's form with names of one's own: ``total = x * y`` for ``c = a * b``)
E4     the content still holds every line the writer's replacement removed (the     no
       writer's edit is not made there)
E5     anything else: the writer's block, fewer names renamed than kept, where a    yes
       line it replaced is gone
=====  ==========================================================================  =======

A change makes the edit renamed (:func:`makes_renamed_edit`) when its new side holds it
(row E5), its old side does not, and it removes one of the lines the writer replaced: a
person's later rename of delivered writer content (its old side holds the block as
written) is their own edit. Read on the writer's own path, in its own worktree, after row
A9: a person's own version of the file (the writer's edit thrown away) is no edit on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from gentle_hooks.policy.hunks import replaced_lines
from gentle_hooks.policy.linekeys import any_line_keys, stripped_key
from gentle_hooks.policy.renamedcopy import copy_form
from gentle_hooks.values.frozen import frozen

#: The lines a writer's replacement must put for its block to be read renamed (row E1).
MIN_PUT = 2
#: The lines of the largest block read (a longer one is a rewrite of its own).
MAX_PUT = 40


@frozen
class EditForm:
    """One replacement of the writer's, as its block is matched renamed.

    Attributes:
        gone: keys of the lines it removed; forms: the copy form of each line it put there
            (non-blank, in order); names: each such line's names (in memory only: never
            stored).
    """

    gone: frozenset[str]
    forms: tuple[bytes, ...]
    names: tuple[tuple[bytes, ...], ...]


@lru_cache(maxsize=64)
def edit_forms(before: bytes | None, after: bytes | None) -> tuple[EditForm, ...]:
    """The writer's replacements ``before`` -> ``after`` that put :data:`MIN_PUT` to
    :data:`MAX_PUT` lines, as blocks (row E1)."""
    out: list[EditForm] = []
    for gone, put in replaced_lines(before, after):
        if MIN_PUT <= len(put) <= MAX_PUT:
            forms = [copy_form(s) for s in put]
            out.append(
                EditForm(
                    frozenset(stripped_key(s) for s in gone),
                    tuple(f for f, _ in forms),
                    tuple(n for _, n in forms),
                )
            )
    return tuple(out)


def _renamed(writer: Sequence[tuple[bytes, ...]], other: Sequence[tuple[bytes, ...]]) -> bool:
    """Rows E2, E3: ``other``'s names map one to one onto ``writer``'s, fewer renamed than
    kept."""
    forward: dict[bytes, bytes] = {}
    backward: dict[bytes, bytes] = {}
    for names, theirs in zip(writer, other, strict=True):
        if len(names) != len(theirs):
            return False
        for a, b in zip(names, theirs, strict=True):
            if forward.setdefault(a, b) != b or backward.setdefault(b, a) != a:
                return False
    if any(a != b and b in forward for a, b in forward.items()):
        return False  # a name moved to where another stood: a swap, not a rename
    kept = sum(1 for a, b in forward.items() if a == b)
    return kept > len(forward) - kept


def _holds_block(
    edit: EditForm,
    lines: Sequence[bytes],
    forms: Sequence[bytes],
    starts: Mapping[bytes, list[int]],
) -> bool:
    size = len(edit.forms)
    for start in starts.get(edit.forms[0], ()):
        if tuple(forms[start : start + size]) != edit.forms:
            continue
        names = [copy_form(s)[1] for s in lines[start : start + size]]
        if _renamed(edit.names, names):
            return True
    return False


def holds_renamed_edit(edits: Sequence[EditForm], content: bytes | None) -> bool:
    """Row E5: ``content`` holds one of the writer's blocks ``edits`` renamed, and lacks a
    line that block's replacement removed."""
    if not edits or not content:
        return False
    keys = any_line_keys(content)
    edits = [e for e in edits if e.gone - keys]  # row E4 first: no line read
    if not edits:
        return False
    lines = [s for line in content.splitlines() if (s := line.strip())]
    forms = [copy_form(s)[0] for s in lines]
    starts: dict[bytes, list[int]] = {}
    for i, form in enumerate(forms):
        starts.setdefault(form, []).append(i)
    return any(_holds_block(edit, lines, forms, starts) for edit in edits)


def makes_renamed_edit(edits: Sequence[EditForm], old: bytes | None, new: bytes | None) -> bool:
    """Whether the change ``old`` -> ``new`` makes one of the writer's edits renamed: its new
    side holds the block (row E5), its old side does not, and it removes one of the lines
    the writer's replacement removed."""
    if not edits or not new:
        return False
    removed = any_line_keys(old) - any_line_keys(new)
    made = [e for e in edits if e.gone & removed]
    return bool(made) and holds_renamed_edit(made, new) and not holds_renamed_edit(made, old)
