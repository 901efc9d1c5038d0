"""The words of a hook command as the shell reads them: its program word (our
``gentle-hook``, past an environment prefix, wrappers and a leading ``cd DIR &&``), whether
it runs our recorder, and the command with that word replaced (SPEC §7 "Hooks").

A command may stand inside our guard, :func:`guard`'s ``command -v P >/dev/null 2>&1 &&
CALL || true`` (a runtime that denies the tool call when a pre-tool hook exits non-zero:
Copilot's ``preToolUse``, docs/agents/copilot.md): the words of ``CALL`` are read as the
command's, and the guard's ``P`` is retargeted with the program.

Room ``agents`` (standard library only): pure functions over a command string; every span
is kept, so a word is replaced without touching the rest of the user's text. Used by
:mod:`gentle_hooks.agents.wiring` (which re-exports :func:`program_of`,
:func:`program_words`, :func:`is_ours` and :func:`retarget`) and by the reach check
(:mod:`gentle_hooks.services.agent_reach`).
"""

from __future__ import annotations

import itertools
import re
import shlex

from gentle_hooks.agents import wrappers

#: One shell word of a command, quotes and escapes included (its span is kept, so a word
#: can be replaced without touching the rest of the user's text).
_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+""")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _words(command: str) -> list[tuple[str, int, int]] | None:
    """The words of ``command`` as the shell reads them, each with its span; None when it
    does not parse (an unterminated quote)."""
    try:
        shlex.split(command)
    except ValueError:
        return None
    out = []
    for m in _WORD.finditer(command):
        try:
            [value] = shlex.split(m.group(0)) or [""]
        except ValueError:
            return None
        out.append((value, m.start(), m.end()))
    return out


#: A ``cd`` target we accept before ``&&``: one variable (``"$CLAUDE_PROJECT_DIR"``, the
#: form Claude Code's hooks guide uses) or a plain path, never a substitution.
_CD_TARGET = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|[^$`;|&<>()]+")
#: Shell words that join a second command: a command holding one is not ours.
_OPERATORS = frozenset({"&&", "||", "|", ";", "&"})


#: The words of our guard before the call, ``P`` (the program it looks for) at index 2.
_GUARD_HEAD = ("command", "-v", None, ">/dev/null", "2>&1", "&&")
#: The words of our guard after the call.
_GUARD_TAIL = ("||", "true")


def guard(call: str, program: str) -> str:
    """``call`` (which runs ``program``) so that it never fails: it is skipped when the shell
    finds no ``program`` (``command -v``, POSIX), and whatever it exits becomes 0."""
    return f"command -v {program} >/dev/null 2>&1 && {call} || true"


def _guarded(words: list[tuple[str, int, int]]) -> bool:
    """Whether ``words`` are our guard around a call (:func:`guard`)."""
    if len(words) < len(_GUARD_HEAD) + len(_GUARD_TAIL) + 1:
        return False
    head = [w for w, _, _ in words[: len(_GUARD_HEAD)]]
    tail = tuple(w for w, _, _ in words[-len(_GUARD_TAIL) :])
    return tail == _GUARD_TAIL and all(
        h is None or h == w for h, w in zip(_GUARD_HEAD, head, strict=True)
    )


def _call(words: list[tuple[str, int, int]]) -> tuple[list[tuple[str, int, int]], int]:
    """(the words of the call, the index of its first word in ``words``): inside our guard
    when there is one, else all of them."""
    if _guarded(words):
        return words[len(_GUARD_HEAD) : -len(_GUARD_TAIL)], len(_GUARD_HEAD)
    return words, 0


def is_guarded(command: str) -> bool:
    """Whether ``command`` is our guard around a call (:func:`guard`)."""
    words = _words(command)
    return words is not None and _guarded(words)


def unguarded(command: str) -> str:
    """The call inside our guard, as written; ``command`` itself when it has none."""
    words = _words(command)
    if words is None or not _guarded(words):
        return command
    inner = words[len(_GUARD_HEAD) : -len(_GUARD_TAIL)]
    return command[inner[0][1] : inner[-1][2]]


def _program_at(words: list[tuple[str, int, int]]) -> tuple[int, int | None] | None:
    """(where our ``gentle-hook`` word is, where the package runner that runs it starts, or
    None): after one leading ``cd DIR &&`` (DIR a variable or a plain path), then any
    ``NAME=value`` prefix and wrappers (:func:`wrappers.skip`: ``env``, ``timeout N``,
    ``uvx``, ``pipx run``...), inside our guard (:func:`guard`) when there is one; None
    when that program is not a ``gentle-hook``, or when another command follows it."""
    words, lo = _call(words)
    at = _call_program_at(words)
    return None if at is None else (at[0] + lo, None if at[1] is None else at[1] + lo)


def _call_program_at(words: list[tuple[str, int, int]]) -> tuple[int, int | None] | None:
    """:func:`_program_at` of a call with no guard around it."""
    start = 0
    if (
        len(words) > 3
        and words[0][0] == "cd"
        and words[2][0] == "&&"
        and _CD_TARGET.fullmatch(words[1][0])
    ):
        start = 3
    values = [w for w, _, _ in words]
    i, runner = wrappers.skip(values, start)
    if i >= len(values) or not wrappers.base(values[i]).startswith("gentle-hook"):
        return None
    return None if _OPERATORS.intersection(values[i + 1 :]) else (i, runner)


def program_of(command: str) -> str | None:
    """The ``gentle-hook`` a hook command runs (its environment prefix and wrappers skipped),
    or None (also when a package runner runs it: the runner resolves it, not the shell)."""
    words = _words(command)
    at = _program_at(words) if words else None
    return None if words is None or at is None or at[1] is not None else words[at[0]][0]


def program_words(command: str) -> tuple[str | None, str | None]:
    """(the ``cd`` target before ``&&``, the program word) of a hook command, each as
    written (quotes and variables kept, for the caller to expand); the program is our
    ``gentle-hook`` word (the package runner's first word when one runs it: ``uvx``), else
    the first word after any ``NAME=value`` prefix. A part that is not there (or a command
    that does not parse) is None."""
    every = _words(command)
    if not every:
        return None, None
    words, _ = _call(every)  # the guard's own words are not the call's
    found = _program_at(words)
    at = None if found is None else found[0] if found[1] is None else found[1]
    has_cd = at is not None and at >= 3 and words[0][0] == "cd" and words[2][0] == "&&"
    cd = command[words[1][1] : words[1][2]] if has_cd else None
    if at is None:
        rest = [w for w in words if not _ASSIGNMENT.match(w[0])]
        if not rest:
            return None, None
        _, start, end = rest[0]
    else:
        _, start, end = words[at]
    return cd, command[start:end]


def is_ours(command: object, runtime: str) -> bool:
    """True when ``command`` runs ``gentle-hook ... record ... --from <runtime>``, whatever
    environment prefix (``GENTLE_WRITER_EFFORT=medium ...``) or extra flags the user gave it."""
    if not isinstance(command, str):
        return False
    words = _words(command)
    at = _program_at(words) if words else None
    if words is None or at is None:
        return False
    rest = [w for w, _, _ in words[at[0] + 1 :]]
    if "record" not in rest:
        return False
    after = rest[rest.index("record") + 1 :]
    return f"--from={runtime}" in after or ("--from", runtime) in itertools.pairwise(after)


def retarget(command: str, program: str, *, drop_cd: bool = False) -> str:
    """``command`` with its ``gentle-hook`` word replaced by ``program`` (a package runner's
    kept: there it is a tool name) and, with ``drop_cd``, its leading ``cd DIR &&`` removed
    (one that fails); every other character (prefix, flags, quoting) kept as written. In
    our guard (:func:`guard`) the call is retargeted, and so is the guard's ``command -v``
    word when it named the same program."""
    words = _words(command)
    if words is not None and _guarded(words):
        inner = words[len(_GUARD_HEAD) : -len(_GUARD_TAIL)]
        call = command[inner[0][1] : inner[-1][2]]
        at = _program_at(inner)
        looked, g_start, g_end = words[2]
        same = at is not None and at[1] is None and inner[at[0]][0] == looked
        return (
            command[:g_start]
            + (program if same else command[g_start:g_end])
            + command[g_end : inner[0][1]]
            + retarget(call, program, drop_cd=drop_cd)
            + command[inner[-1][2] :]
        )
    at = _program_at(words) if words else None
    if words is None or at is None:
        return command
    head = words[3][1] if drop_cd and at[0] >= 3 and words[0][0] == "cd" else 0
    if at[1] is not None:
        return command[head:]
    _, start, end = words[at[0]]
    return command[head:start] + program + command[end:]
