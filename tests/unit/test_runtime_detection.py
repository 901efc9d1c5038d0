"""Which agent runtimes a gate detects in its environment, for the JSON decision line (SPEC
§7: with ``GENTLE_HOOKS_FORMAT=json`` or the runtime detected, a gate prints its decision as
one JSON object): every runtime ``install --agent`` supports is in exactly one row below.

A runtime is detected only by a variable it documents setting for the processes it runs
(:data:`gentle_hooks.policy.delegation.RUNTIME_ENV`, sources in its comments and in
docs/agents/), or by aider's documented name marker in ``GIT_AUTHOR_NAME``. The runtimes
where no such variable was found say where it was looked for; a variable is never guessed
(a wrong one would print the JSON line into a person's terminal, a missing one only leaves
the agent the human lines).
"""

from __future__ import annotations

import pytest

from gentle_hooks.agents.runtimes import NAMES
from gentle_hooks.hooks.decision import output_format
from gentle_hooks.policy.delegation import RUNTIME_ENV, RUNTIME_PATH

#: runtime -> the environment that shows it (one documented variable or marker).
DETECTED: dict[str, dict[str, str]] = {
    "claude-code": {"CLAUDECODE": "1"},
    "codex": {"CODEX_THREAD_ID": "019a-thread"},
    "copilot": {"COPILOT_CLI": "1"},
    "gemini-cli": {"GEMINI_CLI": "1"},
    "cline": {"CLINE_ACTIVE": "true"},
    "cursor": {"CURSOR_AGENT": "1"},
    "opencode": {"OPENCODE": "1"},
    # unjs/std-env src/agents.ts @ 09d5e780 (auggie: AUGMENT_AGENT); an agent detector's
    # provider table (Amp: AGENT=amp; Auggie: AUGMENT_AGENT=1)
    "amp": {"AGENT": "amp"},
    "augment": {"AUGMENT_AGENT": "1"},
    # unjs/std-env src/agents.ts @ 09d5e780: "Verified by pi (can be detected using PATH
    # containing .pi/agent/bin)"
    "pi": {"PATH": "/home/ann/.pi/agent/bin:/usr/local/bin:/usr/bin"},
    # aider's commits carry "(aider)" after the author and committer names (aider.chat
    # docs/git.html, "--attribute-author"), in the environment its commit's hooks run with
    "aider": {"GIT_AUTHOR_NAME": "Ada Lovelace (aider)"},
}
#: runtime -> where a variable of its own was looked for and not found documented.
UNDETECTED: dict[str, str] = {
    "windsurf": "docs.windsurf.com's terminal page (Cascade's auto-executed commands) names "
    "none; no other source found",
    "droid": "the variables found are for droid's own hook and plugin processes "
    "(DROID_PLUGIN_ROOT, Factory-AI/factory issue #5), none for the shell commands it runs",
    "kiro": "none found in Kiro's hooks documentation or elsewhere",
}


def test_every_installable_runtime_is_detected_or_says_why_not() -> None:
    assert set(DETECTED).isdisjoint(UNDETECTED)
    assert set(DETECTED) | set(UNDETECTED) == set(NAMES)


def test_every_runtime_variable_row_belongs_to_an_installable_runtime() -> None:
    generic = {"gentle-hooks env recorder", "ai-agent"}
    runtimes = {agent for _, _, agent in RUNTIME_ENV} - generic
    assert runtimes | {agent for _, agent in RUNTIME_PATH} <= set(DETECTED)


@pytest.mark.parametrize("name", sorted(DETECTED))
def test_a_detected_runtime_gets_the_json_line(name: str) -> None:
    assert output_format(DETECTED[name]) == ("both", None)


@pytest.mark.parametrize(
    ("variable", "value"),
    [(n, v or "1") for n, v, agent in RUNTIME_ENV if agent != "gentle-hooks env recorder"],
)
def test_each_documented_variable_alone_gets_the_json_line(variable: str, value: str) -> None:
    assert output_format({variable: value}) == ("both", None)


def test_a_person_or_the_env_recorder_gets_text() -> None:
    assert output_format({}) == ("text", None)
    assert output_format({"GENTLE_WRITER_MODEL": "m"}) == ("text", None)
    assert output_format({"CLINE_ACTIVE": "1"}) == ("text", None)  # Cline sets "true"
    # AGENT is a generic name (other tools set AGENT=1): only Amp's value is Amp's
    assert output_format({"AGENT": "1"}) == ("text", None)
    assert output_format({"AGENT": "Amp"}) == ("text", None)


def test_the_generic_ai_agent_variable_gets_the_json_line_whatever_it_names() -> None:
    """vercel/vercel packages/detect-agent/README.md, "The AI_AGENT Standard": any tool may
    set ``AI_AGENT`` to its own name; an unknown name is an agent too."""
    assert output_format({"AI_AGENT": "my-new-agent@2"}) == ("both", None)
    assert output_format({"AI_AGENT": ""}) == ("text", None)


def test_a_persons_path_near_pis_gets_text() -> None:
    for path in (
        "/usr/bin:/home/ann/.pi/agent",  # Pi's configuration directory, not its tools
        "/home/ann/.pi/agent/bin/extra:/usr/bin",
        "/home/ann/my.pi/agent/binaries",
        "/home/ann/not.pi/agent/bin",
    ):
        assert output_format({"PATH": path}) == ("text", None), path
