"""Running a verify run's checks in its clean room, observed (SPEC §9; seed 001).

Room ``services``. :func:`observe_all` runs each check of a plan in the room's ``tree/``
(and each criterion and negative test, a suite that printed an unavailable tool's line, and
a pytest suite's tests it did not run, again on the candidate's base tree, and a criterion
that gave the same exit status there once more on the candidate with the files it adds or
changes emptied: row C4-nothing; each swapped into ``tree/`` for its run, so every run is at
the same path), with :func:`~gentle_hooks.services.room_env.room_env` (only the allowlisted
part of the caller's environment) and :func:`cache_env` (bytecode outside the tree, none of
the room's sources' kept from one run to the next; pytest's cache fresh for each run), and
stops at the first check that changed the room
(:func:`~gentle_hooks.services.cleanroom.room_touched`, the candidate's files, the files it
added). A full suite that failed keeps the ids of the tests it failed on each tree and how
each failed (:mod:`~gentle_hooks.services.room_failures`: row C5-base judges "the same way"
by them); a failed run names a file of the work tree git ignores that it lacked (row
C1-ignored).
:mod:`gentle_hooks.services.verify` writes the verdict from what this observed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from gentle_hooks.artifacts.observation import Check, Outcome
from gentle_hooks.errors import UsageError
from gentle_hooks.policy.outputs import declared_outputs
from gentle_hooks.policy.selection import deselected_ids, selection
from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.policy.testcount import reports_failures, runner_of, tests_run, tests_skipped
from gentle_hooks.policy.toolmissing import missing_tool
from gentle_hooks.services.cleanroom import (
    Room,
    make_hollow,
    remove_hollow,
    stamp_room,
    swap_in,
)
from gentle_hooks.services.defined import added_skip_marks, defined_by_change, discovery_steered
from gentle_hooks.services.editable import tree_relative
from gentle_hooks.services.record import Bound
from gentle_hooks.services.room_bounds import (
    SCRATCH,
    SCRATCH_BYTECODE,
    SCRATCH_CACHE,
    scratch_env,
)
from gentle_hooks.services.room_changes import room_changes
from gentle_hooks.services.room_dirs import require_real_dirs
from gentle_hooks.services.room_env import env_digest
from gentle_hooks.services.room_failures import (
    deselect_reach,
    failed_tests,
    failure_line,
    gone_tests,
    suite_ran,
)
from gentle_hooks.services.room_imports import RoomImports, room_argv
from gentle_hooks.services.room_lacks import ignored_lack
from gentle_hooks.services.runner import run_observed
from gentle_hooks.services.skip_ties import counted_skip_marks
from gentle_hooks.services.suite_observer import (
    failing_on_base,
    lost_on_base,
    named_skips,
    observed_env,
    observed_run,
    observed_unrun,
    suite_setters,
)
from gentle_hooks.values.frozen import replace


def _observe(
    check: Check,
    number: int,
    room: Room,
    env: Mapping[str, str],
    logs: dict[str, bytes],
    *,
    where: str = "",
    operands: bool = True,
    steering: tuple[str, ...] = (),
    argv: tuple[str, ...] = (),
    own: Mapping[str, str | None] | None = None,
) -> Outcome:
    """Run one check in the room's ``tree/`` (whichever checkout is there: ``where`` names
    it, ``"base"`` or ``"hollow"``), with ``PWD`` set to it, no ``OLDPWD``, a fresh
    ``HOME``, ``TMPDIR`` and XDG directories, and :func:`cache_env`'s caches, started by a
    launcher with that environment in ``tree/`` (its parent process shows nothing of
    this one: :func:`~gentle_hooks.services.runner.run_observed`). Its output
    goes to an unnamed file and is kept in ``logs`` under ``logs/NN-kind.log``
    (``NN-kind-WHERE.log``) for :func:`observe_all` to write once every run of the check
    is over: a log file appearing while a check runs would tell it which run it is.
    ``operands``/``steering``: as :func:`~gentle_hooks.policy.selection.selection` takes
    them, for a full suite; with ``operands``, a pytest suite's run on the candidate is
    observed (:func:`~gentle_hooks.services.suite_observer.observed_unrun`, inside the
    window the room is compared over; without, the declared suite, collected by itself),
    then, whole, by outcome with the base's (:func:`~.suite_observer.lost_on_base`); ``own``:
    the room's own values of the brief's variables (``observe_all``). ``argv``:
    what runs, when not ``check.argv`` (its ``PYTHONPATH=`` words composed:
    :func:`~gentle_hooks.services.room_imports.room_argv`)."""
    import tempfile

    run_env = {k: v for k, v in env.items() if k != "OLDPWD"}
    run_env["PWD"] = room.tree
    run_env.update(scratch_env(room.path))  # before the stamp: made anew for every run
    run_env = cache_env(
        run_env,
        os.path.join(room.path, SCRATCH, SCRATCH_CACHE),
        os.path.join(room.path, SCRATCH, SCRATCH_BYTECODE),
    )
    # a full suite by pytest, brief's or declared: what it ran is observed (on the
    # candidate; its base run gets the same environment, so it cannot tell them apart)
    watched = check.kind == "suite" and _runs(check, "T-pytest")
    if watched:
        run_env = observed_env(run_env, room, "run.jsonl")
    # the room's own directory, compared around this run alone: the swaps between runs
    # rename its entries, a file the check put beside tree/ and removed changes it too
    root_before = _root_stamp(room)
    with tempfile.TemporaryFile() as out:
        out.write(f"$ {check.command}\n".encode())
        out.flush()
        try:
            obs = run_observed(
                argv or check.argv,
                cwd=room.tree,
                stdout=out,
                stderr=out,
                env=run_env,
                launcher=True,
            )
        except UsageError as exc:
            out.write(f"{exc.message}\n".encode())
            obs = None
            error = exc.message
        out.seek(0)
        logs[_log_path(room, check, number, where)] = out.read()
    unrun = None
    argv_, declared = argv or check.argv, None if operands else (argv or check.argv)
    run = observed_run(run_env) if watched and obs is not None else ()  # before others run
    excused: frozenset[str] = frozenset()
    if watched and not where and obs is not None:
        # rule R2's way out of a red base: deselected tests that fail on the base tree
        if _root_stamp(room) != root_before:
            logs[ROOT_TOUCHED] = b""
        excused, touched = failing_on_base(room, run_env, run, deselected_ids(check.command))
        logs.update({ROOT_TOUCHED: b""} if touched else {})  # a run wrote beside tree/
        root_before = _root_stamp(room)  # the swaps around that run renamed its entries
        sets = suite_setters(check.command, own or {})
        unrun = observed_unrun(
            room,
            run_env,
            own=own,
            setters=sets,
            declared=declared,
            argv=argv_,
            excused=excused,
            run=run,
        )
    if _root_stamp(room) != root_before:
        logs[ROOT_TOUCHED] = b""
    if unrun is None and watched and not where and obs is not None:  # the base's outcomes
        unrun, touched = lost_on_base(
            room, run_env, run, own=own, declared=declared, argv=argv_, excused=excused
        )
        logs.update({ROOT_TOUCHED: b""} if touched else {})  # a run wrote beside tree/
    if obs is None:
        return Outcome(check, None, 0, None, error=error)
    text = logs[_log_path(room, check, number, where)].decode("utf-8", "replace")
    signature = missing_tool(check.command, text) if obs.exit_code != 0 else None
    failed, how = failed_tests(check, obs.exit_code, run, room.tree, text)
    outcome = Outcome(
        check,
        obs.exit_code,
        obs.duration_ms,
        obs.output_digest,
        signature=signature,
        env=tuple(sorted(run_env)),
        env_digest=env_digest(env),
        failed_tests=failed,
        failed_how=how,
        deselect_reach=deselect_reach(run, failed or (), room.tree),
        ran_tests=suite_ran(check, run, room.tree) if failed is not None else None,
    )
    runner = runner_of(check.command)
    if runner is not None and check.kind != "negative" and not where:
        skipped = tests_skipped(check.command, text)
        chosen = (
            selection(
                check.command,
                text,
                operands=operands,
                steering=steering,
                links=tree_links(check.command, room.tree),
                excused=frozenset(i for i in deselected_ids(check.command) if i in excused),
            )
            if check.kind == "suite"
            else None
        )
        outcome = replace(
            outcome,
            runner=runner.id,
            tests_run=tests_run(check.command, text),
            tests_skipped=skipped,
            skipped_named=named_skips(run if watched else None, room, text, skipped, check.command),
            tests_failed=reports_failures(check.command, text),
            selection=chosen.id if chosen is not None else None,
            selected_by=steering if chosen is not None and chosen.steered else (),
            unrun=unrun,
            excused=tuple(sorted(excused)),
        )
    return outcome


#: The key :func:`_observe` sets in its ``logs`` when a run changed the room's directory.
ROOT_TOUCHED = ""


def _root_stamp(room: Room) -> tuple[int, int, int]:
    return (st := os.lstat(room.path)).st_ino, st.st_mtime_ns, st.st_ctime_ns


def _log_path(room: Room, check: Check, number: int, where: str = "") -> str:
    return os.path.join(room.logs, f"{number:02d}-{check.kind}{'-' + where if where else ''}.log")


def _write_logs(logs: dict[str, bytes]) -> None:
    """Write each log file anew, never through a link (the logs directory, or a file a
    check put at a log's name: UsageError / OSError instead)."""
    for path, data in logs.items():
        if path != ROOT_TOUCHED:
            require_real_dirs(os.path.dirname(path))
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with os.fdopen(os.open(path, flags, 0o666), "wb") as fh:
                fh.write(data)
    logs.clear()


def _again(
    room: Room,
    outcome: Outcome,
    where: Literal["base", "hollow"],
    observe: Callable[..., Outcome],
    failure: Callable[[str], str] | None = None,
) -> Outcome:
    """Run the check again (``observe``: :func:`_observe` bound to it) on another checkout
    swapped into ``tree/`` and record on ``outcome`` whether its exit status there was the
    candidate's.

    ``where``: ``"base"``, the candidate's base tree (``base_exit``, ``base_same``,
    ``base_signature``); ``"hollow"``, for a criterion that gave the candidate's exit status
    on the base tree, the candidate with every file it adds or changes emptied
    (``hollow_exit``, ``hollow_same``: the same on both means it observed nothing of the
    artifact, row C4-nothing). Only the exit status is the check's verdict on a tree; its
    output is not (``sha256sum``, ``wc -c`` or ``stat`` of a changed file print another line
    on each tree and exit 0 on all of them: they judge nothing). A criterion that fails
    with the same status but another failure (``failure``: its :func:`failure_line` of a
    run, by ``where``; an AssertionError on the candidate, an ImportError on the base)
    observed the change: not the same."""
    with swap_in(room, room.base if where == "base" else room.hollow):
        other = observe(where=where)
    same = other.exit_code == outcome.exit_code
    if same and failure is not None and outcome.exit_code not in (None, 0):
        same = failure("") == failure(where)
    if where == "base":
        return replace(
            outcome,
            base_exit=other.exit_code,
            base_same=same,
            base_signature=other.signature,
            base_failed_tests=other.failed_tests,
            base_failed_how=other.failed_how,
            gone_tests=gone_tests(
                other.failed_tests, outcome.ran_tests, deselected_ids(outcome.check.command)
            ),
        )
    return replace(outcome, hollow_exit=other.exit_code, hollow_same=same)


def _failure_of(logs: dict[str, bytes], room: Room, check: Check, number: int, where: str) -> str:
    """:func:`failure_line` of the run of ``check`` on ``where`` kept in ``logs``."""
    data = logs.get(_log_path(room, check, number, where), b"")
    return failure_line(data.decode("utf-8", "replace"))


def observe_all(
    bound: Bound,
    checks: Sequence[Check],
    room: Room,
    env: Mapping[str, str],
    *,
    operands: bool = True,
    imports: RoomImports | None = None,
    programs: Sequence[Sequence[str]] = (),
    brief_vars: Mapping[str, str | None] | None = None,
) -> tuple[Outcome, ...]:
    """Run the plan's checks in order; each criterion and negative test also on the
    candidate's base tree (when the candidate changes files: :attr:`Room.base`), and a
    suite whose output holds an unavailable tool's line
    (:data:`~gentle_hooks.policy.toolmissing.MISSING_ROWS`; the same line and exit status
    there: its tool is unavailable, row C1, never a failure of the artifact), so a
    check whose outcome does not depend on the artifact is told apart: a negative test
    then does not count (row C2-base), a criterion's evidence says it held on the base too
    (a property the candidate preserves). A candidate that changes files mutates the
    repository, so a ``pass`` always holds a negative test whose outcome depends on the
    artifact. Every run of a check is at the same path, ``tree/``
    (:func:`~gentle_hooks.services.cleanroom.swap_in`), with the same environment and the
    same neighbours (a criterion's hollow checkout is made before its first run), and its
    logs are written after its last run: a check cannot tell which checkout it judges but
    by reading it. After each, compare the room with what it held before the check
    (:func:`~gentle_hooks.services.cleanroom.room_touched`: every file of the candidate and
    everything beside ``tree/``, by inode, size and change time, so an edit put back before
    the check ended is still seen), compare the room's files with the candidate's tree
    (:meth:`~gentle_hooks.git.room_check.RoomChecks.room_changes`: hashed from the files, so
    no index flag hides an edit) and list the files it added that the candidate's
    ``.gitignore`` does not ignore (:meth:`~gentle_hooks.git.room_check.RoomChecks.room_additions`;
    ignored caches and outputs stay allowed). A check that changed or added files ends the
    run there: it carries the changed paths (rows C0, S0), and no later check judges an
    artifact the verifier repaired (seed 001 "Guardrails": "do not repair, patch, or re-run
    the worker's implementation to make a criterion pass").
    A check whose definition the candidate adds or changes
    (:func:`~gentle_hooks.services.defined.defined_by_change`) is not run: its outcome
    would be the writer's word (row C1-own), and the base's definition is not swapped in
    either (that would patch the artifact it judges).
    ``operands``: a suite naming part of the test tree is not the full suite (row
    P-operand), and a pytest suite's run is observed and compared with the whole suite's
    collection (:mod:`~gentle_hooks.services.suite_observer`, row C1-suite-unrun); False
    when the repository declares its full suite (observed against its own collection). A
    suite run by ``python -m unittest`` whose discovery the change steers
    (:func:`~gentle_hooks.services.defined.discovery_steered`) is not either (row
    P-unittest-load-tests), declared or not. A check whose test runner skipped tests carries
    the skip markers the change adds (:func:`~gentle_hooks.services.defined.added_skip_marks`,
    row C1-skip) that may have skipped them: when its output names every test it skipped,
    those in the file of one, those outside a Python test module and those that may mark
    another module's tests (a base class's); else every one
    (:func:`~gentle_hooks.services.skip_ties.counted_skip_marks`).
    ``imports``: what the room put first on ``PYTHONPATH``; a check that would drop it is
    composed or not run (:func:`~gentle_hooks.services.room_imports.room_argv`), decided
    once on the candidate's tree for all its runs; ``programs``: per check, the files it
    starts (a ``#!`` line's flags count there); ``brief_vars``: the room's own values of the
    brief's variables, for the whole suite's collection
    (:func:`~gentle_hooks.services.suite_observer.brief_own`)."""
    with_base = os.path.isdir(room.base)
    by_unittest = any(c.kind == "suite" and _runs(c, "T-unittest") for c in checks)
    steering = discovery_steered(bound) if by_unittest else ()
    outcomes: list[Outcome] = []
    logs: dict[str, bytes] = {}
    marks: tuple[SkipMark, ...] | None = None
    tree_paths: dict[str, str] | None = None
    # the room's own PYTHONPATH entries (an editable install's places) as the tree's
    defined = defined_by_change(bound, checks, tree_relative(env, room.tree))
    for n, (check, own) in enumerate(zip(checks, defined, strict=True), 1):
        if own:  # the writer's definition: not run (row C1-own)
            outcomes.append(Outcome(check, None, 0, None, error=_own_words(own), defined_by=own))
            continue
        started = programs[n - 1] if n <= len(programs) else ()
        argv, refused = room_argv(check.argv, imports or RoomImports(), started)
        if refused is not None:  # it would import the work tree's code: not run
            outcomes.append(Outcome(check, None, 0, None, error=refused, room_refused=True))
            continue
        hollowed = with_base and check.kind == "criterion"
        if hollowed:
            make_hollow(bound.repo, room, bound.candidate)
        outputs = declared_outputs(check.command)
        try:
            before = stamp_room(room)
            observe = functools.partial(
                _observe,
                check,
                n,
                room,
                env,
                logs,
                operands=operands,
                steering=steering,
                argv=argv,
                own=brief_vars,
            )
            failure = (
                functools.partial(_failure_of, logs, room, check, n)
                if check.kind in ("criterion", "suite")
                else None
            )
            outcome = observe()
            said = logs.get(_log_path(room, check, n, ""), b"").decode("utf-8", "replace")
            changed = room_changes(bound, room, before, with_base, outputs)
            # a suite runs on the base tree to tell an unavailable tool, or a failure of
            # the brief's (row C5-base), from a failure of the change
            on_base = check.kind != "suite" or outcome.exit_code != 0
            if not changed and with_base and on_base and outcome.started:
                outcome = _again(room, outcome, "base", observe, failure)
                changed = room_changes(bound, room, before, with_base, outputs)
                if not changed and hollowed and outcome.base_same and outcome.ran:
                    outcome = _again(room, outcome, "hollow", observe, failure)
                    changed = room_changes(bound, room, before, with_base, outputs)
            if ROOT_TOUCHED in logs:  # a run wrote beside tree/ (and maybe removed it)
                changed = tuple(sorted({*changed, ".."}))
        finally:
            if hollowed:
                remove_hollow(room)
            _write_logs(logs)
        if outcome.exit_code:  # row C1-ignored: it lacked a file only the work tree holds
            outcome = replace(outcome, lacks=ignored_lack(bound.repo, bound.root, said))
        if outcome.tests_skipped > 0:  # row C1-skip: did the change add the skip?
            if marks is None:
                marks = added_skip_marks(bound)
            if marks and outcome.skipped_named is not None and tree_paths is None:
                tree_paths = {p: o for _, _, o, p in bound.repo.tree_entries(bound.candidate.tree)}
            counted = counted_skip_marks(bound, marks, outcome.skipped_named, tree_paths or {})
            outcome = replace(outcome, skip_marks=tuple(m.where for m in counted))
        if changed:
            outcomes.append(replace(outcome, changed=changed))
            break
        outcomes.append(outcome)
    return tuple(outcomes)


def tree_links(command: str, tree: str) -> dict[str, str]:
    """The words of ``command`` that name a path of ``tree`` through a symbolic link of
    it (a candidate's ``all -> tests/unit``), each to the path it resolves to from the
    tree's root (``.`` for the root); a link leading out of the tree is left out (the
    room refuses such a candidate)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    real_tree = os.path.realpath(tree)
    found: dict[str, str] = {}
    for word in words:
        if not word or word.startswith(("-", "/")) or "\0" in word:
            continue
        path = os.path.join(tree, word)
        if not os.path.lexists(path):
            continue
        real = os.path.realpath(path)
        inside = real == real_tree or real.startswith(real_tree + os.sep)
        rel = os.path.relpath(real, real_tree)
        if inside and rel != os.path.normpath(word):  # a link on its way
            found[word] = rel
    return found


def _runs(check: Check, runner_id: str) -> bool:
    return (runner := runner_of(check.command)) is not None and runner.id == runner_id


def _own_words(paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return (
        f"the change adds or changes {shown}, which {'defines' if len(paths) == 1 else 'define'} "
        "what it runs: its outcome would be the change's own word; put the command itself in "
        "the brief, or land that change first"
    )


def cache_env(env: Mapping[str, str], cache: str, bytecode: str) -> dict[str, str]:
    """``env`` set so that one run of a check reads no cache of the room's sources another
    run wrote and leaves the candidate's tree as it found it whatever its ``.gitignore``
    lists: Python's bytecode goes to and is read from ``bytecode`` alone
    (``PYTHONPYCACHEPREFIX``, the brief's replaced; ``PYTHONDONTWRITEBYTECODE`` dropped),
    so no ``__pycache__/*.pyc`` of the tree is ever run in place of its source (one
    compiled with ``UNCHECKED_HASH`` is never compared with it) and none is written
    there; pytest's cache goes to ``cache``, a directory made empty for this run
    (``PYTEST_ADDOPTS`` of ``-o cache_dir=...`` alone: the caller's never reaches the room,
    :func:`room_env`).

    Every run of a check is at the same path (``tree/``), and Python takes a cached
    module's bytecode as current when its source has the same size and modification
    second: a cache shared between the runs gave the base tree's run the candidate's
    code. So ``bytecode`` keeps, from one run to the next, only what was compiled from
    sources outside the room (:func:`~gentle_hooks.services.room_bounds.scratch_env`
    empties the rest before every run): the standard library and the installed packages
    every run imports alike, compiled once per room instead of once per run (a nested
    ``pytest`` spent 1.3 of its 1.7 s CPU compiling them)."""
    out = dict(env)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    out["PYTHONPYCACHEPREFIX"] = bytecode
    out["PYTEST_ADDOPTS"] = "-o " + shlex.quote("cache_dir=" + os.path.join(cache, "pytest"))
    return out
