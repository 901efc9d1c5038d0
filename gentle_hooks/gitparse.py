"""Parsers for git plumbing output: ``diff --raw --numstat -z`` and ``diff -U0`` patches.

Layer: pure functions over bytes (no process, no I/O); :mod:`gentle_hooks.git` runs git and
hands the bytes here. Paths are decoded with :func:`os.fsdecode` (surrogateescape), so any
byte sequence a path holds round-trips.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from gentle_hooks.candidate import PathChange
from gentle_hooks.errors import GitError
from gentle_hooks.values import frozen

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
_HUNK = re.compile(rb"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


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


def parse_raw_numstat(data: bytes) -> tuple[PathChange, ...]:
    """Parse ``git diff --raw --numstat -z --no-abbrev`` output into path changes.

    Args:
        data: git's stdout: raw records, then numstat records, NUL-separated.

    Returns:
        One :class:`PathChange` per raw record, in git's order, with numstat's counts.

    Raises:
        GitError: output that does not have that shape (the two sections disagree).
    """
    tokens = data.split(b"\0")
    if tokens and tokens[-1] == b"":
        tokens.pop()
    raws: list[tuple[list[bytes], bytes, bytes | None]] = []
    stats: list[tuple[int | None, int | None, bytes]] = []
    i = 0
    n = len(tokens)
    try:
        while i < n:
            tok = tokens[i]
            if tok.startswith(b":"):
                fields = tok[1:].split(b" ")
                status = fields[4][:1]
                if status in (b"R", b"C"):
                    raws.append((fields, tokens[i + 2], tokens[i + 1]))
                    i += 3
                else:
                    raws.append((fields, tokens[i + 1], None))
                    i += 2
            else:
                added, deleted, rest = tok.split(b"\t", 2)
                if rest == b"":
                    path = tokens[i + 2]
                    i += 3
                else:
                    path = rest
                    i += 1
                stats.append(
                    (
                        None if added == b"-" else int(added),
                        None if deleted == b"-" else int(deleted),
                        path,
                    )
                )
    except (IndexError, ValueError) as exc:
        raise GitError(f"unexpected output from git diff --raw --numstat: {exc}") from None
    if len(raws) != len(stats):
        raise GitError(
            f"git diff reported {len(raws)} raw records but {len(stats)} numstat records"
        )
    changes = []
    for (fields, path, old), (added, deleted, spath) in zip(raws, stats, strict=False):
        if spath != path:
            raise GitError(f"git diff sections disagree on {os.fsdecode(path)!r}")
        changes.append(
            PathChange(
                path=os.fsdecode(path),
                old_path=os.fsdecode(old) if old is not None else None,
                status=fields[4][:1].decode("ascii"),
                old_mode=fields[0].decode("ascii"),
                new_mode=fields[1].decode("ascii"),
                old_oid=fields[2].decode("ascii"),
                new_oid=fields[3].decode("ascii"),
                additions=added,
                deletions=deleted,
            )
        )
    return tuple(changes)


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
        m = _HUNK.match(line)
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
