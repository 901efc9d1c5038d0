"""What a verify room's checks import: the room's copy of what an editable install names,
whatever the check's command does (SPEC §9: a verify run checks "the candidate's exact
tree", and each criterion also on the base tree and on the emptied change).

Room ``services``.

* :func:`for_room` — the checks' environment with the room's copies of the places an
  editable install imports from first on ``PYTHONPATH`` (in this repository's work trees:
  :func:`~gentle_hooks.services.editable.in_trees`; another clone of the project:
  :func:`~gentle_hooks.services.editable_copies.other_copies`), the import guard
  (:mod:`~gentle_hooks.services.import_guard`) blocking those places and the work trees'
  places the room's tree does not hold (:mod:`~gentle_hooks.services.room_unheld`), and a
  :class:`RoomImports` saying what the room put there. Then checked by asking the
  interpreters (:mod:`~gentle_hooks.services.import_probe`): a top-level name of the room's
  tree found outside it is redirected the same way and asked again; one still found
  outside, a module start-up leaves in ``sys.modules`` from a file in a work tree (a
  ``sitecustomize`` loading it by path: no guard can unload it), or a probe that failed,
  refuses every check (:attr:`RoomImports.unresolved`).
* :func:`room_argv` — what a check runs: its own ``PYTHONPATH=`` assignments with the
  room's entries in front (:func:`~gentle_hooks.policy.pythonpath_line.composed_argv`), or
  why it is refused: it starts a Python without them and the guard (``-I``, ``-E``,
  ``-S``, ``env -i``, ``PYTHONPATH`` unset or set where the room cannot reach, a started
  program's ``#!`` line: :func:`~gentle_hooks.services.room_unguarded.escape`) while the
  places redirected hold other importable files than the room (:func:`same_importable`)
  or such a start reaches a place outside the room that is not one of them
  (:attr:`RoomImports.reach`). While such a start reaches one, a check whose words show
  no such start still runs only when it provably starts every Python under the guard
  (:func:`~gentle_hooks.services.room_proven.unproven`): else it is refused naming the
  place, the ``.pth`` file or installed copy putting it there, and what to remove.

Not covered by the probe: an interpreter a check starts that is neither on the room's
``PATH`` nor named by a ``#!`` line (one ``tox``, ``nox`` or ``uv run`` makes), a name
only the base tree holds (a namespace package's submodule only its portion there holds).
"""

from __future__ import annotations

import filecmp
import os
from collections.abc import Mapping, Sequence

from gentle_hooks.policy.pythonpath_line import composed_argv
from gentle_hooks.services.editable import (
    Redirect,
    import_places,
    in_trees,
    python_path,
    pythons,
    site_dirs,
    under,
    unheld,
)
from gentle_hooks.services.editable_copies import copies_note, other_copies
from gentle_hooks.services.import_guard import write_guard
from gentle_hooks.services.import_probe import Found, Probed, probe, room_names
from gentle_hooks.services.import_roots import renamed_packages
from gentle_hooks.services.installed_copies import copies_line, copy_places, work_copies
from gentle_hooks.services.room_overlap import clash_line, overlap
from gentle_hooks.services.room_proven import unproven
from gentle_hooks.services.room_unguarded import escape, reach_sources, unguarded_reach
from gentle_hooks.services.room_unheld import unguarded, unheld_kinds, unheld_note
from gentle_hooks.values.frozen import frozen

#: The most files of one side :func:`same_importable` compares.
_FILES = 20000
#: What Python imports from a directory (``.pyc``: a sourceless module).
_IMPORTABLE = (".py", ".pyc", ".so", ".pyd", ".pth")
#: Directories :func:`same_importable` does not read: a repository's, caches.
_SKIPPED = frozenset({".git", "__pycache__", "node_modules", ".tox", ".nox"})


#: :attr:`RoomImports.reach` when the room did not ask (no check escaping the guard).
NOT_ASKED = "the room did not ask what such an interpreter imports"


