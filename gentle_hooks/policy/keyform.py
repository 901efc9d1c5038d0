"""A line as no formatter changes it: the form its key is taken of (SPEC §3 "Attribution
follows content"; issue 13: ``ruff format`` after ``record`` never launders the writer's line).

Room ``policy`` (pure: bytes in, answers out). :func:`~gentle_hooks.policy.linekeys.
stripped_key` hashes :func:`key_form`; :func:`~gentle_hooks.policy.spans.span_form` starts
from it. Two stripped lines of one key form are one line, whatever a formatter (``ruff
format``, black, prettier) did to it. Each reading below is one a formatter makes, and each
maps a line only onto one that means the same, so a human's different line keeps a form of
its own:

=====  ==========================================================  ========================
row    read away                                                   e.g. (one form)
=====  ==========================================================  ========================
K1     redundant brackets around a statement's whole expression:   ``return (f(x))``,
       after ``return``, ``await``, ``del``, an assignment (``=``,  ``return f(x)``;
       ``+=``..., with whitespace beside it: ``name=(a b)`` is a    ``for (k) in (d):``,
       shell array), ``assert`` (to its ``,``), in a compound       ``for k in d:``
       statement's header (``if``, ``elif``, ``while``, ``with``
       up to ``:`` or ``as``; ``for``'s target and iterable), or
       a whole line's; never with a top-level ``,`` inside (but
       ``for``'s target: ``assert (x, y)`` is a tuple) and never
       when anything follows them (``(a) + b``, ``(f)(x)``)
K2     a string's ``u`` prefix; other prefixes read lowercase, in  ``u"x"``, ``"x"``;
       one order (``Rb"x"``, ``bR"x"``)                            ``F"{a}"``, ``f"{a}"``
K3     adjacent string literals: one literal of their contents,    ``'a' 'b'``, ``"ab"``;
       when all are plain or f-strings (a plain part's braces       ``"a" f"{b}"``,
       doubled in an f-string) or all bytes; raw ones stay apart   ``f"a{b}"``
K4     a quote escaped inside a literal (``\\'``): the quote        ``'it\\'s'``, ``"it's"``
K5     a number's case, and a ``0`` a formatter adds to a bare      ``0XFF``, ``0xff``;
       ``.`` (``.5``, ``5.``, ``1.e5``)                              ``.5E3``, ``0.5e3``
K6     every whitespace byte; ``'`` read as ``"``                  ``f( 'a' )``, ``f("a")``
=====  ==========================================================  ========================

Cheap by construction: a line with no ``(`` after one of K1's openers is never tokenized,
and K2-K5 run one regular-expression substitution over a line that has a quote or a digit.
"""

from __future__ import annotations

import re

#: A line's tokens: a string literal, an identifier, a number, one other byte.
TOKEN = re.compile(rb'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')

#: Where a bracket K1 may read away opens: (kind, the ``(`` right after).
_OPENER = re.compile(
    rb"(?:^|(?<![\w.]))(?P<kw>return|await|del|assert|if|elif|while|with|for|in)\s*(?=\()"
    rb"|(?P<eq>(?<=\s)(?:[-+*/%&|^@]|//|\*\*)?=\s*|(?<![\s=!<>:])(?:[-+*/%&|^@]|//|\*\*)?=\s+)"
    rb"(?=\()"
    rb"|^(?=\()"
)
#: What may follow the closing bracket, by kind: the end of the statement (a ``;``, a
#: trailing comment), a compound statement's ``:``, ``assert``'s message, ``for``'s ``in``.
_END = rb"\s*(?:;|$|(?<=\s)(?:#|//))"
_FOLLOWS: dict[bytes, re.Pattern[bytes]] = {
    kind: re.compile(follows)
    for kind, follows in (
        (b"", _END),
        (b"assert", _END + rb"|\s*,"),
        (b"if", rb"\s*:"),
        (b"elif", rb"\s*:"),
        (b"while", rb"\s*:"),
        (b"with", rb"\s*:|\s+as\b"),
        (b"for", rb"\s*in\b"),
        (b"in", rb"\s*:"),
    )
}
_COMMA_KEPT = frozenset({b"for"})  # ``for (k, v) in``: the target a tuple either way
_OPENING, _CLOSING = frozenset(b"([{"), frozenset(b")]}")
#: Brackets read away at most this many times in one line (``return ((x))``).
_MAX_STRIPS = 4


