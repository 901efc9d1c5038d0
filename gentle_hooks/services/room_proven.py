"""Whether a verify room's check provably starts every Python under the room's import guard
(issue 18: the room imports nothing from the work tree it does not hold; SPEC §9: a verify
run checks "the candidate's exact tree").

Room ``services``. Reading command words cannot close every way a check starts Python
without the guard: ``python3 $F`` with ``F=-E`` in the brief's ``env``, ``env -S 'python3
-E'``, a program ``py`` linked to the interpreter, a Makefile's recipe, a ``#!/bin/sh``
script running ``python3 -E``, a ``#!/usr/bin/env -S PYTHONPATH= python3`` script. So when
the room's interpreters, started without the guard, reach a place outside the room in a
work tree (:func:`~gentle_hooks.services.room_unguarded.unguarded_reach`), a check runs
only when :func:`unproven` finds nothing it cannot read; every other check is refused
(:func:`~gentle_hooks.services.room_imports.room_argv`).

* :func:`unproven` — why a check is not proven to start every Python under the guard (the
  first word, program or construct it cannot read), or None. Proven, read through ``sh
  -c`` lines (:func:`~gentle_hooks.policy.shell.parse_line`), ``env NAME=value``,
  ``nice``, ``timeout``, ``nohup``, ``time``, ``stdbuf``, ``exec``, ``command``:

  - a shell builtin that starts nothing (``test``, ``[``, ``cd``, ``echo`` ...);
  - a program resolving (symbolic links followed) to a Python interpreter that is no
    script (or pyenv's shim of one), started without ``-I``, ``-E`` or ``-S`` (``py``
    linked to ``python3`` counts as Python);
  - a script whose ``#!`` line is such an interpreter (by absolute path, or ``/usr/bin/env
    python3`` with that one word), with no such flag;
  - a program of :data:`SIMPLE` (tools that start no program) resolving to a binary in
    ``/bin`` or ``/usr/bin``, or an ``awk`` there whose program text (no ``-f`` file)
    holds no ``system``, pipe (``|``) or ``@load`` (:data:`AWKS`);
  - a name found nowhere on ``PATH`` (it starts nothing).

  Refused: a word holding ``$`` or a backquote (a variable may hold ``-E``), an
  assignment of ``PATH`` or of a ``PYTHON*`` variable but ``PYTHONPATH`` (the room keeps
  its entries in front of that one), ``env`` with an option (``-u``, ``-i``; ``-S STRING``
  is read as the words it splits into, those judged as ``env``'s own), any
  other program (``make``, ``tox``, a shell script, an unknown binary), a line the reader
  cannot parse.

Not covered: a Python that a proven Python starts in turn (a test spawning ``python -E``:
the candidate's code, run under the guard, decides that), a shell's start-up file named by
``BASH_ENV``/``ENV`` in the checks' environment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from gentle_hooks.policy.programs import BUILTINS
from gentle_hooks.policy.pythonpath_line import python_flag
from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, env_split, shell_script, unwrap

#: A Python interpreter's file name (``python3``, ``python3.11``, ``pypy3``).
_PYTHON = re.compile(r"^(python|pypy)(\d+(\.\d+)?)?$")
#: Builtins that run other commands or files: not proven by their name.
_RUNNING = frozenset({"eval", "exec", "command", "builtin", "source", ".", "trap", "alias"})
#: Wrappers read through to the command they run.
_WRAPPERS = frozenset({"nice", "timeout", "nohup", "time", "stdbuf", "exec", "command"})
#: Programs that start no other program, proven when a binary in a system directory.
SIMPLE = frozenset(
    {"test", "[", "true", "false", "cat", "grep", "egrep", "fgrep", "diff", "cmp", "ls"}
    | {"wc", "head", "tail", "echo", "printf", "sort", "uniq", "cut", "tr", "stat", "expr"}
    | {"basename", "dirname", "realpath", "readlink", "sha256sum", "md5sum", "sleep"}
)
#: awk implementations: proven when their program text starts nothing (:func:`_awk`).
AWKS = frozenset({"awk", "mawk", "gawk", "nawk", "original-awk", "busybox-awk"})
#: Where a :data:`SIMPLE` program must be.
_SYSTEM = ("/bin", "/usr/bin")
#: The most bytes of a program read for its ``#!`` line.
_HEAD = 512


def unproven(argv: Sequence[str], path: str, cwd: str) -> str | None:
    """Why ``argv`` (``("sh", "-c", LINE)`` for a shell line) is not proven to start every
    Python under the guard (module docstring), or None; programs are looked up on ``path``
    (``:``-separated, relative entries from ``cwd``, where the check runs)."""
    return _words(tuple(argv), path, cwd, 0, shell=False)


def _words(words: tuple[str, ...], path: str, cwd: str, depth: int, *, shell: bool) -> str | None:
    """``shell``: ``words`` is a simple command of a shell line (its builtins count)."""
    if not words:
        return None
    if depth > MAX_DEPTH:
        return "its commands nest deeper than this room reads"
    name = words[0]
    base = name.rsplit("/", 1)[-1]
    varied = next((w for w in words if "$" in w or "`" in w), None)
    if varied is not None and not (base in SHELLS and "$" not in name and "`" not in name):
        return f"`{varied}` holds a variable or a substitution"
    if shell and name in BUILTINS and name not in _WRAPPERS:
        return f"`{name}` runs what this room cannot read" if name in _RUNNING else None
    if base in {*SHELLS, "env", *_WRAPPERS} and not _system(name, path, cwd):
        return f"`{name}` is not the system's {base}"
    if base in SHELLS:
        script, _ = shell_script(words)
        line = parse_line(script) if script is not None else None
        if line is None:
            return f"`{name}` runs a script this room cannot read"
        return _line(line, path, cwd, depth + 1)
    if base == "env":
        split = env_split(words)
        if split is None:
            return f"`{' '.join(words[:3])}` splits a string this room cannot read"
        rest = list(split[1:])
        while rest and "=" in rest[0] and not rest[0].startswith("-"):
            word = rest.pop(0)
            if split != words and word.startswith("PYTHONPATH="):
                # set inside -S's string: the room cannot put its entries in front
                return f"`env -S` sets `{word}`, out of the room's reach"
            why = _assignment(word)
            if why:
                return why
        if rest and rest[0].startswith("-"):
            return f"`env {rest[0]}` is not read by this room"
        return _words(tuple(rest), path, cwd, depth + 1, shell=False)
    if base in _WRAPPERS:
        inner = unwrap(words)
        return None if inner is None else _words(inner, path, cwd, depth + 1, shell=False)
    return _program(words, path, cwd)


def _system(name: str, path: str, cwd: str) -> bool:
    """``name`` runs a file of ``/bin`` or ``/usr/bin`` (links followed), or none."""
    found = _lookup(name, path, cwd)
    return found is None or os.path.dirname(os.path.realpath(found)) in _SYSTEM


def _assignment(word: str) -> str | None:
    key = word.split("=", 1)[0]
    if key == "PATH" or (key.startswith("PYTHON") and key != "PYTHONPATH"):
        return f"`{word}` changes how a Python starts"
    return None


def _line(line: ShellList, path: str, cwd: str, depth: int) -> str | None:
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                if isinstance(cmd, Group):
                    why = _line(cmd.body, path, cwd, depth + 1)
                elif isinstance(cmd, Simple):
                    why = next(filter(None, map(_assignment, cmd.assignments)), None)
                    varied = next((w for w in cmd.assignments if "$" in w or "`" in w), None)
                    why = why or (varied and f"`{varied}` holds a variable or a substitution")
                    why = why or _words(cmd.words, path, cwd, depth, shell=True)
                else:  # pragma: no cover - a line holds only groups and simple commands
                    why = "a command this room cannot read"
                if why:
                    return why
    return None


def _program(words: tuple[str, ...], path: str, cwd: str) -> str | None:
    """Why the program ``words`` starts is not proven (module docstring), or None."""
    name = words[0]
    found = _lookup(name, path, cwd)
    if found is None:
        return None  # found nowhere: it starts nothing
    real = os.path.realpath(found)
    head = _head(real)
    if (head is None or _pyenv_shim(found)) and _python_file(found, real):
        flag = python_flag(words)
        return f"`{name} -{flag}` starts Python without the guard" if flag else None
    if head is not None:
        return _script(name, head, path, cwd)
    if name.rsplit("/", 1)[-1] in SIMPLE and os.path.dirname(real) in _SYSTEM:
        return None
    if name.rsplit("/", 1)[-1] in AWKS and os.path.dirname(real) in _SYSTEM:
        return _awk(words)
    return f"`{name}` ({real}) may start a Python this room cannot see"


def _awk(words: tuple[str, ...]) -> str | None:
    """Why an ``awk`` command may start a program: a program file (``-f``) or an option
    other than ``-F`` and ``-v``, or a program text with ``system``, a pipe (``|``, not
    ``||``) or ``@`` (gawk's ``@load``); None when its program text has none of them."""
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        w = words[i]
        if w in ("-F", "-v"):
            i += 2
        elif w.startswith(("-F", "-v")):
            i += 1
        else:
            return f"`{words[0]} {w}` may run a program this room cannot read"
    i += 1 if i < len(words) and words[i] == "--" else 0
    text = words[i] if i < len(words) else ""
    if "system" in text or "|" in text.replace("||", "") or "@" in text:
        return f"`{words[0]}` program `{text[:40]}` may start a program"
    return None


def _script(name: str, shebang: tuple[str, ...], path: str, cwd: str) -> str | None:
    """Why the script ``name`` whose ``#!`` words are ``shebang`` is not proven."""
    words = shebang
    if words and words[0] in ("/usr/bin/env", "/bin/env"):
        if len(words) != 2 or not _PYTHON.match(words[1]):
            return f"`{name}`'s #! line `{' '.join(shebang)}` is not read by this room"
        found = _lookup(words[1], path, cwd)
        words = (found or words[1], *words[2:])
    interpreter = os.path.realpath(words[0]) if words else ""
    if not words or _head(interpreter) is not None or not _python_file(words[0], interpreter):
        return f"`{name}` is a script run by `{' '.join(shebang) or 'sh'}`"
    flag = python_flag((*words, "-c"))
    return f"`{name}`'s #! line starts Python with -{flag}" if flag else None


def _pyenv_shim(found: str) -> bool:
    """``found`` is in pyenv's ``shims`` (``<root>/shims`` beside ``<root>/versions``): it
    runs the installation pyenv chooses, whose interpreters the room asks
    (:func:`~gentle_hooks.services.editable.pyenv_prefixes`)."""
    shims = os.path.dirname(found)
    versions = os.path.join(os.path.dirname(shims), "versions")
    return os.path.basename(shims) == "shims" and os.path.isdir(versions)


def _python_file(found: str, real: str) -> bool:
    return any(_PYTHON.match(os.path.basename(p)) for p in (found, real))


def _lookup(name: str, path: str, cwd: str) -> str | None:
    """The executable file ``name`` runs as (``PATH`` lookup for a bare name), or None."""
    if "/" in name:
        full = os.path.join(cwd, name)
        return full if os.path.isfile(full) else None
    for entry in path.split(os.pathsep):
        full = os.path.join(cwd, entry or ".", name)
        if os.path.isfile(full) and os.access(full, os.X_OK):
            return full
    return None


def _head(real: str) -> tuple[str, ...] | None:
    """The words of ``real``'s ``#!`` line; None when it has none (a binary)."""
    try:
        with open(real, "rb") as fh:
            data = fh.read(_HEAD)
    except OSError:
        return ()
    if not data.startswith(b"#!"):
        return None
    return tuple(data[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split())
