"""Bounded reads of the files a person or a runtime names, and whole writes of the files we
own (SPEC §7 "Exit codes").

Room ``bounded``, a leaf above :mod:`gentle_hooks.errors` (the standard library only, cheap
to import on the hook path). A config file, a brief, a verdict or a quorum file is read
only when it is a regular file, opened without blocking (a FIFO or a device never hangs the
command), and only up to a size cap; anything else is one line and exit 2
(:class:`InputFileError`) naming the path and what it is. Parsers that recurse (JSON, TOML)
are given text whose nesting the caller bounds with :func:`nesting_depth`.

:func:`write_whole` writes a file we own (a hook script, a runtime's settings file, an
artifact) so that a crash, a full disk or a planted symbolic link never leaves a partial file
or writes elsewhere: a new file of a random name created with ``O_EXCL | O_NOFOLLOW``, synced,
then renamed over the target. A failure is one line naming the path and the system's reason
(:class:`WriteError`, exit 2) and leaves the target as it was.
"""

from __future__ import annotations

import os
import stat
import sys

from gentle_hooks.errors import GentleError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Sequence
    from tempfile import TemporaryDirectory

#: Largest document read from a named file or standard input (config, brief, verdict...).
READ_LIMIT = 16 * 1024 * 1024
#: Deepest nesting of arrays and tables/objects accepted in a JSON or TOML document.
MAX_NESTING = 64

_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(GentleError):
    """A named file that cannot be read as a document: missing, unreadable, not a regular
    file, or larger than :data:`READ_LIMIT` (exit 2)."""


class WriteError(GentleError):
    """A file we own cannot be written: disk full, a read-only file system, permission
    denied (exit 2). The message names the path and the reason; nothing was half-written."""


def write_refusal(path: str) -> str | None:
    """Why the system refuses writes to ``path`` (a directory: new files in it), as
    ``PATH: Read-only file system`` when its file system is mounted read-only, or
    ``PATH: Permission denied`` when this process may not write it; None when neither
    holds, or ``path`` cannot be looked at (the refusal has another cause). Asks the
    system (``statvfs``, ``access``), writes nothing."""
    code = write_refusal_errno(path)
    return None if code is None else f"{path}: {os.strerror(code)}"


def write_refusal_errno(path: str) -> int | None:
    """:func:`write_refusal` as the error number: ``errno.EROFS``, ``errno.EACCES`` or
    None."""
    import errno

    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return errno.EROFS
        need = os.W_OK | os.X_OK if os.path.isdir(path) else os.W_OK
        if not os.access(path, need):
            return errno.EACCES
    except (OSError, ValueError):
        return None
    return None


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, as a phrase (``a FIFO``, ``a directory``,
    ``a socket``...); ``not a regular file`` for any other kind that is not one."""
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
            raise InputFileError(f"{path}: {what}: {file_kind(info.st_mode)}, not a regular file")
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
    forms) are skipped, as are TOML comments. O(len(text)), each step a regex search to
    the next bracket, quote or ``#``; an over-estimate is possible only for malformed
    text, which the parser refuses anyway.
    """
    s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    special = _pattern("[][{}#\"']")
    depth = deepest = 0
    i = 0
    while (found := special.search(s, i)) is not None:
        i = found.start()
        c = s[i]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
        elif c == "#":
            end = s.find("\n", i)
            if end < 0:
                break
            i = end
        else:
            i = _string_end(s, i)
            continue
        i += 1
    return deepest


#: Compiled regular expressions of this module, by source.
_PATTERNS: dict[str, re.Pattern[str]] = {}


def _pattern(source: str) -> re.Pattern[str]:
    """``source`` compiled once (``re`` imported on first use: it is on every hook's path
    already, the standard library imports it)."""
    found = _PATTERNS.get(source)
    if found is None:
        import re

        found = _PATTERNS[source] = re.compile(source, re.DOTALL)
    return found


