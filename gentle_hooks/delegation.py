"""Delegated evidence that needs no ledger: AI co-author trailers and markers in commits,
and an agent runtime in the hook's environment (SPEC §5 "Decision": who the gate applies to).

Layer: pure functions over strings and mappings (standard library only); the caller reads
commit messages and the environment. Formats are the ones the tools write:

* Claude Code: ``Co-Authored-By: Claude <noreply@anthropic.com>`` (any Claude model name)
  and the ``Generated with [Claude Code]`` line.
* aider: ``(aider)`` appended to the author or committer name (its default attribution),
  ``Co-authored-by: aider (<model>) <noreply@aider.chat>``, or an ``aider: `` subject prefix.
* Codex: ``Co-authored-by: Codex <noreply@openai.com>`` and Codex's ``codex`` bot addresses.
* Cursor: ``Co-authored-by: Cursor Agent <cursoragent@cursor.com>``.
* GitHub Copilot: ``Co-authored-by: Copilot <...+Copilot@users.noreply.github.com>`` and the
  ``copilot-swe-agent[bot]`` author.
* Others seen in the wild (Gemini CLI, Jules, Windsurf, Amp, OpenCode, Goose, Cline, Amazon Q,
  Pi) by their attribution addresses; and gentle-hooks' own ``Gentle-Writer:`` trailer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

#: Co-author addresses (lowercase, matched as a suffix of the address) that name an AI agent.
AI_COAUTHOR_ADDRESSES: tuple[tuple[str, str], ...] = (
    ("noreply@anthropic.com", "claude-code"),
    ("noreply@aider.chat", "aider"),
    ("aider@aider.chat", "aider"),
    ("noreply@openai.com", "codex"),
    ("codex@openai.com", "codex"),
    ("cursoragent@cursor.com", "cursor"),
    ("+copilot@users.noreply.github.com", "copilot"),
    ("copilot@github.com", "copilot"),
    ("gemini-cli-agent@google.com", "gemini-cli"),
    ("google-labs-jules[bot]@users.noreply.github.com", "jules"),
    ("noreply@codeium.com", "windsurf"),
    ("amp@ampcode.com", "amp"),
    ("noreply@opencode.ai", "opencode"),
    ("opensource@block.xyz", "goose"),
    ("noreply@cline.bot", "cline"),
    ("noreply@amazon.com", "amazon-q"),
    ("noreply@pi.dev", "pi"),
)
#: Author or committer names that are agents.
AI_AUTHOR_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(aider\)\s*$"), "aider"),
    (re.compile(r"^copilot-swe-agent(\[bot\])?$", re.I), "copilot"),
    (re.compile(r"^google-labs-jules(\[bot\])?$", re.I), "jules"),
    (re.compile(r"^(claude|claude code)$", re.I), "claude-code"),
)
#: Message markers that are not trailers.
AI_MESSAGE_MARKERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Generated with \[Claude Code\]", re.I), "claude-code"),
    (re.compile(r"^aider: ", re.I), "aider"),
    (re.compile(r"^Gentle-Writer:\s*\S", re.I | re.M), "gentle-hooks"),
)
#: Environment variables an agent runtime sets for the processes it runs: (name, value or
#: None for "any non-empty value", runtime).
RUNTIME_ENV: tuple[tuple[str, str | None, str], ...] = (
    ("CLAUDECODE", None, "claude-code"),
    ("CLAUDE_CODE_ENTRYPOINT", None, "claude-code"),
    ("CODEX_SANDBOX", None, "codex"),
    ("CODEX_SANDBOX_NETWORK_DISABLED", None, "codex"),
    ("GEMINI_CLI", None, "gemini-cli"),
    ("CLINE_ACTIVE", "true", "cline"),
    ("CURSOR_AGENT", None, "cursor"),
    ("OPENCODE", None, "opencode"),
    ("GENTLE_WRITER_MODEL", None, "gentle-hooks env recorder"),
)

_COAUTHOR = re.compile(r"^co-authored-by:\s*(.+)$", re.I | re.M)


@dataclass(frozen=True)
class Evidence:
    """Why a commit or a hook run counts as delegated: the agent and what showed it."""

    agent: str
    detail: str


def message_evidence(message: str, author: str = "", committer: str = "") -> Evidence | None:
    """AI evidence in a commit: co-author trailers, agent author/committer names, markers.

    Args:
        message: the full commit message; author/committer: their names (not emails).

    Returns:
        The first :class:`Evidence` found, or None for an ordinary human commit.
    """
    for match in _COAUTHOR.finditer(message):
        who = match.group(1).strip()
        low = who.lower().rstrip(">")
        for suffix, agent in AI_COAUTHOR_ADDRESSES:
            if low.endswith(suffix.rstrip(">")):
                return Evidence(agent, f"Co-authored-by: {who}")
    for name, role in ((author, "author"), (committer, "committer")):
        for pattern, agent in AI_AUTHOR_PATTERNS:
            if name and pattern.search(name):
                return Evidence(agent, f"{role} {name!r}")
    for pattern, agent in AI_MESSAGE_MARKERS:
        m = pattern.search(message)
        if m:
            return Evidence(agent, f"message marker {m.group(0).strip()!r}")
    return None


def runtime_evidence(env: Mapping[str, str]) -> Evidence | None:
    """An agent runtime detected in the hook's environment, or None."""
    for name, value, agent in RUNTIME_ENV:
        got = env.get(name)
        if got and (value is None or got == value):
            return Evidence(agent, f"{name} is set in the hook's environment")
    return None
