"""Two trees holding only some changes' sides, in a private object directory.

Room ``git``. Git diffs two trees without a pathspec, but a diff limited to many paths
matches every tree entry it walks against every pathspec. To diff only some changes (the
few the process-call scan must read: SPEC §4), their old sides and their new sides are
written as two trees of their own, at the same paths (attributes still apply by path),
into a temporary object directory that borrows the repository's objects as an alternate:
the repository's own object store is never written.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Mapping, Sequence

from gentle_hooks.git.parse import Sides
from gentle_hooks.values.candidate import MODE_NONE


class _Dir:
    """One directory of a side being built: name -> subdirectory or (mode, blob id)."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict[bytes, _Dir | tuple[str, str]] = {}


def write_pair_trees(
    changes: Sequence[tuple[str, Sides]], dest: str, object_format: str
) -> tuple[str, str]:
    """Write the trees of the changes' old sides and of their new sides into ``dest``
    (a loose object directory) and return their ids (old, new).

    Args:
        changes: (path, its :data:`~gentle_hooks.git.parse.Sides`) of each change.

    A diff of the two, without rename detection, has exactly these changes' file pairs:
    the same as the diff of the whole trees limited to these paths, given none of them is
    a rename or a copy (each then has the same old and new entry as there).
    """
    sides = (_Dir(), _Dir())
    for path, (old_mode, old_oid, new_mode, new_oid) in changes:
        for side, mode, oid in ((sides[0], old_mode, old_oid), (sides[1], new_mode, new_oid)):
            if mode == MODE_NONE:
                continue
            *dirs, name = os.fsencode(path).split(b"/")
            node = side
            for d in dirs:
                sub = node.entries.setdefault(d, _Dir())
                assert isinstance(sub, _Dir)  # a side of real changes has no path twice
                node = sub
            node.entries[name] = (mode, oid)
    return _write(sides[0], dest, object_format), _write(sides[1], dest, object_format)


def _write(d: _Dir, dest: str, object_format: str) -> str:
    """Write ``d`` and its subdirectories as tree objects; return its id."""
    body = bytearray()
    # git orders a tree's entries by name, a directory's name read with a "/" after it
    for name, entry in sorted(d.entries.items(), key=_order):
        if isinstance(entry, _Dir):
            mode, oid = "40000", _write(entry, dest, object_format)
        else:
            mode, oid = entry
        body += b"%s %s\0%s" % (mode.encode("ascii"), name, bytes.fromhex(oid))
    data = b"tree %d\0" % len(body) + bytes(body)
    oid = hashlib.new(object_format, data).hexdigest()
    folder = os.path.join(dest, oid[:2])
    path = os.path.join(folder, oid[2:])
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(zlib.compress(data, 1))
    return oid


def _order(item: tuple[bytes, _Dir | tuple[str, str]]) -> bytes:
    name, entry = item
    return name + b"/" if isinstance(entry, _Dir) else name


def borrowing_env(dest: str, env: Mapping[str, str], common_dir: str) -> dict[str, str] | None:
    """The variables that make git read ``dest`` and, as alternates, the objects the
    repository reads (``GIT_OBJECT_DIRECTORY`` of a hook's quarantine and its alternates,
    else the common dir's ``objects``). None when one of those paths cannot be named in
    ``GIT_ALTERNATE_OBJECT_DIRECTORIES`` as it is (relative, or holding its separator)."""
    primary = env.get("GIT_OBJECT_DIRECTORY") or os.path.join(common_dir, "objects")
    alternates = [primary]
    if env.get("GIT_ALTERNATE_OBJECT_DIRECTORIES"):
        alternates.append(env["GIT_ALTERNATE_OBJECT_DIRECTORIES"])
    if not os.path.isabs(primary) or any(
        os.pathsep in p or p.startswith('"') for p in alternates[:1]
    ):
        return None
    return {
        "GIT_OBJECT_DIRECTORY": dest,
        "GIT_ALTERNATE_OBJECT_DIRECTORIES": os.pathsep.join(alternates),
    }
