"""``doctor``: is each agent runtime in use here wired to record, and can its hook run
(SPEC §7 "Hooks"; issue: "doctor reports, per runtime found in the repository or user config,
whether its recorder is wired and reachable")?

Room ``services``. Read-only. A runtime is *found* when one of its marker directories (or
files) exists under the work tree root or the home directory, or its configuration wires our
hook, or its instructions file (``CLAUDE.md``, ``GEMINI.md``, ``AGENTS.md``,
``.github/copilot-instructions.md``) is at the work tree root. For each runtime found:

* wired, and the ``gentle-hook`` its command names exists (resolved as the runtime's shell
  would: :mod:`gentle_hooks.services.agent_reach`) and runs (``<it> --version`` exits 0,
  bounded in time): ok;
* wired, but that program is resolved and not there, or cannot run (a bad interpreter
  line, a non-zero exit of ``--version``), or does not answer ``--version`` in time: fails,
  saying which in one line (the agent's edits go unrecorded); one that cannot be resolved
  without the runtime (a variable it alone sets, a path relative to the agent's working
  directory) is reported "not checked", not failed. Each distinct program is run once for
  all the runtimes, and all the runs together are bounded
  (:class:`gentle_hooks.services.agent_reach.Versions`);
* wired under a matcher that leaves some of the runtime's file-writing tools out: fails,
  naming them;
* wired in a settings file that a standalone hooks file without ours shadows (Droid's
  ``.factory/hooks.json``): fails; wired for Codex, but one of our events (``PostToolUse``,
  ``PreToolUse``) trusted in no file holding ours (its ``[hooks.state]`` in the user's
  ``config.toml``, :func:`gentle_hooks.services.agent_codex.untrusted`): fails;
* wired, but a documented switch of the runtime's settings stops it (Claude Code's
  ``disableAllHooks``, or ``allowManagedHooksOnly`` in its managed policy settings; Codex's
  ``[features] hooks = false`` in ``config.toml``; Gemini CLI's ``hooksConfig.enabled`` (or
  the older ``hooks.enabled``) or a
  ``disabled`` list naming ours, in user, project or system settings; Copilot's
  ``disableAllHooks``): fails, naming the switch and its file;
* "wired" looks in every file the runtime reads hooks from (Claude Code's
  ``settings.local.json``, every ``.github/hooks/*.json`` of Copilot, Codex's inline
  ``[[hooks.PostToolUse]]`` in ``config.toml``), not only the one
  ``install`` writes; an inline TOML entry of ours that is flawed (an event missing) fails
  with the block to add by hand, no install command (``install`` never rewrites TOML:
  :func:`gentle_hooks.services.agent_codex.by_hand`);
* a configuration file that is not readable plain JSON: fails, naming the file;
* not wired: reported, not failed, with the command that wires it (the commit gate still
  sees the runtime in its environment and the AI trailers in its commits);
* aider (no hook point): found when one of its configuration files (``.aider.conf.yml``
  in the home directory, the repository root or the current directory, or an ``AIDER_*``
  commit option in the environment or a ``.env`` file) is there; reported with what aider
  will do with its commits and where each choice comes from
  (:mod:`gentle_hooks.agents.aider`): whether git runs the commit gate on them, and how its
  edits are marked (:func:`gentle_hooks.agents.aider.marks`), ``(aider)`` on the committer
  named as what it is: aider's mark of every commit it runs, a person's dirty files
  included, which the gates read as that person's. Fails when its edits carry no mark the
  gates read (the trailer, the author mark and the message prefix off): the gates then
  take aider's commits for a person's.

In a worktree without a runtime's project file that another worktree of the repository
wires us in (untracked, so not shared: :mod:`gentle_hooks.services.agent_worktrees`), one
line says so, with the install command that wires it here.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping

from gentle_hooks.agents import aider, entry_shape, wiring
from gentle_hooks.agents.runtimes import RUNTIMES, Runtime
from gentle_hooks.errors import Command, UsageError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.services import agent_codex
from gentle_hooks.services.agent_file import file_placements, named_script
from gentle_hooks.services.agent_install import (
    SCOPES,
    disabled_by,
    hooks_file,
    locations,
    read_config,
    read_hooks,
    read_toml,
    scoped_path,
    shadowed,
    user_home,
)
from gentle_hooks.services.agent_reach import (
    Reach,
    Versions,
    not_current,
    reach,
    working_program,
)
from gentle_hooks.services.agent_worktrees import missing_here, missing_line
from gentle_hooks.values.frozen import frozen, replace


@frozen
class AgentCheck:
    """One runtime's check: a stable name (``agent: NAME``), whether it passed, one line,
    and the command that wires it, when one does."""

    name: str
    ok: bool
    detail: str
    fix: Command | None = None
    #: our recorder is wired in this repository's own configuration (``install --agent``'s
    #: project scope), whether or not it works
    project_wired: bool = False

    @property
    def runtime(self) -> str:
        """The runtime's name (``claude-code``), as ``--agent`` takes it."""
        return self.name.removeprefix("agent: ")


