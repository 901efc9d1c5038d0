"""Commands that run the command in their arguments, and shells whose ``-c`` script is a
line of its own: what :mod:`gentle_hooks.policy.nocheck`, :mod:`~gentle_hooks.policy.checkshape`
and :mod:`~gentle_hooks.policy.checkdefs` read through (``env X=1 pytest``, ``timeout 60
pytest``, ``sh -c '...'``).

Room ``policy`` (pure).
"""

from __future__ import annotations

import itertools
import shlex

from gentle_hooks.values.frozen import frozen

#: Directories whose programs are matched by name (``/bin/true`` is ``true``; ``./true`` is
#: the project's own script).
SYSTEM_BIN = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/")


@frozen
class Wrapper:
    """A command that runs the command in its arguments.

    Attributes:
        name: the program; options_with_value: its options that take the next word;
        leading: positional words before the command (``timeout``'s duration).
    """

    name: str
    options_with_value: tuple[str, ...] = ()
    leading: int = 0


#: Commands read through to the command they run (``env`` also skips ``NAME=value``).
WRAPPERS: tuple[Wrapper, ...] = (
    Wrapper("env", ("-u", "-C", "-S", "--unset", "--chdir")),
    Wrapper("command"),
    Wrapper("builtin"),
    Wrapper("exec", ("-a",)),
    Wrapper("nohup"),
    Wrapper("time"),
    Wrapper("nice", ("-n", "--adjustment")),
    Wrapper("timeout", ("-s", "-k", "--signal", "--kill-after"), leading=1),
    Wrapper("stdbuf", ("-i", "-o", "-e")),
    # multi-call binaries: ``busybox true`` is ``true``
    # xargs runs its command (echo when none: then row N-files of policy.nocheck)
    Wrapper("xargs", ("-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s")),
    Wrapper("busybox"),
    Wrapper("toybox"),
)
#: Shells whose ``-c`` script is read as a line of its own.
SHELLS = ("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash")
#: How deep ``sh -c`` scripts and wrappers are read.
MAX_DEPTH = 8


def program_name(word: str) -> str:
    """The name a program word is matched by: itself, or its base name in a system bin."""
    if "/" not in word:
        return word
    return word.rsplit("/", 1)[1] if word.startswith(SYSTEM_BIN) else word


#: ``env``'s long options (GNU coreutils), each with whether it takes a value (after ``=``
#: or as the next word); getopt reads any unique prefix of one (``--split``, ``--u``).
_ENV_LONG = {
    "--ignore-environment": False,
    "--null": False,
    "--unset": True,
    "--chdir": True,
    "--split-string": True,
    "--argv0": True,
    "--block-signal": False,
    "--default-signal": False,
    "--ignore-signal": False,
    "--list-signal-handling": False,
    "--debug": False,
    "--help": False,
    "--version": False,
}
#: Its short options that take a value: the rest of their word, or the next word
#: (``-u NAME``, ``-C DIR``, ``-S STRING``, ``-a ARG0``); the others (``-i``, ``-0``,
#: ``-v``) cluster with them (``-iS STRING``, ``-vSSTRING``, ``-iu NAME``).
_ENV_SHORT_VALUE = "uCSa"


@frozen
class EnvParts:
    """``env``'s arguments as ``env`` reads them (:func:`env_parts`).

    Attributes:
        options: its options but ``-S``, each with its value (``-u NAME``, ``-C DIR``;
            ``-v`` of ``-vS STRING``), in order;
        assignments: its ``NAME=value`` words, in order (those of a ``-S`` string too);
        command: the command it runs, empty when none (``env`` alone prints the
            environment);
        split: a ``-S`` string was split into them.
    """

    options: tuple[str, ...]
    assignments: tuple[str, ...]
    command: tuple[str, ...]
    split: bool = False


def _long_option(word: str) -> tuple[str | None, bool]:
    """(the long option ``word`` names, by its full name or a unique prefix, or None;
    whether its value is the next word)."""
    name, eq, _ = word.partition("=")
    found = [o for o in _ENV_LONG if o.startswith(name)]
    full = name if name in _ENV_LONG else (found[0] if len(found) == 1 else None)
    return full, full is not None and _ENV_LONG[full] and not eq


def _split_of(words: list[str], i: int) -> tuple[int, str | None, str]:
    """Read the option ``words[i]`` of ``env``. Returns (how many words it takes with its
    value, the string of its ``-S`` or None, the word's options before that ``-S``:
    ``-v`` of ``-vS``, ``""`` when none)."""
    w = words[i]
    if w.startswith("--"):
        full, next_value = _long_option(w)
        if full != "--split-string":
            return (2 if next_value else 1), None, ""
        if next_value:
            return 2, (words[i + 1] if i + 1 < len(words) else None), ""
        return 1, w.partition("=")[2], ""
    for j, c in enumerate(w[1:], 1):
        if c in _ENV_SHORT_VALUE:
            rest = w[j + 1 :]
            taken, value = (1, rest) if rest else (2, "".join(words[i + 1 : i + 2]) or None)
            return taken, (value if c == "S" else None), (w[:j] if c == "S" and j > 1 else "")
    return 1, None, ""


