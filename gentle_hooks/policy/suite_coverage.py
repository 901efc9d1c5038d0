"""Whether an observed pytest run ran the whole suite (seed 001 "Rules": "A pass verdict
requires the full suite to have run"; SPEC §9; issue 18).

Room ``policy`` (pure: the caller reads the files and runs the processes,
:mod:`gentle_hooks.services.suite_observer`). A pytest process that loads the tool's
observer plugin writes one JSON line per session: the directory its node ids are relative
to (``rootpath``), the interpreter, whether it only collected, its exit status, the ids it
kept after deselection (``selected``), the ids it reported a phase of with their outcome
(``reported``), and the collectors that failed (``errors``). Node ids are compared as
paths from the top of the room's tree, whatever directory the run started in (``cd sub &&
pytest``, ``env -C sub pytest`` give ids relative to ``sub``).

What a session ran (:func:`ran_ids`): the ids it reported, and its collectors that
failed; a session that stopped with a non-zero status (``-x`` at a failure) also counts
what it selected (its run fails anyway). A collect-only session runs nothing.
:func:`unrun_line` compares those with the whole suite's collection (the same plugin in
``python -m pytest --collect-only -q`` at the tree's top, no arguments, without the
brief's variables): one line when some of the whole suite did not run, when the run set
variables and skipped a test that skips neither by a marker in the collection nor in a run
of it without them, or when nothing observed the run; None when every test of the whole
suite ran. A module the collection (without the brief's ``PYTHONPATH``) cannot import
counts as run when the run ran tests of it (:func:`covered`): the brief's ``PYTHONPATH``
locates its code; what the module does with it beyond importing is not seen.

The run is judged by outcome against the candidate's base tree too (:func:`lost_tests`,
:func:`lost_line`): a test the base's collection holds, and no skip marker skips there,
that the run skipped, expected to fail or did not collect is run by its id on the base
tree (at most :data:`MAX_AGAIN`); one that ran there (passed or failed) is a test the
change silenced, however it did (a marker, a conftest hook, a helper's ``pytest.skip``, a
renamed module), and the run is not the full suite. One that skips there too stands.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Sequence

from gentle_hooks.policy.skipreports import SkippedNamed
from gentle_hooks.values.frozen import frozen

#: The observer plugin's record format (the ``v`` of each line).
RECORD_VERSION = 1
#: The most tests :func:`switched_skips` names that are run again without the variables.
MAX_AGAIN = 100


@frozen
class Session:
    """One pytest session the observer saw.

    Attributes:
        rootpath: the directory its node ids are relative to; executable: its interpreter;
        collect_only: ``--collect-only``; exit_status: its exit status; selected: the ids
        kept after deselection; reported: (id, outcome) of each test it reported;
        errors: the ids of collectors that failed; marked: for a collect-only session,
        the ids its skip markers skip in its environment (``skipif`` evaluated there);
        failures: (id, digest) of how each failed test or collector failed (the failing
        line, its message, the test's own source and its own failing line, counted from
        its first: :func:`failure_hows`).
    """

    rootpath: str
    executable: str
    collect_only: bool
    exit_status: int
    selected: tuple[str, ...] = ()
    reported: tuple[tuple[str, str], ...] = ()
    errors: tuple[str, ...] = ()
    marked: tuple[str, ...] = ()
    failures: tuple[tuple[str, str], ...] = ()


def parse_sessions(text: str) -> tuple[Session, ...]:
    """The sessions of an observer file's ``text`` (JSON lines); a line that is not a
    record of :data:`RECORD_VERSION` (cut short, written by something else) is left out."""
    found: list[Session] = []
    for line in text.splitlines():
        try:
            rec = json.loads(line)
            reported = rec["reported"]
            session = Session(
                rootpath=str(rec["rootpath"]),
                executable=str(rec["executable"]),
                collect_only=bool(rec["collect_only"]),
                exit_status=int(rec["exitstatus"]),
                selected=tuple(str(i) for i in rec["selected"]),
                reported=tuple((str(k), str(v)) for k, v in reported.items()),
                errors=tuple(str(i) for i in rec["errors"]),
                marked=tuple(str(i) for i in rec.get("marked", ())),
                failures=tuple((str(k), str(v)) for k, v in rec.get("failures", {}).items()),
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        if rec.get("v") == RECORD_VERSION:
            found.append(session)
    return tuple(found)


def tree_id(node_id: str, rootpath: str, tops: Sequence[str]) -> str:
    """``node_id`` (relative to ``rootpath``) as a path from the tree's top: the first of
    ``tops`` (the tree's path, as given and resolved) that ``rootpath`` lies in; an id
    outside every one stays absolute. Only the file part (before the first ``::``) is a
    path: a parameter id may hold ``/``."""
    path, sep, rest = node_id.partition("::")
    full = posixpath.normpath(posixpath.join(rootpath, path))
    for top in tops:
        top = posixpath.normpath(top)
        if full == top or full.startswith(top.rstrip("/") + "/"):
            rel = posixpath.relpath(full, top)
            return f"{'' if rel == '.' else rel}{sep}{rest}"
    return f"{full}{sep}{rest}"


def ran_ids(sessions: Iterable[Session], tops: Sequence[str]) -> frozenset[str]:
    """What ``sessions`` ran, as ids from the tree's top (module docstring)."""
    ran: set[str] = set()
    for s in sessions:
        if s.collect_only:
            continue
        ids = [i for i, _ in s.reported] + list(s.errors)
        if s.exit_status != 0:
            ids += s.selected
        ran.update(tree_id(i, s.rootpath, tops) for i in ids)
    return frozenset(ran)


def failed_ids(sessions: Iterable[Session], tops: Sequence[str]) -> frozenset[str]:
    """The tests ``sessions`` reported failed, and the collectors that failed."""
    failed = {
        tree_id(i, s.rootpath, tops)
        for s in sessions
        if not s.collect_only
        for i in (*(k for k, v in s.reported if v == "failed"), *s.errors)
    }
    return frozenset(failed)


def failure_hows(sessions: Iterable[Session], tops: Sequence[str]) -> dict[str, str]:
    """How each test or collector ``sessions`` reported failed, as an id from the tree's
    top to the observer's digest (a test failing in several sessions: the last)."""
    return {
        tree_id(i, s.rootpath, tops): how
        for s in sessions
        if not s.collect_only
        for i, how in s.failures
    }


def whole_ids(sessions: Iterable[Session], tops: Sequence[str]) -> frozenset[str]:
    """The whole suite's ids from its collect-only sessions: what they selected and the
    collectors that failed (a module that cannot be imported is part of the suite)."""
    return frozenset(
        tree_id(i, s.rootpath, tops)
        for s in sessions
        if s.collect_only
        for i in (*s.selected, *s.errors)
    )


#: What :func:`unrun_line` says when no session of the run was observed.
UNOBSERVED = (
    "the run could not be observed: no pytest session it started loaded gentle-hooks' "
    "observer (PYTEST_PLUGINS), as when it drops the environment (env -i) or the plugin"
)


def skipped_ids(sessions: Iterable[Session], tops: Sequence[str]) -> frozenset[str]:
    """The tests ``sessions`` reported skipped (not an expected failure: it ran)."""
    return frozenset(
        tree_id(i, s.rootpath, tops)
        for s in sessions
        if not s.collect_only
        for i, outcome in s.reported
        if outcome == "skipped"
    )


def covered(missing: Iterable[str], ran: Iterable[str]) -> frozenset[str]:
    """The ids of ``missing`` that are collectors holding an id of ``ran`` (a module
    ``tests/test_x.py`` or a directory ``tests`` the whole collection failed to import,
    whose tests the run ran: ``tests/test_x.py::test_a``)."""
    prefixes = set()
    for i in ran:
        path = i.partition("::")[0]
        prefixes.add(path)
        while "/" in path:
            path = path.rsplit("/", 1)[0]
            prefixes.add(path)
    return frozenset(m for m in missing if "::" not in m and m in prefixes)


def switched_skips(
    run: Sequence[Session], whole: Sequence[Session], tops: Sequence[str]
) -> tuple[str, ...]:
    """The tests of the whole suite ``run`` skipped that no skip marker skips in the whole
    suite's collection ``whole`` (made without the run's variables), sorted: those a
    variable may have switched a skip on for (a ``pytest.skip`` in the body is seen only
    by running the test: :func:`unrun_line`'s ``again``)."""
    wanted = whole_ids(whole, tops)
    own = {tree_id(i, s.rootpath, tops) for s in whole if s.collect_only for i in s.marked}
    return tuple(sorted((skipped_ids(run, tops) & wanted) - own))


def unrun_line(
    run: Sequence[Session],
    whole: Sequence[Session],
    tops: Sequence[str],
    setters: Sequence[str] = (),
    collected_by: str = "pytest at the tree's top, no arguments",
    again: Sequence[Session] | None = None,
    excused: frozenset[str] = frozenset(),
) -> str | None:
    """One line saying the observed ``run`` is not the whole suite ``whole`` collects,
    None when it ran every id of it. ``run`` empty (nothing observed): :data:`UNOBSERVED`;
    ``whole`` holding no collect-only session: the whole suite could not be collected;
    ``collected_by``: how ``whole`` was collected, for the line.

    ``setters``: the variables the brief's ``env`` or the suite's command set for the run
    (not ``PATH``/``PYTHONPATH``, which locate programs and code). With some, a test the
    run skipped counts as not run unless a skip marker of it skips it in the whole suite's
    collection too (made without them): a variable can switch a skip on
    (``skipif(os.environ.get("FAST"))``), and only the repository's own environment shows
    which skips are its own. With none, every skip is the repository's own and stands.
    ``again``: a run, without the variables, of the tests :func:`switched_skips` names
    (None: not made, too many); one it reports skipped skips without them too and stands.
    ``excused``: ids from the tree's top the run deselected that fail on the base tree
    (rule R2's way out of a red base): not counted as not run."""
    if not any(not s.collect_only for s in run):
        return UNOBSERVED
    if not any(s.collect_only for s in whole):
        return (
            "the whole suite could not be collected (python -m pytest --collect-only at the "
            "tree's top, with the run's interpreter): nothing shows the run was the full suite"
        )
    wanted = whole_ids(whole, tops)
    ran = ran_ids(run, tops)
    missing = sorted(wanted - ran - excused - covered(wanted - ran, ran))
    if missing:
        return (
            f"{len(missing)} of the {len(wanted)} tests the whole suite collects "
            f"({collected_by}) did not run, e.g. {missing[0]}"
        )
    if not setters:
        return None
    own_skips = skipped_ids(again or (), tops)
    switched = [i for i in switched_skips(run, whole, tops) if i not in own_skips]
    if not switched:
        return None
    names = ", ".join(sorted(set(setters)))
    how = (
        "neither a skip marker nor a run of them without the variables skips them"
        if again is not None
        else "no skip marker skips them without the variables (a skip in a test's body shows "
        f"only in a run of it, made for at most {MAX_AGAIN} tests)"
    )
    return (
        f"{len(switched)} of the {len(wanted)} tests the whole suite collects were skipped in "
        f"a run that sets {names} (the brief's env or the suite's command), e.g. "
        f"{switched[0]}, and {how}: a skip a variable switches on is not the full suite; "
        "run it without them"
    )


#: The outcomes of a test that ran (an expected failure reported ``xfailed`` did not).
RAN_OUTCOMES = frozenset({"passed", "failed"})


def outcome_ids(sessions: Iterable[Session], tops: Sequence[str]) -> dict[str, str]:
    """Each test ``sessions`` reported, as an id from the tree's top, to its outcome
    (``passed``, ``failed``, ``skipped``, ``xfailed``; a failed collector: ``failed``)."""
    found: dict[str, str] = {}
    for s in sessions:
        if s.collect_only:
            continue
        for i, outcome in s.reported:
            found[tree_id(i, s.rootpath, tops)] = outcome
        for i in s.errors:
            found[tree_id(i, s.rootpath, tops)] = "failed"
    return found


def lost_tests(
    run: Sequence[Session],
    base_whole: Sequence[Session],
    tops: Sequence[str],
    excused: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """The tests of the base tree's collection ``base_whole`` (what its collect-only
    sessions selected, but those a skip marker skips there) that the candidate's ``run``
    did not run to a pass or a failure (skipped, expected to fail, or not reported: no
    longer collected), sorted; a module id the run ran tests of is run
    (:func:`covered`); ``excused`` as :func:`unrun_line` takes them."""
    wanted = {
        tree_id(i, s.rootpath, tops) for s in base_whole if s.collect_only for i in s.selected
    }
    marked = {tree_id(i, s.rootpath, tops) for s in base_whole if s.collect_only for i in s.marked}
    ran = {i for i, o in outcome_ids(run, tops).items() if o in RAN_OUTCOMES}
    missing = wanted - marked - ran - excused
    return tuple(sorted(missing - covered(missing, ran)))


def lost_line(
    run: Sequence[Session],
    lost: Sequence[str],
    again: Sequence[Session] | None,
    tops: Sequence[str],
) -> str | None:
    """One line when tests of ``lost`` (:func:`lost_tests`) ran on the base tree, in
    ``again`` (a run of them there by their ids; None: not made, more than
    :data:`MAX_AGAIN`), naming how many, one of them and what the candidate's run did with
    it; None when none of them ran there (each skips there too: the repository's own
    skip, a platform's)."""
    if not lost:
        return None
    if again is None:
        there = list(lost)
        how = f"more than {MAX_AGAIN} to run on the base tree, so each counts"
    else:
        base = outcome_ids(again, tops)
        there = [i for i in lost if base.get(i) in RAN_OUTCOMES]
        how = "each ran on the base tree"
    if not there:
        return None
    done = outcome_ids(run, tops).get(there[0])
    said = {"skipped": "skipped", "xfailed": "expected to fail"}.get(done or "", "not collected")
    return (
        f"{len(there)} tests of the base tree's suite were skipped, expected to fail or not "
        f"collected in the candidate's run ({how}), e.g. {there[0]} ({said}): a test the "
        "change silences is not the full suite; let it run, or let a person decide"
    )


def observed_named(
    run: Sequence[Session], tops: Sequence[str], skipped: int
) -> SkippedNamed | None:
    """The tests ``run`` reported skipped or expected to fail, as a runner's output would
    name them (:class:`~gentle_hooks.policy.skipreports.SkippedNamed`: their files from
    the tree's top, their functions' names), for the skip markers a change adds to be tied
    to them (row C1-skip) though the output (``-q``) names none; None when they are fewer
    than the ``skipped`` the runner's summary counts (a module skipped as it is collected,
    an unexpected pass: not each one is known), so every marker counts."""
    ids = [i for i, o in outcome_ids(run, tops).items() if o in ("skipped", "xfailed")]
    if skipped <= 0 or len(ids) < skipped:
        return None
    paths = frozenset(i.partition("::")[0] for i in ids)
    names = frozenset(i.rsplit("::", 1)[-1].split("[", 1)[0] for i in ids if "::" in i)
    return SkippedNamed(paths, frozenset(), names)
