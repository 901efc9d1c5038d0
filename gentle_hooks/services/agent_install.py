"""``install --agent NAME`` / ``uninstall --agent NAME``: wire an agent runtime's hook to
``gentle-hook record --from NAME`` in its own configuration file (SPEC §7 "Hooks").

Room ``services``. The document edits are :mod:`gentle_hooks.agents.wiring`'s; this module
finds the file for a scope, reads it within bounds (:mod:`gentle_hooks.agents.payload`),
writes it atomically (a temporary file renamed over it, its mode kept) and says exactly what
changed. A file that is not plain JSON is never rewritten: the user gets the entry to add by
hand instead.

Scopes: ``project`` is the file under the work tree root (shared with the repository's other
users when committed); ``user`` is the file under the home directory (or the runtime's own
home variable, e.g. ``CODEX_HOME``).

The command written is ``gentle-hook record --from NAME``. When no ``gentle-hook`` is on
``PATH``, it is the absolute path of the one beside the running interpreter, so the hook
still finds it; in a project file that path is this machine's, and the install says so
(a later install with ``gentle-hook`` on ``PATH`` puts the plain name back).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Mapping

from gentle_hooks.agents import wiring
from gentle_hooks.agents.payload import load_object, read_file
from gentle_hooks.agents.runtimes import Runtime, Wiring, record_command, runtime
from gentle_hooks.bounded import write_whole
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import field, frozen

SCOPES = ("project", "user")


@frozen
class AgentChange:
    """What install or uninstall did to one file.

    Attributes:
        runtime: the runtime's name; scope: project | user; path: the file;
        what: ``added``, ``updated``, ``unchanged``, ``removed``, ``removed the file``, or
            ``nothing to remove``; command: our hook's command as it stands in the file
            (install: the user's own prefix and flags kept);
        notes: each change made to an entry of ours that was there, then what the user
            must still do, or should know.
    """

    runtime: str
    scope: str
    path: str
    what: str
    command: str | None = None
    notes: tuple[str, ...] = field(default=())


def config_path(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> str:
    """The configuration file of a runtime in a scope.

    Raises:
        UsageError: project scope outside a work tree; user scope for a runtime without one.
    """
    if scope == "project":
        if root is None:
            raise UsageError("--scope project needs a git work tree: run it inside one")
        return os.path.join(root, w.project)
    if w.user is None:
        raise UsageError("this runtime has no user-level configuration: use --scope project")
    base = env.get(w.home_env) if w.home_env else None
    if base:
        return os.path.join(base, *w.user.split("/")[1:])
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, w.user)


def program_for(scope: str, env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """The ``gentle-hook`` the hook runs, and a note when it may not be found or names
    this machine's path in a project file."""
    if shutil.which("gentle-hook", path=env.get("PATH")):
        return "gentle-hook", ()
    beside = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    if not os.access(beside, os.X_OK):
        return "gentle-hook", ("gentle-hook is not on PATH here: the hook fails until it is",)
    if scope == "project":
        return shlex.quote(beside), (
            f"gentle-hook is not on PATH here: the hook runs {beside}, a path of this "
            "machine; put gentle-hook on PATH and install again before you commit the file",
        )
    return shlex.quote(beside), ()


def read_config(path: str) -> dict[str, object] | None:
    """The configuration document at ``path``; None when the file does not exist.

    Raises:
        UsageError: it exists but is not a regular file of plain JSON holding an object.
    """
    if not os.path.lexists(path):
        return None
    data = read_file(path)
    if data is None:
        raise UsageError(f"{path}: not a readable regular file; nothing was changed")
    if not data.strip():
        return {}
    try:
        return load_object(data, path)
    except UsageError as exc:
        raise UsageError(
            f"{exc.message}: nothing was changed (is it JSON with comments?); add our hook by "
            "hand as its doc page shows"
        ) from None


def write_config(path: str, doc: Mapping[str, object]) -> None:
    """Write ``doc`` as indented JSON, atomically, keeping the file's mode."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_whole(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def _wired(rt: Runtime) -> Wiring:
    if rt.wiring is None:
        raise UsageError(f"{rt.title} has no hook point: see {rt.doc}")
    return rt.wiring


def install_agent(name: str, scope: str, root: str | None, env: Mapping[str, str]) -> AgentChange:
    """Wire runtime ``name``'s hook in ``scope``: merge our entry into its configuration
    (created when absent), keep everything else, change nothing when it is there already.

    Raises:
        UsageError: an unknown scope, a runtime without a hook point, a file that is not
            plain JSON or not shaped as documented (nothing is changed then).
    """
    if scope not in SCOPES:
        raise UsageError(f"unknown scope {scope!r}: use project or user")
    rt = runtime(name)
    w = _wired(rt)
    path = config_path(w, scope, root, env)
    program, notes = program_for(scope, env)
    command = record_command(rt.name, program)
    doc = read_config(path)
    try:
        new, what, changes = wiring.add(doc or {}, rt, command)
    except wiring.ShapeError as exc:
        raise UsageError(f"{path}: {exc}; nothing was changed") from None
    if what != "unchanged" or doc is None:
        write_config(path, new)
        what = "added" if doc is None else what
    [running, *_] = wiring.commands(new, rt) or [command]
    return AgentChange(rt.name, scope, path, what, running, changes + notes + w.notes)


def uninstall_agent(
    name: str, scopes: tuple[str, ...], root: str | None, env: Mapping[str, str]
) -> list[AgentChange]:
    """Remove our entries of runtime ``name`` from its configuration in each scope; every
    other entry stays. A file that holds only ours (``own_file``) is removed.

    Raises:
        UsageError: a runtime without a hook point; a file that is not plain JSON.
    """
    rt = runtime(name)
    w = _wired(rt)
    out = []
    for scope in scopes:
        if scope == "project" and root is None:
            continue
        path = config_path(w, scope, root, env)
        doc = read_config(path)
        if doc is None:
            out.append(AgentChange(rt.name, scope, path, "nothing to remove"))
            continue
        new, removed = wiring.remove(doc, rt)
        if not removed:
            out.append(AgentChange(rt.name, scope, path, "nothing to remove"))
        elif w.own_file and wiring.is_empty(new, w):
            os.unlink(path)
            out.append(AgentChange(rt.name, scope, path, "removed the file"))
        else:
            write_config(path, new)
            what = "removed our hook" if removed == 1 else f"removed our {removed} hooks"
            out.append(AgentChange(rt.name, scope, path, what))
    return out
