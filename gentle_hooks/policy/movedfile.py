"""A file the writer wrote, moved or copied to another path with one line's strings or
numbers changed (SPEC §3 "Attribution follows content"; row A2 across paths of
:mod:`.across`).

Room ``policy`` (pure: bytes in, answers out). A small writer file (``import
subprocess``, ``def deploy():``, one ``subprocess.run("curl https://... | sh",
shell=True)``, ``return 0``) moved (``git mv deploy.py ship.py``, or ``mv`` of a file never
committed) with the URL edited no longer holds the writer's one line that counts alone
(row X2 of :mod:`.across`), its lines left are lines anyone types and one definition apart
from them (rows C1-C5 of :mod:`.coincidence` count none), and no rename is read (git's
pairing, :mod:`.renames`, compares what ``HEAD`` held, never the writer's content): every
other rule of another path reads it as nobody's. Yet the new path holds the writer's file
line for line. Its non-blank lines (stripped), in order, read against the writer's
content, count by the first row that matches (:func:`moved_file_row`):

=====  ==========================================================================  =======
row    the change's new side, line by line against the writer's file               counts
=====  ==========================================================================  =======
F1     the writer's file unknown (binary, more than :data:`MAX_LINES` lines, an     no
       entry read from its stored keys only), fewer than :data:`MIN_LINES`
       non-blank lines, or a new side of another number of them (a line of one's
       own added or one removed: :mod:`.coincidence` and :mod:`.wholefile` say
       what such a file holds)
F2     two lines or more that differ (a person's own file of the writer's layout:   no
       ``def build():`` over ``subprocess.run("make", shell=True)``)
F3     the one line that differs is other code than the writer's line, its          no
       strings and numbers aside (another name, call, keyword or operator)
F4     fewer than :data:`MIN_KEPT` of the writer's own lines alike besides it, or    no
       every one of them a line anyone types (a row of
       :data:`~gentle_hooks.policy.boilerplate.BOILERPLATE_ROWS`: ``import
       subprocess``, ``def main():``, ``return 0``, ``main()``) and the line
       edited keeps less of the writer's literals than half their words, two of
       them, one a word of :data:`MIN_WORD` characters that is no option
       (:func:`keeps_literal`: ``"make"`` for ``"curl https://... | sh"``)
F5     the change introduces none of those lines (an earlier commit brought them)   no
F6     anything else: the writer's file, at most one line's literals changed        yes
=====  ==========================================================================  =======

Row F4 is what keeps a person's own small file theirs: with the writer's ``import
subprocess`` / ``def main():`` / ``subprocess.run("curl x | sh", shell=True)`` /
``main()`` pending, a person's file of those very lines running ``make`` is a file anyone
writes, while ``def deploy():`` kept over the edited call is the writer's function moved,
and so is ``curl`` kept with ``| sh`` around another URL. The price: a writer file whose
lines besides the edited one are all lines anyone types, its literal rewritten for the
most part, is not told from a person's file of its shape (as one writer line with its
literals edited is not, :mod:`.literals`).

Linear in the lines of the two files: one pass, one key per line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from functools import lru_cache

from gentle_hooks.policy.linekeys import CONTENTS_KEPT, stripped_key
from gentle_hooks.values.lazy_pattern import lazy_pattern

#: The non-blank lines a writer file needs for its move to be read line by line (row F1):
#: two lines are one line and an import, anybody's.
MIN_LINES = 3
#: The writer's own lines (keys of its added lines) alike besides the edited one (row F4).
MIN_KEPT = 2
#: The non-blank lines of the largest writer file read line by line (row F1): a larger
#: file moved with one line edited holds two writer lines copied as a block
#: (:mod:`.coincidence`), or pairs as a rename.
MAX_LINES = 400

#: The characters of a literal word kept that says the edited line is the writer's (row
#: F4): a command or a host, not an option or a two-letter command.
MIN_WORD = 4

_STRING = lazy_pattern(rb'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`')
_LITERAL = lazy_pattern(
    rb'"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|`[^`]*`?|(?<![\w.])\d[\w.]*|\s+'
)


def code_around_literals(stripped: bytes) -> bytes:
    """A stripped line with each string literal read as ``""``, each number as ``0`` and
    whitespace removed: two lines alike here differ in their strings and numbers only."""
    return _LITERAL.sub(_blank, stripped)


def _blank(m: re.Match[bytes]) -> bytes:
    first = m.group()[:1]
    if first.isspace():
        return b""
    return b"0" if first.isdigit() else b'""'


def literal_words(stripped: bytes) -> list[bytes]:
    """The words (split at whitespace) of a stripped line's string literals, in order."""
    return [w for m in _STRING.finditer(stripped) for w in m.group()[1:-1].split()]


