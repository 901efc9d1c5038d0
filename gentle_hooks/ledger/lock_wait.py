"""How long this process waits for another's write lock on the ledger, and who holds it.

Room ``ledger``, standard library only. An agent runtime runs a recorder as a hook with a
time limit of its own (Claude Code's is 60 s); a recorder that waits past it is killed and
its record lost. So a write transaction waits for another process's lock
:data:`LOCK_WAIT_SECONDS` at most, and once one wait ran out the process waits no more
(:func:`begin_immediate`), nor does any open or read of the store (:func:`wait_ms`,
:func:`ran_out`: ``doctor`` opened the ledger three times, 6 s each, behind one holder);
it fails with the holder named when Linux says who it is (:func:`lock_holders`, from
``/proc/locks``).
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import os

#: Seconds a write transaction waits for another process's lock: well under the shortest
#: agent-runtime hook limit (Claude Code's 60 s, others' 30 s).
LOCK_WAIT_SECONDS = 6.0
#: Milliseconds any one statement waits on a busy store (the connection's busy timeout).
STATEMENT_WAIT_MS = int(LOCK_WAIT_SECONDS * 1000)

_gave_up = False  # a wait of this process ran out: the lock is held by a stuck process


def wait_ms(busy_ms: int) -> int:
    """The busy timeout for a new connection or statement: ``busy_ms``, or 0 once a wait
    of this process ran out (the holder is stuck: this process waits no more)."""
    return 0 if _gave_up else busy_ms


def ran_out(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another process's lock kept a statement out (``locked`` or
    ``busy``) — its wait ran out, so this process waits no more from now on."""
    global _gave_up
    text = str(exc)
    if "locked" in text or "busy" in text:
        _gave_up = True
        return True
    return False


def begin_immediate(conn: sqlite3.Connection, *, wait: bool = True) -> None:
    """``BEGIN IMMEDIATE`` on ``conn``, waiting for another process's lock at most
    :data:`LOCK_WAIT_SECONDS`, and not at all when ``wait`` is false or a wait of this
    process already ran out (so a command never waits twice behind a stuck holder, while
    a process that writes often under ordinary contention waits each time it needs to).

    Raises:
        sqlite3.Error: the lock was not granted in time (``database is locked``), or
            another SQLite error.
    """
    global _gave_up
    left = 0 if _gave_up or not wait else STATEMENT_WAIT_MS
    conn.execute(f"PRAGMA busy_timeout = {left}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if wait and ("locked" in str(exc) or "busy" in str(exc)):
            _gave_up = True
        raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {0 if _gave_up else STATEMENT_WAIT_MS}")


def lock_holders(path: str) -> list[str]:
    """Other processes holding a lock on the store at ``path`` or its shared-memory file,
    each as ``process <pid> (<command line>)``, from ``/proc/locks``; empty where that is
    not known (not Linux, no such lock, unreadable)."""
    inodes: set[tuple[int, int, int]] = set()
    for name in (path, path + "-shm"):
        try:
            st = os.stat(name)
        except OSError:
            continue
        inodes.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
    pids: list[int] = []
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                pid, where = _pid_and_file(fields)
                if fields[3:4] != ["WRITE"]:  # a reader's share: it never keeps a writer out
                    continue
                if pid and where in inodes and pid != os.getpid() and pid not in pids:
                    pids.append(pid)
    except OSError:
        return []
    return [f"process {pid} ({_command(pid)})" for pid in pids[:3]]


def _pid_and_file(fields: list[str]) -> tuple[int, tuple[int, int, int] | None]:
    """``/proc/locks`` line fields (``1: POSIX ADVISORY WRITE 123 08:01:456 0 EOF``) to
    the pid and (major, minor, inode); ``(0, None)`` for a line not read here."""
    if len(fields) > 5 and fields[1] == "->":  # a waiter on a lock: not a holder
        return 0, None
    try:
        pid = int(fields[4])
        major, minor, inode = fields[5].split(":")
        return pid, (int(major, 16), int(minor, 16), int(inode))
    except (IndexError, ValueError):
        return 0, None


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read(4096).split(b"\0")
    except OSError:
        return "command unknown"
    # one line of printable ASCII whatever the arguments hold (a newline, an escape, a byte)
    text = " ".join(" ".join(os.fsdecode(a) for a in argv if a).split())
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text[:120] or "command unknown"
