"""A line's token shape: two lines of one shape are a mechanical rename of each other
(SPEC §3 "Attribution follows content"; row A2 of :mod:`gentle_hooks.policy.attribution`).

Room ``policy`` (pure: bytes in, answers out). A line's *shape* (:func:`line_shape`) is its
tokens with each name read as one placeholder (keywords and constants kept, literals
kept): two lines of one shape are a rename of each other when their names map one to one,
at least one kept, and one renamed or fewer renamed than kept (:func:`is_renamed`).
Deterministic, one regular expression pass per line.
"""

from __future__ import annotations

from gentle_hooks.policy.keyform import TOKEN
from gentle_hooks.policy.linekeys import COMMON_WORDS, TRAILING_COMMA
from gentle_hooks.values.digest import blake2b_hex
from gentle_hooks.values.frozen import frozen
from gentle_hooks.values.lazy_pattern import lazy_pattern

_IDENT = lazy_pattern(rb"[A-Za-z_]\w*")
#: What an identifier reads as in a line's shape.
_NAME = b"\x01"


@frozen
class LineShape:
    """A line with its names abstracted: two lines of one shape differ only in their
    identifiers (``fetch(target_url)`` and ``fetch(url)``).

    Attributes:
        shape: 16 hex digits of BLAKE2b over its tokens, each identifier that is not a
            common word (:data:`COMMON_WORDS`) read as one placeholder, quotes as ``"``,
            a trailing comma before a closing bracket dropped;
        names: its identifiers, in order (in memory only: never stored).
    """

    shape: str
    names: tuple[bytes, ...]


_IMPORT = lazy_pattern(rb"(?:import|from)\s")


def line_shape(stripped: bytes) -> LineShape | None:
    """The shape of a stripped line, or None when it has fewer than two identifiers
    (a shape with one name says too little to match on) or is an import (one with a name
    renamed imports another name: ``from subprocess import call`` is no ``Popen``)."""
    if _IMPORT.match(stripped):
        return None
    tokens = TOKEN.findall(TRAILING_COMMA.sub(b"", stripped))
    parts: list[bytes] = []
    names: list[bytes] = []
    for token in tokens:
        if _IDENT.fullmatch(token) and token not in COMMON_WORDS:
            parts.append(_NAME)
            names.append(token)
        else:
            parts.append(token.replace(b"'", b'"'))
    if len(names) < 2:
        return None
    return LineShape(blake2b_hex(b"\x00".join(parts), 8), tuple(names))


def is_renamed(writer: LineShape, other: LineShape) -> bool:
    """Whether ``other`` is ``writer``'s line with some names consistently renamed (a
    mechanical rename, ``sed s/target_url/url/g``): the same shape, each of the writer's
    names always renamed to the same new name (none of the line's own: no swaps) and no
    two to one; of its distinct names, one renamed and another kept, or fewer renamed
    than kept. A human's line of the same shape with names of their own keeps too few."""
    if writer.shape != other.shape or len(writer.names) != len(other.names):
        return False
    forward: dict[bytes, bytes] = {}
    backward: dict[bytes, bytes] = {}
    for a, b in zip(writer.names, other.names, strict=True):
        if forward.setdefault(a, b) != b or backward.setdefault(b, a) != a:
            return False
    if any(a != b and b in forward for a, b in forward.items()):
        return False  # a name moved to where another stood: a swap, not a rename
    kept = sum(1 for a, b in forward.items() if a == b)
    renamed = len(forward) - kept
    return kept > 0 and (renamed == 1 or 0 < renamed < kept)
