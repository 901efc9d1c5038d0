"""Parsers for git plumbing output: ``diff --raw --numstat -z`` and ``diff -U0`` patches,
and ``diff-tree --stdin`` output cut by the pair each part answers.

Room ``git``: pure functions over bytes (no process, no I/O); the modules that run git
hand the bytes here. Paths are decoded with :func:`os.fsdecode` (surrogateescape), so any
byte sequence a path holds round-trips.
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import sys
from collections.abc import Iterator, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.values.candidate import MODE_GITLINK, PathChange
from gentle_hooks.values.frozen import frozen

_ESCAPES = {
    ord("a"): 7,
    ord("b"): 8,
    ord("t"): 9,
    ord("n"): 10,
    ord("v"): 11,
    ord("f"): 12,
    ord("r"): 13,
    ord('"'): 34,
    ord("\\"): 92,
}


@functools.cache
def _hunk() -> re.Pattern[bytes]:
    """A ``-U0`` hunk header, compiled on first use (a gate that scans nothing needs none)."""
    return re.compile(rb"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def unquote_path(raw: bytes) -> bytes:
    """Undo git's C-style path quoting (``"a\\tb\\303\\251"``) to the path's bytes.

    Unquoted input is returned unchanged.

    Raises:
        GitError: a quoted string that is not terminated or has a bad escape.
    """
    if not raw.startswith(b'"'):
        return raw
    if len(raw) < 2 or not raw.endswith(b'"'):
        raise GitError(f"malformed quoted path from git: {raw!r}")
    body = raw[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != 92:  # backslash
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(body):
            raise GitError(f"malformed quoted path from git: {raw!r}")
        e = body[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif len(digits := body[i + 1 : i + 4]) == 3 and all(48 <= d <= 55 for d in digits):
            out.append(int(digits, 8) & 0xFF)
            i += 4
        else:
            raise GitError(f"malformed quoted path from git: {raw!r}")
    return bytes(out)


def _fs_is_utf8() -> bool:
    """True when :func:`os.fsdecode` is UTF-8 with ``surrogateescape`` (the usual case)."""
    return (
        codecs.lookup(sys.getfilesystemencoding()).name == "utf-8"
        and sys.getfilesystemencodeerrors() == "surrogateescape"
    )


#: Decoding a whole buffer then splitting it at NULs gives the same strings as decoding
#: each NUL-separated piece with :func:`os.fsdecode` when that is UTF-8 with
#: surrogateescape: a NUL is never part of a multi-byte sequence, so a piece's bytes
#: decode the same inside the buffer. Any other encoding decodes piece by piece.
_FS_UTF8 = _fs_is_utf8()


def parse_raw_numstat(data: bytes) -> tuple[PathChange, ...]:
    """Parse ``git diff --raw --numstat -z --no-abbrev`` output into path changes.

    Args:
        data: git's stdout: raw records, then numstat records, NUL-separated.

    Returns:
        One :class:`PathChange` per raw record, in git's order, with numstat's counts.

    Raises:
        GitError: output that does not have that shape (the two sections disagree).
    """
    parser = RawNumstatParser()
    parser.feed(data)
    return parser.finish()


def record_end(out: bytes, pos: int) -> int | None:
    """Where the ``--raw --numstat -z`` record starting at ``pos`` of ``out`` ends (the
    offset after its last NUL); None when no record reads from there.

    Raw records are ``:<modes> <ids> <status>`` then one path, two for a rename or copy
    (``R``/``C``); numstat records are ``<added>\\t<deleted>\\t<path>``, or an empty path
    then two paths for a rename or copy; every field ends with NUL. Walking output record
    by record, a path's bytes are never read as anything else.
    """
    stop = out.find(b"\0", pos)
    if stop < 0:
        return None
    head = out[pos:stop]
    if head.startswith(b":"):
        paths = 2 if head.rsplit(b" ", 1)[-1][:1] in (b"R", b"C") else 1
    else:
        fields = head.split(b"\t", 2)
        if len(fields) != 3:
            return None
        paths = 2 if fields[2] == b"" else 0
    pos = stop + 1
    for _ in range(paths):
        stop = out.find(b"\0", pos)
        if stop < 0:
            return None
        pos = stop + 1
    return pos


def split_echoed_records(out: bytes, pairs: Sequence[tuple[str, str]]) -> list[bytes] | None:
    """Cut ``git diff-tree --stdin -z --raw --numstat`` output into one chunk per pair.

    Walked record by record, so an echo line (``<base> <tree>\\n``) is recognised only where
    a record starts; a path is never taken for one, whatever bytes it holds. Raw records are
    ``:<modes> <ids> <status>`` then one path, two for a rename or copy (``R``/``C``);
    numstat records are ``<added>\\t<deleted>\\t<path>``, or an empty path then two paths
    for a rename or copy (:func:`record_end`). None when the output
    does not read so (the caller then diffs pair by pair).
    """
    echoes = [f"{a} {b}\n".encode() for a, b in pairs]
    chunks: list[bytes] = []
    start = -1  # where the current pair's records begin; -1 before the first echo
    pos, size = 0, len(out)
    while pos < size:
        if len(chunks) + (start >= 0) < len(echoes):
            echo = echoes[len(chunks) + (start >= 0)]
            if out.startswith(echo, pos):
                if start >= 0:
                    chunks.append(out[start:pos])
                pos = start = pos + len(echo)
                continue
        if start < 0:
            return None  # output before the first echo
        end = record_end(out, pos)
        if end is None:
            return None
        pos = end
    if start < 0:
        return None
    chunks.append(out[start:])
    return chunks if len(chunks) == len(echoes) else None


#: A change's two entries as git's raw record gives them: (old mode, old id, new mode,
#: new id); a side that does not exist has mode ``000000``.
Sides = tuple[str, str, str, str]

#: A changed path as git lists it before counting lines: (path, old path of a rename or
#: copy or None, the candidate side's blob id or None for a deletion or a submodule commit,
#: its :data:`Sides`).
Listed = tuple[str, str | None, str | None, Sides]


def listing(change: PathChange) -> Listed:
    """How :meth:`RawNumstatParser.take_listed` lists ``change``."""
    blob = None if change.status == "D" or change.new_mode == MODE_GITLINK else change.new_oid
    sides = (change.old_mode, change.old_oid, change.new_mode, change.new_oid)
    return change.path, change.old_path, blob, sides


class RawNumstatParser:
    """:func:`parse_raw_numstat` fed as git writes, so the raw section can be used early.

    Git prints every raw record (modes, blob ids, status, paths: known once the trees are
    compared) before it counts any line, and counting is what takes time on a large diff.
    Feed chunks of stdout as they arrive; :meth:`take_listed` hands out the raw records read
    since it was last called, :attr:`raw_complete` turns true once the first numstat record
    (or the end) is seen, and :meth:`finish` returns the changes.
    """

    __slots__ = (
        "_changes",
        "_done",
        "_given",
        "_i",
        "_numstat",
        "_pending",
        "_raws",
        "_tokens",
    )

    def __init__(self) -> None:
        self._pending = b""  # bytes after the last NUL seen: an unfinished token
        self._tokens: list[str] = []
        self._i = 0  # next token to read
        self._numstat = False  # the raw section is over
        self._raws: list[tuple[list[str], str, str | None]] = []
        self._given = 0  # raw records whose blob ids were handed out
        self._done = 0  # raw records already paired with their numstat record
        self._changes: list[PathChange] = []

    @property
    def raw_complete(self) -> bool:
        """True once every raw record has been read."""
        return self._numstat

    def take_listed(self) -> list[Listed]:
        """The raw records read since the last call, as :data:`Listed` tuples."""
        fresh = self._raws[self._given :]
        self._given = len(self._raws)
        return [
            (
                path if _FS_UTF8 else _path(path),
                None if old is None else old if _FS_UTF8 else _path(old),
                None if fields[4][:1] == "D" or fields[1] == MODE_GITLINK else fields[3],
                (fields[0], fields[2], fields[1], fields[3]),
            )
            for fields, path, old in fresh
        ]

    def feed(self, chunk: bytes) -> None:
        """Read one more piece of git's stdout.

        Raises:
            GitError: output that does not have the expected shape.
        """
        data = self._pending + chunk
        cut = data.rfind(b"\0") + 1
        self._pending = data[cut:]
        if not cut:
            return
        # One decode per piece, not per field: a NUL is never inside a multi-byte sequence,
        # so pieces cut after a NUL decode as they would inside the whole output.
        # Latin-1 maps bytes to characters one to one; paths are decoded again then.
        piece = data[: cut - 1]
        text = piece.decode("utf-8", "surrogateescape") if _FS_UTF8 else piece.decode("latin-1")
        self._tokens.extend(text.split("\0"))
        self._advance()

    def _advance(self) -> None:
        try:
            self._parse()
        except (IndexError, ValueError) as exc:
            raise GitError(f"unexpected output from git diff --raw --numstat: {exc}") from None

    def _parse(self) -> None:
        tokens, i, n = self._tokens, self._i, len(self._tokens)
        raws = self._raws
        while not self._numstat and i < n:
            tok = tokens[i]
            if not tok.startswith(":"):
                self._numstat = True
                break
            fields = tok[1:].split(" ")
            if fields[4][:1] in ("R", "C"):
                if i + 2 >= n:
                    break
                raws.append((fields, tokens[i + 2], tokens[i + 1]))
                i += 3
            else:
                if i + 1 >= n:
                    break
                raws.append((fields, tokens[i + 1], None))
                i += 2
        if self._numstat:
            changes, done = self._changes, self._done
            while i < n:
                if done == len(raws):
                    raise GitError(
                        f"git diff reported {len(raws)} raw records but more numstat records"
                    )
                added, deleted, spath = tokens[i].split("\t", 2)
                if spath == "":
                    if i + 2 >= n:
                        break
                    spath = tokens[i + 2]
                    step = 3
                else:
                    step = 1
                fields, path, old = raws[done]
                if spath != path:
                    raise GitError(f"git diff sections disagree on {_path(path)!r}")
                changes.append(
                    PathChange(
                        path if _FS_UTF8 else _path(path),
                        None if old is None else old if _FS_UTF8 else _path(old),
                        fields[4][:1],
                        fields[0],
                        fields[1],
                        fields[2],
                        fields[3],
                        None if added == "-" else int(added),
                        None if deleted == "-" else int(deleted),
                    )
                )
                done += 1
                i += step
            self._done = done
        self._i = i

    def end(self) -> None:
        """The output is over: what was read is the whole raw section, if nothing else."""
        self._numstat = True

    def finish(self) -> tuple[PathChange, ...]:
        """The changes, once the whole output was fed.

        Raises:
            GitError: output that does not have the expected shape (an unfinished record,
                raw and numstat sections that disagree).
        """
        self.end()
        if self._pending:
            raise GitError("unexpected output from git diff --raw --numstat: no final NUL")
        self._advance()
        if self._i != len(self._tokens) or self._done != len(self._raws):
            raise GitError(
                f"git diff reported {len(self._raws)} raw records but {self._done} numstat records"
            )
        return tuple(self._changes)


def _path(token: str) -> str:
    """A path token of :func:`parse_raw_numstat`'s decoded output, as os.fsdecode gives it."""
    return token if _FS_UTF8 else os.fsdecode(token.encode("latin-1"))


