"""The row types of the agent runtime table (:mod:`gentle_hooks.agents.runtimes`): a
runtime, and where and how its hook is wired.

Room ``agents`` (standard library only).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping

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
        shell_event: the one of :attr:`also_events` that snapshots the work tree before a
            shell call (Claude Code's ``PreToolUse`` of ``Bash``), not a subagent event;
            shell_after: the one that records what the call changed instead of
            :attr:`event` (Cursor's ``afterShellExecution``; Claude Code's
            ``PostToolUseFailure``, sent instead of ``PostToolUse`` for a command that
            exited non-zero), else None.
        turn_end: the one of :attr:`also_events` that fires when the agent's turn ends
            (Claude Code's ``Stop``): the session's background shell windows close there
            (:mod:`gentle_hooks.services.agent_windows`), else None; session_end: one that
            fires when the session ends, where they close too (Copilot's ``sessionEnd``).
        guarded: the runtime denies the tool call when a pre-tool hook exits non-zero
            (Copilot's ``preToolUse``): our command is written inside a guard that never
            fails, also where no ``gentle-hook`` is installed
            (:func:`gentle_hooks.agents.command_words.guard`).
        aliases: ``(tool, its other names)``: names a group's matcher may select the tool by
            (Codex matches ``apply_patch`` by ``Write`` and ``Edit`` too).
        hooks_files: standalone hooks files (relative as ``project``/``user``), in order:
            the first that exists is read instead of every settings file's hooks (Droid's
            ``.factory/hooks.json``), and install writes there; see agent_install.
        script: a shell script of ours (relative as ``project``/``user``) that runs the
            recorder, for a runtime whose entry's command must name a script file (Auggie's
            "must be a .sh file"): install writes it (executable) and the entry's command is
            its absolute path; uninstall removes it; doctor checks it (:meth:`names_script`).
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
    script: str | None = None
    shell_event: str | None = None
    shell_after: str | None = None
    turn_end: str | None = None
    session_end: str | None = None
    guarded: bool = False

    @property
    def brackets(self) -> bool:
        """Whether subagent events are wired (an :attr:`also_events` entry other than
        :attr:`shell_event`, :attr:`shell_after` and :attr:`turn_end`): only then can a
        subagent's marker be kept."""
        own = (self.shell_event, self.shell_after, self.turn_end, self.session_end)
        return any(e not in own for e in self.also_events)

    def names_script(self, command: object) -> bool:
        """Whether ``command`` is one path (quoted or not) naming a file of :attr:`script`'s
        name in a folder of its folder's name (``.../.augment/hooks/gentle-hooks.sh``): our
        script, wherever the checkout or home directory is."""
        if self.script is None or not isinstance(command, str):
            return False
        try:
            words = shlex.split(command)
        except ValueError:
            return False
        tail = "/" + self.script.lstrip("/")
        return len(words) == 1 and words[0].replace(os.sep, "/").endswith(tail)


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
        efforts: the runtime's own effort names mapped to our levels (lower-cased keys, as
            its decoder maps them), used for an effort a hook entry gives (``--effort``,
            ``GENTLE_WRITER_EFFORT``); None: only our own level names.
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
    efforts: Mapping[str, str] | None = None

    def before_tool(self, data: bytes) -> bool:
        """Whether hook input ``data`` fires before a tool runs (a shell call's snapshot, a
        writing call's kept files, or an event named ``PreToolUse``/``BeforeTool``/...):
        a failure of the recorder there must not deny the call, so it exits 0 then. Input
        that does not decode is none (no runtime sends it; our guarded command,
        :attr:`Wiring.guarded`, exits 0 whatever the recorder exits)."""
        from gentle_hooks.agents.event import SHELL_BEFORE, WRITE_BEFORE
        from gentle_hooks.errors import GentleError

        if self.decode is None:
            return False
        try:
            event = self.decode(data)
        except GentleError:
            return False
        named = (event.hook_event or "").lower().replace("_", "")
        return event.shell in (SHELL_BEFORE, WRITE_BEFORE) or named.startswith(("pre", "before"))
