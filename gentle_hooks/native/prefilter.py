"""Literals a regular expression's matches must contain: a sound prefilter (SPEC §4).

Layer: pure functions (standard library only). The built-in classifier flags an added line
when one of ``risk.process_patterns`` (Python regexes) finds a match in it; a line can only
be flagged if it holds one of the strings :func:`required_literals` returns, so a blob that
holds none of them cannot bring a process-execution hit, and git need not diff it for that.

The analysis reads the pattern as Python's own parser does (``re._parser``, ``sre_parse``
before 3.11) and understands literals, anchors, groups, alternations, character sets of a
few literals and repeats. Anything else (case-insensitive groups, backreferences, an unknown
node) only makes the answer weaker, never wrong: at worst None, "every line may match".

A pattern that is case-insensitive as a whole and ASCII-only (``(?ai)``) has its literals
lowercased: a line holds one of them once it is lowercased (ASCII letters only), and
:func:`folds` says the search must fold. Case-insensitive without ``(?a)`` is not read
(Unicode folding maps other characters onto ASCII letters).
"""

from __future__ import annotations

import itertools
import sys

if sys.version_info >= (3, 11):
    from re import _constants as _c
    from re import _parser as _sre
else:  # pragma: no cover - Python 3.10
    import sre_constants as _c
    import sre_parse as _sre

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: Larger sets of alternatives are not tracked (the prefilter then keeps fewer of them).
_MAX_SET = 64
_EMPTY: frozenset[str] = frozenset({""})
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)
_POSSESSIVE = getattr(_c, "POSSESSIVE_REPEAT", None)
_REPEATS = tuple(op for op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _POSSESSIVE) if op is not None)


class _Node:
    """What one parsed node tells: the exact strings it matches (a finite set, or None),
    strings every match starts with (``{""}`` when nothing is known), and strings one of
    which every match contains (None when nothing is known)."""

    __slots__ = ("exact", "prefixes", "required")

    def __init__(
        self,
        exact: frozenset[str] | None,
        prefixes: frozenset[str],
        required: frozenset[str] | None,
    ) -> None:
        self.exact = exact
        self.prefixes = prefixes
        self.required = required


_UNKNOWN = _Node(None, _EMPTY, None)
_ZERO_WIDTH = _Node(_EMPTY, _EMPTY, None)


