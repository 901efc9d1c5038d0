"""Whether an agent's shell call leaves a process running after its post-tool event (SPEC §7
"Hooks"; docs/agents/claude-code.md, "A command that runs in the background", and the same
section of each runtime's page).

Room ``agents`` (pure: the standard library and :mod:`gentle_hooks.policy`'s shell reader).
Such a call's post-tool event fires before the process it left behind has written, so its
snapshot is kept open as a window for the session
(:mod:`gentle_hooks.services.agent_windows`).

A call is a background one when the runtime says so (Claude Code's ``Bash``
``tool_input.run_in_background: true``; Gemini CLI's ``run_shell_command``
``tool_input.is_background: true``), or when its command leaves a process behind
(:func:`leaves_process`). The command is read with :func:`gentle_hooks.policy.shell.parse_line`
(POSIX grammar, quotes removed); at any depth of ``( )``/``{ }`` groups, ``$( )`` and
backquote substitutions, ``sh -c``/``bash -c`` scripts (:data:`.policy.wrappers.SHELLS`) and
wrappers (:func:`gentle_hooks.policy.wrappers.unwrap`: ``env``, ``nice``, ``timeout``,
``stdbuf``, ``command``, ``exec``, ``xargs``...; and :data:`EXTRA_WRAPPERS`: ``sudo``,
``doas``, ``ionice``, ``chrt``, ``taskset``), it is one when:

* a command list item ends with ``&`` (not ``&&``, nor a redirection's ``2>&1``/``&>``);
* a command is a :data:`DETACHERS` program (``nohup``, ``setsid``, ``disown``,
  ``daemonize``, ``start-stop-daemon``, ``systemd-run``, ``at``, ``batch``), ``screen``
  with a ``-d``/``-D``/``-X`` option, or ``tmux`` with a :data:`TMUX_STARTS` subcommand;
* an interpreter (:data:`INTERPRETERS`: python, node, perl, ruby...) runs a ``-c``/``-e``
  code argument holding one of :data:`SPAWN_WORDS` (``Popen``, ``fork``, ``spawn``,
  ``start_new_session``, ``daemon``, ``detach``...), or a ``&`` next to ``system``/``exec``/
  ``popen`` (cheap words, not a reading of the language);
* it runs ``eval``, or its command word is made at run time (``$VAR``, ``$(...)``), or the
  nesting is deeper than :data:`.policy.wrappers.MAX_DEPTH`: fail closed, as a window costs
  only a compare at the session's later events while a missed write costs the record.

A line ``parse_line`` does not read (a compound command ``if``/``for``/``while``/``until``/
``case``, ``[[ ]]``, a function definition, a here-document) is read by
:func:`gentle_hooks.agents.shellscan.scan`: a control ``&`` at any depth, or one of the
commands above in command position, makes it a background one, and a foreground compound
line is not (a window it opened would make a person's edits during the turn the writer's).
A here-document is the input of its command, not scanned, unless that command reads it as
a script (a shell with no script operand or with ``-s``: ``bash <<EOF``, ``sh -s <<EOF``;
read as a line) or as code (an interpreter with no script operand or ``-``: ``python3 -
<<'EOF'``; the code words above); the ``$( )`` of an unquoted one's body are read as lines.
Only a line neither reader can tokenize (an unclosed quote) fails closed.

Not seen: what a script file run by name does (``./run.sh``, ``python job.py``,
``bash job.sh``, ``source job.sh``): its text is not read.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from gentle_hooks.agents.shellscan import Command, Scan, Unreadable, scan
from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import (
    MAX_DEPTH,
    SHELLS,
    Wrapper,
    shell_script,
    unwrap,
    wrapped_words,
)

#: The tool-input members that say the runtime runs the call in the background.
FLAGS = ("run_in_background", "is_background")
#: Programs that leave the command they start running after the shell returns.
DETACHERS = frozenset(
    {
        "nohup",
        "setsid",
        "disown",
        "daemonize",
        "daemon",
        "start-stop-daemon",
        "systemd-run",
        "at",
        "batch",
        "coproc",
    }
)
#: Commands whose program or code is made at run time: what they run is not known.
OPAQUE = frozenset({"eval"})
#: tmux subcommands that start (or send) a command the tmux server keeps running.
TMUX_STARTS = frozenset(
    {
        "new",
        "new-session",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "run-shell",
        "run",
        "send-keys",
        "send",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
    }
)
#: Wrappers :func:`gentle_hooks.policy.wrappers.unwrap` does not read through.
EXTRA_WRAPPERS: tuple[Wrapper, ...] = (
    Wrapper("sudo", ("-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-D", "--user", "--group")),
    Wrapper("doas", ("-u", "-C")),
    Wrapper("ionice", ("-c", "-n", "-p", "-P", "-u", "--class", "--classdata")),
    Wrapper("chrt", (), leading=1),
    Wrapper("taskset", (), leading=1),
)
#: Interpreters and the options whose next word is code to run.
INTERPRETERS: dict[str, tuple[str, ...]] = {
    "python": ("-c",),
    "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "php": ("-r",),
}
#: Words in interpreter code that start a process which may outlive the call.
SPAWN_WORDS = (
    "popen",
    "fork",
    "spawn",
    "start_new_session",
    "setsid",
    "daemon",
    "detach",
    "nohup",
    "disown",
)
#: Interpreter options whose next word is code (then standard input is not the program).
_CODE_OPTIONS = frozenset(o for options in INTERPRETERS.values() for o in options) | {"-m"}
#: Interpreter options that take a value (python ``-W``/``-X``, node ``-r``...).
_VALUE_OPTIONS = frozenset({"-W", "-X", "-r", "--require", "--import", "--input-type", "-I"})
#: Words in interpreter code that run a shell line (with a ``&``: a background one).
_RUNS_SHELL = ("system", "exec", "popen", "subprocess", "child_process", "`", "%x")


def is_background(args: object) -> bool:
    """Whether the tool input ``args`` (an object) runs in the background: a member of
    :data:`FLAGS` that is ``true``, or a ``command`` that :func:`leaves_process`."""
    if not isinstance(args, Mapping):
        return False
    if any(args.get(flag) is True for flag in FLAGS):
        return True
    return command_leaves_process(args.get("command"))


def command_leaves_process(command: object) -> bool:
    """:func:`leaves_process` of a string ``command``, or of an argument list (Codex's
    ``["bash", "-lc", SCRIPT]``) quoted back into one line; False for anything else."""
    if isinstance(command, list) and command and all(isinstance(w, str) for w in command):
        command = shlex.join(command)
    return isinstance(command, str) and leaves_process(command)


def leaves_process(command: str, depth: int = 0) -> bool:
    """Whether the shell line ``command`` leaves a process running once it returns (see the
    module docstring); True when it cannot be read, or nests deeper than ``MAX_DEPTH``."""
    if depth > MAX_DEPTH:
        return True
    if not command.strip():
        return False
    # ``((`` (arithmetic, whose ``&`` parse_line takes for a group's) and backquotes (which
    # parse_line keeps unread inside a word) go to the scanner
    line = parse_line(command) if "((" not in command and "`" not in command else None
    if line is not None:
        return _list(line, depth)
    try:
        found = scan(command)
    except Unreadable:
        return True
    return _scanned(found, depth)


def _scanned(found: Scan, depth: int) -> bool:
    """Whether a line :func:`.shellscan.scan` read leaves a process behind."""
    if found.background:
        return True
    if any(leaves_process(s, depth + 1) for s in found.substitutions):
        return True
    return any(_words(c.words, depth) or _reads_script(c, depth) for c in found.commands)


def _reads_script(command: Command, depth: int) -> bool:
    """Whether a here-document of ``command`` is a script its shell runs that leaves a
    process behind, or code its interpreter runs that holds a spawn word."""
    if not command.heredocs:
        return False
    words = _unwrapped(command.words)
    name = words[0].rsplit("/", 1)[-1] if words else ""
    if name in SHELLS and _stdin_script(words, shell=True):
        return any(leaves_process(h.body, depth + 1) for h in command.heredocs)
    if _interpreter(name) is not None and _stdin_script(words, shell=False):
        return any(_code_holds_spawn(h.body.lower()) for h in command.heredocs)
    return False


def _unwrapped(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` read through every wrapper to the command it runs."""
    for _ in range(MAX_DEPTH + 1):
        inner = (unwrap(words) or _extra_unwrap(words)) if words else None
        if inner is None:
            return words
        words = inner
    return words