@frozen
class AddedLine:
    """One added line of a patch: candidate path, 1-based line number, text (no newline)."""

    path: str
    line: int
    text: str


def iter_added_lines(patch: bytes) -> Iterator[AddedLine]:
    """Yield every added line of a ``git diff -U0 --src-prefix=a/ --dst-prefix=b/`` patch.

    Hunk bodies are consumed by the counts in their headers, so an added line that itself
    reads ``+++ x`` is never mistaken for a file header.

    Raises:
        GitError: a hunk header that does not parse.
    """
    path: str | None = None
    lines = patch.split(b"\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith(b"+++ "):
            target = unquote_path(line[4:].rstrip(b"\t"))
            path = None if target == b"/dev/null" else os.fsdecode(target[2:])
            continue
        if not line.startswith(b"@@ "):
            continue
        m = _hunk().match(line)
        if m is None:
            raise GitError(f"unexpected hunk header from git diff: {line[:80]!r}")
        old_left = int(m.group(1)) if m.group(1) is not None else 1
        new_no = int(m.group(2))
        new_left = int(m.group(3)) if m.group(3) is not None else 1
        while (old_left > 0 or new_left > 0) and i < len(lines):
            body = lines[i]
            i += 1
            if body.startswith(b"\\"):
                continue
            if body.startswith(b"+"):
                if path is not None:
                    yield AddedLine(path, new_no, body[1:].decode("utf-8", "replace"))
                new_no += 1
                new_left -= 1
            elif body.startswith(b"-"):
                old_left -= 1
            else:  # context lines do not appear with -U0, but stay correct if they do
                new_no += 1
                new_left -= 1
                old_left -= 1


def split_echoed(out: bytes, pairs: Sequence[tuple[str, str]], end: bytes) -> list[bytes] | None:
    """Cut ``git diff-tree --stdin -U0`` (patch) output into one chunk per input pair.

    Each pair's output follows its echoed input line ``<base> <tree>\\n``: a whole line,
    which no patch line can be (every patch line has a prefix — ``diff --git``, ``+``, ``@@``
    … — and git C-quotes a path holding a newline there). None when an echo is not found
    in order (the caller then diffs pair by pair).
    """
    starts: list[tuple[int, int]] = []
    pos = 0  # where the next echo begins when the previous pair printed nothing
    for a, b in pairs:
        echo = f"{a} {b}\n".encode()
        if out.startswith(echo, pos):
            i = pos
        else:
            j = out.find(end + echo, pos)
            if j < 0:
                return None
            i = j + len(end)
        if not starts and i != 0:
            return None  # something before the first echo
        pos = i + len(echo)
        starts.append((i, pos))
    chunks = []
    for k, (_, body) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else len(out)
        chunks.append(out[body:stop])
    return chunks
