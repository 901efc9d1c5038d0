"""Lines every project writes the same way, which never say that another path holds a
writer's content (SPEC §3 "Attribution follows content": a change of *another* path
carries the writer's work only when its content moved or was copied there).

Room ``policy`` (pure: bytes in, answers out). A human writing their own module writes
``import logging``, ``logger = logging.getLogger(__name__)`` and ``if __name__ ==
"__main__":`` as the writer did in its own: such lines are nobody's in particular, so row
A2 across paths (:func:`gentle_hooks.policy.attribution.carries_row_across`) counts only
the writer's *distinctive* lines — those of no row here.

=====  ================================================================  ====================
row    the line (stripped)                                               e.g.
=====  ================================================================  ====================
B1     trivial: of a row L1-L5 of :mod:`gentle_hooks.policy.linekeys`     ``import os``
B2     a module dunder idiom: names ``__name__``, ``__file__``,           ``__all__ = ["f"]``
       ``__all__``, ``__version__``, ``__doc__`` or ``__author__``
B3     a logging or command-line setup call: ``getLogger(``,             ``log = getLogger()``
       ``basicConfig(``, ``ArgumentParser(``, ``parse_args(``
B4     an entry point run: ``main()``, ``sys.exit(main())``,              ``unittest.main()``
       ``unittest.main()``
=====  ================================================================  ====================
"""

from __future__ import annotations

import re

from gentle_hooks.policy.linekeys import LineRow, first_row, trivial_row

_DUNDER = re.compile(rb"__(?:name|file|all|version|doc|author)__")
_SETUP = re.compile(rb"\b(?:getLogger|basicConfig|ArgumentParser|parse_args)\s*\(")
_ENTRY = re.compile(rb"(?:sys\.exit\(\s*)?(?:\w+\.)?main\(\s*\)\s*\)?;?")


BOILERPLATE_ROWS: tuple[LineRow, ...] = (
    LineRow("B1", "trivial (rows L1-L5)", lambda s: trivial_row(s) is not None),
    LineRow("B2", "a module dunder idiom", lambda s: bool(_DUNDER.search(s))),
    LineRow("B3", "a logging or command-line setup call", lambda s: bool(_SETUP.search(s))),
    LineRow("B4", "an entry point run", lambda s: bool(_ENTRY.fullmatch(s))),
)


def boilerplate_row(line: bytes) -> str | None:
    """The id of the first row of :data:`BOILERPLATE_ROWS` the line (stripped here) is of,
    or None when the line is distinctive."""
    return first_row(BOILERPLATE_ROWS, line.strip())
