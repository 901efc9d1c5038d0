"""The commands a hook command may put before our ``gentle-hook`` and still be ours (SPEC §7
"Hooks": ``install --agent`` never doubles our entry, ``doctor`` finds it).

Room ``agents`` (standard library only). Two kinds, each with the options it documents that
take a value (so the value is not taken for the program):

* pass-through wrappers, which run the next word as a program found on ``PATH``:
  ``env`` (coreutils; ``-u NAME``, ``-C DIR`` and ``NAME=value``), ``timeout`` (coreutils:
  ``timeout [OPTION] DURATION COMMAND``, ``-k``/``-s`` taking a value), ``nice`` (``-n``),
  ``nohup``, ``exec`` and ``command``: the ``gentle-hook`` after them is the program;
* package runners, which fetch and run a tool by name in an environment of their own:
  ``uvx`` and ``uv tool run`` (docs.astral.sh/uv, "uvx": ``--from``, ``--with``,
  ``--python``...), ``pipx run`` (pipx.pypa.io, ``pipx run``: ``--spec``, ``--python``...):
  the runner is the program the shell resolves, and the ``gentle-hook`` after it is the
  tool's name, not a path to retarget.
"""

from __future__ import annotations

import re

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_DURATION = re.compile(r"\d+(\.\d+)?[smhd]?")

#: Pass-through wrappers: their options that take a value.
PASS_THROUGH: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "exec": frozenset({"-a"}),
    "command": frozenset(),
}
_UV = frozenset(
    {
        "--from",
        "--with",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--index",
        "--default-index",
        "--index-url",
        "--extra-index-url",
        "--find-links",
        "-f",
        "--constraints",
        "-c",
        "--overrides",
        "--directory",
        "--project",
        "--config-file",
        "--cache-dir",
        "--env-file",
    }
)
#: Package runners, as their leading words: their options that take a value.
RUNNERS: dict[tuple[str, ...], frozenset[str]] = {
    ("uvx",): _UV,
    ("uv", "tool", "run"): _UV,
    ("pipx", "run"): frozenset({"--spec", "--python", "--pip-args", "--index-url", "-i"}),
}


def base(word: str) -> str:
    """A program word's last path part (``/usr/bin/env`` -> ``env``)."""
    return word.replace("\\", "/").rsplit("/", 1)[-1]


def _options(words: list[str], i: int, valued: frozenset[str]) -> int:
    """Past the options of a wrapper starting at ``i`` (and the value of each that takes
    one, unless written ``--opt=value``)."""
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        i += 2 if words[i] in valued else 1
    return i


def skip(words: list[str], i: int) -> tuple[int, int | None]:
    """Past every ``NAME=value`` and wrapper from ``words[i]``: (the index of the program
    they run, the index of a package runner's first word among them, or None)."""
    runner = None
    while i < len(words):
        word, name = words[i], base(words[i])
        if _ASSIGNMENT.match(word):
            i += 1
        elif name in PASS_THROUGH:
            i = _options(words, i + 1, PASS_THROUGH[name])
            after = words[i] if i < len(words) else ""
            # timeout's DURATION, or env's lone "-" (an empty environment)
            if (name == "timeout" and _DURATION.fullmatch(after)) or (name, after) == ("env", "-"):
                i += 1
        else:
            lead = next(
                (k for k in RUNNERS if [base(words[i]), *words[i + 1 : i + len(k)]] == list(k)),
                None,
            )
            if lead is None:
                return i, runner
            runner = i if runner is None else runner
            i = _options(words, i + len(lead), RUNNERS[lead])
    return i, runner
