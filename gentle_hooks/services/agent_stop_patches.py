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
none of whose files holds it records nothing. A patch whose call the session's ledger holds
already is settled and left out before any of that (:func:`unsettled`): a later ``Stop``
re-checks only the patches not yet recorded.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.agents.patch import holds_result
from gentle_hooks.agents.payload import read_file
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.inputs import label_problem
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


def unsettled(event: RuntimeEvent, root: str | None) -> RuntimeEvent:
    """``event`` (an end of the turn's) with its patches kept to those not yet recorded in
    the ledger of the work tree ``root``: a patch whose source, session and call id a
    mutation there holds already would only be reported as a replay (a call id that is
    not a derived one records once: SPEC §6), so it is not measured or recorded again. The
    ledger is read as it is (no spool folded, nothing created); a patch whose ids the
    ledger would store otherwise (:func:`~gentle_hooks.policy.inputs.label_problem`) is
    kept, as are all of them when ``root`` is None or its ledger is absent or cannot be
    read (the recording path then decides, as before)."""
    if not event.patches or root is None:
        return event
    try:
        led = Ledger.open_existing(ledger_path(Repository.open(root).paths.common_dir), fold=False)
    except (GitError, StoreError):
        return event
    if led is None:
        return event
    kept = []
    with led:
        for patch in event.patches:
            source, session, call = patch.source, patch.session_id, patch.tool_call_id
            plain = call is not None and all(
                label_problem(v) is None for v in (source, session, call) if v is not None
            )
            try:
                done = plain and led.mutation_for_call(source, session, call or "") is not None
            except StoreError:
                done = False
            if not done:
                kept.append(patch)
    return replace(event, patches=tuple(kept))
