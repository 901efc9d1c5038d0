"""Delegated evidence without a ledger: real AI attribution formats and runtime markers."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.delegation import message_evidence, runtime_evidence

SUBJECT = "Fix the parser\n\nBody text.\n\n"


@pytest.mark.parametrize(
    ("message", "author", "agent"),
    [
        (SUBJECT + "Co-Authored-By: Claude <noreply@anthropic.com>\n", "", "claude-code"),
        (SUBJECT + "Co-authored-by: Claude Opus 4.6 <noreply@anthropic.com>\n", "", "claude-code"),
        (
            "x\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n",
            "",
            "claude-code",
        ),
        (SUBJECT, "Jane Doe (aider)", "aider"),
        ("aider: fix the parser\n", "", "aider"),
        (SUBJECT + "Co-authored-by: aider (gpt-4o) <noreply@aider.chat>\n", "", "aider"),
        (SUBJECT + "Co-authored-by: Codex <noreply@openai.com>\n", "", "codex"),
        (SUBJECT + "Co-authored-by: Cursor Agent <cursoragent@cursor.com>\n", "", "cursor"),
        (
            SUBJECT + "Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>\n",
            "",
            "copilot",
        ),
        (SUBJECT, "copilot-swe-agent[bot]", "copilot"),
        (
            SUBJECT + "Co-authored-by: Gemini CLI Agent <gemini-cli-agent@google.com>\n",
            "",
            "gemini-cli",
        ),
        (SUBJECT + "Gentle-Writer: o4-mini/low\n", "", "gentle-hooks"),
    ],
)
def test_ai_evidence(message: str, author: str, agent: str) -> None:
    ev = message_evidence(message, author=author)
    assert ev is not None and ev.agent == agent


def test_a_marker_is_named_whole_in_the_evidence() -> None:
    ev = message_evidence(SUBJECT + "Gentle-Writer: o4-mini/low\nOther: x\n")
    assert ev is not None
    assert ev.detail == "message marker 'Gentle-Writer: o4-mini/low'"


@pytest.mark.parametrize(
    ("message", "author"),
    [
        (SUBJECT + "Gentle-Writer: " + "a" * 1_000_000 + "/low\n", ""),
        (SUBJECT + "Co-authored-by: Claude " + "b" * 1_000_000 + " <noreply@anthropic.com>\n", ""),
        ("x\n", "aider " + "c" * 1_000_000 + " (aider) <a@example.com>"),
    ],
)
def test_evidence_echoes_what_the_commit_says_bounded(message: str, author: str) -> None:
    """A marker, trailer or identity a commit holds, however long, is named in at most
    MAX_SHOWN characters (a 10 MB marker was echoed whole in the block)."""
    ev = message_evidence(message, author=author)
    assert ev is not None
    assert len(ev.detail) < 1100, len(ev.detail)


@pytest.mark.parametrize(
    ("message", "author"),
    [
        (SUBJECT + "Co-authored-by: Jane <jane@example.com>\n", "John"),
        (SUBJECT + "Co-authored-by: Jane <123+jane@users.noreply.github.com>\n", "John"),
        ("Mention Claude Code in docs\n", "John"),
        ("Repair aider: integration docs\n", "John"),
        ("", ""),
    ],
)
def test_human_commits_have_no_evidence(message: str, author: str) -> None:
    assert message_evidence(message, author=author) is None


@pytest.mark.parametrize(
    ("env", "agent"),
    [
        ({"CLAUDECODE": "1"}, "claude-code"),
        ({"CODEX_SANDBOX": "seatbelt"}, "codex"),
        ({"CODEX_THREAD_ID": "019a-thread"}, "codex"),  # full access: no sandbox variable
        ({"COPILOT_CLI": "1"}, "copilot"),
        ({"COPILOT_AGENT_SESSION_ID": "4f1c-session"}, "copilot"),
        ({"GEMINI_CLI": "1"}, "gemini-cli"),
        ({"CLINE_ACTIVE": "true"}, "cline"),
        ({"GENTLE_WRITER_MODEL": "o4-mini"}, "gentle-hooks env recorder"),
        # the generic variable names the agent (vercel detect-agent's AI_AGENT standard)
        ({"AI_AGENT": "Cursor-CLI"}, "cursor-cli"),
        ({"AI_AGENT": "devin@1"}, "devin@1"),
        ({"AI_AGENT": "my agent\nGentle-Writer: x"}, "ai-agent"),  # not a plain name
        ({"AI_AGENT": "x" * 65}, "ai-agent"),
        # Pi's tool directory on PATH (unjs/std-env src/agents.ts @ 09d5e780)
        ({"PATH": "/home/ann/.pi/agent/bin:/usr/bin"}, "pi"),
        ({"PATH": "/usr/bin:/home/ann/.pi/agent/bin/"}, "pi"),
        ({"PATH": ".pi/agent/bin"}, "pi"),
        # a run of slashes is one (POSIX path resolution)
        ({"PATH": "/usr/bin:/home/ann/.pi/agent//bin"}, "pi"),
        ({"PATH": "/home/ann//.pi//agent/bin//"}, "pi"),
        # an AI_AGENT that names no agent does not hide a runtime's own variable
        ({"AI_AGENT": "0", "CLAUDECODE": "1"}, "claude-code"),
        ({"GIT_AUTHOR_NAME": "Ann Example (aider) "}, "aider"),
        (
            {"GIT_AUTHOR_NAME": "Ann Example (aider)", "GIT_COMMITTER_NAME": "Ann (aider)"},
            "aider",
        ),
    ],
)
def test_runtime_evidence(env: dict[str, str], agent: str) -> None:
    ev = runtime_evidence(env)
    assert ev is not None and ev.agent == agent


def test_no_runtime_evidence() -> None:
    assert runtime_evidence({"CLINE_ACTIVE": "false", "CLAUDECODE": "", "HOME": "/x"}) is None
    assert runtime_evidence({"AI_AGENT": "", "PATH": "/usr/bin:/bin"}) is None
    # the AI_AGENT standard's value is the tool's name (vercel/vercel packages/detect-agent
    # README; src/index.ts trims it): blank, or a word saying no, names none
    for value in (" ", "\t", "0", "false", "FALSE", " no ", "off", "none", "Human", "null"):
        assert runtime_evidence({"AI_AGENT": value}) is None, value
    # a runtime's own flag set off is no runtime either (CURSOR_AGENT=1 is Cursor's)
    for name in ("CURSOR_AGENT", "CLAUDECODE", "GEMINI_CLI", "OPENCODE", "AUGMENT_AGENT"):
        for value in ("0", "false", " off ", "no"):
            assert runtime_evidence({name: value}) is None, (name, value)
    for path in (
        "/home/ann/.pi/agent",
        "/x/.pi/agent/bin/sub",
        "/x/a.pi/agent/bin",
        "/x//",
        "/x/.pi/agent//bin//sub",
    ):
        assert runtime_evidence({"PATH": path}) is None, path
    human = {"GIT_AUTHOR_NAME": "Ann (aider fan)", "GIT_COMMITTER_NAME": "Ann Example"}
    assert runtime_evidence(human) is None
    # aider's commit of the person's own dirty files (or /commit): the committer alone
    dirty = {"GIT_AUTHOR_NAME": "Ann Example", "GIT_COMMITTER_NAME": "Ann Example (aider)"}
    assert runtime_evidence(dirty) is None
    assert runtime_evidence({"GIT_COMMITTER_NAME": "Ann Example (aider)"}) is None


#: aider's commits, from Aider-AI/aider ``aider/repo.py`` ``GitRepo.commit`` (commit
#: 5dc9490bb35f9729ef2c95d00a19ccd30c26339c, 0.86.3.dev; v0.83.0 on) and its earlier
#: versions (v0.39.0-v0.82: both names on aider's edits, the committer on every commit):
#: (row, message, author, committer, delegated). ``aider_edits`` False (its commit of the
#: user's dirty files before editing, ``/commit``): the author is "NEVER modified", the
#: committer is unless ``--no-attribute-committer``, no trailer, no prefix.
AIDER_ROWS = [
    ("dirty commit", SUBJECT, "Pat <p@x>", "Pat (aider) <p@x>", False),
    ("dirty commit, committer mark off", SUBJECT, "Pat <p@x>", "Pat <p@x>", False),
    (
        "edit, v0.85+ defaults: trailer",
        SUBJECT + "Co-authored-by: aider (gpt-4o) <aider@aider.chat>\n",
        "Pat <p@x>",
        "Pat <p@x>",
        True,
    ),
    (
        "edit, v0.83-v0.84 trailer on",
        SUBJECT + "Co-authored-by: aider (gpt-4o) <noreply@aider.chat>\n",
        "Pat <p@x>",
        "Pat <p@x>",
        True,
    ),
    ("edit, trailer off (v0.39-v0.84 defaults)", SUBJECT, "Pat (aider) <p@x>", "Pat (aider)", True),
    ("edit, --attribute-author alone", SUBJECT, "Pat (aider) <p@x>", "Pat <p@x>", True),
    ("edit, 'aider: ' prefix", "aider: fix the parser\n", "Pat <p@x>", "Pat (aider)", True),
]


@pytest.mark.parametrize(
    ("message", "author", "committer", "delegated"),
    [row[1:] for row in AIDER_ROWS],
    ids=[row[0] for row in AIDER_ROWS],
)
def test_aiders_commits_row_by_row(
    message: str, author: str, committer: str, delegated: bool
) -> None:
    """``(aider)`` on the committer is aider running ``git commit``, also of a person's own
    dirty files: only the author mark, the trailer or the prefix says aider wrote it."""
    ev = message_evidence(message, author, committer)
    assert (ev is not None) == delegated, ev
    assert ev is None or ev.agent == "aider"


def test_a_marker_byte_that_is_not_utf8_is_shown_as_its_escape() -> None:
    """A message byte that is not UTF-8 (kept by ``surrogateescape``) is named ``\\xHH``, the
    byte itself, never U+FFFD nor Python's ``\\udcHH``."""
    ev = message_evidence(SUBJECT + "Gentle-Writer: o4-mini\udcff/low\n")
    assert ev is not None
    assert ev.detail == "message marker 'Gentle-Writer: o4-mini\\xff/low'"


def test_a_nul_in_a_marker_is_escaped_once() -> None:
    """A control character in the marker is written ``\\x00`` once, never ``\\\\x00``."""
    ev = message_evidence(SUBJECT + "Gentle-Writer: o4-mini\x00/low\n")
    assert ev is not None
    assert ev.detail == "message marker 'Gentle-Writer: o4-mini\\x00/low'"
