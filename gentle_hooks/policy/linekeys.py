"""What one line of text says about who wrote it (SPEC §3 "Attribution follows content"):
its key, whether it is significant or *trivial*, and its joined form.

Room ``policy`` (pure: bytes in, answers out). :mod:`gentle_hooks.policy.attribution`
decides with these; only digests of lines leave this module, never their text.

* A line's *key* (:func:`line_key`) is 16 hex digits of BLAKE2b over the line as a
  formatter cannot change it (:func:`~gentle_hooks.policy.keyform.key_form`): whitespace,
  quote style, redundant brackets, string prefixes, adjacent literals and number case read
  away.
* A line is *significant* when it has at least :data:`MIN_WORD_CHARS` word characters and
  is not one word of at most :data:`MAX_COMMON_WORD` (``continue``, ``finally:``).
* A line is an *action* when it calls something or runs a command (:func:`is_action`):
  an identifier that is not a common word followed by ``(`` and not being defined there
  (``f(x)``, ``run()``, ``os.rm(p)``; not ``def f():``, ``if (x)``, ``super()``), or a
  shell command: a word of :data:`SHELL_COMMANDS` followed by nothing or by arguments
  (``rm -rf /``, ``sh x``, ``exec "$@"``; not the assignment ``rm = 1``), or any word
  followed by an option (``ls -la``).
* A line is *trivial* when a human writes it the same way on their own: it never says who
  wrote it alone (:data:`TRIVIAL_ROWS`, :func:`trivial_row`). A line that is not trivial
  is *telling*: one of them, taken alone from the writer's lines (``git add -p``), is the
  writer's content (row A2 of the attribution table). An action is telling however short:
  a lone ``rm -rf /`` a writer added says who wrote it as much as a long line does.

=====  ======================================================================  ===========
row    the line (surrounding whitespace stripped)                              e.g.
=====  ======================================================================  ===========
L1     blank                                                                   ``""``
L2     no letter, digit or underscore: punctuation and brackets                ``});``
L3     not significant: fewer than :data:`MIN_WORD_CHARS` word characters, or  ``pass``,
       one word of at most :data:`MAX_COMMON_WORD`; and not an action          ``x = 0``
       (never ``f(x)``, ``rm -rf /``)
L4     every word a keyword, a constant or a number (:data:`COMMON_WORDS`)     ``return None``
L5     an import or include of a module                                        ``import os``
L6     one plain name (a lowercase word of at most :data:`MAX_COMMON_WORD`      ``return
       letters) among keywords, numbers and operators; no string, call or       result``
       definition
=====  ======================================================================  ===========

Row L6 holds the lines every function body has (``return result``, ``result = 0``,
``count += 1``): a human writing their own function shares them with the writer's by
chance. A compound name (``important_value = 1``), a string or a call keeps a line
telling.

Two more readings keep a mechanical edit of the writer's lines from making them anonymous:

* a line with a trailing comment or ``;`` (``  # noqa: S605``, ``// eslint-disable-line``)
  is also keyed as its code alone (:func:`code_part`), so a linter's suppression appended
  to the writer's line keeps its key, and one removed from it too;
* a statement wrapped over several physical lines (more opening than closing brackets, or a
  trailing backslash; until they close, at most :data:`MAX_JOINED_CHARS` long) is also keyed
  as its lines joined,
  a formatter's trailing comma before a closing bracket dropped (:func:`joined_lines`), so
  wrapping or unwrapping a line keeps its key.

A line's token shape, which tells a mechanical rename, is :mod:`gentle_hooks.policy.shapes`'s.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import accumulate

from gentle_hooks.policy.importpairs import import_pairs
from gentle_hooks.policy.keyform import TOKEN, key_form
from gentle_hooks.values.digest import blake2b_hex
from gentle_hooks.values.frozen import frozen
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: Letters, digits or underscores a line needs to say who wrote it...
MIN_WORD_CHARS = 5
#: ...and a line of one word needs more than this many (``continue``, ``finally:`` and
#: ``return`` are everybody's).
MAX_COMMON_WORD = 8
_WORD = re.compile(rb"\w+")

#: Words every program writes the same way: keywords of common languages, their
#: constants and conventional names (row L4: a line of only these is trivial).
COMMON_WORDS = frozenset(
    b"""
    False None True and as assert async await break case catch class cls const continue
    def default del do elif else end err error except Exception export extends fi final
    finally fn for from func function global go if impl import in is lambda let loop match
    mut new nil nonlocal not null or pass pub raise rescue return self static struct super
    switch then this throw true false try typeof undefined unless until var void while with
    yield __init__ __main__ __name__
    """.split()
)
_NUMBER = re.compile(rb"\d\w*")
_IMPORT = re.compile(
    rb"(?:import\s|from\s+\S+\s+import\s|#\s*include\s|use\s|using\s|require[\s(]"
    rb"|package\s|extern\s+crate\s)"
)


#: Commands that run, fetch, remove or rewrite something: a line starting with one,
#: alone or with arguments, is an action (:func:`is_action`).
SHELL_COMMANDS = frozenset(
    b"""
    bash chgrp chmod chown cp crontab curl dash dd doas eval exec halt kill killall ln mkfs
    mv nc ncat pkill poweroff reboot rm rmdir rsync scp sh shred shutdown source ssh su sudo
    truncate wget xargs zsh
    """.split()
)


@cache
def _action_patterns() -> tuple[re.Pattern[bytes], ...]:
    """(a call: an identifier followed by ``(``, with the definition keyword before it, if
    any; what may follow a command word when the line is an assignment or a comparison
    instead; an option; a command word), compiled on first use."""
    return (
        re.compile(
            rb"(?<!\w)(?:(def|fn|func|function|class|struct|sub|macro)\s+)?([A-Za-z_]\w*)\s*\("
        ),
        re.compile(rb"[-+*/%&|^<>!:.=]?=|[=:]"),
        re.compile(rb"--?[A-Za-z]"),
        re.compile(rb"[A-Za-z_][\w.+-]*"),
    )


def is_action(stripped: bytes) -> bool:
    """Whether a stripped line calls something or runs a command (module docstring):
    a call of an identifier that is not a common word (:data:`COMMON_WORDS`) and not a
    definition, a command of :data:`SHELL_COMMANDS` with or without arguments, or a
    word followed by an option. Linear in the line's length (a call is looked for from
    the start of each word only)."""
    call, not_argument, option, command_word = _action_patterns()
    for defined, name in call.findall(stripped):
        if not defined and name not in COMMON_WORDS:
            return True
    words = stripped.split(None, 2)
    if not words or not command_word.fullmatch(words[0]) or words[0] in COMMON_WORDS:
        return False
    if len(words) == 1:
        return words[0] in SHELL_COMMANDS
    if not_argument.match(words[1]):
        return False
    return words[0] in SHELL_COMMANDS or bool(option.match(words[1]))


#: Distinct stripped lines whose key, significance and trivial row are kept: one write's
#: delta reads the same lines for several kinds of key (before and after; significant,
#: any, telling, short), each answer a pure function of the line.
LINES_KEPT = 4096


@lru_cache(maxsize=LINES_KEPT)
def stripped_key(stripped: bytes) -> str:
    """16 hex digits of BLAKE2b over the line as a formatter cannot change it
    (:func:`~gentle_hooks.policy.keyform.key_form`)."""
    return blake2b_hex(key_form(stripped), 8)


@lru_cache(maxsize=LINES_KEPT)
def is_significant(stripped: bytes) -> bool:
    """Whether a stripped line has enough word characters to say who wrote it."""
    words = _WORD.findall(stripped)
    if sum(len(w) for w in words) < MIN_WORD_CHARS:
        return False
    return not (len(words) == 1 and len(words[0]) <= MAX_COMMON_WORD)


def line_key(line: bytes) -> str | None:
    """The key of one line, or None when it is not significant.

    The key is 16 hex digits of BLAKE2b over the line's
    :func:`~gentle_hooks.policy.keyform.key_form` (a formatter re-spacing, re-quoting or
    re-bracketing the writer's lines leaves their keys as they were): enough to tell lines
    apart within one file, and nothing of the line's text is stored.
    """
    stripped = line.strip()
    return stripped_key(stripped) if is_significant(stripped) else None


#: The tokens :func:`code_part` reads: a quoted string (unterminated: to the line's end), a
#: comment's start after whitespace, a run of other bytes, one whitespace byte.
_CODE_TOKEN = lazy_pattern(
    rb'"(?:[^"\\]|\\.)*"?|\'(?:[^\'\\]|\\.)*\'?|`[^`]*`?|\s(?:#|//)|[^"\'`\s]+|\s'
)


@lru_cache(maxsize=LINES_KEPT)
def code_part(stripped: bytes) -> bytes:
    """A stripped line without what a linter or a tidy-up appends to it: a trailing comment
    (``#`` or ``//`` after whitespace, outside quotes: ``  # noqa: S605``, ``// eslint-
    disable-line``) and trailing ``;`` and whitespace. The line itself when it has none; a
    line that is only a comment is kept whole. One regular-expression pass over its tokens."""
    if stripped.startswith((b"#", b"//")):  # only a comment: kept whole
        return stripped
    if stripped.find(b"#") >= 0 or stripped.find(b"//") >= 0:  # most lines: no token scan
        for m in _CODE_TOKEN.finditer(stripped):
            if len(m.group()) > 1 and m.group()[:1].isspace():  # whitespace, then # or //
                stripped = stripped[: m.start()]
                break
    return stripped.rstrip(b"; \t")


def may_have_code_part(stripped: bytes) -> bool:
    """Whether :func:`code_part` of a stripped line may differ from the line: only a line
    holding ``#`` or ``//``, or ending with ``;``, can (a stripped line ends with no
    whitespace). False for most lines, which then skip :func:`code_part` altogether."""
    return stripped.find(b"#") >= 0 or stripped.find(b"//") >= 0 or stripped.endswith(b";")


#: The first bytes of a stripped line :func:`_keys` reads as an import of names (``import``,
#: ``from``; a blank line too, as ``b"" in b"if"`` read it). A set, not ``in b"if"``: on
#: bytes, CPython's ``in`` first tries its operand as an integer and formats the TypeError
#: it catches, which costs more than the search; this module and
#: :mod:`~gentle_hooks.policy.keyform` test for a byte string with ``find`` for that reason.
_MAY_IMPORT = frozenset({b"", b"i", b"f"})


#: Contents whose keys :func:`line_keys`, :func:`any_line_keys` and :func:`joined_lines`
#: keep: one change is read against every entry it may carry (each side's keys once, not
#: once per entry), and one entry's blobs by each rule that reads them. Answers are
#: frozen, so a kept one is the same value a fresh reading gives.
CONTENTS_KEPT = 64


def line_keys(data: bytes | None) -> frozenset[str]:
    """The keys of every significant line of ``data``, of its code without a trailing
    comment or ``;`` (:func:`code_part`), and of every significant wrapped statement joined
    (:func:`joined_keys`) (empty for None: no file). The last answers are kept
    (:data:`CONTENTS_KEPT`)."""
    return _keys(data)[0] if data else frozenset()


def any_line_keys(data: bytes | None) -> frozenset[str]:
    """The keys of every non-blank line of ``data``, significant or not, and of its
    significant wrapped statements joined (empty for None).

    A superset of :func:`line_keys` with the same key for a significant line, so a change's
    lines matched against a delta of significant keys answer exactly as with
    :func:`line_keys`. The last answers are kept (:data:`CONTENTS_KEPT`).
    """
    return _keys(data)[1] if data else frozenset()


@lru_cache(maxsize=CONTENTS_KEPT)
def _keys(data: bytes) -> tuple[frozenset[str], frozenset[str]]:
    """(:func:`line_keys`, :func:`any_line_keys`) of non-empty ``data``, in one pass over
    its lines (a delta and a change read both of each side): the key of each non-blank
    line, of its code part (:func:`code_part`) when that differs and is not blank (so a
    comment or ``;`` appended to the writer's line keeps a key of it), and of its
    significant wrapped statements joined; the first only those that are significant
    (:func:`is_significant`). An import line of names is keyed as the one-name imports it
    means, not as itself (:func:`~gentle_hooks.policy.importpairs.import_pairs`: a sorter
    splits and merges them), so ``import os, evil`` is ``import os`` and ``import evil``."""
    significant: set[str] = set()
    every: set[str] = set()

    def add(stripped: bytes) -> None:
        key = stripped_key(stripped)
        every.add(key)
        if is_significant(stripped):
            significant.add(key)

    for line in data.splitlines():
        stripped = line.strip()
        pairs = import_pairs(stripped) if stripped[:1] in _MAY_IMPORT else ()
        if pairs:  # an import of names: the lines a sorter splits or merges it into
            for pair in pairs:
                add(pair)
        elif stripped:
            add(stripped)
        if may_have_code_part(stripped):  # never a blank line
            code = code_part(stripped)
            if code and code != stripped:
                add(code)
    joined = joined_keys(data)
    return frozenset(significant) | joined, frozenset(every) | joined


def short_keys(data: bytes | None, without: frozenset[str] = frozenset()) -> frozenset[str]:
    """The keys of the *short* lines of ``data``: not significant (:func:`line_key`), yet
    of two words or more (``rm -rf /``, ``x = 0``; never a lone keyword or a brace).
    ``without``: keys left out, never classified (the same as subtracting them after)."""
    if not data:
        return frozenset()
    return frozenset(
        key
        for line in data.splitlines()
        if (stripped := line.strip())
        and (key := stripped_key(stripped)) not in without
        and not is_significant(stripped)
        and len(_WORD.findall(stripped)) >= 2
    )


@frozen
class LineRow:
    """One row of a table of kinds of line (:data:`TRIVIAL_ROWS`,
    :data:`gentle_hooks.policy.boilerplate.BOILERPLATE_ROWS`).

    Attributes:
        id: stable row id (``L1``, ``B1``...); text: the row in words;
        matches: whether a stripped line is of this row.
    """

    id: str
    text: str
    matches: Callable[[bytes], bool]


def first_row(rows: tuple[LineRow, ...], stripped: bytes) -> str | None:
    """The id of the first of ``rows`` the stripped line is of, or None."""
    return next((r.id for r in rows if r.matches(stripped)), None)


def _common_only(stripped: bytes) -> bool:
    words = _WORD.findall(stripped)
    return bool(words) and all(w in COMMON_WORDS or _NUMBER.fullmatch(w) for w in words)


_PLAIN_NAME = lazy_pattern(rb"[a-z]{1,%d}" % MAX_COMMON_WORD)
_QUOTES = re.compile(rb"[\"'`]")
#: A definition's line: the idiom rows of :mod:`.boilerplate` read it (``def main():``).
_DEFINES = re.compile(rb"(?:async\s+)?(?:def|fn|func|function|class|struct)\s")


def _one_plain_name(stripped: bytes) -> bool:
    """Row L6: no string literal, no call or command, no definition, and one name other
    than the common words and numbers, a plain lowercase word (``return result``,
    ``result = 0``)."""
    if _QUOTES.search(stripped) or is_action(stripped) or _DEFINES.match(stripped):
        return False
    names = {
        w for w in _WORD.findall(stripped) if w not in COMMON_WORDS and not _NUMBER.fullmatch(w)
    }
    return len(names) == 1 and bool(_PLAIN_NAME.fullmatch(next(iter(names))))


#: Lines a human writes the same way on their own: never the writer's alone (module table).
TRIVIAL_ROWS: tuple[LineRow, ...] = (
    LineRow("L1", "blank", lambda s: not s),
    LineRow("L2", "punctuation and brackets only", lambda s: not _WORD.search(s)),
    LineRow(
        "L3",
        "not significant (too few word characters) and not an action",
        lambda s: not is_significant(s) and not is_action(s),
    ),
    LineRow("L4", "only keywords, constants and numbers", _common_only),
    LineRow("L5", "an import or include of a module", lambda s: bool(_IMPORT.match(s))),
    LineRow("L6", "one plain name among keywords, numbers and operators", _one_plain_name),
)


def trivial_row(line: bytes) -> str | None:
    """The id of the first row of :data:`TRIVIAL_ROWS` the line (stripped here) is of, or
    None when the line is telling."""
    return _trivial_row(line.strip())


@lru_cache(maxsize=LINES_KEPT)
def _trivial_row(stripped: bytes) -> str | None:
    return first_row(TRIVIAL_ROWS, stripped)


def header_keys(data: bytes | None) -> frozenset[str]:
    """The keys of the lines of ``data`` that only name a definition (``def deploy(target):``,
    ``class Job(Base):``): a definition line with no string literal and no default value.
    Two people implementing the same function write the same header, so in another
    worktree than the writer's it never says who wrote the body (row A2 there)."""
    if not data:
        return frozenset()
    lines = (line.strip() for line in data.splitlines())
    return frozenset(
        stripped_key(s)
        for s in lines
        if _DEFINES.match(s) and not _QUOTES.search(s) and s.find(b"=") < 0
    )


def telling_keys(data: bytes | None, without: frozenset[str] = frozenset()) -> frozenset[str]:
    """The keys of the *telling* lines of ``data``, and of its wrapped statements joined:
    significant and not trivial (:func:`trivial_row`). ``without``: keys left out, never
    classified (a delta classifies only the lines it changed: the same as subtracting)."""
    if not data:
        return frozenset()
    lines = [*(line.strip() for line in data.splitlines()), *joined_lines(data)]
    return frozenset(
        key
        for s in lines
        if s and (key := stripped_key(s)) not in without and trivial_row(s) is None
    )


# -- wrapped statements ----------------------------------------------------------------

#: Consecutive lines a run of a writer's lines joined where no bracket is open may span
#: (:mod:`gentle_hooks.policy.spans`); a statement wrapped inside brackets is not bounded by
#: lines (:data:`MAX_JOINED_CHARS`).
MAX_JOINED = 12
#: The longest a wrapped statement joined may be, in bytes of its stripped lines: a formatter
#: puts one item per line however many there are (a call of 60 keyword arguments, a list or
#: dict literal), so a statement is joined until its brackets close, bounded by its length,
#: never by its lines; a longer bracketed run is a table or a data literal, no line's.
MAX_JOINED_CHARS = 4096
#: Wrapped statements open at once that are followed, the innermost kept: one line is in at
#: most this many statements joined, so joining costs at most this many times the content.
MAX_NESTED = 8
_OPENING, _CLOSING = frozenset(b"([{"), frozenset(b")]}")
#: Every byte but a bracket: deleted, a line leaves its brackets alone.
_NOT_BRACKETS = bytes(sorted(set(range(256)) - _OPENING - _CLOSING))


def _depth(stripped: bytes) -> int:
    """Opening minus closing brackets of a stripped line, outside string literals."""
    if stripped.find(b'"') < 0 and stripped.find(b"'") < 0:  # the common case, without tokens
        brackets = stripped.translate(None, _NOT_BRACKETS)  # two passes in C, not six counts
        return 2 * len(brackets.translate(None, b")]}")) - len(brackets)
    depth = 0
    for token in TOKEN.findall(stripped):
        if len(token) == 1:
            depth += (token[0] in _OPENING) - (token[0] in _CLOSING)
    return depth


def joined_lines(data: bytes | None) -> list[bytes]:
    """The statements of ``data`` wrapped over several lines, each joined into one: a line
    with more opening than closing brackets (outside string literals), or ending with a
    backslash, goes on until its brackets close (the depth before it is back), however many
    lines that takes, as long as the statement joined is at most :data:`MAX_JOINED_CHARS`
    long. A statement wrapped inside another is joined too (the innermost
    :data:`MAX_NESTED` open at once), so the writer's call split one argument per line
    inside a long literal is still read as the line it was. A comma right before a closing
    bracket (a formatter's trailing comma) is dropped, so ``f(\\n    a,\\n)`` joins as
    ``f(a)``, the line it was wrapped from; a one-line statement with such a comma is read
    without it too (black's magic trailing comma spreads it one item per line, and the
    statement joined drops it). Linear in the size of ``data``.

    The last answers are kept (:data:`CONTENTS_KEPT`): one write's delta reads the same
    contents' joined statements for several kinds of key."""
    return [j for j, _ in _joined(data)] if data else []


def joined_groups(data: bytes | None) -> list[tuple[bytes, tuple[bytes, ...]]]:
    """(statement joined, its stripped physical lines) of each of :func:`joined_lines`."""
    return list(_joined(data)) if data else []


@lru_cache(maxsize=CONTENTS_KEPT)
def _joined(data: bytes) -> tuple[tuple[bytes, tuple[bytes, ...]], ...]:
    lines = [s for line in data.splitlines() if (s := line.strip())]
    offsets = [0, *accumulate(len(s) + 1 for s in lines)]  # a line's start when all joined
    out: list[tuple[bytes, tuple[bytes, ...]]] = []
    opened: deque[tuple[int, int]] = deque()  # (first line, depth it closes at): outermost first
    depth = 0
    for i, stripped in enumerate(lines):
        if stripped.find(b",") >= 0 and TRAILING_COMMA.search(stripped):  # a magic comma
            out.append((TRAILING_COMMA.sub(b"", stripped), (stripped,)))
        before, depth = depth, depth + _depth(stripped)
        backslash = stripped.endswith(b"\\")
        while opened and depth <= opened[-1][1] and not backslash:  # its brackets closed
            first = opened.pop()[0]
            if first < i:
                group = lines[first : i + 1]
                joined = b" ".join(s.removesuffix(b"\\") for s in group)
                out.append((TRAILING_COMMA.sub(b"", joined), tuple(group)))
        depth = max(depth, 0)  # more closing than opening: none of them opened here
        if depth > before:
            opened.append((i, before))
        elif backslash and (not opened or opened[-1][1] < depth):
            opened.append((i, depth))
        while opened and (
            len(opened) > MAX_NESTED or offsets[i + 1] - offsets[opened[0][0]] > MAX_JOINED_CHARS
        ):
            opened.popleft()  # a table or a data literal: too long to be anybody's line
    return tuple(out)


#: A formatter's trailing comma: a comma before a closing bracket.
TRAILING_COMMA = re.compile(rb",\s*(?=[)\]}])")


def joined_keys(data: bytes | None) -> frozenset[str]:
    """The keys of the significant wrapped statements of ``data``, joined
    (:func:`joined_lines`)."""
    return frozenset(stripped_key(j) for j in joined_lines(data) if is_significant(j))
