"""Delegated evidence that needs no ledger: AI co-author trailers and markers in commits,
and an agent runtime in the hook's environment (SPEC §5 "Decision": who the gate applies to).

Room ``policy``, pure functions over strings and mappings (standard library only); the caller reads
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

TYPE_CHECKING = False  # the hook pass path calls runtime_evidence: keep imports light
if TYPE_CHECKING:
    import re
    from collections.abc import Mapping

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
#: Author or committer names that are agents: (regex, flags, agent).
AI_AUTHOR_PATTERNS: tuple[tuple[str, str, str], ...] = (
    (r"\(aider\)\s*$", "", "aider"),
    (r"^copilot-swe-agent(\[bot\])?$", "i", "copilot"),
    (r"^google-labs-jules(\[bot\])?$", "i", "jules"),
    (r"^(claude|claude code)$", "i", "claude-code"),
)
#: Message markers that are not trailers: (regex, flags, agent).
AI_MESSAGE_MARKERS: tuple[tuple[str, str, str], ...] = (
    (r"Generated with \[Claude Code\]", "i", "claude-code"),
    (r"^aider: ", "i", "aider"),
    (r"^Gentle-Writer:[ \t]*\S.*$", "im", "gentle-hooks"),
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

_COAUTHOR = r"^co-authored-by:\s*(.+)$"
_COMPILED: dict[str, re.Pattern[str]] = {}


def _rx(pattern: str, flags: str) -> re.Pattern[str]:
    """Compile lazily (``re`` is imported only when a message is inspected)."""
    key = flags + pattern
    if key not in _COMPILED:
        import re

        bits = (re.I if "i" in flags else 0) | (re.M if "m" in flags else 0)
        _COMPILED[key] = re.compile(pattern, bits)
    return _COMPILED[key]


class Evidence:
    """Why a commit or a hook run counts as delegated: the agent and what showed it."""

    __slots__ = ("agent", "detail")

    def __init__(self, agent: str, detail: str) -> None:
        self.agent, self.detail = agent, detail

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Evidence) and (self.agent, self.detail) == (
            other.agent,
            other.detail,
        )

    def __hash__(self) -> int:
        return hash((self.agent, self.detail))

    def __repr__(self) -> str:
        return f"Evidence({self.agent!r}, {self.detail!r})"


def strip_comments(message: str) -> str:
    """A commit message without git's comment lines (those starting with ``#``)."""
    return "\n".join(line for line in message.splitlines() if not line.startswith("#"))


def message_evidence(message: str, author: str = "", committer: str = "") -> Evidence | None:
    """AI evidence in a commit: co-author trailers, agent author/committer names, markers.

    Args:
        message: the full commit message; author/committer: their names (not emails).

    Returns:
        The first :class:`Evidence` found, or None for an ordinary human commit.
    """
    for match in _rx(_COAUTHOR, "im").finditer(message):
        who = match.group(1).strip()
        low = who.lower().rstrip(">")
        for suffix, agent in AI_COAUTHOR_ADDRESSES:
            if low.endswith(suffix.rstrip(">")):
                return Evidence(agent, f"Co-authored-by: {who}")
    for name, role in ((author, "author"), (committer, "committer")):
        for pattern, flags, agent in AI_AUTHOR_PATTERNS:
            if name and _rx(pattern, flags).search(name):
                return Evidence(agent, f"{role} {name!r}")
    for pattern, flags, agent in AI_MESSAGE_MARKERS:
        m = _rx(pattern, flags).search(message)
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
