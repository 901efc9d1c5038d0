"""The safe reader of what agent runtimes hand their hooks: standard input, transcripts and
settings files, and the JSON inside them (SPEC §7 "Hooks").

Room ``agents`` (standard library only). Everything a runtime hands a hook is untrusted
input, read within bounds:

* standard input: held whole up to :data:`STDIN_LIMIT` bytes, larger input kept without its
  long strings (file contents, :mod:`gentle_hooks.agents.stream`), refused when it is a
  terminal (a person who typed the command by hand would wait forever), read until end of
  file within :data:`STDIN_SECONDS`;
* files named by a payload (transcripts, settings): regular files only, opened without
  blocking (a FIFO or a device never hangs the hook), at most a bounded head or tail;
* JSON: nesting deeper than :data:`MAX_DEPTH` is refused before it is parsed (Python's
  parser recurses), and a payload must be one JSON object.

Readers of named files return None for anything they cannot read (missing, not a regular
file, unreadable): a transcript is evidence a hook may lack, never a reason to fail it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Generator
from typing import IO

from gentle_hooks.errors import UsageError

#: Largest hook input held whole (a PostToolUse payload carries the edit); larger input is
#: read with its long strings blanked (:func:`read_stdin`).
STDIN_LIMIT = 8 * 1024 * 1024
#: Largest hook input read at all, its long strings blanked.
STREAM_LIMIT = 1024 * 1024 * 1024
#: How long standard input may stay open without its end (the runtime closes it at once).
STDIN_SECONDS = 30.0
#: Largest part of a named file read (the tail of a transcript, the head of a settings file).
FILE_LIMIT = 4 * 1024 * 1024
#: Deepest JSON nesting accepted.
MAX_DEPTH = 64

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(data: bytes) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text (strings skipped); O(len(data))."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub(b'""', data)):
        if m.group(0) in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(data: bytes, what: str) -> object:
    """Parse JSON text of a bounded depth.

    Args:
        data: the bytes (UTF-8); what: how to name them in an error (``record --from x:
            stdin``).

    Raises:
        UsageError: not UTF-8, not JSON, or nested deeper than :data:`MAX_DEPTH`.
    """
    try:
        text = data.decode("utf-8")  # first: random bytes are not UTF-8, whatever they nest
    except UnicodeDecodeError as exc:
        raise UsageError(f"{what} is not the hook's JSON (not UTF-8: {exc})") from None
    if json_depth(data) > MAX_DEPTH:
        raise UsageError(f"{what} nests JSON deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{what} is not the hook's JSON ({exc})") from None


def loads_text(value: str, what: str) -> object:
    """:func:`loads` for JSON held in a JSON string (a runtime's nested arguments). The
    string may hold a lone surrogate (the outer document's ``\\ud800`` escape): it is
    parsed as it is, and the field that holds it is then not valid text (:func:`text`), so a
    writing tool call still records, without that path.

    Raises:
        UsageError: not JSON, or nested deeper than :data:`MAX_DEPTH`.
    """
    if json_depth(value.encode("utf-8", "surrogatepass")) > MAX_DEPTH:
        raise UsageError(f"{what} nests JSON deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(value)
    except ValueError as exc:
        raise UsageError(f"{what} is not the hook's JSON ({exc})") from None


def load_object(data: bytes, what: str) -> dict[str, object]:
    """:func:`loads`, and the value must be a JSON object.

    Raises:
        UsageError: as :func:`loads`, or not an object.
    """
    value = loads(data, what)
    if not isinstance(value, dict):
        raise UsageError(f"{what} is not a JSON object")
    return value


def hook_input(data: bytes, runtime: str) -> dict[str, object]:
    """:func:`load_object` of the hook input ``record --from <runtime>`` read on stdin.

    Raises:
        UsageError: not a bounded JSON object (the message names ``record --from``).
    """
    return load_object(data, f"record --from {runtime}: stdin")


def read_stdin(what: str, stream: IO[bytes] | None = None) -> bytes:
    """Read a hook's standard input to its end within :data:`STDIN_SECONDS`.

    Input up to :data:`STDIN_LIMIT` bytes is returned whole. Larger input (a post-tool
    input that carries a big written file, once or twice) is streamed through
    :class:`gentle_hooks.agents.stream.LongStrings`, up to :data:`STREAM_LIMIT` bytes:
    the same JSON with every long string (a file's content) blanked, so the writer is still
    recorded, and memory stays bounded whatever the input's size.

    Raises:
        UsageError: standard input is a terminal, larger than :data:`STREAM_LIMIT`, still
            larger than :data:`STDIN_LIMIT` once its long strings are blanked, or not closed
            in time.
    """
    from gentle_hooks.agents.stream import LongStrings

    fh = stream if stream is not None else sys.stdin.buffer
    try:
        fd = fh.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd >= 0 and os.isatty(fd):
        raise UsageError(f"{what}: standard input is a terminal; pipe the hook's JSON into it")
    held: list[bytes] = []
    size = 0
    blanker: LongStrings | None = None
    for chunk in _chunks(fh, fd, what):
        size += len(chunk)
        if size > STREAM_LIMIT:
            raise UsageError(f"{what}: standard input is larger than {STREAM_LIMIT} bytes")
        if blanker is None:
            held.append(chunk)
            if size <= STDIN_LIMIT:
                continue
            # too large to hold: stream it, keeping all but the long strings
            blanker = LongStrings()
            for part in held:
                blanker.feed(part)
            held = []
        else:
            blanker.feed(chunk)
        if len(blanker.kept) > STDIN_LIMIT:
            raise UsageError(
                f"{what}: standard input is larger than {STDIN_LIMIT} bytes, even with "
                "its long strings (file contents) left out"
            )
    return b"".join(held) if blanker is None else bytes(blanker.kept)


def _chunks(fh: IO[bytes], fd: int, what: str) -> Generator[bytes, None, None]:
    """The chunks of ``fh`` to its end, waiting at most :data:`STDIN_SECONDS` in all."""
    import select
    import time

    if fd < 0 or os.name != "posix":
        # select() waits on pipes only on POSIX; elsewhere the read is bounded by size alone
        while chunk := fh.read(65536):
            yield chunk
        return
    deadline = time.monotonic() + STDIN_SECONDS
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        if not ready:
            raise UsageError(f"{what}: standard input stayed open {STDIN_SECONDS:.0f}s")
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        yield chunk


def read_file(path: str, *, tail: bool = False, limit: int = FILE_LIMIT) -> bytes | None:
    """At most ``limit`` bytes of a regular file: its head, or its tail (``tail=True``).

    Opened without blocking, so a FIFO, socket or device named by a payload never hangs;
    anything but a regular file is refused.

    Returns:
        The bytes, or None when the path is missing, not a regular file, or unreadable.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if tail and info.st_size > limit:
            os.lseek(fd, info.st_size - limit, os.SEEK_SET)
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            chunk = os.read(fd, min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


#: How much of a file :func:`line_blocks_backwards` reads at most, in all.
SCAN_LIMIT = 64 * 1024 * 1024


def line_blocks_backwards(
    path: str, *, chunk: int = FILE_LIMIT, limit: int = SCAN_LIMIT
) -> Generator[bytes, None, None]:
    """Blocks of whole lines of a regular file, newest first: each read ``chunk`` bytes
    further from its end, the line cut at the block's start carried into the next (older)
    block; at most ``limit`` bytes are read in all (a line cut at that bound is not
    given). Opened without blocking, as :func:`read_file`; nothing is given for a path
    that is missing, not a regular file, or unreadable."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return
        end, carry, scanned = info.st_size, b"", 0
        while end > 0 and scanned < limit:
            start = max(0, end - min(chunk, limit - scanned))
            os.lseek(fd, start, os.SEEK_SET)
            parts: list[bytes] = []
            want = end - start
            while want > 0:
                got = os.read(fd, min(65536, want))
                if not got:
                    break
                parts.append(got)
                want -= len(got)
            scanned += end - start
            data = b"".join(parts) + carry
            end = start
            if start > 0:
                cut = data.find(b"\n")
                if cut < 0:
                    carry = data  # one line longer than the block: read on
                    continue
                carry, data = data[:cut], data[cut + 1 :]
            yield data
    except OSError:
        return
    finally:
        os.close(fd)


def json_lines(data: bytes) -> list[dict[str, object]]:
    """The JSON objects of JSON Lines text, in order; lines that are not a bounded JSON
    object (a tail's first, cut line) are left out."""
    out = []
    for raw in data.splitlines():
        if not raw.strip() or json_depth(raw) > MAX_DEPTH:
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def text(value: object) -> str | None:
    """``value`` when it is a non-blank string of valid text, else None.

    A string holding a lone surrogate (a JSON ``\\ud800`` escape, which the parser accepts
    but no text encoding can hold) is not valid text: the field counts as absent, so it is
    never stored nor compared."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return value


def member(value: object, *keys: str) -> object:
    """``value[k1][k2]...`` through JSON objects; None where a key is missing."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def object_member(value: object, *keys: str) -> dict[str, object]:
    """:func:`member` when it is a JSON object, else an empty one."""
    found = member(value, *keys)
    return found if isinstance(found, dict) else {}


#: The word most runtimes use for no model (Cline's ``model.slug``, Cascade's ``model_name``).
NO_MODEL = ("unknown",)


def model_name(value: object, placeholders: tuple[str, ...] = NO_MODEL) -> str | None:
    """``value`` as the model a runtime names: None when it is no text (:func:`text`) or
    one of ``placeholders`` (lower case), the runtime's words for no model."""
    name = text(value)
    return name if name and name.lower() not in placeholders else None
