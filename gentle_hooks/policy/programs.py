"""The programs a verifier's check starts, by the words that name them (SPEC §9; seed 001
"Contract": the verifier gets "the tools needed to re-check them").

Room ``policy`` (pure: the caller resolves the names on the room's ``PATH`` and reads the
files). A check's outcome is what its programs say: a ``pytest`` first on the caller's
``PATH`` that adds ``--ignore-glob`` passes whatever the tree holds. :func:`started_programs`
names the programs a check starts, each with the ``PATH`` it is looked up on, so the verify
run can record which file each one was (its path and SHA-256) and refuse one from a place
the writer can write.

Read: the check's own program (``sh`` for a shell line) and the first word of each simple
command of the line, through ``env``/``timeout``/``sh -c`` wrappers (``python3 -m pytest``:
the interpreter ``python3``); the ``PATH`` a command sets for itself (``PATH=bin:/usr/bin
pytest``, ``env PATH=bin pytest``: the brief's ``env`` read the same way) or for the rest
of the line (``PATH=bin && pytest``, ``export PATH=bin:$PATH && pytest``), ``$PATH`` in it
read as the ``PATH`` before. Not read: the shell's builtins (they are the shell's), a word
with a variable, a path (``./check.sh``, a file of the candidate: judged by the checks and
by :mod:`gentle_hooks.policy.checkdefs`), what a program runs in turn.
"""

from __future__ import annotations

import re

from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import SHELLS, program_name, shell_script, unwrap
from gentle_hooks.values.frozen import frozen

#: Words a POSIX shell runs itself, whatever ``PATH`` holds.
BUILTINS = frozenset(
    {".", ":", "[", "cd", "echo", "eval", "exec", "exit", "export", "false", "printf"}
    | {"pwd", "read", "return", "set", "shift", "source", "test", "true", "type", "umask"}
    | {"unset", "wait", "command", "builtin", "trap", "alias", "ulimit", "times", "getopts"}
)
#: ``$PATH`` or ``${PATH}`` inside a value.
_PATH_REFERENCE = re.compile(r"\$PATH\b|\$\{PATH\}")


@frozen
class Started:
    """A program a check starts: ``name`` (a name or an absolute path) and ``path``, the
    ``PATH`` it is looked up on (``:``-separated; relative entries are relative to the
    directory the check runs in)."""

    name: str
    path: str


def _named(word: str) -> str | None:
    """``word`` as a program to look up: None for a builtin, a variable or a relative
    path (the candidate's file)."""
    if not word or "$" in word or "`" in word or word in BUILTINS:
        return None
    if "/" in word and not word.startswith("/"):
        return None
    return word


def _with_path(assignments: tuple[str, ...], path: str) -> str:
    """``path`` after the ``NAME=value`` words ``assignments`` (the last ``PATH=`` wins;
    ``$PATH`` in it is ``path``)."""
    for word in assignments:
        if word.startswith("PATH="):
            # the text around each $PATH, joined by the PATH before
            path = path.join(_PATH_REFERENCE.split(word[len("PATH=") :]))
    return path


def _simple(
    words: tuple[str, ...], assignments: tuple[str, ...], depth: int, path: str
) -> list[Started]:
    path = _with_path(assignments, path)
    inner = unwrap(words) if depth < 8 else None
    found = [Started(w, path) for w in [_named(words[0])] if w]
    if inner is not None:
        # ``env NAME=value ... CMD``: CMD runs with them
        given = words[1 : len(words) - len(inner)] if program_name(words[0]) == "env" else ()
        return found + _simple(inner, tuple(w for w in given if "=" in w), depth + 1, path)
    if words[0].rsplit("/", 1)[-1] in SHELLS and depth < 8:
        script, _ = shell_script(words)
        if script is not None:
            return found + _line(script, depth + 1, path)
    return found


def _walk(line: ShellList, depth: int, path: str) -> tuple[list[Started], str]:
    """The programs of ``line`` and the ``PATH`` after it (``PATH`` is exported: a shell
    assignment or ``export`` of it changes what every later command looks up)."""
    found: list[Started] = []
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                if isinstance(cmd, Group):
                    inner, after = _walk(cmd.body, depth + 1, path)
                    found += inner
                    path = path if cmd.subshell else after
                elif isinstance(cmd, Simple) and not cmd.words:
                    path = _with_path(cmd.assignments, path)
                elif isinstance(cmd, Simple) and cmd.words[0] == "export":
                    path = _with_path(cmd.assignments + cmd.words[1:], path)
                elif isinstance(cmd, Simple):
                    found += _simple(cmd.words, cmd.assignments, depth, path)
    return found, path


def _line(text: str, depth: int, path: str) -> list[Started]:
    line = parse_line(text)
    return _walk(line, depth, path)[0] if line is not None else []


def started_programs(argv: tuple[str, ...], path: str) -> tuple[Started, ...]:
    """The programs ``argv`` (``("sh", "-c", LINE)`` for a shell line) starts, by name or
    absolute path, in order, each once with the ``PATH`` it is looked up on (``path``, the
    room's, unless its command or an earlier one of the line sets another): the check's own
    program, and through a shell's ``-c`` line each simple command's (wrappers read
    through: ``env``, ``timeout``...)."""
    if not argv:
        return ()
    return tuple(dict.fromkeys(_simple(argv, (), 0, path)))


def check_programs(argv: tuple[str, ...]) -> tuple[str, ...]:
    """The names of :func:`started_programs`, each once."""
    return tuple(dict.fromkeys(s.name for s in started_programs(argv, "")))