def _marked(check: AgentCheck | None, project: bool) -> AgentCheck | None:
    """``check`` with :attr:`AgentCheck.project_wired` set to ``project``."""
    return check if check is None else replace(check, project_wired=project)


def _install(rt: Runtime, scope: str, env: Mapping[str, str], run: Versions) -> Command:
    """``install --agent NAME [--scope user]`` run by a ``gentle-hook`` that works: when the
    one on ``PATH`` cannot run (:func:`working_program`), the working one's absolute path,
    else this interpreter's ``-m gentle_hooks``; the name as typed otherwise."""
    user = ("--scope", "user") if scope == "user" else ()
    words = ("install", "--agent", rt.name, *user)
    program, broken = working_program(env, run)
    if broken is None:
        return cli(*words)
    tool = program or f"{shlex.quote(sys.executable)} -m gentle_hooks"
    return Command(words, tool=tool)


def _cannot_run(path: str, scope: str, command: str, got: Reach) -> str:
    """The line of a wired hook whose ``gentle-hook`` is missing, cannot run, or did not
    answer ``--version`` in time (nothing then says the hook can record)."""
    if got.status == "unanswered":
        return (
            f"wired in {path} ({scope}), but '{command}' was not confirmed to run: {got.why}; "
            "install the recorder again"
        )
    return (
        f"wired in {path} ({scope}), but '{command}' cannot run: "
        f"{got.why or 'its gentle-hook is not found'}; install the recorder again"
    )


def _found(rt: Runtime, root: str | None, home: str, env: Mapping[str, str]) -> list[str]:
    """The markers that say ``rt`` is used here: its directories in the work tree and the
    home directory, its instructions file at the work tree root (``CLAUDE.md``...), and
    the directory its home variable names when it is set (``CLAUDE_CONFIG_DIR``,
    ``CODEX_HOME``...: the runtime keeps its user files there)."""
    found = [
        os.path.join(base, marker)
        for base in ((root, home) if root else (home,))
        for marker in rt.markers
        if os.path.lexists(os.path.join(base, marker))
    ]
    found += [
        os.path.join(root, marker)
        for marker in rt.project_markers
        if root and os.path.lexists(os.path.join(root, marker))
    ]
    moved = env.get(rt.wiring.home_env) if rt.wiring and rt.wiring.home_env else None
    if moved and os.path.isdir(moved):
        found.append(moved)
    return found


def _aider_check(rt: Runtime, root: str | None, env: Mapping[str, str]) -> AgentCheck | None:
    """aider's check: what it does with its commits, from every documented place."""
    cwd = os.getcwd()
    if root is not None and os.path.relpath(
        os.path.realpath(cwd), os.path.realpath(root)
    ).startswith(os.pardir):
        cwd = root  # doctor run from elsewhere (-C): aider is taken as started at the root
    conf = aider.resolve(user_home(None, env), root, cwd if root else None, env)
    named = any(aider.env_name(o) in env for o in aider.DEFAULTS)
    if not conf.files and not named:
        return None
    name = f"agent: {rt.name}"
    target = os.path.join(root, aider.CONF) if root else os.path.join("~", aider.CONF)
    v = conf.get("git-commit-verify")
    if conf.verify:
        verify = f"its commits run the commit gate ({aider.said(v)})"
    else:
        where = (
            f"put 'git-commit-verify: true' in {target}"
            if v.source == "aider's default" or v.source.endswith(aider.CONF)
            else f"set it to true where it is set ({v.source})"
        )
        verify = (
            f"its commits skip the commit gate (aider commits with --no-verify; {aider.said(v)}): "
            + where
        )
    ok, said = aider.marks(conf, target)
    parts = [f"no hook point ({rt.doc})", verify, *said]
    if conf.get("auto-commits").value is False:
        # its edits then stay in the work tree, and nothing records them: the commit that
        # takes them is a person's, so what is covered is said apart from what is not
        ok = False
        parts.append(
            f"not covered: aider does not commit ({aider.said(conf.get('auto-commits'))}), "
            "so its edits stay in the work tree unrecorded and the commit you make of them is "
            "taken for a person's, unmarked; covered: only the commits aider makes itself "
            f"(its /commit command); record its edits by hand ({rt.doc}, 'Or record by hand'), "
            f"or remove 'auto-commits: false' from where it is set"
        )
    if conf.unreadable:
        parts.append("not a boolean, ignored: " + "; ".join(conf.unreadable))
    return AgentCheck(name, ok, "; ".join(parts))


