"""Comparisons as ``ruff check --fix`` leaves them: rows K9, K11 and K13 of
:mod:`gentle_hooks.policy.keyform` (SPEC §3 "Attribution follows content"; issue 13: a lint
autofix after ``record`` never launders the writer's line).

Room ``policy`` (pure: bytes in, answers out). Read by :func:`~gentle_hooks.policy.fixforms.
fix_form`; each function takes a stripped line and returns it with every comparison its
row reads rewritten as ruff's fix writes it (the line itself when none):

* :func:`equal_literals` (K9, F632): ``x is 1`` as ``x == 1``, ``x is not "a"`` as
  ``x != "a"``; only where one operand is a whole literal (``x is -1``, ``x is 1 + y`` and
  ``x is (y)`` stay);
* :func:`not_in` (K11, E713, E714): ``not x in y`` and ``not (x in y)`` as ``x not in y``,
  ``is`` likewise; never in a chain (``not a in b in c``) nor where ``not`` negates less
  than the comparison (``not a and b in c``);
* :func:`compared_to_constant` (K13, E711, E712 with ``--unsafe-fixes``): ``x == None`` as
  ``x is None``; ``x == True`` as ``x``, ``x == False`` as ``not x``, and in a chain
  ``x < y == True`` as ``x < y is True``.
"""

from __future__ import annotations

from gentle_hooks.policy.linetokens import (
    CLOSE,
    COMPARISONS,
    ENDS,
    OPEN,
    STARTS,
    Tokens,
    closing,
    edit,
    has_top_level,
    is_fstring,
    line_tokens,
    operand_start,
    operand_stop,
    text,
)

#: What may follow a comparison's whole operand: its end, or the next operator of a chain.
_AFTER = ENDS | COMPARISONS


# -- K9: F632 ---------------------------------------------------------------------------

#: A tuple F632 reads as a literal holds only these (``(1, "a")``; ``(y)`` is no literal).
_LITERAL_KINDS = frozenset({"s", "n"})


def _literal_end(tokens: Tokens, i: int) -> int | None:
    """The index after the literal operand starting at token ``i`` (a number, adjacent
    strings that are no f-string, a list, set or dict display, a tuple of literals), or
    None when no literal starts there."""
    t = tokens[i] if i < len(tokens) else None
    if t is None:
        return None
    if t.lastgroup == "n":
        return i + 1
    if t.lastgroup == "s":
        j = i
        while j < len(tokens) and tokens[j].lastgroup == "s":
            if is_fstring(tokens[j]):
                return None
            j += 1
        return j
    close = closing(tokens, i) if t.group() in (b"[", b"{", b"(") else None
    if close is None:
        return None
    inside = tokens[i + 1 : close]
    if t.group() == b"(" and any(
        (m.lastgroup not in _LITERAL_KINDS and m.group() != b",") or is_fstring(m) for m in inside
    ):
        return None
    return close + 1


def _is_literal_before(tokens: Tokens, i: int) -> bool:
    """Whether the operand ending at token ``i`` is a literal: a number, adjacent strings
    that are no f-string, or a display or tuple of literals after where an operand starts
    (``(1, 2) is x``; never a subscript, ``a[0] is x``)."""
    if i < 0:
        return False
    j = i
    if tokens[i].group() in (b")", b"]", b"}"):
        opened = closing(tokens, i)
        if opened is None or _literal_end(tokens, opened) != i + 1:
            return False
        j = opened
    elif tokens[i].lastgroup not in _LITERAL_KINDS or is_fstring(tokens[i]):
        return False
    while tokens[i].lastgroup == "s" and j > 0 and tokens[j - 1].lastgroup == "s":
        j -= 1
        if is_fstring(tokens[j]):
            return False
    return j == 0 or text(tokens, j - 1) in STARTS


def equal_literals(line: bytes) -> bytes:
    """Row K9: ``is`` beside a literal read as ``==`` (``is not``: ``!=``)."""
    tokens = line_tokens(line)
    edits = []
    for i, t in enumerate(tokens):
        if t.group() != b"is" or text(tokens, i - 1) == b".":
            continue
        negated = text(tokens, i + 1) == b"not"
        k = i + 2 if negated else i + 1
        end = _literal_end(tokens, k)
        right = end is not None and (end >= len(tokens) or text(tokens, end) in _AFTER)
        if right or _is_literal_before(tokens, i - 1):
            op_end = tokens[k - 1].end()
            edits.append((t.start(), op_end, b" != " if negated else b" == "))
    return edit(line, edits)


# -- K11: E713, E714 ----------------------------------------------------------------------

#: What a ``not``'s operand never holds at its top level when it is one comparison.
_LOWER = frozenset({b"and", b"or", b"not", b"if", b"else", b"lambda", b",", b";", b"=", b":"})


