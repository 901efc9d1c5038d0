"""The snapshot files of agent shell calls: written, read back, marked spent, swept (SPEC §3
"Attribution follows content", §7 "Hooks"; :mod:`gentle_hooks.services.agent_shell` takes and
compares them).

Room ``services``. One JSON file per call under ``<common dir>/gentle-hooks/shell/``, an
object: ``head`` (the commit ``HEAD`` was at, "" unborn), ``nonce``, ``tips`` and
``stashes`` (commit ids), ``blobs`` (hashed path -> blob, null: absent), ``stats`` (listed
path -> ``lstat`` fields, :func:`listing`), ``staged`` (changed tracked path -> its blob
in the index), ``modes`` (hashed path -> the mode git would give it, :func:`modes`) and,
for one over the bound, ``over``: true with ``blobs`` empty and no ``stats`` nor
``staged`` (:class:`Kept`). What is not ours, too large or unreadable reads as absent
(the call then records nothing and says why). Beside them, :data:`MADE_FILE` lists the ref
tips and stash entries shell calls made (:func:`known_made`, :func:`note_made`). Standard library,
:mod:`gentle_hooks.bounded` and the frozen value decorator only.

A snapshot is replaced by a small "spent" marker when read (:func:`spend`), so that a replayed
post-tool input of the same call says it was read already (never that the pre-tool hook is
missing) and records nothing again; nor does a replayed pre-tool input keep a snapshot over the
marker of a call the runtime names (:func:`settles`: Claude Code's and Codex's ``tool_use_id``),
which would make a person's edits made before the replayed post-tool input that call's. The
marker, and a snapshot never read (a call denied or failed, or its post-tool hook not run), are
swept by a later snapshot after :data:`MAX_AGE` seconds: a pair replayed later than that is taken
for a new call.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Mapping, Sequence

from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.values.frozen import frozen

#: Seconds after which a snapshot no post-tool event read is swept (6 hours).
MAX_AGE = 6 * 3600
#: The most commits a snapshot keeps whose content a command may restore (ref tips and
#: stash entries, :meth:`~gentle_hooks.git.delta.Deltas.ref_tips`).
MAX_TIPS = 1000
#: Largest snapshot file kept and read back (bytes); a larger one is kept holding ``HEAD``
#: only (:attr:`Kept.over`).
MAX_FILE = 64 * 1024 * 1024
#: The file, beside the snapshots, listing the ref tips and stash entries shell calls made
#: (one commit id a line, the last :data:`MAX_TIPS` kept: :func:`known_made`).
MADE_FILE = "made-by-calls"


@frozen
class Kept:
    """A snapshot file read back (:func:`read_snapshot`).

    Attributes:
        blobs: hashed path -> its blob in the work tree then (None: absent).
        stats: listed path -> its ``lstat`` fields then (:func:`listing`).
        staged: changed path -> its blob in the index then (none: a snapshot kept without
            them, or over the bound).
        head: the commit ``HEAD`` was at (None: unborn).
        nonce: the snapshot's random id (None: kept without one).
        tips: the ref tips it kept; stashes: the stash entries it kept.
        over: it was over the bound: only ``head``, ``nonce``, ``tips`` and ``stashes``
            were kept.
        modes: hashed path -> its mode then (:func:`modes`; none: kept without them).
    """

    blobs: dict[str, str | None]
    stats: dict[str, list[int]]
    staged: dict[str, str | None]
    head: str | None
    nonce: str | None
    tips: list[str]
    stashes: list[str]
    over: bool
    modes: dict[str, str]


def listing(root: str, paths: Sequence[str]) -> dict[str, list[int]]:
    """Path -> ``lstat`` fields (size, mtime_ns, ctime_ns, inode, mode) of each of the
    root-relative ``paths`` of the work tree ``root``; a path gone is left out."""
    out: dict[str, list[int]] = {}
    for p in paths:
        with contextlib.suppress(OSError):
            st = os.lstat(os.path.join(root, p))
            out[p] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode]
    return out


def mode_of(st_mode: int) -> str:
    """The mode git gives a work-tree file of ``lstat`` mode ``st_mode``: ``120000`` a
    symbolic link, ``100755`` a file its owner may run, else ``100644``."""
    if stat.S_ISLNK(st_mode):
        return "120000"
    return "100755" if st_mode & stat.S_IXUSR else "100644"


def modes(root: str, paths: Sequence[str]) -> dict[str, str]:
    """Path -> :func:`mode_of` each of the root-relative ``paths`` of the work tree
    ``root`` that is a file or a symbolic link (a path gone or a directory is left out)."""
    out: dict[str, str] = {}
    for p in paths:
        with contextlib.suppress(OSError):
            st = os.lstat(os.path.join(root, p))
            if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
                out[p] = mode_of(st.st_mode)
    return out


def encode(doc: Mapping[str, object], bounded: Mapping[str, object] | None) -> tuple[bytes, bool]:
    """The bytes of a snapshot file holding ``doc`` and ``bounded`` (the hashed, listed and
    staged paths), and False; or, when ``bounded`` is None (too many paths) or they are
    over :data:`MAX_FILE` bytes, of ``doc`` alone marked ``over`` (:attr:`Kept.over`), and
    True."""
    if bounded is not None:
        data = json.dumps({**doc, **bounded}).encode("utf-8", "surrogatepass")
        if len(data) <= MAX_FILE:
            return data, False
    return json.dumps({**doc, "blobs": {}, "over": True}).encode("utf-8", "surrogatepass"), True


def read_snapshot(path: str) -> Kept | None:
    """What the snapshot file ``path`` holds; None when it is absent, over
    :data:`MAX_FILE` bytes or not ours (a spent marker included)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE + 1)
        doc = json.loads(data) if len(data) <= MAX_FILE else None
    except (OSError, ValueError):
        return None
    blobs = doc.get("blobs") if isinstance(doc, dict) else None
    head = doc.get("head") if isinstance(doc, dict) else None
    if (
        not isinstance(blobs, dict)
        or not isinstance(head, str)
        or not all(
            isinstance(p, str) and (b is None or isinstance(b, str)) for p, b in blobs.items()
        )
    ):
        return None
    assert isinstance(doc, dict)
    nonce = doc.get("nonce")
    tips, stashes = (_ids(doc.get(k)) for k in ("tips", "stashes"))
    got, stats, kept = doc.get("staged"), doc.get("stats"), doc.get("modes")
    staged: dict[str, str | None] = (
        {p: b for p, b in got.items() if isinstance(p, str) and isinstance(b, str)}
        if isinstance(got, dict)
        else {}
    )
    listed = {
        p: st
        for p, st in (stats.items() if isinstance(stats, dict) else ())
        if isinstance(p, str) and isinstance(st, list) and all(isinstance(n, int) for n in st)
    }
    return Kept(
        blobs=blobs,
        stats=listed,
        staged=staged,
        head=head or None,
        nonce=nonce if isinstance(nonce, str) else None,
        tips=tips,
        stashes=stashes,
        over=doc.get("over") is True,
        modes={
            p: m
            for p, m in (kept.items() if isinstance(kept, dict) else ())
            if isinstance(p, str) and m in ("100644", "100755", "120000")
        },
    )