@frozen
class RoomImports:
    """What a room put first on its checks' ``PYTHONPATH``.

    Attributes:
        first: the room's own entries (the guard's directory, then the room's copies),
            ``:``-separated; empty when it put none.
        places: (a redirected place outside the room, the room's directory that stands for
            it) for each place the room's tree holds.
        unresolved: why no check may run (a name the import probe still finds outside the
            room, or a failed probe); empty when they may.
        reach: the places outside the room a check starting Python without the guard
            reaches (:func:`~gentle_hooks.services.room_unguarded.unguarded_reach`), or why
            that is not known (a ``str``: :data:`NOT_ASKED`, or the probe failed);
        sources: (a place of ``reach``, what puts it there and what to remove:
            :func:`~gentle_hooks.services.room_unguarded.reach_sources`);
        path / tree: the checks' ``PATH`` and the directory they run in, where
            :func:`~gentle_hooks.services.room_proven.unproven` looks their programs up.
    """

    first: str = ""
    places: tuple[tuple[str, str], ...] = ()
    unresolved: str = ""
    reach: tuple[str, ...] | str = NOT_ASKED
    sources: tuple[tuple[str, str], ...] = ()
    path: str = ""
    tree: str = ""


def for_room(
    env: Mapping[str, str],
    programs: Sequence[str],
    trees: Sequence[str],
    room: str,
    skip: Sequence[str] = (),
    guard: str | None = None,
    *,
    user_site: bool = False,
    escaping: bool = False,
) -> tuple[dict[str, str], tuple[str, ...], RoomImports]:
    """A verify room's checks' environment ``env`` (a fresh ``HOME``: no user site) with
    the places that the interpreters of ``env`` and ``programs`` import from editably —
    in the work trees ``trees``, or another copy of the project outside them — first on
    ``PYTHONPATH`` as the same places inside the room's tree ``room`` (the same path for
    the candidate, base and emptied runs), the lines for the user (what was mapped, what
    the room's tree does not hold), and the :class:`RoomImports`.

    A place in a work tree the room's tree does not hold (an ignored ``build/lib`` a
    ``.pth`` names) is blocked by the guard: a module only it holds is absent in the runs,
    as in the candidate's tree; one the guard cannot block without hiding installed
    packages, or any such place when there is no ``guard``, refuses every check
    (:mod:`~gentle_hooks.services.room_unheld`).

    Then verified, not believed: each interpreter is asked where the room's top-level
    names import from (:func:`~gentle_hooks.services.import_probe.probe`, with the
    environment made so far, in ``room``); each name found outside the room (an installer
    whose ``.pth`` runs an ``import`` line, a ``build/__editable__`` farm) gets the room's
    directory holding it first on ``PYTHONPATH`` and the place it was found blocked by the
    guard, and they are asked again. A name still found outside, a module the last probe
    saw start-up load from a work tree's file (outside ``room``, ``skip`` and the
    interpreter's own ``site-packages``: :func:`_preloaded`), or a probe that failed,
    makes :attr:`RoomImports.unresolved` the line saying so: no check runs
    (:func:`room_argv`), the verdict is ``blocked``. The probe's note names only the
    names its redirect kept in the room.

    ``skip``: folders linked into ``room`` from a work tree (a spot check's checkout links
    the dependency folders and ignored paths in): what an install names there, and a name
    found there, is already the copy the runs should import. ``user_site``: the runs keep
    the user's ``HOME``, whose site directory's install files count too. ``escaping``: a
    check may start Python without the guard (:func:`~.room_unguarded.escape`; a verify
    run always asks, since words cannot show every such start): the interpreters are asked
    once more, started as it would be (:attr:`RoomImports.reach`, with what puts each
    place there: :func:`~.room_unguarded.reach_sources`).

    Names an installed copy shares with the tree anywhere (:func:`~.room_overlap.overlap`)
    are asked too; one found outside is redirected, or refuses (:func:`~.room_overlap.clash_line`).

    A distribution installed without ``-e`` from a work tree
    (:func:`~gentle_hooks.services.installed_copies.work_copies`) is a copy of it: every
    module its ``RECORD`` installs is blocked by the guard, its places count as reached,
    and a note names it and the ``pip uninstall`` to run; one whose ``RECORD`` cannot be
    read, or any with no ``guard``, refuses every check.

    ``guard``: a directory outside ``room`` (the same for every run) where
    :func:`~gentle_hooks.services.import_guard.write_guard` writes the ``sitecustomize``
    that makes a module found only in a mapped place unimportable (a package only the
    candidate adds, in the base run); it comes first on ``PYTHONPATH``.

    Raises:
        OSError: the guard could not be written.
    """
    sites = site_dirs(env, programs, user_site=user_site, cwd=room)
    places = import_places(sites)
    installed_copies = work_copies(sites, trees)
    copied = copy_places(installed_copies)
    copied_note, copied_broken = copies_line(installed_copies, guarded=guard is not None)
    redirects = in_trees(places, trees, skip)
    copies = other_copies(places, room, trees, sites, skip)
    missing = unheld(room, redirects)
    held = [r for r in (*redirects, *copies) if r not in missing]
    hidden, installed, fenced = unheld_kinds(missing, sites)
    rels = list(dict.fromkeys(r.rel for r in (*redirects, *copies)))
    notes = []
    if redirects:
        first = redirects[0]
        notes.append(
            f"editable install: {', '.join(dict.fromkeys(r.rel for r in redirects))} of the "
            f"room's tree first on PYTHONPATH ({first.source} imports from your work tree "
            f"{first.tree})"
        )
    if copies:
        notes.append(copies_note(copies))
    # first asked with the unheld places visible: a name found there (a strict-mode
    # ``build/__editable__`` farm) is redirected; the rest of them are hidden after
    out, own = _composed(env, room, rels, held, trees, guard)
    names = room_names(room, [r.rel for r in held])
    renamed = renamed_packages(room)
    names.update({n: os.path.dirname(d) or "." for n, d in renamed.items() if n not in names})
    extra = overlap(room, sites, env, names)
    names.update(extra.single)
    interpreters = pythons(env, programs, cwd=room)
    found = _beyond(probe(interpreters, [*names, *extra.unredirected()], out, room), skip)
    mapped = next((f for f in found.outside if f.name in renamed), None)
    clash = extra.error or clash_line(found, extra)
    last = found
    probed: list[Redirect] = []
    redirected = tuple(f for f in found.outside if f.name in names) if not found.error else ()
    if redirected:
        fences = (*sites, os.path.dirname(os.path.realpath(room)))
        probed = _probed_redirects(redirected, names, fences)
        held += probed
        rels = list(dict.fromkeys([*rels, *(r.rel for r in probed)]))
    covered = [r.place for r in probed]
    hidden = [m for m in hidden if not any(under(m.place, c) is not None for c in covered)]
    if probed or guard is not None:
        # the runs' guard: the work trees fenced too, whatever put a place of them on
        # sys.path; asked again, as the runs will start
        fence = (trees, skip) if guard is not None else None
        out, own = _composed(env, room, rels, [*held, *hidden], trees, guard, fence, copied)
        again = _beyond(probe(interpreters, list(names), out, room), skip)
        last = again
        if probed or not found.error:
            found = again if again.error or again.outside else Probed()
    # the probe's line only for the names the redirect keeps in the room (one still found
    # outside is the unresolved line's, not a redirect that held)
    still = {f.name for f in found.outside}
    kept = [f for f in redirected if f.name not in still]
    if kept:
        notes.append(_probed_note(kept, names))
    if hidden:
        notes.append(unheld_note(hidden, guarded=guard is not None))
    if installed:
        notes.append(unheld_note(installed, guarded=False))
    if copied_note:
        notes.append(copied_note)
    unresolved = (
        copied_broken
        or clash
        or (mapped and _renamed(mapped, renamed[mapped.name]))
        or _unresolved(found)
        or _preloaded(last, trees, room, skip)
        or unguarded(fenced or (hidden if guard is None else []))
    )
    if unresolved:
        notes.append(unresolved)
    stands = tuple((r.place, os.path.normpath(os.path.join(room, r.rel))) for r in (*held, *hidden))
    reach = RoomImports.reach
    told: tuple[tuple[str, str], ...] = ()
    if escaping and not unresolved:
        reached, error, told = unguarded_reach(interpreters, list(names), out, room, trees, skip)
        reach = f"{error}: the room cannot tell what it imports" if error else (*reached, *copied)
    named = [(p, c.name) for c in installed_copies for p in c.places]
    sources = reach_sources(reach, sites, named, told) if isinstance(reach, tuple) else ()
    path = out.get("PATH", os.defpath)
    return out, tuple(notes), RoomImports(own, stands, unresolved, reach, sources, path, room)


