"""One long-lived ``git cat-file --batch`` per repository object: every object read of a
run shares it (SPEC §2 "Git access").

Room ``git``. :class:`CatFile` starts the process on the first read and keeps it until
the :class:`~gentle_hooks.git.objects.Objects` that owns it is collected (or the
interpreter exits): a push gate that reads its commits, then the documents it proves
passive, then the blobs it searches pays one process start instead of three. Objects never
change, and a name ``cat-file`` resolves (``COMMIT:PATH``) is resolved when it is asked.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Sequence

from gentle_hooks.errors import GitError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess

#: Bytes of names written before their answers are read: below a pipe's buffer, so a write
#: never waits for cat-file while cat-file waits for its answers to be read.
_CHUNK = 16 * 1024


class CatFile:
    """A ``git cat-file --batch`` kept running for a run's object reads.

    :meth:`batch` answers names in cat-file's own output format, so its callers parse
    exactly what a one-shot ``git cat-file --batch`` prints. Safe from several threads (one
    batch at a time).
    """

    def __init__(self, cwd: str, env: dict[str, str]) -> None:
        self._cwd = cwd
        self._env = env
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def batch(self, names: Sequence[str]) -> bytes:
        """cat-file's answers to ``names`` (each without a line end), in order: for each a
        ``<oid> <type> <size>`` line, the content and a line end, or ``<name> missing``
        (``ambiguous``) alone.

        Raises:
            GitError: git cannot start, or the process ended before answering (its last
                line of stderr, or its exit code, says why).
        """
        out = bytearray()
        with self._lock:
            proc = self._running()
            assert proc.stdin is not None and proc.stdout is not None
            start = 0
            while start < len(names):
                end, size = start, 0
                while end < len(names) and (end == start or size + len(names[end]) < _CHUNK):
                    size += len(names[end]) + 1
                    end += 1
                chunk = names[start:end]
                try:
                    proc.stdin.write("".join(f"{n}\n" for n in chunk).encode())
                    proc.stdin.flush()
                    for _ in chunk:
                        line = proc.stdout.readline()
                        if not line.endswith(b"\n"):
                            raise OSError("its output ended")
                        out += line
                        header = line.split(b" ")
                        if len(header) == 3:
                            want = int(header[2]) + 1
                            data = proc.stdout.read(want)
                            if len(data) != want:
                                raise OSError("its output ended inside an object")
                            out += data
                except (OSError, ValueError) as exc:
                    raise self._failed(proc, str(exc)) from None
                start = end
        return bytes(out)

    def _running(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            from gentle_hooks.git.process import popen_git

            proc = self._proc = popen_git(["cat-file", "--batch"], self._cwd, self._env, True)
            weakref.finalize(self, _end, proc)
        return proc

    def _failed(self, proc: subprocess.Popen[bytes], why: str) -> GitError:
        self._proc = None
        _end(proc)
        err = proc.stderr.read() if proc.stderr is not None else b""
        last = err.decode("utf-8", "replace").strip().splitlines()
        return GitError(f"git cat-file failed: {last[-1] if last else why}")

    def close(self) -> None:
        """End the process (the next :meth:`batch` starts another)."""
        with self._lock:
            if self._proc is not None:
                _end(self._proc)
                self._proc = None


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Close cat-file's input (it exits at its end) and reap it."""
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    proc.wait()  # at its input's end cat-file exits: a blocking wait, no polling
