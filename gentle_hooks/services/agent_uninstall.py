"""``uninstall --agent NAME``: our entries out of a runtime's configuration, every other byte
kept (SPEC §7 "Hooks"; docs/agents/).

Room ``services``. A file ``install`` wrote whole gets back what it held: one it created is
removed (with the directories it created, when they are left empty), one that was empty or
blank gets those bytes back (:func:`gentle_hooks.services.agent_install.fresh_text`); any
other file is edited in place. A file that holds only ours (``own_file``) is removed. A file
that existed before install, and the empty containers it held then, stay
(:mod:`gentle_hooks.services.agent_kept`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping

from gentle_hooks.agents import jsonedit, wiring
from gentle_hooks.agents.runtimes import Runtime, record_command, runtime
from gentle_hooks.bounded import write_whole
from gentle_hooks.services import agent_kept
from gentle_hooks.services.agent_dirs import prune, refuse_project_link
from gentle_hooks.services.agent_file import target, uninstall_file
from gentle_hooks.services.agent_install import (
    AgentChange,
    config_path,
    link_note,
    load_for_edit,
    locations,
    shadowed,
    toml_placements,
    wiring_of,
    write_config,
    write_target,
)


def blank_before(text: str, doc: Mapping[str, object]) -> tuple[bool, str] | None:
    """What a file held before install wrote it whole (:func:`fresh_text`), when ``text``
    is still exactly what install wrote for ``doc``: ``(True, "")`` when install created
    it, ``(False, blank)`` when it held only the whitespace ``blank``; None when ``text``
    is anything else (the user's file, edited in place)."""
    dumped = jsonedit.dump(doc)
    if text == dumped:
        return True, ""
    rest = text[len(dumped) + 1 :]
    if text.startswith("\n" + dumped) and not rest.strip():
        return False, rest
    return None


def _remove_from(rt: Runtime, scope: str, path: str, primary: bool) -> AgentChange | None:
    """Remove our entries from one file; what was done (None for another documented file
    that holds none of ours: it is not ours to mention)."""
    assert rt.wiring is not None
    w = rt.wiring
    loaded = load_for_edit(path, w)
    if loaded is None:
        return AgentChange(rt.name, scope, path, "nothing to remove") if primary else None
    new, removed = wiring.remove(loaded.doc, rt)
    if not removed:
        return AgentChange(rt.name, scope, path, "nothing to remove") if primary else None
    # what the file held before install (it existed; containers it held empty) comes back
    existed, empty = agent_kept.recall(path)
    new = agent_kept.restore(new, empty)
    agent_kept.forget(path)
    emptied = primary and wiring.is_empty(new, w)
    if emptied and not existed and w.own_file and not os.path.islink(path):
        os.unlink(path)
        prune(path, (w.project if scope == "project" else w.user) or "")
        return AgentChange(rt.name, scope, path, "removed the file")
    # a standalone hooks file holds the bare event map our loaded document wraps
    written = loaded.doc.get("hooks", {}) if loaded.bare else loaded.doc
    before = (
        blank_before(loaded.text, written if isinstance(written, dict) else {})
        if emptied and _as_installed(loaded.doc, rt)
        else None
    )
    if before is not None:
        # the file holds nothing but what install wrote whole: give back what was there
        created, blank = before
        if created and not existed and not os.path.islink(path):
            os.unlink(path)
            prune(path, (w.project if scope == "project" else w.user) or "")
            return AgentChange(rt.name, scope, path, "removed the file (install created it)")
        if not created:
            write_whole(write_target(path), blank.encode("utf-8"))
            what = "removed our hook" if removed == 1 else f"removed our {removed} hooks"
            return AgentChange(rt.name, scope, path, what, notes=link_note(path))
    write_config(path, loaded, new, w, rt.doc)
    what = "removed our hook" if removed == 1 else f"removed our {removed} hooks"
    return AgentChange(rt.name, scope, path, what, notes=link_note(path))


def _as_installed(doc: dict[str, object], rt: Runtime) -> bool:
    """``doc`` is exactly what ``install`` writes into a new file: one entry of ours, its
    command ``<gentle-hook> record --from NAME`` with no prefix or flag of the user's (or
    the path of our script, for a runtime whose entry names one)."""
    running = wiring.commands(doc, rt)
    if len(running) != 1:
        return False
    assert rt.wiring is not None
    if rt.wiring.names_script(running[0]):
        return wiring.add({}, rt, running[0])[0] == doc
    tail = " " + record_command(rt.name, "").strip()
    call = wiring.unguarded(running[0])  # the form install writes for a guarded runtime
    program = call[: -len(tail)] if call.endswith(tail) else ""
    try:
        words = shlex.split(program)
    except ValueError:
        return False
    return (
        len(words) == 1
        and os.path.basename(words[0]) == "gentle-hook"
        and wiring.add({}, rt, running[0])[0] == doc
    )


def uninstall_agent(
    name: str, scopes: tuple[str, ...], root: str | None, env: Mapping[str, str]
) -> list[AgentChange]:
    """Remove our entries of runtime ``name`` from its configuration in each scope; every
    other entry stays. A file that holds only ours (``own_file``) is removed, and so is the
    script our entry named (``Wiring.script``) when it is as install wrote it.

    Raises:
        UsageError: a runtime without a hook point; a file that is not plain JSON; a
            project file reached through a symbolic link (nothing is changed then).
    """
    rt = runtime(name)
    w = wiring_of(rt)
    if "project" in scopes and root is not None:
        # before any scope changes: nothing is removed or rewritten through a link that
        # leads out of the repository
        files = [config_path(w, "project", root, env)] if w.shape == "file" else []
        for path in files or [
            *locations(w, "project", root, env),
            *shadowed(w, "project", root, env),
            *([target(w, "project", root, env)[0]] if w.script else []),
        ]:
            refuse_project_link(path, "project", root)
    out = []
    for scope in scopes:
        if scope == "project" and root is None:
            continue
        if w.shape == "file":
            if scope == "project" or w.user is not None:  # no user file: nothing to remove
                out.append(uninstall_file(rt, scope, root, env))
            continue
        for n, path in enumerate(locations(w, scope, root, env)):
            change = _remove_from(rt, scope, path, primary=n == 0)
            if change is not None:
                out.append(change)
        # ours left in a settings file a standalone hooks file shadows goes too
        for path in shadowed(w, scope, root, env):
            change = _remove_from(rt, scope, path, primary=False)
            if change is not None:
                out.append(change)
        out += [
            AgentChange(rt.name, scope, path, "left in place (TOML: remove it by hand)", command)
            for path, command in dict(toml_placements(rt, scope, root, env)).items()
        ]
        if w.script is not None:  # the script our entry named goes with it
            script = uninstall_file(rt, scope, root, env)
            out += [script] if script.what != "nothing to remove" else []
    return out
