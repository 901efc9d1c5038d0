"""Whether an observed pytest run ran the whole suite (issue 18; seed 001 "Rules": "A pass
verdict requires the full suite to have run"): :mod:`gentle_hooks.policy.suite_coverage`."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.policy.suite_coverage import (
    MAX_AGAIN,
    UNOBSERVED,
    Session,
    covered,
    lost_line,
    lost_tests,
    observed_named,
    parse_sessions,
    ran_ids,
    tree_id,
    unrun_line,
)

TOPS = ("/room/tree", "/real/room/tree")
A, B = "tests/test_a.py::test_a", "extra/test_b.py::test_b"


def whole(*ids: str, errors: tuple[str, ...] = ()) -> Session:
    return Session("/room/tree", "/py", True, 0, selected=ids, errors=errors)


def ran(
    *ids: str, root: str = "/room/tree", status: int = 0, selected: tuple[str, ...] = ()
) -> Session:
    return Session(
        root, "/py", False, status, selected=selected, reported=tuple((i, "passed") for i in ids)
    )


@pytest.mark.parametrize(
    ("node", "root", "want"),
    [
        ("test_a.py::test_a", "/room/tree/tests", A),  # cd tests && pytest
        ("test_a.py::test_a", "/real/room/tree/tests", A),  # the tree's resolved path
        ("tests/test_a.py::test_a[x/../y]", "/room/tree", "tests/test_a.py::test_a[x/../y]"),
        ("../extra/test_b.py::test_b", "/room/tree/tests", B),
        ("tests/test_a.py", "/room/tree", "tests/test_a.py"),  # a collector
        ("t.py::t", "/elsewhere", "/elsewhere/t.py::t"),
    ],
    ids=["cd-sub", "resolved", "param-slash", "dotdot", "collector", "outside"],
)
def test_tree_id(node: str, root: str, want: str) -> None:
    assert tree_id(node, root, TOPS) == want


@pytest.mark.parametrize(
    ("run", "want"),
    [
        ([ran(A, B)], None),
        ([ran(A)], "1 of the 2 tests the whole suite collects"),
        ([ran("test_a.py::test_a", root="/room/tree/tests")], "1 of the 2"),
        ([ran(A), ran("test_b.py::test_b", root="/room/tree/extra")], None),  # two runs
        ([], UNOBSERVED),
        ([Session("/room/tree", "/py", True, 0, selected=(A, B))], UNOBSERVED),  # --co
        ([ran(A, status=1, selected=(A, B))], None),  # -x stopped at a failure: it fails
        ([ran(status=0, selected=(A, B))], "2 of the 2"),  # selected, nothing reported
    ],
    ids=["all", "part", "cd-sub", "two-sessions", "none", "collect-only", "x-stop", "no-report"],
)
def test_unrun_line(run: list[Session], want: str | None) -> None:
    got = unrun_line(run, [whole(A, B)], TOPS)
    assert got == want if want is None or want == UNOBSERVED else want in (got or ""), got


def test_a_failing_collector_is_part_of_the_whole_suite() -> None:
    """A module the whole collection cannot import counts: a run that avoids it did not
    run the whole suite; one that hit it too counts it (its run fails)."""
    suite = [whole(A, errors=("extra/test_b.py",))]
    assert "1 of the 2" in (unrun_line([ran(A)], suite, TOPS) or "")
    hit = Session("/room/tree", "/py", False, 2, selected=(A,), errors=("extra/test_b.py",))
    assert unrun_line([hit], suite, TOPS) is None
    assert ran_ids([hit], TOPS) == {A, "extra/test_b.py"}


def test_no_whole_collection_is_not_the_full_suite() -> None:
    assert "could not be collected" in (unrun_line([ran(A)], [], TOPS) or "")


def test_parse_sessions_keeps_records_only() -> None:
    rec = {
        "v": 1,
        "rootpath": "/room/tree",
        "executable": "/py",
        "collect_only": False,
        "exitstatus": 0,
        "selected": [A],
        "reported": {A: "passed"},
        "errors": [],
    }
    text = "\n".join([json.dumps(rec), "{cut short", json.dumps({**rec, "v": 2}), "[]"])
    assert parse_sessions(text) == (ran(A, selected=(A,)),)


def _skipped(*ids: str) -> Session:
    """A run that passed ``A`` and skipped ``ids``."""
    reported = ((A, "passed"), *((i, "skipped") for i in ids))
    return Session("/room/tree", "/py", False, 0, reported=reported)


@pytest.mark.parametrize(
    ("setters", "marked", "want"),
    [
        ((), (), None),  # no variable: the repository's own skip stands
        (("FAST",), (), "1 of the 2 tests the whole suite collects were skipped in a run that "),
        (("FAST",), (B,), None),  # its marker skips it without the variables too
        (("B", "A"), (), "sets A, B (the brief's env or the suite's command), e.g. extra/"),
    ],
    ids=["no-variable", "variable", "marked-anyway", "names"],
)
def test_a_skip_counts_as_run_only_without_variables(
    setters: tuple[str, ...], marked: tuple[str, ...], want: str | None
) -> None:
    """Issue 18, r18s finding 2: a test skipped in a run the brief's env or the command sets
    variables for is not run, unless the whole suite's collection (without them) skips it
    by its marker; with no variables every skip stands."""
    collected = Session("/room/tree", "/py", True, 0, selected=(A, B), marked=marked)
    line = unrun_line([_skipped(B)], [collected], TOPS, setters)
    assert (line is None) if want is None else (line is not None and want in line), line


def test_an_expected_failure_ran() -> None:
    """An xfail test ran (its body did): not a skip, whatever the variables."""
    run = Session("/room/tree", "/py", False, 0, reported=((A, "passed"), (B, "xfailed")))
    assert unrun_line([run], [whole(A, B)], TOPS, ("FAST",)) is None


def test_parse_sessions_reads_marked() -> None:
    rec = {
        "v": 1,
        "rootpath": "/r",
        "executable": "/py",
        "collect_only": True,
        "exitstatus": 0,
        "selected": [A],
        "reported": {},
        "errors": [],
        "marked": [A],
    }
    assert parse_sessions(json.dumps(rec))[0].marked == (A,)


def test_a_module_only_the_briefs_pythonpath_imports_ran_when_its_tests_did() -> None:
    """Issue 18: the whole suite is collected without the brief's ``PYTHONPATH``; a module
    (or directory) that cannot be imported there is covered by the run's tests of it, and
    only by those."""
    suite = [whole(A, errors=("extra/test_b.py",))]
    assert unrun_line([ran(A, B)], suite, TOPS) is None
    assert "1 of the 2" in (unrun_line([ran(A)], suite, TOPS) or "")
    assert covered({"extra", "extra/test_b.py", "extra/test_c.py", B}, {B}) == {
        "extra",
        "extra/test_b.py",
    }


@pytest.mark.parametrize(
    ("again", "want"),
    [
        ([_skipped(B)], None),  # skips without the variables too: its own skip
        ([Session("/room/tree", "/py", False, 1, reported=((B, "failed"),))], "a run of them"),
        (None, f"made for at most {MAX_AGAIN} tests"),
    ],
    ids=["skips-again", "runs-again", "not-run-again"],
)
def test_a_runtime_skip_stands_when_it_skips_without_the_variables(
    again: list[Session] | None, want: str | None
) -> None:
    """Issue 18: a ``pytest.skip`` in a test's body (no marker) in a run that sets FAST:
    run again without FAST, it stands when it skips there too."""
    collected = Session("/room/tree", "/py", True, 0, selected=(A, B))
    line = unrun_line([_skipped(B)], [collected], TOPS, ("FAST",), again=again)
    assert (line is None) if want is None else (line is not None and want in line), line


# --- judged by outcome against the base tree (issue 18, refuter r18t HIGH) --------------------


def outcomes(*pairs: tuple[str, str]) -> Session:
    """A run (not collect-only) reporting each (id, outcome)."""
    return Session("/room/tree", "/py", False, 0, reported=pairs)


def base(*ids: str, marked: tuple[str, ...] = (), errors: tuple[str, ...] = ()) -> Session:
    """The base tree's collection."""
    return Session("/room/tree", "/py", True, 0, selected=ids, marked=marked, errors=errors)