def _beyond(found: Probed, skip: Sequence[str]) -> Probed:
    """``found`` without the names whose every location (as found, or with links
    followed) is in one of ``skip`` (folders linked into the room: their files are the
    ones a run there should import)."""
    if not skip or found.error:
        return found
    fences = [os.path.realpath(s) for s in skip if s]
    kept = tuple(
        f
        for f in found.outside
        if not all(
            any(under(os.path.realpath(p), x) is not None for x in fences) for p in f.locations
        )
    )
    return Probed(kept, found.error)


def _composed(
    env: Mapping[str, str],
    room: str,
    rels: Sequence[str],
    held: Sequence[Redirect],
    trees: Sequence[str],
    guard: str | None,
    fence: tuple[Sequence[str], Sequence[str]] | None = None,
    copied: Sequence[str] = (),
) -> tuple[dict[str, str], str]:
    """(``env`` with the room's ``rels`` first on ``PYTHONPATH``, after the guard blocking
    ``held``'s places when ``guard`` names its directory; the room's own entries). ``env``
    itself when there are no ``rels`` and no ``fence``. ``fence``: (the work trees the
    guard fences, the places in them it leaves: folders linked into the room) —
    :func:`~gentle_hooks.services.import_guard.write_guard`.

    Raises:
        OSError: the guard could not be written.
    """
    if not rels and not (guard is not None and fence is not None):
        return dict(env), ""
    value = python_path(room, rels, env.get("PYTHONPATH", ""), trees)
    own = python_path(room, rels, "", trees)
    if guard is not None and (held or fence is not None):
        fences, allowed = fence if fence is not None else ((), ())
        places = [*(r.place for r in held), *copied]
        written = write_guard(guard, os.path.dirname(room), places, fences, allowed)
        value = os.pathsep.join(p for p in (written, value) if p)
        own = os.pathsep.join(p for p in (written, own) if p)
    return {**env, "PYTHONPATH": value}, own


