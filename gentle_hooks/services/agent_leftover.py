"""Whether an agent's shell call left a process running, seen by the processes themselves
and not by the words of the command (SPEC §7 "Hooks"; docs/agents/claude-code.md, "A
command that runs in the background"). OR-ed with the command-text reader
(:mod:`gentle_hooks.agents.background`), which keeps missing forms (``: <(...)``, ``echo
'... &' | bash``, ``flock f sh -c '... &'``, ``find -exec sh -c '... &'``, ``awk``'s
``system``, ``trap``, ``su -c``, ``script -qc``...).

Room ``services``. Linux only: elsewhere (no ``/proc/self/stat``) :func:`left_behind` finds
nothing and only the text reader decides (the docs say so). Run at a shell call's post-tool
event only (:func:`mark`), never on a person's commit or push.

One pass over ``/proc`` (no child process): each ``/proc/PID/stat`` gives the parent pid
and the start time (clock ticks since boot). The call's window is ``[since, hook)``:
``since`` is when its pre-tool snapshot was written (the snapshot file's mtime, a wall
time, turned into ticks since boot with ``CLOCK_BOOTTIME``), ``hook`` is the start of the
oldest process of this hook's own chain started after ``since`` (the runtime's shell
running the hook, or the hook itself): a process another hook of the same event started
beside ours is not the call's. The **agent** is the nearest ancestor of this hook started
before ``since`` (the runtime's process). A live process (not a zombie) started in the
window counts when:

* the agent is one of its ancestors (a walk up its parents, at most
  :data:`MAX_DEPTH` steps), and it is not this hook or one of the hook's ancestors; or
* it is orphaned: its parent is pid 0 or 1, or an ancestor of the agent (a subreaper such
  as ``systemd --user`` or a terminal multiplexer: which ancestor is a subreaper ``/proc``
  does not say, so any counts), or one of its ancestors started in the window is;

and its ``/proc/PID/cwd`` or one of its open files (``/proc/PID/fd``, at most
:data:`MAX_FDS` per process) lies inside one of the repository's work trees. A pid whose
files cannot be read (another user's: permission denied) or that is gone is skipped.

Not counted: a person's process started before the call, or one started during it neither
under the agent nor orphaned. Counted though a person's (fail closed: a window only makes
the person's edits during the turn the writer's): a process a multiplexer or terminal that
is an ancestor of the agent starts during the call (a new tmux pane) in the work tree, a
process started in the same clock tick as the hook (a tick is 10 ms) is not in the window
(missed).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.services import agent_shell
from gentle_hooks.services.shell_trees import other_trees, snapshot_time
from gentle_hooks.values.frozen import frozen, replace

#: The process filesystem read.
PROC = "/proc"
#: The most parent steps walked up from one process.
MAX_DEPTH = 256
#: The most open files read of one process.
MAX_FDS = 1024


@frozen
class Leftover:
    """A process a shell call left running.

    Attributes:
        pid: its id; name: its command name (``/proc/PID/stat``'s second field);
        where: the path inside a work tree it holds (its cwd, or an open file).
    """

    pid: int
    name: str
    where: str


def ticks_since(wall: float) -> int:
    """The clock ticks since boot at the wall time ``wall`` (rounded down, as the kernel
    rounds a start time); 0 where ``CLOCK_BOOTTIME`` is unknown."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is None:
        return 0
    boot = wall - time.time() + time.clock_gettime(boottime)
    return max(0, math.floor(boot * os.sysconf("SC_CLK_TCK")))


def _stat(proc: str, pid: str) -> tuple[int, int, str, str] | None:
    """``(ppid, start ticks, state, name)`` of ``pid`` (None: gone or unreadable)."""
    try:
        with open(os.path.join(proc, pid, "stat"), "rb") as fh:
            raw = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    head, sep, rest = raw.rpartition(")")
    fields = rest.split()
    if not sep or len(fields) < 20 or not fields[1].isdigit() or not fields[19].isdigit():
        return None
    return int(fields[1]), int(fields[19]), fields[0], head.partition("(")[2]


def left_behind(
    trees: Sequence[str], since: int, *, proc: str = PROC, me: int | None = None
) -> list[Leftover]:
    """The processes a shell call left running (see the module docstring), whose pre-tool
    snapshot was written at ``since`` (clock ticks since boot: :func:`ticks_since`), holding
    a path inside one of the work trees ``trees``; ``me``: this hook's pid (default: this
    process). Empty when ``proc`` cannot be listed."""
    me = os.getpid() if me is None else me
    try:
        names = [n for n in os.listdir(proc) if n.isdigit()]
    except OSError:
        return []
    table = {int(n): s for n in names if (s := _stat(proc, n)) is not None}
    chain, agent, p = {me}, None, table.get(me, (0, 0, "", ""))[0]
    for _ in range(MAX_DEPTH):
        if p not in table:
            break
        if table[p][1] < since:
            agent = p
            break
        chain.add(p)
        p = table[p][0]
    hook = min((table[c][1] for c in chain if c in table), default=math.inf)
    reapers = {0, 1} | _ancestors(table, agent)

    def fresh(q: int) -> bool:
        return q in table and since <= table[q][1] <= hook

    def counts(pid: int) -> bool:
        q = pid
        for _ in range(MAX_DEPTH):
            if q in chain:
                return False
            parent = table[q][0]
            if parent == agent and table[q][1] >= hook:
                return False  # another hook of this event, started beside ours
            if parent == agent or (fresh(q) and parent in reapers):
                return True
            if parent not in table:
                return False
            q = parent
        return False

    roots = [os.path.realpath(t) for t in trees]
    found = []
    for pid, (_, _, state, name) in sorted(table.items()):
        if state in ("Z", "X") or not fresh(pid) or not counts(pid):
            continue
        where = _inside(proc, pid, roots)
        if where is not None:
            found.append(Leftover(pid, name, where))
    return found


def _ancestors(table: dict[int, tuple[int, int, str, str]], pid: int | None) -> set[int]:
    """The strict ancestors of ``pid`` in ``table``."""
    out: set[int] = set()
    p = table[pid][0] if pid in table else None
    while p is not None and p not in out and len(out) < MAX_DEPTH:
        out.add(p)
        p = table[p][0] if p in table else None
    return out


def _inside(proc: str, pid: int, roots: Sequence[str]) -> str | None:
    """The cwd or an open file of ``pid`` inside one of ``roots`` (None: none, or not
    readable)."""
    base = os.path.join(proc, str(pid))
    links = [os.path.join(base, "cwd")]
    try:
        fds = os.listdir(os.path.join(base, "fd"))
    except OSError:
        fds = []
    links += [os.path.join(base, "fd", f) for f in fds[:MAX_FDS]]
    for link in links:
        try:
            target = os.readlink(link)
        except OSError:
            continue
        if any(target == r or target.startswith(r.rstrip("/") + "/") for r in roots):
            return target
    return None


def call_time(runtime: str, event: RuntimeEvent, root: str | None) -> float | None:
    """When ``event``'s shell call's pre-tool snapshot in the work tree ``root`` was written
    (a wall time), None when none was kept, outside a repository, or git fails. Read before
    the snapshot is spent."""
    if root is None:
        return None
    try:
        return snapshot_time(agent_shell.snapshot_file(Repository.open(root), runtime, event))
    except GitError:
        return None


def still_running(who: str, root: str, since: float, also: Sequence[str] = ()) -> str | None:
    """The line saying that the call ``who`` names (``the Bash call of Codex CLI``), whose
    pre-tool snapshot was written at the wall time ``since``, left a process running in one
    of the repository's work trees, or in one of the directories ``also`` (:func:`left_behind`);
    None when none runs, off Linux, or git fails."""
    if not os.path.exists(os.path.join(PROC, "self", "stat")):
        return None
    try:
        trees = [root, *other_trees(root)[0], *also]
    except GitError:
        return None
    found = left_behind(trees, ticks_since(since))
    if not found:
        return None
    shown = ", ".join(f"{f.pid} ({f.name}) in {f.where}" for f in found[:3])
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return f"{who} left a process running in the work tree, seen in /proc: {shown}{more}"


def mark(
    runtime: str, title: str, event: RuntimeEvent, root: str | None
) -> tuple[RuntimeEvent, str | None]:
    """``event`` (a shell call's post-tool event) marked ``background``, and the line that
    says why, when the call left a process running in one of the repository's work trees
    (:func:`still_running`); ``(event, None)`` unchanged when the text reader said so
    already, outside a repository, off Linux, or when no pre-tool snapshot of the call was
    kept (its time is unknown). Read before the snapshot is spent."""
    if event.background or root is None or not os.path.exists(os.path.join(PROC, "self", "stat")):
        return event, None
    wall = call_time(runtime, event, root)
    who = f"the {event.tool or 'shell'} call of {title}"
    said = still_running(who, root, wall) if wall is not None else None
    if said is None:
        return event, None
    return replace(event, background=True), said
