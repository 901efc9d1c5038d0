"""What one check a verifier ran showed: :class:`Check` and :class:`Outcome` (seed 001).

Room: artifacts (imports :mod:`.verdict`, :mod:`gentle_hooks.policy`,
:mod:`gentle_hooks.values`); pure values. :mod:`.check_rows` judges them
(:data:`~.check_rows.CHECK_ROWS`); :mod:`gentle_hooks.services.room_run` observes them;
:func:`evidence_words` says what one showed.
"""

from __future__ import annotations

from gentle_hooks.artifacts.verdict import CheckKind, Program
from gentle_hooks.policy.failed_tests import adds_failures
from gentle_hooks.policy.selection import selection_said
from gentle_hooks.policy.skipreports import SkippedNamed
from gentle_hooks.policy.testcount import prints_count
from gentle_hooks.values.frozen import frozen

#: Exit statuses a shell gives when the program is missing (127) or cannot be executed
#: (126): the tool is unavailable, so nothing was observed about the artifact.
MISSING_TOOL_EXITS: frozenset[int] = frozenset({126, 127})


@frozen
class Check:
    """One check a verifier runs.

    Attributes:
        kind: criterion, negative or suite; criterion: what it checks, in words;
        command: the command as shown (a shell line, or the quoted argument vector);
        argv: what is executed (``("sh", "-c", line)`` for a shell line).
    """

    kind: CheckKind
    criterion: str
    command: str
    argv: tuple[str, ...]


