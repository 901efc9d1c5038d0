"""A Codex subagent's patch picked up at ``Stop`` records the child's own model, never the
parent's (SPEC §7 "Hooks"; seed 000: an inherited writer is unknown, so small;
docs/agents/codex.md, "Subagents" and "A patch that sent no ``PostToolUse``"). Issue 17,
refuter r17t finding 1: the ``Stop`` rollout path recorded the parent's model and effort
while its line said "its model is recorded as unknown".

Inside a thread-spawned subagent every hook input carries ``agent_id`` and ``agent_type``
(openai/codex pull request #22882, "Add subagent identity to hook inputs"), its ``Stop`` too.
A role that sets no model (the built-in ``default``) runs the child on the parent's
configuration; a role file naming a model (``.codex/agents/*.toml``, ``name`` and ``model``:
openai/codex ``codex-rs/core/src/config/agent_roles.rs``, ``load_agent_roles``) gives the
child that model. Real git, the real ``gentle-hook record --from codex``; the rollout is the
one ``tests/e2e/test_attribution_codex_rollout_patch.py`` builds (``custom_tool_call``
``apply_patch`` and its output, no ``PostToolUse``):

* ``agent_type`` ``default``: recorded ``unknown/unknown``, as through ``PostToolUse``;
* a role file naming ``gpt-5.1-codex-mini`` with effort ``medium``: recorded with those;
* the root agent's ``Stop`` (no ``agent_id``): the parent's ``gpt-5-codex/high``, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import PATH
from tests.e2e.test_attribution_codex_rollout_patch import APPLIED, CALL, PATCHED, _rollout
from tests.e2e.test_attribution_codex_running import _stop
from tests.e2e.test_attribution_codex_running import based as based  # the fixture

CHILD = "019c4b43-aaaa-7af3-be4c-5576369bf1ba"
ROLE = (
    'name = "reviewer"\ndescription = "Reviews a change"\ndeveloper_instructions = "Review."\n'
    'model = "gpt-5.1-codex-mini"\nmodel_reasoning_effort = "medium"\n'
)


def _child_stop(w: World, rollout: Path, role: str | None) -> bytes:
    """The ``Stop`` input of a subagent of role ``role`` (None: the root agent's)."""
    stop = json.loads(_stop(w, rollout))
    if role is not None:
        stop.update(agent_id=CHILD, agent_type=role)
    return json.dumps(stop).encode()


def _record(w: World, data: bytes, home: Path) -> str:
    r = w.gh("record", "--from", "codex", input=data, env={"CODEX_HOME": str(home)})
    assert r.code == 0, r
    return r.err


@pytest.mark.parametrize(
    ("role", "writer"),
    [
        ("default", ("unknown", "unknown")),
        ("reviewer", ("gpt-5.1-codex-mini", "medium")),
        (None, ("gpt-5-codex", "high")),
    ],
    ids=["inherits", "role-model", "root"],
)
def test_a_patch_picked_up_at_a_subagents_stop_records_the_childs_own_model(
    based: World, tmp_path: Path, role: str | None, writer: tuple[str, str]
) -> None:
    w = based
    home = tmp_path / "codex-home"
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "reviewer.toml").write_text(ROLE, encoding="utf-8")
    w.write(PATH, PATCHED)  # the subagent applied the patch; no PostToolUse came
    said = _record(w, _child_stop(w, _rollout(tmp_path, APPLIED), role), home)
    assert f"recorded: pending mutation #1: {writer[0]}/{writer[1]}" in said, said
    rows = w.ledger("SELECT model, effort, tool_call_id FROM pending_mutation")
    assert rows == [(*writer, CALL)], rows
    profile = json.loads(w.gh("assess", "--json").out)["writerProfile"]
    shown = tuple(None if v == "unknown" else v for v in writer)  # JSON's unknown is null
    assert [(p["model"], p["effort"]) for p in profile["profiles"]] == [shown], profile
    if role == "default":  # unknown, so small (seed 000)
        assert "its model is recorded as unknown" in said, said
        assert profile["small"] is True, profile
