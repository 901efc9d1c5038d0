"""What a pytest full suite ran, observed by a plugin in its own process (SPEC §9; seed 001
"Rules": "A pass verdict requires the full suite to have run"; issue 18).

Room ``services``. A suite's command text cannot show what it narrows: ``cd sub &&
pytest``, ``env -C sub pytest``, ``pytest $A``, ``pytest "$@"``, ``pytest @args.txt``,
``xargs pytest < args.txt`` all read as a plain ``pytest``. So a verify run's pytest suite
(the brief's, or the one the repository declares) runs with the tool's observer plugin: its module,
:data:`PLUGIN_MODULE`, is written to the room's import-guard directory (first on every
check's ``PYTHONPATH``, also after a check's own ``PYTHONPATH=`` word: the room composes
it), loaded through ``PYTEST_PLUGINS`` (which no brief may set: rule B5), and writes one
JSON line per pytest session to the file :data:`OBSERVED_VAR` names, outside the tree
(:mod:`gentle_hooks.policy.suite_coverage` reads them). Then the whole suite is collected
with the same plugin by the room's own interpreter (``python -m pytest --collect-only -q``
at the tree's top, no arguments; a declared suite by its own command), in the room's own
environment only, not the brief's, ``PATH`` and ``PYTHONPATH`` included
(:func:`observed_unrun`), and :func:`observed_unrun` says how many of its tests the run
did not run, or that nothing observed the run. A run found whole is judged by outcome
against the candidate's base tree (:func:`lost_on_base`): the tests of the base's suite it
skipped, expected to fail or did not collect are run there by their ids; one that ran
there was silenced by the change, whatever did it. A suite that deselects tests (``--deselect``) is
the whole suite only for those that fail on the base tree, run there by their ids
(:func:`failing_on_base`: rule R2's way out of a red base, issue 18).

Not observed: suites of other runners (``unittest``, ``make``, ``npm``: their command and
output rules alone), a pytest that ``tox``/``nox`` start in an environment without the
room's ``PYTHONPATH``; and code of the candidate running inside the observed process could
write the file itself (the plugin shares the process with the tests it observes).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence

from gentle_hooks.errors import UsageError
from gentle_hooks.policy.assignments import assigned
from gentle_hooks.policy.skipreports import SkippedNamed, skipped_named
from gentle_hooks.policy.suite_coverage import (
    MAX_AGAIN,
    Session,
    failure_hows,
    lost_line,
    lost_tests,
    observed_named,
    outcome_ids,
    parse_sessions,
    switched_skips,
    tree_id,
    unrun_line,
)
from gentle_hooks.services.cleanroom import Room, swap_in
from gentle_hooks.services.room_bounds import SCRATCH, scratch_env
from gentle_hooks.services.room_programs import python_of
from gentle_hooks.services.runner import run_observed

#: The observer plugin's module name (unlikely to be any project's own).
PLUGIN_MODULE = "gentle_hooks_suite_observer"
#: The variable naming the file the plugin appends its sessions to.
OBSERVED_VAR = "GENTLE_HOOKS_SUITE_OBSERVED"
#: The variables that locate programs and code, not tests: a brief's value of one switches
#: no skip (:func:`suite_setters`); the whole suite's collection has the room's own
#: (:func:`brief_own`).
LOCATING: frozenset[str] = frozenset({"PATH", "PYTHONPATH"})
#: The directory under the room's scratch part holding the observed files.
_OBSERVED_DIR = "observed"

#: The plugin (runs in the suite's interpreter: any Python 3 pytest supports).
_PLUGIN = """\
import hashlib, inspect, json, linecache, os, re, sys

_selected = []
_reported = {}
_errors = []
_marked = []
_items = {}
_failures = {}
_own = {}
_ADDRESS = re.compile("0x[0-9a-fA-F]+")


