"""The spool: writer records that could not get the ledger's write lock in time (SPEC §6).

Room ``ledger``, standard library only. A recorder that waited its
:data:`~gentle_hooks.ledger.lock_wait.LOCK_WAIT_SECONDS` for another process's lock appends
the pending mutation it would have stored, with its entries, as one JSON line to
``<state dir>/spool.jsonl`` (:func:`append`: ``O_APPEND | O_NOFOLLOW``, the file and its
directory fsynced), so the record is durable although not yet in SQLite. Every command that
opens the ledger for writing folds the spool in first (the store
inserts each line in one transaction: :func:`claimed`); the hooks count a spool as
pending work (:data:`gentle_hooks.ledger.probe.IDLE_ROWS`). A line that is not a record
never takes the others with it: the fold stores every line it can read and keeps only the
others, byte for byte, in a file of their own (:func:`keep_aside`), which keeps the gates
closed until ``doctor --fix`` reads it (:mod:`gentle_hooks.ledger.kept`).

A line is ``{"mutation": ROW, "entries": [ROW, ...]}``, or, for a commit record the
post-commit hook could not store (:class:`CommitLine`), ``{"commit": ROW, "take": [ID, ...],
"escalations": BOOL}``; each ROW a table row (:func:`gentle_hooks.ledger.rows.to_row`) whose
BLOB values (text that is not UTF-8) are ``{"hex": "..."}``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from gentle_hooks.ledger.location import SPOOL_FILE, STATE_DIR

#: The suffix (then ``-<time>-<random>``) of a file of spool lines no fold could read, or
#: of a spool that could not be read at all (kept, never dropped).
BAD_SUFFIX = ".bad"
#: A spool line longer than this is malformed (a mutation names at most a few thousand paths).
MAX_LINE = 64 * 1024 * 1024


class SpoolError(ValueError):
    """A spool line that is not a record; ``kept`` is where the spool was moved aside."""

    def __init__(self, kept: str, why: str) -> None:
        super().__init__(why)
        self.kept = kept
        self.why = why


class CommitLine:
    """A spooled commit record (SPEC §6 "commit record").

    Attributes:
        commit: the commit record's row; take: the ids of the writer entries the commit
            took; escalations: whether it takes its root's unlinked sticky escalations.
    """

    __slots__ = ("commit", "escalations", "take")

    def __init__(self, commit: dict[str, object], take: tuple[int, ...], escalations: bool):
        self.commit = commit
        self.take = take
        self.escalations = escalations


def spool_path(ledger: str) -> str:
    """The spool of the ledger file ``ledger``: ``<state dir>/spool.jsonl``."""
    return os.path.join(os.path.dirname(ledger), SPOOL_FILE)


def state_spool(common_dir: str) -> str:
    """The spool under a git common dir (without naming the ledger)."""
    return os.path.join(common_dir, STATE_DIR, SPOOL_FILE)


def waiting(ledger: str) -> bool:
    """Whether anything (a spool, or a link or other file in its place) stands at the spool's
    name: work that is not in the store yet."""
    return os.path.lexists(spool_path(ledger))


def _encode(value: object) -> object:
    return {"hex": value.hex()} if isinstance(value, bytes) else value


class LineError(ValueError):
    """A spool line that is not a spooled record; the message says why in our words (it is
    kept as a quarantine record's reason and printed by ``doctor``)."""


def _decode(value: object) -> object:
    """A column value of a spool line: JSON text or number as it is, ``{"hex": ...}`` as
    the bytes it spells.

    Raises:
        LineError: any other value.
    """
    if isinstance(value, dict):
        if set(value) != {"hex"} or not isinstance(value["hex"], str):
            raise LineError("a value that is neither JSON text, number nor {'hex': ...}")
        try:
            return bytes.fromhex(value["hex"])
        except ValueError:
            raise LineError("a hex value that is not hex") from None
    if isinstance(value, (list, bool)):
        raise LineError("a column value that is a list or a boolean")
    return value


def line_of(mutation: dict[str, object], entries: list[dict[str, object]]) -> bytes:
    """One spool line (with its newline) for a mutation row and its entry rows."""
    import json  # not at module load: the gates' pass path imports this module

    data = {
        "mutation": {k: _encode(v) for k, v in mutation.items()},
        "entries": [{k: _encode(v) for k, v in e.items()} for e in entries],
    }
    return (json.dumps(data, ensure_ascii=True, sort_keys=True) + "\n").encode("ascii")


def commit_line_of(commit: dict[str, object], take: list[int], escalations: bool) -> bytes:
    """One spool line (with its newline) for a commit record's row (:class:`CommitLine`)."""
    import json

    data = {
        "commit": {k: _encode(v) for k, v in commit.items()},
        "take": take,
        "escalations": escalations,
    }
    return (json.dumps(data, ensure_ascii=True, sort_keys=True) + "\n").encode("ascii")


def append(ledger: str, line: bytes) -> str:
    """Append one line to the spool of ``ledger``, durably; the spool's path.

    The state directory exists (the ledger is in it); a link at the spool's name or in the
    directory's place is refused (``O_NOFOLLOW``), as the ledger's own files are. The line
    is written under the spool's ``flock``, into the file still at the spool's name (a fold
    that removed it meanwhile makes this open a new one), so a fold never removes a line it
    did not read.

    A write that fails part way (a full disk, a file size limit) is cut back off, so the
    spool holds whole lines only.

    Raises:
        OSError: the line could not be made durable (the caller then reports the lock).
    """
    import contextlib
    import fcntl

    directory = os.path.dirname(ledger)
    if os.path.islink(directory):
        raise OSError(f"{directory} is a symbolic link")
    path = spool_path(ledger)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    for _ in range(16):
        fd = os.open(path, flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            st = os.fstat(fd)
            try:
                now = os.stat(path, follow_symlinks=False)
            except FileNotFoundError:
                continue  # folded and removed while this waited: open the new one
            if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
                continue
            try:
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            except OSError:
                # a short write (a full disk, a file size limit) must not leave a torn line
                # behind: the next fold would take the whole spool, its good lines with it,
                # for malformed (under the flock, so the size is still where this began)
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, st.st_size)
                raise
            break
        finally:
            os.close(fd)
    else:
        raise OSError(f"{path}: replaced again and again while appending")
    dfd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    return path


Record = tuple[dict[str, object], list[dict[str, object]]] | CommitLine
#: A spool's lines that are not blank: (line number, its bytes without the newline).
Lines = list[tuple[int, bytes]]


@contextmanager
def claimed(ledger: str) -> Iterator[Lines | None]:
    """The spool's lines, held under its ``flock``; None when there is no spool. Enter it
    inside the store's write transaction and leave it after that transaction committed (the
    lines are stored, or kept aside: :func:`keep_aside`): the spool is then removed, still
    under the ``flock``, so no appender adds a line to it in between (:func:`append`). When
    the body raises, the spool is kept as it is.

    Raises:
        SpoolError: a spool that is not a regular file, cannot be read, or is larger than
            :data:`MAX_LINE`: the spool was moved aside whole (:func:`aside`) first.
    """
    import fcntl

    path = spool_path(ledger)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        yield None
        return
    except OSError as exc:
        raise aside(path, f"cannot be read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise aside(path, "is not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = b""
        while len(data) <= MAX_LINE:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
        if len(data) > MAX_LINE:
            raise aside(path, f"is larger than {MAX_LINE} bytes")
        # split at newlines only: a line kept aside is kept byte for byte
        yield [(n, raw) for n, raw in enumerate(data.split(b"\n"), 1) if raw.strip()]
        os.unlink(path)
    finally:
        os.close(fd)


def parse_line(raw: bytes) -> Record:
    """The record of one spool line: (mutation row, entry rows), or a :class:`CommitLine`.
    The rows' columns are not checked here (the fold reads them as records).

    Raises:
        LineError: the line is not a spooled record (why, in our words).
    """
    from gentle_hooks.ledger.rows import json_of

    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise LineError(
            "not ASCII text (a spool line is JSON with every other character escaped)"
        ) from None
    item = json_of(text, dict, LineError)
    try:
        if "commit" in item:
            return _commit_line(item)
        mutation = {str(k): _decode(v) for k, v in item["mutation"].items()}
        entries = [{str(k): _decode(v) for k, v in e.items()} for e in item["entries"]]
    except KeyError as exc:  # one of the literal keys above
        raise LineError(f"no member {exc.args[0]}") from None
    except (TypeError, AttributeError):
        raise LineError("a member of the wrong type") from None
    return mutation, entries


def _commit_line(item: dict[str, object]) -> CommitLine:
    """The :class:`CommitLine` of a decoded spool line.

    Raises:
        LineError, KeyError, AttributeError: not one.
    """
    commit = item["commit"]
    take, escalations = item["take"], item["escalations"]
    if not isinstance(commit, dict) or not isinstance(take, list):
        raise LineError("a commit line whose commit is not a row or take not a list")
    if not isinstance(escalations, bool) or not all(type(t) is int for t in take):
        raise LineError("a commit line whose take or escalations has the wrong type")
    return CommitLine({str(k): _decode(v) for k, v in commit.items()}, tuple(take), escalations)


def aside(path: str, why: str) -> SpoolError:
    """Move the spool at ``path`` aside to ``<path>.bad-<time>-<random>`` (kept, never
    dropped); the error naming it."""
    import time

    kept = f"{path}{BAD_SUFFIX}-{int(time.time())}-{os.urandom(3).hex()}"
    try:
        os.rename(path, kept)
    except OSError:
        kept = path  # left where it is: the next fold names it again
    return SpoolError(kept, why)


def keep_aside(ledger: str, lines: list[bytes]) -> str:
    """Write ``lines`` (spool lines that are not records), each with its newline, durably
    to a new file ``<spool>.bad-<time>-<random>`` beside the ledger ``ledger`` (created
    exclusively, never through a link); its path. The fold calls it before its transaction
    commits, so the spool is removed only once its unreadable lines are kept here: the
    gates stay closed while such a file exists (:mod:`gentle_hooks.ledger.kept`).

    Raises:
        OSError: the file could not be written whole (the fold then keeps the spool).
    """
    import contextlib
    import time

    path = f"{spool_path(ledger)}{BAD_SUFFIX}-{int(time.time())}-{os.urandom(3).hex()}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        view = memoryview(b"".join(line + b"\n" for line in lines))
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)
    dfd = os.open(os.path.dirname(path), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    return path


def kept_aside(ledger: str) -> list[str]:
    """The spools :func:`aside` moved beside the ledger ``ledger``, sorted."""
    directory = os.path.dirname(ledger)
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    prefix = SPOOL_FILE + BAD_SUFFIX + "-"
    return sorted(os.path.join(directory, n) for n in names if n.startswith(prefix))
