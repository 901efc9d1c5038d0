"""The snapshot files of agent shell calls: read back, marked spent, swept (SPEC §3
"Attribution follows content", §7 "Hooks"; :mod:`gentle_hooks.services.agent_shell` takes and
compares them).

Room ``services``. One small JSON file per call under ``<common dir>/gentle-hooks/shell/``;
what is not ours, too large or unreadable reads as absent (the call then records nothing and
says why). Standard library and :mod:`gentle_hooks.bounded` only.
"""

from __future__ import annotations

import contextlib
import json
import os

from gentle_hooks.bounded import WriteError, write_whole

#: Seconds after which a snapshot no post-tool event read is swept (6 hours).
MAX_AGE = 6 * 3600
#: The most commits a snapshot keeps whose content a command may restore (ref tips and
#: stash entries, :meth:`~gentle_hooks.git.delta.Deltas.ref_tips`).
MAX_TIPS = 1000
#: Largest snapshot file read back (bytes).
MAX_FILE = 1024 * 1024


def read_snapshot(
    path: str,
) -> (
    tuple[
        dict[str, str | None], str | None, str | None, list[str], list[str], dict[str, str | None]
    ]
    | None
):
    """The path -> blob map a snapshot file holds, the commit HEAD was at when it was kept
    (None: unborn), its nonce (None: kept without one), the ref tips and stash entries it
    kept, and the index's blob of each changed path it kept (none: a snapshot kept without
    them); or None when the file is absent or not ours."""
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
    got = doc.get("staged")
    staged: dict[str, str | None] = (
        {p: b for p, b in got.items() if isinstance(p, str) and isinstance(b, str)}
        if isinstance(got, dict)
        else {}
    )
    return blobs, head or None, nonce if isinstance(nonce, str) else None, tips, stashes, staged


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


def unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
