"""Lines every project writes the same way, which never say by themselves that a change
holds a writer's content (SPEC §3 "Attribution follows content").

Room ``policy`` (pure: bytes in, answers out). A human writing their own module writes
``import logging``, ``logger = logging.getLogger(__name__)`` and ``if __name__ ==
"__main__":`` as the writer did in its own: such lines are nobody's in particular. Row A2
across paths (:func:`gentle_hooks.policy.across.carries_row_across`) counts only the
writer's *distinctive* lines — those of no row here; on the writer's own path (in another
worktree, or in the writer's after ``git stash``) they count neither toward A2's number
nor as its one telling line, nor as an edit made elsewhere (A6): only where the writer put
them, beside a distinctive line (A7; rows B2-B6, :func:`boilerplate_keys`).

=====  ================================================================  ====================
row    the line (stripped)                                               e.g.
=====  ================================================================  ====================
B1     trivial: of a row L1-L6 of :mod:`gentle_hooks.policy.linekeys`     ``import os``
B2     a module dunder idiom: names ``__name__``, ``__file__``,           ``__all__ = ["f"]``
       ``__all__``, ``__version__``, ``__doc__`` or ``__author__``
B3     a logging or command-line setup call: ``getLogger(``,             ``log = getLogger()``
       ``basicConfig(``, ``ArgumentParser(``, ``parse_args(``
B4     an entry point run: ``main()``, ``sys.exit(main())``,              ``unittest.main()``
       ``unittest.main()``
B5     an entry point defined: ``def main():``, with ``argv`` or a return  ``def main(argv):``
       type at most
B6     a file opened or read: ``with open(...) as name:``,           ``data = json.load(f)``
       ``json.load(name)``
=====  ================================================================  ====================
"""

from __future__ import annotations

from collections.abc import Set
from functools import lru_cache

from gentle_hooks.policy.linekeys import (
    CONTENTS_KEPT,
    LineRow,
    any_line_keys,
    code_part,
    first_row,
    joined_lines,
    may_have_code_part,
    stripped_key,
    trivial_row,
)
from gentle_hooks.policy.placement import Placement
from gentle_hooks.values.lazy_pattern import lazy_pattern

_DUNDER = lazy_pattern(rb"__(?:name|file|all|version|doc|author)__")
_SETUP = lazy_pattern(rb"\b(?:getLogger|basicConfig|ArgumentParser|parse_args)\s*\(")
_ENTRY = lazy_pattern(rb"(?:sys\.exit\(\s*)?(?:\w+\.)?main\(\s*\)\s*\)?;?")
_MAIN_DEF = lazy_pattern(rb"(?:async\s+)?def\s+main\(\s*(?:argv[^()]*)?\)\s*(?:->[^:]*)?:")
_READ = lazy_pattern(
    rb"with\s+open\([^()]*\)\s+as\s+\w+:|(?:\w+\s*=\s*|return\s+)?json\.loads?\(\s*\w+\s*\)"
)


BOILERPLATE_ROWS: tuple[LineRow, ...] = (
    LineRow("B1", "trivial (rows L1-L6)", lambda s: trivial_row(s) is not None),
    LineRow("B2", "a module dunder idiom", lambda s: bool(_DUNDER.search(s))),
    LineRow("B3", "a logging or command-line setup call", lambda s: bool(_SETUP.search(s))),
    LineRow("B4", "an entry point run", lambda s: bool(_ENTRY.fullmatch(s))),
    LineRow("B5", "an entry point defined", lambda s: bool(_MAIN_DEF.fullmatch(s))),
    LineRow("B6", "a file opened or JSON read", lambda s: bool(_READ.fullmatch(s))),
)


def boilerplate_row(line: bytes) -> str | None:
    """The id of the first row of :data:`BOILERPLATE_ROWS` the line (stripped here) is of,
    or None when the line is distinctive."""
    return first_row(BOILERPLATE_ROWS, line.strip())


