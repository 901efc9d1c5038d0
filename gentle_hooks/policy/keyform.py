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
       ``+=``...; with no whitespace beside it only when none       ``for (k) in (d):``,
       parts its inside: ``x=(f(y))``, not the shell array          ``for k in d:``
       ``x=(a b)``),
       ``assert`` (to its ``,``), in a compound
       statement's header (``if``, ``elif``, ``while``, ``with``
       up to ``:`` or ``as``; ``for``'s target and iterable), a
       lambda's whole body (``lambda v: (v.x)``, to its end, ``,``
       or closing bracket), or
       a whole statement's ended by ``;`` (prettier's ``(a || b);``;
       ``(cd x && make)`` is a shell's subshell). Never with a top-level ``,`` inside
       (``assert (x, y)`` asserts a tuple; ``for``'s target
       aside), nor when more follows (``(a) + b``, ``(f)(x)``)
K2     a string's ``u`` prefix; other prefixes read lowercase, in  ``u"x"``, ``"x"``;
       one order (``Rb"x"``, ``bR"x"``); an f-string with no        ``F"{a}"``, ``f"{a}"``;
       placeholder read plain, its braces undoubled (``ruff check   ``f"{{a}}"``, ``"{a}"``
       --fix``, F541)
K3     adjacent string literals: one literal of their contents,    ``'a' 'b'``, ``"ab"``;
       when all are plain or f-strings (a plain part's braces       ``"a" f"{b}"``,
       doubled in an f-string) or all bytes; raw ones stay apart   ``f"a{b}"``
