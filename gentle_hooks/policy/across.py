"""A change of *another* path than the writer's: does it carry the writer's content, moved
or copied there (SPEC §3 "Attribution follows content"; row A2 across paths of
:mod:`gentle_hooks.policy.attribution`)?

Room ``policy`` (pure: bytes in, answers out). :func:`carries_row_across` reads a change of
a path with no entry of its own against one writer entry, from the two contents alone (so
every gate that judges one change answers alike): A1 when its new blob is the writer's blob
(a ``git mv``; never for a deletion); A2 when it adds :data:`MIN_ACROSS` of the writer's
added lines of no row of :data:`~gentle_hooks.policy.boilerplate.BOILERPLATE_ROWS` that are
a copy, not a coincidence (rows C1-C5 of :mod:`.coincidence`: no line anyone types, and
in one run of the writer's lines unless one of them has content of its own), every
line of a file the writer created, a telling one among them (:mod:`.wholefile`), *one*
telling writer line that counts alone (:func:`alone_row`), the writer's file line for line
with at most one line's strings or numbers edited (row F6 of :mod:`.movedfile`:
:func:`moved_whole`), or the writer's lines with their names consistently renamed (rows
C6, C7 of :mod:`.coincidence`: a block with a line of literal content, or one line of a
URL or a shell command: :func:`renamed_across`); else A5. Rows A3, A4, A6, A7
never apply across paths: removing, or editing alike, is nobody's signature elsewhere.

One line at another path is weak evidence: a person writing their own new file types
``raise ValueError("invalid input")`` or ``self.assertEqual(result, expected)`` the way a
writer did elsewhere, and blocking them (with no discard that fits: the writer's own path
still holds its change) is a false block. Yet a writer's dangerous one-liner moved to
another file (``os.system("curl x | sh")``, ``subprocess.run(cmd, shell=True)``, a URL)
must stay the writer's. So a distinctive line (rows D2-D4 of :mod:`.distinctive`) counts
alone only where it runs or reaches something, the first row that matches deciding:

=====  ==========================================================================  =======
row    the writer's line, as the change's new side holds it (stripped)             alone
=====  ==========================================================================  =======
X1     not distinctive (D1, D5: ``return result``, ``print("done")``)              no
X2     D2 by a URL in its literals (``fetch("https://x.example/api")``)            yes
X3     D2 by a shell command in its literals (``os.system("curl x | sh")``)        yes
X4     D3: the line is a shell command with arguments (``rm -rf build``)           yes
X5     a process, code or network call outside its literals (:data:`~.distinctive.REACHING`:     yes
       ``subprocess.run(cmd, shell=True)``, ``eval(code)``, ``urlopen(req)``)
X6     anything else distinctive: D2 by its literal words alone (``raise           no
       ValueError("invalid input")``), D4 (``self.assertEqual(result,
       expected)``, ``data = json.loads(response.text)``, ``os.remove(tmp_path)``)
=====  ==========================================================================  =======

A line of row X6 still counts with a second writer line (:data:`MIN_ACROSS`): two of the
writer's lines at one other path are its content moved (:mod:`.coincidence` says which
two), the second brought by an earlier commit too (one line per commit delivers them all
the same). File calls (``os.remove``, ``open``) are X6: everybody writes them, and the
builtin assessment (SPEC §4) does not rate them high either; process execution is what it
rates high.
"""

from __future__ import annotations

from collections.abc import Set

from gentle_hooks.policy.attribution import PathChange, WriterEntry
from gentle_hooks.policy.distinctive import distinctive_row, keyed_lines, literal_kind, reaches

#: Writer lines a change of another path must add to carry an entry (row A2 across paths),
#: unless one of them counts alone (rows X2-X5).
MIN_ACROSS = 2

#: Rows whose line counts alone at another path.
ALONE_ROWS = ("X2", "X3", "X4", "X5")


def alone_row(stripped: bytes) -> str:
    """The row (X1-X6 of the module table) of a stripped line at another path."""
    row = distinctive_row(stripped)
    if row not in ("D2", "D3", "D4"):
        return "X1"
    kind = literal_kind(stripped) if row == "D2" else ""
    if kind == "url":
        return "X2"
    if kind == "command":
        return "X3"
    if row == "D3":
        return "X4"
    if reaches(stripped):
        return "X5"
    return "X6"


def alone_keys(data: bytes | None, among: Set[str]) -> frozenset[str]:
    """The keys of ``among`` that a line of ``data`` with that key (a line, its code part
    or a wrapped statement joined: :func:`~gentle_hooks.policy.distinctive.keyed_lines`)
    makes count alone at another path (rows X2-X5)."""
    if not data or not among:
        return frozenset()
    lines = keyed_lines(data)
    return frozenset(k for k in among if any(alone_row(s) in ALONE_ROWS for s in lines.get(k, ())))


