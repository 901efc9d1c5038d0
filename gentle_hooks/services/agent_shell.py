"""What an agent's shell command changed in the work tree: a snapshot taken at the runtime's
pre-tool event of the call, compared at its post-tool event (SPEC §3 "Attribution follows
content", §6 "pending mutation", §7 "Hooks"; docs/agents/claude-code.md).

Room ``services``. A shell call names no file it writes (a heredoc, ``sed -i``, a
generator), so before it runs the recorder keeps the blob of every path ``git status`` shows
as changed (:meth:`gentle_hooks.git.delta.Deltas.dirty_paths`, hashed as ``git add`` would
and written to the object store, so the content can be read back) in one small file per
call, ``<common dir>/gentle-hooks/shell/<runtime>.<hash of session, call id (or the
runtime's pairing key, :attr:`RuntimeEvent.shell_key`), work tree>.json``, with the
commit ``HEAD`` was at. After it runs, the same is done for the paths changed then or
before. Every path whose blob appeared, changed or vanished is the
writer's, measured from the blob it held before (:attr:`Changed.starts`: the snapshot's,
or, for a path unchanged before, its blob in that commit), so a command that only moves
``HEAD`` (``git reset --soft``) or the index changes no path. A person's unsaved lines in a
file the command did not touch keep their blob, so they stay the person's; in a file it
touched they are in its start, so not the writer's. The pre-tool side runs three git
processes (``status``, ``hash-object``, ``rev-parse``), the post-tool side three
(``status``, ``ls-tree``, ``hash-object``), besides the ones that open the repository.

The snapshot is removed when read; one never read (the call was denied, or failed, or its
post-tool hook did not run) is swept by a later snapshot after :data:`MAX_AGE` seconds. A
work tree with more than :data:`MAX_PATHS` changed paths is not snapshot: the call then
records nothing and says why, as a call without a snapshot does.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Mapping

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GentleError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.values.frozen import frozen, replace

#: The directory of the snapshots, under the state directory.
SHELL_DIR = "shell"
#: The most changed paths a snapshot keeps; above it none is kept.
MAX_PATHS = 2000
#: Seconds after which a snapshot no post-tool event read is swept (6 hours).
MAX_AGE = 6 * 3600
#: Largest snapshot file read back (bytes).
_MAX_FILE = 1024 * 1024


@frozen
class Changed:
    """What a shell call changed in one work tree.

    Attributes:
        paths: the root-relative paths whose blob appeared, changed or vanished, sorted.
        starts: ``(path, blob)`` for each of them: the blob it held before the call (the
            snapshot's; for a path unchanged then, its blob in the commit ``HEAD`` was at;
            None: it was absent), which it is measured from.
    """

    paths: tuple[str, ...]
    starts: tuple[tuple[str, str | None], ...]


def _file(repo: Repository, runtime: str, event: RuntimeEvent) -> str:
    """The snapshot file of ``event``'s call in ``repo``."""
    call = event.shell_key or event.tool_call_id or ""
    key = "\0".join((event.session_id or "", call, repo.paths.toplevel or ""))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(repo.paths.common_dir, STATE_DIR, SHELL_DIR, f"{runtime}.{digest}.json")


