"""``gentle-hook verify clean``: the clean rooms left under the temporary directory
(SPEC §9).

Room ``services``. ``verify run`` removes the room it makes (and the next run removes one a
killed run left: :func:`~gentle_hooks.services.cleanroom.sweep_rooms`); a room ``verify
prepare`` made stays until its user removes it, and is easily forgotten. :func:`leftover_rooms`
lists this user's ``gentle-verify-*`` directories there that no live ``verify run`` owns;
:func:`remove_leftovers` removes them.
"""

from __future__ import annotations

import os
import tempfile
import time

from gentle_hooks.bounded import InputFileError, read_regular
from gentle_hooks.services.cleanroom import OWNER, ROOM_PREFIX, Room, remove_room
from gentle_hooks.values.frozen import frozen


@frozen
class Leftover:
    """One room left: its path and how long ago it was last changed, in seconds."""

    path: str
    age_s: float


def _in_use(path: str) -> bool:
    """A live process owns the room (a ``verify run`` running in it now)."""
    try:
        pid = int(read_regular(os.path.join(path, OWNER), limit=64).strip())
    except (OSError, ValueError, InputFileError):
        return False
    if not 0 < pid < 1 << 22:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leftover_rooms(base: str | None = None) -> tuple[Leftover, ...]:
    """This user's clean rooms under ``base`` (default: the system's temporary
    directory) that no live process owns, oldest first. Never raises."""
    base = base or tempfile.gettempdir()
    try:
        names = sorted(n for n in os.listdir(base) if n.startswith(ROOM_PREFIX))
    except OSError:
        return ()
    now = time.time()
    found = []
    for name in names:
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if st.st_uid != os.getuid() or not os.path.isdir(path) or os.path.islink(path):
            continue
        if not _in_use(path):
            found.append(Leftover(path, max(0.0, now - st.st_mtime)))
    return tuple(sorted(found, key=lambda r: -r.age_s))


def remove_leftovers(rooms: tuple[Leftover, ...]) -> int:
    """Remove ``rooms`` (those still not in use); returns how many were removed."""
    removed = 0
    for room in rooms:
        if not _in_use(room.path):
            remove_room(Room(room.path))
            removed += not os.path.lexists(room.path)
    return removed
