"""Background windows in every repository a shell command names: a submodule, a nested
repository, or the repository below a session opened above it (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md, "A command that runs in the background").

Room ``services``. A background call's window (:mod:`.agent_windows`) is opened in each work
tree whose snapshot its foreground compare keeps (:func:`.agent_above.trees_named`: the
session's own, then each other repository the command names; from above, each it names), and
kept in that repository, where its commit gate settles it (:mod:`.agent_window_settle`). The
session's later hook events name none of those other repositories, so each is linked: one
file per session, ``<runtime>.<hash of session>.links`` (the work tree roots, one a line),
beside the session's own windows (``<common dir>/gentle-hooks/shell/windows/``), or, for a
session in no work tree, under ``$XDG_STATE_HOME/gentle-hooks/windows/`` (else
``~/.local/state``). :func:`tick` moves the session's own windows and those of each linked
work tree, as :func:`.agent_windows.tick` moves them, and drops a link whose work tree holds
no window of the session any more. A window whose link cannot be written is not kept (its
line says so): no later event would move or close it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.ledger.location import STATE_DIR
from gentle_hooks.services import agent_above, agent_leftover, agent_shell, agent_windows
from gentle_hooks.services.agent_windows import WINDOW_DIR, Moved

#: The most work trees one session links (:data:`.agent_above.MOST_TREES` a call).
MAX_LINKS = 64
#: Largest links file read back (bytes).
_MAX_FILE = 64 * 1024


def opened(
    runtime: str, title: str, event: RuntimeEvent, root: str | None, cwd: str | None
) -> list[tuple[str, str, float | None]]:
    """Open a window (:func:`.agent_windows.open_window`) for ``event``'s background call in
    each work tree :func:`.agent_above.trees_named` gives (``root``, the session's, first);
    ``(work tree, window id, the call's pre-tool time there)`` for each kept. Read before
    the call's compare spends its snapshots. A work tree other than ``root`` that git
    cannot read keeps none.

    Raises:
        GitError: git failed in ``root``.
    """
    out = []
    for tree in agent_above.trees_named(event, cwd, root):
        try:
            uid = agent_windows.open_window(runtime, title, event, tree)
        except GitError:
            if tree == root:
                raise
            continue
        if uid is not None:
            out.append((tree, uid, agent_leftover.call_time(runtime, event, tree)))
    return out


def register(
    runtime: str,
    windows: list[tuple[str, str, float | None]],
    event: RuntimeEvent,
    root: str | None,
    env: Mapping[str, str],
    *,
    turn_end: bool,
) -> str:
    """Keep each window :func:`opened` gave (:func:`.agent_windows.register`), a work tree
    other than ``root`` linked first; the lines said, joined.

    Raises:
        GitError: git failed.
    """
    said = []
    for tree, uid, since in windows:
        if tree == root:
            said.append(
                agent_windows.register(runtime, uid, event, tree, turn_end=turn_end, since=since)
            )
            continue
        why = _link(_links_file(runtime, event.session_id, root, env), tree)
        line = (
            f"no window kept ({why}): what it writes there later is not recorded"
            if why is not None
            else agent_windows.register(runtime, uid, event, tree, turn_end=turn_end, since=since)
        )
        said.append(f"in the repository {tree}, which the command names: {line}")
    return "; ".join(said)


def tick(
    runtime: str,
    title: str,
    event: RuntimeEvent,
    root: str | None,
    env: Mapping[str, str],
    *,
    closing: bool,
    turn_end: bool = True,
    grace: float = 0.0,
) -> list[Moved]:
    """:func:`.agent_windows.tick` in the work tree ``root`` (None: none) and in each work
    tree the session linked; what each move found, the session's own first. Nothing more
    than :func:`.agent_windows.tick` costs when no links file is kept."""
    out = agent_windows.tick(
        runtime, title, event, root, closing=closing, turn_end=turn_end, grace=grace
    )
    if not event.session_id:
        return out
    try:
        path = _links_file(runtime, event.session_id, root, env, look=True)
    except GitError:
        return out
    if path is None or not os.path.isfile(path):
        return out
    kept: list[str] = []
    with contextlib.suppress(OSError), _locked(path) as fd:
        trees = _read(fd)
        for tree in trees:
            if tree != root:  # this event's own work tree was moved above already
                with contextlib.suppress(GentleError, GitError):
                    out += agent_windows.tick(
                        runtime, title, event, tree, closing=closing, turn_end=turn_end, grace=grace
                    )
            if _has_windows(runtime, event.session_id, tree):
                kept.append(tree)
        if kept != trees:
            _write(fd, kept)
        if not kept:  # under the lock: a link waiting for it opens the path again
            os.unlink(path)
    return out


def ended(closed: int, kept: int) -> str:
    """What the end of the agent's turn did to the session's windows: ``closed`` of them
    closed, ``kept`` kept open past it for a grace (their own lines say how long)."""
    if closed and kept:
        return (
            f"{closed} background call window(s) closed, {kept} kept open past it: what changes "
            "from now on is recorded only as the kept ones' write, within their grace"
        )
    if closed:
        return (
            f"{closed} background call window(s) closed; what changes from now on is not "
            "recorded as theirs"
        )
    if kept:
        return f"{kept} background call window(s) kept open past it"
    return "no background call's window was open"


def _has_windows(runtime: str, session: str, tree: str) -> bool:
    """Whether the repository of the work tree ``tree`` still keeps a window of ``session``
    (False when git cannot read it: nothing there can be moved)."""
    prefix = agent_windows.prefix(runtime, session)
    try:
        names = os.listdir(agent_windows.windows_dir(tree))
    except (OSError, GitError):
        return False
    return any(n.startswith(prefix) and n.endswith(".json") for n in names)


def _links_file(
    runtime: str, session: str | None, root: str | None, env: Mapping[str, str], look: bool = False
) -> str | None:
    """The links file of ``session`` (see the module docstring); None when there is no place
    for it (no ``XDG_STATE_HOME`` or ``HOME`` that is an absolute path), or, with ``look``,
    when ``root``'s main ``.git`` directory keeps no windows directory. A main work tree
    costs no git process; a linked worktree, a submodule, one ``git rev-parse``.

    Raises:
        GitError: git cannot read ``root``.
    """
    name = agent_windows.prefix(runtime, session) + "links"
    if root is not None:
        if os.path.isdir(os.path.join(root, ".git")):  # a main work tree: no git process
            plain = os.path.join(root, ".git", STATE_DIR, agent_shell.SHELL_DIR, WINDOW_DIR)
            return None if look and not os.path.isdir(plain) else os.path.join(plain, name)
        return os.path.join(agent_windows.windows_dir(root), name)
    state = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):
        home = env.get("HOME", "")
        state = os.path.join(home, ".local", "state") if os.path.isabs(home) else ""
    return os.path.join(state, "gentle-hooks", "windows", name) if state else None


def _link(path: str | None, tree: str) -> str | None:
    """Add the work tree ``tree`` to the links file ``path``; None, or why it could not."""
    if path is None:
        return "no XDG_STATE_HOME or HOME to keep its link in"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with _locked(path) as fd:
            trees = _read(fd)
            if tree not in trees:
                if len(trees) >= MAX_LINKS:
                    return f"this session links {MAX_LINKS} work trees already"
                _write(fd, [*trees, tree])
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None


def _read(fd: int) -> list[str]:
    """The work trees of the links file open as ``fd`` (absolute paths, each once)."""
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, _MAX_FILE).decode("utf-8", "surrogateescape")
    return list(dict.fromkeys(t for t in text.split("\n") if os.path.isabs(t)))


def _write(fd: int, trees: list[str]) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    os.write(fd, "".join(f"{t}\n" for t in trees).encode("utf-8", "surrogateescape"))


@contextlib.contextmanager
def _locked(path: str) -> Iterator[int]:
    """The links file ``path`` (made when absent) open and held by an exclusive ``flock``.

    Raises:
        OSError: it cannot be opened.
    """
    import fcntl

    for _ in range(8):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)  # removed (its last link dropped) while we waited: open it again
    else:
        raise OSError(f"{path} keeps being removed")
    try:
        yield fd
    finally:
        os.close(fd)
