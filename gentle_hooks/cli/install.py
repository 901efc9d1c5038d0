"""``gentle-hook install`` / ``uninstall``: plain git hooks without the framework (SPEC §7).

Room ``cli``: parse flags, call :mod:`gentle_hooks.services.install`, print what was done.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from gentle_hooks.agents.runtimes import NAMES
from gentle_hooks.cli.options import F, RuntimeName, cwd_option
from gentle_hooks.errors import EXIT_OK, GitError, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.sharing import add_share_refspecs
from gentle_hooks.notes.sync import sync_fetch
from gentle_hooks.services.install import (
    DEFAULT_HOOK_TYPES,
    KNOWN_HOOK_TYPES,
    framework_program,
)
from gentle_hooks.services.install import install as do_install
from gentle_hooks.services.install import uninstall as do_uninstall


def _hook_type_option(what: str) -> Callable[[F], F]:
    """``--hook-type/-t NAME`` (repeatable, one of the known hook types), read as
    ``hook_types``; ``what`` is its help."""
    return click.option(
        "--hook-type",
        "-t",
        "hook_types",
        multiple=True,
        type=click.Choice(KNOWN_HOOK_TYPES),
        help=what,
    )


@click.command()
@cwd_option
@_hook_type_option("Hook to install (repeatable); default: " + ", ".join(DEFAULT_HOOK_TYPES) + ".")
@click.option("--warn", is_flag=True, help="Report blocks without failing the commit or push.")
@click.option(
    "--share",
    "share",
    metavar="REMOTE",
    help="Also share the notes with REMOTE: fetched with it, sent by the push gate.",
)
@click.option(
    "--notes-only",
    is_flag=True,
    help="With --share: only set up the notes' sharing with REMOTE, install no "
    "hook (what install --share does on its own where the pre-commit framework or prek "
    "runs the gate).",
)
@click.option(
    "--server",
    is_flag=True,
    help="Install the pre-receive gate into this bare (server) repository.",
)
@click.option(
    "--agent",
    type=RuntimeName(NAMES),
    help="Wire this agent runtime's post-tool hook to 'gentle-hook record --from NAME' "
    "instead (docs/agents/NAME.md).",
)
@click.option(
    "--scope",
    type=click.Choice(("project", "user")),
    default="project",
    show_default=True,
    help="With --agent: the repository's configuration file, or your user one.",
)
def install(
    cwd: str | None,
    hook_types: tuple[str, ...],
    warn: bool,
    share: str | None,
    notes_only: bool,
    server: bool,
    agent: str | None,
    scope: str,
) -> int:
    """Install the gate and recorder hooks into the effective hooks directory.

    Honours core.hooksPath; an existing hook is chained (moved to <name>.gentle-legacy and
    run first), never overwritten. The scripts run the interpreter installing them. The
    first note written sets notes.rewriteRef, so amend and rebase carry the notes.

    Where the pre-commit framework or prek already runs the gate (its hooks installed, its
    configuration naming gentle-hooks ids) and no -t is given, no hook is installed over
    its own: --share then only sets up the notes' fetch and push (as --notes-only does).

    With --agent NAME: merge the runtime's hook into its own configuration (it keeps every
    other hook, changes nothing when ours is there, and prints what it changed).
    """
    if agent is not None:
        if hook_types or warn or share or server or notes_only:
            raise UsageError(
                "--agent installs only the agent's hook: drop -t, --warn, --share, "
                "--notes-only, --server"
            )
        return install_agent_hook(agent, scope, cwd)
    if notes_only and (hook_types or warn or server):
        raise UsageError(
            "--notes-only sets up the notes with --share REMOTE only: drop -t, --warn, --server"
        )
    if notes_only and not share:
        from gentle_hooks.errors import cli

        raise UsageError(
            "--notes-only needs the remote to share the notes with (--share REMOTE)",
            commands=(cli("install", "--notes-only", "--share", "origin"),),
        )
    repo = Repository.open(cwd, allow_bare=server)
    if share and repo.config_get(f"remote.{share}.url") is None:
        # checked before anything is installed: a refusal changes nothing
        raise UsageError(
            f"--share {share}: no remote named {share!r} here, so nothing was installed (see: "
            "git remote -v; add the remote first, or name another with --share)"
        )
    if server:
        if not repo.paths.is_bare:
            raise UsageError("--server installs into a bare repository; this one has a work tree")
        hook_types = hook_types or ("pre-receive",)
    framework = None
    if not hook_types and not server:
        from gentle_hooks.services.doctor_hooks import (
            FRAMEWORK_CONFIG,
            framework_gate,
            framework_install,
            needed_stages,
        )

        framework = framework_gate(repo)
        if framework is not None and not notes_only:
            tool, types = framework
            notes_only = True
            click.echo(
                f"hooks: {tool}'s hooks here run the gate ({', '.join(types)}, from "
                f"{FRAMEWORK_CONFIG}): none installed over them (-t TYPE chains one)"
            )
            missing = [t for t in needed_stages(repo) if t not in types]
            if missing:
                from gentle_hooks.report.shell_text import labelled

                run = framework_install(repo, tool, types[0], missing)
                click.echo(f"hooks: {tool} has not installed {', '.join(missing)}: {labelled(run)}")
    if not notes_only:
        for action in do_install(repo, hook_types or DEFAULT_HOOK_TYPES, warn=warn):
            click.echo(f"{action.hook_type}: {action.what}: {action.path}")
    if share:
        _share(repo, share, framework[0] if framework is not None else None)
    return EXIT_OK


def _share(repo: Repository, remote: str, framework: str | None) -> None:
    """Set up the notes' fetch with ``remote`` and name it for the push gate
    (:func:`~gentle_hooks.notes.sharing.add_share_refspecs`), remove the push refspecs an
    earlier install added, say how the notes travel, fetch them."""
    import os

    from gentle_hooks.notes.sharing import remove_share_push_refspecs
    from gentle_hooks.report.install_text import share_push_lines
    from gentle_hooks.services.install import hooks_dir, is_ours

    for line in add_share_refspecs(repo, remote):
        click.echo(f"git config: added {line}")  # a report, worded as uninstall's "removed"
    for line in remove_share_push_refspecs(repo, remote):
        click.echo(f"git config: removed {line}")
    gate = framework is not None or is_ours(os.path.join(hooks_dir(repo), "pre-push"))
    for line in share_push_lines(remote, gate, framework):
        click.echo(line)
    click.echo(f"notes: {sync_fetch(repo, remote)}")


@click.command()
@cwd_option
@_hook_type_option("Hook to remove (repeatable); default: every hook gentle-hooks installed.")
@click.option(
    "--agent",
    type=RuntimeName(NAMES),
    help="Remove only our hook from this agent runtime's configuration instead.",
)
@click.option(
    "--scope",
    type=click.Choice(("project", "user")),
    help="With --agent: only this scope (default: both).",
)
@click.option(
    "--server",
    is_flag=True,
    help="Remove the pre-receive gate from this bare (server) repository (what install "
    "--server placed).",
)
def uninstall(
    cwd: str | None,
    hook_types: tuple[str, ...],
    agent: str | None,
    scope: str | None,
    server: bool,
) -> int:
    """Remove the hooks gentle-hooks installed and restore chained hooks (with --agent:
    remove only our entry from that runtime's configuration; every other hook stays;
    with --server: the pre-receive gate of a bare repository)."""
    if agent is not None:
        if hook_types or server:
            raise UsageError("--agent removes only the agent's hook: drop -t, --server")
        return uninstall_agent_hook(agent, (scope,) if scope else ("project", "user"), cwd)
    if server:
        bare = Repository.open(cwd, allow_bare=True)
        if not bare.paths.is_bare:
            raise UsageError(
                "--server removes the gate of a bare repository; this one has a work tree"
            )
        hook_types = hook_types or ("pre-receive",)
    import os

    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.notes.codec import NOTES_REF
    from gentle_hooks.notes.sharing import remove_share_config
    from gentle_hooks.notes.sync import remote_notes_refs
    from gentle_hooks.report.install_text import (
        agent_kept_lines,
        framework_lines,
        kept_lines,
        removed_config_lines,
    )
    from gentle_hooks.services.doctor_hooks import FRAMEWORK_CONFIG, framework_gate

    repo = Repository.open(cwd, allow_bare=True)
    actions = do_uninstall(repo, hook_types or KNOWN_HOOK_TYPES)
    if not hook_types:  # with every hook: the links a block's PATH line made go too
        from gentle_hooks.services.install import remove_path_links

        actions += remove_path_links(repo)
    for action in actions:
        kind = "" if action.hook_type == "-" else f"{action.hook_type}: "
        click.echo(f"{kind}{action.what}: {action.path}")
    # the git config install --share and the recorders set: removed with every hook only
    removed = [] if hook_types else remove_share_config(repo)
    for line in removed_config_lines(removed):
        click.echo(line)
    framework = None if hook_types else framework_gate(repo)
    if not actions and not removed and framework is None:
        click.echo("nothing to remove: no gentle-hooks hook is installed here")
    if framework is not None:
        tool, types = framework
        run = framework_program(repo, tool, types[0])
        for line in framework_lines(tool, types, FRAMEWORK_CONFIG, run):
            click.echo(line)
    ledger = os.path.dirname(ledger_path(repo.paths.common_dir))
    notes = NOTES_REF if repo.peel_commit(NOTES_REF) or repo.ref_names(NOTES_REF) else None
    for line in kept_lines(
        ledger if os.path.isdir(ledger) else None,
        notes,
        remote_notes_refs(repo),
        _verify_exclude(repo),
        None if hook_types else repo.config_get("notes.rewriteRef"),
    ):
        click.echo(line)
    if not hook_types:
        for line in agent_kept_lines(_project_agents(repo)):
            click.echo(line)
    return EXIT_OK


def _project_agents(repo: Repository) -> list[str]:
    """The agent runtimes whose configuration in this work tree runs our recorder (what
    ``install --agent NAME`` wrote; plain ``uninstall`` leaves it)."""
    if repo.paths.is_bare:
        return []
    from gentle_hooks.services.agent_doctor import check_agents

    return [c.runtime for c in check_agents(repo) if c.project_wired]


def _verify_exclude(repo: Repository) -> str | None:
    """This clone's ``info/exclude`` when it holds the line ``verify run`` added for its
    artifacts (under :data:`~gentle_hooks.services.verdict_filing.EXCLUDE_COMMENT`)."""
    import os

    from gentle_hooks.services.verdict_filing import EXCLUDE_COMMENT

    path = os.path.join(repo.paths.common_dir, "info", "exclude")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return path if EXCLUDE_COMMENT in fh.read(1 << 20) else None
    except OSError:
        return None


def _root(cwd: str | None, required: bool) -> str | None:
    """The work tree root at ``cwd``; None outside one unless it is ``required``."""
    try:
        return Repository.open(cwd).paths.toplevel
    except GitError:
        if required:
            raise
        return None


def install_agent_hook(name: str, scope: str, cwd: str | None) -> int:
    """``install --agent NAME [--scope]``: print each change, and what is left to do."""
    import os

    from gentle_hooks.agents.runtimes import runtime
    from gentle_hooks.services.agent_entry import install_agent
    from gentle_hooks.services.agent_file import install_file

    rt = runtime(name)
    if rt.wiring is None:
        click.echo(f"{rt.name}: nothing installed: {rt.title} has no hook point ({rt.doc})")
        for line in rt.route:
            click.echo(f"  {line}")
        return EXIT_OK
    root = _root(cwd, scope == "project")
    if rt.wiring.shape == "file":
        change = install_file(rt, scope, root, os.environ)
    else:
        change = install_agent(name, scope, root, os.environ)
    from gentle_hooks.agents.wiring import hooks_phrase

    click.echo(
        f"{change.runtime} ({change.scope}): {change.what}: {hooks_phrase(rt.wiring)} running "
        f"'{change.command}' in {change.path}"
    )
    from gentle_hooks.report.fixes import with_fix

    for i, note in enumerate(change.notes, 1):
        click.echo(f"note: {with_fix(note, change.fix) if i == len(change.notes) else note}")
    if scope == "project" and root is not None and change.what != "unchanged":
        from gentle_hooks.errors import cli
        from gentle_hooks.services.agent_worktrees import untracked_note

        shared = untracked_note(Repository.open(root), root, change.path)
        if shared is not None:
            click.echo(f"note: {with_fix(shared, cli('install', '--agent', rt.name))}")
    return EXIT_OK


def uninstall_agent_hook(name: str, scopes: tuple[str, ...], cwd: str | None) -> int:
    """``uninstall --agent NAME [--scope]``: print what was removed from each file."""
    import os

    from gentle_hooks.agents.runtimes import runtime
    from gentle_hooks.services.agent_uninstall import uninstall_agent

    rt = runtime(name)
    if rt.wiring is None:
        click.echo(f"{rt.name}: nothing to remove: {rt.title} has no hook point ({rt.doc})")
        return EXIT_OK
    for change in uninstall_agent(name, scopes, _root(cwd, scopes == ("project",)), os.environ):
        click.echo(f"{change.runtime} ({change.scope}): {change.what}: {change.path}")
    return EXIT_OK