def _probed_redirects(
    found: Sequence[Found], names: Mapping[str, str], fences: Sequence[str]
) -> list[Redirect]:
    """A Redirect for each place a name of ``found`` resolved in (as the interpreter found
    it, and with links followed): the directory holding the module or package, or, when
    that directory is, is in or holds one of ``fences`` (a ``site-packages``, the room's
    directory) or a ``site-packages``, the module or package itself; ``rel``: the room's
    directory holding the name (``names``)."""
    fenced = [os.path.realpath(f) for f in fences if f]
    out: dict[str, Redirect] = {}
    for f in found:
        for location in f.locations:
            top = _top(location, f.name)
            place = os.path.realpath(os.path.dirname(top))
            if not _fenced(place, fenced, within=True):
                chosen = place
            elif not _fenced(os.path.realpath(top), fenced, within=False):
                chosen = os.path.realpath(top)
            else:
                continue
            out.setdefault(chosen, Redirect(chosen, chosen, names[f.name], f.python))
    return list(out.values())


def _top(location: str, name: str) -> str:
    """The module file or package directory of ``name`` a spec ``location`` is, or is in."""
    base = os.path.basename(location)
    if base.split(".")[0] == "__init__" and os.path.basename(os.path.dirname(location)) == name:
        return os.path.dirname(location)
    return location