def keeps_literal(writer: bytes, edited: bytes) -> bool:
    """Whether ``edited`` keeps the writer's line's literals for the most part (row F4):
    half their words at least, :data:`MIN_KEPT` at least, one of them of
    :data:`MIN_WORD` characters or more and no option (``curl`` of ``"curl -fsSL
    https://... | sh"`` with its URL changed; not ``rm -rf`` of ``"rm -rf dist"``)."""
    words = literal_words(writer)
    there = set(literal_words(edited))
    kept = [w for w in words if w in there]
    return (
        len(kept) >= MIN_KEPT
        and 2 * len(kept) >= len(words)
        and any(len(w) >= MIN_WORD and not w.startswith(b"-") for w in kept)
    )


def file_lines(content: bytes | None) -> tuple[bytes, ...]:
    """The non-blank lines of a writer's content, stripped, in order; ``()`` for none, or
    for more than :data:`MAX_LINES` of them (row F1). The last answers are kept
    (:data:`~gentle_hooks.policy.linekeys.CONTENTS_KEPT`): a change's new side is read
    against every entry it may carry."""
    return _file_lines(content) if content else ()


@lru_cache(maxsize=CONTENTS_KEPT)
def _file_lines(content: bytes) -> tuple[bytes, ...]:
    lines = tuple(s for line in content.splitlines() if (s := line.strip()))
    return lines if len(lines) <= MAX_LINES else ()


def moved_file_row(
    writer: tuple[bytes, ...],
    added: Set[str],
    new: bytes | None,
    introduced: Sequence[tuple[str, bool]],
) -> str:
    """The row (F1-F6 of the module table) of a change's new side against a writer's file.

    Args:
        writer: the writer's file (:func:`file_lines`); added: keys of the significant lines
            the writer added (:class:`~gentle_hooks.policy.delta.WriterDelta`);
        new: the change's new side at another path;
        introduced: (key, is boilerplate) of each line that side introduces (not on its
            old side).
    """
    from gentle_hooks.policy.boilerplate import boilerplate_row

    lines = file_lines(new)
    if len(writer) < MIN_LINES or len(lines) != len(writer):
        return "F1"
    differ = _differing(writer, lines)
    if len(differ) > 1:
        return "F2"
    if differ and code_around_literals(writer[differ[0]]) != code_around_literals(lines[differ[0]]):
        return "F3"
    kept = [s for i, s in enumerate(writer) if i not in differ and stripped_key(s) in added]
    own = any(boilerplate_row(s) is None for s in kept)
    if not own and differ:  # only lines anyone types kept: the edited line must say it
        own = keeps_literal(writer[differ[0]], lines[differ[0]])
    if len(kept) < MIN_KEPT or not own:
        return "F4"
    if not introduced:
        return "F5"
    return "F6"


def _differing(writer: tuple[bytes, ...], lines: tuple[bytes, ...]) -> list[int]:
    """The positions where ``lines`` holds another line than ``writer`` (by key: a
    formatter's re-spacing is the same line), up to the second one: a second is row F2
    whatever follows, so the rest is not keyed."""
    differ: list[int] = []
    if writer == lines:
        return differ
    for i, (a, b) in enumerate(zip(writer, lines, strict=True)):
        if a != b and stripped_key(a) != stripped_key(b):
            differ.append(i)
            if len(differ) > 1:
                break
    return differ
