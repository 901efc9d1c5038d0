"""Agent runtimes with a documented hook or plugin point but no adapter here have a page
saying so (docs/agents/): the point, where it is configured, its source, and what is and is
not recorded; the CLI refuses them, as each page says."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import NAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents"
README = Path(__file__).resolve().parents[2] / "README.md"

#: name -> (the configuration the page must name, the documentation it must cite)
UNWIRED = {
    "opencode": (".opencode/plugins/", "opencode.ai/docs/plugins"),
    "cline": (".clinerules/hooks/", "docs.cline.bot/customization/hooks"),
}


@pytest.mark.parametrize("name", sorted(UNWIRED))
def test_a_runtime_without_an_adapter_has_a_page_saying_what_is_not_recorded(name: str) -> None:
    page = DOCS / f"{name}.md"
    assert page.is_file()
    text = " ".join(page.read_text().split())
    config, source = UNWIRED[name]
    assert config in text and source in text
    assert "What is recorded today, and what is not" in page.read_text()
    assert f"`gentle-hook install --agent {name}` is refused (exit 2" in text
    assert name not in NAMES  # the refusal the page states
    assert f"docs/agents/{name}.md" in README.read_text()
