"""A line of Python read as tokens, for the readings of ``ruff check --fix`` rewrites
(:mod:`gentle_hooks.policy.comparisons`, :mod:`gentle_hooks.policy.fixforms`; SPEC §3
"Attribution follows content").

Room ``policy`` (pure: bytes in, answers out). :func:`line_tokens` splits a line into string
literals (with their prefix), names, numbers and operators; the helpers find a bracket's
match, an operand's bounds, and make several edits of one line at once.
"""

from __future__ import annotations

import re

from gentle_hooks.values.lazy_pattern import lazy_pattern

#: A line's tokens: a string literal with its prefix (group ``s``), a name (``w``), a number
#: (``n``, a signed exponent included), an operator of two bytes or one other byte (``o``).
TOKEN = lazy_pattern(
    rb"""(?P<s>(?<![\w])[bBrRuUfF]{0,2}(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'))"""
    rb"|(?P<w>[A-Za-z_]\w*)"
    rb"|(?P<n>(?:\d|\.\d)[\w.]*(?:(?<=[eE])[-+]\d[\w.]*)?)"
    rb"|(?P<o>==|!=|<=|>=|:=|->|\*\*|//|<<|>>|\S)"
)
Token = re.Match[bytes]


class Tokens(list[Token]):
    """A line's tokens, in order, with the index of each bracket's match (``pairs``: -1
    for a token that is no bracket or has none on the line), found in one pass."""

    def __init__(self, found: list[Token]) -> None:
        super().__init__(found)
        self.pairs = [-1] * len(found)
        opened: list[int] = []
        for i, token in enumerate(found):
            step = _step(token.group())
            if step > 0:
                opened.append(i)
            elif step < 0 and opened:
                j = opened.pop()
                self.pairs[i], self.pairs[j] = j, i


OPEN, CLOSE = frozenset(b"([{"), frozenset(b")]}")
#: Where an operand ends: the tokens that may follow a whole operand of a comparison.
ENDS = frozenset(
    {b")", b"]", b"}", b",", b":", b";", b"#", b"=", b"and", b"or", b"if", b"else", b"for"}
)
#: The comparison operators (a chain has two or more; ``not`` of ``not in``).
COMPARISONS = frozenset({b"==", b"!=", b"<", b">", b"<=", b">=", b"is", b"in", b"not"})
#: Where an operand starts: the tokens a whole operand of a comparison may follow.
STARTS = (
    frozenset({b"(", b"[", b"{", b",", b":", b";", b"=", b":=", b"return", b"yield"})
    | frozenset({b"and", b"or", b"if", b"elif", b"else", b"while", b"assert"})
    | COMPARISONS
)


def line_tokens(line: bytes) -> Tokens:
    """The tokens of ``line`` (:data:`TOKEN`); whitespace is between them, never in one."""
    return Tokens(list(TOKEN.finditer(line)))


def text(found: Tokens, i: int) -> bytes:
    """The text of token ``i``, or empty before the first and past the last."""
    return found[i].group() if 0 <= i < len(found) else b""


def _step(t: bytes) -> int:
    """+1 for an opening bracket, -1 for a closing one, else 0."""
    if len(t) != 1:
        return 0
    return (t[0] in OPEN) - (t[0] in CLOSE)


def closing(found: Tokens, i: int) -> int | None:
    """The index of the bracket closing the one at ``i`` (or opening the one closing
    there), or None when the line has none."""
    j = found.pairs[i] if 0 <= i < len(found) else -1
    return j if j >= 0 else None


def has_top_level(found: Tokens, first: int, stop: int, texts: frozenset[bytes]) -> bool:
    """Whether ``found[first:stop]`` hold one of ``texts`` outside brackets."""
    depth = 0
    for j in range(first, stop):
        t = found[j].group()
        step = _step(t)
        depth += step
        if depth == 0 and not step and t in texts:
            return True
    return False


def operand_stop(found: Tokens, first: int) -> int:
    """Where the operand starting at ``first`` ends: the index of an unmatched closing
    bracket or of one of :data:`ENDS` outside brackets, or the end."""
    depth = 0
    for j in range(first, len(found)):
        t = found[j].group()
        step = _step(t)
        depth += step
        if depth < 0 or (depth == 0 and not step and t in ENDS):
            return j
    return len(found)


def operand_start(found: Tokens, last: int) -> int:
    """Where the operand ending at ``last`` starts: the index after an unmatched opening
    bracket or one of :data:`STARTS` outside brackets, or 0."""
    depth = 0
    for j in range(last, -1, -1):
        t = found[j].group()
        step = _step(t)
        depth -= step
        if depth < 0 or (depth == 0 and not step and t in STARTS):
            return j + 1
    return 0


def edit(line: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    """``line`` with each (start, end, replacement) of ``edits`` made; an edit overlapping
    an earlier one is left out."""
    out, last = [], 0
    for start, end, new in sorted(edits):
        if start >= last:
            out += [line[last:start], new]
            last = end
    return b"".join(out) + line[last:]


def prefix(token: re.Match[bytes]) -> bytes:
    """A string literal token's prefix, lowercase (``rb``, ``f``, ``""``)."""
    literal = token.group()
    return literal[: literal.find(literal[-1:])].lower()


def is_fstring(token: re.Match[bytes]) -> bool:
    """Whether a token is an f-string literal."""
    return token.lastgroup == "s" and prefix(token).find(b"f") >= 0
