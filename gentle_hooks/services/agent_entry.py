"""``install --agent NAME`` for a runtime whose hook is an entry in its JSON configuration
(SPEC §7 "Hooks"): merge our entry, keep everything else, say what changed.

Room ``services``. The reading and writing of those files is
:mod:`gentle_hooks.services.agent_install`'s; the document edits are
:mod:`gentle_hooks.agents.wiring`'s.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping

from gentle_hooks.agents import entry_shape, wiring
from gentle_hooks.agents.runtimes import Runtime, record_command, runtime
from gentle_hooks.errors import UsageError
from gentle_hooks.services import agent_codex, agent_kept
from gentle_hooks.services.agent_dirs import prune, refuse_project_link
from gentle_hooks.services.agent_file import install_file
from gentle_hooks.services.agent_install import (
    SCOPES,
    AgentChange,
    Loaded,
    disabled_by,
    installed_path,
    link_note,
    load_for_edit,
    locations,
    program_for,
    read_toml,
    toml_placements,
    wiring_of,
    write_config,
)
from gentle_hooks.services.agent_reach import cd_failure, reach
from gentle_hooks.values.frozen import replace


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
    w = wiring_of(rt)
    # a hook that is a file of ours is agent_file.install_file's (the CLI dispatches)
    assert w.shape != "file", rt.name
    if w.script is not None:
        return _with_script(rt, scope, root, env)
    program, notes = program_for(scope, env)
    return _install_entry(rt, scope, root, env, record_command(rt.name, program, w.guarded), notes)


def _with_script(rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]) -> AgentChange:
    """``install --agent`` of a runtime whose entry names a script of ours
    (:attr:`~gentle_hooks.agents.runtime_rows.Wiring.script`): the script first
    (:func:`~gentle_hooks.services.agent_file.install_file`: executable, never through a
    link out of the repository, never over a file of the user's), then the entry naming its
    absolute path. A script just written is removed again when the entry cannot be (the
    configuration is not the JSON the runtime reads): nothing is changed then.

    Raises:
        UsageError: as :func:`~gentle_hooks.services.agent_file.install_file` and
            :func:`install_agent`.
    """
    assert rt.wiring is not None and rt.wiring.script is not None
    held = _other_checkouts(rt, root, env) if scope == "project" else None
    if held is not None:
        return held
    script = install_file(rt, scope, root, env)
    try:
        change = _install_entry(rt, scope, root, env, shlex.quote(script.path), ())
    except UsageError:
        if script.what == "added":
            os.unlink(script.path)
            prune(script.path, rt.wiring.script)
        raise
    said = f"{script.path}: {script.what}, running '{script.command}'"
    what = "updated" if change.what == "unchanged" and script.what != "unchanged" else change.what
    notes = tuple(dict.fromkeys((said, *script.notes, *change.notes)))
    return replace(change, what=what, notes=notes)


def _other_checkouts(rt: Runtime, root: str | None, env: Mapping[str, str]) -> AgentChange | None:
    """The project file's entry of ours left as it stands, when it names the script of
    another checkout that is there and runs the recorder (a settings file shared through
    the repository names the checkout that installed it, and the runtime hands that script
    this workspace's input, so it records here too): rewriting it to this checkout's path
    would change the shared file for every other checkout. Nothing is written; the change
    says so, with the command that wires this checkout through the user's file instead.
    None when the entry names this checkout's script, names none that runs, or is absent
    (install then proceeds)."""
    from gentle_hooks.errors import cli
    from gentle_hooks.services.agent_file import named_script

    assert rt.wiring is not None and rt.wiring.script is not None and root is not None
    own = os.path.join(root, rt.wiring.script)
    path, loaded = _where_ours(rt, "project", root, env)
    standing = wiring.commands(loaded.doc, rt) if loaded is not None else []
    scripts = [c for c in standing if rt.wiring.names_script(c)]
    if not scripts or len(scripts) != len(standing):
        return None
    named = [shlex.split(c)[0] for c in scripts]
    if any(os.path.realpath(n) == os.path.realpath(own) for n in named):
        return None
    pairs = zip(scripts, named, strict=True)
    running = [(c, n) for c, n in pairs if named_script(rt, c)[0] is not None]
    if not running:
        return None  # another checkout's script that is gone or broken: install retargets it
    command, script = running[0]
    note = (
        f"{path} names {script}, the script of another checkout, which is there and runs "
        f"the recorder ({rt.title} hands it this workspace's input, so it records here too); "
        "the file is shared through the repository, so it is not rewritten to this "
        f"checkout's script ({own}); to wire this checkout through your user file instead"
    )
    return AgentChange(
        rt.name,
        "project",
        path,
        "unchanged",
        command,
        (note,),
        fix=cli("install", "--agent", rt.name, "--scope", "user"),
    )


def _install_entry(
    rt: Runtime,
    scope: str,
    root: str | None,
    env: Mapping[str, str],
    command: str,
    notes: tuple[str, ...],
) -> AgentChange:
    """Merge our entry running ``command`` into the runtime's configuration of ``scope``
    (:func:`install_agent`; ``notes``: what the choice of ``command`` leaves to say).

    Raises:
        UsageError: a file that is not plain JSON or not shaped as documented.
    """
    assert rt.wiring is not None
    w = rt.wiring
    inline = toml_placements(rt, scope, root, env)
    if inline:
        # ours stands inline in a TOML file the runtime reads: never a second copy, and the
        # TOML file is not rewritten (its comments and layout are the user's)
        where, standing = inline[0]
        off = tuple(
            f"it does not run: disabled by {why}; change that for the recorder to run"
            for why in disabled_by(w, [standing], root, env)
        )
        # an event it lacks is not added (the TOML file is the user's): said as doctor says it
        doc = read_toml(where) or {}
        missing = tuple(
            f"warning: not to {e}: {agent_codex.block(rt, e, standing)} is missing; install "
            f"does not rewrite TOML: add it to {where} by hand"
            for e in agent_codex.lacking(doc, rt)
        )
        return AgentChange(
            rt.name,
            scope,
            where,
            "unchanged",
            standing,
            (f"our hook stands inline in {where}; it is left as you wrote it", *missing, *off),
        )
    # ours in another file it reads (settings.local.json, hooks/*.json): edited there, not added
    path, loaded = _where_ours(rt, scope, root, env)

    def runs_as_written(before: str) -> bool:
        # an entry the user spelled their own way ("$CLAUDE_PROJECT_DIR"/.venv/bin/...,
        # ~/..., cd DIR && ...) that runs, or cannot be checked here, is left alone; the
        # forms install writes itself (gentle-hook, the path beside this interpreter) and
        # a program that is not there are retargeted
        written = wiring.program_words(before)[1]
        if written in ("gentle-hook", installed_path()):
            return False
        return reach(before, rt, root, env).status != "missing"

    def cd_fails(before: str) -> bool:
        # a leading cd DIR && whose DIR is no directory: the hook cannot run with it
        return cd_failure(before, rt, root, env) is not None

    try:
        new, what, changes = wiring.add(
            loaded.doc if loaded else {}, rt, command, keep=runs_as_written, drop_cd=cd_fails
        )
    except wiring.ShapeError as exc:
        raise UsageError(f"{path}: {exc}; nothing was changed") from None
    if what != "unchanged" or loaded is None:
        refuse_project_link(path, scope, root)
        write_config(path, loaded, new, w, rt.doc)
        what = "added" if loaded is None else what
        if what == "added":  # what the file held that uninstall gives back
            agent_kept.remember(path, loaded.doc if loaded else None, w)
        elif loaded is not None:  # an event that lacked ours: its empty list comes back too
            agent_kept.remember(path, loaded.doc, w, updated=True)
    running = wiring.commands(new, rt) or [command]
    off = tuple(
        f"it does not run: disabled by {why}; change that for the recorder to run"
        for why in disabled_by(w, running, root, env)
    )
    scoped = w.notes + (w.project_notes if scope == "project" else ())
    warned = tuple(f"warning: {x}" for x in entry_shape.shape_warnings(path, new, rt))
    done = changes + warned + off + link_note(path) + notes + scoped
    return AgentChange(rt.name, scope, path, what, running[0], done)


def _where_ours(
    rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]
) -> tuple[str, Loaded | None]:
    """The file of ``scope`` that holds an entry of ours (the first found), else the one
    ``install`` writes; with its content."""
    assert rt.wiring is not None
    paths = locations(rt.wiring, scope, root, env)
    for path in paths:
        loaded = load_for_edit(path, rt.wiring)
        if loaded is not None and wiring.commands(loaded.doc, rt):
            return path, loaded
    return paths[0], load_for_edit(paths[0], rt.wiring)
