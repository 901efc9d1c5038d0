"""Opening a room ``verify prepare`` made, for ``verify run --room`` (SPEC §9; seed 001
"Scope": the verifier "never repairs the artifact it judges").

Room ``services``. Before anything runs in a prepared room it must still be one, for this
brief and this candidate, with nothing beside ``tree/``
(:mod:`~gentle_hooks.services.cleanroom` owns the room's layout). Each refusal is one line
ending with the ``verify prepare`` that makes a fit room, with the binding's flags and the
brief's path, runnable as printed (a prefix asking for the brief's path only when none is
known).

* :func:`open_room` — the room at a path, or why it is none.
* :func:`check_room_brief` — its ``BRIEF.md`` says this brief.
* :func:`check_room` — its tree is exactly the candidate's (files earlier runs left go).
* :func:`check_room_root` — nothing beside its parts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gentle_hooks.bounded import InputFileError, read_regular
from gentle_hooks.errors import Command, UsageError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.cleanroom import ASIDE, LOGS, ROOM_ENTRIES, TREE, Room
from gentle_hooks.services.room_bounds import SCRATCH
from gentle_hooks.services.room_dirs import require_real_dirs
from gentle_hooks.values.candidate import Candidate


def check_room_brief(
    room: Room, brief_text: str, brief_id: str, flags: tuple[str, ...], brief_file: str | None
) -> None:
    """Make sure ``room`` was prepared for this brief: its ``BRIEF.md`` is ``brief_text``
    (the same id, objective and checks), so the checks a run makes are the ones the room
    hands the verifier.

    ``flags``: the binding's flags; ``brief_file``: the brief's path, for the ``verify
    prepare`` the error names (None: the error asks for it after the prefix).

    Raises:
        UsageError: ``BRIEF.md`` is missing, unreadable or says another brief.
    """
    try:
        held = read_regular(room.brief, "cannot read").decode("utf-8", "replace")
    except InputFileError:
        held = ""
    if held == brief_text:
        return
    first = held.split("\n", 1)[0]
    held_id = first[len("# Brief `") : -1] if first.startswith("# Brief `") else ""
    holds = f"brief `{held_id}`" if held_id else "no readable BRIEF.md"
    what = "another version of this brief" if held_id == brief_id else f"brief `{brief_id}`"
    tail, commands = _prepare_again(flags, brief_file)
    raise UsageError(
        f"{room.path}: the room was prepared for {holds}, not {what}; prepare a room for "
        f"this brief{tail}",
        commands=commands,
    )


def _prepare_again(flags: tuple[str, ...], brief_file: str | None) -> tuple[str, tuple[Command]]:
    """(what a refusal's line ends with, the ``verify prepare`` it prints): the command
    with the binding's ``flags`` and ``--brief brief_file``, runnable as printed; with no
    ``brief_file``, a prefix and ``: your brief's path after the prefix``."""
    if brief_file is None:
        prefix = cli("verify", "prepare", *flags, "--brief", label="prefix")
        return ": your brief's path after the prefix", (prefix,)
    return "", (cli("verify", "prepare", *flags, "--brief", brief_file),)


def open_room(path: str, flags: tuple[str, ...] = (), brief_file: str | None = None) -> Room:
    """The clean room at ``path`` (made by ``gentle-hook verify prepare``). ``flags``,
    ``brief_file``: the binding's flags and the brief's path, kept by the ``verify prepare``
    an error names.

    Raises:
        UsageError: ``path`` is not a clean room (no ``tree/`` repository in it), or a part
            of it is not the directory the room made (:func:`.room_dirs.require_real_dirs`).
    """
    room = Room(os.path.abspath(path))
    if not os.path.isdir(os.path.join(room.tree, ".git")):
        tail, commands = _prepare_again(flags, brief_file)
        raise UsageError(
            f"{path}: not a clean room (no tree/ repository); make one{tail}", commands=commands
        )
    require_real_dirs(room.path, LOGS, SCRATCH, ASIDE, must=(TREE, f"{TREE}/.git"))
    os.makedirs(room.logs, exist_ok=True)
    return room


def check_room(
    repo: Repository,
    room: Room,
    cand: Candidate,
    flags: tuple[str, ...] = (),
    brief_file: str | None = None,
) -> tuple[str, ...]:
    """Make sure ``room`` holds exactly ``cand``'s tree before anything runs in it.

    Files the verifier's own runs left (caches, outputs: paths git does not track) are
    removed, so the run starts from the candidate's tree; a file of the candidate edited,
    deleted or made (non-)executable is refused, never reverted: a verifier that changed
    what it judges must be seen (seed 001 "Scope": "never repairs the artifact it judges").
    The files are compared with the candidate's tree byte for byte, whatever the room's
    index flags (``--assume-unchanged``, ``--skip-worktree``) or HEAD say.

    ``flags``: the binding's flags (:meth:`~gentle_hooks.values.binding.Binding.words`),
    and ``brief_file``, the brief's path: kept by the ``verify prepare`` an error names.

    Returns:
        Notes for the user (how many untracked paths were removed), possibly empty.

    Raises:
        UsageError: the room was prepared for another candidate, a commit was made in it,
            or a tracked file in it was edited or deleted.
    """
    tree, _, added = repo.room_state(room.tree)
    if tree != cand.tree:
        made = repo.room_commits(room.tree) - 1  # a room is exported with one commit
        why = f"prepared for tree {tree[:12]}, not this candidate's tree {cand.tree[:12]}"
        if made > 0:
            why = f"tampered with: {made} commit(s) made in it since it was prepared"
        tail, commands = _prepare_again(flags, brief_file)
        raise UsageError(
            f"{room.path}: the room was {why}; prepare a new room{tail}", commands=commands
        )
    # the files themselves against the candidate's tree: the room's index, HEAD and config
    # are the verifier's to change (update-index --assume-unchanged, --skip-worktree)
    edited = repo.room_changes(room.tree, cand.tree)
    if edited:
        tail, commands = _prepare_again(flags, brief_file)
        raise UsageError(
            f"{room.path}: the room's tree was changed since it was prepared "
            f"({_first_three(edited)}); a "
            f"verifier never repairs what it judges: prepare a new room{tail}",
            commands=commands,
        )
    notes: tuple[str, ...] = ()
    if added:
        require_real_dirs(room.path, must=(TREE, f"{TREE}/.git"))  # git clean never follows
        repo.clear_room(room.tree)
        notes = (f"removed {len(added)} untracked path(s) earlier runs left in the room",)
    planted = repo.room_additions(room.tree, cand.tree)
    if planted:  # what git clean leaves: ignore rules written to the room's info/exclude
        tail, commands = _prepare_again(flags, brief_file)
        raise UsageError(
            f"{room.path}: the room was changed since it was prepared ({', '.join(planted)}); "
            f"prepare a new room{tail}",
            commands=commands,
        )
    held = repo.room_tree(room.tree)
    if held != cand.tree:  # pragma: no cover - status and add -A disagree: a git defect
        raise UsageError(f"{room.path}: the room holds tree {held[:12]}, not {cand.tree[:12]}")
    return notes


def check_room_root(room: Room, flags: tuple[str, ...] = (), brief_file: str | None = None) -> None:
    """A prepared room's directory holds only its parts: nothing a verifier put beside
    ``tree/`` (a ``pytest.ini``, ``conftest.py``, ``setup.cfg`` there is read by tools run
    in ``tree/`` and could change what they report).

    ``flags``, ``brief_file``: the binding's flags and the brief's path, kept by the
    ``verify prepare`` the error names.

    Raises:
        UsageError: the room holds anything else.
    """
    extra = sorted(set(os.listdir(room.path)) - ROOM_ENTRIES)
    if extra:
        tail, commands = _prepare_again(flags, brief_file)
        raise UsageError(
            f"{room.path}: the room holds files beside tree/ that it was not prepared with "
            f"({_first_three(extra)}); tools run in tree/ read them: prepare a new room{tail}",
            commands=commands,
        )


def _first_three(names: Sequence[str]) -> str:
    """At most three of ``names``, ``, ``-joined, then how many more there are."""
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(names[:3]) + more