def _string_end(s: str, i: int) -> int:
    """The index just after the quoted string starting at ``s[i]``: after its closing
    quote, or after the newline that ends it unclosed (a backslash in ``"..."`` escapes the
    next character, a newline too). One regular-expression match: O(length) at the
    regex engine's speed, however long the string and however many escapes it holds."""
    q, n = s[i], len(s)
    if s.startswith(q * 3, i):
        end = s.find(q * 3, i + 3)
        return n if end < 0 else end + 3
    body = r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+' if q == '"' else r"[^'\n]*+"
    match = _pattern(body).match(s, i + 1)
    j = match.end() if match is not None else i + 1
    if j >= n or s[j] == "\\":  # unclosed to the end (a lone backslash last)
        return n
    return j + 1


#: The open flags of a new private file: created here and now, never through a link.
NEW_FILE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def new_private_file(directory: str, prefix: str, mode: int = 0o600) -> tuple[int, str]:
    """Create a new file of a random name ``<prefix><pid>-<random>`` in ``directory``.

    ``O_EXCL | O_NOFOLLOW``: a file or link planted at a guessable name is never opened.

    Returns:
        (the open descriptor, the path).

    Raises:
        OSError: the directory takes no new file.
    """
    for _ in range(16):
        path = os.path.join(directory, f"{prefix}{os.getpid()}-{os.urandom(6).hex()}")
        try:
            return os.open(path, NEW_FILE_FLAGS, mode), path
        except FileExistsError:
            continue
    raise FileExistsError(f"{directory}: no free name for {prefix}*")


def write_whole(path: str, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` by a file holding ``data``, whole or not at all.

    Args:
        path: the target (its directory must exist).
        data: the new content.
        mode: the new file's mode; None keeps the target's (0644 for a new file).

    Raises:
        WriteError: the directory takes no new file, the disk is full, the file system is
            read-only, permission is denied; the target is unchanged.
    """
    tmp = stage_whole(path, data, mode)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        discard_staged([tmp])
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from None


def stage_whole(path: str, data: bytes, mode: int | None = None) -> str:
    """Write ``data`` whole, synced, to a new random-named file beside ``path``
    (:func:`new_private_file`), for the caller to rename over ``path``; its name.

    Args:
        path: the target; mode: the new file's mode (None: the target's, 0644 when new).

    Raises:
        WriteError: as :func:`write_whole`; nothing is left behind.
    """
    directory = os.path.dirname(path) or "."
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            mode = 0o644
    tmp = None
    try:
        fd, tmp = new_private_file(directory, f".{os.path.basename(path)}.gentle-tmp-")
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        if tmp is not None:
            discard_staged([tmp])
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return tmp


def discard_staged(paths: Sequence[str]) -> None:
    """Remove files :func:`stage_whole` wrote that will not be renamed into place."""
    import contextlib

    for tmp in paths:
        with contextlib.suppress(OSError):  # the error that brought us here is the news
            os.unlink(tmp)


#: Age after which a leftover temporary file is removed even when a process of its owner's
#: id is alive (the id may have been reused); no run of ours takes this long.
RESIDUE_SECONDS = 6 * 3600


def residue(directory: str, prefix: str, now: float | None = None) -> list[str]:
    """The leftovers of killed runs in ``directory``: entries named ``<prefix><pid>...``
    whose owner process is gone, or older than :data:`RESIDUE_SECONDS`; never this
    process's own. A directory that cannot be listed has none.

    Args:
        directory: where the runs create their temporary files.
        prefix: their name up to the owner's process id (``gentle-hooks-index-``).
        now: the current time (default: the clock).
    """
    import time

    try:
        names = os.listdir(directory)
    except (OSError, ValueError):
        return []
    now = time.time() if now is None else now
    out = []
    for name in names:
        if not name.startswith(prefix):
            continue
        digits = name[len(prefix) :].split("-", 1)[0].split(".", 1)[0]
        if not digits.isdigit():
            continue
        pid = int(digits)
        path = os.path.join(directory, name)
        try:
            age = now - os.lstat(path).st_mtime
        except OSError:
            continue
        if pid != os.getpid() and (age > RESIDUE_SECONDS or not _alive(pid)):
            out.append(path)
    return sorted(out)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0  # another user's process (or an id no process can have)
    return True


def sweep(directory: str, prefix: str) -> list[str]:
    """Remove :func:`residue` (a link itself, never what it points to); the paths removed."""
    return remove_files(residue(directory, prefix))


#: The prefixes of the scratch directories :func:`scratch_dir` makes under the system's
#: temporary directory, each followed by the owner's process id.
SCRATCH_PREFIXES = (
    "gentle-hooks-notes-",
    "gentle-hooks-sign-",
    "gentle-hooks-verify-",
    "gentle-hooks-pycache-",
    "gentle-hooks-objects-",
    "gentle-hooks-salvage-",
)


def scratch_residue() -> list[str]:
    """This user's :data:`SCRATCH_PREFIXES` directories under the system's temporary
    directory whose owner process is gone (killed before it removed them); never a link,
    never another user's, never a live process's."""
    import tempfile

    base = tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except (OSError, ValueError):
        return []
    out = []
    for name in names:
        prefix = next((p for p in SCRATCH_PREFIXES if name.startswith(p)), None)
        if prefix is None:
            continue
        digits = name[len(prefix) :].split("-", 1)[0]
        if not digits.isdigit():
            continue
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            continue
        pid = int(digits)
        if pid != os.getpid() and not _alive(pid):
            out.append(path)
    return sorted(out)


def scratch_dir(prefix: str) -> TemporaryDirectory[str]:
    """A private temporary directory named ``<prefix><pid>-<random>`` (``prefix`` one of
    :data:`SCRATCH_PREFIXES`), removed when its ``with`` block ends; the scratch
    directories of killed runs (:func:`scratch_residue`) are removed first."""
    import tempfile

    remove_files(scratch_residue())
    return tempfile.TemporaryDirectory(prefix=f"{prefix}{os.getpid()}-")


def remove_files(paths: list[str]) -> list[str]:
    """Remove each of ``paths`` (:func:`remove_entry`); those removed, in order. A path
    that cannot be removed (gone already, no permission) is skipped."""
    return [path for path in paths if remove_entry(path)]


def remove_entry(path: str) -> bool:
    """Remove the entry at ``path``: a file, FIFO, socket or link itself (never what a link
    points to), or a directory with everything in it (links inside removed, never
    followed); whether it was removed."""
    import shutil

    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)  # refuses a link; descends by descriptor without following
        else:
            os.unlink(path)
    except OSError:
        return False
    return True
