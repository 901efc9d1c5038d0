"""A writer's delta: what one write did to one path, as line keys.

Room ``policy`` (pure). :class:`WriterDelta` holds it;
:func:`~.attribution.writer_delta` returns a :class:`DetailedDelta` for a text write:
``added``, ``removed`` and ``telling`` at once, the fields only the attribution rule
reads (``short``, ``shapes``, ``dropped``, ``told``, ``placed``, ``masked``, ``spans``)
together on the first read of any of them, since row A1 and most comparisons across paths
never read them (SPEC §3 "Attribution follows content";
the same answers as computing them all upfront).
"""

from __future__ import annotations

from gentle_hooks.policy.hunks import Hunk, replacements
from gentle_hooks.policy.linekeys import (
    any_line_keys,
    joined_lines,
    line_keys,
    short_keys,
    stripped_key,
    telling_keys,
)
from gentle_hooks.policy.renamedcopy import CopyLine, writer_copy_lines
from gentle_hooks.policy.renamededit import EditForm, edit_forms
from gentle_hooks.policy.shapes import LineShape, line_shape
from gentle_hooks.policy.spans import Span, writer_spans
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # placement is imported where a delta is computed
if TYPE_CHECKING:
    from typing import Any

    from gentle_hooks.policy.placement import Placement


@frozen
class WriterDelta:
    """What one writer write did to one path, as keys (:func:`~.attribution.writer_delta`).

    Attributes:
        added: keys of significant lines in the writer's content and not in what it
            started from; removed: the reverse; binary: either side is binary (then only
            the blobs say anything: rows A1 and A4);
        short: with ``added``, keys of the short lines (:func:`short_keys`) the writer
            added: they count only among the writer's lines (:func:`~.attribution.held_keys`);
        telling: the keys of the lines the writer added that are not trivial
            (:func:`~gentle_hooks.policy.linekeys.trivial_row`): the telling ones of
            ``added``, and its short *actions* (``rm -rf /``, ``f(x)``), which ``added``
            leaves out: one of them alone is the writer's content (row A2). Empty for an
            entry read from its stored keys only;
        shapes: (key, shape) of the added lines with a shape
            (:func:`~gentle_hooks.policy.shapes.line_shape`): a line of the same shape
            with names consistently renamed holds that key
            (:func:`~.attribution.held_keys`). Empty for an entry read from its stored
            keys only;
        dropped: with ``removed``, keys of the short lines the writer removed (row A6);
        told: the keys of the telling lines the writer removed, one of them alone (row A3);
        placed: the placements of the lines of :meth:`edited` the writer added (row A7);
        masked: (masked key, key) of the added lines a line with other literals stands
            for (:mod:`gentle_hooks.policy.literals`, :func:`~.attribution.held_keys`);
        spans: the added lines, and runs of them, in span form (:mod:`.spans`: split or
            joined where no bracket is open; :func:`~.attribution.held_keys`);
        copies: the lines of the writer's runs that hold a line of literal content, as a
            renamed copy at another path is matched against them
            (:func:`~gentle_hooks.policy.renamedcopy.writer_copy_lines`). Empty for an entry
            read from its stored keys only;
        started / left: the keys of every significant line of the content the writer
            started from and of the content it left (:func:`~.linekeys.line_keys`): what a
            rewrite of the path keeps little of
            (:mod:`gentle_hooks.policy.rewrite`). Empty for an entry read from its stored
            keys only;
        outline: the non-blank lines of the writer's content, stripped, in order, as a
            move of its file with one line edited is read against them
            (:func:`~gentle_hooks.policy.movedfile.file_lines`: none past
            :data:`~gentle_hooks.policy.movedfile.MAX_LINES`). Empty for an entry read
            from its stored keys only;
        hunks: the writer's replacements of lines (:func:`~.hunks.replacements`): one made
            by a change is the writer's edit (row A6). Empty for an entry read from its
            stored keys only;
        edits: the writer's replacements that put a block of lines, as a block with its
            names renamed is matched against them (:func:`~.renamededit.edit_forms`: the
            writer's edit with a rename on top, row A6). Empty for an entry read from its
            stored keys only.
    """

    added: frozenset[str]
    removed: frozenset[str]
    binary: bool
    short: frozenset[str] = frozenset()
    telling: frozenset[str] = frozenset()
    shapes: frozenset[tuple[str, LineShape]] = frozenset()
    dropped: frozenset[str] = frozenset()
    told: frozenset[str] = frozenset()
    placed: frozenset[Placement] = frozenset()
    masked: frozenset[tuple[str, str]] = frozenset()
    spans: frozenset[Span] = frozenset()
    copies: tuple[CopyLine, ...] = ()
    started: frozenset[str] = frozenset()
    left: frozenset[str] = frozenset()
    outline: tuple[bytes, ...] = ()
    hunks: frozenset[Hunk] = frozenset()
    edits: tuple[EditForm, ...] = ()

    def edited(self) -> tuple[frozenset[str], frozenset[str]]:
        """(added, removed): the keys of every line of two words or more the writer added
        and removed, short and trivial ones included (row A6)."""
        return self.added | self.short | self.telling, self.removed | self.dropped


