"""Regex shapes that backtrack catastrophically, found in the parsed pattern tree.

Room ``config``, pure. The loader refuses a configured regex (``risk.process_patterns``)
whose shape this module names, so that the mistake is reported where it is written; the
scan itself is bounded as well (:mod:`gentle_hooks.native.process_scan`), because no
structural check finds every slow pattern.

Two shapes are named, each inside a part repeated unboundedly or more than once:

* a nested repeat: the repeated part holds a repeat of its own (``(a*)*``, ``(a+)+``,
  ``(?:x+y?){2,}``);
* an ambiguous alternation: two branches can begin with the same character, or one can
  match the empty string (``(a|a)*``, ``(a|ab)+``, ``(\\w|\\d)*``, ``(a|)*``).

Either lets the engine split one text among the repetitions in exponentially many ways
before it gives up on a line that almost matches. First characters are computed over a
probe alphabet (Latin-1 and a few wider characters), so a class is compared by what it
holds rather than how it is spelled.
"""

from __future__ import annotations

import re
from re import _parser  # type: ignore[attr-defined]

TYPE_CHECKING = False  # typing costs ~10 ms: the config loader may import this on a hook
if TYPE_CHECKING:
    from typing import Any

#: Characters first-character sets are computed over.
_PROBE = "".join(map(chr, range(256))) + "\u0100\u0391\u03a9\u0430\u2028\u4e2d\U0001f600"
_ALL = frozenset(_PROBE)
_REPEATS = frozenset(
    {_parser.MAX_REPEAT, _parser.MIN_REPEAT, getattr(_parser, "POSSESSIVE_REPEAT", None)} - {None}
)
#: A node of the parsed tree is ``(op, arg)`` with an ``arg`` of op-dependent shape
#: (``re._parser``'s own untyped format), hence ``Any`` below.
_CATEGORY = {
    _parser.CATEGORY_DIGIT: re.compile(r"\d"),
    _parser.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    _parser.CATEGORY_SPACE: re.compile(r"\s"),
    _parser.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    _parser.CATEGORY_WORD: re.compile(r"\w"),
    _parser.CATEGORY_NOT_WORD: re.compile(r"\W"),
}


def slow_shape(pattern: str) -> str | None:
    """Why the (valid) regex ``pattern`` can take exponential time to match, in a few
    words naming the shape, or None when neither shape of the module docstring is found."""
    return _walk(_parser.parse(pattern), inside=False)


def preselect_shape(ere: str) -> str | None:
    r"""What git's ``-G`` can take exponential time or memory on in the POSIX extended
    regex ``ere`` (``risk.process_preselect``), or None: a back-reference, a counted repeat
    (any ``{`` that is not escaped nor in a bracket expression: glibc expands ``x{,32767}``,
    so two of them held ``-G`` for 20 s and 4 GB) or a repeated group (``(ab)+``). Read
    token by token, as git's regex parser reads it: ``\\{`` is an escaped backslash and
    then a counted repeat, ``[{]`` and ``\{`` a literal brace."""
    found: set[str] = set()
    i, after_group = 0, False
    while i < len(ere):
        c = ere[i]
        if c == "\\":
            if ere[i + 1 : i + 2] in tuple("123456789"):
                found.add("a back-reference")
            i, after_group = i + 2, False
            continue
        if c == "[":
            i, after_group = _bracket_end(ere, i), False
            continue
        if c == "{":
            found.add("a counted repeat")
        elif after_group and c in "*+?":
            found.add("a repeated group")
        after_group = c == ")"
        i += 1
    for shape in ("a back-reference", "a counted repeat", "a repeated group"):
        if shape in found:
            return shape
    return None


