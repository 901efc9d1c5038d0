"""A Codex that sends no ``PostToolUse`` of its ``apply_patch`` tool: the ``Stop`` hook reads
the session's rollout for the patches it shows applied and records each under its own call id,
once (SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/codex.md, "A patch that
sent no ``PostToolUse``"). Issue 17, h17d.

The rollout lines are openai/codex's ``custom_tool_call`` (``status``, ``call_id``, ``name``
``apply_patch``, ``input``: the envelope) and ``custom_tool_call_output`` (``call_id``,
``output``): ``codex-rs/protocol/src/models.rs`` (``tests/unit/test_codex_rollout_patches.py``
names the sources). Real git, the real ``gentle-hook record --from codex``; the test applies
the patch to the work tree as Codex would:

* the patch applied and no ``PostToolUse`` came: ``Stop`` records it, the commit is blocked;
  a second ``Stop`` records nothing more and says nothing of it;
* its ``PostToolUse`` came (recorded then): ``Stop`` records nothing more;
* a patch whose output says it failed records nothing: a person's edit of that file stays
  theirs (the commit passes with no trailer);
* a patch whose file a person changed back before ``Stop`` records nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agent_payloads import FIXTURES
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import BASE, HUMAN, PATH, _hook
from tests.e2e.test_attribution_codex_running import _stop
from tests.e2e.test_attribution_codex_running import based as based  # the fixture

CALL = "call_patch"
ENVELOPE = (
    "*** Begin Patch\n*** Update File: src/calc.py\n@@\n def main():\n-    return VALUE\n"
    "+    return apply_discount_rules(VALUE, region_table)\n*** End Patch\n"
)
PATCHED = BASE.replace("return VALUE", "return apply_discount_rules(VALUE, region_table)")
APPLIED = (
    "Exit code: 0\nWall time: 0 seconds\nOutput:\n"
    "Success. Updated the following files:\nM src/calc.py\n"
)
FAILED = "apply_patch verification failed: Failed to find expected lines in src/calc.py"


def _rollout(tmp_path: Path, output: str) -> Path:
    """The session's rollout: its head (session_meta, turn_context) from the fixture, then
    the ``apply_patch`` call ``CALL`` with ``output``."""
    head = (FIXTURES / "codex-rollout.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    call = {"type": "custom_tool_call", "status": "completed", "call_id": CALL}
    call.update(name="apply_patch", input=ENVELOPE)
    out = {"type": "custom_tool_call_output", "call_id": CALL, "output": output}
    lines = [*head, *(json.dumps({"type": "response_item", "payload": p}) for p in (call, out))]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _post(w: World) -> bytes:
    """The ``PostToolUse`` of ``CALL`` a Codex that sends one sends."""
    return json.dumps(
        {
            "session_id": "019c4b43-1451-7af3-be4c-5576369bf1ba",
            "turn_id": "turn-1",
            "transcript_path": None,
            "cwd": str(w.work),
            "hook_event_name": "PostToolUse",
            "model": "gpt-5-codex",
            "tool_name": "apply_patch",
            "tool_input": {"command": ENVELOPE},
            "tool_response": APPLIED,
            "tool_use_id": CALL,
        }
    ).encode()


def test_a_patch_with_no_post_tool_use_is_recorded_at_the_stop(
    based: World, tmp_path: Path
) -> None:
    w = based
    w.write(PATH, PATCHED)  # Codex applied the patch
    said = _hook(w, _stop(w, _rollout(tmp_path, APPLIED)), "codex")
    assert "recorded: pending mutation #1" in said, said
    assert w.ledger("SELECT source, tool_call_id, paths FROM pending_mutation") == [
        ("codex", CALL, json.dumps([PATH]))
    ]
    again = _hook(w, _stop(w, tmp_path / "rollout.jsonl"), "codex")
    assert "pending mutation" not in again and "recorded already" not in again, again
    w.ok("add", "--", PATH)
    blocked = w.git("commit", "-m", "codex: discount rules")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_a_patch_whose_post_tool_use_came_is_not_recorded_again(
    based: World, tmp_path: Path
) -> None:
    w = based
    w.write(PATH, PATCHED)
    assert "recorded: pending mutation #1" in _hook(w, _post(w), "codex")
    said = _hook(w, _stop(w, _rollout(tmp_path, APPLIED)), "codex")
    assert "pending mutation" not in said and "recorded already" not in said, said
    assert len(w.ledger("SELECT id FROM pending_mutation")) == 1


def test_a_failed_patch_records_nothing_and_a_persons_edit_stays_theirs(
    based: World, tmp_path: Path
) -> None:
    w = based
    w.write(PATH, BASE + HUMAN)  # the patch did not apply; a person edits the file
    said = _hook(w, _stop(w, _rollout(tmp_path, FAILED)), "codex")
    assert "recorded: pending mutation" not in said, said
    w.ok("add", "--", PATH)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_a_patch_a_person_changed_back_records_nothing(based: World, tmp_path: Path) -> None:
    w = based
    w.write(PATH, BASE + HUMAN)  # applied, then a person put their own version back
    said = _hook(w, _stop(w, _rollout(tmp_path, APPLIED)), "codex")
    assert "recorded: pending mutation" not in said, said
    w.ok("add", "--", PATH)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


#: The other forms of the same call in a rollout (h17f; openai/codex @ 001cb8e2): the JSON
#: tool's ``function_call`` (``codex-rs/core/src/tools/handlers/apply_patch.rs``,
#: ``ApplyPatchToolArgs``: the envelope under ``input`` of the ``arguments`` text), and a
#: ``local_shell_call`` running ``apply_patch`` (``codex-rs/protocol/src/models.rs``,
#: ``LocalShellAction::Exec``), each answered by a ``function_call_output``.
FORMS = {
    "json": {"type": "function_call", "name": "apply_patch", "call_id": CALL},
    "local_shell": {
        "type": "local_shell_call",
        "call_id": CALL,
        "status": "completed",
        "action": {"type": "exec", "command": ["apply_patch", ENVELOPE], "working_directory": None},
    },
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_patch_of_another_form_is_recorded_at_the_stop(
    based: World, tmp_path: Path, form: str
) -> None:
    w = based
    w.write(PATH, PATCHED)
    path = _rollout(tmp_path, APPLIED)
    head = path.read_text(encoding="utf-8").splitlines()[:2]
    call = dict(FORMS[form])
    if form == "json":
        call["arguments"] = json.dumps({"input": ENVELOPE})
    out = {"type": "function_call_output", "call_id": CALL, "output": APPLIED}
    lines = [*head, *(json.dumps({"type": "response_item", "payload": p}) for p in (call, out))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    said = _hook(w, _stop(w, path), "codex")
    assert "recorded: pending mutation #1" in said, said
    assert w.ledger("SELECT source, tool_call_id, paths FROM pending_mutation") == [
        ("codex", CALL, json.dumps([PATH]))
    ]
    w.ok("add", "--", PATH)
    blocked = w.git("commit", "-m", "codex: discount rules")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