def _file_check(
    rt: Runtime, root: str | None, env: Mapping[str, str], found: list[str], run: Versions
) -> AgentCheck | None:
    """The check of a runtime whose hook is a file (Cline's script, OpenCode's plugin, Pi's
    extension, Kiro's hooks file): the file is there and runs our recorder, the runtime can
    run it, and its gentle-hook exists."""
    assert rt.wiring is not None
    name = f"agent: {rt.name}"
    wired: list[str] = []
    project = False
    for scope in SCOPES if root else ("user",):
        if scope == "user" and rt.wiring.user is None:  # Kiro: no user hooks file
            continue
        try:
            path, commands, cannot = file_placements(rt, scope, root, env)
        except UsageError as exc:
            return AgentCheck(name, False, exc.message)
        project = project or (scope == "project" and (cannot is not None or bool(commands)))
        if cannot is not None:
            fix = _install(rt, scope, env, run)
            check = AgentCheck(name, False, f"wired in {path} ({scope}), but {cannot}", fix)
            return _marked(check, project)
        for command in commands:
            got = reach(command, rt, root, env, run)
            if got.status in ("missing", "unanswered"):
                check = AgentCheck(
                    name,
                    False,
                    _cannot_run(path, scope, command, got),
                    _install(rt, scope, env, run),
                )
                return _marked(check, project)
            if (now := not_current(got, env)) is not None:  # an earlier install's program
                said = f"'{command}' runs {got.where}, not the current gentle-hook ({now})"
                why = "another install's may not record what this text hands over"
                detail = f"wired in {path} ({scope}), but {said}: {why}; install the recorder again"
                check = AgentCheck(name, False, detail, _install(rt, scope, env, run))
                return _marked(check, project)
            where = got.where if got.status == "found" else f"'{got.where}' not checked ({got.why})"
            wired.append(f"{path} ({scope}) -> {where}")
    return _marked(_wired_or_found(rt, root, wired, found, env, run), project)


def _broken_entries(doc: dict[str, object], rt: Runtime) -> str:
    """What is wrong with the fixed fields (:mod:`gentle_hooks.agents.entry_shape`) of the
    entries of ours in ``doc``, under each event ours goes under (``our PostToolUse
    entry's "type" is "prompt", not "command"``); empty when nothing is."""
    assert rt.wiring is not None
    said = [
        f"our {w.event} entry's {' and '.join(wrong)}"
        for w in wiring.events(rt.wiring)
        for _, _, entry in wiring.placements(doc, replace(rt, wiring=w))
        if (wrong := entry_shape.wrong_fields(entry, w))
    ]
    return "; ".join(said)


def _lacking_events(doc: dict[str, object], rt: Runtime) -> list[str]:
    """The events of :attr:`Wiring.also_events` (the subagent events that bracket a child's
    writes, the shell snapshot event) under which ``doc`` holds no entry of ours, while it
    holds ours for the write."""
    assert rt.wiring is not None
    return [
        w.event
        for w in wiring.events(rt.wiring)[1:]
        if not wiring.commands(doc, replace(rt, wiring=w))
    ]