# The test function's own failing line (its outermost frame in the traceback), counted from
# its first line: the crash frame alone is one line of a helper many lines of a test reach,
# and a test moved in its file still fails the same way.
def _own_line(item, excinfo):
    obj = getattr(item, "obj", None)
    code = getattr(inspect.unwrap(getattr(obj, "__func__", obj)), "__code__", None)
    tb = excinfo.tb
    while code is not None and tb is not None:
        if tb.tb_frame.f_code is code:
            return tb.tb_lineno - code.co_firstlineno
        tb = tb.tb_next
    return None


def pytest_runtest_makereport(item, call):
    if call.excinfo is not None:
        try:
            _own[(item.nodeid, call.when)] = _own_line(item, call.excinfo)
        except Exception:
            _own.pop((item.nodeid, call.when), None)
    return None


def _how(report):
    try:
        own = _own.pop((report.nodeid, getattr(report, "when", None)), None)
        source = ""
        item = _items.get(report.nodeid)
        if item is not None:
            try:
                source = inspect.getsource(item.obj)
            except Exception:
                source = ""
        longrepr = report.longrepr
        crash = getattr(longrepr, "reprcrash", None)
        if crash is not None:
            path, lineno = str(crash.path), int(crash.lineno)
            said = [path, linecache.getline(path, lineno).strip(), str(crash.message)]
        else:
            lines = [ln for ln in str(longrepr).splitlines() if ln.strip()]
            said = lines[-1:]
        body = _ADDRESS.sub("0x#", json.dumps([source] + said + [own]))
        how = hashlib.sha256(body.encode("utf-8", "replace")).hexdigest()
    except Exception:
        return
    seen = _failures.get(report.nodeid)
    _failures[report.nodeid] = how if seen is None else seen + "," + how


def pytest_collection_finish(session):
    _selected[:] = [item.nodeid for item in session.items]
    _items.update((item.nodeid, item) for item in session.items)
    if not session.config.getoption("collectonly", False):
        return
    try:
        import pytest
        from _pytest.skipping import evaluate_skip_marks
    except ImportError:
        return
    for item in session.items:
        try:
            if evaluate_skip_marks(item) is not None:
                _marked.append(item.nodeid)
        except (Exception, pytest.fail.Exception):
            pass


def pytest_collectreport(report):
    if report.failed:
        _errors.append(report.nodeid)
        _how(report)


def pytest_runtest_logreport(report):
    seen = _reported.get(report.nodeid)
    outcome = report.outcome
    if report.skipped and hasattr(report, "wasxfail"):
        outcome = "xfailed"
    if report.failed:
        _reported[report.nodeid] = "failed"
        _how(report)
    elif seen is None or (seen == "passed" and report.skipped):
        _reported[report.nodeid] = outcome


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
        "marked": _marked,
        "failures": _failures,
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


def observed_run(run_env: Mapping[str, str]) -> tuple[Session, ...]:
    """The sessions the observer recorded in the file ``run_env`` names (none: nothing
    observed)."""
    return parse_sessions(_read(run_env))


def named_skips(
    run: Sequence[Session] | None, room: Room, output: str, skipped: int, command: str
) -> SkippedNamed | None:
    """The tests a check skipped, named for row C1-skip: for a run the observer watched
    (``run``, :func:`observed_run`), each test it reported skipped or expected to fail
    (:func:`~gentle_hooks.policy.suite_coverage.observed_named`), whether its ``output``
    names them (``-rs``) or not (``-q``); else what ``output`` names
    (:func:`~gentle_hooks.policy.skipreports.skipped_named`, ``room``'s tree the root)."""
    if run is None:
        return skipped_named(output, skipped, room.tree, command)
    return observed_named(run, (room.tree, os.path.realpath(room.tree)), skipped)


