"""OpenCode's subagent writes record the child's own model only when the agent's configuration
names one (SPEC §7 "Hooks"; seed 000: an inherited writer is unknown, so small;
docs/agents/opencode.md, "Subagents"). Issue 17, refuter r17t finding 3: a
``tool.execute.after`` edit with ``parentID`` set (``agent: "general"``, model gpt-5/high)
recorded gpt-5/high, though OpenCode's task tool runs a subagent whose agent names no model
on the parent's (``const model = agent.model ?? {modelID: msg.info.modelID, ...}``,
anomalyco/opencode ``packages/opencode/src/tool/task.ts`` @
005201e9a25c7b208937f9995c02c20c3b05b222).

Where an agent's model is configured (opencode.ai/docs/agents): ``"agent": {NAME: {"model":
"provider/model"}}`` in ``opencode.json``, or the ``model:`` front matter of
``{agent,agents}/**/*.md`` in ``.opencode/`` or the global ``~/.config/opencode/``. The input
is the object our plugin hands the recorder (``tests/fixtures/agents/opencode.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents.opencode import agent_model, decode


def _input(repo: Path, *, parent: str | None, agent: str = "general") -> bytes:
    return json.dumps(
        {
            "hook": "tool.execute.after",
            "tool": "edit",
            "sessionID": "ses_child",
            "callID": "toolu_1",
            "args": {"filePath": str(repo / "a.py"), "oldString": "a", "newString": "b"},
            "model": {"providerID": "openai", "modelID": "gpt-5", "reasoningEffort": "high"},
            "parentID": parent,
            "agent": agent,
            "directory": str(repo),
            "worktree": str(repo),
        }
    ).encode()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    for var in ("OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    return work


def test_a_subagent_whose_agent_names_no_model_is_unknown(repo: Path) -> None:
    event = decode(_input(repo, parent="ses_parent"))
    assert (event.model, event.effort, event.agent) == (None, None, "general")
    assert len(event.notes) == 1
    assert "subagent 'general' of OpenCode runs on its parent's model" in event.notes[0]
    assert "its model is recorded as unknown" in event.notes[0]


def test_the_root_session_keeps_its_model(repo: Path) -> None:
    event = decode(_input(repo, parent=None))
    assert (event.model, event.effort, event.agent, event.notes) == ("gpt-5", "high", None, ())


def _project_json(repo: Path, name: str) -> None:
    doc = {"agent": {name: {"model": "openai/gpt-5-mini", "description": "x"}}}
    (repo / "opencode.json").write_text(json.dumps(doc))


def _markdown(base: Path, folder: str, name: str, model: str | None) -> None:
    path = base / folder / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    front = f"model: {model}\n" if model else ""
    path.write_text(f"---\ndescription: x\n{front}---\nReview.\n")


@pytest.mark.parametrize(
    "configure",
    [
        lambda repo: _project_json(repo, "general"),
        lambda repo: _markdown(repo / ".opencode", "agents", "general", "openai/gpt-5-mini"),
        lambda repo: _markdown(repo / ".opencode", "agent", "general", "openai/gpt-5-mini"),
        lambda repo: _markdown(
            repo.parent / "home" / ".config" / "opencode", "agents", "general", "openai/gpt-5-mini"
        ),
        # a nearer definition without a model leaves it to the global one
        lambda repo: (
            _markdown(repo / ".opencode", "agents", "general", None),
            _markdown(
                repo.parent / "home" / ".config" / "opencode",
                "agents",
                "general",
                "openai/gpt-5-mini",
            ),
        ),
    ],
    ids=["opencode.json", "agents-md", "agent-md", "global-md", "nearer-without-model"],
)
def test_a_subagent_whose_agent_names_a_model_records_it(repo: Path, configure: object) -> None:
    assert callable(configure)
    configure(repo)
    event = decode(_input(repo, parent="ses_parent"))
    assert (event.model, event.effort, event.agent, event.notes) == (
        "gpt-5",
        "high",
        "general",
        (),
    ), "the session's chat.params model, the child's own"
    assert agent_model("general", str(repo), {"HOME": str(repo.parent / "home")}) == "gpt-5-mini"


def test_another_agents_model_or_a_path_name_is_not_read(repo: Path) -> None:
    _project_json(repo, "review")
    _markdown(repo / ".opencode", "agents", "nested/general", "openai/gpt-5-mini")
    assert decode(_input(repo, parent="ses_parent")).model is None
    assert agent_model("nested/general", str(repo), {}) == "gpt-5-mini"
    assert agent_model("../agents/nested/general", str(repo), {}) is None
