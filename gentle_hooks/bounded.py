"""Bounded reads of the files a person or a runtime names (SPEC §7 "Exit codes").

Room ``bounded``, a leaf above :mod:`gentle_hooks.errors` (the standard library only, cheap
to import on the hook path). A config file, a brief, a verdict or a quorum file is read
only when it is a regular file, opened without blocking (a FIFO or a device never hangs the
command), and only up to a size cap; anything else is one line and exit 2
(:class:`InputFileError`) naming the path and what it is. Parsers that recurse (JSON, TOML)
are given text whose nesting the caller bounds with :func:`nesting_depth`.
"""

from __future__ import annotations

import os
import stat
import sys

from gentle_hooks.errors import GentleError

#: Largest document read from a named file or standard input (config, brief, verdict...).
READ_LIMIT = 16 * 1024 * 1024
#: Deepest nesting of arrays and tables/objects accepted in a JSON or TOML document.
MAX_NESTING = 64

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(GentleError):
    """A named file that cannot be read as a document: missing, unreadable, not a regular
    file, or larger than :data:`READ_LIMIT` (exit 2)."""


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: str, what: str = "cannot read", *, limit: int = READ_LIMIT) -> bytes:
    """The whole content of the regular file ``path``, at most ``limit`` bytes.

    Args:
        path: the file (a symbolic link is followed to a regular file).
        what: the words after the path in an error (``cannot read config``).
        limit: the size cap.

    Raises:
        InputFileError: missing, unreadable, not a regular file (a FIFO, a device, a
            directory), or larger than ``limit``; the message names ``path``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputFileError(f"{path}: {what}: {exc.strerror}") from None
    except ValueError:  # an embedded NUL
        raise InputFileError(f"{path!r}: {what}: not a file name") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{path}: {what}: {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputFileError(f"{path}: {what}: larger than {limit} bytes")
        return _read_fd(fd, limit, f"{path}: {what}")
    except OSError as exc:
        raise InputFileError(f"{path}: {what}: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_stdin(what: str, *, limit: int = READ_LIMIT) -> bytes:
    """Standard input whole, at most ``limit`` bytes.

    Raises:
        InputFileError: larger than ``limit``.
    """
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise InputFileError(f"{what}: standard input is larger than {limit} bytes")
    return data


def _read_fd(fd: int, limit: int, where: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:  # the file grew after fstat
            raise InputFileError(f"{where}: larger than {limit} bytes")
        chunks.append(chunk)


def nesting_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[``/``{`` in JSON or TOML text, outside its strings.

    Quoted strings (``"..."`` with backslash escapes, TOML's ``'...'`` and the triple-quoted
    forms) are skipped, as are TOML comments. O(len(text)); an over-estimate is possible
    only for malformed text, which the parser refuses anyway.
    """
    s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    depth = deepest = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
        elif c == "#":
            end = s.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            i = _string_end(s, i)
            continue
        i += 1
    return deepest


def _string_end(s: str, i: int) -> int:
    """The index just after the quoted string starting at ``s[i]``."""
    q = s[i]
    if s.startswith(q * 3, i):
        end = s.find(q * 3, i + 3)
        return len(s) if end < 0 else end + 3
    j = i + 1
    while j < len(s):
        c = s[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == q or c == "\n":
            return j + 1
        j += 1
    return j
