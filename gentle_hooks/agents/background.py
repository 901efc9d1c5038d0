"""Whether an agent's shell call leaves a process running after its post-tool event (SPEC §7
"Hooks"; docs/agents/claude-code.md and docs/agents/gemini-cli.md, "A command that runs in
the background").

Room ``agents`` (standard library only): pure functions over a tool's input. Such a call's
post-tool event fires before the process it left behind has written, so its snapshot is
kept open as a window for the session (:mod:`gentle_hooks.services.agent_windows`).

A call is a background one when the runtime says so (Claude Code's ``Bash``
``tool_input.run_in_background: true``; Gemini CLI's ``run_shell_command``
``tool_input.is_background: true``), or when its command, read conservatively, leaves a
process behind (:func:`leaves_process`): a ``&`` that ends a command (not ``&&``, nor the
``&`` of a redirection: ``2>&1``, ``&>``, ``>&``, ``<&``), or a word ``nohup``, ``setsid``,
``disown``, ``daemonize`` or ``start-stop-daemon`` in command position, outside quotes and
comments. A command that does not parse (an unterminated quote) counts as one: the window
costs a compare at the session's later events, a missed write costs the record (fail
closed).
"""

from __future__ import annotations

from collections.abc import Mapping

#: The tool-input members that say the runtime runs the call in the background.
FLAGS = ("run_in_background", "is_background")
#: Programs that leave the command they start running after the shell returns.
DETACHERS = frozenset({"nohup", "setsid", "disown", "daemonize", "start-stop-daemon"})
#: Characters that end a command word (the shell's operators and blanks).
_BREAKS = frozenset(" \t\n;|&()<>")
#: Words after which the next word is in command position again.
_LEADERS = frozenset({"then", "do", "else", "elif", "time", "!", "{", "exec", "command"})


def is_background(args: object) -> bool:
    """Whether the tool input ``args`` (an object) runs in the background: a member of
    :data:`FLAGS` that is ``true``, or a ``command`` that :func:`leaves_process`."""
    if not isinstance(args, Mapping):
        return False
    if any(args.get(flag) is True for flag in FLAGS):
        return True
    command = args.get("command")
    return isinstance(command, str) and leaves_process(command)


def leaves_process(command: str) -> bool:
    """Whether the shell ``command`` leaves a process running once it returns: a
    command-ending ``&`` or a :data:`DETACHERS` word in command position (see the module
    docstring); True for one whose quotes do not close."""
    words = _command_words(command)
    if words is None:
        return True
    detached, ampersand = words
    return ampersand or bool(detached & DETACHERS)


def _command_words(command: str) -> tuple[set[str], bool] | None:
    """The words in command position of ``command`` and whether a ``&`` ends a command in
    it; None when a quote does not close. Quotes, ``\\`` escapes and ``#`` comments are
    skipped; ``$(...)`` and backquotes are read as commands too (their ``&`` detaches)."""
    found: set[str] = set()
    ampersand = False
    i, n = 0, len(command)
    word: list[str] = []
    head = True  # the next word is in command position
    quoted = False
    while i <= n:
        ch = command[i] if i < n else "\n"
        if ch in "'\"":
            close = command.find(ch, i + 1)
            while ch == '"' and close > 0 and command[close - 1] == "\\":
                close = command.find(ch, close + 1)
            if close < 0:
                return None
            word.append(command[i + 1 : close])
            quoted = True
            i = close + 1
            continue
        if ch == "\\":
            word.append(command[i + 1 : i + 2])
            i += 2
            continue
        if ch == "#" and not word:
            end = command.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch not in _BREAKS and ch != "`" and not (ch == "$" and command[i + 1 : i + 2] == "("):
            word.append(ch)
            i += 1
            continue
        if word or quoted:
            text = "".join(word)
            if head and not quoted and "=" in text and not text.startswith("="):
                pass  # an assignment before the command: the command word follows
            else:
                if head:
                    found.add(text.rsplit("/", 1)[-1])
                head = text in _LEADERS
            word, quoted = [], False
        if ch == "&":
            before = command[i - 1] if i > 0 else ""
            after = command[i + 1] if i + 1 < n else ""
            if after == "&":  # &&: the next command runs after this one ends
                i += 2
                head = True
                continue
            if before in "<>|" or after == ">":  # 2>&1, >&, <&, &>, &>>, |&
                i += 1
                continue
            ampersand = True
            head = True
        elif ch in ";|()\n`" or ch == "$":
            head = True
            i += 2 if ch == "$" else 1
            continue
        i += 1
    return found, ampersand
