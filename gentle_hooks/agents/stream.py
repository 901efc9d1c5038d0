"""Hook input larger than :data:`gentle_hooks.agents.payload.STDIN_LIMIT`, read in bounded
memory (SPEC §7 "Hooks").

Room ``agents`` (standard library only). A runtime's post-tool input can carry the written
file whole, even twice (Claude Code's ``Write`` input holds ``tool_input.content`` and
``tool_response.content``; an ``Edit`` input holds ``originalFile``), so a few megabytes of
code make it larger than the limit. The recorder needs none of that text: it reads the
written file from the work tree. What it needs is small (the session, the tool call id, the
paths, the transcript path), so :class:`LongStrings` streams the JSON text through and keeps
it as it is, except that every string longer than :data:`STRING_LIMIT` bytes becomes ``""``.
The result is the same document with the file contents blanked, which every runtime's
decoder reads as it reads a small input. A long string keeps only its lines that begin with
``*** `` (at most :data:`LINE_LIMIT` bytes each, and :data:`STRING_LIMIT` in all): the file
headers of an ``apply_patch`` envelope (:mod:`gentle_hooks.agents.patch`), the only paths a
Codex-style edit names, so a large patch still names what it wrote. Memory stays bounded by
the limit of what is kept, whatever the input's size: strings are scanned, never held, once
they pass the limit.
"""

from __future__ import annotations

import re

#: Longest JSON string kept (its quotes and escapes counted); longer ones become ``""``.
#: Far above any path, id or model name, far below a file's content.
STRING_LIMIT = 64 * 1024

#: Longest line of a long string looked at for a patch header.
LINE_LIMIT = 4096
#: How a patch header line begins (:data:`gentle_hooks.agents.patch._HEADERS`).
_HEADER = b"*** "

#: The characters that end a run of plain string text: its closing quote or an escape.
_STRING_STOP = re.compile(rb'["\\]')


class LongStrings:
    """A streaming filter of JSON text that blanks every string longer than ``limit``.

    Feed the text in chunks (:meth:`feed`), cut anywhere, even inside an escape; read what
    was kept from :attr:`kept`. Text that is not JSON passes through as it is, for the
    parser to refuse. Only the strings' ends are found, so the work is linear in the input.
    """

    def __init__(self, limit: int = STRING_LIMIT) -> None:
        self.limit = limit
        self.kept = bytearray()
        self.blanked = 0  # how many strings became ""
        self._in_string = False
        self._escaped = False
        self._string = bytearray()
        self._long = False
        self._line = bytearray()  # the open string's current line, as JSON text
        self._line_over = False
        self._headers = bytearray()  # its patch header lines, "\n"-escaped

    def feed(self, chunk: bytes) -> None:
        """Pass ``chunk``, the next part of the text, through the filter."""
        i, n = 0, len(chunk)
        while i < n:
            if not self._in_string:
                j = chunk.find(b'"', i)
                if j < 0:
                    self.kept += chunk[i:]
                    return
                self.kept += chunk[i:j]
                self._in_string, self._long = True, False
                self._string = bytearray(b'"')
                i = j + 1
            elif self._escaped:
                # the escaped character (a quote or a backslash too) is the string's text
                char = chunk[i : i + 1]
                self._take(char)
                if char == b"n":  # an escaped newline ends the line
                    self._end_line()
                else:
                    self._add_line(b"\\" + char)
                self._escaped = False
                i += 1
            else:
                m = _STRING_STOP.search(chunk, i)
                j = m.start() if m else n
                self._take(chunk[i:j])
                self._add_line(chunk[i:j])
                if m is None:
                    return
                if chunk[j] == 0x5C:  # a backslash: the next character is escaped
                    self._take(b"\\")
                    self._escaped = True
                else:
                    self._close()
                i = j + 1

    def _take(self, part: bytes) -> None:
        """Add ``part`` to the open string, dropping the string once it is too long."""
        if self._long:
            return
        self._string += part
        if len(self._string) > self.limit:
            self._long, self._string = True, bytearray()

    def _add_line(self, part: bytes) -> None:
        """Add ``part`` to the open string's current line, while it is short."""
        if self._line_over:
            return
        self._line += part
        if len(self._line) > LINE_LIMIT:
            self._line_over, self._line = True, bytearray()

    def _end_line(self) -> None:
        """The current line ends: keep it when it is a patch header and there is room."""
        line = self._line
        header = not self._line_over and line.lstrip(b" ").startswith(_HEADER)
        if header and len(self._headers) + len(line) + 2 <= self.limit:
            self._headers += line + b"\\n"
        self._line, self._line_over = bytearray(), False

    def _close(self) -> None:
        """The open string ends: keep it, or its patch headers in place of a long one."""
        if self._long:
            self._end_line()
            self.kept += b'"' + self._headers + b'"'
            self.blanked += 1
        else:
            self.kept += self._string + b'"'
        self._in_string, self._string = False, bytearray()
        self._line, self._line_over, self._headers = bytearray(), False, bytearray()