def _stdin_script(words: tuple[str, ...], *, shell: bool) -> bool:
    """Whether a shell (``shell``) or an interpreter reads its program from standard input:
    no ``-c``/code option and no operand before it (a shell's ``-s``, a ``-``, say so)."""
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("-", "--"):
            return w == "-" or i + 1 == len(words)
        if shell and w in ("-o", "+o"):
            i += 2
            continue
        if not w.startswith(("-", "+")):
            return False  # a script file operand: the here-document is its input
        if shell and not w.startswith("--") and "c" in w[1:]:
            return False
        if shell and not w.startswith("--") and "s" in w[1:]:
            return True
        if not shell and w in _CODE_OPTIONS:
            return False
        i += 2 if not shell and w in _VALUE_OPTIONS else 1
    return True


def _list(line: ShellList, depth: int) -> bool:
    for and_or, ampersand in line.items:
        if ampersand:
            return True
        pipelines = (and_or.first, *(p for _, p in and_or.rest))
        for command in (c for p in pipelines for c in p.commands):
            if isinstance(command, Group):
                if _list(command.body, depth):
                    return True
            elif _simple(command, depth):
                return True
    return False


def _simple(command: Simple, depth: int) -> bool:
    """Whether one simple command (after its assignments) leaves a process behind."""
    if any(_substituted(w, depth) for w in (*command.assignments, *command.words)):
        return True
    return _words(command.words, depth)