def _comparison(tokens: Tokens, first: int) -> tuple[int, int] | None:
    """(the index of the one ``in`` or ``is`` operator of the comparison starting at
    ``first``, the index where it ends), or None when no such lone comparison starts there
    (another operator first, a chain, a ``not`` negating less). Stops at the second
    operator, so each ``not`` of a line costs as far as its own comparison only."""
    depth, op = 0, None
    for j in range(first, len(tokens)):
        t = tokens[j].group()
        if len(t) == 1 and t[0] in OPEN:
            depth += 1
        elif len(t) == 1 and t[0] in CLOSE:
            depth -= 1
            if depth < 0:
                return _found(tokens, op, j)
        elif depth == 0 and t in ENDS:
            return _found(tokens, op, j)
        elif depth == 0 and (t in COMPARISONS or t in _LOWER):
            if op is not None or t not in (b"in", b"is") or j == first:
                return None
            op = j
    return _found(tokens, op, len(tokens))


def _found(tokens: Tokens, op: int | None, end: int) -> tuple[int, int] | None:
    """(``op``, ``end``) when ``op`` is an operator with an operand after it, else None."""
    if op is None or text(tokens, op + 1) == b"not" or op + 1 >= end:
        return None
    return op, end


def not_in(line: bytes) -> bytes:
    """Row K11: ``not A in B`` and ``not (A in B)`` read as ``A not in B`` (``is``:
    ``A is not B``)."""
    tokens = line_tokens(line)
    edits = []
    for i, t in enumerate(tokens):
        if t.group() != b"not" or text(tokens, i - 1) in (b"is", b".", b"not"):
            continue
        first = i + 1
        if text(tokens, first) == b"(":
            close = closing(tokens, first)
            if close is None or operand_stop(tokens, close + 1) != close + 1:
                continue
            found = _comparison(tokens, first + 1)
            if found is None or found[1] != close:
                continue
            op, end = found
        else:
            close = None
            found = _comparison(tokens, first)
            if found is None:
                continue
            op, end = found
        o = tokens[op]
        a = line[tokens[first + (close is not None)].start() : tokens[op - 1].end()]
        b = line[tokens[op + 1].start() : tokens[end - 1].end()]
        negated = b" not in " if o.group() == b"in" else b" is not "
        stop = tokens[end].end() if close is not None else tokens[end - 1].end()
        edits.append((t.start(), stop, a + negated + b))
    return edit(line, edits)


# -- K13: E711, E712 ----------------------------------------------------------------------

_CONSTANTS = frozenset({b"None", b"True", b"False"})


#: The operators that make a comparison a chain before an operand (``not`` alone negates it).
_CHAIN = COMPARISONS - {b"not"}


def _constant(tokens: Tokens, i: int) -> bool:
    """Whether token ``i`` is ``None``, ``True`` or ``False`` as a whole operand."""
    return (
        text(tokens, i) in _CONSTANTS
        and text(tokens, i - 1) != b"."
        and text(tokens, i + 1) not in (b".", b"(", b"[")
    )


def compared_to_constant(line: bytes) -> bytes:
    """Row K13: ``== None`` read as ``is None`` (``!=``: ``is not``); ``A == True`` as
    ``A``, ``A == False`` as ``not A`` (``!=`` the other way round), and in a chain of
    comparisons ``is True`` (``is not``)."""
    tokens = line_tokens(line)
    edits = []
    for i, t in enumerate(tokens):
        op = t.group()
        if op not in (b"==", b"!="):
            continue
        right = _constant(tokens, i + 1) and (i + 2 >= len(tokens) or text(tokens, i + 2) in _AFTER)
        left = not right and _constant(tokens, i - 1) and (i < 2 or text(tokens, i - 2) in STARTS)
        if not (right or left):
            continue
        constant = text(tokens, i + 1 if right else i - 1)
        is_op = b" is " if op == b"==" else b" is not "
        if constant == b"None":
            edits.append((t.start(), t.end(), is_op))
            continue
        if right:
            first, last = operand_start(tokens, i - 1), i - 1
            chained = text(tokens, first - 1) in _CHAIN or text(tokens, i + 2) in COMPARISONS
        else:
            first, last = i + 1, operand_stop(tokens, i + 1) - 1
            chained = text(tokens, i - 2) in _CHAIN
        if first > last or chained or has_top_level(tokens, first, last + 1, COMPARISONS):
            edits.append((t.start(), t.end(), is_op))
            continue
        operand = line[tokens[first].start() : tokens[last].end()]
        negated = (op == b"==") != (constant == b"True")
        new = b"not " + operand if negated else operand
        span = (
            (tokens[first].start(), tokens[i + 1].end())
            if right
            else (tokens[i - 1].start(), tokens[last].end())
        )
        edits.append((*span, new))
    return edit(line, edits)