def _added_shapes(after: bytes | None, added: frozenset[str]) -> frozenset[tuple[str, LineShape]]:
    """(key, shape) of each of the writer's added lines in ``after`` that has a shape."""
    if not after or not added:
        return frozenset()
    lines = [*(line.strip() for line in after.splitlines()), *joined_lines(after)]
    return frozenset(
        (key, shape)
        for s in lines
        if s and (key := stripped_key(s)) in added and (shape := line_shape(s)) is not None
    )


class DetailedDelta(WriterDelta):
    """:func:`~gentle_hooks.policy.attribution.writer_delta`'s answer for a text write: its
    fields past ``added``, ``removed``, ``telling`` computed at once when one is first read
    (row A1 and other paths never read them); equal to, hashed and shown as the
    :class:`WriterDelta` of the same values (:meth:`full`)."""

    def __init__(
        self, added: frozenset[str], removed: frozenset[str], telling: frozenset[str], *start: Any
    ) -> None:
        self.__dict__.update(added=added, removed=removed, binary=False, telling=telling)
        self.__dict__["_start"] = start  # before, after, any_before: what the rest is of

    def full(self) -> WriterDelta:
        """The same delta with every field computed (once)."""
        from gentle_hooks.policy.literals import masked_lines
        from gentle_hooks.policy.placement import placed_lines

        d = self.__dict__
        if "_full" not in d:
            copies, lines = self.copies, self.outline  # read before what they are of goes
            before, after, any_before = d.pop("_start")
            added, telling, any_after = self.added, self.telling, any_line_keys(after)
            short = short_keys(after, any_before) if added else frozenset[str]()
            shapes, spans = _added_shapes(after, added), writer_spans(after, added, any_before)
            dropped, told = short_keys(before, any_after), telling_keys(before, any_after)
            placed = placed_lines(after, added | short | telling)
            rest = (dropped, told, placed, masked_lines(after, added), spans, copies)
            ends = (line_keys(before), line_keys(after))
            d["_full"] = WriterDelta(
                added,
                self.removed,
                False,
                short,
                telling,
                shapes,
                *rest,
                *ends,
                lines,
                replacements(before, after),
                edit_forms(before, after),
            )
        full: WriterDelta = d["_full"]
        return full

    @property
    def copies(self) -> tuple[CopyLine, ...]:
        """The writer's run lines (:attr:`WriterDelta.copies`), computed on their own when
        first read: the index of entries other paths may carry reads them alone."""
        d = self.__dict__
        if "_copies" not in d:
            d["_copies"] = writer_copy_lines(d["_start"][1], self.added)
        copies: tuple[CopyLine, ...] = d["_copies"]
        return copies

    @property
    def outline(self) -> tuple[bytes, ...]:
        """The writer's file line by line (:attr:`WriterDelta.outline`), computed on its
        own when first read, as :attr:`copies`."""
        d = self.__dict__
        if "_outline" not in d:
            from gentle_hooks.policy.movedfile import file_lines  # rows F1-F6 alone read it

            d["_outline"] = file_lines(d["_start"][1])
        lines: tuple[bytes, ...] = d["_outline"]
        return lines

    def __eq__(self, other: object) -> bool:
        return self.full() == other

    def __hash__(self) -> int:
        return hash(self.full())

    def __repr__(self) -> str:
        return repr(self.full())


def _detail(name: str) -> property:
    return property(lambda self: getattr(self.full(), name))


for _name in (
    "short",
    "shapes",
    "dropped",
    "told",
    "placed",
    "masked",
    "spans",
    "started",
    "left",
    "hunks",
    "edits",
):
    setattr(DetailedDelta, _name, _detail(_name))  # a property is read before the instance's own