def env_parts(words: tuple[str, ...]) -> EnvParts | None:
    """``env WORDS`` read as GNU ``env`` reads them: its options (short ones clustered,
    ``-iS``, ``-vS STRING``, ``-iu NAME``; long ones by any unique prefix), each ``-S
    STRING`` replaced by the words ``STRING`` splits into (as ``env`` reads it: quotes) and
    read on, so options and ``NAME=value`` words inside it count; then its ``NAME=value``
    words and the command. None when a split string is missing, holds what this reader
    does not expand (``$``, a backslash escape), does not split, or when more than
    :data:`MAX_DEPTH` strings are split."""
    rest, i, splits = list(words[1:]), 0, 0
    options: list[str] = []
    while i < len(rest) and rest[i].startswith("-") and rest[i] != "--":
        if rest[i] == "-":  # ``-`` is ``-i``
            options.append(rest[i])
            i += 1
            continue
        taken, split, before = _split_of(rest, i)
        is_split = split is not None or "S" in rest[i][1:2] or before
        if not is_split:
            options += rest[i : i + taken]
            i += taken
            continue
        splits += 1
        if split is None or splits > MAX_DEPTH or "$" in split or "\\" in split:
            return None
        try:
            split_words = shlex.split(split)
        except ValueError:
            return None
        options += [before] if before else []
        rest[i : i + taken] = split_words
    if rest[i : i + 1] == ["--"]:
        i += 1
    start = i
    while i < len(rest) and "=" in rest[i]:
        i += 1
    return EnvParts(tuple(options), tuple(rest[start:i]), tuple(rest[i:]), splits > 0)


def env_split(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """``env WORDS`` with its ``-S STRING`` options (``-SSTRING``, ``-vS STRING``,
    ``--split-string=STRING``, ``--split-string STRING``) replaced by the words ``STRING``
    splits into (:func:`env_parts`), so ``env -S 'X=1 python3 -E' t.py`` reads as ``env
    X=1 python3 -E t.py``; ``words`` itself when it has no such option; None when a
    string holds what this reader does not expand (``$``, a backslash escape) or does not
    split."""
    parts = env_parts(words)
    if parts is None:
        return None
    if not parts.split:
        return words
    return (words[0], *parts.options, *parts.assignments, *parts.command)


def unwrap(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command a wrapper runs; None when ``words`` is no wrapper, wraps nothing, or is
    ``command -v``/``-V`` (a lookup). ``env`` is read as ``env`` reads its arguments
    (:func:`env_parts`: clustered options, ``-S STRING`` as the words ``STRING`` splits
    into; one it cannot split wraps nothing read)."""
    wrapper = next((w for w in WRAPPERS if w.name == program_name(words[0])), None)
    if wrapper is None:
        return None
    if wrapper.name == "env":
        parts = env_parts(words)
        return None if parts is None else (parts.command or None)
    options = itertools.takewhile(lambda w: w.startswith("-") and w != "--", words[1:])
    if wrapper.name == "command" and any(w in ("-v", "-V", "-pv", "-pV") for w in options):
        # ``command -v NAME`` looks NAME up (POSIX): it runs nothing
        return None
    return wrapped_words(wrapper, words)


def wrapped_words(
    wrapper: Wrapper, words: tuple[str, ...], *, assigns: bool = False
) -> tuple[str, ...] | None:
    """The command ``wrapper`` (``words[0]``) runs: ``words`` after its options (those of
    ``wrapper.options_with_value`` with their value), its ``wrapper.leading`` operands,
    ``NAME=VALUE`` words when ``assigns``, and a ``--`` (None: no command follows)."""
    i, leading = 1, wrapper.leading
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if w in wrapper.options_with_value:
            i += 2
        elif (w.startswith("-") and len(w) > 1) or (assigns and "=" in w):
            i += 1
        elif leading:
            leading -= 1
            i += 1
        else:
            break
    return words[i:] or None


def shell_script(words: tuple[str, ...]) -> tuple[str | None, bool]:
    """(the ``-c`` script of a shell invocation or None, whether ``-o pipefail`` was set)."""
    has_c = pipefail = False
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("-o", "+o"):
            pipefail = pipefail or (w == "-o" and words[i + 1 : i + 2] == ("pipefail",))
            i += 2
            continue
        if w == "--":
            i += 1
            continue
        if w.startswith("-") and len(w) > 1:
            has_c = has_c or "c" in w[1:]
            i += 1
            continue
        if w.startswith("+"):
            i += 1
            continue
        return (w if has_c else None), pipefail
    return None, pipefail
