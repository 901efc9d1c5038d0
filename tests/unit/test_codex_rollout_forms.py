"""Codex's rollout read for every form an ``apply_patch`` call takes, not only the freeform
tool's ``custom_tool_call`` (:func:`gentle_hooks.agents.codex_rollout.patches`; issue 17, h17f).

``tests/fixtures/agents/codex-rollout-patch-forms.jsonl`` is built from openai/codex's own
shapes (openai/codex @ 001cb8e2):

* ``function_call`` of ``name`` ``apply_patch`` whose ``arguments`` is a JSON text holding
  the envelope under ``input`` (the JSON tool of gpt-oss models:
  ``codex-rs/core/src/tools/handlers/apply_patch.rs``, ``create_apply_patch_json_tool`` and
  ``ApplyPatchToolArgs``; ``codex-rs/protocol/src/models.rs``, ``ResponseItem::FunctionCall``:
  ``name``, ``arguments`` as a string, ``call_id``);
* the shell tools running an envelope, which Codex intercepts and applies
  (``apply_patch.rs``, ``intercept_apply_patch``): ``shell`` with ``arguments``
  ``{"command": [...], "workdir"}`` (``models.rs``, ``ShellToolCallParams``), unified exec's
  ``exec_command`` with ``{"cmd": ...}``, and ``local_shell_call`` with ``action``
  ``{"type": "exec", "command": [...], "working_directory"}`` (``models.rs``,
  ``ResponseItem::LocalShellCall``, ``LocalShellAction::Exec``); their outputs are
  ``function_call_output`` items of the same ``call_id``.
"""

from __future__ import annotations

import json
from pathlib import Path

from gentle_hooks.agents.codex import decode
from gentle_hooks.agents.codex_rollout import patches, read_rollout, unreported
from tests.agent_payloads import FIXTURES, codex_stop

ROLLOUT = FIXTURES / "codex-rollout-patch-forms.jsonl"
APPLIED = ["call_fn_patch", "call_shell_patch", "call_exec_patch", "call_local_patch"]


def test_every_form_of_an_applied_patch_is_read() -> None:
    """Not: call_ls (a shell command that runs no envelope), call_fn_bad (verification
    failed)."""
    got = patches(str(ROLLOUT))
    assert [p.call_id for p in got] == APPLIED
    assert [p.where for p in got] == [None, "pkg", "lib", None]
    assert got[0].envelope.startswith("*** Begin Patch\n*** Add File: src/fn.py\n")
    assert got[1].envelope.startswith("*** Begin Patch\n*** Add File: shell.py\n")
    assert got[2].envelope.endswith("+EXEC = 1\n*** End Patch\n")
    assert got[3].envelope.startswith("*** Begin Patch\n*** Add File: src/local.py\n")


def test_one_read_gives_the_shell_calls_and_the_patches() -> None:
    calls, found = read_rollout(str(ROLLOUT))
    assert calls == unreported(str(ROLLOUT)) == ()  # each shell call has its output
    assert found == patches(str(ROLLOUT))


def test_the_stop_input_carries_each_form_from_its_directory(tmp_path: Path) -> None:
    event = decode(json.dumps(codex_stop(ROLLOUT, tmp_path)).encode())
    assert [p.tool_call_id for p in event.patches] == APPLIED
    assert [(p.cwd, p.paths) for p in event.patches] == [
        (str(tmp_path), ("src/fn.py",)),
        (str(tmp_path / "pkg"), ("shell.py",)),
        (str(tmp_path / "lib"), ("exec.py",)),
        (str(tmp_path), ("src/local.py",)),
    ]
    assert all(p.model == "gpt-5-codex" and p.effort == "high" for p in event.patches)
