"""The folders ``install --agent`` created, so that ``uninstall --agent`` removes only those.

Room ``services``. A configuration file's folders (``.claude/``, ``.kiro/hooks/``,
``.clinerules/hooks/``...) may be the user's own, made before install, empty or not;
uninstall must leave those. Which ones install made is remembered, one absolute path a
line, in ``$XDG_STATE_HOME/gentle-hooks/created-dirs`` (``~/.local/state`` when unset), a
file of the user's own, outside every repository. A folder not listed there (made by the
user, or by a gentle-hooks that kept no list) is never removed. The list is best effort: when
it cannot be written the folder is simply kept.
"""

from __future__ import annotations

import os

from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import UsageError

#: The list's name under ``$XDG_STATE_HOME/gentle-hooks``.
LIST = "created-dirs"


def list_path() -> str:
    """Where the list of folders install created is kept."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(state, "gentle-hooks", LIST)


def _read() -> list[str]:
    try:
        with open(list_path(), encoding="utf-8") as f:
            return [line for line in f.read().splitlines() if line]
    except (OSError, UnicodeDecodeError):
        return []


def _write(lines: list[str]) -> None:
    path = list_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # a random name opened O_EXCL | O_NOFOLLOW, never a guessable one
        write_whole(path, "".join(f"{line}\n" for line in lines).encode("utf-8"))
    except (OSError, UnicodeEncodeError, WriteError):
        # unwritable: uninstall keeps the folders, the safe side
        return


def make_parents(path: str) -> None:
    """Create the folders ``path`` needs, listing each one that did not exist.

    Raises:
        OSError: a folder cannot be created.
    """
    where = os.path.abspath(os.path.dirname(path))
    missing: list[str] = []
    probe = where
    while not os.path.lexists(probe):
        missing.append(probe)
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    os.makedirs(where, exist_ok=True)
    # a path holding a line break cannot be listed one a line: it is kept at uninstall
    made = [m for m in missing if "\n" not in m and "\r" not in m]
    if made:
        known = _read()
        _write(known + [m for m in made if m not in known])


def prune(path: str, rel: str) -> None:
    """Remove the folders of ``rel`` (the configuration file's path below the root or home)
    that removing ``path`` left empty, deepest first, when install created them: a folder
    the list does not name, or one that holds anything, stays, and so does every one above
    it."""
    known = _read()
    where = os.path.abspath(os.path.dirname(path))
    removed: list[str] = []
    for _ in range(rel.count("/")):
        if where not in known:
            break
        try:
            os.rmdir(where)
        except OSError:  # not empty (or not ours to remove): it and its parents stay
            break
        removed.append(where)
        where = os.path.dirname(where)
    if removed:
        _write([k for k in known if k not in removed])


def refuse_project_link(path: str, scope: str, root: str | None) -> None:
    """Refuse a write of ``path`` in project scope when it, or a folder between the work
    tree root ``root`` and it, is a symbolic link: the write would follow it out of the
    repository (a user's own files may be links: user scope follows them).

    Raises:
        UsageError: such a link, named; nothing was changed.
    """
    if scope != "project" or root is None:
        return
    rel = os.path.relpath(path, root)
    probe = root
    for part in rel.split(os.sep):
        probe = os.path.join(probe, part)
        if os.path.islink(probe):
            raise UsageError(
                f"{probe} is a symbolic link: a project's agent configuration is written only "
                "inside the repository, never through a link; nothing was changed"
            )
