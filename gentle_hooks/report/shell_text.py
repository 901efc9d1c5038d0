"""A command as the user types it: the program, its words quoted for a POSIX shell, the
flags that keep a candidate's binding, and labelled lines (SPEC §7: every command a block
prints runs exactly as printed).

Room ``report``. Pure string building for :mod:`gentle_hooks.report.fixes` and the rest of
the room; nothing here parses a string.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import Command, GentleError
from gentle_hooks.policy.selfcheck import report_argv
from gentle_hooks.report.program_text import program
from gentle_hooks.values.binding import Binding


def binding_flags(binding: Binding) -> str:
    """The flags another command needs to bind to the same candidate, each with a leading
    space (``""`` for the default binding: the snapshot of the current directory).

    Returns:
        ``--cwd DIR``, ``--staged``/``--committed`` and ``--base-ref REF`` in that order,
        ``DIR`` and ``REF`` quoted for a POSIX shell (:meth:`Binding.words`, quoted).
    """
    words = binding.words()
    return " " + _quote_all(words) if words else ""


#: Labels of the lines :func:`gentle_hooks.report.fixes.steps` returns, as a block prints them:
#: ``run`` a command to run as printed; ``prefix`` the start of a command the writer completes (its
#: own test command, or the brief's path); ``write`` the absolute path of a file to write before
#: the ``run`` lines after it (the verifier's brief; the ``do`` line above says what goes in it);
#: ``do`` words saying what to do or why; ``where`` where the commands below run; ``otherwise``
#: words that open another way, used when the one above did not resolve the block; ``then`` words
#: that open the lines every way ends with (back to the branch, the notes shared); ``or`` a command
#: that replaces the one above it.
LABELS = ("run", "prefix", "write", "do", "where", "otherwise", "then", "or")

Step = tuple[str, str]


def command_text(c: Command) -> str:
    """``c`` as the user types it: :func:`program` (or ``git``), then its words quoted
    for a POSIX shell, then ``< PATH`` when it reads a file as its standard input."""
    head = program() if c.tool == "gentle-hook" else c.tool
    redirect = [] if c.stdin is None else ["<", _quote(c.stdin)]
    return " ".join([head, *(_quote(w) for w in c.words), *redirect])


def labelled(c: Command) -> str:
    """``run: CMD`` or ``prefix: CMD`` (:data:`LABELS`)."""
    return f"{c.label}: {command_text(c)}"


def error_text(exc: GentleError, tail: str = "") -> str:
    """An error's one line: its words and ``tail``, then each command that resolves it,
    labelled (``...; run: gentle-hook receipt list``), so it runs as printed from where
    the user is (:func:`program`); the commands end the line."""
    return "; ".join([exc.message + tail, *(labelled(c) for c in exc.commands)])


def with_fix(words: str, fix: Command | None) -> str:
    """``words``, then ``; run: CMD`` when there is a command that resolves it."""
    return words if fix is None else f"{words}; {labelled(fix)}"


def _quote(word: str) -> str:
    from gentle_hooks.policy.shellwords import quote  # one line, whatever the word holds

    return word if word == "--" else quote(word)


def _quote_all(words: Sequence[str]) -> str:
    return " ".join(_quote(w) for w in words)


def runnable(command: str) -> str:
    """A receipt's command as the shell words to put after ``gentle-hook receipt run --``
    (:func:`gentle_hooks.policy.selfcheck.report_argv`, quoted for a POSIX shell)."""
    return _join(report_argv(command))


def _join(words: Sequence[str]) -> str:
    """The words quoted for a POSIX shell on one line
    (:func:`gentle_hooks.policy.shellwords.join`)."""
    from gentle_hooks.policy.shellwords import join  # off the gates' pass path

    return join(words)
