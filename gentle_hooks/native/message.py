"""What the ``gentle-ai`` binary said, as one bounded, redacted line (SPEC §4 ``gentle-ai``).

Room ``native``, pure (standard library only). Shared by :mod:`gentle_hooks.native.binary`
(run failures) and :mod:`gentle_hooks.native.decode` (refused output), neither of which
imports the other at module level.

A binary's diagnostics are relayed, never trusted with secrets: :func:`redact` removes what
upstream gentle-pi's host removes before it relays a refusal (its rows are ported in
``tests/unit/test_upstream_decoder_rows.py``): environment assignments (``NAME=value``,
quoted values too), credential arguments (``--password x``, ``--api-key "x y"``), bearer
tokens and URL credentials, and absolute paths (POSIX, home-relative, Windows, quoted or
running to a separator), while keeping the guidance around them
(``use --untracked-scope=exclude or select``). Redaction runs line by line, before the
lines are folded into one.
"""

from __future__ import annotations

import re

#: Longest message kept from the binary, in characters (one line).
MAX_MESSAGE_CHARS = 500
#: What a redacted span becomes.
REDACTED = "[redacted]"

_QUOTED = r"(?:\"[^\"\n]*\"|'[^'\n]*')"
_CREDENTIAL = re.compile(
    r"(?i)(?<![\w-])(--?(?:password|passwd|pass|pwd|passphrase|token|secret|api[-_]?key|"
    r"access[-_]?key|access[-_]?token|auth(?:[-_]?token)?|client[-_]?secret|credentials?|"
    r"private[-_]?key))(?:=|\s+)(?:" + _QUOTED + r"|[^\s;,]+)"
)
_ASSIGNMENT = re.compile(r"(?<![\w.\-/:=])[A-Za-z_][A-Za-z0-9_]*=(?:" + _QUOTED + r"|[^\s;,]*)")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
_URL_USER = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s]+@")
#: An absolute path in quotes, whatever it holds.
_ROOT = r"(?:/|~/|[A-Za-z]:\\|\\\\)"
_QUOTED_PATH = re.compile(r"(?:\"" + _ROOT + r"[^\"\n]*\"|'" + _ROOT + r"[^'\n]*')")
#: An unquoted absolute path runs to a separator (``; `` ``, `` ``: ``) or the end of the line:
#: a path may hold spaces.
_PATH = re.compile(
    r"(?:(?<![\w.~\-/:\\])/|(?<![\w/])~/|(?<![\w])[A-Za-z]:\\|(?<![\w\\])\\\\)"
    r"(?:(?![;,]\s|:\s|[;,]$|:$|[\"'<>|]).)*"
)


def redact(text: str) -> str:
    """``text`` with secrets and absolute paths replaced by :data:`REDACTED`, line by line
    (module docstring); everything else kept as it was."""
    return "\n".join(_redact_line(line) for line in text.split("\n"))


def _redact_line(line: str) -> str:
    line = _URL_USER.sub(lambda m: m.group(1) + REDACTED + "@", line)
    line = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", line)
    line = _CREDENTIAL.sub(lambda m: f"{m.group(1)} {REDACTED}", line)
    line = _QUOTED_PATH.sub(REDACTED, line)
    line = _ASSIGNMENT.sub(REDACTED, line)
    return _PATH.sub(REDACTED, line).rstrip()


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Fold ``text`` to one line (whitespace runs to one space), at most ``limit`` chars
    (the last one then ``…``)."""
    folded = " ".join(text.split())
    return folded if len(folded) <= limit else folded[: limit - 1] + "…"


def relay(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """What the binary said, fit to relay: :func:`redact` it, then :func:`one_line` it."""
    return one_line(redact(text), limit)
