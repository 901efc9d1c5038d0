"""Shell calls whose post-tool event never came, settled when the agent's turn ends (SPEC §3
"Attribution follows content", §7 "Hooks"; docs/agents/codex.md, "A command that runs in
the background").

Room ``services``. Current Codex sends no ``PostToolUse`` for a shell command unified exec
returned from while it still ran, unless a later ``write_stdin`` poll sees it end
(openai/codex pull request #18888): its ``PreToolUse`` snapshot (:mod:`.agent_shell`) then
waits for an event that never comes, and what the command writes would not be recorded. The
end of the turn names such calls (:attr:`gentle_hooks.agents.event.RuntimeEvent.unreported`,
read from the rollout by :func:`gentle_hooks.agents.codex_rollout.unreported`); for each
whose snapshot is still unread (:func:`settle`):

* what changed in the work tree since its snapshot is recorded as its write, under its own
  call id, as its post-tool event would have (:func:`.agent_shell.after`; a person's edit
  made meanwhile too: the agent's turn had not ended, as during a long call);
* when a process it left is still running in one of the repository's work trees, seen in
  ``/proc`` (:func:`.agent_leftover.mark`, Linux only), its window stays open past the end
  of the turn for a short grace (:func:`.agent_windows.grace`: 10 s unless
  ``GENTLE_HOOKS_BACKGROUND_GRACE`` says; 0 keeps none): what changes within the grace is
  recorded as its write at the session's next hook events, and the first one after the
  grace closes the window and leaves out what changed later (:mod:`.agent_windows`): a
  person's edit after the grace, while a watcher the agent started still runs, stays the
  person's. Otherwise (nothing of it runs, or off Linux, where nothing tells) its window is
  closed: a person's edit made after the end of the turn while nothing runs stays the
  person's.

A snapshot already read (its post-tool event came, or this end of the turn was replayed) is
left alone, as is a call with no snapshot (its pre-tool hook did not run).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

from gentle_hooks.agents.event import SHELL_AFTER, RuntimeEvent
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.services import agent_leftover, agent_shell, agent_windows
from gentle_hooks.services.agent_windows import Moved
from gentle_hooks.services.shell_trees import snapshot_time
from gentle_hooks.values.frozen import replace


def settle(
    runtime: str, title: str, event: RuntimeEvent, root: str | None, env: Mapping[str, str]
) -> list[Moved]:
    """What each of the end-of-turn ``event``'s unreported calls wrote since its snapshot in
    the work tree ``root`` (see the module docstring), in the rollout's order; a call left
    alone gives nothing, one whose compare found no change gives its event and why. A call
    whose compare fails in git is left as it was. ``env``: the process environment (the
    grace: :func:`.agent_windows.grace`)."""
    if root is None or not event.unreported:
        return []
    grace, bad = agent_windows.grace(env)
    out: list[Moved] = []
    for call, tool, running in event.unreported:
        shell = replace(
            event,
            tool=tool,
            tool_call_id=call,
            shell=SHELL_AFTER,
            shell_key=None,
            unreported=(),
            background=False,
            paths=(),
            writes=False,
        )
        with contextlib.suppress(GitError, GentleError):
            kept = agent_shell.snapshot_file(Repository.open(root), runtime, shell)
            if snapshot_time(kept) is None or agent_shell.spent(root, runtime, shell):
                continue  # no snapshot (its pre-tool hook did not run), or read already
            out.append(_settle_one(runtime, title, shell, root, running, (grace, bad)))
    return out


def _settle_one(
    runtime: str,
    title: str,
    shell: RuntimeEvent,
    root: str,
    running: bool,
    given: tuple[float, str | None],
) -> Moved:
    """:func:`settle` of one call (``running``: the rollout's last word is that it runs;
    ``given``: :func:`.agent_windows.grace`, the seconds its window may stay open past the
    end of the turn and the line saying the variable was not one)."""
    grace, bad = given
    shell, seen = agent_leftover.mark(runtime, title, shell, root)
    keep = shell.background and grace > 0
    uid = agent_windows.open_window(runtime, title, shell, root) if keep else None
    done, starts, why = agent_shell.after(runtime, title, shell, root)
    name = f"the {shell.tool} call of {title} ({shell.tool_call_id})"
    state = "the rollout shows its command still running" if running else "it has no output"
    said = f"{name} sent no post-tool event ({state} when the agent's turn ended)"
    if why is None:
        said += (
            ": what changed in the work tree since its pre-tool event is recorded as its "
            "write (a person's edit made meanwhile too)"
        )
    else:
        said += f": {why}"
    if uid is not None:
        agent_windows.register(runtime, uid, shell, root, grace=grace)
        said += (
            f"; {seen}: its window stays open past the end of the turn for {grace:g} s, what "
            "changes within that is recorded as its write at this session's next hook "
            "events, and what changes later (a person's edit while it runs) is not its"
        )
        said += f" ({bad})" if bad else ""
    elif shell.background:
        said += f"; {seen}, but its grace is 0 s: later changes are not its"
    else:
        said += "; nothing of it runs any more (or nothing tells): later changes are not its"
    held = said if uid is not None else None
    if why is not None:
        return Moved(done, {}, said, held)
    return Moved(replace(done, notes=(*done.notes, said)), starts, None, held)
