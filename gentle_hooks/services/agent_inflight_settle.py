"""Shell calls still running, moved by the commit and push gates before they judge (SPEC §3
"Attribution follows content", §7 "Hooks"; docs/agents/claude-code.md, "What a Bash command
writes").

Room ``services``. What :mod:`.agent_inflight` describes: for each call file of the gate's
work tree whose snapshot is still unread, the snapshot is moved aside (under the call id
followed by ``@gate-<random>``), a new one is kept for the call's own post-tool event, the
one moved aside is compared with the work tree (:func:`.agent_shell.after`: commits made
since included), and what changed is recorded as the call's write
(:func:`.agent_record.record_written`, with the model and effort the call file names), as
its post-tool event would have recorded it. Kept apart from :mod:`.agent_inflight`, which
the recorder imports: this module imports the recorder.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Mapping

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.agents.runtimes import Runtime
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.ledger.probe import CALLS_DIR, calls_open
from gentle_hooks.services import agent_shell
from gentle_hooks.services.agent_inflight import read_call, text
from gentle_hooks.services.agent_record import record_written
from gentle_hooks.services.agent_window_settle import without_writer
from gentle_hooks.services.shell_files import is_spent, read_snapshot
from gentle_hooks.values.frozen import replace


def settle(root: str, common: str, env: Mapping[str, str]) -> list[str]:
    """Move every running shell call of the work tree ``root`` (common directory
    ``common``; see the module docstring); one line per call moved. Failures are not the
    gate's: a call that cannot be moved is left as it was, and its line says so."""
    if not calls_open(common):
        return []
    from gentle_hooks.agents.runtimes import NAMES, runtime

    where = os.path.join(common, STATE_DIR, *CALLS_DIR)
    clean = without_writer(env)
    top = os.path.realpath(root)
    said: list[str] = []
    try:
        names = sorted(n for n in os.listdir(where) if n.endswith(".json"))
    except OSError:
        return []
    for name in names:
        path = os.path.join(where, name)
        snap = os.path.join(os.path.dirname(where), name)
        doc = read_call(path)
        if doc is None or read_snapshot(snap) is None:
            if doc is None or is_spent(snap) or not os.path.exists(snap):
                with contextlib.suppress(OSError):
                    os.unlink(path)  # read by its post-tool event, or not ours
            continue
        tree, kind = doc.get("tree"), doc.get("runtime")
        if not isinstance(tree, str) or os.path.realpath(tree) != top or kind not in NAMES:
            continue
        assert isinstance(kind, str)
        rt = runtime(kind)
        try:
            said += _move(rt, doc, root, snap, clean)
        except (GentleError, GitError, OSError) as exc:
            said.append(f"a running call of {rt.title} was left as it was: {exc}")
    return said


def _move(
    rt: Runtime,
    doc: Mapping[str, object],
    root: str,
    snap: str,
    env: Mapping[str, str],
) -> list[str]:
    """Move the running call ``doc`` names, whose snapshot is ``snap`` (see the module
    docstring); its line, or none when it changed nothing.

    Raises:
        GentleError / GitError / OSError: a snapshot cannot be moved, kept or compared.
    """
    call, key = text(doc.get("call")), text(doc.get("key"))
    event = RuntimeEvent(
        source=rt.name,
        session_id=text(doc.get("session")),
        tool_call_id=call,
        shell_key=key,
        cwd=text(doc.get("cwd")) or root,
        paths=(),
        writes=False,
        tool=text(doc.get("tool")),
        model=None,
        effort=None,
        agent=text(doc.get("agent")),
    )
    aside = replace(
        event, tool_call_id=f"{call or key}@gate-{secrets.token_hex(6)}", shell_key=None
    )
    repo = Repository.open(root)
    os.rename(snap, agent_shell.snapshot_file(repo, rt.name, aside))
    agent_shell.take(root, rt.name, event)  # the call's own post-tool event reads this one
    done, starts, why = agent_shell.after(rt.name, rt.title, aside, root)
    if why is not None:
        return []
    model, effort = text(doc.get("model")), text(doc.get("effort"))
    out = record_written(rt, done, starts, root, model, effort, env)
    if out.recorded is None:
        return [out.skipped] if out.skipped else []
    return [f"the running {event.tool or 'shell'} call of {rt.title}: {out.recorded.notes}"]
