"""The native assessment's reasons in words, for the ``why:`` lines people read (SPEC §7).

Room ``report``. A reason's code and signal are upstream gentle-ai's stable vocabulary
(:mod:`gentle_hooks.native.rules`); they stay in ``--json`` and in ``--explain``. Human
output names them in words: a code or signal not listed here (a newer gentle-ai's) is
shown with its underscores as spaces.
"""

from __future__ import annotations

from gentle_hooks.errors import shown_field
from gentle_hooks.policy.shellwords import shown_path

#: Reason codes (upstream ``risk.go``) in words.
CODE_WORDS = {
    "hot_path": "a path in a sensitive area",
    "service_token": "code that handles a service's credentials",
    "shell_source": "code that runs a shell or another process",
    "executable_mode": "the file's executable bit changed",
    "generated": "a generated file",
    "configuration_change": "a configuration change",
    "non_executable_only": "only files that do not run",
    "empty_content": "no content changed",
    "executable_change": "a change to code that runs",
    "process_boundary": "an added line starts another process",
    "agent_escalation": "escalated for a named high-risk item",
    "unassessable": "the change could not be assessed",
}

#: Signals (upstream's ``signal: <name>`` detail) in words.
SIGNAL_WORDS = {
    "auth": "authentication",
    "update": "updates",
    "payments": "payments",
    "security": "security",
    "shell_process": "a shell or process call",
    "permissions": "file permissions",
}


def _plain(token: str, table: dict[str, str]) -> str:
    return table.get(token, token.replace("_", " "))


def reason_words(code: str, path: str | None, detail: str | None) -> str:
    """One native reason for people: its code in words, the path, then the detail with a
    ``signal: NAME`` detail in words (``touches: authentication``); any other detail as
    given, bounded (:func:`~gentle_hooks.errors.shown_field`: an escalation's stored reason,
    a native binary's detail)."""
    parts = [_plain(code, CODE_WORDS)]
    if path:
        parts.append(shown_path(path))
    if detail:
        if detail.startswith("signal: "):
            parts.append("touches " + _plain(detail.removeprefix("signal: "), SIGNAL_WORDS))
        else:
            parts.append(shown_field(detail))
    return ": ".join(parts)
