"""Every agent runtime has a page (docs/agents/) naming where its hook is configured and the
documentation it was built from, and a row in the README's table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import NAMES, runtime

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: name -> (the configuration the page must name, the documentation it must cite), for the
#: runtimes whose hook is a file of ours.
OWN_FILES = {
    "opencode": (".opencode/plugins/gentle-hooks.js", "opencode.ai/docs/plugins"),
    "cline": (".clinerules/hooks/PostToolUse", "docs.cline.bot/features/hooks/hook-reference"),
    "pi": (".pi/extensions/gentle-hooks.ts", "packages/coding-agent/docs/extensions.md"),
    "kiro": (".kiro/hooks/gentle-hooks.json", "kiro.dev/docs/cli/v3/hooks"),
    "amp": (".amp/plugins/gentle-hooks.ts", "ampcode.com/manual/plugin-api"),
}


@pytest.mark.parametrize("name", NAMES)
def test_every_runtime_has_its_page_and_a_readme_row(name: str) -> None:
    assert (ROOT / runtime(name).doc).is_file()
    assert f"docs/agents/{name}.md" in README.read_text()


@pytest.mark.parametrize("name", sorted(OWN_FILES))
def test_a_runtime_whose_hook_is_our_file_names_it_and_its_source(name: str) -> None:
    text = " ".join((ROOT / runtime(name).doc).read_text().split())
    config, source = OWN_FILES[name]
    assert config in text and source in text
    assert f"gentle-hook install --agent {name}" in text
    assert "What is recorded" in text and "What is not recorded" in text


def test_the_amp_page_names_the_switch_plugins_need_and_the_trailer_the_gates_read() -> None:
    from gentle_hooks.policy.markers import MARKERS

    text = " ".join((ROOT / "docs" / "agents" / "amp.md").read_text().split())
    assert "PLUGINS=all" in text  # without it Amp runs no plugin: nothing would record
    # the trailer the page says the gates read is one they read
    assert any(m.id == "A-amp" and m.pattern == "amp@ampcode.com" for m in MARKERS)
    assert "Co-authored-by: Amp <amp@ampcode.com>" in text


def test_the_readme_gives_record_from_usage_errors_the_exit_code_they_have() -> None:
    """``record --from`` exits 1 on a usage error (a bad ``--effort``, ``--paths``), the
    runtimes' non-blocking code (tests/integration/test_runtime_adapters.py checks the
    code); the README must not promise exit 2 for them."""
    text = " ".join(README.read_text().split())
    assert "exits 2, as it does without `--from`" not in text
    assert "`--tool-call` with `--from` exit 2" not in text
    assert (
        "With `--from`, every refusal or failure (these usage errors included) exits 1, not 2"
        in text
    )
    # a NAME no runtime runs its hook by is a person's typo: exit 2, with the closest name
    # (tests/integration/test_runtime_adapters.py checks the code and the line)
    assert "exit 2, and so does a `NAME` that is not a runtime of the table below" in text
    assert "`record --from claude` says `did you mean claude-code?`" in text


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("windsurf", "include no subagent start or stop"),
        ("cline", "nothing to bracket"),
        ("droid", "the run is bracketed by two more hooks"),
    ],
)
def test_a_runtime_page_says_how_its_subagents_are_or_are_not_bracketed(
    name: str, says: str
) -> None:
    text = " ".join((ROOT / runtime(name).doc).read_text().split())
    assert says in text


def test_the_claude_code_page_states_the_small_writer_rule_the_code_applies() -> None:
    """docs/agents/claude-code.md once said an inherited subagent profile is "unknown, hence
    small", while a child whose transcript names its model records that model with an unknown
    effort, which the small-writer rule (SPEC §5 "Writer profile"; seed 000 line 26: "with
    neither, the profile is small") does not call small. The page's own examples hold."""
    from gentle_hooks.policy.writer import WriterProfile, is_small

    text = " ".join((ROOT / "docs/agents/claude-code.md").read_text().split())
    assert "hence small" not in text
    assert "`claude-haiku-4-5/unknown`, not small" in text
    assert "records `unknown/unknown`, small" in text
    assert not is_small(WriterProfile("claude-haiku-4-5", None))
    assert is_small(WriterProfile(None, None))


def test_the_gemini_page_says_why_its_thinking_budget_is_not_the_effort(tmp_path: Path) -> None:
    """Gemini CLI documents ``modelConfigs`` with ``thinkingBudget``
    (google-gemini/gemini-cli docs/cli/generation-settings.md): the page no longer says Gemini
    exposes no effort, names that source, and the runtime reads no settings for an effort
    (its settings name the model only)."""
    text = " ".join((ROOT / "docs/agents/gemini-cli.md").read_text().split())
    assert "Gemini CLI exposes none" not in text
    assert "docs/cli/generation-settings.md" in text and "thinkingBudget" in text
    assert "It is not read as the writer's effort" in text
    settings = tmp_path / ".gemini" / "settings.json"
    settings.parent.mkdir()
    budget = {"thinkingConfig": {"thinkingBudget": 4096}}
    settings.write_text(json.dumps({"modelConfigs": {"overrides": [{"modelConfig": budget}]}}))
    writer = runtime("gemini-cli").settings_writer
    assert writer is None or writer(str(tmp_path), {"HOME": str(tmp_path)})[1] is None
