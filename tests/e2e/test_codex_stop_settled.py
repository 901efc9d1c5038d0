"""A Codex ``Stop`` re-checks only the patches of its rollout not yet recorded: one the ledger
holds already (same source, session and call id) is settled, neither measured nor recorded
again (SPEC §6 "pending mutation": a replay records once; §7 "Hooks"; docs/agents/codex.md,
"A patch that sent no ``PostToolUse``"). Issue 17, h17f: each ``Stop`` re-ran two git
processes per recorded patch (up to 32 of them) only to be told "recorded already".

The rollout holds openai/codex's ``custom_tool_call``/``custom_tool_call_output`` items of the
freeform ``apply_patch`` tool (``codex-rs/protocol/src/models.rs`` @ 001cb8e2, as
``tests/unit/test_codex_rollout_patches.py`` names them). Real git, the real ``gentle-hook
record --from codex``; git's own ``GIT_TRACE`` counts the git processes a ``Stop`` runs:

* the first ``Stop`` records every patch; a second one records nothing and runs at most
  :data:`MOST_GIT` git processes, whatever the number of patches;
* a patch added to the rollout after that is recorded by the next ``Stop``, the settled ones
  are not recorded again.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import _hook
from tests.e2e.test_attribution_codex_running import _stop

#: Patches in the rollout.
COUNT = 8
#: The most git processes a Stop whose patches are all settled runs (the work tree, the
#: ledger's repository); before h17f it ran two per patch on top.
MOST_GIT = 4
OK = "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n"


def _body(i: int) -> str:
    return f"def rule_{i}(rows):\n    return apply_regional_discount_{i}(rows, table)\n"


def _envelope(i: int) -> str:
    lines = "".join("+" + line + "\n" for line in _body(i).splitlines())
    return f"*** Begin Patch\n*** Add File: src/rule_{i}.py\n{lines}*** End Patch\n"


def _rollout(w: World, tmp_path: Path, count: int) -> Path:
    """A rollout of ``count`` applied patches, each file written as Codex would have."""
    lines = []
    for i in range(count):
        w.write(f"src/rule_{i}.py", _body(i))
        call = {"type": "custom_tool_call", "status": "completed", "call_id": f"call_{i}"}
        call.update(name="apply_patch", input=_envelope(i))
        out = {"type": "custom_tool_call_output", "call_id": f"call_{i}", "output": OK}
        lines += [json.dumps({"type": "response_item", "payload": p}) for p in (call, out)]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _git_runs(w: World, data: bytes, trace: Path) -> tuple[str, int]:
    """``record --from codex`` of ``data`` with git's trace on; (its stderr, git processes)."""
    trace.unlink(missing_ok=True)
    r = w.gh("record", "--from", "codex", input=data, env={"GIT_TRACE": str(trace)})
    assert r.code == 0, r
    said = trace.read_text(encoding="utf-8") if trace.exists() else ""
    return r.err, sum(1 for line in said.splitlines() if "trace: built-in: git" in line)


def test_a_later_stop_leaves_the_settled_patches_alone(native: World, tmp_path: Path) -> None:
    w = native
    rollout = _rollout(w, tmp_path, COUNT)
    first = _hook(w, _stop(w, rollout), "codex")
    assert first.count("recorded: pending mutation #") == COUNT, first
    said, runs = _git_runs(w, _stop(w, rollout), tmp_path / "trace")
    assert "pending mutation" not in said and "recorded already" not in said, said
    assert runs <= MOST_GIT, (runs, said)
    assert len(w.ledger("SELECT id FROM pending_mutation")) == COUNT


def test_a_new_patch_is_recorded_and_the_settled_ones_are_not(
    native: World, tmp_path: Path
) -> None:
    w = native
    _hook(w, _stop(w, _rollout(w, tmp_path, 2)), "codex")
    said = _hook(w, _stop(w, _rollout(w, tmp_path, 3)), "codex")
    assert said.count("recorded: pending mutation #") == 1, said
    assert w.ledger("SELECT tool_call_id FROM pending_mutation ORDER BY id") == [
        ("call_0",),
        ("call_1",),
        ("call_2",),
    ]
