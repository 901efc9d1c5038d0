"""A check's own ``PYTHONPATH`` and an isolated interpreter, read from its command (SPEC §9:
a verify run checks "the candidate's exact tree"; issue 18, the room's import redirects).

Room ``policy`` (pure). A verify room puts its own entries first on ``PYTHONPATH`` (the
room's copy of what an editable install imports, and the import guard:
:mod:`gentle_hooks.services.room_imports`). A check that sets ``PYTHONPATH`` itself
(``PYTHONPATH=tests python3 -m pytest``) would drop them, and a Python started with
``-I``, ``-E`` or ``-S`` ignores them or the guard: the work tree's code is imported.

* :func:`composed_argv` — the argument vector with the room's entries put in front of each
  ``PYTHONPATH=`` assignment it can reach: an unquoted word of a shell line (``NAME=value
  cmd``, ``export``, ``env``'s arguments, ``make``'s), a word of the vector before the
  command ``env`` runs, through wrappers and ``sh -c``; and the assignments it cannot
  reach (inside a quoted script, ``unset PYTHONPATH``, ``env -u PYTHONPATH``).
* :func:`isolating` — why a check escapes the room's ``PYTHONPATH`` or guard: a Python
  started with ``-I``, ``-E`` or ``-S``, or ``env -i``; None when none does.

Not read: a ``PYTHONPATH`` set inside a file the check runs (a Makefile, ``tox.ini``, a
script), a Python a script's ``#!`` line starts with ``-I``, a word built from variables.
"""

from __future__ import annotations

import re
import shlex

from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, program_name, shell_script, unwrap

#: The variable whose assignments are composed.
NAME = "PYTHONPATH"
#: What ends a word outside quotes (a word starts after one).
_BREAKS = " \t\n;&|()<>"
#: A Python interpreter's program name (``python3``, ``python3.11``, ``pypy3``).
_PYTHON = re.compile(r"^(python|pypy)(\d+(\.\d+)?)?$")
#: ``unset PYTHONPATH``, ``env -u PYTHONPATH``, ``--unset=PYTHONPATH``: the room's entries go.
_UNSET = re.compile(r"(\bunset\b[^;&|\n]*|-u\s*|--unset[=\s]+)\bPYTHONPATH\b")
#: A line no parser reads: a Python started with one of the flags, or ``env -i``.
_ISOLATED_TEXT = re.compile(r"\b(python|pypy)[\d.]*\s+-[A-Za-z]*[IES]|\benv\s+(-i|-\s|--ignore)")
#: Python's options that take the next word (or the rest of the cluster).
_WITH_VALUE = "WX"
#: Flags that make the room's entries or guard ineffective, and what each does.
_FLAGS = {"I": "isolated mode", "E": "PYTHON* variables ignored", "S": "no site hooks"}