def _entry_flaw(matcher: object, doc: dict[str, object], rt: Runtime) -> str | None:
    """Why an entry of ours in ``doc`` under a group of ``matcher`` does not record every
    write, said after "but" (the first of: its matcher misses a file-writing tool, its fixed
    fields are wrong, it lacks a subagent event), each ending in the fix; None when none."""
    assert rt.wiring is not None
    missed = wiring.misses(matcher, rt.wiring)
    if missed:
        return (
            f"its matcher '{matcher}' misses {', '.join(missed)}: those writes are not "
            "recorded; install the recorder again"
        )
    narrow = [
        f"its {w.event} matcher '{m}' misses {', '.join(missed)}"
        for w in wiring.events(rt.wiring)[1:]
        for _, m, _ in wiring.placements(doc, replace(rt, wiring=w))
        if (missed := wiring.misses(m, w))
    ]
    if narrow:  # an older install: the files those tools rewrite are not kept before they run
        return (
            f"{narrow[0]}: the files they change are not kept before they run (a person's "
            "unsaved lines there may record as the writer's); install the recorder again"
        )
    broken = _broken_entries(doc, rt)
    if broken:
        return f"{broken}: {rt.title} does not run it; install the recorder again"
    lacking = _lacking_events(doc, rt)
    shell = [e for e in lacking if e in (rt.wiring.shell_event, rt.wiring.shell_after)]
    ends = (rt.wiring.turn_end, rt.wiring.session_end)
    if lacking and all(e in ends for e in lacking):
        return (
            f"not to {' and '.join(lacking)}: a background shell command's window stays open "
            "past the agent's turn (a person's later edits record as the writer's); install "
            "the recorder again"
        )
    lacking = [e for e in lacking if e not in ends]
    if shell:
        return (
            f"not to {' and '.join(shell)}: what a shell command changes is not recorded; "
            "install the recorder again"
        )
    if lacking:
        return (
            f"not to {' and '.join(lacking)}: a subagent's writes record as the parent's "
            "model; install the recorder again"
        )
    for w in wiring.events(rt.wiring):  # Copilot's: a bare command denies where none is
        if any(
            entry_shape.unguarded(e, w) for *_, e in wiring.placements(doc, replace(rt, wiring=w))
        ):
            bad = f"where gentle-hook is missing it exits non-zero: {rt.title} denies the call"
            return f"its {w.event} command has no guard ({bad}); install the recorder again"
    return None


def check_runtime(
    rt: Runtime, root: str | None, env: Mapping[str, str], run: Versions | None = None
) -> AgentCheck | None:
    """The check of one runtime, or None when it is not used here. ``root`` is the work
    tree root, or None outside any work tree (only the user's configuration is read);
    ``run`` holds the ``gentle-hook --version`` answers shared by the runtimes' checks."""
    run = run or Versions()
    found = _found(rt, root, user_home(rt.wiring, env), env)
    if rt.wiring is None:
        return _aider_check(rt, root, env)
    if rt.wiring.shape == "file":
        return _file_check(rt, root, env, found, run)
    return _placement_check(rt, root, env, found, run)


def _placement_check(
    rt: Runtime, root: str | None, env: Mapping[str, str], found: list[str], run: Versions
) -> AgentCheck | None:
    """:func:`check_runtime` of a runtime whose hooks are entries in a JSON or TOML
    document, with ``project_wired`` set when one is in the project's own."""
    assert rt.wiring is not None
    name = f"agent: {rt.name}"
    project = False
    wired: list[str] = []
    commands: list[str] = []
    warnings: list[str] = []  # a file not of the runtime's documented shape
    placed: dict[str, dict[str, object]] = {}  # file -> its document, per file holding ours
    for scope in SCOPES if root else ("user",):
        before = len(wired)
        tomls = [scoped_path(rt.wiring, scope, rel, root, env) for rel in rt.wiring.toml_hooks]
        for path in [*locations(rt.wiring, scope, root, env), *tomls]:
            try:
                doc = read_toml(path) if path in tomls else read_hooks(path, rt.wiring)
            except UsageError as exc:
                return AgentCheck(name, False, exc.message)
            warnings += entry_shape.shape_warnings(path, doc or {}, rt)
            for named, matcher, _ in wiring.placements(doc or {}, rt):
                project = project or scope == "project"
                # an entry naming our script (Augment): the recorder is the script's command
                own = (
                    os.path.join(root, rt.wiring.script)
                    if scope == "project" and root and rt.wiring.script
                    else None
                )
                command, unusable = (
                    named_script(rt, named, own) if rt.wiring.names_script(named) else (named, None)
                )
                if command is None:
                    fix = _install(rt, scope, env, run)
                    check = AgentCheck(
                        name, False, f"wired in {path} ({scope}), but {unusable}", fix
                    )
                    return _marked(check, project)
                got = reach(command, rt, root, env, run)
                if got.status in ("missing", "unanswered"):
                    fix = _install(rt, scope, env, run)
                    check = AgentCheck(name, False, _cannot_run(path, scope, command, got), fix)
                    return _marked(check, project)
                where = (
                    got.where if got.status == "found" else f"'{got.where}' not checked ({got.why})"
                )
                flaw = _entry_flaw(matcher, doc or {}, rt)
                if flaw is not None and path in tomls:
                    # install never rewrites TOML: the fix is by hand, never "install again"
                    flaw = agent_codex.by_hand(flaw, path, doc or {}, rt, command)
                    check = AgentCheck(name, False, f"wired in {path} ({scope}), but {flaw}")
                    return _marked(check, project)
                if flaw is not None:
                    fix = _install(rt, scope, env, run)
                    check = AgentCheck(name, False, f"wired in {path} ({scope}), but {flaw}", fix)
                    return _marked(check, project)
                commands.append(command)
                wired.append(f"{path} ({scope}) -> {where}")
                placed[path] = doc or {}
        hidden = _shadowed_ours(rt, scope, root, env) if len(wired) == before else None
        if hidden is not None:
            project = project or scope == "project"
            check = AgentCheck(name, False, hidden, _install(rt, scope, env, run))
            return _marked(check, project)
    off = disabled_by(rt.wiring, commands, root, env) if wired else []
    if off:
        check = AgentCheck(
            name,
            False,
            f"installed ({'; '.join(wired)}) but disabled by {'; '.join(off)}: "
            "the recorder does not run",
        )
        return _marked(check, project)
    untrusted = agent_codex.untrusted(rt, placed, env)
    if untrusted is not None:
        return _marked(AgentCheck(name, False, untrusted), project)
    closing = _wired_or_found(rt, root, wired, found, env, run)
    said = [w for w in warnings if w]
    if closing is not None and said:
        closing = replace(closing, detail=f"{closing.detail}; warning: {'; warning: '.join(said)}")
    return _marked(closing, project)