def _product(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    if len(a) * len(b) > _MAX_SET:
        return None
    return frozenset(x + y for x, y in itertools.product(a, b))


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective of two requirements: longer shortest string, then fewer strings."""
    if a is None or "" in a:
        return None if b is None or "" in b else b
    if b is None or "" in b:
        return a
    ka, kb = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return a if ka >= kb else b


def _sequence(items: Iterable[tuple[object, Any]]) -> _Node:
    """A concatenation: exact runs, extended by the next node's prefixes, are requirements."""
    run: frozenset[str] | None = _EMPTY  # exact strings of the current run of exact nodes
    exact: frozenset[str] | None = _EMPTY  # of the whole sequence, while every node is exact
    prefixes: frozenset[str] | None = None  # settled once a node is not exact
    best: frozenset[str] | None = None
    for op, av in items:
        node = _node(op, av)
        if node.exact is not None and run is not None:
            joined = _product(run, node.exact)
            if joined is not None:
                run = joined
                exact = joined if exact is not None else None
                continue
        # The run ends here: what it matched, then how this node starts, is in every match.
        head = _product(run, node.prefixes) if run is not None else None
        if prefixes is None:
            prefixes = head if head is not None else run if run is not None else _EMPTY
        best = _better(best, head)
        best = _better(best, run)
        best = _better(best, node.required)
        exact = None
        run = node.exact if node.exact is not None else _EMPTY
    best = _better(best, run)
    if exact is not None:
        return _Node(exact, exact, best)
    return _Node(None, prefixes if prefixes is not None else _EMPTY, best)


def _node(op: object, av: Any) -> _Node:
    if op is _c.LITERAL:
        return _Node(frozenset({chr(av)}), frozenset({chr(av)}), None)
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return _ZERO_WIDTH
    if op is _c.IN:
        members = av
        if all(o is _c.LITERAL for o, _ in members) and len(members) <= _MAX_SET:
            chars = frozenset(chr(v) for _, v in members)
            return _Node(chars, chars, None)
        return _UNKNOWN
    if op is _c.SUBPATTERN:
        _, add_flags, _, body = av
        if add_flags & _c.SRE_FLAG_IGNORECASE:
            return _UNKNOWN
        return _sequence(body)
    if _ATOMIC is not None and op is _ATOMIC:
        return _sequence(av)
    if op is _c.BRANCH:
        alts = [_sequence(alt) for alt in av[1]]
        exact: frozenset[str] | None = frozenset()
        prefixes: frozenset[str] = frozenset()
        required: frozenset[str] | None = frozenset()
        for alt in alts:
            exact = exact | alt.exact if exact is not None and alt.exact is not None else None
            prefixes = prefixes | alt.prefixes
            # any alternative may be the one that matched: every one must bring a requirement
            need = alt.required if alt.required is not None else alt.exact
            required = required | need if required is not None and need is not None else None
        if exact is not None and len(exact) > _MAX_SET:
            exact = None
        if len(prefixes) > _MAX_SET:
            prefixes = _EMPTY
        if required is not None and (len(required) > _MAX_SET or "" in required):
            required = None
        return _Node(exact, prefixes, required)
    if op in _REPEATS:
        low, high, body = av
        inner = _sequence(body)
        if low == high == 1:
            return inner
        if low == 0:
            exact = inner.exact | _EMPTY if high == 1 and inner.exact is not None else None
            return _Node(exact, _EMPTY, None)
        required = inner.required if inner.required is not None else inner.exact
        return _Node(None, inner.prefixes, required)
    return _UNKNOWN


def required_literals(pattern: str) -> frozenset[str] | None:
    """Strings one of which every match of ``pattern`` contains, or None when none is known.

    ``\\bos\\.(system|popen)\\s*\\(`` -> ``{"os.system", "os.popen"}``. None for a pattern
    that does not parse, is case-insensitive, or whose matches need not hold a literal.
    """
    try:
        parsed = _sre.parse(pattern)
    except Exception:  # any failure only means "nothing known"
        return None
    fold = _folding(parsed.state.flags)
    if fold is None:
        return None
    try:
        need = _sequence(parsed.data).required
    except Exception:  # a node shape this analysis does not know
        return None
    if need is None or "" in need:
        return None
    if fold:
        need = frozenset(_ascii_lower(s) for s in need)
    return need


def _folding(flags: int) -> bool | None:
    """False: case matters; True: ASCII case folding (``(?ai)``); None: Unicode folding,
    which this analysis does not read."""
    if not flags & _c.SRE_FLAG_IGNORECASE:
        return False
    return True if flags & _c.SRE_FLAG_ASCII else None


def _ascii_lower(text: str) -> str:
    return text.translate(_LOWER)


_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def folds(patterns: Iterable[str]) -> bool:
    """Whether :func:`needles` of ``patterns`` must be looked for in lowercased lines: some
    pattern is ``(?ai)`` (then every needle is lowercase)."""
    for pattern in patterns:
        try:
            if _folding(_sre.parse(pattern).state.flags):
                return True
        except Exception:  # a pattern that does not parse has no needles anyway
            continue
    return False


def needles(patterns: Iterable[str]) -> tuple[bytes, ...] | None:
    """UTF-8 strings one of which a line holds (lowercased, when :func:`folds`) if any of
    ``patterns`` finds a match in it.

    The line is text decoded from bytes with ``errors="replace"``: a character other than
    U+FFFD is in the text only if its UTF-8 bytes are in the line. None when some pattern
    has no requirement (every line may match) or its requirement holds U+FFFD.
    """
    patterns = list(patterns)
    fold = folds(patterns)
    found: set[str] = set()
    for pattern in patterns:
        need = required_literals(pattern)
        if need is None or any("\ufffd" in s for s in need):
            return None
        found |= {_ascii_lower(s) for s in need} if fold else need
    # a string that contains another one is found whenever that one is
    kept = sorted(s for s in found if not any(t != s and t in s for t in found))
    return tuple(s.encode("utf-8", "surrogatepass") for s in kept)
