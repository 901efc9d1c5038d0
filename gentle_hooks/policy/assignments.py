"""The variables a shell line sets for the programs it runs, read from its structure, not
from its text (brief rule B5, standing row S-load-env: :mod:`gentle_hooks.policy.loadenv`).

Room ``policy`` (pure). :func:`assigned` parses the line (:func:`~gentle_hooks.policy.shell.
parse_line`, POSIX quoting) and names a variable where the shell or a program sets it:

* a ``NAME=value`` word before a command, or alone (``PYTEST_ADDOPTS=x; pytest``: the
  shell's variable, exported when the caller's environment already holds it);
* ``export NAME[=value]``; ``declare``/``typeset`` with ``-x``, or with ``=``;
  ``local``/``readonly`` with ``=``;
* ``env``'s ``NAME=value`` operands, its options read as ``env`` reads them (``-i``, ``-u
  NAME``, ``-C DIR``, clusters such as ``-iS``, ``-vS STRING``: the words of a split string
  count: :func:`~gentle_hooks.policy.wrappers.env_parts`); those of ``sudo``, ``doas`` and
  ``cross-env`` before their command; every ``NAME=value`` operand of ``make`` (it exports
  them to its recipes); ``docker``/``podman run -e NAME=value``, ``systemd-run -E``;
* and the same inside what the line runs: a wrapper's command (``timeout 60 env X=1 ...``),
  a shell's ``-c`` script, ``eval``'s words, a command substitution.

A word passed to another program is no assignment: ``grep -q 'PYTEST_ADDOPTS=' docs/x.md``,
``python -c "print('PYTEST_ADDOPTS=1')"`` and ``echo PYTEST_ADDOPTS=1`` set nothing. What
this reader cannot parse (a compound command with ``if``/``for``, a here-document, a split
string holding ``$``, nesting past :data:`~gentle_hooks.policy.wrappers.MAX_DEPTH`) is
returned as text, for the caller to read conservatively.
"""

from __future__ import annotations

import shlex

from gentle_hooks.policy.shell import (
    Group,
    ShellList,
    Simple,
    Unreadable,
    is_name_value,
    parse_line,
    tokenize,
)
from gentle_hooks.policy.wrappers import (
    MAX_DEPTH,
    SHELLS,
    env_parts,
    program_name,
    shell_script,
    unwrap,
)
from gentle_hooks.values.frozen import frozen

#: Builtins that set variables by their operands: every operand names one (``export``), only
#: with ``-x`` in an option or with ``=`` (``declare``, ``typeset``), only with ``=``.
_EXPORTS = frozenset({"export"})
_DECLARES = frozenset({"declare", "typeset"})
_SETS = frozenset({"local", "readonly"})
#: Programs whose ``NAME=value`` operands before their command set it for that command, as
#: ``env``'s do; their options with a value (sudo's ``-u USER``...) are skipped.
_ENV_LIKE: dict[str, frozenset[str]] = {
    "sudo": frozenset(["-u", "-g", "-C", "-D", "-h", "-p", "-R", "-r", "-t", "-T", "-U"]),
    "doas": frozenset({"-u", "-C"}),
    "cross-env": frozenset(),
}
#: Programs that put every ``NAME=value`` operand into the environment of what they run
#: (make exports a variable set on its command line to its recipes).
_MAKES = frozenset({"make", "gmake", "bmake"})
#: Programs whose option sets a variable for what they run (``docker run -e NAME=value``,
#: ``--env=NAME=value``, ``systemd-run -E``/``--setenv``).
_ENV_OPTIONS = {
    "docker": ("-e", "--env"),
    "podman": ("-e", "--env"),
    "nerdctl": ("-e", "--env"),
    "flatpak": ("--env",),
    "systemd-run": ("-E", "--setenv"),
}


@frozen
class Assigned:
    """What :func:`assigned` found.

    Attributes:
        names: the variables the line sets or exports, sorted, without repeats;
        unread: the parts of the line this reader could not parse, as text, in order.
    """

    names: tuple[str, ...]
    unread: tuple[str, ...] = ()


