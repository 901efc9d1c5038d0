"""A writer's block copied to another path with its names consistently renamed (SPEC §3
"Attribution follows content"; rows C6-C9 of :mod:`.coincidence`).

Room ``policy`` (pure: bytes in, answers out). A line's *copy form* (:func:`copy_form`) is
its tokens with each *name* read as one placeholder: an identifier that is no common word
(:data:`~gentle_hooks.policy.linekeys.COMMON_WORDS`) and no attribute (the word after a
``.``: ``os.system``'s ``system`` is kept). Literals, numbers, keywords, operators and
attribute names are kept as written (quotes read as ``"``), and so are an import's names
(one with a name renamed imports another): two lines of one form differ in their names
only.

The writer's side (:func:`writer_copy_lines`) is its content cut into *runs*: consecutive
non-blank lines that are all the writer's (a line it added, or one too short to be keyed:
``else:``, ``}``), each line with its form, its names and where it sits. Only runs holding
a line whose string literals are content (row D2 of :mod:`.distinctive`) as a URL, a shell
command or a phrase in one literal (:func:`~gentle_hooks.policy.distinctive.literal_phrase`:
``"release bucket for staging"``; option names side by side, ``"--verbose",
action="store_true"``, are anyone's) are kept: a renamed copy counts only with one (rows
C6-C9 of :mod:`.coincidence`).

A change's new side holds a writer *block renamed* (:func:`renamed_keys`) where consecutive
non-blank lines of it have, line by line, the forms of consecutive lines of one writer run,
and the names of the whole block map one to one onto the writer's (each writer name always
to the same new name, no two to one) with one name renamed at least. A block of two of the
writer's significant lines, one of them with literals of content, counts whole (row C6);
one writer line whose literals hold a URL or a shell command (rows X2, X3 of
:mod:`.across`) counts alone renamed too (row C7). A block with no literal of content
(``for k in range(n):`` under ``count += k``; ``host = sys.argv[1]`` alone) has nothing of
the writer's but its structure, which anyone types (row C8); a line of another form (other
strings or numbers, another attribute called) is another line (row C9). A process call with
names of its own (``subprocess.run(command, shell=True)``, row X5) never counts renamed
alone: its names are all it has. Names inside an f-string are its literal: renamed there,
the literal differs.

Linear per line: one token pass per line, each line compared with at most
:data:`MAX_PLACES` writer lines of its form and extending at most :data:`MAX_LIVE` blocks.
"""

from __future__ import annotations

import re
from collections.abc import Set

from gentle_hooks.policy.keyform import TOKEN
from gentle_hooks.policy.linekeys import (
    COMMON_WORDS,
    TRAILING_COMMA,
    is_significant,
    stripped_key,
)
from gentle_hooks.values.frozen import frozen

_IDENT = re.compile(rb"[A-Za-z_]\w*")
_IMPORT = re.compile(rb"(?:import|from)\s")
#: What a name reads as in a line's copy form.
_NAME = b"\x01"
#: Writer lines of one form a line is compared with (the first in the writer's order).
MAX_PLACES = 8
#: Blocks followed at once through a change's new side.
MAX_LIVE = 16
#: The writer's significant lines a renamed block needs (row C6).
MIN_BLOCK = 2
#: What a line's literals hold (:func:`~gentle_hooks.policy.distinctive.literal_kind`) for
#: it to count renamed alone (row C7: rows X2, X3 of :mod:`.across`).
_ALONE = ("url", "command")


@frozen
class CopyLine:
    """One line of a writer run, as a renamed copy is matched against it.

    Attributes:
        key: its key where it counts (a significant line the writer added, of no
            boilerplate row), else ``""``;
        form: its copy form (:func:`copy_form`); names: its names in order (in memory
            only: never stored);
        run / at: which run of the writer's content, and where in it;
        content: its string literals are content (row D2 of :mod:`.distinctive`) as a
            URL, a shell command or a phrase;
        alone: they hold a URL or a shell command (rows X2, X3 of :mod:`.across`).
    """

    key: str
    form: bytes
    names: tuple[bytes, ...]
    run: int
    at: int
    content: bool
    alone: bool


def copy_form(stripped: bytes) -> tuple[bytes, tuple[bytes, ...]]:
    """(form, names) of a stripped line: its tokens, each name (an identifier of no common
    word, not after a ``.``) read as one placeholder, an import's read as written; quotes
    as ``"``, a trailing comma before a closing bracket dropped."""
    parts: list[bytes] = []
    names: list[bytes] = []
    previous = b""
    kept = bool(_IMPORT.match(stripped))  # an import with a name renamed imports another
    for token in TOKEN.findall(TRAILING_COMMA.sub(b"", stripped)):
        if kept or previous == b".":
            parts.append(token.replace(b"'", b'"'))
        elif _IDENT.fullmatch(token) and token not in COMMON_WORDS:
            parts.append(_NAME)
            names.append(token)
        else:
            parts.append(token.replace(b"'", b'"'))
        previous = token
    return b"\x00".join(parts), tuple(names)


