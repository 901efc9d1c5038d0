"""The verifier's clean room on disk (SPEC §9; seed 001 "Workflow" 4, "Hand over a clean room").

Room ``services``. A clean room is a fresh directory outside the work tree (under the
system's temporary directory) holding:

* ``tree/`` — the candidate's exact tree as a standalone git repository with one commit
  (:meth:`gentle_hooks.git.room_export.RoomExport.export_tree`): no ledger, receipts,
  notes, transcripts, hooks, other objects or work-tree state of the user's clone;
* ``BRIEF.md`` — the brief's objective and success criteria (with the commands the
  verifier may run), and nothing else of the brief or of the writer;
* ``logs/`` — the output of each check ``gentle-hook verify run`` ran, one file each;
* ``aside/`` — while ``verify run`` runs: the candidate's base tree and, for one criterion
  at a time, its hollowed copy, each swapped into ``tree/`` for its run (:func:`swap_in`).

Every run of a check is at the same path, with the same neighbours, environment and commit
message, so a check that reads only where it runs cannot tell the candidate from its base.
Each run gets a fresh ``HOME`` and ``TMPDIR`` under ``scratch/``
(:mod:`gentle_hooks.services.room_bounds`). Limits: a check can still keep state between
its runs outside the room (a file under ``/tmp`` named outright: the candidate always runs
first), compare file times, or read the checkouts under ``aside/``; what stops such a
brief from passing a broken change is the full suite, which must run a recognised test
runner and pass on the candidate (:data:`~gentle_hooks.policy.testcount.RUNNER_ROWS`).

The verifier gets the artifact, the criteria and the tools, never the implementation
context (seed 001 "Rules"). :func:`~gentle_hooks.services.room_open.check_room` proves a
room still holds the candidate's tree before anything is run in it (a verifier never
repairs the artifact it judges): an edited tracked file is refused, files earlier runs left
are removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.bounded import InputFileError, read_regular
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.room_bounds import SCRATCH
from gentle_hooks.services.room_dirs import require_real_dirs
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen

#: The prefix of every clean room's directory name.
ROOM_PREFIX = "gentle-verify-"
#: The room's parts, relative to its directory.
TREE, BRIEF, LOGS = "tree", "BRIEF.md", "logs"
#: In a room ``verify run`` made for itself: the id of the process that removes it.
OWNER = ".owner"
#: Where a run keeps the checkouts that are not in ``tree/`` while a check runs, and
#: removes them when it ends: the candidate's base tree (each criterion and negative test
#: also runs on it: a check whose outcome does not depend on the artifact) and, for one
#: criterion at a time, the candidate with every file it adds or changes emptied ("hollow":
#: a criterion whose exit status is the same there and on the base observes nothing).
#: Each is swapped into ``tree/`` to be run on (:func:`swap_in`), so a check runs at the
#: same path, under the same names, whichever checkout it judges: it cannot tell them
#: apart by ``$PWD``, its directory's name or its neighbours' names.
ASIDE = "aside"
#: The base checkout's and the hollow checkout's names under :data:`ASIDE` (neutral:
#: when one is in ``tree/``, the checkout it replaced takes its name), the name a swap
#: passes through, and the import guard's directory (:mod:`.import_guard`).
BASE, HOLLOW, HELD, GUARD = "a", "b", "c", "d"


class _Part:
    """A part of a :class:`Room` as a read-only attribute: the room's directory joined with
    ``parts``."""

    def __init__(self, *parts: str) -> None:
        self.parts = parts

    def __get__(self, room: Room, owner: type[Room] | None = None) -> str:
        return os.path.join(room.path, *self.parts)


@frozen
class Room:
    """A clean room: its directory and parts.

    Attributes:
        path: the room's directory; tree: the checkout the checks run in; brief: the
        objective and criteria; logs: where each check's output goes; aside: the
        checkouts not in ``tree/``; base / hollow / guard: the checkouts and guard there.
    """

    path: str

    tree = _Part(TREE)
    brief = _Part(BRIEF)
    logs = _Part(LOGS)
    aside = _Part(ASIDE)
    base = _Part(ASIDE, BASE)
    hollow = _Part(ASIDE, HOLLOW)
    guard = _Part(ASIDE, GUARD)


def room_brief_text(objective: str, brief_id: str, checks: tuple[Check, ...]) -> str:
    """``BRIEF.md``: the brief's id and objective, then its checks grouped by kind, each
    with the command the verifier may run. Nothing else of the brief (no boundaries, tool
    guidance, budget) and nothing of the writer reaches the room."""
    lines = [f"# Brief `{brief_id}`", "", "## Objective", "", objective.strip(), ""]
    titles = (
        ("criterion", "Success criteria (each must pass)"),
        ("negative", "Negative tests (each must fail)"),
        ("suite", "Full suite"),
    )
    for kind, title in titles:
        group = [c for c in checks if c.kind == kind]
        lines += [f"## {title}", ""]
        lines += [f"- {c.criterion}: `{c.command}`" for c in group] or ["- none declared"]
        lines.append("")
    lines.append("Run these in `tree/`, read-only: never edit the tree you judge.")
    return "\n".join(lines) + "\n"


def room_message(cand: Candidate) -> str:
    """The message of each checkout's one commit: the same for the candidate's tree, its
    base and its hollowed copy, so a check cannot tell them apart by ``git log``."""
    return f"gentle-hooks clean room\n\ncandidate {cand.identity}\nbase tree {cand.base.tree}\n"


def make_room(repo: Repository, cand: Candidate, brief_text: str, *, owned: bool = False) -> Room:
    """Create a clean room holding ``cand``'s tree and ``brief_text``.

    Args:
        owned: the room lives only as long as this process (``verify run`` without
            ``--room``): its :data:`OWNER` file names this process, so a later run removes
            the room if this one was killed before it could (:func:`sweep_rooms`).

    Returns:
        The :class:`Room` (a new directory under the system's temporary directory).

    Raises:
        GitError / OSError: exporting the tree failed (the half-made room is removed).
    """
    room = Room(tempfile.mkdtemp(prefix=ROOM_PREFIX))
    try:
        if owned:
            with open(os.path.join(room.path, OWNER), "w", encoding="ascii") as fh:
                fh.write(f"{os.getpid()}\n")
        repo.export_tree(cand.tree, room.tree, room_message(cand))
        os.makedirs(room.logs)
        with open(room.brief, "w", encoding="utf-8") as fh:
            fh.write(brief_text)
    except BaseException:
        remove_room(room)
        raise
    return room


def remove_room(room: Room) -> None:
    """Remove ``room`` and everything in it (its tree, logs, brief); never raises."""
    shutil.rmtree(room.path, ignore_errors=True)


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_rooms() -> int:
    """Remove the rooms ``verify run`` made for itself whose process is gone (killed
    before its ``finally`` ran: SIGKILL, a power cut): this user's ``gentle-verify-*``
    directories under the system's temporary directory whose :data:`OWNER` names a process
    that no longer exists. Rooms ``verify prepare`` made (no owner) are the user's to
    remove. Never raises.

    Returns:
        How many rooms were removed.
    """
    base = tempfile.gettempdir()
    removed = 0
    try:
        names = [n for n in os.listdir(base) if n.startswith(ROOM_PREFIX)]
    except OSError:
        return 0
    for name in names:
        path = os.path.join(base, name)
        try:
            if os.lstat(path).st_uid != os.getuid():
                continue
            # a bounded regular file: an owner file that is a FIFO would block the open
            pid = int(read_regular(os.path.join(path, OWNER), limit=64).strip())
        except (OSError, ValueError, InputFileError):
            continue
        if not 0 < pid < 1 << 22:  # no such process id (Linux caps them at 2**22)
            continue
        if pid != os.getpid() and not _is_alive(pid):
            remove_room(Room(path))
            removed += 1
    return removed


#: What a room's directory may hold: its parts.
ROOM_ENTRIES = frozenset({TREE, BRIEF, LOGS, OWNER, ASIDE, SCRATCH})

#: One entry's identity on disk: kind and permission bits, inode, size, modification and
#: change times (the change time moves on every write and every chmod, and no process can
#: set it back), and a symbolic link's target.
Stamp = tuple[int, int, int, int, int, str]


def _stamp(path: str) -> Stamp | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    link = os.readlink(path) if stat.S_ISLNK(st.st_mode) else ""
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, link)


def _walk(top: str) -> dict[str, Stamp]:
    """Every entry under ``top`` (``top`` itself as ``""``), relative, with its
    :data:`Stamp`; symbolic links are not followed."""
    out: dict[str, Stamp] = {}
    first = _stamp(top)
    if first is None:
        return out
    out[""] = first
    for dirpath, dirs, files in os.walk(top):
        for name in dirs + files:
            full = os.path.join(dirpath, name)
            found = _stamp(full)
            if found is not None:
                out[os.path.relpath(full, top)] = found
    return out


@frozen
class RoomStamp:
    """What a room held on disk before a check ran (:func:`stamp_room`)."""

    entries: tuple[tuple[str, Stamp], ...]


def _room_entries(room: Room) -> dict[str, Stamp]:
    """The room's entries keyed by their path relative to ``tree/`` (``../BRIEF.md`` for
    the rest of the room), without ``logs/`` (written by the run), ``aside/`` (the other
    checkouts, compared with their trees by git after each check), ``scratch/`` (each
    run's own home and temporary directory) and ``tree/.git`` (git in a room refreshes
    its index)."""
    out: dict[str, Stamp] = {}
    for rel, st in _walk(room.path).items():
        parts = rel.split(os.sep)
        if parts[0] in (LOGS, ASIDE, SCRATCH) or (parts[0] == TREE and parts[1:2] == [".git"]):
            continue
        if parts[0] == TREE:
            out[os.path.join(*parts[1:]) if len(parts) > 1 else "."] = st
        else:
            out[os.path.join("..", rel) if rel else ".."] = st
    return out


def stamp_room(room: Room) -> RoomStamp:
    """What ``room`` holds now, entry by entry (:data:`Stamp`), to compare after a check."""
    return RoomStamp(tuple(sorted(_room_entries(room).items())))


def room_touched(room: Room, before: RoomStamp) -> tuple[str, ...]:
    """The room's entries a check wrote, replaced, removed or re-permissioned since
    ``before``, even when it put back their bytes (their change time moved): every file
    and link of ``tree/`` and everything else in the room (``BRIEF.md``, a ``pytest.ini``
    or ``conftest.py`` put beside ``tree/``). New files inside ``tree/`` are not listed
    here (the ignore rules decide those:
    :meth:`~gentle_hooks.git.room_check.RoomChecks.room_additions`), and its directories
    may gain such outputs: only their kind, inode and permissions count, as for the room's
    own directory, whose entries :func:`swap_in` renames (an entry added or removed there
    is listed by name).

    Returns:
        The paths, relative to ``tree/``, sorted; empty when the room is as it was.
    """
    now = _room_entries(room)
    then = dict(before.entries)

    def in_checkout(path: str) -> bool:
        return not path.startswith("..")

    touched: list[str] = []
    for path, old in then.items():
        new = now.get(path)
        if new is None:
            touched.append(path)
        elif stat.S_ISDIR(old[0]) and (in_checkout(path) or path == ".."):
            if new[:2] != old[:2]:  # outputs may be added: kind, permissions, inode only
                touched.append(path)
        elif new != old:
            touched.append(path)
    touched += [p for p in now if p not in then and not in_checkout(p)]
    return tuple(sorted(touched))


def make_base(repo: Repository, room: Room, cand: Candidate) -> None:
    """Export ``cand``'s base tree to the room's :attr:`Room.base` (replacing one an
    earlier run left), for the checks to run on it too.

    Raises:
        GitError / OSError: exporting the tree failed; UsageError: a part on the way is a link.
    """
    require_real_dirs(room.path, f"{ASIDE}/{BASE}")  # rmtree never through a link
    shutil.rmtree(room.base, ignore_errors=True)
    repo.export_tree(cand.base.tree, room.base, room_message(cand))


def make_hollow(repo: Repository, room: Room, cand: Candidate) -> None:
    """Export ``cand``'s tree to the room's :attr:`Room.hollow` (replacing one left there)
    and empty every file the candidate adds or changes against its base (a symbolic link
    becomes an empty file): what a criterion sees when it does not read the artifact.

    Raises:
        GitError / OSError: exporting the tree failed.
    """
    remove_hollow(room)
    repo.export_tree(cand.tree, room.hollow, room_message(cand))
    for change in repo.tree_delta(cand.base.tree, cand.tree):
        if change.new_blob is None:
            continue
        full = os.path.join(room.hollow, change.path)
        if os.path.islink(full):
            os.unlink(full)
        with open(full, "wb"):
            pass


def remove_hollow(room: Room) -> None:
    """Remove the room's hollow checkout (UsageError: a part on the way is a link)."""
    require_real_dirs(room.path, f"{ASIDE}/{HOLLOW}")
    shutil.rmtree(room.hollow, ignore_errors=True)


def remove_aside(room: Room) -> None:
    """Remove the checkouts a run kept aside (base, hollow); never raises."""
    shutil.rmtree(room.aside, ignore_errors=True)


@contextlib.contextmanager
def swap_in(room: Room, other: str) -> Iterator[None]:
    """While the block runs, the checkout at ``other`` (:attr:`Room.base` or
    :attr:`Room.hollow`) is in ``tree/`` and the candidate's tree is at ``other``; both are
    put back when it ends, also when it raises. Renames only: every file keeps its inode,
    so :func:`room_touched` still sees what a check did to either."""
    held = os.path.join(room.aside, HELD)
    os.rename(room.tree, held)
    os.rename(other, room.tree)
    os.rename(held, other)
    try:
        yield
    finally:
        os.rename(room.tree, held)
        os.rename(other, room.tree)
        os.rename(held, other)
