"""What the ``gentle-ai`` binary said, as one bounded, redacted line (SPEC §4 ``gentle-ai``).

Room ``native``, pure (standard library only). Shared by :mod:`gentle_hooks.native.binary`
(run failures) and :mod:`gentle_hooks.native.decode` (refused output), neither of which
imports the other at module level.

A binary's diagnostics are relayed, never trusted with secrets: :func:`redact` applies, in
order, what upstream gentle-pi's host applies to a native diagnostic
(``sanitizeNativeDiagnosticText`` of ``lib/native-review-cli.ts`` at 7313aa9a, rows ported in
``tests/unit/test_upstream_decoder_rows.py``): terminal control sequences (OSC, DCS/SOS/PM/
APC, CSI) become ``[REDACTED CONTROL]``; PEM blocks ``[REDACTED PEM]``; the value of a JSON
secret field (``"token": "..."``, ``"password"``, ``"api_key"``, ``"*_token"``...)
``"[REDACTED]"``; a ``Bearer`` token ``Bearer [REDACTED]``; a secret key's value after ``=``
or ``:`` (``token=``, ``password:``, ``GITHUB_TOKEN=``, ``--api-key=``...) ``[REDACTED]``,
the key kept; other control characters are dropped. Then what gentle-shell's host relays
redacted besides (its rows too): every other environment assignment (``NAME=value``, quoted
values too) and credential argument (``--password x``, ``--api-key "x y"``) whole, URL
credentials, and absolute paths (POSIX, home-relative, Windows, quoted or running to a
separator), while keeping the guidance around them (``use --untracked-scope=exclude or
select``). Past the whole-text rules, redaction runs line by line, before the lines are
folded into one.
"""

from __future__ import annotations

import re

#: Longest message kept from the binary, in characters (one line).
MAX_MESSAGE_CHARS = 500
#: What a redacted span becomes (upstream's marker).
REDACTED = "[REDACTED]"
#: Upstream's marker for a terminal control sequence, and for a PEM block.
REDACTED_CONTROL, REDACTED_PEM = "[REDACTED CONTROL]", "[REDACTED PEM]"

# -- upstream's sanitizeNativeDiagnosticText, rule for rule --------------------------------
_OSC = re.compile(r"\x1b](?:[^\x07\x1b]|\x1b(?!\\))*?(?:\x07|\x1b\\)")
_STRING_CONTROL = re.compile(r"\x1b[PX^_][\s\S]*?\x1b\\")
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_PEM = re.compile(r"-----BEGIN [^-]+-----[\s\S]*?-----END [^-]+-----")
_SECRET_KEYS = (
    r"token|password|secret|api_key|apikey|authorization|cookie|private_key|access_token|"
    r"github_token|[a-z0-9_-]+_token"
)
_JSON_SECRET = re.compile(r'(?i)("(?:' + _SECRET_KEYS + r')"\s*:\s*)"(?:\\.|[^"\\])*"')
_BEARER_UPSTREAM = re.compile(r"(?i)\b(Bearer)\s+[^\s]+")
_KEY_VALUE = re.compile(
    r"(?i)\b(token|secret|password|authorization|cookie|private_key|access_token|"
    r"github_token|[a-z0-9_-]+_token|api[_-]?key)\s*([:=])\s*[^\s]+"
)
#: Control characters upstream drops (whitespace ones are folded by :func:`one_line`).
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")

# -- what gentle-shell's host redacts besides ------------------------------------------------
#: A value already redacted is left as it is.
_DONE = r"(?!\[REDACTED)"
_QUOTED = r"(?:\"[^\"\n]*\"|'[^'\n]*')"
_CREDENTIAL = re.compile(
    r"(?i)(?<![\w-])(--?(?:password|passwd|pass|pwd|passphrase|token|secret|api[-_]?key|"
    r"access[-_]?key|access[-_]?token|auth(?:[-_]?token)?|client[-_]?secret|credentials?|"
    r"private[-_]?key))(?:=|\s+)" + _DONE + r"(?:" + _QUOTED + r"|[^\s;,]+)"
)
_ASSIGNMENT = re.compile(
    r"(?<![\w.\-/:=])[A-Za-z_][A-Za-z0-9_]*=" + _DONE + r"(?:" + _QUOTED + r"|[^\s;,]*)"
)
_BASIC = re.compile(r"(?i)\b(basic)\s+" + _DONE + r"[A-Za-z0-9._~+/=-]+")
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
    """``text`` with secrets, control sequences and absolute paths redacted (module
    docstring); everything else kept as it was."""
    text = _OSC.sub(REDACTED_CONTROL, text)
    text = _STRING_CONTROL.sub(REDACTED_CONTROL, text)
    text = _CSI.sub(REDACTED_CONTROL, text)
    text = _PEM.sub(REDACTED_PEM, text)
    text = _JSON_SECRET.sub(lambda m: m.group(1) + f'"{REDACTED}"', text)
    text = _BEARER_UPSTREAM.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _KEY_VALUE.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
    text = _CONTROL.sub("", text)
    return "\n".join(_redact_line(line) for line in text.split("\n"))


def _redact_line(line: str) -> str:
    line = _URL_USER.sub(lambda m: m.group(1) + REDACTED + "@", line)
    line = _BASIC.sub(lambda m: f"{m.group(1)} {REDACTED}", line)
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
