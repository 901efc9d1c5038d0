"""The table of AI markers in commits (SPEC §8 "Detection"): every documented or observed
way an agent signs a commit it wrote, one row each, with its source in ``docs/markers.md``.

Room ``policy``; data only, standard library only (the hook pass path imports it). Five
places a marker can be, by :attr:`Marker.where`:

* ``address``: an address (lowercase, matched as the end of the address) that names an
  agent, in a ``Co-authored-by:`` trailer or as the author's or committer's email;
* ``identity``: a regular expression over an author's or committer's *name*;
* ``author``: a regular expression over the author's name only: a mark the agent also puts
  on the *committer* of commits it makes of a person's own work (aider's ``(aider)``: its
  ``GitRepo.commit`` marks the committer of every commit it makes, the dirty files it
  commits before editing and ``/commit`` included, and the author only of its own edits),
  so a committer carrying it says who ran ``git commit``, not who wrote the change;
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


#: The address tail of a GitHub App's bot account (``<app>[bot]@users.noreply.github.com``).
_BOT = "[bot]@users.noreply.github.com"
_GCA = "gemini-code-assist"


def _rows(where: str, *rows: tuple[str, str, str, str]) -> tuple[Marker, ...]:
    """The markers ``(id, pattern, agent, source)`` of one place ``where``, in order."""
    return tuple(Marker(id, where, pattern, agent, source) for id, pattern, agent, source in rows)


MARKERS: tuple[Marker, ...] = (
    # addresses: in Co-authored-by trailers, or as the author's or committer's email
    *_rows(
        "address",
        ("A-claude", "noreply@anthropic.com", "claude-code", "claude-code"),
        ("A-claude-code", "claude@anthropic.com", "claude-code", "observed"),
        ("A-aider", "noreply@aider.chat", "aider", "aider"),
        ("A-aider-old", "aider@aider.chat", "aider", "aider"),
        ("A-codex", "noreply@openai.com", "codex", "codex"),
        ("A-codex-agent", "codex@openai.com", "codex", "observed"),
        ("A-codex-connector", "chatgpt-codex-connector" + _BOT, "codex", "observed"),
        ("A-cursor", "cursoragent@cursor.com", "cursor", "cursor"),
        ("A-copilot", "+copilot@users.noreply.github.com", "copilot", "copilot"),
        ("A-copilot-ide", "copilot@github.com", "copilot", "observed"),
        ("A-copilot-agent", "copilot-swe-agent" + _BOT, "copilot", "copilot"),
        ("A-gemini-cli", "gemini-cli-agent@google.com", "gemini-cli", "observed"),
        ("A-gemini-cli-bot", "+gemini-cli@users.noreply.github.com", "gemini-cli", "observed"),
        ("A-gemini-code-assist", _GCA + _BOT, _GCA, _GCA),
        ("A-jules", "google-labs-jules" + _BOT, "jules", "observed"),
        ("A-devin", "devin-ai-integration" + _BOT, "devin", "devin"),
        ("A-devin-mail", "devin@cognition.ai", "devin", "observed"),
        ("A-windsurf", "noreply@codeium.com", "windsurf", "observed"),
        ("A-amp", "amp@ampcode.com", "amp", "observed"),
        ("A-opencode", "noreply@opencode.ai", "opencode", "observed"),
        ("A-goose", "opensource@block.xyz", "goose", "observed"),
        ("A-cline", "noreply@cline.bot", "cline", "observed"),
        ("A-amazon-q", "noreply@amazon.com", "amazon-q", "observed"),
        ("A-pi", "noreply@pi.dev", "pi", "observed"),
    ),
    # author and committer names
    *_rows(
        "identity",
        ("I-copilot-agent", r"(?i)^copilot-swe-agent(\[bot\])?$", "copilot", "copilot"),
        ("I-jules", r"(?i)^google-labs-jules(\[bot\])?$", "jules", "observed"),
        ("I-claude", "(?i)^(claude|claude code)$", "claude-code", "observed"),
        ("I-devin", r"(?i)^(devin ai|devin-ai-integration(\[bot\])?)$", "devin", "devin"),
        ("I-gemini-code-assist", r"(?i)^gemini-code-assist(\[bot\])?$", _GCA, _GCA),
        ("I-codex-connector", r"(?i)^chatgpt-codex-connector(\[bot\])?$", "codex", "observed"),
    ),
    # author names only: aider marks the committer of the person's own (dirty) commits too
    *_rows("author", ("I-aider", r"\(aider\)\s*$", "aider", "aider")),
    # trailers
    *_rows(
        "trailer",
        ("T-assisted-by", r"(?im)^Assisted-by:[ \t]*\S.*$", "assisted-by", "kernel"),
        ("T-gentle-writer", r"(?im)^Gentle-Writer:[ \t]*\S.*$", "gentle-hooks", "ours"),
    ),
    # other lines of the message
    *_rows(
        "message",
        ("M-claude-code-link", r"(?i)Generated with \[Claude Code\]", "claude-code", "claude-code"),
        ("M-claude-code", r"(?im)^\W{0,4}Generated with Claude Code\b", "claude-code", "observed"),
        ("M-devin", r"(?im)^\W{0,4}Generated with \[?Devin\b", "devin", "devin"),
        ("M-aider", "(?i)^aider: ", "aider", "aider"),
    ),
)