def _fenced(path: str, fenced: Sequence[str], *, within: bool) -> bool:
    """``path`` is ``/``, one of ``fenced`` or above one, or (``within``) in one or in a
    ``site-packages``: blocking it would hide installed packages, or the room."""
    parts = path.split(os.sep)
    if path in ("", os.sep) or (within and ("site-packages" in parts or "dist-packages" in parts)):
        return True
    return any(
        under(f, path) is not None or (within and under(path, f) is not None) for f in fenced
    )


def _probed_note(found: Sequence[Found], names: Mapping[str, str]) -> str:
    """One line naming what the probe found outside the room and what the room did."""
    shown = ", ".join(f"`{f.name}` at {f.locations[-1]} ({f.python})" for f in found[:3])
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    rels = ", ".join(dict.fromkeys(names[f.name] for f in found))
    return (
        f"import probe: {shown}{more} resolved outside the room: the room's {rels} first on "
        "PYTHONPATH and those places unimportable in its runs"
    )


def _preloaded(found: Probed, trees: Sequence[str], room: str, skip: Sequence[str]) -> str:
    """The line refusing every check because an interpreter's start-up left a module in
    ``sys.modules`` from a file in one of the work trees ``trees`` (a ``sitecustomize`` or
    a ``.pth`` ``import`` line loading it by path: no finder, so no guard, is asked when a
    check imports it), outside ``room`` and the folders ``skip`` linked into it (the
    probe leaves out the interpreter's own ``site-packages``: a work tree's virtual
    environment read through another interpreter counts); empty when there is none."""
    inside = [os.path.realpath(p) for p in (room, *skip) if p]
    reals = [os.path.realpath(t) for t in trees if t]
    for f in found.loaded:
        real = f.locations[-1]
        if any(under(real, x) is not None for x in inside):
            continue
        if any(under(real, t) is not None for t in reals):
            return (
                f"`{f.name}` is loaded from {f.locations[0]} in your work tree when {f.python} "
                "starts (a sitecustomize or a .pth import line put it in sys.modules): the "
                "room cannot keep that module out of its checks, which would test that "
                "file, not the candidate's tree; no check ran"
            )
    return ""


def _renamed(f: Found, directory: str) -> str:
    """The line refusing every check because ``f``, a package the tree's ``package-dir``
    maps from ``directory`` (another name), also resolves outside the room."""
    return (
        f"`{f.name}` resolves to {f.locations[-1]} for {f.python}, and the candidate's "
        f"`{f.name}` is its {directory} (package-dir): no PYTHONPATH entry makes that name "
        "import the candidate's copy, so the checks would test that copy; no check ran "
        f"(uninstall `{f.name}` from that environment)"
    )


def _unresolved(found: Probed) -> str:
    """Why the room's checks do not run (:attr:`RoomImports.unresolved`), or empty."""
    if found.error:
        return f"{found.error}: the room cannot tell what its checks import; no check ran"
    if not found.outside:
        return ""
    f = found.outside[0]
    return (
        f"`{f.name}` still resolves to {f.locations[-1]} outside the room for {f.python} "
        "after the room's redirect: its checks would test that copy, not the candidate's; "
        "no check ran"
    )


