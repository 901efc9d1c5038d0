"""``install``/``uninstall --agent`` and ``doctor`` for a runtime whose hook is a file we own
whole (:mod:`gentle_hooks.agents.ownfile`: Cline's ``PostToolUse`` script, OpenCode's plugin
module, Pi's extension, Kiro's hooks file; SPEC §7 "Hooks").

Room ``services``. The file is the configuration path of the runtime's row in the scope
(:func:`gentle_hooks.services.agent_install.config_path`):

* absent: written (its folders created), with the row's mode (executable for a script);
* ours as written: unchanged, or rewritten when its ``gentle-hook`` must be retargeted
  (the forms install writes itself, or a program that is not there), its mode lost the
  executable bit, or it is the text a former version wrote (it gets the current text);
* ours but edited since, or the user's own file of that name: never written; install
  fails (exit 2), saying what to do instead, unless the user's file already runs our
  recorder (then it counts as wired and is left as it is);
* uninstall removes only a file of ours as written (and the folders install created, when
  they are left empty); a file of ours edited since, or the user's, stays.
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Mapping

from gentle_hooks.agents import ownfile, wiring
from gentle_hooks.agents.payload import read_file
from gentle_hooks.agents.runtimes import Runtime, Wiring, record_command
from gentle_hooks.bounded import write_whole
from gentle_hooks.errors import UsageError
from gentle_hooks.services.agent_dirs import make_parents, prune, refuse_project_link
from gentle_hooks.services.agent_install import (
    AgentChange,
    config_path,
    installed_path,
    program_for,
    scoped_path,
)
from gentle_hooks.services.agent_reach import not_current, reach


def _advice(rt: Runtime, path: str, command: str) -> str:
    """What to do with a file of that name that is the user's."""
    if rt.wiring is not None and rt.wiring.file_mode & stat.S_IXUSR:
        return (
            f"to record, add this line to it after it reads its input into $input "
            f"(and before it prints its JSON): printf '%s' \"$input\" | {command} >&2"
        )
    return f"rename it, or add our hook by hand as {rt.doc} shows"


def read_text(path: str) -> str | None:
    """The text of the hook file at ``path``; None when there is none.

    Raises:
        UsageError: it exists but is not a readable regular file of UTF-8 text.
    """
    if not os.path.lexists(path):
        return None
    if os.path.islink(path) or not os.path.isfile(path):
        raise UsageError(f"{path}: not a regular file; nothing was changed")
    data = read_file(path)
    if data is None:
        raise UsageError(f"{path}: not a readable regular file; nothing was changed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; nothing was changed") from None


def _runs(path: str, mode: int) -> bool:
    """The runtime can run the file: a script must be executable, a module need not be."""
    return not (mode & stat.S_IXUSR) or os.access(path, os.X_OK)


#: The mode of a script of ours a settings entry names (:attr:`Wiring.script`).
SCRIPT_MODE = 0o755


def target(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> tuple[str, int, str]:
    """(path, mode, path relative as :attr:`Wiring.project`/:attr:`Wiring.user`) of the
    file of ours in ``scope``: the row's script (:attr:`Wiring.script`) when it has one,
    else its configuration file.

    Raises:
        UsageError: project scope outside a work tree.
    """
    if w.script is not None:
        if scope == "project" and root is None:
            raise UsageError("--scope project needs a git work tree: run it inside one")
        return scoped_path(w, scope, w.script, root, env), SCRIPT_MODE, w.script
    rel = (w.project if scope == "project" else w.user) or ""
    return config_path(w, scope, root, env), w.file_mode, rel


def _write(path: str, text: str, mode: int) -> None:
    make_parents(path)
    write_whole(path, text.encode("utf-8"), mode)


def install_file(rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]) -> AgentChange:
    """Write runtime ``rt``'s hook file in ``scope`` (the module docstring's rules).

    Raises:
        UsageError: the file there is the user's or was edited since install; it is not a
            regular file of text; project scope outside a work tree.
    """
    assert rt.wiring is not None
    w = rt.wiring
    path, mode, _ = target(w, scope, root, env)
    refuse_project_link(path, scope, root)
    program, notes = program_for(scope, env)
    command = record_command(rt.name, program)
    scoped = w.notes + (w.project_notes if scope == "project" else ())
    content = read_text(path)
    if content is None:
        _write(path, ownfile.render(rt.name, command), mode)
        return AgentChange(rt.name, scope, path, "added", command, notes + scoped)
    own = ownfile.owned_command(content, rt.name)
    if own is None:
        theirs = ownfile.recorder_lines(content, rt.name)
        if theirs and mode & stat.S_IXUSR:
            note = f"your own hook file runs the recorder ('{theirs[0]}'); it is left as it is"
            return AgentChange(rt.name, scope, path, "unchanged", theirs[0], (note, *scoped))
        raise UsageError(
            f"{path}: a hook file of yours is there; nothing was changed: "
            + _advice(rt, path, command)
        )
    if not ownfile.as_written(content, rt.name):
        raise UsageError(
            f"{path}: our recorder file was edited since it was installed; nothing was "
            f"changed: remove it (your edits with it) and install again, or keep it as it is"
        )
    written = wiring.program_words(own)[1]
    got = reach(own, rt, root, env)
    # a former text names the gentle-hook of the install that wrote it, and so may any
    # other path than the current one: only a current text's own spelling of the current
    # program (a variable, ~, a path that resolves to it) is kept
    keep = (
        ownfile.is_current(content, rt.name)
        and written not in ("gentle-hook", installed_path())
        and got.status != "missing"
        and not_current(got, env) is None
    )
    new = own if keep else wiring.retarget(own, program)
    changes: tuple[str, ...] = ()
    if new != own:
        changes += (f"its gentle-hook changed: '{own}' -> '{new}'",)
    if not ownfile.is_current(content, rt.name):
        changes += ("it was the text of a former gentle-hooks: it is now the current one",)
    if not _runs(path, mode):
        changes += ("it was not executable: it is now",)
    if not changes:
        return AgentChange(rt.name, scope, path, "unchanged", own, notes + scoped)
    _write(path, ownfile.render(rt.name, new), mode)
    return AgentChange(rt.name, scope, path, "updated", new, changes + notes + scoped)


