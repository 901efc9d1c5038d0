"""Background shell calls: a call whose process writes after its post-tool event keeps its
snapshot open as a window of the session until the agent's turn ends (SPEC §3 "Attribution
follows content", §7 "Hooks"; docs/agents/claude-code.md, "A command that runs in the
background").

Room ``services``. A call the runtime runs in the background, or whose command leaves a
process behind (:attr:`gentle_hooks.agents.event.RuntimeEvent.background`), returns before
that process wrote: its post-tool event compares as any shell call's does
(:mod:`.agent_shell`), and :func:`open_window` keeps a second snapshot, taken before that
compare, as the call's window (in each repository the command names too, a submodule, a
nested repository, the one below a session opened above it: :mod:`.agent_window_links`). At
every later hook event of the same session (:func:`tick`, in each of those repositories:
before the event's own snapshot or record) each open window is moved: a new snapshot is
taken first, then the window's is compared with the work tree, and what changed since is
recorded as the background call's write, under its tool call id followed by ``@bg<n>``
(``n`` counts the moves), so a replayed event, or a move repeated after a crash, records
once. Taking the new snapshot first loses no write made during the
compare: such a write is recorded by this move and measured again by the next (the same
writer). The end of the agent's turn (Claude Code's ``Stop``:
:data:`gentle_hooks.agents.event.SHELL_END`) moves each window one last time and closes it:
what the process writes after that, and a person's edits after it, are not recorded; unless
a process the call left still runs in one of the repository's work trees (``/proc``, from
the call's pre-tool time kept in the window file: :func:`tick`), when the window stays open
for the grace below instead. A
runtime that wires no end-of-turn event (``Wiring.turn_end`` is None) closes each window
at its first move, the session's next hook event: what the process writes after it is not
recorded. A
person's edits during the turn, while a window is open, count as the writer's, as during a
long foreground call.

A window kept past the end of the turn (:mod:`.agent_unreported`: a process Codex left
running with no post-tool event sent; or a window :func:`tick` kept at the end of the turn)
has a deadline (``until``: the end of the turn plus :func:`grace`, a wall time).
A move at or before it records what changed, as above. A move after it closes the window,
and of what changed it records only the paths whose ``lstat`` shows their last change
(the later of ``st_mtime`` and ``st_ctime``, which no ``touch`` or copy sets back) at or
before the deadline: a path changed later (a person's save while a watcher runs), or gone
(when is unknown), is not the process's and is left out, and a line names them. A person's
edit made within the grace counts as the writer's; so does the whole of a file the process
changed within it that a person changes again later (left out: the later change wins).

One JSON file per window under ``<common dir>/gentle-hooks/shell/windows/``
(``<runtime>.<hash of session>.<window id>.json``: the call id, the move count, the
session, the writer's model, effort and subagent as the call's post-tool event named them,
the tool; :mod:`.agent_window_settle` moves them from a gate);
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
from collections.abc import Iterator, Mapping

from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, RuntimeEvent, derived_call_id
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.services import agent_leftover, agent_shell
from gentle_hooks.services.shell_files import MAX_AGE
from gentle_hooks.values.frozen import frozen, replace

#: The directory of the windows, under the shell snapshots' directory.
WINDOW_DIR = "windows"
#: The most open windows one session keeps; a background call past it gets none (its line
#: says so).
MAX_WINDOWS = 32
#: Largest window file read back (bytes).
_MAX_FILE = 64 * 1024
#: The environment variable that sets :func:`grace`.
GRACE_VAR = "GENTLE_HOOKS_BACKGROUND_GRACE"
#: The seconds a window stays open past the end of the turn, unless :data:`GRACE_VAR` says.
GRACE = 10.0
#: The largest grace :data:`GRACE_VAR` may set (seconds).
MAX_GRACE = 600.0


@frozen
class Moved:
    """What one window's move found.

    Attributes:
        event: the background call's write (``paths``, ``writes``) under its ``@bg<n>`` id,
            to be recorded with ``starts``; or, with nothing to record, the event and
            ``why`` (None when it recorded).
        starts: as :func:`.agent_shell.after` gives them.
        kept: at the end of the turn, the line saying the window stays open past it for a
            grace (a process the call left still runs; for a call that sent no post-tool
            event, :mod:`.agent_unreported`, its whole line), else None.
    """

    event: RuntimeEvent
    starts: dict[str, str | None]
    why: str | None
    kept: str | None = None


def grace(env: Mapping[str, str]) -> tuple[float, str | None]:
    """The seconds a window kept past the end of the turn stays open (:data:`GRACE_VAR`,
    a number from 0 to :data:`MAX_GRACE`; unset or empty: :data:`GRACE`), and the line that
    says a given value is not one (then :data:`GRACE` is used: refusing would lose the end
    of the turn's record)."""
    given = env.get(GRACE_VAR, "").strip()
    if not given:
        return GRACE, None
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= MAX_GRACE:  # NaN too
        shown = given if len(given) <= 40 else given[:37] + "..."
        return GRACE, (
            f"{GRACE_VAR}: {shown!r} is not seconds (0 to {MAX_GRACE:g}): {GRACE:g} s used"
        )
    return seconds, None


def windows_dir(root: str) -> str:
    """The windows directory of the repository whose work tree is ``root``."""
    common = Repository.open(root).paths.common_dir
    return os.path.join(common, STATE_DIR, agent_shell.SHELL_DIR, WINDOW_DIR)


def prefix(runtime: str, session: str | None) -> str:
    """The name every window file (and lock) of ``runtime``'s ``session`` starts with."""
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
    where = windows_dir(root)
    if len(_listed(where, prefix(runtime, event.session_id))) >= MAX_WINDOWS:
        return None
    uid = secrets.token_hex(8)
    try:
        agent_shell.before(runtime, title, _marker(event, uid, 1, SHELL_BEFORE), root)
    except GentleError:
        return None
    return uid


def register(
    runtime: str,
    uid: str,
    event: RuntimeEvent,
    root: str,
    *,
    turn_end: bool = True,
    grace: float | None = None,
    since: float | None = None,
) -> str:
    """Keep window ``uid`` (:func:`open_window`) for ``event``, the background call as its
    post-tool compare left it; returns the line said (the window is open, or why not).
    ``turn_end``: the runtime's end-of-turn event is wired (else the window closes at the
    session's next hook event: :func:`tick` with ``closing``). ``grace``: the seconds a
    window kept past the end of the turn stays open from now (:func:`grace`; its deadline:
    see the module docstring). ``since``: when the call's pre-tool snapshot was written (a
    wall time), kept so the end of the turn can tell whether a process the call left still
    runs (:func:`tick`).

    Raises:
        GitError: git failed.
    """
    call = event.tool_call_id or ""
    if event.shell_key is not None:  # the runtime names no call id: this run's own
        call = derived_call_id(call, uid)
    doc = {
        "call": call,
        "n": 1,
        "session": event.session_id,
        "tool": event.tool,
        "model": event.model,
        "effort": event.effort,
        "agent": event.agent,
        "cwd": event.cwd,
        **({"until": time.time() + grace, "grace": grace} if grace is not None else {}),
        **({"since": since} if since is not None else {}),
    }
    where = windows_dir(root)
    path = os.path.join(where, f"{prefix(runtime, event.session_id)}{uid}.json")
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
    grace: float = 0.0,
) -> list[Moved]:
    """Move every open window of ``event``'s session in the repository of the work tree
    ``root`` (see the module docstring), closing each when ``closing`` (the agent's turn
    ended, or ``turn_end`` is False: the runtime wires no end-of-turn event, so a window
    closes at its first move); what each found, in the windows' order. At the end of the
    turn (``closing`` with ``turn_end``) a window with no deadline whose call left a process
    still running in one of the repository's work trees, seen in ``/proc``
    (:func:`.agent_leftover.still_running`, from the call's pre-tool time), is not closed:
    it is moved and stays open for ``grace`` seconds more (:func:`grace`; 0: none), as a
    call that sent no post-tool event does (:mod:`.agent_unreported`), and its
    :attr:`Moved.kept` says so. Nothing outside a
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
        where = windows_dir(root)
    except GitError:
        return []
    start = prefix(runtime, event.session_id)
    if not os.path.isdir(where):
        return []
    out: list[Moved] = []
    with _locked(os.path.join(where, start + "lock")):
        for path in _listed(where, start):
            with contextlib.suppress(GitError, GentleError):
                moved = _move(runtime, title, event, root, path, closing, turn_end, grace)
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
    grace: float = 0.0,
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
    given = doc.get("until")
    until = float(given) if isinstance(given, (int, float)) and given is not True else None
    late = until is not None and time.time() > until
    kept = None
    if closing and turn_end and until is None and grace > 0:
        # the turn ended while a process the call left still runs: what it writes within
        # the grace is its write, not a person's commit (r17t finding 2)
        who = f"the {tool} call of {title} ({doc['call']})"
        kept = _still_running(who, root, doc.get("since"), doc.get("cwd"))
        if kept is not None:
            closing = False
            doc = {**doc, "until": time.time() + grace, "grace": grace}
    closing = closing or late  # its grace is over: nothing later can be the process's
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
    if until is not None:
        said = (
            f"the {tool} call of {title} ({doc['call']}) left a process running past the end "
            "of the agent's turn: what changed in the work tree within its grace is recorded "
            "as its write (a person's edit made within it too)"
        )
    if late and why is None:
        assert until is not None
        done, starts, left = _by_deadline(done, starts, until)
        secs = doc.get("grace")
        secs = f"{secs:g} s" if isinstance(secs, (int, float)) else "its grace"
        if left:
            said += (
                f"; not its, changed later than {secs} after the end of the agent's turn "
                f"(a person's edit while it ran, or gone): {', '.join(left)}"
            )
        if not done.paths:
            why = f"{said}: nothing it changed is left to record"
        said += "; its grace is over: its window is closed, later changes are not its"
    elif kept is not None:
        kept += (
            f": its window stays open past the end of the turn for {grace:g} s, what changes "
            "within that is recorded as its write at this session's next hook events, and "
            "what changes later (a person's edit while it runs) is not its"
        )
        said += f"; {kept}"
    elif closing and turn_end:
        said += "; the agent's turn ended: its window is closed, later changes are not its"
    elif closing:
        said += (
            f"; {title} wires no end-of-turn event: its window is closed at this event, "
            "later changes are not its"
        )
    done = replace(done, tool_call_id=call, notes=(*done.notes, said) if why is None else ())
    return Moved(done, starts, why, kept)


def _still_running(who: str, root: str, since: object, cwd: object) -> str | None:
    """:func:`.agent_leftover.still_running` of the window's call ``who`` names, whose
    pre-tool time is ``since`` (None when the window file names none: a window kept before
    it was), its process looked for in the call's directory ``cwd`` too (a call run from
    the outer repository, or from above, that writes into the repository of ``root``)."""
    if not isinstance(since, (int, float)) or since is True:
        return None
    also = (cwd,) if isinstance(cwd, str) and os.path.isabs(cwd) else ()
    return agent_leftover.still_running(who, root, float(since), also)


def _by_deadline(
    done: RuntimeEvent, starts: dict[str, str | None], until: float
) -> tuple[RuntimeEvent, dict[str, str | None], list[str]]:
    """``done`` and ``starts`` kept to the paths whose last change (the later of ``lstat``'s
    ``st_mtime`` and ``st_ctime``) is at or before the wall time ``until``; the others (and
    the paths gone: when is unknown), as the work tree names them, are the third value."""
    kept: list[str] = []
    left: list[str] = []
    for p in done.paths:
        try:
            st = os.lstat(p)
        except OSError:
            left.append(p)
            continue
        (kept if max(st.st_mtime, st.st_ctime) <= until else left).append(p)
    if not left:
        return done, starts, []
    ours = agent_shell.Starts({k: v for k, v in starts.items() if k in kept})
    if isinstance(starts, agent_shell.Starts):  # what it left in commits, of those paths
        ours.committed = {k: v for k, v in starts.committed.items() if k in kept}
    base = os.path.realpath(done.cwd) + os.sep if done.cwd else None
    shown = [p[len(base) :] if base and p.startswith(base) else p for p in left]
    return replace(done, paths=tuple(kept)), ours, shown


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


def _listed(where: str, start: str) -> list[str]:
    """The window files in ``where`` whose name starts with ``start``, sorted."""
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return []
    return [os.path.join(where, n) for n in names if n.startswith(start) and n.endswith(".json")]


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
