"""The agent runtimes gentle-hooks records from: one row per runtime, saying how its hook
input is decoded and where and how its hook is wired (SPEC §7 "Hooks"; docs/agents/).

Room ``agents`` (standard library only). A table, as the hook dispatcher is one: adding a
runtime is a decoder module and a row here. Each row's wiring is the runtime's documented
configuration (the doc page of each runtime cites it):

* ``grouped``: ``{"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command",
  "command": C}]}]}}`` (Claude Code, Codex, Gemini CLI, Droid, Augment);
* ``flat``: ``{"version": 1, "hooks": {EVENT: [{... "command": C}]}}`` (Cursor), or with the
  command under ``bash`` (GitHub Copilot);
* ``file``: a file we own whole, the hook itself (Cline's executable ``PostToolUse``,
  OpenCode's plugin, Pi's extension, Amp's plugin, Kiro's hooks file; :mod:`.ownfile`).

A runtime without a hook point (aider) has a row with no wiring: ``install --agent`` prints
its documented route instead of writing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType

from gentle_hooks.agents import (
    amp,
    augment,
    claude_code,
    cline,
    codex,
    copilot,
    cursor,
    droid,
    gemini_cli,
    kiro,
    opencode,
    pi,
    windsurf,
)
from gentle_hooks.agents.command_words import guard
from gentle_hooks.agents.event import SettingsWriter
from gentle_hooks.agents.runtime_rows import Runtime as Runtime
from gentle_hooks.agents.runtime_rows import Wiring as Wiring


def _row(
    agent: ModuleType,
    title: str,
    wiring: Wiring,
    markers: tuple[str, ...],
    *,
    ack: str = "",
    settings_writer: SettingsWriter | None = None,
    efforts: Mapping[str, str] | None = None,
    guest: Callable[[bytes, Mapping[str, str]], str | None] | None = None,
    project_markers: tuple[str, ...] = (),
) -> Runtime:
    """The row of the runtime whose decoder module is ``agent``: its ``NAME`` and ``decode``,
    its page ``docs/agents/NAME.md``; the rest as :class:`Runtime` says."""
    return Runtime(
        agent.NAME,
        title,
        f"docs/agents/{agent.NAME}.md",
        agent.decode,
        ack,
        wiring,
        markers,
        settings_writer=settings_writer,
        efforts=efforts,
        guest=guest,
        project_markers=project_markers,
    )


def _own_file(
    project: str, user: str, event: str, *notes: str, file_mode: int = 0o644, shell: str = ""
) -> Wiring:
    """The wiring of a ``file`` runtime (a file we own whole is the hook): ``project``,
    ``user``, ``event``, the ``notes`` said after install as :class:`Wiring` says; ``shell``:
    ``"SNAPSHOT END"``, its :attr:`Wiring.shell_event` and :attr:`Wiring.turn_end`."""
    ends = tuple(shell.split())  # also the events our file hands over
    return Wiring(
        project=project,
        user=user,
        shape="file",
        event=event,
        matcher=None,
        entry=(),
        notes=notes,
        file_mode=file_mode,
        also_events=ends,
        shell_event=ends[0] if ends else None,
        turn_end=ends[-1] if ends else None,
    )


RUNTIMES: tuple[Runtime, ...] = (
    _row(
        claude_code,
        title="Claude Code",
        wiring=Wiring(
            project=".claude/settings.json",
            user=".claude/settings.json",
            home_env=claude_code.CONFIG_DIR,
            shape="grouped",
            event="PostToolUse",
            matcher="|".join((*claude_code.WRITE_TOOLS, claude_code.SHELL_TOOL)),
            entry=(("type", "command"),),
            # the work tree before each Bash call: what it changes is the writer's, recorded
            # at PostToolUse, or at PostToolUseFailure when the command exited non-zero
            # and Stop: the end of the agent's turn closes a background call's window
            also_events=(
                claude_code.SHELL_SNAPSHOT,
                claude_code.SHELL_FAILURE,
                claude_code.TURN_END,
            ),
            also_matchers=(
                (claude_code.SHELL_SNAPSHOT, claude_code.SHELL_TOOL),
                (claude_code.SHELL_FAILURE, claude_code.SHELL_TOOL),
                (claude_code.TURN_END, None),
            ),
            shell_event=claude_code.SHELL_SNAPSHOT,
            shell_after=claude_code.SHELL_FAILURE,
            turn_end=claude_code.TURN_END,
            also_project=(".claude/settings.local.json",),
            settings=(
                ("user", ".claude/settings.json"),
                ("project", ".claude/settings.json"),
                ("project", ".claude/settings.local.json"),
                ("system", "claude-code-managed"),
            ),
            switches=(("disableAllHooks", True),),
            system_switches=(("allowManagedHooksOnly", True),),
            # code.claude.com/docs/en/hooks, "Reference scripts by path"
            project_vars=("CLAUDE_PROJECT_DIR",),
        ),
        settings_writer=claude_code.settings_writer,
        efforts=claude_code.EFFORTS,
        guest=claude_code.guest,
        markers=(".claude",),
        project_markers=("CLAUDE.md",),
    ),
    _row(
        codex,
        title="Codex CLI",
        wiring=Wiring(
            project=".codex/hooks.json",
            user=".codex/hooks.json",
            home_env="CODEX_HOME",
            shape="grouped",
            event="PostToolUse",
            # Bash: a patch run through the shell tool (codex.SHELL_TOOL, codex.decode)
            matcher=f"apply_patch|{codex.SHELL_TOOL}",
            entry=(("type", "command"),),
            # the work tree before each Bash call: what any other command changes is the
            # writer's (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json)
            # and Stop: the end of the agent's turn closes a background call's window
            # (codex-rs/hooks/schema/generated/stop.command.input.schema.json)
            also_events=(codex.SHELL_SNAPSHOT, codex.TURN_END),
            also_matchers=(
                (codex.SHELL_SNAPSHOT, codex.SHELL_TOOL),
                (codex.TURN_END, None),
            ),
            shell_event=codex.SHELL_SNAPSHOT,
            turn_end=codex.TURN_END,
            # openai/codex codex-rs/core/src/tools/hook_names.rs @ 40c1a7f5
            # (HookToolName::apply_patch: matcher_aliases Write, Edit)
            aliases=(("apply_patch", ("Write", "Edit")),),
            settings=(("user", ".codex/config.toml"), ("project", ".codex/config.toml")),
            settings_toml=True,
            switches=(("features.hooks", False), ("features.codex_hooks", False)),
            toml_hooks=(".codex/config.toml",),
            notes=(
                "Codex runs a new or changed hook only once you trust it: start codex and "
                "review it with /hooks",
            ),
            project_notes=("project hooks load only in a trusted project",),
        ),
        settings_writer=codex.settings_writer,
        efforts=codex.EFFORTS,
        markers=(".codex",),
        project_markers=("AGENTS.md",),
    ),
    _row(
        gemini_cli,
        title="Gemini CLI",
        ack="{}",
        wiring=Wiring(
            project=".gemini/settings.json",
            user=".gemini/settings.json",
            shape="grouped",
            event="AfterTool",
            matcher="|".join((*gemini_cli.WRITE_TOOLS, gemini_cli.SHELL_TOOL)),
            entry=(("name", "gentle-hooks-record"), ("type", "command")),
            # the work tree before each run_shell_command call, the files write_file and
            # replace name before they write: only what changes is the writer's
            # (google-gemini/gemini-cli docs/hooks/reference.md, "BeforeTool")
            # and AfterAgent: the end of the agent's turn closes a background call's window
            # (docs/hooks/reference.md, "AfterAgent": prompt, prompt_response)
            also_events=(gemini_cli.SHELL_SNAPSHOT, gemini_cli.TURN_END),
            also_matchers=(
                (
                    gemini_cli.SHELL_SNAPSHOT,
                    "|".join((*gemini_cli.WRITE_TOOLS, gemini_cli.SHELL_TOOL)),
                ),
                (gemini_cli.TURN_END, None),
            ),
            shell_event=gemini_cli.SHELL_SNAPSHOT,
            turn_end=gemini_cli.TURN_END,
            comments=True,
            matcher_style="regex",
            settings=(
                ("user", ".gemini/settings.json"),
                ("project", ".gemini/settings.json"),
                ("system", "gemini-cli-system"),
            ),
            system_env="GEMINI_CLI_SYSTEM_SETTINGS_PATH",
            home_root_env="GEMINI_CLI_HOME",
            settings_comments=True,
            # hooks.enabled: the switch of versions before hooksConfig, still honoured
            switches=(
                ("hooksConfig.enabled", False),
                ("hooks.enabled", False),
                ("tools.enableHooks", False),
            ),
            disabled_lists=("hooksConfig.disabled", "hooks.disabled"),
            # google-gemini/gemini-cli docs/hooks/reference.md, "Environment variables"
            # (CLAUDE_PROJECT_DIR: its alias for hooks written for Claude Code)
            project_vars=("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
            project_notes=(
                "Gemini CLI warns before it first runs a new project hook; /hooks panel lists it",
            ),
        ),
        settings_writer=gemini_cli.settings_writer,
        markers=(".gemini",),
        project_markers=("GEMINI.md",),
    ),
    _row(
        cursor,
        title="Cursor",
        ack="{}",
        wiring=Wiring(
            project=".cursor/hooks.json",
            user=".cursor/hooks.json",
            shape="flat",
            event=cursor.EVENT,
            # the work tree before each Agent shell command, and what changed after it
            also_events=(
                *cursor.SUBAGENT_EVENTS,
                cursor.SHELL_BEFORE_EVENT,
                cursor.SHELL_AFTER_EVENT,
                # the end of the agent loop closes a background command's window
                cursor.TURN_END,
            ),
            shell_event=cursor.SHELL_BEFORE_EVENT,
            shell_after=cursor.SHELL_AFTER_EVENT,
            turn_end=cursor.TURN_END,
            matcher=None,
            entry=(),
            version=1,
            notes=("restart Cursor to load the hook",),
            project_notes=("project hooks run in a trusted workspace",),
        ),
        markers=(".cursor",),
    ),
    _row(
        copilot,
        title="GitHub Copilot (CLI and cloud agent)",
        settings_writer=copilot.settings_writer,
        wiring=Wiring(
            project=".github/hooks/gentle-hooks.json",
            user=".copilot/hooks/gentle-hooks.json",
            home_env="COPILOT_HOME",
            shape="flat",
            event="postToolUse",
            # the work tree before each bash call, and what changed after it (github/docs
            # content/copilot/reference/hooks-reference.md @ 05da5bc3, "preToolUse")
            # postToolUseFailure: after a failed tool (a failed command's writes); agentStop,
            # sessionEnd: the turn's end closes a background call's window ("Hook events")
            also_events=(*copilot.SUBAGENT_EVENTS, copilot.SHELL_SNAPSHOT, *copilot.ENDS),
            shell_event=copilot.SHELL_SNAPSHOT,
            shell_after=copilot.SHELL_FAILURE,
            turn_end=copilot.TURN_END,
            session_end=copilot.SESSION_END,
            # a command preToolUse hook that exits non-zero denies the tool call (same page,
            # "preToolUse / PreToolUse"): where no gentle-hook is installed too
            guarded=True,
            matcher=None,
            entry=(("type", "command"), ("timeoutSec", 30)),
            command_key="bash",
            # github/docs content/copilot/reference/hooks-reference.md @ 05da5bc3,
            # "Command hooks": command (cross-platform fallback), exec + args (CLI only)
            other_commands=("command", "exec"),
            version=1,
            own_file=True,
            also_project=(".github/hooks/*.json",),
            also_user=(".copilot/hooks/*.json",),
            settings=(
                ("user", ".copilot/settings.json"),
                ("project", ".github/copilot/settings.json"),
                ("project", ".github/copilot/settings.local.json"),
            ),
            settings_comments=True,
            switches=(("disableAllHooks", True),),
            project_notes=(
                "the cloud agent reads .github/hooks/*.json from the default branch: commit "
                "and merge the file for it",
            ),
        ),
        markers=(".github/hooks", ".copilot"),
        project_markers=(
            ".github/copilot-instructions.md",
            ".github/copilot/settings.json",
            ".github/copilot/settings.local.json",
        ),
    ),
    _row(
        windsurf,
        title="Windsurf (Cascade)",
        wiring=Wiring(
            project=".windsurf/hooks.json",
            user=".codeium/windsurf/hooks.json",
            shape="flat",
            event=windsurf.EVENT,
            matcher=None,
            entry=(("show_output", False),),
        ),
        markers=(".windsurf", ".codeium/windsurf"),
    ),
    _row(
        droid,
        title="Factory Droid",
        wiring=Wiring(
            project=".factory/settings.json",
            user=".factory/settings.json",
            shape="grouped",
            event="PostToolUse",
            matcher="|".join(droid.WRITE_TOOLS),
            entry=(("type", "command"),),
            also_events=tuple(e for e, _ in droid.SUBAGENT_EVENTS),
            also_matchers=droid.SUBAGENT_EVENTS,
            also_project=(".factory/settings.local.json",),
            # docs.factory.ai/harness/hooks, "Configuration" and "Structure"
            hooks_files=(".factory/hooks.json", ".factory/hooks/hooks.json"),
            project_vars=("FACTORY_PROJECT_DIR",),
        ),
        markers=(".factory",),
    ),
    _row(
        augment,
        title="Augment Code (Auggie CLI)",
        wiring=Wiring(
            # docs.augmentcode.com/cli/hooks, "Settings File Locations" and "Structure"
            project=".augment/settings.json",
            user=".augment/settings.json",
            shape="grouped",
            event="PostToolUse",
            matcher="|".join(augment.WRITE_TOOLS),
            entry=(("type", "command"),),
            also_project=(".augment/settings.local.json",),
            # docs.augmentcode.com/cli/hooks, "Structure": command "Path to the shell script
            # to execute (must be a .sh file)"; every example names an absolute path
            script=".augment/hooks/gentle-hooks.sh",
            project_notes=(
                "the entry names the script by its absolute path, this checkout's: install "
                "again in another checkout (doctor says when it is due)",
            ),
        ),
        markers=(".augment",),
    ),
    _row(
        cline,
        title="Cline",
        wiring=_own_file(
            # docs.cline.bot/customization/hooks, "Hook Locations"; cline/cline
            # apps/vscode/src/core/controller/file/refreshHooks.ts @ 21cb8d25
            ".clinerules/hooks/PostToolUse",
            "Documents/Cline/Hooks/PostToolUse",
            cline.EVENT,
            "Cline runs hooks only once they are enabled: switch on Hooks in Cline's "
            "settings (CLI: cline config set hooks-enabled=true) and this hook in its "
            "Hooks tab",
            file_mode=0o755,
        ),
        markers=(".clinerules", "Documents/Cline"),
    ),
    _row(
        opencode,
        efforts=opencode.EFFORTS,
        title="OpenCode",
        wiring=_own_file(
            # opencode.ai/docs/plugins, "From local files"
            ".opencode/plugins/gentle-hooks.js",
            ".config/opencode/plugins/gentle-hooks.js",
            "tool.execute.after",
            "OpenCode loads plugins at startup: restart it",
            shell=f"{opencode.SHELL_SNAPSHOT} {opencode.TURN_END}",  # bash's, prompt's end
        ),
        markers=(".opencode", ".config/opencode"),
    ),
    _row(
        pi,
        title="Pi",
        wiring=_own_file(  # earendil-works/pi docs/extensions.md, "Extension Locations"
            ".pi/extensions/gentle-hooks.ts",
            ".pi/agent/extensions/gentle-hooks.ts",
            "tool_result",
            "Pi loads extensions at startup: run /reload in Pi, or restart it",
            shell=f"{pi.SHELL_SNAPSHOT} {pi.TURN_END}",  # bash's snapshot, turn's end
        ),
        markers=(".pi",),
    ),
    _row(
        kiro,
        title="Kiro CLI",
        wiring=_own_file(
            # kiro.dev/docs/cli/v3/hooks; ~/.kiro/hooks/: kiro.dev/changelog/cli/2-13/
            ".kiro/hooks/gentle-hooks.json",
            ".kiro/hooks/gentle-hooks.json",
            "PostToolUse",
            "Kiro CLI 3 reads .kiro/hooks/ at the start of a session",
        ),
        markers=(".kiro",),
    ),
    _row(
        amp,
        efforts=amp.EFFORTS,
        title="Amp",
        wiring=_own_file(
            # ampcode.com/manual/plugin-api: .amp/plugins/, ~/.config/amp/plugins/ (system)
            ".amp/plugins/gentle-hooks.ts",
            ".config/amp/plugins/gentle-hooks.ts",
            "tool.result",
            "Amp runs plugins only when started with PLUGINS=all (PLUGINS=all amp); "
            "in a running Amp, run 'plugins: reload' from its command palette",
        ),
        markers=(".amp", ".config/amp"),
    ),
    Runtime(
        name="aider",
        title="aider",
        doc="docs/agents/aider.md",
        decode=None,
        ack="",
        wiring=None,
        markers=(".aider.conf.yml",),
        route=(
            "aider exposes no hook point: nothing is installed, and its edits are not "
            "recorded as they happen",
            "let git run the gate on aider's commits: put 'git-commit-verify: true' in "
            ".aider.conf.yml (aider commits with --no-verify by default)",
            "keep aider's attribution on ('(aider)' in the author name, or its "
            "Co-authored-by trailer): the gates and the range gate in CI see those commits "
            "as delegated",
            "or record by hand after aider wrote: the record command with the paths aider "
            "changed, the writer's model and effort in GENTLE_WRITER_MODEL and "
            "GENTLE_WRITER_EFFORT (or its --model and --effort options)",
        ),
    ),
)

NAMES: tuple[str, ...] = tuple(r.name for r in RUNTIMES)
#: The runtimes ``record --from`` decodes.
DECODED: tuple[str, ...] = tuple(r.name for r in RUNTIMES if r.decode is not None)


def runtime(name: str) -> Runtime:
    """The row named ``name``.

    Raises:
        KeyError: no such runtime (the CLI offers only :data:`NAMES`).
    """
    for r in RUNTIMES:
        if r.name == name:
            return r
    raise KeyError(name)


def closest_name(name: str, names: tuple[str, ...] = NAMES) -> str | None:
    """The runtime name of ``names`` a mistyped ``name`` most likely meant: the only one it
    begins (``claude`` -> ``claude-code``) or that begins it (``copilot-cli`` ->
    ``copilot``), compared without case; else the nearest by spelling
    (:func:`difflib.get_close_matches`); None when none is near."""
    import difflib

    typed = name.strip().lower()
    if not typed:
        return None
    begun = [k for k in names if k.startswith(typed) or typed.startswith(k)]
    if len(begun) == 1:
        return begun[0]
    near = difflib.get_close_matches(typed, names, n=1)
    return near[0] if near else None


def record_command(name: str, program: str = "gentle-hook", guarded: bool = False) -> str:
    """The command a runtime's hook runs: ``<program> record --from <name>``; ``guarded``
    (:attr:`Wiring.guarded`): inside :func:`gentle_hooks.agents.command_words.guard`, so it
    exits 0 also when ``program`` is not there."""
    call = f"{program} record --from {name}"
    return guard(call, program) if guarded else call
