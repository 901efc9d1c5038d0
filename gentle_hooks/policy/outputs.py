"""Where a check's own command says it writes its report (``pytest --junitxml=out.xml``):
the check's outputs, not a change of the artifact it judges (SPEC §9; seed 001
"Guardrails": a verifier never repairs the artifact, and a report file repairs nothing).

Room ``policy`` (pure). :data:`OUTPUT_OPTIONS` is the table of report options; a path one
names, relative to where the check runs (the candidate's top), inside it (no ``..``, not
absolute but under the work tree's root when the caller gives it), is an output: a file
there, or under it when it is a directory (``--cov-report=html:htmlcov``). A file a check
writes any other way (``> out.xml``, a script's ``open()``) is not: that is how a check
patches what it judges.
"""

from __future__ import annotations

import posixpath
import shlex

from gentle_hooks.values.frozen import frozen


@frozen
class OutputOption:
    """Options with which a tool writes a report to the path they name.

    Attributes:
        id: stable row id; names: the option words (``--name=PATH`` or ``--name PATH``);
        kind_prefix: the value is ``KIND:PATH`` (coverage's ``--cov-report=xml:cov.xml``;
            a value with no ``:`` names no file); text: the row in words.
    """

    id: str
    names: tuple[str, ...]
    text: str
    kind_prefix: bool = False


#: Report options of the test runners and checkers a verifier runs.
OUTPUT_OPTIONS: tuple[OutputOption, ...] = (
    OutputOption(
        "O-junit",
        ("--junitxml", "--junit-xml", "--junit_xml", "--junit-report"),
        "a JUnit XML report (pytest, mypy)",
    ),
    OutputOption(
        "O-report",
        ("--report-log", "--resultlog", "--json-report-file", "--html", "--md-report-output"),
        "a test run's log or report file (pytest plugins)",
    ),
    OutputOption(
        "O-coverage",
        ("--cov-report",),
        "a coverage report of KIND:PATH (pytest-cov)",
        kind_prefix=True,
    ),
    OutputOption(
        "O-output-file",
        ("--output-file", "--outputFile", "-coverprofile", "--coverprofile"),
        "a tool's output file (ruff, jest, go test)",
    ),
)


def declared_outputs(command: str, top: str | None = None, where: str = ".") -> tuple[str, ...]:
    """The paths ``command`` (a shell line) names as where it writes its reports, through
    :data:`OUTPUT_OPTIONS`, relative to the top, normalized, each once; a path outside the
    top is left out. ``top``: the work tree's absolute root, when known: an absolute path
    under it is that path relative to it (``--junitxml /repo/report.xml`` with top
    ``/repo``). ``where``: the directory the command runs in, relative to the top (a
    receipt's ``cwd``): a relative path is below it."""
    try:
        words = shlex.split(command)
    except ValueError:
        return ()
    found: list[str] = []
    for n, word in enumerate(words):
        for row in OUTPUT_OPTIONS:
            value = _value(word, words[n + 1 : n + 2], row.names)
            if value is None:
                continue
            if row.kind_prefix:
                value = value.partition(":")[2] if ":" in value else ""
            absolute = value.startswith("/")
            path = _inside(_below(value, top) if absolute else posixpath.join(where, value))
            if path is not None and path not in found:
                found.append(path)
    return tuple(found)


def _value(word: str, following: list[str], names: tuple[str, ...]) -> str | None:
    for name in names:
        if word.startswith(name + "="):
            return word[len(name) + 1 :]
        if word == name and following:
            return following[0]
    return None


def _below(value: str, top: str | None) -> str:
    """``value`` relative to ``top`` when it is an absolute path under it, else as it is."""
    if top is None or not value.startswith("/") or not top.startswith("/"):
        return value
    path, root = posixpath.normpath(value), posixpath.normpath(top)
    return path[len(root) + 1 :] if path.startswith(root.rstrip("/") + "/") else value


def _inside(value: str) -> str | None:
    """``value`` as a path relative to the top, or None: empty, absolute, with a shell
    expansion, or leading out of the top."""
    if not value or value.startswith("/") or any(c in value for c in "$`*?[~"):
        return None
    path = posixpath.normpath(value)
    if path in (".", "..") or path.startswith("../"):
        return None
    return path


def is_output(path: str, outputs: tuple[str, ...]) -> bool:
    """Whether ``path`` (relative to the top) is one of ``outputs`` or under one."""
    return any(path == o or path.startswith(o + "/") for o in outputs)
