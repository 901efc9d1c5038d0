"""The agent runtimes gentle-hooks records from: one row per runtime, saying how its hook
input is decoded and where and how its hook is wired (SPEC §7 "Hooks"; docs/agents/).

Room ``agents`` (standard library only). A table, as the hook dispatcher is one: adding a
runtime is a decoder module and a row here. Each row's wiring is the runtime's documented
configuration (the doc page of each runtime cites it):

* ``grouped``: ``{"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command",
  "command": C}]}]}}`` (Claude Code, Codex, Gemini CLI);
* ``flat``: ``{"version": 1, "hooks": {EVENT: [{... "command": C}]}}`` (Cursor), or with the
  command under ``bash`` (GitHub Copilot);
* ``file``: a file we own whole, the hook itself (Cline's executable ``PostToolUse``,
  OpenCode's plugin module, Pi's extension,
  Kiro's hooks file; :mod:`gentle_hooks.agents.ownfile`).

A runtime without a hook point (aider) has a row with no wiring: ``install --agent`` prints
its documented route instead of writing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gentle_hooks.agents import (
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
from gentle_hooks.agents.event import RuntimeEvent, SettingsWriter
from gentle_hooks.values.frozen import field, frozen


@frozen
class Wiring:
    """Where and how a runtime's hook is configured.

    Attributes:
        project: the configuration file relative to the work tree root (``--scope project``).
        user: relative to the home directory (``--scope user``); home_env: an environment
            variable that replaces the home-relative directory (its first path part);
            home_root_env: one that replaces the home directory itself (Gemini CLI's
            ``GEMINI_CLI_HOME``: its files are then under ``$GEMINI_CLI_HOME/.gemini``).
        shape: ``grouped``, ``flat`` or ``file``; event: the hook event; matcher: the tool
            matcher of a grouped entry (None: every tool); file_mode: the mode of a
            ``file`` (executable for a script the runtime runs).
        entry: the fields of our hook entry besides the command; command_key: where the
            command goes (``command``, or ``bash`` for Copilot).
        version: a top-level ``version`` the file must carry (flat files), or None.
        own_file: the file holds only our hooks (removed whole when they are).
        notes: what the user must still do after an install (trust, restart...);
            project_notes: the same, printed only after a ``--scope project`` install.
        comments: the runtime reads the file as JSON with ``//`` and ``/* */`` comments
            (kept as they are when the file is edited).
        matcher_style: how the runtime reads a group's matcher
            (:func:`gentle_hooks.agents.wiring.covers`).
        also_project / also_user: the other files (glob patterns, relative as ``project``
            / ``user``) the runtime reads hooks from in that scope: an entry of ours there
            counts as wired, is updated there, and is removed by uninstall.
        settings: the settings files that can switch hooks off, ``(scope, path)`` in
            increasing precedence (paths relative as ``project``/``user``; scope ``system``:
            the name of a machine-wide file, resolved by
            :data:`gentle_hooks.services.agent_install.SYSTEM_SETTINGS`, or taken from the
            environment variable ``system_env`` when it is set);
            settings_comments: they are JSON with comments; settings_toml: they are TOML;
        switches: ``(dotted key, value)`` pairs that turn every hook off;
        system_switches: the same, read only from ``system`` files (keys the runtime
            honours only there, e.g. Claude Code's ``allowManagedHooksOnly``);
        disabled_lists: dotted keys of lists of hook names (or commands) not to run.
        toml_hooks: TOML files (relative as ``project``/``user``) that may hold the same
            hooks inline (Codex's ``[[hooks.PostToolUse]]`` in ``config.toml``): ours there
            counts as wired and is not added a second time; they are never edited.
        other_commands: the other members an entry of the runtime may hold its command
            under, in the order the runtime reads them (Copilot's cross-platform
            ``command``; ``exec`` with its ``args``, run without a shell): an entry of ours
            there is found, updated there, and removed.
        project_vars: the environment variables the runtime sets, for its hooks, to the
            project directory (the work tree root): Claude Code's ``CLAUDE_PROJECT_DIR``.
        also_events: the other events our entry is wired to in the same file (Copilot's
            and Cursor's ``subagentStart``/``subagentStop``, Droid's ``PreToolUse`` of its
            ``Task`` tool and ``SubagentStop``, which bracket a subagent's run); install
            adds, and uninstall removes, ours under each. also_matchers: for a grouped
            shape, ``(event, matcher)`` of each of them (None: a group with no matcher).
        aliases: ``(tool, its other names)``: names a group's matcher may select the tool by
            (Codex matches ``apply_patch`` by ``Write`` and ``Edit`` too).
        hooks_files: standalone hooks files (relative as ``project``/``user``), in order:
            the first that exists is read instead of every settings file's hooks (Droid's
            ``.factory/hooks.json``), and install writes there; see agent_install.
    """

    project: str
    user: str | None
    shape: str
    event: str
    matcher: str | None
    entry: tuple[tuple[str, object], ...]
    command_key: str = "command"
    version: int | None = None
    own_file: bool = False
    home_env: str | None = None
    home_root_env: str | None = None
    notes: tuple[str, ...] = field(default=())
    project_notes: tuple[str, ...] = field(default=())
    comments: bool = False
    matcher_style: str = "exact-or-regex"
    also_project: tuple[str, ...] = field(default=())
    also_user: tuple[str, ...] = field(default=())
    settings: tuple[tuple[str, str], ...] = field(default=())
    settings_comments: bool = False
    switches: tuple[tuple[str, object], ...] = field(default=())
    system_switches: tuple[tuple[str, object], ...] = field(default=())
    system_env: str | None = None
    settings_toml: bool = False
    toml_hooks: tuple[str, ...] = field(default=())
    disabled_lists: tuple[str, ...] = field(default=())
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())
    project_vars: tuple[str, ...] = field(default=())
    other_commands: tuple[str, ...] = field(default=())
    file_mode: int = 0o644
    also_events: tuple[str, ...] = field(default=())
    also_matchers: tuple[tuple[str, str | None], ...] = field(default=())
    hooks_files: tuple[str, ...] = field(default=())


@frozen
class Runtime:
    """One agent runtime.

    Attributes:
        name: the ``--agent``/``--from`` name; title: how people call it; doc: its page.
        decode: its hook input decoder (None: no hook point); ack: what the hook prints on
            standard output (runtimes that read the hook's stdout as JSON get ``{}``).
        wiring: its hook configuration, or None; markers: directories (relative to the work
            tree root or the home directory) whose presence says the runtime is used there;
            project_markers: files at the work tree root that say the same (its
            instructions file: ``CLAUDE.md``, ``GEMINI.md``, Codex's ``AGENTS.md``,
            Copilot's ``.github/copilot-instructions.md``).
        route: for a runtime without a hook point, the documented route, one line each.
        settings_writer: for a runtime whose hook input may name no model or effort, where
            its settings (files, environment) set them: ``(work tree root or None,
            environment) -> (model, effort)``; used only for what the input left out.
        failure_exit: the exit code the runtime reads as a non-blocking failure of a
            post-tool hook, used when the recorder itself fails: 1 for every runtime here
            (Claude Code and Gemini CLI: any code but 0 and 2 is a non-blocking warning,
            while 2 feeds stderr to the model, or for Gemini CLI's ``AfterTool`` hides the
            tool's result; Copilot logs and skips any non-zero code; Codex follows Claude
            Code's hook contract; Cursor documents no exit-code meaning but 0). Each doc
            page cites its source.
        guest: for a runtime whose hook files another runtime runs too, ``(input,
            environment) -> name`` of the runtime that sent this input, or None when it is
            this one's: the input is then decoded and recorded as that runtime's.
    """

    name: str
    title: str
    doc: str
    decode: Callable[[bytes], RuntimeEvent] | None
    ack: str
    wiring: Wiring | None
    markers: tuple[str, ...]
    route: tuple[str, ...] = field(default=())
    settings_writer: SettingsWriter | None = None
    failure_exit: int = 1
    guest: Callable[[bytes, Mapping[str, str]], str | None] | None = None
    project_markers: tuple[str, ...] = field(default=())


RUNTIMES: tuple[Runtime, ...] = (
    Runtime(
        name=claude_code.NAME,
        title="Claude Code",
        doc="docs/agents/claude-code.md",
        decode=claude_code.decode,
        ack="",
        wiring=Wiring(
            project=".claude/settings.json",
            user=".claude/settings.json",
            home_env=claude_code.CONFIG_DIR,
            shape="grouped",
            event="PostToolUse",
            matcher="|".join(claude_code.WRITE_TOOLS),
            entry=(("type", "command"),),
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
        guest=claude_code.guest,
        markers=(".claude",),
        project_markers=("CLAUDE.md",),
    ),
    Runtime(
        name=codex.NAME,
        title="Codex CLI",
        doc="docs/agents/codex.md",
        decode=codex.decode,
        ack="",
        wiring=Wiring(
            project=".codex/hooks.json",
            user=".codex/hooks.json",
            home_env="CODEX_HOME",
            shape="grouped",
            event="PostToolUse",
            matcher="apply_patch",
            entry=(("type", "command"),),
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
        markers=(".codex",),
        project_markers=("AGENTS.md",),
    ),
    Runtime(
        name=gemini_cli.NAME,
        title="Gemini CLI",
        doc="docs/agents/gemini-cli.md",
        decode=gemini_cli.decode,
        ack="{}",
        wiring=Wiring(
            project=".gemini/settings.json",
            user=".gemini/settings.json",
            shape="grouped",
            event="AfterTool",
            matcher="|".join(gemini_cli.WRITE_TOOLS),
            entry=(("name", "gentle-hooks-record"), ("type", "command")),
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
    Runtime(
        name=cursor.NAME,
        title="Cursor",
        doc="docs/agents/cursor.md",
        decode=cursor.decode,
        ack="{}",
        wiring=Wiring(
            project=".cursor/hooks.json",
            user=".cursor/hooks.json",
            shape="flat",
            event=cursor.EVENT,
            also_events=tuple(cursor.SUBAGENT_EVENTS),
            matcher=None,
            entry=(),
            version=1,
            notes=("restart Cursor to load the hook",),
            project_notes=("project hooks run in a trusted workspace",),
        ),
        markers=(".cursor",),
    ),
    Runtime(
        name=copilot.NAME,
        title="GitHub Copilot (CLI and cloud agent)",
        doc="docs/agents/copilot.md",
        decode=copilot.decode,
        ack="",
        settings_writer=copilot.settings_writer,
        wiring=Wiring(
            project=".github/hooks/gentle-hooks.json",
            user=".copilot/hooks/gentle-hooks.json",
            home_env="COPILOT_HOME",
            shape="flat",
            event="postToolUse",
            also_events=copilot.SUBAGENT_EVENTS,
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
    Runtime(
        name=windsurf.NAME,
        title="Windsurf (Cascade)",
        doc="docs/agents/windsurf.md",
        decode=windsurf.decode,
        ack="",
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
    Runtime(
        name=droid.NAME,
        title="Factory Droid",
        doc="docs/agents/droid.md",
        decode=droid.decode,
        ack="",
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
    Runtime(
        name=cline.NAME,
        title="Cline",
        doc="docs/agents/cline.md",
        decode=cline.decode,
        ack="",
        wiring=Wiring(
            # docs.cline.bot/customization/hooks, "Hook Locations"; cline/cline
            # apps/vscode/src/core/controller/file/refreshHooks.ts @ 21cb8d25
            project=".clinerules/hooks/PostToolUse",
            user="Documents/Cline/Hooks/PostToolUse",
            shape="file",
            event=cline.EVENT,
            matcher=None,
            entry=(),
            file_mode=0o755,
            notes=(
                "Cline runs hooks only once they are enabled: switch on Hooks in Cline's "
                "settings (CLI: cline config set hooks-enabled=true) and this hook in its "
                "Hooks tab",
            ),
        ),
        markers=(".clinerules", "Documents/Cline"),
    ),
    Runtime(
        name=opencode.NAME,
        title="OpenCode",
        doc="docs/agents/opencode.md",
        decode=opencode.decode,
        ack="",
        wiring=Wiring(
            # opencode.ai/docs/plugins, "From local files"
            project=".opencode/plugins/gentle-hooks.js",
            user=".config/opencode/plugins/gentle-hooks.js",
            shape="file",
            event="tool.execute.after",
            matcher=None,
            entry=(),
            notes=("OpenCode loads plugins at startup: restart it",),
        ),
        markers=(".opencode", ".config/opencode"),
    ),
    Runtime(
        name=pi.NAME,
        title="Pi",
        doc="docs/agents/pi.md",
        decode=pi.decode,
        ack="",
        wiring=Wiring(
            # earendil-works/pi packages/coding-agent/docs/extensions.md, "Extension Locations"
            project=".pi/extensions/gentle-hooks.ts",
            user=".pi/agent/extensions/gentle-hooks.ts",
            shape="file",
            event="tool_result",
            matcher=None,
            entry=(),
            notes=("Pi loads extensions at startup: run /reload in Pi, or restart it",),
        ),
        markers=(".pi",),
    ),
    Runtime(
        name=kiro.NAME,
        title="Kiro CLI",
        doc="docs/agents/kiro.md",
        decode=kiro.decode,
        ack="",
        wiring=Wiring(
            # kiro.dev/docs/cli/v3/hooks; ~/.kiro/hooks/: kiro.dev/changelog/cli/2-13/
            project=".kiro/hooks/gentle-hooks.json",
            user=".kiro/hooks/gentle-hooks.json",
            shape="file",
            event="PostToolUse",
            matcher=None,
            entry=(),
            notes=("Kiro CLI 3 reads .kiro/hooks/ at the start of a session",),
        ),
        markers=(".kiro",),
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


def record_command(name: str, program: str = "gentle-hook") -> str:
    """The command a runtime's hook runs: ``<program> record --from <name>``."""
    return f"{program} record --from {name}"
