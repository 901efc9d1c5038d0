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


#: ``env``'s option whose value is split into words (``env -S 'python3 -u' x.py``).
_SPLIT = ("-S", "--split-string")


def env_split(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """``env WORDS`` with its first ``-S STRING`` (``-SSTRING``, ``--split-string=STRING``,
    ``--split-string STRING``) replaced by the words ``STRING`` splits into (as ``env``
    reads it: quotes), so ``env -S 'X=1 python3 -E' t.py`` reads as ``env
    X=1 python3 -E t.py``; ``words`` itself when it has no such option; None when the
    string holds what this reader does not expand (``$``, a backslash escape) or does not
    split."""
    for i, w in enumerate(words[1:], 1):
        if w == "--" or not w.startswith("-"):
            return words
        if w in _SPLIT:
            value, after = (words[i + 1], i + 2) if i + 1 < len(words) else (None, i + 1)
        elif w.startswith("--split-string="):
            value, after = w.partition("=")[2], i + 1
        elif w.startswith("-S"):
            value, after = w[2:], i + 1
        else:
            continue
        if value is None or "$" in value or "\\" in value:
            return None
        try:
            split = shlex.split(value)
        except ValueError:
            return None
        return (*words[:i], *split, *words[after:])
    return words


def unwrap(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command a wrapper runs; None when ``words`` is no wrapper, wraps nothing, or is
    ``command -v``/``-V`` (a lookup). ``env -S STRING`` is read as the words ``STRING``
    splits into (:func:`env_split`; one it cannot split wraps nothing read)."""
    wrapper = next((w for w in WRAPPERS if w.name == program_name(words[0])), None)
    if wrapper is None:
        return None
    if wrapper.name == "env":
        split = env_split(words)
        if split is None:
            return None
        words = split
    options = itertools.takewhile(lambda w: w.startswith("-") and w != "--", words[1:])
    if wrapper.name == "command" and any(w in ("-v", "-V", "-pv", "-pV") for w in options):
        # ``command -v NAME`` looks NAME up (POSIX): it runs nothing
        return None
    return wrapped_words(wrapper, words, assigns=wrapper.name == "env")


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