def _bracket_end(ere: str, start: int) -> int:
    """The index just past the bracket expression opening at ``ere[start]`` (``[``): a
    leading ``^`` and ``]`` are part of it, and so are ``[:class:]``, ``[=x=]`` and
    ``[.x.]``; the end of ``ere`` when it is not closed (git then refuses the regex)."""
    j = start + 1
    j += ere[j : j + 1] == "^"
    j += ere[j : j + 1] == "]"
    while j < len(ere):
        if ere[j] == "[" and ere[j + 1 : j + 2] in (":", "=", "."):
            close = ere.find(ere[j + 1] + "]", j + 2)
            j = len(ere) if close < 0 else close + 2
        elif ere[j] == "]":
            return j + 1
        else:
            j += 1
    return j


def _walk(items: Any, inside: bool) -> str | None:
    for op, arg in items:
        if op in _REPEATS:
            _low, high, body = arg
            many = high is _parser.MAXREPEAT or high > 1
            if many and inside:
                return "a repeated group holds a repeat (like '(a*)*')"
            found = _walk(body, inside or many)
            if found:
                return found
        elif op is _parser.SUBPATTERN:
            found = _walk(arg[-1], inside)
            if found:
                return found
        elif op is _parser.BRANCH:
            branches = arg[1]
            if inside and _ambiguous(branches):
                return (
                    "a repeated alternation has branches that can match the same text "
                    "(like '(a|a)*' or '(a|ab)*')"
                )
            for b in branches:
                found = _walk(b, inside)
                if found:
                    return found
        elif op in (_parser.ASSERT, _parser.ASSERT_NOT):
            found = _walk(arg[1], inside)
            if found:
                return found
    return None


def _ambiguous(branches: Any) -> bool:
    """Whether two of ``branches`` can begin with the same character, in any case (a flag
    may fold case), or one can match the empty string."""
    seen: set[str] = set()
    for b in branches:
        first, nullable = _first(b)
        folded = {c.casefold() for c in first}
        if nullable or seen & folded:
            return True
        seen |= folded
    return False


def _first(items: Any) -> tuple[frozenset[str], bool]:
    """The characters a match of the sequence ``items`` can begin with, and whether it can
    match the empty string (a back-reference can begin with anything)."""
    out: set[str] = set()
    for op, arg in items:
        first, nullable = _first_of(op, arg)
        out |= first
        if not nullable:
            return frozenset(out), False
    return frozenset(out), True


def _first_of(op: Any, arg: Any) -> tuple[frozenset[str], bool]:
    if op is _parser.LITERAL:
        return frozenset({chr(arg)}), False
    if op is _parser.NOT_LITERAL:
        return _ALL - {chr(arg)}, False
    if op is _parser.ANY:
        return _ALL, False
    if op is _parser.IN:
        return _class(arg), False
    if op in _REPEATS:
        low, _high, body = arg
        first, nullable = _first(body)
        return first, nullable or low == 0
    if op is _parser.SUBPATTERN:
        return _first(arg[-1])
    if op is _parser.BRANCH:
        out: set[str] = set()
        any_nullable = False
        for b in arg[1]:
            first, nullable = _first(b)
            out |= first
            any_nullable = any_nullable or nullable
        return frozenset(out), any_nullable
    if op is _parser.GROUPREF or op is getattr(_parser, "GROUPREF_EXISTS", None):
        return _ALL, True
    return frozenset(), True  # anchors and lookarounds consume nothing


def _class(items: Any) -> frozenset[str]:
    """The probe characters a character class ``[...]`` holds."""
    negate = False
    held: set[str] = set()
    for op, arg in items:
        if op is _parser.NEGATE:
            negate = True
        elif op is _parser.LITERAL:
            held.add(chr(arg))
        elif op is _parser.RANGE:
            lo, hi = arg
            held |= {c for c in _PROBE if lo <= ord(c) <= hi}
        elif op is _parser.CATEGORY and arg in _CATEGORY:
            rx = _CATEGORY[arg]
            held |= {c for c in _PROBE if rx.match(c)}
        else:  # an item not read here: assume it holds everything (refuse, not miss)
            held |= _ALL
    return _ALL - held if negate else frozenset(held)
