"""Which of a brief's variables change what a test runner or the interpreter loads (SPEC §9;
seed 001 "Guardrails": "do not accept a claim whose criteria have no observable check").

Room ``policy`` (pure). A brief's ``env`` reaches every check in the clean room. Some
variables make a program load code or options before the check's own: ``PYTEST_PLUGINS=plug``
loads the candidate's ``plug.py`` into the suite, ``NODE_OPTIONS=--require ./x.js`` runs the
candidate's ``x.js`` first, ``LD_PRELOAD`` a library, ``BASH_ENV`` a script every
``bash`` sources. Then what the check observes is what that code says, not the suite. One
table, :data:`LOAD_ENV_ROWS`; :func:`loading_env` names the brief's variables that meet a
row. Refused before anything runs (brief rule B5).

Allowed: ``PYTHONPATH``/``NODE_PATH`` (where imports are found: ``{"PYTHONPATH": "src"}``,
the src layout; a ``sitecustomize.py`` or ``usercustomize.py`` Python would load from them
defines a pytest check: :mod:`gentle_hooks.policy.checkdefs`), ``LANG``, ``TZ``, ``PATH``
(judged by :mod:`gentle_hooks.policy.reach`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gentle_hooks.values.frozen import frozen


@frozen
class LoadEnvRow:
    """One row of :data:`LOAD_ENV_ROWS`: id, what the variables load, the names (exact),
    and name prefixes (``DYLD_``, ``GIT_``)."""

    id: str
    loads: str
    names: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()


#: Variables a brief may not set; first match wins.
LOAD_ENV_ROWS: tuple[LoadEnvRow, ...] = (
    LoadEnvRow(
        "E-pytest",
        "pytest loads these plugins and options before its configuration",
        frozenset({"PYTEST_PLUGINS", "PYTEST_ADDOPTS"}),
    ),
    LoadEnvRow(
        "E-python",
        "Python runs this startup file or takes its library and site from here",
        frozenset({"PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONPLATLIBDIR"})
        | frozenset({"PYTHONEXECUTABLE", "PYTHONINSPECT"}),
    ),
    LoadEnvRow(
        "E-node", "node loads these options (--require, --import)", frozenset({"NODE_OPTIONS"})
    ),
    LoadEnvRow(
        "E-loader",
        "the dynamic loader loads these libraries into every program",
        frozenset({"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT"}),
        ("DYLD_",),
    ),
    LoadEnvRow("E-shell", "the shell sources this file first", frozenset({"BASH_ENV", "ENV"})),
    LoadEnvRow("E-perl", "perl loads these options (-M)", frozenset({"PERL5OPT"})),
    LoadEnvRow("E-ruby", "ruby loads these options (-r)", frozenset({"RUBYOPT"})),
    LoadEnvRow(
        "E-git", "git reads another repository, configuration or program", prefixes=("GIT_",)
    ),
)


def loading_env(env: Mapping[str, str]) -> tuple[tuple[str, LoadEnvRow], ...]:
    """The variables of ``env`` (name, its :data:`LOAD_ENV_ROWS` row) that change what a
    test runner or the interpreter loads, in name order; empty when none does."""
    found: list[tuple[str, LoadEnvRow]] = []
    for name in sorted(env):
        row = next(
            (r for r in LOAD_ENV_ROWS if name in r.names or name.startswith(r.prefixes)), None
        )
        if row is not None:
            found.append((name, row))
    return tuple(found)


#: The rows a receipt's command or a re-run's inherited environment may not use: every row
#: but ``E-git``, and ``E-shell`` without ``ENV`` (git's variables change which repository
#: git reads, not what a test runner loads; a git tool's own tests set them).
RUN_ROWS: tuple[LoadEnvRow, ...] = tuple(
    # ``ENV`` only reaches an interactive sh, and ``ENV=test make test`` is a common line
    LoadEnvRow(r.id, r.loads, r.names - {"ENV"}, r.prefixes)
    for r in LOAD_ENV_ROWS
    if r.id != "E-git"
)


def _assignment_re(rows: tuple[LoadEnvRow, ...]) -> re.Pattern[str]:
    names = sorted({n for r in rows for n in r.names}, key=len, reverse=True)
    prefixes = [re.escape(p) + r"\w*" for r in rows for p in r.prefixes]
    name = "(?:" + "|".join([*map(re.escape, names), *prefixes]) + ")"
    # NAME=value anywhere in a text no parser read (``env -SNAME=value``, ``-vSNAME=value``:
    # the split string glued to its flag), or ``export NAME`` of the caller's
    return re.compile(
        rf"(?:(?<![\w$.\-/])|(?<=-S)|(?<=-[iv0]S)|(?<=-[iv0][iv0]S))({name})="
        rf"|\b(?:export|declare\s+-x|typeset\s+-x)\s+({name})\b"
    )


#: :func:`_assignment_re` of :data:`RUN_ROWS`, compiled on first use (~0.4 ms).
_RUN_ASSIGNMENT: list[re.Pattern[str]] = []
#: What every assignment holds: ``=`` or one of the words that export a variable.
_ASSIGNMENT_WORDS = ("=", "export", "declare", "typeset")


def _is_run_row(name: str) -> bool:
    return any(name in r.names or name.startswith(r.prefixes) for r in RUN_ROWS)


def loading_assignments(command: str) -> tuple[str, ...]:
    """The variables of :data:`RUN_ROWS` the shell line ``command`` sets or exports for what
    it runs (``PYTEST_ADDOPTS=--co pytest``, ``env -i PYTEST_ADDOPTS=--co pytest``, ``env
    -vS 'PYTEST_ADDOPTS=--co pytest'``, ``sh -c 'export PYTEST_ADDOPTS=--co; pytest'``),
    sorted, without repeats; empty when none.

    Read from the line's structure (:func:`~gentle_hooks.policy.assignments.assigned`), so
    a word passed to another program sets nothing: ``grep -q 'PYTEST_ADDOPTS=' x.md``,
    ``python -c "print('PYTEST_ADDOPTS=1')"``. A part of the line the reader cannot parse
    (``if ...; then PYTEST_ADDOPTS=x pytest; fi``) is read as text: an assignment anywhere
    in it counts. An assignment a receipt's command makes reports what the runner did under
    options the command chose for it (``--co`` collects and runs nothing), which its re-run
    would repeat (SPEC §5 "Spot check")."""
    if not any(word in command for word in _ASSIGNMENT_WORDS):
        return ()  # no assignment can hold none of them: the line is not parsed
    from gentle_hooks.policy.assignments import assigned  # only a line with a word parses

    found = assigned(command)
    names = {n for n in found.names if _is_run_row(n)}
    if found.unread:
        if not _RUN_ASSIGNMENT:
            _RUN_ASSIGNMENT.append(_assignment_re(RUN_ROWS))
        for text in found.unread:
            names.update(a or b for a, b in _RUN_ASSIGNMENT[0].findall(text))
    return tuple(sorted(names))


def without_loading(env: Mapping[str, str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """``env`` without the variables of :data:`RUN_ROWS` (the caller's ``PYTEST_ADDOPTS``,
    ``NODE_OPTIONS``...), and the names left out, sorted: what a receipt run or a spot
    check's re-run runs with, so an option in the writer's shell cannot make a test run
    collect nothing and report success."""
    dropped = tuple(sorted(n for n in env if _is_run_row(n)))
    return {k: v for k, v in env.items() if k not in dropped}, dropped