def brief_own(
    brief_env: Mapping[str, str], room_env: Mapping[str, str], first: str = ""
) -> dict[str, str | None]:
    """For each variable ``brief_env`` sets, its value in the room's own ``room_env``
    (None: unset there), and for ``PYTHONPATH`` the room's own entries ``first`` (the
    guard's directory, the room's copies: :attr:`~.room_imports.RoomImports.first`; None
    when it put none): what :func:`observed_unrun` collects with."""
    own = {k: room_env.get(k) for k in sorted(brief_env)}
    if "PYTHONPATH" in own:
        own["PYTHONPATH"] = first or None
    return own


def suite_setters(command: str, own: Mapping[str, str | None]) -> tuple[str, ...]:
    """The variables a suite's run sets beyond the room's own: those of ``own``
    (:func:`brief_own`) and those its ``command`` assigns
    (:func:`~gentle_hooks.policy.assignments.assigned`), but :data:`LOCATING`."""
    names = {*own, *assigned(command).names}
    return tuple(sorted(n for n in names if n not in LOCATING))


def observed_unrun(
    room: Room,
    run_env: Mapping[str, str],
    *,
    own: Mapping[str, str | None] | None = None,
    setters: Sequence[str] = (),
    declared: Sequence[str] | None = None,
    argv: Sequence[str] = (),
    excused: frozenset[str] = frozenset(),
    run: Sequence[Session] | None = None,
) -> str | None:
    """After a suite ran with ``run_env`` (:func:`observed_env`): None when it ran every
    test the whole suite collects, else the one line saying how many it did not, or that
    the run was not observed (:func:`~gentle_hooks.policy.suite_coverage.unrun_line`).

    The whole suite is what the repository is, not what the brief makes of it: it is
    collected in ``room``'s tree with fresh scratch directories, started as the checks are
    (:func:`~.runner.run_observed`'s launcher), in ``run_env`` with each variable of ``own``
    (those the brief's ``env`` sets, ``PATH`` and ``PYTHONPATH`` too: :func:`brief_own`)
    put back to the room's own value, or removed (None): a conftest's ``collect_ignore``
    that a brief's variable fills, or a module only the brief's ``PYTHONPATH`` finds, does
    not narrow it. A command's own assignments never reach it (it is another process).
    ``declared``: the argv of the suite the repository declares
    (``verification.full_suite``), collected by itself with ``--collect-only -q`` added
    to ``PYTEST_ADDOPTS``; else ``python -m pytest --collect-only -q`` at the tree's top,
    ``python`` the room's own interpreter: the one the run used, or, when the brief sets
    ``PATH``, the one the suite's ``argv`` starts on the room's own ``PATH``
    (:func:`~.room_programs.python_of`; none: the whole suite is not collected).
    ``setters``: as :func:`~gentle_hooks.policy.suite_coverage.unrun_line` takes them;
    with some, the tests the run skipped that no marker skips in the collection
    (:func:`~gentle_hooks.policy.suite_coverage.switched_skips`, at most
    :data:`~gentle_hooks.policy.suite_coverage.MAX_AGAIN`) are run again the same way,
    by their ids: one that skips there too (a ``pytest.skip`` in its body) stands. A
    collection or run again that changes the room is the check's change (the caller
    compares the room after all of them). ``excused``: :func:`failing_on_base`'s ids, not
    counted as not run; ``run``: the run's sessions, read before (:func:`observed_run`:
    the scratch part is made anew for each later run); else read here."""
    tops = (room.tree, os.path.realpath(room.tree))
    run = parse_sessions(_read(run_env)) if run is None else run
    python = next((s.executable for s in run if not s.collect_only), None)
    if python is None:
        return unrun_line(run, (), tops)
    own = own or {}
    if "PATH" in own:  # the brief chose the run's programs: the room's own interpreter
        python = python_of(argv, own["PATH"] or os.defpath, room.tree)
        if python is None:
            return (
                "the whole suite could not be collected: the brief's env sets PATH, and the "
                "suite's command starts no Python interpreter on the room's own PATH"
            )
    collect_env = _own_env(run_env, room, own)
    argv_co: tuple[str, ...] = (python, "-m", "pytest", "--collect-only", "-q")
    how = "pytest at the tree's top, no arguments"
    collect_env = observed_env(collect_env, room, "whole.jsonl")
    if declared is not None:
        argv_co = tuple(declared)
        opts = collect_env.get("PYTEST_ADDOPTS", "")
        collect_env["PYTEST_ADDOPTS"] = f"{opts} --collect-only -q".strip()
        how = "the declared full suite's own collection"
    whole = _sessions(argv_co, room, collect_env)
    again: tuple[Session, ...] | None = ()
    switched = switched_skips(run, whole, tops) if setters else ()
    if len(switched) > MAX_AGAIN:
        again = None
    elif switched:
        again_env = observed_env(_own_env(run_env, room, own), room, "again.jsonl")
        again = _sessions((python, "-m", "pytest", "-q", *switched), room, again_env)
    return unrun_line(run, whole, tops, setters, collected_by=how, again=again, excused=excused)


