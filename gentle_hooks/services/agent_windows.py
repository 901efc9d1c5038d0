"""Background shell calls: a call whose process writes after its post-tool event keeps its
snapshot open as a window of the session until the agent's turn ends (SPEC §3 "Attribution
follows content", §7 "Hooks"; docs/agents/claude-code.md, "A command that runs in the
background").

Room ``services``. A call the runtime runs in the background, or whose command leaves a
process behind (:attr:`gentle_hooks.agents.event.RuntimeEvent.background`), returns before
that process wrote: its post-tool event compares as any shell call's does
(:mod:`.agent_shell`), and :func:`open_window` keeps a second snapshot, taken before that
compare, as the call's window. At every later hook event of the same session in the same
repository (:func:`tick`: before the event's own snapshot or record) each open window is
moved: a new snapshot is taken first, then the window's is compared with the work tree, and
what changed since is recorded as the background call's write, under its tool call id
followed by ``@bg<n>`` (``n`` counts the moves), so a replayed event, or a move repeated
after a crash, records once. Taking the new snapshot first loses no write made during the
compare: such a write is recorded by this move and measured again by the next (the same
writer). The end of the agent's turn (Claude Code's ``Stop``:
:data:`gentle_hooks.agents.event.SHELL_END`) moves each window one last time and closes it:
what the process writes after that, and a person's edits after it, are not recorded. A
runtime that wires no end-of-turn event (``Wiring.turn_end`` is None) closes each window
at its first move, the session's next hook event: what the process writes after it is not
recorded. A
person's edits during the turn, while a window is open, count as the writer's, as during a
long foreground call.

One JSON file per window under ``<common dir>/gentle-hooks/shell/windows/``
(``<runtime>.<hash of session>.<window id>.json``: the call id, the move count, the
writer's model, effort and subagent as the call's post-tool event named them, the tool);
its snapshots are the shell snapshots of a call id ``window:<window id>@<n>``. The moves of
one session are serialised by an exclusive ``flock`` on ``<runtime>.<hash>.lock`` beside
them. A window no event moved for :data:`.shell_files.MAX_AGE` seconds is removed (its
snapshot is swept as any other).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import time
from collections.abc import Iterator

from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, RuntimeEvent, derived_call_id
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.services import agent_shell
from gentle_hooks.services.shell_files import MAX_AGE
from gentle_hooks.values.frozen import frozen, replace

#: The directory of the windows, under the shell snapshots' directory.
WINDOW_DIR = "windows"
#: The most open windows one session keeps; a background call past it gets none (its line
#: says so).
MAX_WINDOWS = 32
#: Largest window file read back (bytes).
_MAX_FILE = 64 * 1024


@frozen
class Moved:
    """What one window's move found.

    Attributes:
        event: the background call's write (``paths``, ``writes``) under its ``@bg<n>`` id,
            to be recorded with ``starts``; or, with nothing to record, the event and
            ``why`` (None when it recorded).
        starts: as :func:`.agent_shell.after` gives them.
    """

    event: RuntimeEvent
    starts: dict[str, str | None]
    why: str | None


def _dir(root: str) -> str:
    """The windows directory of the repository whose work tree is ``root``."""
    common = Repository.open(root).paths.common_dir
    return os.path.join(common, STATE_DIR, agent_shell.SHELL_DIR, WINDOW_DIR)


def _prefix(runtime: str, session: str | None) -> str:
    digest = hashlib.sha256((session or "").encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return f"{runtime}.{digest}."


def _marker(event: RuntimeEvent, uid: str, n: int, shell: str) -> RuntimeEvent:
    """The shell event whose snapshot is window ``uid``'s ``n``-th (no runtime pairing key:
    the synthetic call id names it)."""
    return replace(
        event,
        tool_call_id=f"window:{uid}@{n}",
        shell_key=None,
        shell=shell,
        background=False,
        failed=None,
        notes=(),
        paths=(),
        writes=False,
    )


def open_window(runtime: str, title: str, event: RuntimeEvent, root: str | None) -> str | None:
    """Keep the first snapshot of a window for ``event``'s background call in the work tree
    ``root`` (and the repository's other worktrees: :func:`.agent_shell.before`), before its
    own post-tool compare runs; returns the window id for :func:`register`, or None when
    none is kept (outside a repository, a replay whose snapshot was read already, too many
    windows open, or the snapshot cannot be written).

    Raises:
        GitError: git failed.
    """
    if root is None or agent_shell.spent(root, runtime, event):
        return None
    where = _dir(root)
    if len(_listed(where, _prefix(runtime, event.session_id))) >= MAX_WINDOWS:
        return None
    uid = secrets.token_hex(8)
    try:
        agent_shell.before(runtime, title, _marker(event, uid, 1, SHELL_BEFORE), root)
    except GentleError:
        return None
    return uid


def register(
    runtime: str, uid: str, event: RuntimeEvent, root: str, *, turn_end: bool = True
) -> str:
    """Keep window ``uid`` (:func:`open_window`) for ``event``, the background call as its
    post-tool compare left it; returns the line said (the window is open, or why not).
    ``turn_end``: the runtime's end-of-turn event is wired (else the window closes at the
    session's next hook event: :func:`tick` with ``closing``).

    Raises:
        GitError: git failed.
    """
    call = event.tool_call_id or ""
    if event.shell_key is not None:  # the runtime names no call id: this run's own
        call = derived_call_id(call, uid)
    doc = {
        "call": call,
        "n": 1,
        "tool": event.tool,
        "model": event.model,
        "effort": event.effort,
        "agent": event.agent,
        "cwd": event.cwd,
    }
    where = _dir(root)
    path = os.path.join(where, f"{_prefix(runtime, event.session_id)}{uid}.json")
    try:
        os.makedirs(where, exist_ok=True)
        write_whole(path, json.dumps(doc).encode("utf-8", "surrogatepass"))
    except (OSError, WriteError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"no window kept for it in {where} ({why}): what it writes later is not recorded"
    if not turn_end:
        return (
            "it runs in the background: its window stays open until the next hook event of "
            "this session, which records what changed in the work tree as its write and "
            "closes it (no end-of-turn event is wired: a later write is not recorded)"
        )
    return (
        "it runs in the background: its window stays open, and what changes in the work tree "
        "is recorded as its write at each later hook event of this session until the agent's "
        "turn ends"
    )


def tick(
    runtime: str,
    title: str,
    event: RuntimeEvent,
    root: str | None,
    *,
    closing: bool,
    turn_end: bool = True,
) -> list[Moved]:
    """Move every open window of ``event``'s session in the repository of the work tree
    ``root`` (see the module docstring), closing each when ``closing`` (the agent's turn
    ended, or ``turn_end`` is False: the runtime wires no end-of-turn event, so a window
    closes at its first move); what each found, in the windows' order. Nothing outside a
    repository, or for an event that names no session. A window whose move fails in git is
    left as it was. A main work tree whose ``.git`` directory holds no windows directory
    costs no git process (a ``GIT_COMMON_DIR`` elsewhere is then not looked at: its windows
    are not moved).
    """
    if root is None or not event.session_id:
        return []
    plain = os.path.join(root, ".git", STATE_DIR, agent_shell.SHELL_DIR, WINDOW_DIR)
    if os.path.isdir(os.path.join(root, ".git")) and not os.path.isdir(plain):
        return []  # a main work tree with no window kept: no git process at all
    try:
        where = _dir(root)
    except GitError:
        return []
    prefix = _prefix(runtime, event.session_id)
    if not os.path.isdir(where):
        return []
    out: list[Moved] = []
    with _locked(os.path.join(where, prefix + "lock")):
        for path in _listed(where, prefix):
            with contextlib.suppress(GitError, GentleError):
                moved = _move(runtime, title, event, root, path, closing, turn_end)
                if moved is not None:
                    out.append(moved)
    return out


def _move(
    runtime: str,
    title: str,
    event: RuntimeEvent,
    root: str,
    path: str,
    closing: bool,
    turn_end: bool,
) -> Moved | None:
    """Move (or close) the window in ``path``: see :func:`tick`."""
    doc = _read(path)
    if doc is None:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    uid = os.path.basename(path).rsplit(".", 2)[-2]
    n = doc["n"]
    assert isinstance(n, int)
    tool = f"background {doc.get('tool') or 'shell'}"
    own = replace(
        event,
        model=_text(doc.get("model")),
        effort=_text(doc.get("effort")),
        agent=_text(doc.get("agent")),
        cwd=_text(doc.get("cwd")) or event.cwd,
        tool=tool,
        lifecycle=None,
    )
    if not closing:  # the next window first: a write during this compare is not lost
        agent_shell.before(runtime, title, _marker(own, uid, n + 1, SHELL_BEFORE), root)
    done, starts, why = agent_shell.after(runtime, title, _marker(own, uid, n, SHELL_AFTER), root)
    if closing:
        with contextlib.suppress(OSError):
            os.unlink(path)
    else:
        with contextlib.suppress(OSError, WriteError):
            write_whole(path, json.dumps({**doc, "n": n + 1}).encode("utf-8", "surrogatepass"))
    call = f"{doc['call']}@bg{n}"
    said = (
        f"the {tool} call of {title} ({doc['call']}) left a process running: what changed in "
        "the work tree since the last hook event of this session is recorded as its write "
        "(a person's edit made meanwhile too: the agent's turn had not ended)"
    )
    if closing and turn_end:
        said += "; the agent's turn ended: its window is closed, later changes are not its"
    elif closing:
        said += (
            f"; {title} wires no end-of-turn event: its window is closed at this event, "
            "later changes are not its"
        )
    done = replace(done, tool_call_id=call, notes=(*done.notes, said) if why is None else ())
    return Moved(done, dict(starts), why)


def _read(path: str) -> dict[str, object] | None:
    """The window file ``path`` (None: unreadable, not ours, or older than
    :data:`.shell_files.MAX_AGE` seconds)."""
    try:
        if time.time() - os.lstat(path).st_mtime > MAX_AGE:
            return None
        with open(path, "rb") as fh:
            doc = json.loads(fh.read(_MAX_FILE))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("call"), str):
        return None
    if type(doc.get("n")) is not int or doc["n"] < 1:
        return None
    return doc


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _listed(where: str, prefix: str) -> list[str]:
    """The window files of ``prefix`` in ``where``, sorted."""
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return []
    return [os.path.join(where, n) for n in names if n.startswith(prefix) and n.endswith(".json")]


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (made when absent); without one (the file
    cannot be opened) the moves run unlocked: a duplicate move records under the same id."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
