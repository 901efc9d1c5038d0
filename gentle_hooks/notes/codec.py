"""The note that travels with a delivered commit (SPEC §8): its bytes, their merge, and
which of its candidates count for a commit.

Room ``notes``; standard library only. A note under ``refs/notes/gentle-hooks`` is UTF-8
JSON Lines, one canonical line per record (:mod:`gentle_hooks.notes.lines`). That makes
merging a set union — git's own ``cat_sort_uniq`` notes merge strategy is exactly right,
whatever order two clones sync in, and ``notes.rewriteMode = concatenate`` on amend/rebase
loses nothing.

A note counts for a commit only through a candidate line whose ``tree`` is the commit's
tree and whose ``base_tree`` is the tree of one of the commit's ancestors or the empty tree
(:func:`valid_candidates`); records bound to other identities are stale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from gentle_hooks.notes.lines import (
    CandidateLine,
    EscalationLine,
    MalformedLine,
    NoteLine,
    WriterLine,
    decode,
)
from gentle_hooks.notes.sharing import NOTES_REF as NOTES_REF
from gentle_hooks.values.frozen import frozen, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    L = TypeVar("L", bound=NoteLine)


#: Line kinds that say writer work was recorded, even when a field of theirs is malformed.
_WORK_KINDS = (WriterLine.KIND, EscalationLine.KIND)


def render(lines: Iterable[str]) -> bytes:
    """A note's bytes: the distinct lines, sorted (what ``cat_sort_uniq`` would keep)."""
    return ("\n".join(sorted(set(lines))) + "\n").encode("utf-8")


def note_lines(note: bytes) -> list[str]:
    """A note's lines, split at ``\n`` only, as git writes and merges them.

    A line is JSON written with ``ensure_ascii=False``, so its strings may hold U+2028,
    U+2029 or U+0085 as they are; :meth:`str.splitlines` would cut the line there.
    """
    return note.decode("utf-8", "replace").split("\n")


def merge(*notes: bytes) -> bytes:
    """Union of notes, line by line (order-independent; nothing is ever dropped)."""
    out: set[str] = set()
    for note in notes:
        out.update(x for x in note_lines(note) if x.strip())
    return render(out)


@frozen
class ParsedNote:
    """A note's lines, decoded.

    Attributes:
        lines: the lines :func:`~gentle_hooks.notes.lines.decode` read, in note order.
        refused: for each line it refused, the kind it named (None when it named none).
        problems: for each line it refused, ``line N: why`` (N counts the note's lines
            from 1); first, why each note of the commit left unread was not read.
        unread: how many notes of the commit were left unread (over the cap on a note):
            their lines count for nothing, and since any of them may be a writer line,
            the note says a writer delivered (:attr:`records_work`: the gate fails closed).
    """

    lines: tuple[NoteLine, ...] = ()
    refused: tuple[str | None, ...] = ()
    problems: tuple[str, ...] = ()
    unread: int = 0

    @property
    def candidates(self) -> tuple[CandidateLine, ...]:
        """The candidate lines."""
        return self.of(CandidateLine)

    @property
    def records_work(self) -> bool:
        """A candidate, writer or escalation line is present (a writer or escalation line
        counts even when a field of it is malformed), a line that cannot be read at all
        (not JSON, nested too deep, another version, an unknown kind: it may be a writer
        line) is present, or a note was left unread: the note says a writer delivered, and
        the commit is judged as delegated (fails closed), its refused lines named."""
        return bool(
            self.unread
            or self.candidates
            or self.of(WriterLine)
            or self.of(EscalationLine)
            or any(kind is None or kind in _WORK_KINDS for kind in self.refused)
        )

    def of(self, kind: type[L], identity: str | None = None) -> tuple[L, ...]:
        """The lines of type ``kind``; only those bound to ``identity`` when it is given."""
        return tuple(
            x
            for x in self.lines
            if isinstance(x, kind)
            and (identity is None or getattr(x, "identity", None) == identity)
        )


def parse(note: bytes) -> ParsedNote:
    """Decode a note's lines (blank lines ignored); a refused line is kept as the kind it
    named and the line saying why."""
    lines: list[NoteLine] = []
    refused: list[str | None] = []
    problems: list[str] = []
    for number, raw in enumerate(note_lines(note), 1):
        if not raw.strip():
            continue
        try:
            lines.append(decode(raw))
        except MalformedLine as exc:
            refused.append(exc.kind)
            problems.append(f"line {number}: {exc}")
    return ParsedNote(tuple(lines), tuple(refused), tuple(problems))


def with_unread(note: ParsedNote, why: Sequence[str]) -> ParsedNote:
    """``note`` with the notes of its commit that were left unread, ``why`` each was (one
    line each, shown before the refused lines)."""
    if not why:
        return note
    return replace(note, problems=(*why, *note.problems), unread=note.unread + len(why))


def valid_candidates(
    note: ParsedNote,
    commit_tree: str,
    is_ancestor_tree: Callable[[str], bool],
    identity_of: Callable[[str, str], str],
) -> tuple[CandidateLine, ...]:
    """The note's candidates that count for a commit (SPEC §8).

    Args:
        note: the parsed note; commit_tree: the commit's tree id.
        is_ancestor_tree: whether a tree id is the tree of one of the commit's ancestors
            or the empty tree.
        identity_of: the identity function (base tree, tree) -> identity, so a candidate
            line whose identity does not match its trees is refused.
    """
    return tuple(
        c
        for c in note.candidates
        if c.tree == commit_tree
        and identity_of(c.base_tree, c.tree) == c.identity
        and is_ancestor_tree(c.base_tree)
    )
