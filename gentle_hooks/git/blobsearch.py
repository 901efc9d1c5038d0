"""Which blobs hold one of some byte strings: a streamed ``cat-file --batch`` search.

Room ``git``. The built-in classifier asks which changed blobs may hold a process call
before it pays for a ``-G`` scan (SPEC §4); this answers while git is still counting lines.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import os
import select
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.process import Drain, grow_pipe, popen_git

try:  # queue.SimpleQueue itself, without queue.py and the heapq it loads for other queues
    from _queue import SimpleQueue
except ImportError:  # pragma: no cover - an interpreter without the C module
    from queue import SimpleQueue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.core import RepositoryCore

#: Once this much was read from cat-file, a read of less than _SMALL_READ is followed by a
#: short pause (see BlobSearch._read).
_LARGE_OUTPUT = 256 * 1024

_SMALL_READ = 16 * 1024

#: With a :meth:`BlobSearch.watch` pending, bytes read that are searched as soon as cat-file
#: has no more to give; fewer are searched once it gave none for _IDLE seconds (fewer,
#: larger searches cost less CPU).
_EARLY_SEARCH = 64 * 1024
_IDLE = 0.002


class BlobSearch:
    """Which blobs hold one of some byte strings (or start with a prefix, or have a line
    longer than some length), in one ``git cat-file --batch`` process fed blob ids while
    they become known.

    :meth:`add` never blocks (a thread writes the ids; another reads the blobs, a bounded
    piece at a time, and searches them in place); :meth:`finish` answers. An id that names
    no blob here (missing, another object type) is in the answer: nothing is known of it.
    The process starts with the first ids (or :meth:`start`), so a search given none and
    never started costs nothing.
    """

    def __init__(
        self,
        repo: RepositoryCore,
        needles: Sequence[bytes],
        prefix: bytes,
        fold: bool = False,
        many: tuple[int, Callable[[], None]] | None = None,
        known: Mapping[str, bytes] | None = None,
        longer: int | None = None,
    ) -> None:
        self._repo = repo
        #: a blob with a line of more bytes than this is in the answer too (None: no such rule)
        self._longer = longer
        #: blobs read already in this run, by id: searched in place, never asked again
        self._known = known or {}
        self._needles = tuple(needles)
        self._prefix = prefix
        self._fold = fold
        #: (n, callback): called once, on the reading thread, when more than n ids are found
        self._many = many
        self._stopped = False
        self._lock = threading.Lock()
        self._found: set[str] = set()
        self._proc: subprocess.Popen[bytes] | None = None
        self._ids: SimpleQueue[list[str] | None] = SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._failed: str | None = None
        self._stderr = b""

    def start(self, early: bool = False) -> None:
        """Start cat-file now (before any id is known: its start-up then overlaps other
        work); :meth:`add` starts it otherwise. ``early``: only a head start, skipped when
        this run has read blobs already (the ids may all be among them: no process)."""
        if early and self._known:
            return
        if self._proc is None:
            repo = self._repo
            self._proc = popen_git(
                ["cat-file", "--batch"],
                repo.paths.toplevel or repo.paths.git_dir,
                repo.env,
                stdin=True,
            )
            self._threads = [
                threading.Thread(target=self._write, daemon=True),
                threading.Thread(target=self._read, daemon=True),
            ]
            for t in self._threads:
                t.start()

    def add(self, oids: list[str]) -> None:
        """Queue more blob ids to search (those already read are searched at once)."""
        here = [o for o in oids if o in self._known]
        if here:
            buf = bytearray()
            for oid in here:
                data = self._known[oid]
                buf += b"%s blob %d\n%s\n" % (oid.encode("ascii"), len(data), data)
            self._search(buf)
            oids = [o for o in oids if o not in self._known]
        if oids:
            self.start()
            self._ids.put(oids)

    def _write(self) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        pipe = self._proc.stdin
        # BrokenPipeError / ValueError: cat-file is gone (it failed, or it was killed)
        with contextlib.suppress(BrokenPipeError, ValueError):
            try:
                while (oids := self._ids.get()) is not None:
                    pipe.write(("\n".join(oids) + "\n").encode("ascii"))
                    pipe.flush()
            finally:
                pipe.close()

    def _read(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out = proc.stdout.fileno()
        grow_pipe(out)
        errors = Drain(proc.stderr)
        buf = bytearray()
        total = 0
        try:
            while chunk := os.read(out, 1 << 20):
                buf += chunk
                total += len(chunk)
                if len(buf) >= 1 << 20:  # search in large pieces: each key is one pass
                    self._search(buf)
                elif self._many is not None and not _readable(
                    out, 0 if len(buf) >= _EARLY_SEARCH else _IDLE
                ):
                    # a caller waits to hear of what is found while ids still come: what
                    # cat-file answered is searched once it has no more to give (a small
                    # read waits a moment for more), not when its input ends
                    self._search(buf)
                elif len(chunk) < _SMALL_READ and total >= _LARGE_OUTPUT:
                    # cat-file writes each blob on its own: on a large search, waking up
                    # for every one costs more CPU than cat-file itself (measured); let the
                    # pipe fill a little
                    time.sleep(0.001)
            self._search(buf)
        except (OSError, ValueError) as exc:
            self._failed = str(exc)
            return
        finally:
            self._stderr = errors.wait()
        if buf:
            self._failed = "its output ended inside a record"

    def _search(self, buf: bytearray) -> None:
        """Search the whole records at the start of ``buf``, and drop them (from the
        reading thread, or from :meth:`add` for blobs already read: one at a time)."""
        with self._lock:
            read = _search_batch(
                buf, self._needles, self._prefix, self._found, self._fold, self._longer
            )
            del buf[:read]
            call = None
            if self._many is not None and len(self._found) > self._many[0]:
                call, self._many = self._many[1], None
        if call is not None:
            call()

    def watch(self, n: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` once more than ``n`` ids are found: now, from this thread,
        when they are already, else later from the reading thread (replaces ``many``)."""
        with self._lock:
            now = len(self._found) > n
            self._many = None if now else (n, callback)
        if now:
            callback()

    def stop(self) -> None:
        """End the search early, from any thread (its caller no longer needs the answer):
        cat-file is killed, and :meth:`finish` then returns what was found so far."""
        self._stopped = True
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    def finish(self) -> set[str]:
        """The ids given to :meth:`add` that hold a needle or start with the prefix, or that
        name no blob.

        Raises:
            GitError: cat-file failed.
        """
        proc = self._proc
        if proc is None:
            return self._found  # nothing asked of cat-file: every id was known
        self._ids.put(None)
        for t in self._threads:
            t.join()
        if self._stopped:
            proc.wait()
            self._close()
            return self._found
        if proc.wait() != 0 or self._failed:
            last = self._stderr.decode("utf-8", "replace").strip().splitlines()
            why = last[-1] if last else self._failed or f"exit {proc.returncode}"
            raise GitError(f"git cat-file failed: {why}")
        self._close()
        return self._found

    def abort(self) -> None:
        """Stop the process and the threads (an error elsewhere: the answer is not needed)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        self._ids.put(None)
        for t in self._threads:
            t.join()
        proc.wait()
        self._close()

    def _close(self) -> None:
        assert self._proc is not None
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()


def _search_batch(
    buf: bytearray,
    needles: Sequence[bytes],
    prefix: bytes,
    found: set[str],
    fold: bool = False,
    longer: int | None = None,
) -> int:
    """Read the complete ``cat-file --batch`` records at the start of ``buf``; add to
    ``found`` the ids whose content holds a needle (in its ASCII-lowercased bytes, with
    ``fold``), starts with ``prefix`` or has a line of more than ``longer`` bytes, and
    those that name no blob. Returns how many bytes were read (whole records only).

    Each needle is one pass over the buffer: fewer, shorter keys that every needle contains
    (:func:`search_keys`) are looked for instead, and a blob where
    one is found is then searched for the needles themselves.
    """
    starts: list[int] = []  # content of each blob: buf[starts[k]:ends[k]]
    ends: list[int] = []
    heads: list[int] = []  # where its header (and id) begins
    pos = 0
    size = len(buf)
    while (eol := buf.find(b"\n", pos)) >= 0:
        gap = buf.find(b" ", pos, eol)
        if gap >= 0 and buf.startswith(b" blob ", gap):  # "<id> blob <size>"
            end = eol + 1 + int(buf[gap + 6 : eol])
            if end >= size:  # then a newline: not all here yet
                break
            if (prefix and buf.startswith(prefix, eol + 1)) or (
                longer is not None and _has_longer_line(buf, eol + 1, end, longer)
            ):
                found.add(buf[pos:gap].decode("ascii"))
            else:
                starts.append(eol + 1)
                ends.append(end)
                heads.append(pos)
            pos = end + 1
            continue
        # "<id> missing" / "<id> ambiguous", or another type: nothing is known of it
        fields = bytes(buf[pos:eol]).split(b" ")
        if len(fields) == 3:
            end = eol + 1 + int(fields[2])
            if end >= size:
                break
            found.add(fields[0].decode("ascii", "replace"))
            pos = end + 1
        else:
            found.add(fields[0].decode("ascii", "replace"))
            pos = eol + 1
    if starts and needles:
        checked: set[int] = set()
        last = ends[-1]
        hay = buf.lower() if fold else buf  # lowercases ASCII letters only, same offsets
        for key in search_keys(tuple(needles)):
            at = hay.find(key, starts[0], last)
            while at >= 0:
                k = bisect.bisect_right(starts, at) - 1
                if k < 0 or at + len(key) > ends[k]:  # across a record boundary
                    at = hay.find(key, at + 1, last)
                    continue
                if k not in checked:
                    checked.add(k)
                    content = bytes(hay[starts[k] : ends[k]])
                    if any(n in content for n in needles):
                        head = heads[k]
                        found.add(buf[head : buf.index(b" ", head)].decode("ascii"))
                at = hay.find(key, ends[k], last)
    return pos


def _readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has something to read within ``timeout`` seconds; True where the
    system cannot tell (Windows selects sockets only): the search then waits for more."""
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):
        return True


