"""Open background windows settled by a gate before it judges (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md, "A command that runs in the background").

Room ``services``. A background shell call keeps its window open until the agent's turn ends,
and past it for a grace while a process it left still runs (:mod:`.agent_windows`); what the
process writes was recorded only at the session's next hook event, so a commit, or a commit
and its push, made before that event took the process's write for a person's. The commit
gate, the push gate, ``status`` and ``assess`` call :func:`settle` first: every window of the
repository is moved as the session's next event (not its end of turn) would move it
(:func:`.agent_windows.tick`, the session read from the window file): what changed since the
last move is recorded as the background call's write (under its ``@bg<n>`` id: a later move
or replay records once; what a person committed meanwhile too, as the session's next event
records it), and the window stays open for the session's own events, unless its grace is
over: then it closes, keeping only the paths that changed by its deadline (a person's later
edit stays the person's). A repository with no window file costs one directory listing
(:func:`gentle_hooks.ledger.probe.windows_open`) and no git process.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.ledger.probe import WINDOWS_DIR, windows_open

#: Largest window file read back to find its session (bytes).
_MAX_FILE = 64 * 1024
#: The environment's word on the writer (a gate's is a person's shell): never the window's.
_WRITER_VARS = ("GENTLE_WRITER_MODEL", "GENTLE_WRITER_EFFORT")


def without_writer(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without :data:`_WRITER_VARS`: a gate moving an agent's window or call runs
    in a person's shell, whose writer variables are never the agent's."""
    return {k: v for k, v in env.items() if k not in _WRITER_VARS}


def settle(root: str, common: str, env: Mapping[str, str]) -> list[str]:
    """Move every open window of the repository (work tree ``root``, common directory
    ``common``; see the module docstring); one line per window moved. Failures are not the
    gate's: a window that cannot be moved is left as it was, and its line says so."""
    if not windows_open(common):
        return []
    from gentle_hooks.agents.event import RuntimeEvent
    from gentle_hooks.agents.runtimes import runtime
    from gentle_hooks.errors import GentleError
    from gentle_hooks.services import agent_record, agent_windows

    said: list[str] = []
    clean = without_writer(env)
    for name, session in _sessions(os.path.join(common, STATE_DIR, *WINDOWS_DIR)):
        rt = runtime(name)
        event = RuntimeEvent(
            source=name,
            session_id=session,
            tool_call_id=None,
            cwd=root,
            paths=(),
            writes=False,
            tool=None,
            model=None,
            effort=None,
        )
        try:
            moved = agent_windows.tick(name, rt.title, event, root, closing=False)
            for m in moved:
                if m.why is not None:
                    said.append(m.why)
                    continue
                done = agent_record.record_written(rt, m.event, m.starts, root, None, None, clean)
                if done.recorded is not None:
                    said.append(f"the {m.event.tool} call of {rt.title}: {done.recorded.notes}")
        except GentleError as exc:
            said.append(f"a window of {rt.title} was left as it was: {exc}")
    return said


def _sessions(where: str) -> list[tuple[str, str]]:
    """``(runtime, session)`` of each window file in ``where``, each once, in name order; a
    file that names no session (written before sessions were kept) or no runtime of ours is
    left out."""
    import json  # only where a window is kept: a passing gate reads no JSON

    from gentle_hooks.agents.runtimes import NAMES

    out: dict[tuple[str, str], None] = {}
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return []
    for name in names:
        kind = name.split(".", 1)[0]
        if not name.endswith(".json") or kind not in NAMES:
            continue
        try:
            with open(os.path.join(where, name), "rb") as fh:
                doc = json.loads(fh.read(_MAX_FILE))
        except (OSError, ValueError):
            continue
        session = doc.get("session") if isinstance(doc, dict) else None
        if isinstance(session, str) and session:
            out[(kind, session)] = None
    return list(out)