def _ids(value: object) -> list[str]:
    """The commit ids a snapshot's list holds (anything else: none)."""
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str) and v.isalnum()][:MAX_TIPS]


def sweep(where: str, now: float) -> None:
    """Remove the snapshots in ``where`` older than :data:`MAX_AGE` seconds."""
    try:
        names = os.listdir(where)
    except OSError:
        return
    for name in names:
        full = os.path.join(where, name)
        try:
            if name.endswith(".json") and now - os.lstat(full).st_mtime > MAX_AGE:
                os.unlink(full)
        except OSError:
            continue


#: What a snapshot file holds once its post-tool input read it (:func:`spend`).
_SPENT = b'{"spent": true}'


def spend(path: str) -> None:
    """Replace the snapshot at ``path``, just read, by a marker that it was (a replayed
    post-tool input of the same call then says so:
    :func:`gentle_hooks.services.agent_shell.spent`); removed when it cannot be written.
    Swept as the snapshots are."""
    try:
        write_whole(path, _SPENT)
    except (OSError, WriteError):
        unlink(path)


def is_spent(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_SPENT) + 1) == _SPENT
    except OSError:
        return False


def settles(call_id: str | None, shell_key: str | None) -> bool:
    """Whether a shell call is settled once its post-tool input read the snapshot (spent):
    its id ``call_id`` is the runtime's own, shared by the call's two events and no other
    call (Claude Code's and Codex's ``tool_use_id``), so a later pre-tool input of it is a
    replay. A derived id (``derived:``, none in the input) or a pairing key ``shell_key``
    may be the same command run again: a new call, kept again."""
    return shell_key is None and call_id is not None and not call_id.startswith("derived:")


def unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def known_made(listed: str) -> list[str]:
    """The ref tips and stash entries earlier shell calls made, as :data:`MADE_FILE`
    ``listed`` names them (none when it cannot be read)."""
    try:
        with open(listed, "rb") as fh:
            data = fh.read(MAX_FILE).decode("ascii", "replace")
    except OSError:
        return []
    return [w for w in data.split() if w.isalnum()]


def note_made(listed: str, known: list[str], new: list[str]) -> None:
    """Add ``new`` (the ref tips and stash entries this call made) to the list ``listed``
    (the last :data:`MAX_TIPS` kept). A list that cannot be written leaves them out of
    later calls' (they then count as a person's: noted nowhere, so the write is retried by
    every call)."""
    if new:
        kept = [*known, *new][-MAX_TIPS:]
        with contextlib.suppress(OSError, WriteError):
            write_whole(listed, ("\n".join(kept) + "\n").encode("ascii"))