@frozen
class Outcome:
    """What running one :class:`Check` showed.

    Attributes:
        check: the check; exit_code: its exit status, None when it could not be started;
        duration_ms / output_digest: as observed (digest None when it did not run);
        error: why it could not be started (None when it ran).
        changed: the candidate's paths whose files the check changed in the room (seed
            001 "Scope": the verifier "never repairs the artifact it judges"); empty when
            it left them as they were.
        base_exit / base_same: the exit status the same command gave on the candidate's
            base tree, and whether it was the candidate's (only the exit status: output
            that differs, a digest or size of a changed file, is not the check's verdict);
            None when it was not run there (a suite, a candidate that changes no file).
        hollow_exit / hollow_same: for a criterion whose exit status on the base tree was
            the candidate's: the exit status it gave on the candidate with every file the
            candidate adds or changes emptied, and whether it was the candidate's; None
            when it was not run there.
        env: the names of the environment variables it ran with, sorted; env_digest: the
            ``sha256:`` of the values it was given (:attr:`~.verdict.Observed.envDigest`).
        defined_by: the paths the candidate adds or changes that define what it runs
            (:mod:`gentle_hooks.policy.checkdefs`): it was not run (``exit_code`` None).
        tests_failed: its test runner's output reports failed tests
            (:func:`~gentle_hooks.policy.testcount.reports_failures`).
        runner / tests_run: the :data:`~gentle_hooks.policy.testcount.RUNNER_ROWS` row of
            the test runner the command runs and how many tests its output says ran (None:
            no runner, or no count in its output).
        tests_skipped: how many tests its output says it skipped, expected to fail or left
            to do (:func:`~gentle_hooks.policy.testcount.tests_skipped`); 0 when none.
        skipped_named: the tests its output names as skipped
            (:func:`~gentle_hooks.policy.skipreports.skipped_named`); None when it names
            fewer than it skipped, or skipped none.
        skip_marks: when it skipped tests, the ``path:line`` of each skip or
            expected-failure marker the change adds
            (:data:`~gentle_hooks.policy.skipmarks.SKIP_MARK_ROWS`) that may have skipped
            one of them (:func:`~gentle_hooks.policy.skipreports.counted_marks`: every one
            when ``skipped_named`` is None); empty otherwise.
        signature / base_signature: the :data:`~gentle_hooks.policy.toolmissing.MISSING_ROWS`
            row whose line (an unavailable tool's) the output holds on the candidate and on
            the base tree; None when it holds none or was not run there.
        selection: for a full suite, the
            :data:`~gentle_hooks.policy.selection.SELECTION_ROWS` row that shows it ran
            some of the tests (its flags, or its output); None when it ran them all.
        selected_by: for a full suite whose discovery the change steers (row
            P-unittest-load-tests), the candidate's paths that steer it; empty otherwise.
        programs: the programs it starts, as resolved before the run
            (:attr:`~.verdict.Observed.programs`); None when not resolved.
        shared: the paths of those programs that ran from a temporary or shared directory
            only because the caller allowed it (``--allow-shared-programs``).
        room_refused: not run (``exit_code`` None, ``error`` says why): it starts a Python
            the room's import redirects do not reach while the work tree holds other code
            (:func:`~gentle_hooks.services.room_imports.room_argv`).
        unrun: for a pytest full suite the tool observed
            (:mod:`gentle_hooks.services.suite_observer`), why it is not the whole suite:
            how many of the tests ``pytest`` collects at the tree's top it did not run, or
            that nothing observed the run; None when it ran them all, or was not observed
            (another runner, or the repository declares its full suite).
        failed_tests / base_failed_tests: for a full suite that failed, the ids of the
            tests it failed on the candidate and on the base tree, sorted
            (:mod:`gentle_hooks.policy.failed_tests`: a pytest run observed, unittest's
            report); None when not read (another runner, nothing observed) or not run there.
        failed_how / base_failed_how: each of those tests as ``(id, digest)`` of how it
            failed (a pytest run: the failing line, its message and the test's own source,
            as the observer reported them; unittest: its report's traceback, line numbers
            aside), sorted; None when not read.
        ran_tests: for an observed pytest full suite that failed, the ids it ran (from
            the tree's top: :func:`~gentle_hooks.policy.suite_coverage.ran_ids`); None
            otherwise.
        gone_tests: of the tests it failed on the base tree, those the candidate's run
            did not run (the change deletes or renames them); sorted.
        deselect_reach: for a pytest full suite that failed, the tests it ran, other than
            those it failed, whose ids start with a failed one's: a ``--deselect`` of the
            failed ids would deselect them too (pytest's ``--deselect`` is a prefix).
        excused: for a pytest full suite, the tests it deselected that failed on the base
            tree, run there by their ids (rule R2's way out of a red base:
            :func:`~gentle_hooks.services.suite_observer.failing_on_base`); their
            deselection does not make it part of the suite.
        lacks: for a failed run, the words naming the file of the user's work tree that git
            ignores and its output says it could not find (``the file localcfg.py, which
            git ignores``; :mod:`gentle_hooks.services.room_lacks`); None otherwise.
    """

    check: Check
    exit_code: int | None
    duration_ms: int
    output_digest: str | None
    error: str | None = None
    changed: tuple[str, ...] = ()
    base_exit: int | None = None
    base_same: bool | None = None
    runner: str | None = None
    tests_run: int | None = None
    hollow_exit: int | None = None
    hollow_same: bool | None = None
    signature: str | None = None
    base_signature: str | None = None
    tests_failed: bool = False
    env: tuple[str, ...] | None = None
    defined_by: tuple[str, ...] = ()
    selection: str | None = None
    selected_by: tuple[str, ...] = ()
    env_digest: str | None = None
    programs: tuple[Program, ...] | None = None
    shared: tuple[str, ...] = ()
    tests_skipped: int = 0
    skip_marks: tuple[str, ...] = ()
    skipped_named: SkippedNamed | None = None
    room_refused: bool = False
    unrun: str | None = None
    failed_tests: tuple[str, ...] | None = None
    base_failed_tests: tuple[str, ...] | None = None
    failed_how: tuple[tuple[str, str], ...] | None = None
    base_failed_how: tuple[tuple[str, str], ...] | None = None
    deselect_reach: tuple[str, ...] = ()
    ran_tests: frozenset[str] | None = None
    gone_tests: tuple[str, ...] = ()
    excused: tuple[str, ...] = ()
    lacks: str | None = None

    @property
    def checks_nothing(self) -> bool:
        """True for a criterion whose outcome is the same on the candidate's base tree and
        on the candidate with the files it adds or changes emptied: it observed nothing
        of the artifact (seed 001 "Guardrails": "do not accept a claim whose criteria
        have no observable check")."""
        return self.check.kind == "criterion" and bool(self.base_same) and self.hollow_same is True

    @property
    def suite_fails_on_base(self) -> bool:
        """True for a full suite that failed, and the same way on the base tree: the same
        exit status and unavailable tool's row, on tests that all failed there too, each
        the same way, and none of the base's failing tests is gone from its run (it adds
        no failed test, it may fix some:
        :func:`~gentle_hooks.policy.failed_tests.adds_failures`; the last line, ``1
        failed`` against ``2 failed``, does not matter then): the brief's suite, not the
        change."""
        return self._fails_on_base and self._adds_failures is False and not self.gone_tests

    @property
    def suite_fails_on_base_unread(self) -> bool:
        """True for a full suite that failed with the same exit status and last line on
        the base tree (:attr:`base_same`), when which tests failed on either tree was not
        read: nothing shows the change adds no failure, so it is not the brief's fault."""
        return self._fails_on_base and self.base_same is True and self._adds_failures is None

    @property
    def _fails_on_base(self) -> bool:
        same = self.base_exit == self.exit_code and self.base_signature == self.signature
        return self.check.kind == "suite" and self.exit_code != 0 and same

    @property
    def _adds_failures(self) -> bool | None:
        return adds_failures(
            self.failed_tests, self.base_failed_tests, self.failed_how, self.base_failed_how
        )

    @property
    def started(self) -> bool:
        """True when it started and the shell found the program."""
        return self.exit_code is not None and self.exit_code not in MISSING_TOOL_EXITS

    @property
    def unavailable(self) -> bool:
        """True when it failed with an unavailable tool's line
        (:data:`~gentle_hooks.policy.toolmissing.MISSING_ROWS`) and failed the same way on
        the base tree: the same exit status and the same row (when the candidate changes no
        file its tree is the base tree). A check that prints such a line only on the
        candidate failed for real: the artifact, not the tool, is what differs."""
        if self.signature is None or self.exit_code in (None, 0):
            return False
        return self.base_same is None or (self.base_same and self.base_signature == self.signature)

    @property
    def ran(self) -> bool:
        """True when the tool was there: it started, the shell found the program, and the
        program found the tool it runs (:attr:`unavailable`)."""
        return self.started and not self.unavailable

    @property
    def no_tests(self) -> bool:
        """True when it runs a test runner whose output shows no test ran (0, or no count
        from a runner that always prints one)."""
        return self.runner is not None and (
            self.tests_run == 0 or (self.tests_run is None and prints_count(self.runner))
        )


