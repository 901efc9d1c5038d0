"""Regular expressions compiled when first used (SPEC §2 "Start-up is part of the product").

Room ``values`` (standard library only). The commit gate imports every line-keying module
(:mod:`gentle_hooks.policy.keyform`, ``fixforms``, ``importpairs``...), and Python's
:mod:`re` compiles a pattern in Python code: tens of patterns that only some lines need
(a quote, a brace, an import of names) cost the gate milliseconds before it reads a
line. :func:`lazy_pattern` stands for ``re.compile(pattern, flags)`` and compiles it on
the first attribute read; from then on every method read is the compiled pattern's own
(the same answers, one lookup). It is no :class:`re.Pattern` for ``isinstance`` or for
:mod:`re`'s module functions: call its methods.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import AnyStr

#: What a compiled pattern offers; each is kept on the stand-in once compiled.
_KEPT = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _LazyPattern:
    """The stand-in :func:`lazy_pattern` returns."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> object:  # read only while not compiled
        compiled = re.compile(*self._args)  # type: ignore[type-var]
        for kept in _KEPT:
            self.__dict__[kept] = getattr(compiled, kept)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._args[0]!r}, {self._args[1]})"


def lazy_pattern(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, compiled when one of its attributes is first read
    (a bad pattern raises :class:`re.error` there, not here)."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]
