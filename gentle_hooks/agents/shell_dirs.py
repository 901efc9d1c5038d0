"""The directories a shell command names: where its writes may land when the agent's session
directory is in no git work tree (SPEC §7 "Hooks"; docs/agents/claude-code.md, "What a Bash
command writes").

Room ``agents`` (standard library only): words, no files. An agent opened on the directory
above a repository runs ``sed -i ... repo/app.py`` or ``cd repo && ...``; the recorder keeps a
snapshot of each repository that holds one of these directories
(:mod:`gentle_hooks.services.agent_above`). A word names a directory when it holds a ``/``
(its directory part: ``repo/src`` of ``repo/src/app.py``; the word itself when it ends with
``/``) or is the operand of ``cd``/``pushd``/``git -C``/``make -C``; a redirection's target
(``>repo/x``) is read without its operator. Words that name no existing directory (a ``sed``
expression ``s/a/b/``) are resolved by the caller, which finds no repository for them. A
command given as an argument list (Codex's ``["bash", "-lc", SCRIPT]``) is read word by word,
each word of the script too. A command run in a directory its tool names (Gemini CLI's
``run_shell_command`` ``dir_path``) names that directory first, and its relative words are
taken from there. At most :data:`MOST` directories are given, in order.

The caller snapshots, besides the session's own repository, each other repository these
directories are in (a submodule, a nested repository: :mod:`gentle_hooks.services.agent_above`);
a repository the words do not name (a script run by name that writes into a submodule) is not
seen.
"""

from __future__ import annotations

import re
import shlex

#: The most directories :func:`named_dirs` gives.
MOST = 16
#: The longest command read.
_LONGEST = 64 * 1024
#: Words whose next word is a directory.
_DIR_OPERANDS = frozenset({"cd", "pushd", "-C", "--directory", "--git-dir", "--work-tree"})
#: A redirection operator at the start of a word (``>``, ``2>>``, ``&>``, ``<``).
_REDIRECT = re.compile(r"^(?:\d*|&)[<>]+&?")


def _words(command: object) -> list[str]:
    """The shell words of ``command`` (a string, or a list of strings whose words that hold
    a space are read as scripts too); [] when it cannot be read."""
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        words: list[str] = []
        for w in command:
            words += [w, *(_words(w) if " " in w or "\n" in w else [])]
        return words
    if not isinstance(command, str) or len(command) > _LONGEST:
        return []
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # an unclosed quote: the words up to it are not worth guessing
        return []


def named_dirs(command: object, within: object = None) -> tuple[str, ...]:
    """The directories the shell ``command`` names, as written (relative ones are taken
    from the call's directory by the caller), each once, at most :data:`MOST`. ``within``:
    the directory the tool runs the command in (a string; anything else: none), named
    first, each relative word taken from it."""
    out: dict[str, None] = {}
    if isinstance(within, str) and within and "\0" not in within and "\n" not in within:
        out[within] = None
        named = named_dirs(command)
        out.update((w if w.startswith("/") else f"{within.rstrip('/')}/{w}", None) for w in named)
        return tuple(out)[:MOST]
    words = _words(command)
    for i, raw in enumerate(words):
        word = _REDIRECT.sub("", raw)
        if not word or word.startswith("-") or "\n" in word or "\0" in word:
            continue
        if i and words[i - 1] in _DIR_OPERANDS:
            out[word] = None
        elif word.endswith("/"):
            out[word.rstrip("/") or "/"] = None
        elif "/" in word:
            out[word.rsplit("/", 1)[0] or "/"] = None
        if len(out) >= MOST:
            break
    return tuple(out)