def evidence_words(o: Outcome) -> str:
    """One observed check's evidence in words (the verdict's ``criteria[].evidence``): the
    command, its exit status, duration and output digest, how many tests ran and were
    skipped, the skip markers the change adds, how the base and hollow trees compared."""
    if o.exit_code is None:
        what = "was not run" if o.defined_by or o.room_refused else "could not be started"
        return f"`{o.check.command}` {what}: {o.error or 'unknown error'}"
    digest = f"; output {o.output_digest}" if o.output_digest else ""
    changed = ""
    if o.changed:
        more = f" and {len(o.changed) - 3} more" if len(o.changed) > 3 else ""
        changed = f"; it changed the artifact: {', '.join(o.changed[:3])}{more}"
    tests = f"; {o.tests_run} test(s) ran" if o.runner is not None else ""
    if o.runner is not None and o.tests_skipped:
        tests += f"; {o.tests_skipped} skipped or expected to fail"
    if o.skip_marks:
        tests += f" (the change adds a skip marker at {marks_words(o.skip_marks)}"
        if o.skipped_named is None:
            tests += f"; {UNNAMED_WORDS}"
        tests += ")"
    if o.runner is not None and o.tests_run is None:
        tests = "; its output shows no count of tests run"
    if o.check.kind == "suite" and o.runner is None:
        tests = "; it runs no recognised test runner: nothing shows the project's tests ran"
    if o.selection is not None:
        tests += f"; {selection_said(o.selection)}"
    if o.unrun is not None:
        tests += f"; {o.unrun}"
    if o.excused:
        more = f" and {len(o.excused) - 3} more" if len(o.excused) > 3 else ""
        tests += (
            f"; it deselected {len(o.excused)} test(s) that fail on the base tree too: "
            f"{', '.join(o.excused[:3])}{more}"
        )
    if o.gone_tests:
        more = f" and {len(o.gone_tests) - 3} more" if len(o.gone_tests) > 3 else ""
        tests += (
            f"; the change deletes or renames {len(o.gone_tests)} test(s) that fail on the "
            f"base tree: {', '.join(o.gone_tests[:3])}{more} (not run here: a failure it hides)"
        )
    if o.selected_by:
        more = f" and {len(o.selected_by) - 3} more" if len(o.selected_by) > 3 else ""
        tests += (
            f" (the change adds or changes {', '.join(o.selected_by[:3])}{more}, which "
            "steers which tests unittest discovers: land it on its own first)"
        )
    if o.unavailable:
        tests = f"; its tool is unavailable ({o.signature})"
    if o.shared:
        tests += f"; {SHARED_WORDS}: {', '.join(o.shared)}"
    base = ""
    if o.base_same is not None:
        same = "the same outcome" if o.base_same else "another outcome"
        base = f"; on the base tree it exited {o.base_exit}: {same}"
    if o.hollow_same is not None:
        same = "the same outcome" if o.hollow_same else "another outcome"
        base += f"; with the changed files emptied it exited {o.hollow_exit}: {same}"
    return (
        f"`{o.check.command}` exited {o.exit_code} in {o.duration_ms} ms{digest}{tests}{base}"
        f"{changed}"
    )


def marks_words(marks: tuple[str, ...]) -> str:
    """The first three ``path:line`` of ``marks``, each whole, and how many more."""
    more = f" and {len(marks) - 3} more" if len(marks) > 3 else ""
    return ", ".join(marks[:3]) + more


#: What evidence says when the output did not name the tests it skipped (so every marker
#: the change adds counts).
UNNAMED_WORDS = (
    "the output does not name every skipped test: pytest -rsx or -v, unittest -v name them"
)

#: What a verdict says of programs run from a shared place only because the caller allowed it.
SHARED_WORDS = "run from a temporary or shared directory, allowed by --allow-shared-programs"
