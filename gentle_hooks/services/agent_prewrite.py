"""The files a writing tool names, kept as they were just before it ran: its pre-tool event
keeps them, its post-tool event measures the write from them (SPEC §3 "Attribution follows
content", §6 "pending mutation", §7 "Hooks"; docs/agents/gemini-cli.md).

Room ``services``. A runtime whose post-tool input may not carry the file it started from
(Gemini CLI's ``write_file`` rewrites the file whole, a person's unsaved lines included)
wires its pre-tool event for its writing tools too (:data:`gentle_hooks.agents.event.WRITE_BEFORE`).
That event hashes each file the call names as ``git add`` would (written to the object store,
so it can be read back; a file not there is None) into one small file per call,
``<common dir>/gentle-hooks/prewrite/<runtime>.<hash of session, pairing key, work tree>.json``
(:attr:`RuntimeEvent.shell_key` pairs the two events: the inputs name no call id). The
post-tool event reads it once (it is removed) and each file is measured from its own start:
only what changed between before and after is the writer's.

No snapshot (an older install wired no pre-tool entry for the writing tools, the pre-tool
hook failed, or the post-tool input is a replay): the post-tool event measures as it did
without one (the runtime's own pre-image where it gives one, else the writer's last write,
the index or ``HEAD``: fail closed), and ``doctor`` says to install the recorder again. A
snapshot never read (the call was denied) is swept after
:data:`gentle_hooks.services.shell_files.MAX_AGE` seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.services.agent_trees import by_work_tree
from gentle_hooks.services.shell_files import sweep

#: The directory of the snapshots, under the state directory.
PREWRITE_DIR = "prewrite"
#: The largest snapshot file read back (a call names a handful of files).
_MAX_FILE = 1024 * 1024


def _file(root: str, runtime: str, event: RuntimeEvent) -> str:
    """The snapshot file of ``event``'s call, in the state directory of ``root``'s
    repository.

    Raises:
        GitError: ``root`` is not a work tree git opens.
    """
    repo = Repository.open(root)
    key = "\0".join((event.session_id or "", event.shell_key or "", repo.paths.toplevel or ""))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    where = os.path.join(repo.paths.common_dir, STATE_DIR, PREWRITE_DIR)
    return os.path.join(where, f"{runtime}.{digest}.json")


def keep(title: str, runtime: str, event: RuntimeEvent, root: str | None, cwd: str | None) -> str:
    """Keep the files ``event`` (a writing tool's pre-tool event) names as they are now;
    returns the line said (nothing is recorded). Outside any work tree, or when the file
    cannot be written, nothing is kept and the line says why (the post-tool event then
    measures as without a snapshot).

    Raises:
        GitError: git failed.
    """
    call = f"the {event.tool or 'writing'} call of {title}"
    if root is None:
        return f"{call} names no file in a git work tree: nothing kept"
    blobs: dict[str, str | None] = {}
    for top, rels in by_work_tree(root, event.paths, cwd or event.cwd):
        real = os.path.realpath(top)
        held = Repository.open(top).hash_worktree(rels) if rels else {}
        blobs.update((os.path.join(real, p), held.get(p)) for p in rels)
    path = _file(root, runtime, event)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        sweep(os.path.dirname(path), time.time())
        write_whole(path, json.dumps(blobs).encode("utf-8", "surrogatepass"))
    except (OSError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"{call}: the files it names could not be kept ({why}): measured without them"
    return (
        f"kept the {len(blobs)} file(s) {call} names as they are: only what it changes "
        "there is recorded, after it"
    )


def starts(runtime: str, event: RuntimeEvent, root: str | None) -> dict[str, str | None]:
    """Real absolute path -> the blob it held before ``event``'s call (None: absent), as
    its pre-tool event kept them (:func:`keep`); the snapshot is removed. Empty when none
    was kept, or it cannot be read."""
    if root is None or event.shell_key is None:
        return {}
    try:
        path = _file(root, runtime, event)
        with open(path, "rb") as f:
            data = f.read(_MAX_FILE + 1)
        os.unlink(path)
        doc = json.loads(data) if len(data) <= _MAX_FILE else None
    except (OSError, GitError, ValueError):
        return {}
    if not isinstance(doc, dict):
        return {}
    return {
        p: b for p, b in doc.items() if isinstance(p, str) and (b is None or isinstance(b, str))
    }