K4     a quote escaped inside a literal (``\\'``): the quote        ``'it\\'s'``, ``"it's"``
K5     a number's case, and a ``0`` a formatter adds to a bare      ``0XFF``, ``0xff``;
       ``.`` (``.5``, ``5.``, ``1.e5``)                              ``.5E3``, ``0.5e3``
K6     every whitespace byte; ``'`` read as ``"``                  ``f( 'a' )``, ``f("a")``
K7     an escape's case outside a raw literal: hex digits          ``"\\xAB"``, ``"\\xab"``;
       (``\\x``; ``\\u``, ``\\U`` not in bytes) lowercase, a      ``"\\N{dash}"``,
       ``\\N{...}`` name uppercase                                 ``"\\N{DASH}"``
K8     a ``str.format`` call on a plain literal: the f-string it    ``"{}".format(os.sep)``,
       means (``ruff check --fix``, UP032;                          ``f"{os.sep}"``
       :mod:`~gentle_hooks.policy.formatcall`)
K9-    what ``ruff check --fix`` makes of a line by rules F632,     ``x is 1``, ``x == 1``;
K15    UP018, E713, E714, RUF010, UP034, UP039, E711 and E712       ``f((x))``, ``f(x)``
       (``--unsafe-fixes``), each only where ruff's fix applies
       (:mod:`~gentle_hooks.policy.fixforms`)
=====  ==========================================================  ========================

Cheap by construction (it keys every line of every delegated change): K1 searches only a
line with a ``(`` and tokenizes it only from an opener it may read away; K2-K5, K7 run one
substitution only over a line that byte tests and one search say they may change; K8 reads
only a line holding ``.format(``; K9-K15 only a line one search says they may change.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gentle_hooks.policy.fixforms import fix_form
from gentle_hooks.policy.formatcall import format_calls
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: A line's tokens: a string literal, an identifier, a number, one other byte.
TOKEN = re.compile(rb'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')

#: Keywords K1 reads a bracket away after (``elif`` before ``if``: its boundary is read).
_KEYWORDS = (
    b"return",
    b"await",
    b"del",
    b"assert",
    b"elif",
    b"if",
    b"while",
    b"with",
    b"for",
    b"in",
)
#: A ``(`` that may open a bracket K1 reads away, found by one search that starts only at a
#: ``(``: opening the line, after whitespace or ``=``, or right after a keyword. Not a call's
#: (``f(x)``) nor a nested one's (``((``, ``[(``, ``,(``): most lines have none.
_CANDIDATE = re.compile(
    rb"\((?:(?<![\s\S]{2})|(?<=[\s=:]\()"
    + b"".join(rb"|(?<=%s\()" % k for k in _KEYWORDS if k != b"elif")
    + rb")"
)
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DOTTED = _WORD | {0x2E}  # a keyword's left neighbour: ``x.in(`` calls a method
_OPERATOR = frozenset(b"+-*/%&|^@")  # before an augmented assignment's ``=``
_NOT_ASSIGNMENT = frozenset(b"=!<>:")  # ``==``, ``!=``, ``<=``, ``>=``, ``:=``
_BLANK = frozenset(b" \t")
#: A lambda's head up to its ``:`` (a ``:`` in its defaults, ``d[1:2]``, is read as none).
_LAMBDA_HEAD = lazy_pattern(rb"(?<![\w.])lambda(?![\w])[^:]*:$")
_GENERATOR = lazy_pattern(rb"(?<!\w)for(?!\w)")  # a generator's brackets are never redundant


#: What may follow the closing bracket, by kind: the end of the statement (a ``;``, a
#: trailing comment), a compound statement's ``:``, ``assert``'s message, ``for``'s ``in``.
_END = rb"\s*(?:;|$|(?<=\s)(?:#|//))"
_FOLLOWS: dict[bytes, re.Pattern[bytes]] = {
    kind: lazy_pattern(follows)
    for kind, follows in (
        (b"", _END),
        (b"assert", _END + rb"|\s*,"),
        (b"line", rb"\s*;"),
        (b"if", rb"\s*:"),
        (b"elif", rb"\s*:"),
        (b"while", rb"\s*:"),
        (b"with", rb"\s*:|\s+as\b"),
        (b"for", rb"\s*in\b"),
        (b"in", rb"\s*:"),
        (b"lambda", _END + rb"|\s*[,)\]}]"),
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


def _opener(line: bytes, at: int) -> bytes | None:
    """The kind of the ``(`` at ``at`` when K1 may read it away (a keyword of
    :data:`_KEYWORDS`, ``b""`` after an assignment, ``b"line"`` opening the line), else
    None."""
    j = at
    while j and line[j - 1] in _BLANK:
        j -= 1
    if j == 0:
        return b"line"
    if line[j - 1] == 0x3D:  # "=": an assignment, with whitespace beside it
        k = j - 1
        while k and line[k - 1] in _OPERATOR:
            k -= 1
        if k == 0 or line[k - 1] in _NOT_ASSIGNMENT:
            return None
        return b"" if j < at or line[k - 1] in _BLANK else b"tight"
    if line[j - 1] == 0x3A:  # ":": a lambda's body when the last ``lambda`` has no other
        return b"lambda" if _LAMBDA_HEAD.search(line, 0, j) else None
    if line[j - 1] not in _WORD or not line.endswith(_KEYWORDS, 0, j):
        return None
    for keyword in _KEYWORDS:
        start = j - len(keyword)
        if line.endswith(keyword, 0, j) and (start == 0 or line[start - 1] not in _DOTTED):
            return keyword
    return None


def _may_close(line: bytes, kind: bytes) -> bool:
    """Whether a bracket of ``kind`` may be followed as :data:`_FOLLOWS` says anywhere in the
    line (byte tests, a superset): the line ends with ``)``, has a ``;`` or a comment; has
    the ``:``, ``as``, ``in`` or ``,`` that may follow. ``in`` only in a ``for`` statement:
    ``x in (a or b)`` is not ``x in a or b``."""
    if kind in _AT_COLON:
        return line.find(b":") >= 0 and (kind != b"in" or line.startswith((b"for", b"async for")))
    if kind == b"for":
        return line.find(b"in") >= 0
    if kind == b"with":
        return line.find(b":") >= 0 or line.find(b"as") >= 0
    if kind == b"line":
        return line.find(b";") >= 0
    if kind == b"lambda":
        return True
    ends = line.endswith(b")") or line.find(b";") >= 0 or line.find(b"#") >= 0
    ends = ends or line.find(b"//") >= 0
    return ends or (kind == b"assert" and line.find(b",") >= 0)


_AT_COLON = frozenset({b"if", b"elif", b"while", b"in"})


def _spaced(line: bytes, start: int, end: int) -> bool:
    """Whether whitespace stands between two tokens at the top level of ``line[start:end]``
    (string literals and nested brackets skipped): a shell array's words, ``(one two)``."""
    depth, last = 0, start
    for m in TOKEN.finditer(line, start, end):
        if depth == 0 and m.start() > last:
            return True
        token = m.group()
        if len(token) == 1 and token[0] in _OPENING:
            depth += 1
        elif len(token) == 1 and token[0] in _CLOSING:
            depth -= 1
        last = m.end()
    return False


def _strip_once(line: bytes) -> bytes | None:
    """The line with the first bracket K1 reads away read away, or None when it has none."""
    for m in _CANDIDATE.finditer(line):
        at = m.start()
        kind = _opener(line, at)
        if kind is not None and _may_close(line, kind):
            closed = _closing(line, at)
            if closed is not None:
                end, comma = closed
                follows = _FOLLOWS.get(kind, _FOLLOWS[b""])
                if kind == b"tight" and _spaced(line, at + 1, end - 1):
                    continue  # ``name=(a b)``: a shell array of words
                if kind == b"lambda" and _GENERATOR.search(line, at, end):
                    continue  # ``{"lambda": (x for x in y)}`` is no dict comprehension
                if (not comma or kind in _COMMA_KEPT) and follows.match(line, end):
                    return line[:at] + line[at + 1 : end - 1] + line[end:]
    return None


def _strip_brackets(line: bytes) -> bytes:
    """Row K1: ``line`` with the redundant brackets around its whole expression read away."""
    for _ in range(_MAX_STRIPS):
        stripped = _strip_once(line)
        if stripped is None:
            break
        line = stripped
    return line


#: A string literal's body: triple-quoted (kept as it is), or in one quote.
_BODY = (
    rb'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
    rb'|"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\''
)
_PREFIXED = rb"(?:\b[bBrRuUfF]{1,2})?(?:%s)" % _BODY
#: A run of adjacent string literals, or a number (rows K2-K5).
_LITERAL_OR_NUMBER = lazy_pattern(
    rb"(?P<s>%s(?:\s*%s)*)|(?P<n>(?<![\w.])\.?\d[\w.]*)" % (_PREFIXED, _PREFIXED)
)
#: Where rows K2-K5 may change a line with a quote: a superset of what they change, found by
#: one search that starts only at a quote: a quote after a prefix other than one lowercase
#: letter, two literals side by side (not a triple quote), an escaped quote.
_QUOTE_MAY_CHANGE = lazy_pattern(
    rb"""["'](?:(?<=[uUBRF]["'])|(?<=[bBrRuUfF]{2}["'])|(?<=\\["'])"""
    rb"""|(?<!["']["'])\s*[bBrRuUfF]{0,2}["'](?!["']))"""
)
#: ...and a line with a digit: a number with a capital letter or a bare ``.``.
_NUMBER_MAY_CHANGE = re.compile(rb"\d(?<![\w.]\d)[\w.]*?(?:[A-Z]|\.(?![\d_]))|\.\d(?<![\w.]\.\d)")
_DIGITS = b"0123456789"
_ONE_LITERAL = lazy_pattern(rb"(\w*)(%s)" % _BODY)
_ESCAPED = lazy_pattern(rb"""\\(['"])|(\\\\)""")
#: One escape (rows K4, K7): hex of two, four, eight digits; a ``\\N{...}`` name; any byte.
_ESCAPE = lazy_pattern(rb"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[\s\S])")
#: ...and where rows K2 and K7 may change a line with a quote too: an escape they read, an
#: ``f`` prefix (a superset).
_FOLD_MAY_CHANGE = lazy_pattern(rb"\\[xuUN]|[fF][\"']")
_MERGED = frozenset({frozenset({b""}), frozenset({b"f"}), frozenset({b"", b"f"})})
_THREE_QUOTES = lazy_pattern(rb"[\"']{3}")


def _prefix(raw: bytes) -> bytes:
    """Row K2: a string prefix without ``u``, lowercase, in one order."""
    return bytes(sorted(raw.lower().replace(b"u", b"")))


def _fold(prefix: bytes) -> Callable[[re.Match[bytes]], bytes]:
    """Rows K4 and K7 over one escape of a literal with ``prefix``: an escaped quote read as
    the quote; a hex escape's digits lowercase, a ``\\N{...}`` name uppercase (``\\u``,
    ``\\U`` and ``\\N`` only where they are escapes: not in bytes)."""
    text = prefix.find(b"b") < 0

    def fold(m: re.Match[bytes]) -> bytes:
        escape = m.group()
        kind = escape[1:2]
        if kind in (b"'", b'"'):  # one byte: every escape _ESCAPE matches has two or more
            return kind
        if kind == b"x" or (text and kind in (b"u", b"U")):
            return escape[:2] + escape[2:].lower()
        return escape.upper() if text and kind == b"N" else escape

    return fold


def _content(prefix: bytes, body: bytes) -> bytes:
    """A literal's content: rows K4 and K7 (an escape in one case) unless it is raw."""
    inner = body[1:-1]
    if inner.find(b"\\") < 0:
        return inner
    if prefix.find(b"r") >= 0:
        return _ESCAPED.sub(rb"\1\2", inner)
    return _ESCAPE.sub(_fold(prefix), inner)


def _plain(prefix: bytes, content: bytes) -> tuple[bytes, bytes]:
    """Row K2: an f-string with no placeholder (every brace doubled) read as the plain string
    of its braces undoubled (``ruff check --fix``, F541), any other literal as it is."""
    if prefix.find(b"f") < 0 or content.replace(b"{{", b"").find(b"{") >= 0:
        return prefix, content
    return prefix.replace(b"f", b""), content.replace(b"{{", b"{").replace(b"}}", b"}")


def _literals(run: bytes) -> bytes:
    """Rows K2-K4 over a run of adjacent literals (one with three quotes in a row, a triple
    quote's, keeps its bodies and is not joined: :data:`_QUOTE_MAY_CHANGE` never joins it)."""
    found = _ONE_LITERAL.findall(run)
    if _THREE_QUOTES.search(run):  # a triple quote, or one opened or closed: kept apart
        return b"".join(_prefix(p) + body for p, body in found)
    parts = [_plain(_prefix(p), _content(_prefix(p), body)) for p, body in found]
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
    if token.find(b".") < 0:
        return token
    if token.endswith(b"."):
        return token + b"0"
    return token.replace(b".e", b".0e").replace(b".j", b".0j")


def _literal_or_number(m: re.Match[bytes]) -> bytes:
    run = m.group("s")
    return _literals(run) if run is not None else _number(m.group())


def key_form(stripped: bytes) -> bytes:
    """The form of a stripped line no formatter changes (rows K1-K15 of the module table).
    Byte tests and one search each decide what to read first: most lines have nothing any
    row but K6 changes (this keys every line of a delegated change)."""
    line = stripped
    if line.find(b".format(") >= 0:
        line = format_calls(line)
    line = fix_form(line)
    if line.find(b"(") >= 0 and _CANDIDATE.search(line):
        line = _strip_brackets(line)
    quoted = line.find(b'"') >= 0 or line.find(b"'") >= 0
    if (quoted and (_QUOTE_MAY_CHANGE.search(line) or _FOLD_MAY_CHANGE.search(line))) or (
        len(line.translate(None, _DIGITS)) != len(line) and _NUMBER_MAY_CHANGE.search(line)
    ):
        line = _LITERAL_OR_NUMBER.sub(_literal_or_number, line)
    return b"".join(line.split()).replace(b"'", b'"')
