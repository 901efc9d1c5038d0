"""Shell words quoted for a POSIX shell, for every command gentle-hooks prints (SPEC §7
"Every command a block prints is runnable exactly as printed"): sh, dash, bash, zsh, ksh and
busybox sh read each printed word back as the very word.

Room ``policy`` (the standard library only). :func:`quote` is :func:`shlex.quote`, except
for a word holding a control character (a newline in ``python -c`` code, an ESC) or a byte
that is not UTF-8 (kept as a lone surrogate by ``surrogateescape``): single quotes would
carry it raw, so a printed line would span several lines or drive the terminal. Such a
word is written as the output of ``printf`` in double quotes, ``"$(printf 'a\\nb')"``, which
every POSIX shell reads back as the very word: its format keeps printable ASCII but ``'``,
``%``, ``\\`` and a leading ``-`` (read as an option), writes newline and tab ``\\n`` and
``\\t``, and every other byte (the word's UTF-8, a kept byte as itself) as a ``\\ooo``
octal escape. A command substitution drops trailing newlines and no POSIX word on one line
carries one (ANSI-C ``$'...'`` is not read by dash before 0.5.13, the ``/bin/sh`` git runs
hooks under on Debian and Ubuntu), so a word's trailing newlines follow it as themselves in
single quotes: ``'a`` NEWLINE ``'``. That is the only raw control character a printed word
holds; its line goes on after the closing ``'`` (so no printed line a word continues starts
with anything but ``'``), and pasted whole it is still one command in every POSIX shell.
:func:`shown_path` names a path in words the same way, quoted only when it must be.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable

#: Line breaks beyond the C0 and C1 ones: a terminal or a log viewer may start a line there.
_BREAKS = (0x2028, 0x2029)


def _special(ch: str) -> bool:
    code = ord(ch)
    return code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000 or code in _BREAKS


def quote(word: str) -> str:
    """``word`` as one shell word for a POSIX shell: :func:`shlex.quote` unless it holds a
    control character or a byte that is not UTF-8, then ``"$(printf '...')"`` on one line;
    a word's trailing newlines, which no one-line POSIX word carries, follow it as
    themselves in single quotes (``'a`` NEWLINE ``'``: the one case the word spans lines)."""
    if not any(_special(ch) for ch in word):
        return shlex.quote(word)
    stem = word.rstrip("\n")
    if len(stem) == len(word):
        return "\"$(printf '" + _printf_format(word) + "')\""
    newlines = "'" + word[len(stem) :] + "'"
    if not any(_special(ch) for ch in stem):  # one single-quoted word, the newlines inside
        return "'" + stem.replace("'", "'\"'\"'") + word[len(stem) :] + "'"
    return "\"$(printf '" + _printf_format(stem) + "')\"" + newlines


#: printf's format escapes for the bytes it writes by name.
_PRINTF_NAMED = {0x0A: "\\n", 0x09: "\\t"}


def _printf_format(word: str) -> str:
    """A ``printf`` format (POSIX) that writes exactly ``word``'s bytes: printable ASCII
    as itself but ``'``, ``%``, ``\\`` and a leading ``-`` (read as an option), newline and
    tab by name, every other byte ``\\ooo``."""
    out = []
    for i, byte in enumerate(_word_bytes(word)):
        if byte in _PRINTF_NAMED:
            out.append(_PRINTF_NAMED[byte])
        elif 0x20 <= byte < 0x7F and chr(byte) not in "'%\\" and (i or byte != 0x2D):
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    return "".join(out)


def _word_bytes(word: str) -> bytes:
    """``word``'s bytes as argv carries them: UTF-8, a byte ``surrogateescape`` kept as
    itself, another lone surrogate as its UTF-8 form (``surrogatepass``)."""
    out = bytearray()
    for ch in word:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += ch.encode("utf-8", "surrogatepass")
    return bytes(out)


def join(words: Iterable[str]) -> str:
    """:func:`shlex.join` with :func:`quote`: one command for a POSIX shell, on one line
    unless a word ends in a newline (:func:`quote`: then that word's newlines are raw,
    inside single quotes, and the command goes on after the closing ``'``)."""
    return " ".join(quote(w) for w in words)


def shown(command: str) -> str:
    """A recorded command line for words people read: unchanged when it holds no control
    character; a ``receipt run`` command (:func:`shlex.join` of its argv) requoted with
    :func:`join` (one line unless a word ends in a newline: then it pastes as it reads);
    anything else on one line, each control character written ``\\xHH``. Longer than
    :data:`~gentle_hooks.errors.MAX_SHOWN` characters, its middle is cut
    (:func:`gentle_hooks.errors.shown`): the whole command is in ``--json``."""
    from gentle_hooks.errors import shown as bounded

    return bounded(_one_line(command))


def _one_line(command: str) -> str:
    """:func:`shown` before its bound."""
    if not any(_special(ch) for ch in command):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        words = None
    if words is not None and shlex.join(words) == command:
        return join(words)
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 0x20 else ch for ch in command)


#: What the output stream leaves as it is (:mod:`gentle_hooks.report.visible` writes every
#: other control character ``\\xHH``) and a path must not print raw: a line break starts a
#: line of the name's own, a tab lines it up as a block's indented line.
_UNSHOWN = ("\n", "\t", "\u2028", "\u2029")


def shown_path(path: str) -> str:
    """A path as human output names it: unchanged unless it holds a newline, a tab or a
    Unicode line or paragraph separator; then quoted as :func:`quote` quotes it
    (``"$(printf 'src/a\\nb.py')"``), so a file name can neither split the line it is named
    on nor print a line of its own (a forged ``gentle-hooks:`` line inside a block): only
    a name's trailing newlines stay raw, inside single quotes, and the line they open starts
    with the closing ``'``. Any other control character, and a byte that is not UTF-8, the
    output stream writes ``\\xHH``."""
    if not any(ch in path for ch in _UNSHOWN):
        return path
    return quote(path)


def shown_paths(paths: Iterable[str]) -> list[str]:
    """:func:`shown_path` of each of ``paths``, in order."""
    return [shown_path(p) for p in paths]
