"""Whether a check's output says its tool is unavailable (seed 001 "Guardrails": "stop and
report `blocked` when a required tool, source, or suite is unavailable instead of
inferring the result").

Room ``policy`` (pure). A shell gives exit 127 for a program it cannot find; a program
that starts and then cannot find the tool it runs exits otherwise: ``python3 -m pytest``
with pytest not installed prints ``/usr/bin/python3: No module named pytest`` and exits 1,
``make test`` whose recipe names a missing program exits 2. :data:`MISSING_ROWS` are the
lines an interpreter, shell or make prints then; :func:`missing_tool` finds the row
whose line is in a check's output. A line alone never blocks a verdict: the caller also
runs the check on the candidate's base tree, and only a check that fails there with the
same exit status and the same line lacks its tool (a test that fails for real prints
other lines, or fails only on the candidate). :func:`not_run` says, from the status
alone, that a command never started (126, 127): a report or re-run that failed so says
where it ran, not that the change is wrong; :func:`job_lacks` says, from a failed re-run's
status and output alone, what the environment it ran in lacks (a CI job's ``--reverify``:
no base tree is run there, and the gate blocks either way).
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Callable

from gentle_hooks.values.frozen import frozen


@frozen
class MissingRow:
    """One signature of an unavailable tool: id, the case in words, and the line pattern
    for a command's words (None: the row does not apply to that command)."""

    id: str
    when: str
    pattern: Callable[[tuple[str, ...]], str | None]


def _modules(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(nxt for w, nxt in itertools.pairwise(words) if w == "-m")


def _module_pattern(words: tuple[str, ...]) -> str | None:
    names = "|".join(re.escape(m) for m in _modules(words))
    if not names:
        return None
    # `python -m X` with X missing: "<python>: No module named X"; a dotted X whose
    # package is missing: "<python>: Error while finding module specification for 'X' ..."
    return (
        rf"^\S*: (?:No module named (?:{names})|Error while finding module specification "
        rf"for '(?:{names})' \(ModuleNotFoundError: No module named '[\w.]+'\))\s*$"
    )


#: Signatures of an unavailable tool, first match wins.
MISSING_ROWS: tuple[MissingRow, ...] = (
    MissingRow(
        "M-py-module",
        "python -m X with module X not installed: the interpreter's 'No module named X' line",
        _module_pattern,
    ),
    MissingRow(
        "M-sh-not-found",
        "a shell that cannot find a program: 'sh: 1: X: not found' (dash), 'sh: line 1: X: "
        "command not found' or 'bash: X: command not found' (bash)",
        lambda w: r"^\S*sh: (?:(?:line )?\d+: )?\S+: (?:command )?not found\s*$",
    ),
    MissingRow(
        "M-exec-missing",
        "make or env that cannot find the program it runs: 'make: X: No such file or "
        "directory', \"env: 'X': No such file or directory\"",
        lambda w: r"^(?:make(?:\[\d+\])?|\S*/?env): '?\S+'?: No such file or directory\s*$",
    ),
)


def missing_tool(command: str, output: str) -> str | None:
    """The id of the first :data:`MISSING_ROWS` row whose line is in ``output`` of
    ``command`` (a shell line or a quoted argument vector), or None."""
    try:
        words = tuple(shlex.split(command))
    except ValueError:
        words = tuple(command.split())
    for row in MISSING_ROWS:
        pattern = row.pattern(words)
        if pattern is not None and re.search(pattern, output, re.MULTILINE):
            return row.id
    return None


#: The statuses a POSIX shell gives a command it could not start at all (not a result of
#: the command's own: no test ran), in words.
NOT_RUN = {
    126: "exit 126: the command was found but could not be executed there",
    127: "exit 127: no such command was found on the PATH it ran with",
}


def not_run(exit_code: int | None) -> str | None:
    """Why a command that exited ``exit_code`` never ran (:data:`NOT_RUN`: 126, 127), in
    words; None for any other status (the command ran: its result is its own)."""
    return NOT_RUN.get(exit_code) if exit_code is not None else None


#: Lines by which a re-run says its environment lacks a module or program, with the words
#: naming it: an interpreter's ``ModuleNotFoundError``/``No module named X`` (anywhere: a
#: test runner prints it mid-output for an import its collection failed on), a shell's
#: ``X: not found``/``X: command not found``, ``env``/``make``'s ``X: No such file``.
_LACKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"No module named '?([\w.]+)'?"), "the Python module {} (not installed there)"),
    (
        re.compile(r"^\S*sh: (?:(?:line )?\d+: )?(\S+): (?:command )?not found\s*$", re.M),
        "the program {} (not on the PATH it ran with)",
    ),
    (
        re.compile(r"^(?:make(?:\[\d+\])?|\S*/?env): '?([^'\s]+)'?: No such file", re.M),
        "the program {} (not on the PATH it ran with)",
    ),
)


def job_lacks(exit_code: int | None, output: str) -> str | None:
    """What the environment a command failed in lacks, in words, when its ``output`` or
    its ``exit_code`` says it could not run there (:data:`_LACKS`, then :func:`not_run`);
    None for a success or a failure of the command's own."""
    if not exit_code:
        return None
    for pattern, words in _LACKS:
        if found := pattern.search(output):
            return words.format(found.group(1))
    return not_run(exit_code)


#: Lines naming a file a command could not open: Python's ``FileNotFoundError: [Errno 2]
#: No such file or directory: 'X'``, a program's or a shell's ``cat: X: No such file or
#: directory``, ``sh: 1: cannot open X: No such file``, ``bash: line 1: X: No such file``.
_NO_FILE: tuple[re.Pattern[str], ...] = (
    re.compile(r"No such file or directory: '([^'\n]+)'"),
    re.compile(
        r"^(?:[^\s:]+: )+(?:line \d+: )?(?:\d+: )?(?:cannot open )?([^\s:']+): No such file",
        re.M,
    ),
)


def missing_files(output: str) -> tuple[str, ...]:
    """The paths ``output`` says could not be opened (:data:`_NO_FILE`), each once, in the
    order found; the caller decides which of them its environment lacks (a file git
    ignores, absent in a CI clone) and which are the command's own failure."""
    found: dict[str, None] = {}
    for pattern in _NO_FILE:
        for m in pattern.finditer(output):
            found.setdefault(m.group(1), None)
    return tuple(found)


#: What a failed run's observed result says when its output shows it lacked a file of
#: the work tree git ignores that another work tree of the repository holds
#: (:func:`gentle_hooks.services.room_lacks.lacked_here`): ``exit 1, it lacked the file
#: localcfg.py, which git ignores``; :func:`lacked_ignored` reads the file back.
LACKED_IGNORED = "it lacked the file {}, which git ignores"
_LACKED = re.compile(r", it lacked the file (.+), which git ignores$")


def lacked_ignored(observed: str | None) -> str | None:
    """The file a receipt's ``observed`` result says its run lacked
    (:data:`LACKED_IGNORED`), or None."""
    found = _LACKED.search(observed or "")
    return found.group(1) if found else None


def lacked_words(observed: str | None) -> str | None:
    """What to do about a failed report whose ``observed`` result says its run lacked a
    file git ignores (:func:`lacked_ignored`), in words; None for any other."""
    name = lacked_ignored(observed)
    if name is None:
        return None
    return (
        f"its run lacked the file {name}, which git ignores: a local file this work tree "
        "does not have (git shares no ignored file between worktrees), so the failure is "
        "this work tree's, not the change's: copy the file here from the work tree that "
        "has it"
    )
