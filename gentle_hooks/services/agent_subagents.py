"""Subagents running in an agent session: the markers ``record --from`` keeps between a
runtime's subagent start and stop events (SPEC §7 "Hooks"; seed 000 "writer profile": an
inherited model is unknown, so small).

Room ``services``. Copilot's and Cursor's file-write inputs name no agent, but both runtimes
fire ``subagentStart`` before a subagent runs and ``subagentStop`` when it completes. Each
start leaves one marker file in each repository its session's later writes may land in
(:func:`homes`: the repository of its working directory or of each workspace root, or each
repository a folder of repositories holds), ``<common dir>/gentle-hooks/subagents/<runtime>.<session
hash>.<start hash>.json``; a stop removes one marker of its session (the one naming the
same subagent, else the oldest). While a session has a live marker, its writes are
recorded with the subagent's own model when the marker names one, else ``unknown``:
never the parent's.

A marker whose stop never came expires after :data:`MAX_AGE` seconds (a subagent running
longer records as the parent again: the bound is documented on the runtimes' pages), is
removed by the next look-up that finds it expired; ``doctor`` reports every expired one
(:func:`stale`) as residue and ``doctor --fix`` removes them. One file per start keeps
parallel subagents apart without a lock: two stops racing for one marker take the next.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time

from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.values.frozen import frozen

#: The directory of the markers, under the state directory.
MARKER_DIR = "subagents"
#: Characters of a subagent's name or model a marker keeps.
MAX_LABEL = 200
#: Seconds after which a marker no stop removed no longer counts (6 hours).
MAX_AGE = 6 * 3600


@frozen
class Subagent:
    """A running subagent: name (its name or id as the start named it, or None), model (its
    own, None when the start named none), started (Unix seconds), path (its marker)."""

    name: str | None
    model: str | None
    started: float
    path: str


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def marker_dir(common_dir: str) -> str:
    """Where the markers of the repository with git common dir ``common_dir`` are."""
    return os.path.join(common_dir, STATE_DIR, MARKER_DIR)


def _prefix(runtime: str, session: str | None) -> str:
    return f"{runtime}.{_digest(session or '')}."


def start(
    common_dir: str, runtime: str, session: str | None, name: str | None, model: str | None
) -> str:
    """Leave the marker of a subagent that starts; returns its path. The name and model are
    kept to their first :data:`MAX_LABEL` characters.

    Raises:
        GentleError: the marker cannot be written (the state directory, or the markers'
            one, is a link or not a writable directory): one line, nothing kept.
    """
    now = time.time()
    where = marker_dir(common_dir)
    state = os.path.dirname(where)
    if os.path.islink(state) or os.path.islink(where):
        raise GentleError(f"cannot keep the subagent's marker: {where} goes through a link")
    blob = json.dumps(
        {
            "runtime": runtime,
            "session": session,
            "agent": name[:MAX_LABEL] if name else None,
            "model": model[:MAX_LABEL] if model else None,
            "started": now,
        }
    )
    stem = _prefix(runtime, session) + _digest(f"{now}{os.getpid()}")
    path = os.path.join(where, stem + ".json")
    try:
        os.makedirs(where, exist_ok=True)
        # a random name opened O_EXCL | O_NOFOLLOW: a link planted at a guessable name is
        # never written through
        write_whole(path, blob.encode("utf-8"))
    except (OSError, UnicodeEncodeError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GentleError(f"cannot keep the subagent's marker in {where}: {why}") from None
    return path


def running(
    common_dir: str, runtime: str, session: str | None, now: float | None = None
) -> list[Subagent]:
    """The live subagents of ``runtime``'s ``session``, oldest first; an expired marker (older
    than :data:`MAX_AGE`) or one that cannot be read is removed and left out."""
    now = time.time() if now is None else now
    where, names = _listing(common_dir)
    prefix = _prefix(runtime, session)
    out = []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".json")):
            continue
        marker = _read(os.path.join(where, name))
        if marker is None or now - marker.started > MAX_AGE:
            _unlink(os.path.join(where, name))
            continue
        out.append(marker)
    return sorted(out, key=lambda m: m.started)


def stop(common_dir: str, runtime: str, session: str | None, name: str | None) -> Subagent | None:
    """Remove the marker of the subagent that stopped: the oldest naming ``name``, else the
    oldest of the session; None when the session has none."""
    live = running(common_dir, runtime, session)
    ordered = [m for m in live if name is not None and m.name == name] + live
    for marker in ordered:
        if _unlink(marker.path):
            return marker
    return None


def stale(common_dir: str, now: float | None = None) -> list[str]:
    """The expired or unreadable markers of the repository (nothing is removed)."""
    now = time.time() if now is None else now
    where, names = _listing(common_dir)
    out = []
    for name in names:
        path = os.path.join(where, name)
        if name.endswith(".json"):
            marker = _read(path)
            if marker is None or now - marker.started > MAX_AGE:
                out.append(path)
            continue
        try:  # a start's temporary file: left over once it is as old as a marker expires
            if now - os.lstat(path).st_mtime > MAX_AGE:
                out.append(path)
        except OSError:
            continue
    return out


#: The most entries of a folder of repositories looked at for the repositories it holds.
MAX_HELD = 200


def homes(places: list[str]) -> list[str]:
    """The git common directories where a subagent start in ``places`` (its working
    directory, or every workspace root of its session) keeps its marker, so that every later
    write of the session finds it from the written path's repository: each place's own
    repository, or, for a place in none (a folder of repositories), each repository directly
    in it (its first :data:`MAX_HELD` entries, sorted). No duplicates; [] when none is a
    repository nor holds one."""
    out: list[str] = []
    for place in places:
        if not os.path.isdir(place):
            continue
        common = _common_dir(place)
        if common is not None:
            out.append(common)
            continue
        try:
            entries = sorted(os.listdir(place))[:MAX_HELD]
        except OSError:
            continue
        for entry in entries:
            held = os.path.join(place, entry)
            if not (os.path.isdir(held) and os.path.lexists(os.path.join(held, ".git"))):
                continue
            if (common := _common_dir(held)) is not None:
                out.append(common)
    return list(dict.fromkeys(out))


def _common_dir(where: str) -> str | None:
    """The git common directory of the work tree holding ``where``, None outside one."""
    try:
        repo = Repository.open(where)
    except GitError:
        return None
    return repo.paths.common_dir if repo.paths.toplevel is not None else None


def _listing(common_dir: str) -> tuple[str, list[str]]:
    """The marker directory of the repository and its entries, sorted (none when it cannot
    be listed)."""
    where = marker_dir(common_dir)
    try:
        return where, sorted(os.listdir(where))
    except OSError:
        return where, []


def _read(path: str) -> Subagent | None:
    """The marker at ``path``; None when it is not a regular file (a FIFO there is opened
    without waiting for a writer, then refused), unreadable or not a marker."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        doc = json.loads(os.read(fd, 65536).decode("utf-8"))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    if not isinstance(doc, dict) or not isinstance(doc.get("started"), int | float):
        return None
    agent, model = doc.get("agent"), doc.get("model")
    return Subagent(
        agent if isinstance(agent, str) else None,
        model if isinstance(model, str) and model.strip() else None,
        float(doc["started"]),
        path,
    )


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
