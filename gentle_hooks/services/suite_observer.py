"""What a pytest full suite ran, observed by a plugin in its own process (SPEC §9; seed 001
"Rules": "A pass verdict requires the full suite to have run"; issue 18).

Room ``services``. A suite's command text cannot show what it narrows: ``cd sub &&
pytest``, ``env -C sub pytest``, ``pytest $A``, ``pytest "$@"``, ``pytest @args.txt``,
``xargs pytest < args.txt`` all read as a plain ``pytest``. So a verify run's pytest suite
(when the repository declares none) runs with the tool's observer plugin: its module,
:data:`PLUGIN_MODULE`, is written to the room's import-guard directory (first on every
check's ``PYTHONPATH``, also after a check's own ``PYTHONPATH=`` word: the room composes
it), loaded through ``PYTEST_PLUGINS`` (which no brief may set: rule B5), and writes one
JSON line per pytest session to the file :data:`OBSERVED_VAR` names, outside the tree
(:mod:`gentle_hooks.policy.suite_coverage` reads them). Then the whole suite is collected
with the same plugin by the interpreter the run used (``python -m pytest --collect-only -q``
at the tree's top, no arguments, the run's environment), and :func:`observed_unrun` says
how many of its tests the run did not run, or that nothing observed the run.

Not observed: suites of other runners (``unittest``, ``make``, ``npm``: their command and
output rules alone), a pytest that ``tox``/``nox`` start in an environment without the
room's ``PYTHONPATH``; and code of the candidate running inside the observed process could
write the file itself (the plugin shares the process with the tests it observes).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

from gentle_hooks.errors import UsageError
from gentle_hooks.policy.suite_coverage import parse_sessions, unrun_line
from gentle_hooks.services.cleanroom import Room
from gentle_hooks.services.room_bounds import SCRATCH, scratch_env
from gentle_hooks.services.runner import run_observed

#: The observer plugin's module name (unlikely to be any project's own).
PLUGIN_MODULE = "gentle_hooks_suite_observer"
#: The variable naming the file the plugin appends its sessions to.
OBSERVED_VAR = "GENTLE_HOOKS_SUITE_OBSERVED"
#: The directory under the room's scratch part holding the observed files.
_OBSERVED_DIR = "observed"

#: The plugin (runs in the suite's interpreter: any Python 3 pytest supports).
_PLUGIN = """\
import json, os, sys

_selected = []
_reported = {}
_errors = []


def pytest_collection_finish(session):
    _selected[:] = [item.nodeid for item in session.items]


def pytest_collectreport(report):
    if report.failed:
        _errors.append(report.nodeid)


def pytest_runtest_logreport(report):
    seen = _reported.get(report.nodeid)
    if report.failed:
        _reported[report.nodeid] = "failed"
    elif seen is None or (seen == "passed" and report.skipped):
        _reported[report.nodeid] = report.outcome


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("GENTLE_HOOKS_SUITE_OBSERVED")
    if not path:
        return
    config = session.config
    root = getattr(config, "rootpath", None) or config.rootdir
    record = {
        "v": 1,
        "rootpath": str(root),
        "executable": sys.executable,
        "collect_only": bool(config.getoption("collectonly", False)),
        "exitstatus": int(exitstatus),
        "selected": _selected,
        "reported": _reported,
        "errors": _errors,
    }
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\\n")
"""


def observed_env(env: Mapping[str, str], room: Room, name: str) -> dict[str, str]:
    """``env`` for a run the observer watches: the plugin written to the room's guard
    directory (on ``PYTHONPATH``: appended when the room did not put it there), loaded by
    ``PYTEST_PLUGINS``, appending to the file ``name`` in the room's scratch part (made
    empty: call after :func:`~.room_bounds.scratch_env`).

    Raises:
        OSError: the plugin or the directory could not be written.
    """
    os.makedirs(room.guard, exist_ok=True)
    with open(os.path.join(room.guard, f"{PLUGIN_MODULE}.py"), "w", encoding="utf-8") as fh:
        fh.write(_PLUGIN)
    out = os.path.join(room.path, SCRATCH, _OBSERVED_DIR)
    os.makedirs(out, mode=0o700, exist_ok=True)
    target = os.path.join(out, name)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)
    entries = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if room.guard not in entries:
        entries.append(room.guard)
    return {
        **env,
        "PYTHONPATH": os.pathsep.join(entries),
        "PYTEST_PLUGINS": PLUGIN_MODULE,
        OBSERVED_VAR: target,
    }


#: The most bytes of an observed file read; a larger one counts as nothing observed.
_MAX_READ = 64 * 1024 * 1024


def _read(env: Mapping[str, str]) -> str:
    """The observed file ``env`` names, as text; empty when missing, unreadable or larger
    than :data:`_MAX_READ` (the run then shows nothing observed)."""
    try:
        with open(env[OBSERVED_VAR], "rb") as fh:
            data = fh.read(_MAX_READ + 1)
    except OSError:
        return ""
    return "" if len(data) > _MAX_READ else data.decode("utf-8", "replace")


def observed_unrun(room: Room, run_env: Mapping[str, str]) -> str | None:
    """After a suite ran with ``run_env`` (:func:`observed_env`): None when it ran every
    test the whole suite collects, else the one line saying how many it did not, or that
    the run was not observed (:func:`~gentle_hooks.policy.suite_coverage.unrun_line`).
    The collection runs in ``room``'s tree with fresh scratch directories, started as the
    checks are (:func:`~.runner.run_observed`'s launcher); a collection that changes the
    room is the check's change (the caller compares the room after both)."""
    tops = (room.tree, os.path.realpath(room.tree))
    run = parse_sessions(_read(run_env))
    python = next((s.executable for s in run if not s.collect_only), None)
    if python is None:
        return unrun_line(run, (), tops)
    collect_env = {**run_env, **scratch_env(room.path)}
    collect_env = observed_env(collect_env, room, "whole.jsonl")
    # an interpreter that cannot be started again leaves the whole suite uncollected
    with contextlib.suppress(UsageError, OSError):
        run_observed(
            (python, "-m", "pytest", "--collect-only", "-q"),
            cwd=room.tree,
            stdout=None,
            stderr=None,
            env=collect_env,
            launcher=True,
        )
    return unrun_line(run, parse_sessions(_read(collect_env)), tops)
