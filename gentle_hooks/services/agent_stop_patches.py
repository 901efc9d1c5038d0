"""The patches a runtime's transcript shows applied, recorded when the agent's turn ends
(SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/codex.md, "A patch that sent
no ``PostToolUse``").

Room ``services``. A Codex that sends no ``PostToolUse`` of its ``apply_patch`` tool leaves
its patches unrecorded through the hook input; the ``Stop`` input's rollout names them
(:attr:`gentle_hooks.agents.event.RuntimeEvent.patches`: each as the ``PostToolUse`` event
it would have sent, under its own call id, so a patch whose ``PostToolUse`` came records
once). Only the files that hold what the patch writes there now
(:func:`gentle_hooks.agents.patch.holds_result`) are kept: a file a person changed back,
or whose patched lines a person rewrote, is not the writer's (content decides); a patch
none of whose files holds it records nothing.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.agents.patch import holds_result
from gentle_hooks.agents.payload import read_file
from gentle_hooks.services.agent_trees import full_path
from gentle_hooks.values.frozen import replace

#: Largest file read whole to tell whether it holds what a patch wrote.
_LIMIT = 64 * 1024 * 1024


def holding(event: RuntimeEvent, base: str | None) -> set[str]:
    """The real paths among ``event``'s patch results (relative ones taken from ``base``)
    whose file holds what the patch writes there now
    (:func:`gentle_hooks.agents.patch.holds_result`; a file past :data:`_LIMIT` bytes, or
    gone, is read as holding nothing of it)."""
    held = set()
    for path, result in event.patch_results:
        full = full_path(path, base)
        if full is None:
            continue
        content = read_file(full, limit=_LIMIT) if os.path.lexists(full) else None
        if holds_result(content, result):
            held.add(full)
    return held


def applied(event: RuntimeEvent, cwd: str | None) -> list[RuntimeEvent]:
    """The post-tool events of ``event``'s patches (an end of the turn's), each kept to the
    paths that hold what it writes there (relative ones taken from ``cwd``, else the
    event's own), in order; a patch none of whose paths does is left out."""
    out = []
    for patch in event.patches:
        base = cwd or patch.cwd
        held = holding(patch, base)
        kept = tuple(p for p in patch.paths if full_path(p, base) in held)
        if kept:
            out.append(replace(patch, paths=kept))
    return out
