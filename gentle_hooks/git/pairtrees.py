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
import struct
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
    """Write the trees of the changes' old sides and of their new sides into ``dest`` (an
    object directory, as one pack) and return their ids (old, new).

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
    trees: dict[bytes, bytes] = {}
    old, new = (_tree(side, trees, object_format) for side in sides)
    _write_pack(trees, dest, object_format)
    return old, new


def _tree(d: _Dir, trees: dict[bytes, bytes], object_format: str) -> str:
    """The id of ``d`` as a tree object; it and its subdirectories' go into ``trees``
    (raw id -> content)."""
    body = bytearray()
    # git orders a tree's entries by name, a directory's name read with a "/" after it
    for name, entry in sorted(d.entries.items(), key=_order):
        if isinstance(entry, _Dir):
            mode, oid = "40000", _tree(entry, trees, object_format)
        else:
            mode, oid = entry
        body += b"%s %s\0%s" % (mode.encode("ascii"), name, bytes.fromhex(oid))
    raw = hashlib.new(object_format, b"tree %d\0" % len(body) + body).digest()
    trees[raw] = bytes(body)
    return raw.hex()


#: A pack entry's type bits for a tree object.
_OBJ_TREE = 2


def _write_pack(trees: dict[bytes, bytes], dest: str, object_format: str) -> None:
    """Write ``trees`` as one pack and its index (version 2) under ``dest/pack``: two files
    instead of a loose file and folder per object (which cost more than git's diff)."""
    pack = bytearray(b"PACK" + struct.pack(">II", 2, len(trees)))
    offsets: dict[bytes, tuple[int, int]] = {}
    for raw, body in trees.items():
        start = len(pack)
        size = len(body)
        head = bytearray([(_OBJ_TREE << 4) | (size & 15)])
        size >>= 4
        while size:
            head[-1] |= 0x80
            head.append(size & 0x7F)
            size >>= 7
        entry = bytes(head) + zlib.compress(body, 1)
        pack += entry
        offsets[raw] = (start, zlib.crc32(entry))
    checksum = hashlib.new(object_format, pack).digest()
    pack += checksum
    order = sorted(offsets)
    fanout = [0] * 256
    for raw in order:
        fanout[raw[0]] += 1
    idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
    total = 0
    for count in fanout:
        total += count
        idx += struct.pack(">I", total)
    idx += b"".join(order)
    idx += b"".join(struct.pack(">I", offsets[raw][1]) for raw in order)
    idx += b"".join(struct.pack(">I", offsets[raw][0]) for raw in order)
    idx += checksum
    idx += hashlib.new(object_format, idx).digest()
    folder = os.path.join(dest, "pack")
    os.mkdir(folder)
    name = os.path.join(folder, f"pack-{checksum.hex()}")
    for suffix, data in ((".pack", pack), (".idx", idx)):
        with open(name + suffix, "wb") as fh:
            fh.write(data)


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
