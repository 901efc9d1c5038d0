"""A writer's line split by a formatter where no bracket is open, or its lines joined onto
one (SPEC §3 "Attribution follows content"): the writer's still.

Room ``policy`` (pure: bytes in, answers out). :func:`~gentle_hooks.policy.linekeys.
joined_lines` joins a statement wrapped inside brackets; a formatter also splits a line
where no bracket is open: ``ruff format``/black split ``if x: y`` after the ``:`` and
``a = 1; b = 2`` at the ``;``, and prettier joins a short member chain back onto one line.
So both sides are read in one *span form*: the lines stripped and concatenated, each read
in its key form (:func:`~gentle_hooks.policy.keyform.key_form`: every whitespace byte
removed, ``'`` read as ``"``, redundant brackets, string prefixes and number case read
away, adjacent literals joined), every ``;`` removed (a ``;`` between two
statements is the line break it replaced) and a comma before a closing bracket dropped
(a formatter's trailing comma):

* a writer's added line (or its wrapped statement joined) is a :data:`Span` of one line
  (a telling wrapped statement's also stands for its added physical lines: ``ruff format``
  splits ``if y: z = [1,`` / ``2]`` after the ``:`` and joins ``z = [1, 2]``, and each
  line the writer added stays its own, so row A2's count of them holds);
  a run of 2 to :data:`~gentle_hooks.policy.linekeys.MAX_JOINED` consecutive lines the
  writer added is a span of its lines where a formatter joins lines (a member chain's
  ``.next()``, after a compound statement's ``if x:``; never at a ``;``, which no
  formatter joins at) (:func:`writer_spans`);
* a change holds a span when 1 to ``MAX_JOINED`` consecutive non-blank lines of it have
  the span's form, other than one line for a one-line span (its key says that already):
  then it holds the writer keys the span stands for (:func:`spanned_keys`).

Only significant forms count: a one-line span is a line of the writer's delta (significant
ones), a run's lines must be telling together (``x = 1`` / ``y = 2`` or ``else:`` /
``return None`` make no span), so a human's lines reproduce a writer's this way only by
writing them, spacing and line breaks aside. A writer's runs are at most
:data:`MAX_SPAN_CHARS` long in span form, and a change's windows are hashed only where
their length is a span's: at most ``MAX_JOINED`` sums per line. Read only where writer
work is pending (the human pass path never gets here).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from gentle_hooks.policy.keyform import key_form
from gentle_hooks.policy.linekeys import (
    CONTENTS_KEPT,
    MAX_JOINED,
    code_part,
    joined_groups,
    may_have_code_part,
    stripped_key,
    trivial_row,
)
from gentle_hooks.values.digest import blake2b_hex
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: The longest span form a writer's run of lines is kept as: a formatter joins lines only
#: into one that fits its line width (80-120 characters, whitespace included).
MAX_SPAN_CHARS = 160
_TRAILING_COMMA = lazy_pattern(rb",(?=[)\]}])")
_CLOSERS = (b")", b"]", b"}")


#: One writer line, or a run of them, in span form (module docstring): (how many lines, the
#: form's length in bytes, 16 hex digits of BLAKE2b over it, the writer's keys it stands
#: for: a line's and its code part's, or a run's). A plain tuple: a large file the writer
#: created has thousands.
Span = tuple[int, int, str, tuple[str, ...]]


def span_form(stripped: bytes) -> bytes:
    """A stripped line's span form: its key form (:func:`~gentle_hooks.policy.keyform.
    key_form`: whitespace, quote style, redundant brackets... read away), ``;`` removed, a
    comma before a closing bracket dropped."""
    form = key_form(stripped).replace(b";", b"")
    return _TRAILING_COMMA.sub(b"", form) if form.find(b",") >= 0 else form


def span_forms(lines: Sequence[bytes]) -> list[bytes]:
    """The span forms of stripped non-blank lines in order (:func:`span_form`), a line's
    trailing comma dropped where the next one starts with a closing bracket (``retries=3,``
    before ``)``: a formatter's trailing comma), so consecutive forms concatenate as the
    form of the lines joined."""
    forms = [span_form(s) for s in lines]
    for i in range(len(forms) - 1):
        if forms[i].endswith(b",") and forms[i + 1][:1] in _CLOSERS:
            forms[i] = forms[i][:-1]
    return forms


def _span(lines: int, form: bytes, keys: tuple[str, ...]) -> Span:
    return (lines, len(form), blake2b_hex(form, 8), keys)


def writer_spans(
    after: bytes | None, added: Collection[str], any_before: Collection[str]
) -> frozenset[Span]:
    """The spans of a writer's content ``after``: one per line (or wrapped statement joined)
    whose key, or its code part's (:func:`~gentle_hooks.policy.linekeys.code_part`: a
    trailing comment or ``;`` left out), is in ``added``, standing for both keys (and, for a
    telling wrapped statement, for the keys in ``added`` of its physical lines), and one
    per run of 2 to ``MAX_JOINED`` consecutive non-blank lines whose keys are not in
    ``any_before`` (lines the writer added), each after the first continuing the one before
    (:func:`_continues`), some in ``added``, telling together
    (:func:`~gentle_hooks.policy.linekeys.trivial_row`: ``else:`` / ``return None`` is
    nobody's) and at most :data:`MAX_SPAN_CHARS` long in span form."""
    if not after or not added:
        return frozenset()
    lines = [s for line in after.splitlines() if (s := line.strip())]
    spans: set[Span] = set()
    for s, wrapped in [*((s, ()) for s in lines), *joined_groups(after)]:
        code = code_part(s) if may_have_code_part(s) else s  # a line, its code part: one
        own = tuple(dict.fromkeys(k for k in (stripped_key(s), stripped_key(code)) if k in added))
        if own and wrapped and trivial_row(s) is None:  # a telling statement: its lines too
            own += tuple(k for k in dict.fromkeys(map(stripped_key, wrapped)) if k in added)
        if own:
            spans.update(_span(1, span_form(part), own) for part in {s, code})
    keys = [stripped_key(s) for s in lines]
    # a run starts at a line the writer added and spans two lines at least: with none (an
    # edit of the file's last line alone) no line's span form is read
    starts = [i for i in range(len(lines) - 1) if keys[i] not in any_before]
    forms = span_forms(lines) if starts else []
    for i in starts:
        for j in range(i + 2, min(i + MAX_JOINED, len(lines)) + 1):
            form = b"".join(forms[i:j])
            if keys[j - 1] in any_before or len(form) > MAX_SPAN_CHARS:
                break
            if not _continues(forms[j - 2], forms[j - 1]):
                break
            run = tuple(keys[i:j])
            if any(k in added for k in run) and trivial_row(b" ".join(lines[i:j])) is None:
                spans.add(_span(j - i, form, run))
    return frozenset(spans)


def _continues(form: bytes, next_form: bytes) -> bool:
    """Whether a formatter may join a line onto the one before it where no bracket is open:
    a member chain goes on (``.map(f)``, ``?.name``) or a compound statement's header ends
    (``if x:``)."""
    return next_form.startswith((b".", b"?.")) or form.endswith(b":")


@lru_cache(maxsize=CONTENTS_KEPT)
def _lines(data: bytes) -> tuple[tuple[bytes, str], ...]:
    """(span form, key) of each non-blank line of ``data`` (kept: one change is read
    against every pending entry)."""
    lines = [s for line in data.splitlines() if (s := line.strip())]
    return tuple(zip(span_forms(lines), map(stripped_key, lines), strict=True))


def spanned_keys(spans: frozenset[Span], data: bytes | None) -> frozenset[str]:
    """The writer keys of the ``spans`` that ``data`` holds: 1 to ``MAX_JOINED``
    consecutive non-blank lines of it, none of them a line of a span as it is, whose span
    form is a span's; one line only for a span of several (module docstring). Empty when
    either is. A window is hashed only where its length is a span's."""
    if not spans or not data:
        return frozenset()
    one: dict[int, dict[str, tuple[str, ...]]] = {}  # spans a single line may hold
    any_: dict[int, dict[str, tuple[str, ...]]] = {}  # spans 2 or more lines may hold
    for count, length, digest, keys in spans:
        if count > 1:
            one.setdefault(length, {})[digest] = keys
        any_.setdefault(length, {})[digest] = keys
    own = {k for count, _, _, keys in spans if count == 1 for k in keys}
    longest = max(any_)
    lines = _lines(data)
    held: set[str] = set()
    for i in range(len(lines)):
        length = 0
        for j in range(i, min(i + MAX_JOINED, len(lines))):
            form, key = lines[j]
            length += len(form)
            if length > longest or key in own:  # a writer line as it is: held by its key
                break
            found = (any_ if j > i else one).get(length)
            if found:
                hashed = blake2b_hex(b"".join(f for f, _ in lines[i : j + 1]), 8)
                held.update(found.get(hashed, ()))
    return frozenset(held)