def take(root: str, runtime: str, event: RuntimeEvent) -> int | None:
    """Keep the snapshot of the work tree ``root`` before ``event``'s shell call, sweeping
    expired ones first. Returns how many changed paths it holds, or None when there were
    more than :data:`MAX_PATHS` (none is kept then: the call will record nothing).

    Raises:
        GentleError: the snapshot cannot be written (one line, nothing kept).
        GitError: git failed.
    """
    repo = Repository.open(root)
    path = _file(repo, runtime, event)
    where = os.path.dirname(path)
    if os.path.islink(os.path.dirname(where)) or os.path.islink(where):
        raise GentleError(f"cannot keep the work tree's snapshot: {where} goes through a link")
    _sweep(where, time.time())
    dirty = repo.dirty_paths()
    if len(dirty) > MAX_PATHS:
        _unlink(path)
        return None
    blobs = repo.hash_worktree(dirty)
    # a path git status does not show held HEAD's blob: kept by its commit, so a command
    # that only moves HEAD (an agent's `git reset --soft`) changes none of them
    doc = {"blobs": blobs, "head": repo.head() or ""}
    try:
        os.makedirs(where, exist_ok=True)
        write_whole(path, json.dumps(doc).encode("utf-8", "surrogatepass"))
    except (OSError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GentleError(f"cannot keep the work tree's snapshot in {where}: {why}") from None
    return len(blobs)


def compare(root: str, runtime: str, event: RuntimeEvent) -> Changed | None:
    """What ``event``'s shell call changed in the work tree ``root`` since its snapshot,
    which is removed; None when no usable snapshot was kept.

    Raises:
        GitError: git failed.
    """
    repo = Repository.open(root)
    path = _file(repo, runtime, event)
    kept = _read(path)
    _unlink(path)
    if kept is None:
        return None
    before, head = kept
    dirty = repo.dirty_paths()
    fresh = [p for p in dirty if p not in before]
    # what a path unchanged before held: its blob in the commit HEAD was then (None: absent
    # there, or HEAD unborn), not in the index or HEAD the command may have moved
    old: dict[str, str | None] = dict.fromkeys(fresh)
    if head and fresh:
        old.update(repo.blobs_in(head, fresh))
    held = {**old, **before}
    after = repo.hash_worktree({*dirty, *before})
    paths = sorted(p for p, blob in after.items() if held.get(p) != blob)
    starts = tuple((p, held.get(p)) for p in paths)
    return Changed(tuple(paths), starts)


def _read(path: str) -> tuple[dict[str, str | None], str | None] | None:
    """The path -> blob map a snapshot file holds and the commit HEAD was at when it was
    kept (None: unborn), or None when the file is absent or not ours."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_MAX_FILE + 1)
        doc = json.loads(data) if len(data) <= _MAX_FILE else None
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
    return blobs, head or None


def _sweep(where: str, now: float) -> None:
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


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def before(runtime: str, title: str, event: RuntimeEvent, root: str | None) -> str:
    """Keep the snapshot before ``event``'s shell call (:func:`take`) in the work tree
    ``root`` (None: outside any); returns the line said (nothing is recorded yet).

    Raises:
        GentleError / GitError: as :func:`take`.
    """
    call = f"the {event.tool or 'shell'} call of {title}"
    if root is None:
        return f"{event.cwd or os.getcwd()} is not in a git work tree"
    held = take(root, runtime, event)
    if held is None:
        return (
            f"{root} has more than {MAX_PATHS} changed paths: no snapshot of it is kept "
            f"before {call}, so what the command changes is not recorded"
        )
    return f"kept the work tree before {call}: what the command changes is recorded after it"


def after(
    runtime: str, title: str, event: RuntimeEvent, root: str | None
) -> tuple[RuntimeEvent, dict[str, str | None], str | None]:
    """``event`` of a shell call that ran, as the write of every path it changed in the work
    tree ``root`` (:func:`compare`; absolute paths), with each path's start (real absolute
    path -> the blob it is measured from, :attr:`Changed.starts`); or, with nothing to
    record, the event and why (no snapshot was kept, or the command changed no file).

    A command the runtime reports failed (:attr:`RuntimeEvent.failed`: Codex's and Gemini
    CLI's post-tool events fire after a non-zero exit too) may have written before it
    failed (``sed -i f && false``): what changed is the writer's all the same (content
    decides, not the exit status), and a note says so.

    Raises:
        GitError: git failed.
    """
    call = f"the {event.tool or 'shell'} call of {title}"
    changed = compare(root, runtime, event) if root is not None else None
    if changed is None:
        return event, {}, f"{call} {event.not_written}"
    assert root is not None
    if not changed.paths:
        return event, {}, f"{call} changed no file in {root} (git status shows the same)"
    real = os.path.realpath(root)
    paths = tuple(os.path.join(real, p) for p in changed.paths)
    starts = {os.path.join(real, p): blob for p, blob in changed.starts}
    notes = event.notes
    if event.failed is not None:
        notes += (
            f"{call} {event.failed}, but changed {len(paths)} file(s) before it ended: what it "
            "changed is recorded (content decides, not the exit status)",
        )
    done = replace(event, paths=paths, writes=True, not_written=None, failed=None, notes=notes)
    return done, starts, None


def starts_in(
    root: str, paths: tuple[str, ...], starts: Mapping[str, str | None]
) -> tuple[tuple[str, str | None], ...]:
    """``(path, blob)`` for each of the root-relative ``paths`` of the work tree ``root``
    that ``starts`` (real absolute path -> blob, :func:`after`) names."""
    out = []
    real = os.path.realpath(root)
    for p in paths:
        full = os.path.join(real, p)
        if full in starts:
            out.append((p, starts[full]))
    return tuple(out)
