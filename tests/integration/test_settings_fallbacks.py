"""When a runtime's transcript cannot be read, its settings name the writer (SPEC §7 "Hooks":
the model and effort "from wherever the runtime exposes them"; docs/agents/codex.md,
gemini-cli.md).

Codex: ``model`` and ``model_reasoning_effort`` of ``config.toml``, the project's
``.codex/config.toml`` over the user's ``$CODEX_HOME/config.toml``, the active ``profile``'s
table over the top level (developers.openai.com/codex/config-reference). Its hook input's
``transcript_path`` is string or null (openai/codex
codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json).
Gemini CLI: ``model.name`` of ``.gemini/settings.json``, the project's over the user's
(google-gemini/gemini-cli docs/get-started/configuration.md, "Configuration layers"), and
``GEMINI_MODEL`` over both (``argv.model || process.env['GEMINI_MODEL'] ||
settings.model?.name``, packages/cli/src/config/config.ts ``loadCliConfig``).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, write


def writer(repo: Path) -> tuple[object, ...]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        [row] = conn.execute("SELECT model, effort FROM pending_mutation").fetchall()
    return tuple(row)


def record(
    repo: Path, tmp_path: Path, name: str, env: dict[str, str] | None = None, **change: object
) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime")
    payload = json.loads(data)
    payload.update(change)
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", name, env=env, input=json.dumps(payload))
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("user", "project", "expect"),
    [
        ('model_reasoning_effort = "high"\n', None, "high"),
        # the project's config.toml wins over the user's
        ('model_reasoning_effort = "high"\n', 'model_reasoning_effort = "minimal"\n', "minimal"),
        # the active profile's table wins over the top level; Codex's "none" is off
        (
            'profile = "deep"\nmodel_reasoning_effort = "low"\n'
            '[profiles.deep]\nmodel_reasoning_effort = "none"\n',
            None,
            "off",
        ),
        # a name that is not a level is unknown, never guessed; nothing set: unknown
        ('model_reasoning_effort = "turbo"\n', None, "unknown"),
        (None, None, "unknown"),
        # a broken file is passed over
        ('model_reasoning_effort = "high"\n', "model_reasoning_effort = [\n", "high"),
    ],
    ids=["user", "project-wins", "profile", "not-a-level", "none", "broken-project"],
)
def test_codex_effort_comes_from_config_toml_when_the_rollout_is_null(
    user: str | None,
    project: str | None,
    expect: str,
    repo: Path,
    tmp_path: Path,
    isolated_git: Path,
) -> None:
    if user is not None:
        write(isolated_git / ".codex" / "config.toml", user)
    if project is not None:
        write(repo / ".codex" / "config.toml", project)
    record(repo, tmp_path, "codex", transcript_path=None)
    # the input's own model (a required field) stays the model
    assert writer(repo) == ("gpt-5-codex", expect)


def test_codex_rollout_wins_over_config_toml(
    repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    write(isolated_git / ".codex" / "config.toml", 'model_reasoning_effort = "high"\n')
    record(repo, tmp_path, "codex")
    assert writer(repo) == ("gpt-5-codex", "low")  # the rollout's turn_context


def test_a_codex_subagent_never_takes_the_sessions_config(
    repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    write(isolated_git / ".codex" / "config.toml", 'model_reasoning_effort = "high"\n')
    record(repo, tmp_path, "codex", transcript_path=None, agent_id="child-thread")
    assert writer(repo) == ("unknown", "unknown")


@pytest.mark.parametrize(
    ("user", "project", "expect"),
    [
        ('{"model": {"name": "gemini-2.5-pro"}}', None, "gemini-2.5-pro"),
        # JSON with comments; the project's settings win over the user's
        (
            '{"model": {"name": "gemini-2.5-pro"}}',
            '// project\n{"model": {"name": "gemini-2.5-flash-lite"}}',
            "gemini-2.5-flash-lite",
        ),
        ('{"model": "gemini-2.0-flash"}', None, "gemini-2.0-flash"),
        (None, None, "unknown"),
    ],
    ids=["user", "project-wins", "plain-string", "none"],
)
def test_gemini_model_comes_from_settings_when_the_transcript_cannot_be_read(
    user: str | None,
    project: str | None,
    expect: str,
    repo: Path,
    tmp_path: Path,
    isolated_git: Path,
) -> None:
    if user is not None:
        write(isolated_git / ".gemini" / "settings.json", user)
    if project is not None:
        write(repo / ".gemini" / "settings.json", project)
    record(repo, tmp_path, "gemini-cli", transcript_path=str(tmp_path / "gone.jsonl"))
    assert writer(repo) == (expect, "unknown")


def test_gemini_transcript_wins_over_settings(
    repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    write(isolated_git / ".gemini" / "settings.json", '{"model": {"name": "gemini-2.5-pro"}}')
    record(repo, tmp_path, "gemini-cli")
    assert writer(repo) == ("gemini-2.5-flash", "unknown")  # the transcript's gemini message


@pytest.mark.parametrize(
    ("env", "expect"),
    [
        ({"GEMINI_MODEL": "gemini-2.5-flash-lite"}, "gemini-2.5-flash-lite"),
        ({"GEMINI_MODEL": ""}, "gemini-2.5-pro"),
    ],
    ids=["env-wins", "empty-env-is-unset"],
)
def test_gemini_model_env_wins_over_settings(
    env: dict[str, str], expect: str, repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    # Gemini CLI's hook runs with Gemini CLI's environment: its GEMINI_MODEL is the model
    write(isolated_git / ".gemini" / "settings.json", '{"model": {"name": "gemini-2.0-flash"}}')
    write(repo / ".gemini" / "settings.json", '{"model": {"name": "gemini-2.5-pro"}}')
    gone = str(tmp_path / "gone.jsonl")
    record(repo, tmp_path, "gemini-cli", env=env, transcript_path=gone)
    assert writer(repo) == (expect, "unknown")
