"""Parsers for what the recording commands accept (SPEC §6): receipt lines, paths, short texts.

Room ``policy`` (pure: standard library and :mod:`gentle_hooks.errors` only). Every parser
either returns a normalised value or raises :class:`~gentle_hooks.errors.UsageError` (exit
2) with the reason in one line. ``tests/unit/test_inputs.py`` holds their property tests.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import frozen

#: The separator of a receipt line: ``<command>: <observed result>``.
RECEIPT_SEPARATOR = ": "
#: Longest command part of a receipt line, in characters.
MAX_COMMAND_CHARS = 4000
#: Longest observed-result part of a receipt line, in characters.
MAX_OBSERVED_CHARS = 1000
#: Longest model id, source, session id or tool call id, in characters.
MAX_LABEL_CHARS = 200


@frozen
class ReceiptLine:
    """A parsed receipt line: the command and the result the writer observed."""

    command: str
    observed: str

    def __str__(self) -> str:
        return f"{self.command}{RECEIPT_SEPARATOR}{self.observed}"


#: The line separators of :meth:`str.splitlines` beyond the C0 controls: NEL (U+0085), LINE
#: SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029). A one-line text holds none of them.
UNICODE_LINE_BREAKS = frozenset("\x85\u2028\u2029")


def _has_control(text: str) -> bool:
    """A C0/C1 control character, DEL, or a Unicode line separator: not one line."""
    return any(ord(c) < 32 or 127 <= ord(c) < 160 or c in UNICODE_LINE_BREAKS for c in text)


def parse_receipt_line(text: str) -> ReceiptLine:
    """Parse ``<command>: <observed result>`` (seed 000: each reported command in this form).

    The line splits at the *first* ``": "``: commands seldom contain colon-space, while
    observed results often do (``FAILED ...: AssertionError: ...``). Both halves are
    stripped and must be non-empty; the line must be one line without control characters.

    Args:
        text: the receipt line as the writer reported it.

    Returns:
        The command and observed result.

    Raises:
        UsageError: no ``": "``, an empty half, several lines, control characters, or a
            half longer than :data:`MAX_COMMAND_CHARS` / :data:`MAX_OBSERVED_CHARS`.
    """
    if "\n" in text or "\r" in text:
        raise UsageError("a receipt is one line: '<command>: <observed result>'")
    if _has_control(text):
        raise UsageError("the receipt line contains control characters")
    command, sep, observed = text.partition(RECEIPT_SEPARATOR)
    if not sep:
        raise UsageError(
            f"receipt {text!r} has no ': ' separator; write '<command>: <observed result>', "
            f"e.g. 'pytest -q: exit 0'"
        )
    command, observed = command.strip(), observed.strip()
    if not command:
        raise UsageError(f"receipt {text!r} names no command before ': '")
    if not observed:
        raise UsageError(f"receipt {text!r} gives no observed result after ': '")
    if len(command) > MAX_COMMAND_CHARS:
        raise UsageError(f"the receipt command is longer than {MAX_COMMAND_CHARS} characters")
    if len(observed) > MAX_OBSERVED_CHARS:
        raise UsageError(f"the observed result is longer than {MAX_OBSERVED_CHARS} characters")
    return ReceiptLine(command, observed)


def validate_paths(paths: Iterable[str]) -> tuple[str, ...]:
    """Validate root-relative paths a writer touched (``record --paths``).

    A path must be relative to the work tree root, stay inside it lexically, and contain
    no NUL. Paths are normalised (``a/./b`` -> ``a/b``); duplicates collapse in order.
    Symlinks are not resolved: the check is on the text the runtime reported.

    Args:
        paths: the paths as given, ``/``-separated.

    Returns:
        The normalised paths, first occurrence order.

    Raises:
        UsageError: an empty path, a NUL, an absolute path, or one escaping the root.
    """
    out: dict[str, None] = {}
    for raw in paths:
        if raw == "":
            raise UsageError("--paths: an empty path is not a path")
        if "\0" in raw:
            raise UsageError(f"--paths: {raw!r} contains a NUL byte")
        if raw.startswith("/"):
            raise UsageError(f"--paths: {raw!r} is absolute; give paths relative to the root")
        norm = posixpath.normpath(raw)
        if norm == ".." or norm.startswith("../"):
            raise UsageError(f"--paths: {raw!r} escapes the work tree root")
        out[norm] = None
    return tuple(out)


def validate_label(text: str | None, what: str, *, required: bool = False) -> str | None:
    """Validate a short one-line label (model id, source, session id, tool call id).

    Args:
        text: the value, or None when not given.
        what: the flag name for the message (``--model``).
        required: raise when the value is missing or blank.

    Returns:
        The stripped value, or None when not given (and not required).

    Raises:
        UsageError: missing when required, control characters, or longer than
            :data:`MAX_LABEL_CHARS`.
    """
    if text is None or not text.strip():
        if required:
            raise UsageError(f"{what} is required")
        return None
    value = text.strip()
    if _has_control(value):
        raise UsageError(f"{what} must be one line without control characters")
    if len(value) > MAX_LABEL_CHARS:
        raise UsageError(f"{what} is longer than {MAX_LABEL_CHARS} characters")
    return value


def label_problem(text: str) -> str | None:
    """Why :func:`validate_label` would refuse ``text``, in words that follow its name
    (``is longer than 200 characters``, ``is not one line``); None when it would not."""
    value = text.strip()
    if _has_control(value):
        return "is not one line (it holds a control character)"
    if len(value) > MAX_LABEL_CHARS:
        return f"is longer than {MAX_LABEL_CHARS} characters"
    return None
