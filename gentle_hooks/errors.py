"""The one error type of gentle-hooks and its exit codes (SPEC §7 "Exit codes").

Room ``errors``, leaf. Imports only the standard library; every other module may import it.

A *block* is a result, never an exception. Exceptions are for input the tool cannot
act on (exit 2) and for the unexpected (exit 3, handled by :mod:`gentle_hooks.main`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

EXIT_OK = 0
EXIT_BLOCKED = 1
EXIT_INPUT = 2
EXIT_UNEXPECTED = 3
EXIT_INTERRUPTED = 130


#: The longest line :func:`shown` returns; beyond it the middle is elided.
MAX_SHOWN = 1000

#: Control characters but tab and newline (C0, DEL, C1) and the other line breaks, each
#: written as an escape (:func:`shown`).
_VISIBLE = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (9, 10)}
_VISIBLE.update({0x2028: "\\u2028", 0x2029: "\\u2029"})


def shown(text: str, limit: int | None = MAX_SHOWN) -> str:
    """``text`` as one message may echo it: every control character but newline and tab,
    and every other line break (CR, VT, FF, NEL, U+2028, U+2029), written ``\\xHH`` or
    ``\\uXXXX``, so echoed input (a ref name, a path, a payload's tool name) can neither
    split the line nor drive the terminal; longer than ``limit`` characters, its middle is
    replaced by ``...[N characters]...`` (the start and the end, where a command to run
    is, are kept). ``limit`` None: never cut (text a file keeps whole, such as a
    verdict's Markdown view)."""
    out = text.translate(_VISIBLE)
    if limit is None or len(out) <= limit:
        return out
    head, tail = limit * 3 // 5, limit * 2 // 5
    return f"{out[:head]}...[{len(out) - head - tail} characters]...{out[len(out) - tail :]}"


#: :data:`_VISIBLE` with newline and tab too (:func:`shown_field`).
_FIELD = {**_VISIBLE, 9: "\\x09", 10: "\\x0a"}


def shown_field(text: str, limit: int | None = MAX_SHOWN) -> str:
    """A value from input (a payload's tool or event name, a path it names) as a message
    may echo it inside one of its lines: as :func:`shown`, with newline and tab written
    ``\\x0a`` and ``\\x09`` too, so the value can never start a line of its own (a forged
    ``recorded: ...``)."""
    return shown(text.translate(_FIELD), limit)


def shown_writer(model: str | None, effort: str | None) -> str:
    """A writer as a message names it, ``model/effort`` (``unknown`` for a missing half),
    each half a stored value echoed with :func:`shown_field`: one line, at most
    :data:`MAX_SHOWN` characters each, however long the ledger row, the spool line or the
    note it came from (the recorder refuses a label over 200 characters; a row written
    around it is cut in the middle when shown). ``--json`` carries the stored value."""
    return f"{shown_field(model or 'unknown')}/{shown_field(effort or 'unknown')}"


def quoted(text: str) -> str:
    """``repr(text)`` for a message, except that a byte ``surrogateescape`` kept (a lone
    surrogate ``U+DC80``-``U+DCFF``, from an argument, a variable or git's output that is
    not UTF-8) is written ``\\xHH``, the byte itself, as the output streams write it, not
    ``\\udcHH``."""
    if not any(0xDC80 <= ord(ch) <= 0xDCFF for ch in text):
        return repr(text)
    quote = '"' if "'" in text and '"' not in text else "'"
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == quote or ch == "\\":
            out.append("\\" + ch)
        else:
            out.append(repr(ch)[1:-1] if not ch.isprintable() else ch)
    return quote + "".join(out) + quote


class Command:
    """A command named as values, for the reporting layer to write out
    (:func:`gentle_hooks.report.fixes.command_text`): the CLI's own invocation name (or
    ``git``), then ``words``, each quoted for a POSIX shell.

    Attributes:
        words: the arguments after the program name, unquoted (``("receipt", "list")``).
        tool: ``gentle-hook`` (written as the user can type it: a name on PATH or an
            absolute path), ``git``, or a framework's program as shell words (``pre-commit``,
            ``prek``, or the hook's own copy: ``services.install.framework_program``).
        label: ``run`` (runs as written) or ``prefix`` (the writer completes it with its
            own words: a test command after ``--``, a brief's path after ``--brief``).
        stdin: a file the command reads as its standard input (written ``< PATH``), or
            None.
    """

    __slots__ = ("label", "stdin", "tool", "words")

    # a plain class: this leaf module stays off dataclasses, which the gates' pass path
    # does not import (gentle_hooks.values.frozen says why)
    def __init__(
        self,
        words: tuple[str, ...],
        tool: str = "gentle-hook",
        label: str = "run",
        stdin: str | None = None,
    ) -> None:
        self.words = words
        self.tool = tool
        self.label = label
        self.stdin = stdin

    def _key(self) -> tuple[tuple[str, ...], str, str, str | None]:
        return (self.words, self.tool, self.label, self.stdin)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Command) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Command({self.words!r}, tool={self.tool!r}, label={self.label!r})"


def cli(*words: str, label: str = "run") -> Command:
    """A ``gentle-hook`` :class:`Command` of ``words``."""
    return Command(tuple(words), label=label)


class GentleError(Exception):
    """A failure the user can fix; rendered as one line, never a traceback.

    Args:
        message: one line saying what is wrong, in words.
        exit_code: process exit code; 2 (usage, bad input, config, store) unless a subclass
            says otherwise.
        commands: the commands that resolve it, in order, when there are any; the reporting
            layer appends them to the line (``; run: ...``).
    """

    exit_code: int = EXIT_INPUT

    def __init__(
        self, message: str, *, exit_code: int | None = None, commands: Sequence[Command] = ()
    ) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
        self.commands: tuple[Command, ...] = tuple(commands)

    @property
    def message(self) -> str:
        """The one-line message (newlines folded so the promise of one line holds)."""
        return " ".join(str(self).split("\n"))


class UsageError(GentleError):
    """Bad flags or arguments (exit 2)."""


class GitError(GentleError):
    """Git refused or failed: not a repository, unknown ref, a git command failed (exit 2)."""


class ConfigError(GentleError):
    """Invalid configuration in a file, git config or the environment (exit 2)."""


class PolicyInputError(GentleError):
    """Input the policy cannot accept: unknown escalation item, missing reason (exit 2)."""
