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