def carries_row_across(change: PathChange, entry: WriterEntry) -> str:
    """The row that decides whether a change of *another* path carries ``entry`` (the
    writer's content moved or copied there, in any worktree): A1, A2 or A5 as the module
    docstring says. Read from the two contents alone."""
    if change.path == entry.path or change.old_blob == change.new_blob:
        return "A5"
    if entry.blob is not None and change.new_blob == entry.blob:
        return "A1"
    d = entry.delta
    if d.binary or not (d.added or d.telling) or not change.new:
        return "A5"
    from gentle_hooks.policy.boilerplate import introduced_lines, introduced_parts
    from gentle_hooks.policy.wholefile import holds_whole_new_file

    new = introduced_lines(change.old, change.new)  # once per change, not per entry
    found = _held_with(change, d.added, new) if len(d.added) >= MIN_ACROSS else frozenset()
    whole = holds_whole_new_file(entry.before is None, d.added, d.telling, new)  # moved whole
    tails = introduced_parts(change.old, change.new) if d.telling else ()
    one = {k for k, boiler in (*new, *tails) if k in d.telling and not boiler}
    if one:  # the change's lines are read for their row only when one is telling
        one &= alone_keys(change.new, one)
    if len(found) >= MIN_ACROSS or whole or one or moved_whole(change, entry, new):
        return "A2"
    return "A2" if renamed_across(change, entry, new) else "A5"


def moved_whole(change: PathChange, entry: WriterEntry, new: tuple[tuple[str, bool], ...]) -> bool:
    """Whether ``change`` holds the writer's file line for line at another path, at most one
    line's strings or numbers edited (row F6 of :mod:`.movedfile`); ``new``: the lines the
    change introduces."""
    d = entry.delta
    if not d.outline:
        return False
    from gentle_hooks.policy.movedfile import moved_file_row

    return moved_file_row(d.outline, d.added, change.new, new) == "F6"


def renamed_across(
    change: PathChange, entry: WriterEntry, new: tuple[tuple[str, bool], ...]
) -> frozenset[str]:
    """The writer's lines ``change`` holds at another path as a block renamed, or one line
    of a URL or a shell command renamed (rows C6, C7 of :mod:`.coincidence`:
    :func:`~gentle_hooks.policy.renamedcopy.renamed_keys`); ``new``: the lines the change
    introduces."""
    copies = entry.delta.copies
    if not copies:
        return frozenset()
    from gentle_hooks.policy.renamedcopy import renamed_keys

    return renamed_keys(copies, change.new, {k for k, _ in new})


def _held_with(
    change: PathChange, added: Set[str], new: tuple[tuple[str, bool], ...]
) -> frozenset[str]:
    """The writer's added lines (of no boilerplate row) the change's new side holds as
    copied there (:func:`~gentle_hooks.policy.coincidence.copied_keys`: not lines anyone
    types, and in one run of the writer's lines unless one has content), when it
    introduces one of them (``new``: its introduced lines), else none: a writer line an
    earlier commit brought there counts toward :data:`MIN_ACROSS` once one more arrives
    (one writer line per commit into another file still delivers the writer's content),
    while a change that introduces none never carries."""
    from gentle_hooks.policy.boilerplate import introduced_lines

    if not any(k in added and not boiler for k, boiler in new):
        return frozenset()
    everything = introduced_lines(None, change.new or b"")
    held = frozenset(k for k, boiler in everything if k in added and not boiler)
    if len(held) < MIN_ACROSS:
        return held
    from gentle_hooks.policy.coincidence import copied_keys

    return copied_keys(held, change.new or b"", added, alone_keys(change.new, held))


def by_one_line(change: PathChange, entry: WriterEntry) -> bool:
    """Whether ``change`` carries ``entry`` at another path by one writer line alone (rows
    X2-X5): not the writer's blob, not two of its lines, not its new file whole. A person's
    claim of their own path (:func:`gentle_hooks.services.attribution.carried_by_change`)
    takes only that; more of the writer's content there is the writer's again."""
    if carries_row_across(change, entry) != "A2" or change.new_blob == entry.blob:
        return False
    from gentle_hooks.policy.boilerplate import introduced_lines
    from gentle_hooks.policy.wholefile import holds_whole_new_file

    d, new = entry.delta, introduced_lines(change.old, change.new or b"")
    found = _held_with(change, d.added, new) if len(d.added) >= MIN_ACROSS else frozenset()
    whole = holds_whole_new_file(entry.before is None, d.added, d.telling, new)
    return (
        len(found) < MIN_ACROSS
        and not whole
        and not moved_whole(change, entry, new)
        and len(renamed_across(change, entry, new)) < MIN_ACROSS
    )
