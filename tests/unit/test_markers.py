"""The table of AI markers (:mod:`gentle_hooks.policy.markers`): every row is a case, the
eleven common variants are recognised, ordinary human commits are not, and
``docs/markers.md`` names every row and its source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gentle_hooks.policy.delegation import message_evidence
from gentle_hooks.policy.markers import MARKERS

S = "Fix the parser\n\nBody text.\n\n"
DOC = Path(__file__).resolve().parents[2] / "docs" / "markers.md"

#: row id -> (message, author "Name <email>", committer, agent)
CASES: dict[str, tuple[str, str, str, str]] = {
    "A-claude": (S + "Co-Authored-By: Claude <noreply@anthropic.com>\n", "", "", "claude-code"),
    "A-claude-code": (
        S + "Co-authored-by: Claude Code <claude@anthropic.com>\n",
        "",
        "",
        "claude-code",
    ),
    "A-aider": (S + "Co-authored-by: aider (gpt-4o) <noreply@aider.chat>\n", "", "", "aider"),
    "A-aider-old": (S, "aider <aider@aider.chat>", "", "aider"),
    "A-codex": (S + "Co-authored-by: Codex <noreply@openai.com>\n", "", "", "codex"),
    "A-codex-agent": (S + "Co-authored-by: Codex Agent <codex@openai.com>\n", "", "", "codex"),
    "A-codex-connector": (
        S,
        "",
        "chatgpt-codex-connector[bot] <1+chatgpt-codex-connector[bot]@users.noreply.github.com>",
        "codex",
    ),
    "A-cursor": (S + "Co-authored-by: Cursor Agent <cursoragent@cursor.com>\n", "", "", "cursor"),
    "A-copilot": (
        S + "Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>\n",
        "",
        "",
        "copilot",
    ),
    "A-copilot-ide": (S + "Co-authored-by: Copilot <copilot@github.com>\n", "", "", "copilot"),
    "A-copilot-agent": (
        S,
        "Jane <198982749+copilot-swe-agent[bot]@users.noreply.github.com>",
        "",
        "copilot",
    ),
    "A-gemini-cli": (
        S + "Co-authored-by: Gemini CLI Agent <gemini-cli-agent@google.com>\n",
        "",
        "",
        "gemini-cli",
    ),
    "A-gemini-cli-bot": (
        S + "Co-authored-by: gemini-cli <218195315+gemini-cli@users.noreply.github.com>\n",
        "",
        "",
        "gemini-cli",
    ),
    "A-gemini-code-assist": (
        S + "Co-authored-by: gemini-code-assist[bot] "
        "<176961590+gemini-code-assist[bot]@users.noreply.github.com>\n",
        "",
        "",
        "gemini-code-assist",
    ),
    "A-jules": (
        S,
        "Jules <161369871+google-labs-jules[bot]@users.noreply.github.com>",
        "",
        "jules",
    ),
    "A-devin": (
        S + "Co-Authored-By: Devin "
        "<158243242+devin-ai-integration[bot]@users.noreply.github.com>\n",
        "",
        "",
        "devin",
    ),
    "A-devin-mail": (S, "Devin <devin@cognition.ai>", "", "devin"),
    "A-windsurf": (S + "Co-authored-by: Windsurf <noreply@codeium.com>\n", "", "", "windsurf"),
    "A-amp": (S + "Co-authored-by: Amp <amp@ampcode.com>\n", "", "", "amp"),
    "A-opencode": (S + "Co-authored-by: opencode <noreply@opencode.ai>\n", "", "", "opencode"),
    "A-goose": (S + "Co-authored-by: Goose <opensource@block.xyz>\n", "", "", "goose"),
    "A-cline": (S + "Co-authored-by: Cline <noreply@cline.bot>\n", "", "", "cline"),
    "A-amazon-q": (S + "Co-authored-by: Amazon Q <noreply@amazon.com>\n", "", "", "amazon-q"),
    "A-pi": (S + "Co-authored-by: pi <noreply@pi.dev>\n", "", "", "pi"),
    "I-aider": (S, "Jane Doe (aider) <jane@example.com>", "", "aider"),
    "I-copilot-agent": (S, "copilot-swe-agent[bot] <x@example.com>", "", "copilot"),
    "I-jules": (S, "google-labs-jules[bot] <x@example.com>", "", "jules"),
    "I-claude": (S, "", "Claude Code <someone@example.com>", "claude-code"),
    "I-devin": (S, "Devin AI <someone@example.com>", "", "devin"),
    "I-gemini-code-assist": (
        S,
        "gemini-code-assist[bot] <x@example.com>",
        "",
        "gemini-code-assist",
    ),
    "I-codex-connector": (S, "chatgpt-codex-connector <x@example.com>", "", "codex"),
    "T-assisted-by": (
        S + "Assisted-by: Claude:claude-opus-4-5 coccinelle\n",
        "",
        "",
        "assisted-by",
    ),
    "T-gentle-writer": (S + "Gentle-Writer: o4-mini/low\n", "", "", "gentle-hooks"),
    "M-claude-code-link": (
        "x\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n",
        "",
        "",
        "claude-code",
    ),
    "M-claude-code": ("x\n\n🤖 Generated with Claude Code\n", "", "", "claude-code"),
    "M-devin": ("x\n\nGenerated with [Devin](https://devin.ai)\n", "", "", "devin"),
    "M-aider": ("aider: fix the parser\n", "", "", "aider"),
}


def test_every_row_has_a_case_and_ids_are_unique() -> None:
    ids = [m.id for m in MARKERS]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(CASES)


@pytest.mark.parametrize("row", [m.id for m in MARKERS])
def test_each_marker_is_recognised(row: str) -> None:
    message, author, committer, agent = CASES[row]
    ev = message_evidence(message, author, committer)
    assert ev is not None and ev.agent == agent, ev


@pytest.mark.parametrize(
    ("message", "author", "committer"),
    [
        (S + "Co-authored-by: Jane <jane@example.com>\n", "John <j@example.com>", ""),
        (S + "Co-authored-by: Jane <123+jane@users.noreply.github.com>\n", "John", "John"),
        ("Mention Claude Code in docs\n", "John <j@example.com>", ""),
        ("Docs: what 'Generated with Claude Code' means\n", "John", ""),
        ("Repair aider: integration docs\n", "John", ""),
        (S + "Reviewed-by: Claude Shannon <claude@example.com>\n", "Claude Shannon", ""),
        ("Devin's fix\n", "Devin Smith <devin@example.com>", ""),
        # aider's commit of a person's dirty files: "(aider)" on the committer alone
        (S, "Jane Doe <jane@example.com>", "Jane Doe (aider) <jane@example.com>"),
        ("", "", ""),
    ],
)
def test_human_commits_carry_no_marker(message: str, author: str, committer: str) -> None:
    assert message_evidence(message, author, committer) is None


def test_the_doc_names_every_row_and_every_source() -> None:
    text = DOC.read_text(encoding="utf-8")
    for m in MARKERS:
        assert f"`{m.id}`" in text, m.id
    sources = {m.source for m in MARKERS}
    for key in sources:
        assert re.search(rf"^\| `{re.escape(key)}` \|", text, re.M), key