def room_argv(
    argv: tuple[str, ...], imports: RoomImports, programs: Sequence[str] = ()
) -> tuple[tuple[str, ...], str | None]:
    """(what to run for a check whose argument vector is ``argv``, why it is refused or
    None). With no room entries (``imports.first`` empty) ``argv`` itself. Else its own
    ``PYTHONPATH=`` assignments with the room's entries in front; refused when it starts a
    Python that ignores them or the guard, or sets or unsets ``PYTHONPATH`` where the room
    cannot reach, unless every redirected place holds the same importable files as the
    room's directory standing for it (then what it imports from there is the room's) and
    every place such a start reaches (:attr:`RoomImports.reach`) is one of them.
    ``programs``: the files the check starts, whose ``#!`` line counts
    (:func:`~.room_unguarded.escape`). Every check is refused, with that line, when
    ``imports.unresolved`` says the room cannot keep its imports in the candidate's
    tree."""
    if imports.unresolved:
        return argv, imports.unresolved
    if not imports.first:
        return argv, None
    composed, _ = composed_argv(argv, imports.first)
    why = escape(argv, programs)
    if why is None:
        return composed, _unproven(argv, imports)
    same = all(same_importable(place, mine) for place, mine in imports.places)
    if same and isinstance(imports.reach, str):
        return composed, f"{why}: it starts without the room's import guard, and {imports.reach}"
    redirected = [os.path.realpath(place) for place, _ in imports.places]
    alien = [r for r in imports.reach if not any(under(r, p) is not None for p in redirected)]
    if same and alien:
        return composed, (
            f"{why}: it starts without the room's import guard and imports from "
            f"{', '.join(alien[:3])}, outside the candidate's tree; run the check without it"
        )
    if same:
        return composed, None
    return composed, (
        f"{why}: the room cannot keep your work tree's code (or another copy's) out of that "
        "interpreter, and it holds other importable files than the candidate's tree; run "
        "the check without it (a PYTHONPATH=... word of the line itself is kept, after the "
        "room's entries)"
    )


def same_importable(place: str, mine: str) -> bool:
    """``place`` and ``mine`` hold the same importable files (:data:`_IMPORTABLE`), byte
    for byte, at the same relative paths; a virtual environment (``pyvenv.cfg``) and
    :data:`_SKIPPED` directories in either are not read; False past :data:`_FILES` files."""
    theirs, ours = _importable(place), _importable(mine)
    if theirs is None or ours is None or set(theirs) != set(ours):
        return False
    return all(filecmp.cmp(theirs[rel], ours[rel], shallow=False) for rel in theirs)


def _importable(top: str) -> dict[str, str] | None:
    if not os.path.isdir(top):
        return None
    found: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = [
            d
            for d in dirs
            if d not in _SKIPPED and not os.path.isfile(os.path.join(dirpath, d, "pyvenv.cfg"))
        ]
        for name in files:
            if name.endswith(_IMPORTABLE):
                full = os.path.join(dirpath, name)
                found[os.path.relpath(full, top)] = full
        if len(found) > _FILES:
            return None
    return found


def _unproven(argv: tuple[str, ...], imports: RoomImports) -> str | None:
    """Why a check whose words show no start without the guard is still refused: the room's
    interpreters, started without it, reach a place outside the room that is not the
    room's own copy (:attr:`RoomImports.reach`), and the check is not proven to start
    every Python under the guard (:func:`~gentle_hooks.services.room_proven.unproven`);
    None when it runs."""
    reach = imports.reach
    if reach == NOT_ASKED or not reach:
        return None
    why = unproven(argv, imports.path, imports.tree)
    if why is None:
        return None
    if isinstance(reach, str):
        tainted = reach
    else:
        redirected = [os.path.realpath(place) for place, _ in imports.places]
        alien = [r for r in reach if not any(under(r, p) is not None for p in redirected)]
        if not alien and all(same_importable(p, mine) for p, mine in imports.places):
            return None
        place = (alien or list(reach))[0]
        what = dict(imports.sources).get(place, "remove what puts it on sys.path")
        tainted = f"a Python started without the room's import guard reaches {place} ({what})"
    return (
        f"{why}: {tainted}, so only checks whose every Python start this room can read run; "
        "run the check as `python3 -m ...` (or a console script of the environment)"
    )
