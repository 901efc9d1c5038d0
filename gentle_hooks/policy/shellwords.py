"""Shell words quoted on one line, for every command gentle-hooks prints (SPEC §7 "Every
command a block prints is runnable exactly as printed").

Room ``policy`` (the standard library only). :func:`quote` is :func:`shlex.quote`, except
for a word holding a control character (a newline in ``python -c`` code, an ESC) or a byte
that is not UTF-8 (kept as a lone surrogate by ``surrogateescape``): single quotes would
carry it raw, so a printed line would span several lines or drive the terminal. Such a
word is written as ANSI-C quoting, ``$'...'`` (POSIX.1-2024; bash, zsh, ksh, mksh, busybox
sh; not dash before 0.5.13 nor fish), with ``\\n``, ``\\t``, ``\\r``, ``\\'``, ``\\\\`` and
``\\xHH`` escapes: one line, and the very word again when the shell reads it.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "'": "\\'", "\\": "\\\\"}


def _special(ch: str) -> bool:
    code = ord(ch)
    return code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000


def quote(word: str) -> str:
    """``word`` as one shell word on one line (:func:`shlex.quote` unless it holds a
    control character or a byte that is not UTF-8, then ``$'...'``)."""
    if not any(_special(ch) for ch in word):
        return shlex.quote(word)
    out = []
    for ch in word:
        code = ord(ch)
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte surrogateescape kept: that byte
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif _special(ch):  # C1, another lone surrogate: its code point
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def join(words: Iterable[str]) -> str:
    """:func:`shlex.join` with :func:`quote`: one line whatever the words hold."""
    return " ".join(quote(w) for w in words)


def shown(command: str) -> str:
    """A recorded command line as one line: unchanged when it holds no control character;
    a ``receipt run`` command (:func:`shlex.join` of its argv) requoted with :func:`join`;
    anything else with each control character written ``\\xHH``."""
    if not any(_special(ch) for ch in command):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        words = None
    if words is not None and shlex.join(words) == command:
        return join(words)
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 0x20 else ch for ch in command)
