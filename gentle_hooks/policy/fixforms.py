"""A line as ``ruff check --fix`` leaves it: rows K9-K15 of
:mod:`gentle_hooks.policy.keyform` (SPEC §3 "Attribution follows content"; issue 13: a lint
autofix after ``record`` never launders the writer's line).

Room ``policy`` (pure: bytes in, answers out). :func:`fix_form` rewrites a stripped line the
way ruff's fix of each rule below does, so the writer's line and ruff's rewrite of it have one
key form. Each reading applies only where ruff's fix applies (its operand a literal, a lone
comparison, one argument...), so a person's line that means something else keeps its own:

* K9 (F632), K11 (E713, E714), K13 (E711, E712 with ``--unsafe-fixes``): comparisons, read
  by :mod:`gentle_hooks.policy.comparisons` (``x is 1``: ``x == 1``; ``not x in y``:
  ``x not in y``; ``x == None``: ``x is None``; ``x == False``: ``not x``);
* K10 (UP018): ``str``, ``bytes``, ``int``, ``float`` or ``bool`` of a literal of its own type
  read as the literal (``str("a")``: ``"a"``; ``int(-1)``: ``-1``; ``int(1).real``:
  ``(1).real``), and of nothing as its empty value (``int()``: ``0``); never ``float(1)``,
  ``int("1")``, ``str(f"{a}")``;
* K12 (RUF010): ``{str(x)}`` in an f-string read as ``{x!s}`` (``repr``: ``!r``,
  ``ascii``: ``!a``), with one plain argument and no conversion or ``=`` after it;
* K14 (UP034): a call's one argument in a second pair of brackets read without them
  (``f((x))``: ``f(x)``); never a tuple (``f((a, b))``), ``f((yield x))``, a subscript or
  a keyword's bracket (``while ((c = next()))``);
* K15 (UP039): a class's empty bases read away (``class A():``: ``class A:``).

Cheap by construction (it keys every line of every delegated change): one search
(:data:`_WORDS`) skips a line none of the rows reads, byte tests or one search per row then
skip each row that cannot change it, and a row that may tokenizes the line once, its
brackets matched in one pass; a line over :data:`MAX_FIXED_LINE` bytes is read as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gentle_hooks.policy.comparisons import compared_to_constant, equal_literals, not_in
from gentle_hooks.policy.linetokens import (
    CLOSE,
    OPEN,
    Token,
    closing,
    edit,
    has_top_level,
    is_fstring,
    line_tokens,
    prefix,
    text,
)
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: Python's keywords: a ``(`` after one opens no call (row K14).
_KEYWORDS = frozenset(
    b"""and as assert async await break class continue def del elif else except finally for
    from global if import in is lambda nonlocal not or pass raise return try while with
    yield""".split()
)


# -- K10: UP018 ---------------------------------------------------------------------------

_NATIVE = lazy_pattern(rb"(?<![\w.])(str|bytes|int|float|bool)\(")
_INT = lazy_pattern(rb"0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*")
_FLOAT = lazy_pattern(rb"(?:\d[\d_]*)?\.?[\d_]*(?:[eE][-+]?\d[\d_]*)?")
_EMPTY = {b"str": b'""', b"bytes": b'b""', b"int": b"0", b"float": b"0.0", b"bool": b"False"}


def _is_native(kind: bytes, tokens: list[Token]) -> bool:
    """Whether ``tokens`` (an argument) are a literal of the type ``kind`` names."""
    if kind in (b"str", b"bytes"):
        bytes_ = kind == b"bytes"
        return all(
            m.lastgroup == "s" and not is_fstring(m) and (prefix(m).find(b"b") >= 0) == bytes_
            for m in tokens
        )
    if kind == b"bool":
        return len(tokens) == 1 and tokens[0].group() in (b"True", b"False")
    if tokens and tokens[0].group() in (b"-", b"+"):
        tokens = tokens[1:]
    if len(tokens) != 1 or tokens[0].lastgroup != "n":
        return False
    number = tokens[0].group()
    if kind == b"int":
        return _INT.fullmatch(number) is not None
    has_float = number.find(b".") >= 0 or number.lower().find(b"e") >= 0
    return has_float and number[:2].lower() != b"0x" and _FLOAT.fullmatch(number) is not None


def _native_literal(line: bytes) -> bytes:
    """Row K10: ``str("a")``, ``int(1)``, ``float(1.5)``, ``bool(True)``, ``bytes(b"a")``
    read as the literal, and the call of none as its empty value; a call inside another
    first (``int(int())``: ``0``, as ruff's next pass reads its last one's)."""
    for _ in range(_MAX_NESTED_CALLS):
        tokens = line_tokens(line)
        edits = []
        for i, t in enumerate(tokens):
            kind = t.group()
            if t.lastgroup != "w" or kind not in _EMPTY or text(tokens, i + 1) != b"(":
                continue
            close = closing(tokens, i + 1)
            if close is None or text(tokens, i - 1) == b".":
                continue
            inside = tokens[i + 2 : close]
            if not inside:
                new = _EMPTY[kind]
            elif _is_native(kind, inside):
                new = line[inside[0].start() : inside[-1].end()]
            else:
                continue
            if text(tokens, close + 1) == b"." and (kind == b"int" or new[:1] in _SIGNS):
                new = b"(" + new + b")"  # ``1.real``, ``-1.5.hex()``: ruff brackets them
            edits.append((t.start(), tokens[close].end(), new))
        if not edits:
            break
        line = edit(line, edits)
    return line


_MAX_NESTED_CALLS = 4
_SIGNS = (b"-", b"+")


# -- K12: RUF010 ---------------------------------------------------------------------------

_CONVERSIONS = {b"str": b"!s", b"repr": b"!r", b"ascii": b"!a"}
_FIELD_CALL = lazy_pattern(rb"\{(\s*)(str|repr|ascii)\(")
_KEYWORD_ARGUMENT = lazy_pattern(rb"\s*[A-Za-z_]\w*\s*=(?!=)")
_LAMBDA = lazy_pattern(rb"(?<!\w)lambda(?!\w)")


#: Bytes that end a plain argument outside brackets: another argument, a lambda's or a
#: slice's ``:``, a quote (a literal of the f-string's own quote ends the f-string).
_REFUSED = frozenset(b",:\"'")


def _argument(body: bytes, start: int) -> int | None:
    """The index of the ``)`` closing the call whose argument starts at ``start`` in an
    f-string's body, or None when it is not one plain argument (a ``,``, ``:`` or quote
    outside brackets, a ``*``, a keyword, a display, a ``lambda``)."""
    depth = 0
    for j in range(start, len(body)):
        c = body[j]
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            if depth == 0:
                return j
            depth -= 1
        elif depth == 0 and c in _REFUSED:
            return None
    return None


def _conversions(token: bytes) -> bytes:
    """Row K12 over one f-string literal ``token`` (its prefix and quotes included)."""
    out, last = [], 0
    for m in _FIELD_CALL.finditer(token):
        if m.start() < last or token[: m.start()].replace(b"{{", b"").count(b"{") > token[
            : m.start()
        ].replace(b"}}", b"").count(b"}"):
            continue  # a doubled brace, or inside another field
        close = _argument(token, m.end())
        if close is None:
            continue
        argument = token[m.end() : close]
        rest = token[close + 1 :].lstrip()
        if (
            not argument.strip()
            or argument.lstrip()[:1] in (b"*", b"{")
            or _KEYWORD_ARGUMENT.match(argument)
            or _LAMBDA.search(argument)
            or rest[:1] not in (b"}", b":")
        ):
            continue
        out += [token[last : m.start()], b"{", m.group(1), argument, _CONVERSIONS[m.group(2)]]
        last = close + 1
    return b"".join(out) + token[last:] if out else token


def _conversion_calls(line: bytes) -> bytes:
    """Row K12: ``{str(x)}`` in an f-string read as ``{x!s}`` (``repr``: ``!r``, ``ascii``:
    ``!a``)."""
    edits = [
        (m.start(), m.end(), _conversions(m.group()))
        for m in line_tokens(line)
        if is_fstring(m) and _FIELD_CALL.search(m.group())
    ]
    return edit(line, edits)


# -- K14: UP034, K15: UP039 ----------------------------------------------------------------


def _one_argument(line: bytes) -> bytes:
    """Row K14: a call's one argument in a second pair of brackets read without them
    (``f((x))``: ``f(x)``; never a tuple, ``f((a, b))``, nor ``f((yield x))``)."""
    for _ in range(4):  # ``f(((x)))``: a pair at a time
        tokens = line_tokens(line)
        edits = []
        for i, t in enumerate(tokens):
            before = text(tokens, i - 1)
            called = before in (b")", b"]") or (
                i > 0 and tokens[i - 1].lastgroup == "w" and before not in _KEYWORDS
            )
            if t.group() != b"(" or not called or text(tokens, i + 1) != b"(":
                continue
            inner, outer = closing(tokens, i + 1), closing(tokens, i)
            if inner is None or outer != inner + 1 or inner == i + 2:
                continue
            if text(tokens, i + 2) == b"yield" or has_top_level(tokens, i + 2, inner, _COMMA):
                continue
            edits += [
                (tokens[i + 1].start(), tokens[i + 1].end(), b""),
                (tokens[inner].start(), tokens[inner].end(), b""),
            ]
        if not edits:
            break
        line = edit(line, edits)
    return line


_COMMA = frozenset({b","})
_EMPTY_BASES = lazy_pattern(rb"(class\s+[A-Za-z_]\w*(?:\s*\[[^\]]*\])?)\s*\(\s*\)")


def _empty_bases(line: bytes) -> bytes:
    """Row K15: ``class A():`` read as ``class A:``."""
    return _EMPTY_BASES.sub(rb"\1", line, count=1) if line.startswith(b"class") else line


#: What one of the rows reads (a superset, one search: ``is`` in ``this``): a line without
#: any is left as it is, with no other test.
_WORDS = re.compile(
    rb"is|not|None|True|False|class|str\(|int\(|float\(|bool\(|bytes\(|repr\(|ascii\(|\(\s*\("
)
#: Row K9's operator before a literal (``is 1``, ``is not "a"``, ``is (``) and after one.
_IS_BEFORE = lazy_pattern(rb"is(?:\s+not)?\s*[bBrRuU]{0,2}[\"'\d.(\[{]")
_IS_AFTER = lazy_pattern(rb"[\"'\d)\]}]\s*is(?!\w)")
_ONE_ARGUMENT = lazy_pattern(rb"\(\s*\(")


def _may_call_native(line: bytes) -> bool:
    """Whether the line may call ``str``, ``int``, ``float``, ``bool`` or ``bytes``: byte
    tests before the search."""
    may = line.find(b"r(") >= 0 or line.find(b"t(") >= 0  # str( int( float(
    may = may or line.find(b"l(") >= 0 or line.find(b"s(") >= 0  # bool( bytes(
    return may and _NATIVE.search(line) is not None


def _may_compare_in(line: bytes) -> bool:
    return line.find(b"in") >= 0 or line.find(b"is") >= 0


def _may_compare_constant(line: bytes) -> bool:
    return (line.find(b"==") >= 0 or line.find(b"!=") >= 0) and (
        line.find(b"None") >= 0 or line.find(b"True") >= 0 or line.find(b"False") >= 0
    )


#: (row, whether it may change a line: a superset, its reading), in the order read: a
#: reading's output is the next one's input, as ruff's next pass reads its last one's
#: (``"{}".format(str(x))`` row K8 made an f-string, then ``{x!s}``; ``1 is True`` made
#: ``1 == True``, then ``1``; ``(x in y) == False`` made ``not (x in y)``, then
#: ``x not in y``).
_ROWS: tuple[tuple[str, Callable[[bytes], bool], Callable[[bytes], bytes]], ...] = (
    ("K15", lambda line: line.startswith(b"class"), _empty_bases),
    (
        "K12",
        lambda line: line.find(b"{") >= 0 and _FIELD_CALL.search(line) is not None,
        _conversion_calls,
    ),
    ("K10", _may_call_native, _native_literal),
    ("K14", lambda line: _ONE_ARGUMENT.search(line) is not None, _one_argument),
    (
        "K9",
        lambda line: _IS_BEFORE.search(line) is not None or _IS_AFTER.search(line) is not None,
        equal_literals,
    ),
    ("K13", _may_compare_constant, compared_to_constant),
    ("K11", lambda line: line.find(b"not") >= 0 and _may_compare_in(line), not_in),
)


#: The longest line the rows read, in bytes: a longer one is data (minified, generated), no
#: line a person writes and lints, and reading it costs up to the square of its length.
MAX_FIXED_LINE = 1024


def fix_form(stripped: bytes) -> bytes:
    """A stripped line as ``ruff check --fix`` of each rule of the module table leaves it
    (rows K9-K15; the line itself when none applies, or when it is longer than
    :data:`MAX_FIXED_LINE`)."""
    if len(stripped) > MAX_FIXED_LINE or _WORDS.search(stripped) is None:
        return stripped
    line = stripped
    for _, may, read in _ROWS:
        if may(line):
            line = read(line)
    return line