def assigned(line: str) -> Assigned:
    """The variables the shell line ``line`` sets or exports for what it runs (see the
    module docstring), and the parts of it not read."""
    names: set[str] = set()
    unread: list[str] = []
    _line(line, 0, names, unread)
    return Assigned(tuple(sorted(names)), tuple(unread))


def _line(text: str, depth: int, names: set[str], unread: list[str]) -> None:
    if depth > MAX_DEPTH:
        unread.append(text)
        return
    try:
        tokens = tokenize(text)
    except Unreadable:
        unread.append(text)
        return
    if not tokens or all(t.op and t.text == "\n" for t in tokens):
        return
    parsed = parse_line(text)
    if parsed is None:
        unread.append(text)
        return
    for token in tokens:  # what ``$(...)`` or a backquote runs, wherever the word is
        for script in token.substituted:
            _line(script, depth + 1, names, unread)
    for simple in _simples(parsed):
        names.update(a.partition("=")[0] for a in simple.assignments)
        _words(simple.words, depth, names, unread)


def _simples(body: ShellList) -> list[Simple]:
    out: list[Simple] = []
    for and_or, _ in body.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for command in pipeline.commands:
                out += _simples(command.body) if isinstance(command, Group) else [command]
    return out


def _words(words: tuple[str, ...], depth: int, names: set[str], unread: list[str]) -> None:
    if not words:
        return
    if depth > MAX_DEPTH:
        unread.append(shlex.join(words))
        return
    name = program_name(words[0])
    operands = [w for w in words[1:] if not w.startswith(("-", "+"))]
    if name in _EXPORTS:
        names.update(w.partition("=")[0] for w in operands)
    elif name in _DECLARES:
        exported = any(w.startswith("-") and "x" in w for w in words[1:])
        names.update(w.partition("=")[0] for w in operands if exported or "=" in w)
    elif name in _SETS:
        names.update(w.partition("=")[0] for w in operands if "=" in w)
    elif name == "env":
        parts = env_parts(words)
        if parts is None:
            unread.append(shlex.join(words))
            return
        names.update(a.partition("=")[0] for a in parts.assignments if is_name_value(a))
        _words(parts.command, depth + 1, names, unread)
    elif name in _ENV_LIKE:
        _env_like(words, _ENV_LIKE[name], depth, names, unread)
    elif name in _MAKES:
        names.update(w.partition("=")[0] for w in operands if is_name_value(w))
    elif name in _ENV_OPTIONS:
        names.update(_option_values(words, _ENV_OPTIONS[name]))
    elif name in SHELLS:
        script, _ = shell_script(words)
        if script is not None:
            _line(script, depth + 1, names, unread)
    elif name == "eval":
        _line(" ".join(words[1:]), depth + 1, names, unread)
    else:
        inner = unwrap(words)
        if inner is not None:
            _words(inner, depth + 1, names, unread)


def _env_like(
    words: tuple[str, ...],
    with_value: frozenset[str],
    depth: int,
    names: set[str],
    unread: list[str],
) -> None:
    """``sudo [options] NAME=value... command``: the names, then the command read on."""
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in with_value else 1
    i += words[i : i + 1] == ("--",)
    while i < len(words) and is_name_value(words[i]):
        names.add(words[i].partition("=")[0])
        i += 1
    _words(words[i:], depth + 1, names, unread)


def _option_values(words: tuple[str, ...], options: tuple[str, ...]) -> list[str]:
    """The names set by ``OPTION NAME=value``, ``OPTION=NAME=value`` or ``-eNAME=value``
    among ``words``."""
    out: list[str] = []
    for i, w in enumerate(words[1:], 1):
        value = None
        if w in options and i + 1 < len(words):
            value = words[i + 1]
        else:
            for option in options:
                glued = option + ("=" if option.startswith("--") else "")
                if w.startswith(glued) and len(w) > len(glued):
                    value = w[len(glued) :]
        if value is not None and is_name_value(value):
            out.append(value.partition("=")[0])
    return out
