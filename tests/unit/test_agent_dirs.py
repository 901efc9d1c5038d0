"""Every agent runtime's project folder is an agent folder: Markdown written there
(rules, workflows, droids, hooks' notes) is instructions for an agent, never passive
documentation (``risk.agent_dirs``; docs/agents/)."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.runtimes import RUNTIMES
from gentle_hooks.config.settings import DEFAULT_AGENT_DIRS, RiskSettings
from gentle_hooks.native.pathfacts import matchers, path_facts

M = matchers(RiskSettings())

#: The first folder of each runtime's project configuration file.
PROJECT_DIRS = sorted({r.wiring.project.split("/", 1)[0] for r in RUNTIMES if r.wiring is not None})


@pytest.mark.parametrize("folder", PROJECT_DIRS)
def test_a_runtime_project_folder_is_an_agent_folder(folder: str) -> None:
    assert folder in DEFAULT_AGENT_DIRS


@pytest.mark.parametrize(
    "path",
    [
        ".windsurf/rules/style.md",
        ".factory/droids/reviewer.md",
        ".clinerules/style.md",
        ".opencode/command/review.md",
    ],
)
def test_markdown_in_a_runtime_folder_is_never_passive(path: str) -> None:
    assert path_facts(path, M).passive is False


def test_markdown_elsewhere_stays_passive() -> None:
    assert path_facts("docs/guide/style.md", M).passive is True