def _words(words: tuple[str, ...], depth: int) -> bool:
    """Whether the command ``words`` (its substitutions read apart) leaves a process
    behind."""
    for _ in range(MAX_DEPTH + 1):
        if not words:
            return False
        name = words[0].rsplit("/", 1)[-1]
        if "$" in words[0] or "`" in words[0] or name in OPAQUE or name in DETACHERS:
            return True
        if name == "screen":
            return any(w.startswith("-") and set(w[1:]) & set("dDX") for w in words[1:])
        if name == "tmux":
            return any(w in TMUX_STARTS for w in words[1:])
        interpreter = _interpreter(name)
        if interpreter is not None:
            return _code_spawns(words, INTERPRETERS[interpreter])
        if name in SHELLS:
            script, _ = shell_script(words)
            return script is not None and leaves_process(script, depth + 1)
        inner = unwrap(words) or _extra_unwrap(words)
        if inner is None:
            return False
        words = inner
    return True


def _substituted(word: str, depth: int) -> bool:
    """Whether a ``$(...)`` or backquote substitution in ``word`` leaves a process behind."""
    if "`" in word:
        return True  # lines holding one go to the scanner: a guard, fail closed
    start = word.find("$(")
    while start >= 0:
        level, i = 0, start + 1
        while i < len(word):
            level += {"(": 1, ")": -1}.get(word[i], 0)
            if level == 0:
                break
            i += 1
        if level or leaves_process(word[start + 2 : i], depth + 1):
            return True
        start = word.find("$(", i)
    return False


def _interpreter(name: str) -> str | None:
    """The :data:`INTERPRETERS` key of a program name (``python3.12`` is ``python``)."""
    stem = name.rstrip("0123456789.")
    return stem if stem in INTERPRETERS else None


def _code_spawns(words: tuple[str, ...], options: tuple[str, ...]) -> bool:
    """Whether a code argument (after one of ``options``) holds a :data:`SPAWN_WORDS` word,
    or a ``&`` with a word that runs a shell line."""
    codes = [words[i + 1] for i, w in enumerate(words[:-1]) if w in options]
    codes += [w.split("=", 1)[1] for w in words if w.startswith("--eval=")]
    return any(_code_holds_spawn(c.lower()) for c in codes)


def _code_holds_spawn(code: str) -> bool:
    """Whether lower-cased interpreter ``code`` holds a :data:`SPAWN_WORDS` word, or a
    ``&`` with a word that runs a shell line."""
    if any(word in code for word in SPAWN_WORDS):
        return True
    return "&" in code.replace("&&", "") and any(word in code for word in _RUNS_SHELL)


def _extra_unwrap(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command an :data:`EXTRA_WRAPPERS` program runs (None: not one, or none)."""
    wrapper = next((w for w in EXTRA_WRAPPERS if w.name == words[0].rsplit("/", 1)[-1]), None)
    if wrapper is None:
        return None
    return wrapped_words(wrapper, words, assigns=wrapper.name == "sudo")