def _closing(line: bytes, start: int) -> tuple[int, bool] | None:
    """(the end of the bracket opened at ``start``, whether a ``,`` stands at its top
    level), or None when it never closes on the line. String literals are skipped."""
    depth, comma = 0, False
    for m in TOKEN.finditer(line, start):
        token = m.group()
        if len(token) != 1:
            continue
        if token[0] in _OPENING:
            depth += 1
        elif token[0] in _CLOSING:
            depth -= 1
            if depth == 0:
                return m.end(), comma
        elif token == b"," and depth == 1:
            comma = True
    return None


def _strip_once(line: bytes) -> bytes | None:
    """The line with the first bracket K1 reads away read away, or None when it has none."""
    for m in _OPENER.finditer(line):
        kind = m.group("kw") or b""
        if kind == b"in" and not line.startswith((b"for", b"async for")):
            continue  # ``x in (a or b)`` is not ``x in a or b``
        start = m.end()
        closed = _closing(line, start)
        if closed is None:
            continue
        end, comma = closed
        if comma and kind not in _COMMA_KEPT:
            continue
        if _FOLLOWS.get(kind, _FOLLOWS[b""]).match(line, end):
            return line[:start] + line[start + 1 : end - 1] + line[end:]
    return None


def _strip_brackets(line: bytes) -> bytes:
    """Row K1: ``line`` with the redundant brackets around its whole expression read away."""
    for _ in range(_MAX_STRIPS):
        stripped = _strip_once(line)
        if stripped is None:
            break
        line = stripped
    return line


_PREFIXED = rb"""(?:\b[bBrRuUfF]{1,2})?(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
#: A run of adjacent string literals, or a number (rows K2-K5).
_LITERAL_OR_NUMBER = re.compile(
    rb"(?P<s>%s(?:\s*%s)*)|(?P<n>(?<![\w.])\.?\d[\w.]*)" % (_PREFIXED, _PREFIXED)
)
_ONE_LITERAL = re.compile(rb"""(\w*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""")
_ESCAPED = re.compile(rb"""\\(['"])|(\\\\)""")
_MERGED = frozenset({frozenset({b""}), frozenset({b"f"}), frozenset({b"", b"f"})})


def _prefix(raw: bytes) -> bytes:
    """Row K2: a string prefix without ``u``, lowercase, in one order."""
    return bytes(sorted(raw.lower().replace(b"u", b"")))


def _content(body: bytes) -> bytes:
    """A literal's content (row K4: an escaped quote read as the quote)."""
    inner = body[1:-1]
    return _ESCAPED.sub(rb"\1\2", inner) if b"\\" in inner else inner


def _literals(run: bytes) -> bytes:
    """Rows K2-K4 over a run of adjacent literals."""
    parts = [(_prefix(p), _content(b)) for p, b in _ONE_LITERAL.findall(run)]
    prefixes = frozenset(p for p, _ in parts)
    if len(parts) > 1 and (prefixes in _MERGED or prefixes == {b"b"}):
        merged = max(prefixes)
        if merged == b"f":  # a plain part joined into an f-string has its braces doubled
            parts = [(p, c if p else c.replace(b"{", b"{{").replace(b"}", b"}}")) for p, c in parts]
        return merged + b'"' + b"".join(c for _, c in parts) + b'"'
    return b"".join(p + b'"' + c + b'"' for p, c in parts)


def _number(token: bytes) -> bytes:
    """Row K5: a number lowercase, the ``0`` of a bare ``.`` added."""
    token = token.lower()
    if token.startswith(b"."):
        token = b"0" + token
    if b"." not in token:
        return token
    if token.endswith(b"."):
        return token + b"0"
    return token.replace(b".e", b".0e").replace(b".j", b".0j")


def _literal_or_number(m: re.Match[bytes]) -> bytes:
    run = m.group("s")
    return _literals(run) if run is not None else _number(m.group())


_SPACE = re.compile(rb"\s+")
_DIGIT = re.compile(rb"\d")


def key_form(stripped: bytes) -> bytes:
    """The form of a stripped line no formatter changes (rows K1-K6 of the module table)."""
    line = stripped
    if b"(" in line:
        line = _strip_brackets(line)
    if b'"' in line or b"'" in line or _DIGIT.search(line):
        line = _LITERAL_OR_NUMBER.sub(_literal_or_number, line)
    return _SPACE.sub(b"", line).replace(b"'", b'"')
