"""The programs a verifier's check starts, by the words that name them (SPEC §9; seed 001
"Contract": the verifier gets "the tools needed to re-check them").

Room ``policy`` (pure: the caller resolves the names on the room's ``PATH`` and reads the
files). A check's outcome is what its programs say: a ``pytest`` first on the caller's
``PATH`` that adds ``--ignore-glob`` passes whatever the tree holds. :func:`check_programs`
names the programs a check starts, so the verify run can record which file each one was
(its path and SHA-256) and refuse one from a place the writer can write.

Read: the check's own program (``sh`` for a shell line) and the first word of each simple
command of the line, through ``env``/``timeout``/``sh -c`` wrappers (``python3 -m pytest``:
the interpreter ``python3``). Not read: the shell's builtins (they are the shell's), a word
with a variable, a path (``./check.sh``, a file of the candidate: judged by the checks and
by :mod:`gentle_hooks.policy.checkdefs`), what a program runs in turn.
"""

from __future__ import annotations

from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import SHELLS, shell_script, unwrap

#: Words a POSIX shell runs itself, whatever ``PATH`` holds.
BUILTINS = frozenset(
    {".", ":", "[", "cd", "echo", "eval", "exec", "exit", "export", "false", "printf"}
    | {"pwd", "read", "return", "set", "shift", "source", "test", "true", "type", "umask"}
    | {"unset", "wait", "command", "builtin", "trap", "alias", "ulimit", "times", "getopts"}
)


def _named(word: str) -> str | None:
    """``word`` as a program to look up: None for a builtin, a variable or a relative
    path (the candidate's file)."""
    if not word or "$" in word or "`" in word or word in BUILTINS:
        return None
    if "/" in word and not word.startswith("/"):
        return None
    return word


def _simple(words: tuple[str, ...], depth: int) -> list[str]:
    inner = unwrap(words) if depth < 8 else None
    found = [w for w in [_named(words[0])] if w]
    if inner is not None:
        return found + _simple(inner, depth + 1)
    if words[0].rsplit("/", 1)[-1] in SHELLS and depth < 8:
        script, _ = shell_script(words)
        if script is not None:
            return found + _line(script, depth + 1)
    return found


def _walk(line: ShellList, depth: int) -> list[str]:
    found: list[str] = []
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                if isinstance(cmd, Group):
                    found += _walk(cmd.body, depth + 1)
                elif isinstance(cmd, Simple) and cmd.words:
                    found += _simple(cmd.words, depth)
    return found


def _line(text: str, depth: int) -> list[str]:
    line = parse_line(text)
    return _walk(line, depth) if line is not None else []


def check_programs(argv: tuple[str, ...]) -> tuple[str, ...]:
    """The programs ``argv`` (``("sh", "-c", LINE)`` for a shell line) starts, by name or
    absolute path, in order, each once: the check's own program, and through a shell's
    ``-c`` line each simple command's (wrappers read through: ``env``, ``timeout``...)."""
    if not argv:
        return ()
    return tuple(dict.fromkeys(_simple(argv, 0)))
