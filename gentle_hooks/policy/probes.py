"""Rows of commands that verify nothing (SPEC §5 "Spot check": "a command that verifies
nothing does not count"): the row type :class:`NoCheckRow`, and :data:`PROBE_ROWS`, the
rows only a receipt meets (:func:`gentle_hooks.policy.nocheck.judge_command` with
``receipt``).

Room ``policy`` (pure). A receipt is re-run on the tree it was reported on, where a probe
of a path the candidate holds, a byte-compile of its sources or a search of its text
succeeds whatever its code does. A verify criterion also runs on the base and on the
hollowed candidate (row C4-nothing), where ``test -f new.py`` or ``grep -q add app.py``
fails on the base: a check there. Each row's words end with the way out.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.noop_args import file_probe
from gentle_hooks.policy.noop_files import text_noop
from gentle_hooks.values.frozen import frozen


@frozen
class NoCheckRow:
    """A command that verifies nothing.

    Attributes:
        id: stable row id; programs: program names it matches (empty: any program, and
            ``args`` reads the whole command, program included); args: whether the
            arguments qualify; text: the row in words (docs and reasons).
    """

    id: str
    programs: tuple[str, ...]
    args: Callable[[tuple[str, ...]], bool]
    text: str


#: The modules ``python -m`` byte-compiles sources with (row N-compile).
COMPILERS = frozenset({"compileall", "py_compile"})
#: Programs that search text (row N-grep); ``git grep`` is read by row N-git-read's words.
SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"})


def _python(word: str) -> bool:
    """Whether a program word names a Python interpreter (``python``, ``python3.12``, a
    virtual environment's ``.venv/bin/python``)."""
    name = word.rsplit("/", 1)[-1]
    return name == "python" or (name.startswith("python") and name[6:].replace(".", "").isdigit())


def compile_only(words: tuple[str, ...]) -> bool:
    """Whether a simple command (program included) only byte-compiles sources: ``python
    [OPTIONS] -m compileall|py_compile ...`` (row N-compile)."""
    if not words or not _python(words[0]):
        return False
    args = list(words[1:])
    while args:
        a = args.pop(0)
        if a == "-m":
            return bool(args) and args[0] in COMPILERS
        if a.startswith("-m"):
            return a[2:] in COMPILERS
        if a in ("-W", "-X"):  # an interpreter option's value: -W error, -X utf8
            args = args[1:]
        elif not a.startswith("-") or a.startswith("-c"):
            return False  # a script or a -c program runs
    return False


def text_search(words: tuple[str, ...]) -> bool:
    """Whether a simple command (program included) is a text search (``grep -q add
    app.py``, ``rg TODO``; row N-grep)."""
    return bool(words) and words[0].rsplit("/", 1)[-1] in SEARCHERS


#: Rows only a receipt meets (first match wins after
#: :data:`~gentle_hooks.policy.nocheck.NO_CHECK_ROWS`).
PROBE_ROWS: tuple[NoCheckRow, ...] = (
    NoCheckRow(
        "N-probe",
        (),
        file_probe,
        "a file probe (test -f/-e/-d, [ -f x ], [[ -f x ]], stat, wc, file, du) only asks "
        "whether a path exists or what it is: it runs none of the code",
    ),
    NoCheckRow(
        "N-compile",
        (),
        compile_only,
        "python -m compileall or py_compile only byte-compiles the sources: it runs none of "
        "the code; report the command that runs the project's tests (pytest, make test)",
    ),
    NoCheckRow(
        "N-text",
        (),
        text_noop,
        "printing, cutting or reordering text (sort, uniq, cut, sed -n, awk without exit, "
        "find without -exec, a digest without -c, xargs with no command) succeeds whatever "
        "the text says; report the command that runs the project's tests (pytest, make test)",
    ),
    NoCheckRow(
        "N-grep",
        (),
        text_search,
        "grep (egrep, rg, ag, ack) only searches the text for a word: it runs none of the "
        "code; report the command that runs the project's tests (pytest, make test)",
    ),
)