def introduced_lines(old: bytes | None, new: bytes) -> tuple[tuple[str, bool], ...]:
    """(key, of a row of :data:`BOILERPLATE_ROWS`) of each non-blank line of ``new`` in
    order, then of each of its wrapped statements joined
    (:func:`~gentle_hooks.policy.linekeys.joined_lines`), but for those whose key ``old``
    holds (:func:`~gentle_hooks.policy.linekeys.any_line_keys`): what a change's new side
    introduces, as row A2 across paths reads it. Only those lines are classified, once per
    change however many entries it is compared with (the last answers kept:
    :data:`~gentle_hooks.policy.linekeys.CONTENTS_KEPT`)."""
    return _introduced_lines(old, new)


@lru_cache(maxsize=CONTENTS_KEPT)
def _introduced_lines(old: bytes | None, new: bytes) -> tuple[tuple[str, bool], ...]:
    before = any_line_keys(old)
    lines = [*(line.strip() for line in new.splitlines()), *joined_lines(new)]
    return tuple(
        (key, boilerplate_row(s) is not None)
        for s in lines
        if s and (key := stripped_key(s)) not in before
    )


def introduced_parts(old: bytes | None, new: bytes) -> tuple[tuple[str, bool], ...]:
    """(key, of a row of :data:`BOILERPLATE_ROWS`) of the code part
    (:func:`~gentle_hooks.policy.linekeys.code_part`) of each line of ``new`` with a
    trailing comment or ``;``, but for those whose key ``old`` holds: a writer's line with
    ``  # noqa`` or ``;`` appended, as row A2 across paths reads its one telling line.
    Apart from :func:`introduced_lines`, so that no line counts twice toward
    :data:`~gentle_hooks.policy.across.MIN_ACROSS`. Read once per change however many
    entries it is compared with, as :func:`introduced_lines`."""
    return _introduced_parts(old, new)


@lru_cache(maxsize=CONTENTS_KEPT)
def _introduced_parts(old: bytes | None, new: bytes) -> tuple[tuple[str, bool], ...]:
    before = any_line_keys(old)
    stripped = (line.strip() for line in new.splitlines())
    parts = (p for s in stripped if may_have_code_part(s) and (p := code_part(s)) and p != s)
    return tuple(
        (key, boilerplate_row(p) is not None)
        for p in parts
        if (key := stripped_key(p)) not in before
    )


def boilerplate_keys(data: bytes | None) -> dict[str, str]:
    """The key (:func:`~gentle_hooks.policy.linekeys.stripped_key`) of each line of
    ``data`` of a row of :data:`BOILERPLATE_ROWS`, as written or re-wrapped, with its row.

    Rows B2-B6 are *idioms*: a change's idioms never count as the writer's lines by number
    or alone (row A2 of :mod:`gentle_hooks.policy.attribution`), nor as an edit made in
    another worktree (row A6), and where the writer put one (row A7) only beside a
    distinctive line (of no row here: ``main()`` under ``if __name__ == "__main__":`` at
    the end of a file sits where everyone puts it). Trivial lines (B1) keep the rules
    those rows give them (a flip ``return False`` -> ``return True`` is the writer's edit).
    """
    if not data:
        return {}
    lines = [*(line.strip() for line in data.splitlines()), *joined_lines(data)]
    return {stripped_key(s): row for s in lines if s and (row := boilerplate_row(s)) is not None}


def writer_idioms(
    writer: Set[str], placed: frozenset[Placement], new: bytes | None
) -> tuple[frozenset[str], frozenset[Placement]]:
    """The keys of the idioms (:func:`boilerplate_keys`) that ``new`` (a change's new
    side) holds and the writer added too (``writer``: the keys of its added lines), and
    the writer's ``placed`` lines row A7 still reads: an idiom's only beside a distinctive
    line."""
    rows = boilerplate_keys(new)
    idioms = frozenset(k for k, row in rows.items() if row != "B1" and k in writer)
    common = {"", *rows}
    return idioms, frozenset(p for p in placed if p[1] not in idioms or {p[0], p[2]} - common)
