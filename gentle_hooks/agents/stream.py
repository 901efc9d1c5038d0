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
decoder reads as it reads a small input. Memory stays bounded by the limit of what is kept,
whatever the input's size: strings are scanned, never held, once they pass the limit.
"""

from __future__ import annotations

import re

#: Longest JSON string kept (its quotes and escapes counted); longer ones become ``""``.
#: Far above any path, id or model name, far below a file's content.
STRING_LIMIT = 64 * 1024

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
                self._take(chunk[i : i + 1])
                self._escaped = False
                i += 1
            else:
                m = _STRING_STOP.search(chunk, i)
                j = m.start() if m else n
                self._take(chunk[i:j])
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

    def _close(self) -> None:
        """The open string ends: keep it, or ``""`` in place of a long one."""
        if self._long:
            self.kept += b'""'
            self.blanked += 1
        else:
            self.kept += self._string + b'"'
        self._in_string, self._string = False, bytearray()
