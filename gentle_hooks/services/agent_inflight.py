"""Shell calls still running, moved by a gate before it judges (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md, "What a Bash command writes").

Room ``services``. A shell call's pre-tool event keeps a snapshot of the work tree and its
post-tool event records what changed since (:mod:`.agent_shell`): while the call runs (a long
foreground command), what it wrote is recorded only when it ends, so a person's commit and
push of that write in between delivered the writer's content as a person's. Its pre-tool
event therefore also keeps a small call file (:func:`before`), ``<common
dir>/gentle-hooks/shell/calls/<the snapshot file's name>``: the runtime, session, call id (or
pairing key), tool, the work tree and the writer's model and effort as that event names them
(``--model``/``--effort``, ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT``, the input; None
when nothing does: the settings then decide at the record, as at the post-tool event). Its
post-tool event removes it (:func:`after`), and so does the end of the agent's turn
(:func:`unreported`).

The commit gate and the push gate move each such call before they judge
(:mod:`.agent_inflight_settle`): what it wrote so far is recorded as its write, as its
post-tool event would have recorded it, and a new snapshot is kept for that event, which then
records only what changed after the gate. A call file whose snapshot was read (or is gone) is
removed by the gate. Only the session's own work tree is moved (a snapshot kept in another
worktree or repository the command names waits for the post-tool event). A repository with
no call file costs one directory listing (:func:`gentle_hooks.ledger.probe.calls_open`) and
no git process.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping

from gentle_hooks.agents.event import SHELL_END, RuntimeEvent
from gentle_hooks.agents.runtimes import Runtime
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.ledger.probe import CALLS_DIR, calls_open
from gentle_hooks.services import agent_above, agent_shell, agent_unreported
from gentle_hooks.services.agent_windows import Moved
from gentle_hooks.services.shell_files import is_spent

#: Largest call file read back (bytes).
_MAX_FILE = 64 * 1024


def _call_file(repo: Repository, runtime: str, event: RuntimeEvent) -> str:
    """The call file of ``event``'s call in ``repo`` (named as its snapshot file)."""
    name = os.path.basename(agent_shell.snapshot_file(repo, runtime, event))
    return os.path.join(repo.paths.common_dir, STATE_DIR, *CALLS_DIR, name)


def before(
    rt: Runtime,
    event: RuntimeEvent,
    root: str | None,
    cwd: str | None,
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
) -> str:
    """:func:`.agent_above.before` of ``event``'s shell call, then its call file in the work
    tree ``root`` (see the module docstring); the line said. A call file that cannot be
    written is said so in the line (the post-tool event still records the call).

    Raises:
        GentleError / GitError: as :func:`.agent_above.before`.
    """
    said = agent_above.before(rt.name, rt.title, event, root, cwd)
    if root is None:
        return said
    repo = Repository.open(root)
    snap = agent_shell.snapshot_file(repo, rt.name, event)
    if is_spent(snap) or not os.path.isfile(snap):
        return said  # no snapshot kept here (a replay)
    doc = {
        "runtime": rt.name,
        "session": event.session_id,
        "call": event.tool_call_id,
        "key": event.shell_key,
        "tool": event.tool,
        "cwd": event.cwd,
        "tree": repo.paths.toplevel,
        "model": model or env.get("GENTLE_WRITER_MODEL") or event.model,
        "effort": effort or env.get("GENTLE_WRITER_EFFORT") or event.effort,
        "agent": event.agent,
    }
    path = _call_file(repo, rt.name, event)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_whole(path, json.dumps(doc).encode("utf-8", "surrogatepass"))
    except (OSError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"{said}; no call file kept ({why}): a gate before its end does not record it"
    return said


def after(
    rt: Runtime, event: RuntimeEvent, root: str | None, cwd: str | None
) -> tuple[RuntimeEvent, dict[str, str | None], str | None]:
    """:func:`.agent_above.after` of ``event``'s shell call, its call file removed first.

    Raises:
        GitError: git failed.
    """
    with contextlib.suppress(OSError, GitError):
        repo = Repository.open(root) if root is not None else None
        if repo is not None and calls_open(repo.paths.common_dir):
            os.unlink(_call_file(repo, rt.name, event))
    return agent_above.after(rt.name, rt.title, event, root, cwd)


def unreported(
    rt: Runtime, event: RuntimeEvent, root: str | None, env: Mapping[str, str]
) -> list[Moved]:
    """:func:`.agent_unreported.settle` of ``event``; then, at the end of the agent's turn
    (:data:`gentle_hooks.agents.event.SHELL_END`), the call files of its session in the
    work tree ``root`` are removed: a call whose post-tool event never came (denied, or
    Codex's, settled just now) is no longer running, and a gate after the turn must not
    take a person's later edit for its write."""
    out = agent_unreported.settle(rt.name, rt.title, event, root, env)
    if event.shell != SHELL_END or root is None or not event.session_id:
        return out
    with contextlib.suppress(OSError, GitError):
        where = os.path.join(Repository.open(root).paths.common_dir, STATE_DIR, *CALLS_DIR)
        for name in os.listdir(where) if os.path.isdir(where) else []:
            doc = read_call(os.path.join(where, name)) if name.endswith(".json") else None
            if doc and doc.get("runtime") == rt.name and doc.get("session") == event.session_id:
                os.unlink(os.path.join(where, name))
    return out


def read_call(path: str) -> dict[str, object] | None:
    """The call file ``path`` (None: unreadable, or not a JSON object)."""
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read(_MAX_FILE))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def text(value: object) -> str | None:
    """``value`` when it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None