def uninstall_file(
    rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]
) -> AgentChange:
    """Remove runtime ``rt``'s hook file of ``scope`` when it is ours as written.

    Raises:
        UsageError: the file there is not a regular file of text.
    """
    assert rt.wiring is not None
    path, _, rel = target(rt.wiring, scope, root, env)
    content = read_text(path)
    if content is None:
        return AgentChange(rt.name, scope, path, "nothing to remove")
    own = ownfile.owned_command(content, rt.name)
    if own is None:
        theirs = ownfile.recorder_lines(content, rt.name)
        what = (
            "left in place (your own hook file: remove the recorder line by hand)"
            if theirs
            else "nothing to remove"
        )
        return AgentChange(rt.name, scope, path, what, theirs[0] if theirs else None)
    if not ownfile.as_written(content, rt.name):
        return AgentChange(
            rt.name, scope, path, "left in place (edited since it was installed: remove it by hand)"
        )
    os.unlink(path)
    prune(path, rel)
    return AgentChange(rt.name, scope, path, "removed the file", own)


def file_placements(
    rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]
) -> tuple[str, list[str], str | None]:
    """(the file, the recorder commands it runs, why the runtime cannot run it or None)
    for ``doctor``; no commands when there is no file or it runs none.

    Raises:
        UsageError: the file there is not a regular file of text.
    """
    assert rt.wiring is not None
    path, mode, _ = target(rt.wiring, scope, root, env)
    return (path, *script_commands(rt, path, mode))


def script_commands(
    rt: Runtime, path: str, mode: int = SCRIPT_MODE
) -> tuple[list[str], str | None]:
    """(the recorder commands the file of ours at ``path`` runs, why the runtime cannot run
    it, or record its shell tool through it (a former text of ours that lacks the runtime's
    :attr:`~gentle_hooks.agents.runtime_rows.Wiring.shell_event` handler), or None); no
    commands when there is no file or it runs none.

    Raises:
        UsageError: the file there is not a regular file of text.
    """
    content = read_text(path)
    if content is None:
        return [], None
    own = ownfile.owned_command(content, rt.name)
    commands = [own] if own is not None else ownfile.recorder_lines(content, rt.name)
    if commands and not _runs(path, mode):
        return commands, f"{path} is not executable: the runtime does not run it"
    w = rt.wiring
    if own is None or w is None or not w.shell_event:
        return commands, None
    lacks = ownfile.FORMER_LACKS.get(rt.name, f"{w.shell_event} handler")
    if not ownfile.as_written(content, rt.name):
        if ownfile.hands_shell(content, rt.name):
            return commands, None
        # a text of ours edited by hand (a former one, say) that hands the shell tool over
        # no more: install refuses to write over it, so it is removed first
        return commands, (
            f"{path} is a gentle-hooks text edited since it was installed, with no {lacks}: "
            "what a shell command changes is not recorded; remove it (your edits with it) "
            "and install the recorder again"
        )
    if not ownfile.is_current(content, rt.name):
        # a former text of ours (Pi's before it handled tool_call): its shell tool unrecorded
        return commands, (
            f"{path} is a former gentle-hooks text with no {lacks}: what a shell command "
            "changes is not recorded; install the recorder again"
        )
    return commands, None


def named_script(
    rt: Runtime, command: str, own: str | None = None
) -> tuple[str | None, str | None]:
    """(the recorder command, None) of the script of ours an entry's ``command`` names
    (:meth:`~gentle_hooks.agents.runtime_rows.Wiring.names_script`), or (None, why the
    runtime cannot record through it: it is not there, not ours, not a regular file of
    text, or not executable) for ``doctor``. ``own``: the path of this checkout's script,
    when the entry stands in a file of its work tree: a missing script at another path is
    then said to be another checkout's (a settings file shared through the repository names
    the checkout that installed it; the runtime runs the path as written)."""
    named = shlex.split(command)[0]
    try:
        commands, cannot = script_commands(rt, named)
    except UsageError as exc:
        return None, f"the script it names is unusable: {exc.message}"
    if cannot is not None:
        return None, cannot
    if not commands:
        gone = not os.path.lexists(named)
        if gone and own is not None and os.path.abspath(named) != os.path.abspath(own):
            return None, (
                f"the script it names, {named}, is not there: that path is another "
                f"checkout's (this one's is {own}); {rt.title} runs the path as written, so "
                "a settings file shared through the repository names the checkout that "
                "installed it"
            )
        return None, f"the script it names, {named}, " + (
            "is not there" if gone else "does not run the recorder"
        )
    return commands[0], None