def composed_argv(argv: tuple[str, ...], first: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(``argv`` with ``first`` — the room's entries, ``:``-separated — put in front of
    each reachable ``PYTHONPATH=`` value, the ``:`` left out for an empty one; the
    assignments, ``unset`` or ``env -u`` of it that could not be reached, as written)."""
    return _argv(argv, first, 0)


def _argv(argv: tuple[str, ...], first: str, depth: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not argv or depth > MAX_DEPTH:
        return argv, ()
    inner = unwrap(argv)
    if inner is not None:
        at = len(argv) - len(inner)
        head = list(argv[:at])
        if program_name(argv[0]) == "env":
            head = [_assigned(w, first) if w.startswith(NAME + "=") else w for w in head]
        missed = tuple(" ".join(argv[i : i + 2]) for i in range(1, at) if _unsets(argv, i))
        rest, more = _argv(inner, first, depth + 1)
        return (*head, *rest), missed + more
    if argv[0].rsplit("/", 1)[-1] in SHELLS:
        script, _ = shell_script(argv)
        if script is not None:
            at = len(argv) - 1 - argv[::-1].index(script)
            line, missed = composed_line(script, first)
            return (*argv[:at], line, *argv[at + 1 :]), missed
    return argv, ()


def _unsets(argv: tuple[str, ...], i: int) -> bool:
    word = argv[i]
    return (word in ("-u", "--unset") and argv[i + 1 : i + 2] == (NAME,)) or word in (
        f"-u{NAME}",
        f"--unset={NAME}",
    )


def _assigned(word: str, first: str) -> str:
    """A ``PYTHONPATH=value`` word of a vector with ``first`` in front of its value."""
    value = word[len(NAME) + 1 :]
    return f"{NAME}={first}{':' + value if value else ''}"


def composed_line(line: str, first: str) -> tuple[str, tuple[str, ...]]:
    """(a shell ``line`` with ``first`` quoted in front of each ``PYTHONPATH=`` value of an
    unquoted word, the ``:`` left out for an empty one; the ``PYTHONPATH=`` words inside
    quotes, and the ``unset``/``env -u`` of it, as written)."""
    out: list[str] = []
    missed: list[str] = []
    quote = ""
    i = 0
    key = NAME + "="
    while i < len(line):
        c = line[i]
        starts = i == 0 or line[i - 1] in _BREAKS
        if c == "\\" and quote != "'":
            out.append(line[i : i + 2])
            i += 2
            continue
        if quote == "" and starts and line.startswith(key, i):
            at = i + len(key)
            empty = at >= len(line) or line[at] in _BREAKS
            out.append(key + shlex.quote(first) + ("" if empty else ":"))
            i = at
            continue
        if line.startswith(key, i) and (i == 0 or not _ident(line[i - 1])):
            missed.append(_word_at(line, i))
        if c in "'\"" and quote in ("", c):
            quote = "" if quote == c else c
        out.append(c)
        i += 1
    missed += [m.group(0).strip() for m in _UNSET.finditer(line)]
    return "".join(out), tuple(missed)


def _ident(c: str) -> bool:
    return c.isalnum() or c in "_$"


def _word_at(line: str, i: int) -> str:
    end = i
    while end < len(line) and line[end] not in " \t\n;&|()'\"":
        end += 1
    return line[i:end]


def isolating(argv: tuple[str, ...]) -> str | None:
    """Why ``argv`` (``("sh", "-c", LINE)`` for a shell line) starts a Python the room's
    ``PYTHONPATH`` entries or import guard do not reach: ``python3 -I`` (``-E``, ``-S``,
    in a cluster such as ``-Im``) or ``env -i`` before it, read through wrappers and
    ``sh -c`` lines, and after any other program word (a launcher no list names:
    ``setsid python3 -I``); a line no parser reads is searched for the same words. None
    when none does."""
    return _isolating(argv, 0)


def _isolating(words: tuple[str, ...], depth: int) -> str | None:
    if not words or depth > MAX_DEPTH:
        return None
    name = program_name(words[0]).rsplit("/", 1)[-1]
    if name == "env" and any(w in ("-i", "-", "--ignore-environment") for w in words[1:]):
        return "`env -i` clears the room's PYTHONPATH"
    if _PYTHON.match(name):
        flag = python_flag(words)
        return f"`{words[0]} -{flag}` ({_FLAGS[flag]})" if flag else None
    inner = unwrap(words)
    if inner is not None:
        return _isolating(inner, depth + 1)
    if name in SHELLS:
        script, _ = shell_script(words)
        if script is not None:
            parsed = parse_line(script)
            if parsed is None:
                found = _ISOLATED_TEXT.search(script)
                return f"`{found.group(0).strip()}`" if found else None
            return _in_line(parsed, depth + 1)
    # a launcher no list names (setsid, unshare, ionice, taskset, prlimit, chrt ...): a
    # Python or `env` among its words is read as started by it (fail closed)
    for k in range(1, len(words)):
        later = program_name(words[k]).rsplit("/", 1)[-1]
        if _PYTHON.match(later) or later == "env":
            why = _isolating(words[k:], depth + 1)
            if why:
                return why
    return None


def _in_line(line: ShellList, depth: int) -> str | None:
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                found = (
                    _in_line(cmd.body, depth + 1)
                    if isinstance(cmd, Group)
                    else _isolating(cmd.words, depth)
                    if isinstance(cmd, Simple)
                    else None
                )
                if found:
                    return found
    return None


def python_flag(words: tuple[str, ...]) -> str | None:
    """The first of ``-I``, ``-E``, ``-S`` among a Python command's options (before its
    script, ``-c`` or ``-m``)."""
    i = 1
    while i < len(words):
        w = words[i]
        if w == "--" or w == "-" or not w.startswith("-"):
            return None
        if w.startswith("--"):
            i += 2 if w == "--check-hash-based-pycs" else 1
            continue
        for j, c in enumerate(w[1:], 1):
            if c in _FLAGS:
                return c
            if c in "cm":
                return None
            if c in _WITH_VALUE:
                i += 1 if j == len(w) - 1 else 0
                break
        i += 1
    return None