def _has_longer_line(buf: bytearray, start: int, end: int, limit: int) -> bool:
    """Whether ``buf[start:end]`` has a line (newline excluded) of more than ``limit``
    bytes. A window of ``limit + 1`` bytes from a line start holds a newline unless that
    line is longer: each step skips to the window's last newline."""
    at = start
    while end - at > limit:
        nl = buf.rfind(b"\n", at, at + limit + 1)
        if nl < 0:
            return True
        at = nl + 1
    return False


@functools.lru_cache(maxsize=8)
def search_keys(strings: tuple[bytes, ...], shortest: int = 4) -> tuple[bytes, ...]:
    """Few byte strings such that each of ``strings`` contains one of them.

    Finding ``strings`` in a large buffer costs one pass each; finding these costs fewer
    passes, and a hit is then confirmed with ``strings`` where it was found. Chosen
    greedily: the substring (at least ``shortest`` bytes, or a whole shorter string) held
    by the most strings not yet covered, the longer on a tie, then the smaller.
    """
    left = set(strings)
    keys: list[bytes] = []
    while left:
        counts: dict[bytes, int] = {}
        for s in left:
            size = min(shortest, len(s))
            subs = {s[i : i + n] for n in range(size, len(s) + 1) for i in range(len(s) - n + 1)}
            for sub in subs:
                counts[sub] = counts.get(sub, 0) + 1
        key = min(counts, key=lambda k: (-counts[k], -len(k), k))
        keys.append(key)
        left = {s for s in left if key not in s}
    return tuple(sorted(keys))