def _shadowed_ours(rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]) -> str | None:
    """The line of an entry of ours in a settings file the runtime does not read hooks
    from, because a standalone hooks file without ours exists (Droid's
    ``.factory/hooks.json``), or None."""
    assert rt.wiring is not None
    for path in shadowed(rt.wiring, scope, root, env):
        try:
            doc = read_config(path, rt.wiring.comments)
        except UsageError:
            continue  # the runtime does not read it either
        if wiring.commands(doc or {}, rt):
            return (
                f"wired in {path} ({scope}), but {hooks_file(rt.wiring, scope, root, env)} "
                f"exists and {rt.title} then reads hooks only from it ({rt.doc}): the "
                "recorder does not run; install the recorder again"
            )
    return None


def _wired_or_found(
    rt: Runtime,
    root: str | None,
    wired: list[str],
    found: list[str],
    env: Mapping[str, str],
    run: Versions,
) -> AgentCheck | None:
    """The closing check of a runtime: wired where ``wired`` names it; else, when ``found``
    says it is used here, not wired, with the install command; else None (not used)."""
    name = f"agent: {rt.name}"
    if wired:
        return AgentCheck(name, True, "recorder wired: " + "; ".join(wired))
    if not found:
        return None
    return AgentCheck(
        name,
        True,
        f"found ({', '.join(found)}) but not wired to record",
        _install(rt, "project" if root else "user", env, run),
    )


def check_agents(repo: Repository | None) -> list[AgentCheck]:
    """One check per agent runtime used in this repository or by this user; with no
    repository (or a bare one), per runtime the user's configuration wires or marks."""
    root = None if repo is None or repo.paths.is_bare else repo.paths.toplevel
    out = []
    run = Versions()  # a program is run once for every runtime, within one time budget
    for rt in RUNTIMES:
        result = check_runtime(rt, root, os.environ, run)
        if result is not None:
            out.append(result)
    if repo is None or root is None:
        return out
    # a runtime with a line of its own keeps it, unless that line only says it was found
    said = {c.runtime for c in out if not (c.ok and c.fix and c.detail.startswith("found ("))}
    for rt, rel, other in missing_here(repo, root):
        if rt.name not in said:
            line = AgentCheck(f"agent: {rt.name}", True, missing_line(rel, other), cli_fix(rt))
            out = [c for c in out if c.runtime != rt.name] + [line]
    return out


def cli_fix(rt: Runtime) -> Command:
    """``install --agent NAME``, run in this work tree."""
    return cli("install", "--agent", rt.name)
