"""The table of AI markers in commits (SPEC §8 "Detection"): every documented or observed
way an agent signs a commit it wrote, one row each, with its source in ``docs/markers.md``.

Room ``policy``; data only, standard library only (the hook pass path imports it). Four
places a marker can be, by :attr:`Marker.where`:

* ``address``: an address (lowercase, matched as the end of the address) that names an
  agent, in a ``Co-authored-by:`` trailer or as the author's or committer's email;
* ``identity``: a regular expression over an author's or committer's *name*;
* ``trailer``: a regular expression over the message, for trailers and sign-offs;
* ``message``: a regular expression over the message, for lines that are not trailers.

Patterns carry their own flags (``(?i)``, ``(?im)``). Row ids are stable: tests and
``docs/markers.md`` name them.
"""

from __future__ import annotations


class Marker:
    """One marker: a stable id, where it is looked for, the pattern, the agent it names,
    and the key of its source in ``docs/markers.md``."""

    __slots__ = ("agent", "id", "pattern", "source", "where")

    def __init__(self, id: str, where: str, pattern: str, agent: str, source: str) -> None:
        self.id, self.where, self.pattern, self.agent, self.source = (
            id,
            where,
            pattern,
            agent,
            source,
        )

    def __repr__(self) -> str:
        return f"Marker({self.id!r})"


MARKERS: tuple[Marker, ...] = (
    # addresses: in Co-authored-by trailers, or as the author's or committer's email
    Marker("A-claude", "address", "noreply@anthropic.com", "claude-code", "claude-code"),
    Marker("A-claude-code", "address", "claude@anthropic.com", "claude-code", "observed"),
    Marker("A-aider", "address", "noreply@aider.chat", "aider", "aider"),
    Marker("A-aider-old", "address", "aider@aider.chat", "aider", "aider"),
    Marker("A-codex", "address", "noreply@openai.com", "codex", "codex"),
    Marker("A-codex-agent", "address", "codex@openai.com", "codex", "observed"),
    Marker(
        "A-codex-connector",
        "address",
        "chatgpt-codex-connector[bot]@users.noreply.github.com",
        "codex",
        "observed",
    ),
    Marker("A-cursor", "address", "cursoragent@cursor.com", "cursor", "cursor"),
    Marker("A-copilot", "address", "+copilot@users.noreply.github.com", "copilot", "copilot"),
    Marker("A-copilot-ide", "address", "copilot@github.com", "copilot", "observed"),
    Marker(
        "A-copilot-agent",
        "address",
        "copilot-swe-agent[bot]@users.noreply.github.com",
        "copilot",
        "copilot",
    ),
    Marker("A-gemini-cli", "address", "gemini-cli-agent@google.com", "gemini-cli", "observed"),
    Marker(
        "A-gemini-cli-bot",
        "address",
        "+gemini-cli@users.noreply.github.com",
        "gemini-cli",
        "observed",
    ),
    Marker(
        "A-gemini-code-assist",
        "address",
        "gemini-code-assist[bot]@users.noreply.github.com",
        "gemini-code-assist",
        "gemini-code-assist",
    ),
    Marker(
        "A-jules",
        "address",
        "google-labs-jules[bot]@users.noreply.github.com",
        "jules",
        "observed",
    ),
    Marker(
        "A-devin",
        "address",
        "devin-ai-integration[bot]@users.noreply.github.com",
        "devin",
        "devin",
    ),
    Marker("A-devin-mail", "address", "devin@cognition.ai", "devin", "observed"),
    Marker("A-windsurf", "address", "noreply@codeium.com", "windsurf", "observed"),
    Marker("A-amp", "address", "amp@ampcode.com", "amp", "observed"),
    Marker("A-opencode", "address", "noreply@opencode.ai", "opencode", "observed"),
    Marker("A-goose", "address", "opensource@block.xyz", "goose", "observed"),
    Marker("A-cline", "address", "noreply@cline.bot", "cline", "observed"),
    Marker("A-amazon-q", "address", "noreply@amazon.com", "amazon-q", "observed"),
    Marker("A-pi", "address", "noreply@pi.dev", "pi", "observed"),
    # author and committer names
    Marker("I-aider", "identity", r"\(aider\)\s*$", "aider", "aider"),
    Marker(
        "I-copilot-agent", "identity", r"(?i)^copilot-swe-agent(\[bot\])?$", "copilot", "copilot"
    ),
    Marker("I-jules", "identity", r"(?i)^google-labs-jules(\[bot\])?$", "jules", "observed"),
    Marker("I-claude", "identity", r"(?i)^(claude|claude code)$", "claude-code", "observed"),
    Marker(
        "I-devin", "identity", r"(?i)^(devin ai|devin-ai-integration(\[bot\])?)$", "devin", "devin"
    ),
    Marker(
        "I-gemini-code-assist",
        "identity",
        r"(?i)^gemini-code-assist(\[bot\])?$",
        "gemini-code-assist",
        "gemini-code-assist",
    ),
    Marker(
        "I-codex-connector",
        "identity",
        r"(?i)^chatgpt-codex-connector(\[bot\])?$",
        "codex",
        "observed",
    ),
    # trailers
    Marker("T-assisted-by", "trailer", r"(?im)^Assisted-by:[ \t]*\S.*$", "assisted-by", "kernel"),
    Marker(
        "T-gentle-writer", "trailer", r"(?im)^Gentle-Writer:[ \t]*\S.*$", "gentle-hooks", "ours"
    ),
    # other lines of the message
    Marker(
        "M-claude-code-link",
        "message",
        r"(?i)Generated with \[Claude Code\]",
        "claude-code",
        "claude-code",
    ),
    Marker(
        "M-claude-code",
        "message",
        r"(?im)^\W{0,4}Generated with Claude Code\b",
        "claude-code",
        "observed",
    ),
    Marker("M-devin", "message", r"(?im)^\W{0,4}Generated with \[?Devin\b", "devin", "devin"),
    Marker("M-aider", "message", r"(?i)^aider: ", "aider", "aider"),
)