def lost_on_base(
    room: Room,
    run_env: Mapping[str, str],
    run: Sequence[Session],
    *,
    own: Mapping[str, str | None] | None = None,
    declared: Sequence[str] | None = None,
    argv: Sequence[str] = (),
    excused: frozenset[str] = frozenset(),
) -> tuple[str | None, bool]:
    """After a suite ran on the candidate with ``run_env`` (:func:`observed_env`), observed
    as ``run`` (:func:`observed_run`, read before :func:`observed_unrun` empties the
    scratch part), and :func:`observed_unrun` found it whole: the line
    (:func:`~gentle_hooks.policy.suite_coverage.lost_line`) when tests of the base tree's
    suite that run there were skipped, expected to fail or not collected in that run
    (None: none, the candidate changes no file, nothing observed the run, or it failed),
    and whether a run on the base changed the room's own directory (beside ``tree/``).

    The base tree, swapped into ``tree/``, is collected as :func:`observed_unrun` collects
    the candidate's (``declared``, ``argv``, ``own``'s ``PATH`` choose the interpreter and
    the command) but in the run's own environment, so both trees are judged alike; the
    tests :func:`~gentle_hooks.policy.suite_coverage.lost_tests` names (at most
    :data:`~gentle_hooks.policy.suite_coverage.MAX_AGAIN`) are run there by their ids, so
    a test is judged by its outcome on both trees, whatever silenced it. What these runs
    change in the base tree is the check's change (the caller compares the room).
    ``excused``: :func:`failing_on_base`'s ids, not lost."""
    python = next((s.executable for s in run if not s.collect_only), None)
    if not os.path.isdir(room.base) or python is None or any(s.exit_status for s in run):
        return None, False
    if "PATH" in (own or {}):  # as observed_unrun: the room's own interpreter
        python = python_of(argv, (own or {})["PATH"] or os.defpath, room.tree)
        if python is None:
            return None, False
    tops = (room.tree, os.path.realpath(room.tree))
    env = {**{k: v for k, v in run_env.items() if k != OBSERVED_VAR}, **scratch_env(room.path)}
    collect_env = observed_env(env, room, "base-whole.jsonl")
    collect: Sequence[str] = (python, "-m", "pytest", "--collect-only", "-q")
    if declared is not None:
        collect = declared
        opts = collect_env.get("PYTEST_ADDOPTS", "")
        collect_env["PYTEST_ADDOPTS"] = f"{opts} --collect-only -q".strip()
    with swap_in(room, room.base):
        before = _dir_stamp(room.path)
        lost = lost_tests(run, _sessions(collect, room, collect_env), tops, excused)
        again: tuple[Session, ...] | None = ()
        if len(lost) > MAX_AGAIN:
            again = None
        elif lost:
            again_env = observed_env(env, room, "base-again.jsonl")
            again = _sessions((python, "-m", "pytest", "-q", *lost), room, again_env)
        touched = _dir_stamp(room.path) != before
    return lost_line(run, lost, again, tops), touched