@pytest.mark.parametrize(
    ("run", "base_whole", "want"),
    [
        ([outcomes((A, "passed"), (B, "failed"))], [base(A, B)], ()),
        ([outcomes((A, "passed"), (B, "skipped"))], [base(A, B)], (B,)),
        ([outcomes((A, "passed"), (B, "xfailed"))], [base(A, B)], (B,)),
        ([outcomes((A, "passed"))], [base(A, B)], (B,)),  # no longer collected
        ([outcomes((A, "passed"), (B, "skipped"))], [base(A, B, marked=(B,))], ()),
        ([outcomes((A, "passed"), (B, "passed"))], [base(A)], ()),  # a new test
        ([outcomes((A, "passed"))], [base(A, errors=("extra/test_b.py",))], ()),
        ([outcomes(("tests/test_a.py", "failed"))], [base(A)], (A,)),
        ([outcomes((A, "passed"))], [ran(A)], ()),  # no collect-only session: nothing to lose
    ],
    ids=[
        "all-ran",
        "skipped",
        "xfailed",
        "not-collected",
        "marked-on-base",
        "new-test",
        "base-collector-error",
        "module-error-not-run",
        "base-uncollected",
    ],
)
def test_lost_tests(run: list[Session], base_whole: list[Session], want: tuple[str, ...]) -> None:
    """Rows: what the base's collection holds (but its own skip markers) that the run did
    not run to a pass or a failure."""
    assert lost_tests(run, base_whole, TOPS) == want


