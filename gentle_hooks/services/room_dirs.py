"""The clean room's directories are the ones it made, before anything in them is removed
(SPEC §9; seed 001 "Scope": the verifier "never repairs the artifact it judges", and a
room's cleaning must never reach the user's files).

Room ``services``. ``verify run`` empties parts of a room before each check (git's
``clean -fdx`` in ``tree/``, ``scratch/`` and the checkouts under ``aside/``). A part
replaced by a symbolic link (``tree -> ~/repo``, ``scratch -> ~/work``) would have that
cleaning follow it and remove the user's ignored files (``.env``, ``.venv``), or fill it
and let the run pass. :func:`require_real_dirs` looks at each part with ``lstat`` (never
following a link) and refuses the room, one line (exit 2), when one is not a directory
this user owns; nothing is removed first.

Limits: a process a check left running could swap a part between this look and the
removal; the launcher ends a check's process group when it exits.
"""

from __future__ import annotations

import os
import stat

from gentle_hooks.errors import UsageError, cli


def _fault(path: str) -> str | None:
    """Why ``path`` is not a real directory of this user's (None when it is; also when
    it does not exist: the caller makes it)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return f"is a symbolic link (to {os.readlink(path)})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if st.st_uid != os.getuid():
        return "belongs to another user"
    return None


def require_real_dirs(top: str, *parts: str, must: tuple[str, ...] = ()) -> None:
    """``top`` and each of ``parts`` (relative to it, each checked component by component:
    ``aside/a`` checks ``aside`` then ``aside/a``) are real directories this user owns;
    those in ``must`` also exist.

    Raises:
        UsageError (exit 2, one line): one is a symbolic link, not a directory, another
            user's, or (in ``must``) missing; it names the part and how to go on.
    """
    seen: list[str] = [""]
    for part in (*must, *parts):
        pieces = part.split("/")
        seen += ["/".join(pieces[: i + 1]) for i in range(len(pieces))]
    for rel in dict.fromkeys(seen):
        path = os.path.join(top, rel) if rel else top
        why = _fault(path)
        if why is None and rel in must and not os.path.lexists(path):
            why = "is missing"
        if why is not None:
            raise UsageError(
                f"{path}: the clean room's {rel or 'directory'} {why}, not the directory the "
                "room made; nothing was removed: prepare a new room, your brief's path after "
                "the prefix",
                commands=(cli("verify", "prepare", "--brief", label="prefix"),),
            )