def failing_on_base(
    room: Room, run_env: Mapping[str, str], run: Sequence[Session], ids: Sequence[str]
) -> tuple[frozenset[str], bool]:
    """Of the node ids ``ids`` a pytest suite deselected
    (:func:`~gentle_hooks.policy.selection.deselected_ids`), observed as ``run`` on the
    candidate: those that fail on the candidate's base tree, run there by their ids with
    the run's interpreter and environment (rule R2's way out of a red base: a suite that
    deselects only the base's own failures is the full suite of a clean change), as ids
    from the tree's top; empty when no base tree, nothing observed, or none fails there.
    An id is taken as it is written, from the tree's top: one that names a module, or a
    test by a prefix of its parameters, is reported under other ids and never counts, nor
    does one the candidate does not fail the same way (run there by its id too, how it
    failed compared: :func:`~gentle_hooks.policy.suite_coverage.failure_hows`; a change
    deleting, fixing or editing a failing test, or making it fail otherwise, and
    deselecting it would hide that). A deselected id that is a prefix of another test's
    (pytest's ``--deselect`` is) is excused alone: the other, not run, is not.
    Also whether the run on the base changed the room's own directory (beside ``tree/``),
    as :func:`lost_on_base` says it."""
    python = next((s.executable for s in run if not s.collect_only), None)
    if not ids or python is None or not os.path.isdir(room.base):
        return frozenset(), False
    tops = (room.tree, os.path.realpath(room.tree))
    env = {**{k: v for k, v in run_env.items() if k != OBSERVED_VAR}, **scratch_env(room.path)}
    argv = (python, "-m", "pytest", "-q", *ids)
    # the candidate still fails each, the same way (a test it deletes, fixes, edits or
    # fails otherwise is not one it may deselect)
    held_env = observed_env(env, room, "deselected.jsonl")
    before = _dir_stamp(room.path)
    here = _sessions(argv, room, held_env)
    held = {i for i, o in outcome_ids(here, tops).items() if o == "failed"}
    how = failure_hows(here, tops)
    touched = _dir_stamp(room.path) != before
    again_env = observed_env({**env, **scratch_env(room.path)}, room, "base-deselected.jsonl")
    with swap_in(room, room.base):
        before = _dir_stamp(room.path)
        sessions = _sessions(argv, room, again_env)
        touched = touched or _dir_stamp(room.path) != before
    outcomes, base_how = outcome_ids(sessions, tops), failure_hows(sessions, tops)
    wanted = {tree_id(i, room.tree, tops) for i in ids if "::" in i}
    same = {t for t in held if how.get(t) is not None and how.get(t) == base_how.get(t)}
    return frozenset(t for t in wanted if outcomes.get(t) == "failed" and t in same), touched


def _dir_stamp(path: str) -> tuple[int, int, int]:
    st = os.lstat(path)
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _own_env(
    run_env: Mapping[str, str], room: Room, own: Mapping[str, str | None]
) -> dict[str, str]:
    """``run_env`` with fresh scratch directories and each variable of ``own`` put back
    (None: removed)."""
    env = {**run_env, **scratch_env(room.path)}
    for name, value in own.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _sessions(argv: Sequence[str], room: Room, env: Mapping[str, str]) -> tuple[Session, ...]:
    """Run ``argv`` in ``room``'s tree with ``env`` (:func:`observed_env`'s), its output
    discarded, and return the sessions the observer recorded (none: it could not start)."""
    # an interpreter that cannot be started again leaves nothing observed
    with contextlib.suppress(UsageError, OSError):
        run_observed(argv, cwd=room.tree, stdout=None, stderr=None, env=env, launcher=True)
    return parse_sessions(_read(env))