def copy_anchor(form: bytes) -> bytes:
    """The longest piece of a copy form's string literals between quotes: bytes any line of
    that form holds as written (its quotes aside), so a change's new side that lacks it
    holds no renamed copy of the line (one substring search finds the candidates)."""
    pieces = [
        piece for part in form.split(b"\x00") if part[:1] == b'"' for piece in part.split(b'"')
    ]
    return max(pieces, key=len, default=b"")


def writer_copy_lines(after: bytes | None, added: Set[str]) -> tuple[CopyLine, ...]:
    """The lines of the writer's runs in ``after`` (its content; ``added``: the keys of the
    significant lines it added) that hold a line of literal content (a URL, a shell command
    or a phrase: row D2), in order."""
    if not after or not added:
        return ()
    from gentle_hooks.policy.boilerplate import boilerplate_row
    from gentle_hooks.policy.distinctive import distinctive_row, literal_kind, literal_phrase

    out: list[CopyLine] = []
    run: list[CopyLine] = []
    runs = 0
    for line in [*after.splitlines(), b""]:
        s = line.strip()
        key = stripped_key(s) if s else ""
        if s and (key in added or not is_significant(s)):
            counts = key in added and boilerplate_row(s) is None
            alone = counts and distinctive_row(s) == "D2" and literal_kind(s) in _ALONE
            content = alone or (counts and distinctive_row(s) == "D2" and literal_phrase(s))
            form, names = copy_form(s)
            run.append(CopyLine(key if counts else "", form, names, runs, len(run), content, alone))
            continue
        if any(c.content for c in run):
            out.extend(run)
        run, runs = [], runs + 1
    return tuple(out)


class _Block:
    """A run of the new side's lines matched so far with consecutive writer lines."""

    def __init__(self, start: CopyLine) -> None:
        self.last = start
        self.forward: dict[bytes, bytes] = {}
        self.backward: dict[bytes, bytes] = {}
        self.keys: set[str] = set()
        self.content = self.renamed = self.introduced = False

    def maps(self, writer: tuple[bytes, ...], names: tuple[bytes, ...]) -> bool:
        """Whether the names of one line keep the block's mapping one to one (read first,
        then taken: a line that breaks it leaves the mapping as it was)."""
        if len(writer) != len(names):
            return False
        fwd: dict[bytes, bytes] = {}
        bwd: dict[bytes, bytes] = {}
        for a, b in zip(writer, names, strict=True):  # this line's pairs, then the block's
            if fwd.setdefault(a, self.forward.get(a, b)) != b:
                return False
            if bwd.setdefault(b, self.backward.get(b, a)) != a:
                return False
        self.forward.update(fwd)
        self.backward.update(bwd)
        self.renamed = self.renamed or any(a != b for a, b in fwd.items())
        return True

    def take(self, line: CopyLine, introduced: bool) -> None:
        self.last = line
        if line.key:
            self.keys.add(line.key)
        self.content = self.content or line.content
        self.introduced = self.introduced or introduced

    def counts(self) -> bool:
        """Row C6: two of the writer's significant lines, one of literal content, a name
        renamed, a line the change introduces."""
        return len(self.keys) >= MIN_BLOCK and self.content and self.renamed and self.introduced


def renamed_keys(
    writer: tuple[CopyLine, ...], new: bytes | None, introduced: Set[str]
) -> frozenset[str]:
    """The keys of the writer's lines that ``new`` (a change's new side at another path)
    holds renamed (rows C6, C7 of :mod:`.coincidence`). ``writer``: the writer's run lines
    (:func:`writer_copy_lines`); ``introduced``: the keys of the lines the change
    introduces (a block it does not bring is not its copy)."""
    if not writer or not new:
        return frozenset()
    by_form: dict[bytes, list[CopyLine]] = {}
    place: dict[tuple[int, int], CopyLine] = {}
    for c in writer:
        places = by_form.setdefault(c.form, [])
        if len(places) < MAX_PLACES:
            places.append(c)
        place[(c.run, c.at)] = c
    out: set[str] = set()
    live: list[_Block] = []
    for line in [*new.splitlines(), b""]:  # b"": the end, a line no block continues
        s = line.strip()
        form, names = copy_form(s) if s else (b"", ())
        starts = by_form.get(form, ()) if s else ()
        brought = bool(s) and bool(live or starts) and stripped_key(s) in introduced
        grown: list[_Block] = []
        for b in live:
            nxt = place.get((b.last.run, b.last.at + 1))
            fits = nxt is not None and nxt.form == form and bool(s) and len(grown) < MAX_LIVE
            if fits and nxt is not None and b.maps(nxt.names, names):
                b.take(nxt, brought)
                grown.append(b)
                continue
            if b.counts():
                out.update(b.keys)
        held = {(b.last.run, b.last.at) for b in grown}
        for c in starts:
            if (c.run, c.at) in held or len(grown) >= MAX_LIVE:
                continue
            b = _Block(c)
            if b.maps(c.names, names):
                b.take(c, brought)
                if c.alone and b.renamed and brought:  # row C7: a URL or a command, renamed
                    out.add(c.key)
                grown.append(b)
        live = grown
    return frozenset(out)