@pytest.mark.parametrize(
    ("lost", "again", "want"),
    [
        ((), [], None),
        ((B,), [outcomes((B, "passed"))], "1 tests of the base tree's suite"),
        ((B,), [outcomes((B, "failed"))], "1 tests of the base tree's suite"),
        ((B,), [outcomes((B, "skipped"))], None),  # the base's own skip stands
        ((B,), [outcomes((B, "xfailed"))], None),  # the base's own expected failure
        ((B,), [], None),  # not reported on the base: not shown to run there
        ((B,), None, f"more than {MAX_AGAIN} to run on the base tree"),
    ],
    ids=["none", "passed", "failed", "skipped", "xfailed", "unreported", "too-many"],
)
def test_lost_line(lost: tuple[str, ...], again: list[Session] | None, want: str | None) -> None:
    run = [outcomes((A, "passed"), (B, "skipped"))]
    line = lost_line(run, lost, again, TOPS)
    if want is None:
        assert line is None
    else:
        assert line is not None and want in line, line
        assert f"e.g. {B} (skipped)" in line, line


@pytest.mark.parametrize(
    ("done", "said"),
    [("skipped", "skipped"), ("xfailed", "expected to fail"), (None, "not collected")],
)
def test_lost_line_says_what_the_run_did(done: str | None, said: str) -> None:
    run = [outcomes((A, "passed"), *([(B, done)] if done else []))]
    line = lost_line(run, (B,), [outcomes((B, "passed"))], TOPS)
    assert line is not None and f"e.g. {B} ({said})" in line, line


@pytest.mark.parametrize(
    ("run", "skipped", "want"),
    [
        ([outcomes((A, "passed"), (B, "skipped"))], 1, ({"extra/test_b.py"}, {"test_b"})),
        (
            [outcomes((A + "[x-1]", "xfailed"), (B, "skipped"))],
            2,
            ({"tests/test_a.py", "extra/test_b.py"}, {"test_a", "test_b"}),
        ),
        ([outcomes((A, "passed"), (B, "skipped"))], 2, None),  # one skipped it did not report
        ([outcomes((A, "passed"))], 0, None),
    ],
    ids=["skipped", "xfailed-param", "fewer-than-counted", "none-counted"],
)
def test_observed_named(
    run: list[Session], skipped: int, want: tuple[set[str], set[str]] | None
) -> None:
    """Row C1-skip, r18t LOW 3: the observer names each skipped or xfailed test (files from
    the tree's top, function names), or None when it saw fewer than the summary counts."""
    named = observed_named(run, TOPS, skipped)
    if want is None:
        assert named is None
    else:
        assert named is not None and (set(named.paths), set(named.names)) == want


def test_an_excused_deselection_is_not_unrun_nor_lost() -> None:
    """Rule R2's way out of a red base (issue 18): a test the run deselected that fails on
    the base tree (``excused``) counts neither as not run nor as lost; any other does."""
    assert unrun_line([ran(A)], [whole(A, B)], TOPS, excused=frozenset({B})) is None
    assert unrun_line([ran(A)], [whole(A, B)], TOPS, excused=frozenset({A})) is not None
    assert lost_tests([outcomes((A, "passed"))], [base(A, B)], TOPS, frozenset({B})) == ()
    assert lost_tests([outcomes((A, "passed"))], [base(A, B)], TOPS, frozenset({A})) == (B,)
