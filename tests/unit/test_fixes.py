"""The fix renderer (gentle_hooks.report.fixes): binding x shortfall -> reason and command.

Every shortfall kind the policy and the range gate produce, rendered for every binding a
gate or a command uses; the exact strings are the ones people read and CI parses.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gentle_hooks.policy.escalation import ESCALATION_ITEMS, Escalation, make_escalation
from gentle_hooks.policy.plan import Plan, PlanInputs, Satisfaction, build_plan, decide
from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.review import ReviewEvidence
from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt, Standing
from gentle_hooks.policy.shortfall import (
    NoValidNote,
    Shortfall,
    SpotCheckShortfall,
    StaleRecords,
    VerifierShortfall,
)
from gentle_hooks.policy.stakes import Stakes
from gentle_hooks.policy.vocabulary import Missing, NativeRisk, PlanRisk, RddMode, RddSource
from gentle_hooks.report.fixes import (
    LABELS,
    binding_flags,
    command,
    commands,
    first_command,
    program,
    reason,
    reasons,
    receipt_hints,
    report_prefix,
    step_lines,
    steps,
)
from gentle_hooks.report.refuted_text import refuted_steps
from gentle_hooks.report.worktree_text import (
    GIT_SHARE_NOTES,
    PATH_LINE,
    PATH_WORDS,
    RANGE_REMOTE,
    WRITERS_CLONE,
    path_steps,
)
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection

#: Where a note is shared, and that the or: line does it with git alone (no CLI on PATH).
SHARE_IT = (
    "in the clone that verified this commit: share its note (the or: line with git alone, "
    "where gentle-hook is not on PATH there: a pre-commit framework install)"
)

DATA, SECURITY = ESCALATION_ITEMS[0], ESCALATION_ITEMS[1]

HERE = Binding()
STAGED = Binding(projection=Projection.STAGED)
COMMITTED = Binding(projection=Projection.COMMITTED)
ELSEWHERE = Binding(cwd="my repo", projection=Projection.STAGED, base_ref="origin/main")

BINDINGS = [
    pytest.param(HERE, "", id="snapshot"),
    pytest.param(STAGED, " --staged", id="staged"),
    pytest.param(COMMITTED, " --committed", id="committed"),
    pytest.param(Binding(cwd="sub"), " --cwd sub", id="cwd"),
    pytest.param(
        ELSEWHERE, " --cwd 'my repo' --staged --base-ref origin/main", id="cwd-quoted-staged-base"
    ),
    pytest.param(Binding(base_ref="a b"), " --base-ref 'a b'", id="base-ref-quoted"),
]


@pytest.mark.parametrize(("binding", "flags"), BINDINGS)
def test_binding_flags(binding: Binding, flags: str) -> None:
    assert binding_flags(binding) == flags


VERIFIER = VerifierShortfall(
    items=(SECURITY,), needed=1, found=0, ruled=0, stakes=Stakes.ORDINARY, critical=False
)
SPOT = SpotCheckShortfall(risk=PlanRisk.MEDIUM)
READBACK = SpotCheckShortfall(risk=PlanRisk.PASSIVE, readback=True)
DISAGREED = SpotCheckShortfall(
    risk=PlanRisk.MEDIUM, disagreements=(Disagreement(2, 1, "pytest", 0, 1),)
)
#: A disagreement of a ``receipt add`` line that is no plain words: re-reported through sh -c.
DISAGREED_SHELL = SpotCheckShortfall(
    risk=PlanRisk.MEDIUM, disagreements=(Disagreement(3, 2, "pytest -q && echo ok", 0, 2),)
)

D1 = Disagreement(4, 3, "pytest", 0, 1)

NOTE = (
    "the writer reports the command that tests this change: that command, after the words on "
    "the prefix line (declare verification.commands to have it named here) (no report that "
    "counts is recorded for this candidate yet)"
)
PREPARE_DO = (
    "to hand a verifier the clean room first: the same brief's path after the prefix; it "
    "prints the verify run --room to run"
)
VERIFY_DO = (
    "a separate gentle-ai-verify run checks this candidate in a clean room: write its brief "
    "(gentle-hook schema brief) to a file outside the work tree (a file inside it changes the "
    "candidate), put the brief's path after the prefix, run it, then run the verdict add it "
    "prints"
)
#: The verification of a commit judged by its note, in the writer's clone.
VERIFY_COMMIT = [
    ("do", NOTE),
    ("prefix", "gentle-hook receipt run --committed --"),
    ("run", "gentle-hook spot-check --committed"),
    ("run", "gentle-hook sync push"),
]

#: (shortfall, labelled steps): ``{f}`` stands for the binding's flags.
STEPS = [
    pytest.param(
        VERIFIER,
        [
            ("do", VERIFY_DO),
            ("prefix", "gentle-hook verify run{f} --brief"),
            ("otherwise", PREPARE_DO),
            ("prefix", "gentle-hook verify prepare{f} --brief"),
        ],
        id="verifier",
    ),
    pytest.param(SPOT, [("run", "gentle-hook spot-check{f}")], id="spot-check"),
    pytest.param(
        READBACK,
        [("run", "gentle-hook spot-check{f}"), ("or", "gentle-hook spot-check --readback{f}")],
        id="spot-check-or-readback",
    ),
    pytest.param(
        NoValidNote(stale=False),
        [
            ("where", "here, when the note is on the remote but not fetched yet: fetch it"),
            ("run", "gentle-hook sync fetch"),
            ("otherwise", SHARE_IT),
            ("run", "gentle-hook sync push"),
            ("or", GIT_SHARE_NOTES),
            ("otherwise", "not verified yet: in the writer's clone, verify it and share the note"),
            *VERIFY_COMMIT,
        ],
        id="no-note",
    ),
    pytest.param(
        NoValidNote(stale=True),
        [("where", "in the writer's clone: verify the rewritten commit again"), *VERIFY_COMMIT],
        id="stale-note",
    ),
    pytest.param(
        StaleRecords(),
        [("where", "in the writer's clone: verify the rewritten commit again"), *VERIFY_COMMIT],
        id="stale-records",
    ),
]


@pytest.fixture(autouse=True)
def _cli_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's PATH finds gentle-hook (the printed commands then say ``gentle-hook``)."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin")
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    monkeypatch.delenv("PREK", raising=False)


@pytest.mark.parametrize(("binding", "flags"), BINDINGS)
@pytest.mark.parametrize(("shortfall", "want"), STEPS)
def test_steps(
    shortfall: Shortfall, want: list[tuple[str, str]], binding: Binding, flags: str
) -> None:
    assert steps(shortfall, binding) == [(k, t.format(f=flags)) for k, t in want]
    for label, text in steps(shortfall, binding):
        assert label in LABELS
        if label in ("run", "prefix", "or"):
            assert "<" not in text and ">" not in text, text  # nothing a shell would redirect


@pytest.mark.parametrize("shortfall", [DISAGREED, DISAGREED_SHELL])
@pytest.mark.parametrize(("binding", "flags"), BINDINGS)
def test_a_refuted_candidate_is_offered_no_report_or_spot_check_of_itself(
    shortfall: SpotCheckShortfall, binding: Binding, flags: str
) -> None:
    # a disagreement stays with the candidate: a report and spot check of it cannot satisfy
    # the gate, so the steps are the refuted ones (words; the override when the git command
    # is known), never a receipt run or spot-check line
    for commit, share in ((None, False), ("c" * 40, False), ("c" * 40, True)):
        got = steps(shortfall, binding, commit, share=share, again=("git", "commit", "-q"))
        committed = binding.projection is Projection.COMMITTED
        d = shortfall.disagreements
        assert got == refuted_steps(d, commit, share, ("git", "commit", "-q"), committed)
        runs = [t for label, t in got if label in ("run", "prefix", "or")]
        assert not any("receipt run" in t or "spot-check" in t for t in runs), got
    assert command(shortfall, binding) == ""
    assert first_command(shortfall, binding) is None


def test_a_commit_judged_elsewhere_is_checked_out_for_its_fix() -> None:
    # CI and the server cannot know the user's work tree: the commit is checked out in a
    # worktree of its own, never by a switch that uncommitted changes stop; gentle-hook is
    # on PATH here (the autouse fixture): no line about the framework's copy
    got = steps(SPOT, COMMITTED, commit="c" * 40, share=True)
    where = f'"$(git rev-parse --git-common-dir)/gentle-hooks/verify-{"c" * 12}"'
    assert got == [
        (
            # where: the writer's clone holds the records a CI checkout lacks (refuter h14f)
            "do",
            f"{WRITERS_CLONE}, check commit {'c' * 12} out in a worktree of its own (that "
            "clone's work tree stays as it is; one an earlier try left there is removed first)",
        ),
        (
            "run",
            f"test ! -e {where} || git worktree remove --force {where}; "
            f"git worktree add -f -q --detach {where} {'c' * 40}",
        ),
        ("run", f"gentle-hook spot-check --committed --cwd {where}"),
        # a pull request from a fork: its clone's default remote is the fork (refuter r14l)
        ("do", RANGE_REMOTE),
        ("run", "gentle-hook sync push"),
        ("run", f"git worktree remove --force {where}"),
    ]
    assert all("<" not in t and ">" not in t for _, t in got)  # nothing a shell redirects


def _framework_copies(tmp_path: Path) -> tuple[Path, Path]:
    """pre-commit's copy under PRE_COMMIT_HOME and prek's under PREK_HOME, prek's newer."""
    import time

    pre = tmp_path / "pre-commit" / "repoab12" / "py_env-python3.11" / "bin" / "gentle-hook"
    prek = tmp_path / "prek" / "hooks" / "python-XYZ" / "bin" / "gentle-hook"
    for n, copy in enumerate((pre, prek)):
        copy.parent.mkdir(parents=True)
        copy.write_text(f'#!/bin/sh\necho copy-{n} "$@"\n')
        copy.chmod(0o755)
        os.utime(copy, (time.time() + n, time.time() + n))
    return pre, prek


def test_a_server_block_puts_the_framework_copy_on_path_by_one_line(tmp_path: Path) -> None:
    """A CI or server block whose commands name ``gentle-hook`` prints, before them, ONE
    line that puts the newest framework copy on PATH for the shell that runs it, where
    ``gentle-hook`` is not on PATH (pre-commit's place under ``PRE_COMMIT_HOME`` or
    ``$XDG_CACHE_HOME/pre-commit``, prek's under ``PREK_HOME`` or ``.../prek``); it prints
    nothing, exits 0, and leaves PATH as it was with no copy or with ``gentle-hook`` on
    PATH. A block of git commands alone prints no such line."""
    import subprocess

    fix = steps(SPOT, COMMITTED, commit="c" * 40, share=True)
    path = path_steps(fix)
    assert path == [("do", PATH_WORDS), ("run", PATH_LINE)]
    assert path_steps([("run", "git fetch --unshallow")]) == []
    assert path_steps([("run", "/opt/x/bin/gentle-hook sync push")]) == []  # an absolute path
    home = tmp_path / "home"
    home.mkdir()

    def shell(**env: str) -> tuple[int, str, str]:
        """PATH_LINE, then ``gentle-hook sync push`` in the same shell."""
        base = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
        ran = subprocess.run(
            ["sh", "-c", PATH_LINE + '\necho "PATH=$PATH"; gentle-hook sync push'],
            cwd=tmp_path,  # outside any repository: no plain install's hook to read
            capture_output=True,
            text=True,
            env={**base, **env},
        )
        return ran.returncode, ran.stdout, ran.stderr

    code, out, err = shell()  # no copy anywhere: PATH as it was, nothing on stderr but sh's
    assert (code, out, err.count("\n")) == (127, "PATH=/usr/bin:/bin\n", 1), err
    pre, prek = _framework_copies(tmp_path)
    homes = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit"), "PREK_HOME": str(tmp_path / "prek")}
    # the newest copy, prek's, by a link in a directory of its own (outside a repository:
    # under ~/.cache), so the python3 beside the copy stays off PATH
    links = home / ".cache" / "gentle-hooks" / "bin"
    assert shell(**homes) == (0, f"PATH={links}:/usr/bin:/bin\ncopy-1 sync push\n", "")
    assert [p.name for p in links.iterdir()] == ["gentle-hook"]
    assert (links / "gentle-hook").resolve() == prek.resolve()
    assert shell(PRE_COMMIT_HOME=homes["PRE_COMMIT_HOME"])[1].endswith("copy-0 sync push\n")
    # the defaults: under XDG_CACHE_HOME, else ~/.cache
    in_xdg = shell(XDG_CACHE_HOME=str(tmp_path))[1]
    assert in_xdg.startswith(f"PATH={tmp_path}/gentle-hooks/bin:/usr/bin:/bin\n"), in_xdg
    assert in_xdg.endswith("copy-1 sync push\n")
    (home / ".cache").mkdir(exist_ok=True)
    (home / ".cache" / "pre-commit").symlink_to(tmp_path / "pre-commit")
    assert shell()[1].endswith("copy-0 sync push\n")
    # gentle-hook on PATH: the line does nothing
    on_path = tmp_path / "bin"
    on_path.mkdir()
    (on_path / "gentle-hook").symlink_to(pre)
    assert shell(**homes, PATH=f"{on_path}:/usr/bin:/bin") == (
        0,
        f"PATH={on_path}:/usr/bin:/bin\ncopy-0 sync push\n",
        "",
    )


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "zsh"])
def test_the_path_line_runs_where_one_framework_is_absent(tmp_path: Path, shell: str) -> None:
    """The PATH line pasted into bash, zsh (macOS's login shell) or dash finds pre-commit's
    copy when prek left no cache: zsh stops at a glob that matches nothing, so the globs
    expand inside ``sh -c``, never in the user's shell."""
    import shutil
    import subprocess

    outside = PATH_LINE.split("sh -c '", 1)[0] + PATH_LINE.rsplit("'", 1)[1]
    assert "*" not in outside, outside  # structural: no glob the user's shell expands
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    _framework_copies(tmp_path)
    ran = subprocess.run(
        [shell, "-c", PATH_LINE + "\ngentle-hook sync push"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={
            "HOME": str(tmp_path),
            "PATH": "/usr/bin:/bin",
            "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"),
            "PREK_HOME": str(tmp_path / "no-prek"),
        },
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "copy-0 sync push\n", "")


def test_a_commit_judged_by_the_local_push_gate_is_checked_out_in_a_worktree() -> None:
    # a switch stops at an untracked file the commit tracks (or at changes): the spot check
    # runs in a worktree of the commit's own, and the clone's own records need no sync push
    got = steps(SPOT, COMMITTED, commit="c" * 40)
    where = f'"$(git rev-parse --git-common-dir)/gentle-hooks/verify-{"c" * 12}"'
    assert got == [
        (
            "do",
            f"check commit {'c' * 12} out in a worktree of its own (yours stays as it is; "
            "one an earlier try left there is removed first)",
        ),
        (
            "run",
            f"test ! -e {where} || git worktree remove --force {where}; "
            f"git worktree add -f -q --detach {where} {'c' * 40}",
        ),
        ("run", f"gentle-hook spot-check --committed --cwd {where}"),
        ("run", f"git worktree remove --force {where}"),
    ]
    assert not any("switch" in t or "checkout -" in t for _, t in got)


def test_step_lines_label_what_runs() -> None:
    lines = step_lines(steps(NoValidNote(stale=False), COMMITTED))
    assert lines[:7] == [
        "  here, when the note is on the remote but not fetched yet: fetch it",
        "  run: gentle-hook sync fetch",
        f"  otherwise, {SHARE_IT}:",
        "  run: gentle-hook sync push",
        f"  or: {GIT_SHARE_NOTES}",
        "  otherwise, not verified yet: in the writer's clone, verify it and share the note:",
        f"  {NOTE}",
    ]


def test_the_program_is_reachable_from_the_users_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off PATH (a framework that puts its environment on PATH only while a hook runs), a
    printed command names the running CLI by its absolute path."""
    own = os.path.dirname(sys.executable)
    assert program() == "gentle-hook"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert program() in (os.path.join(own, "gentle-hook"), f"{sys.executable} -m gentle_hooks")
    monkeypatch.setenv("PATH", own + os.pathsep + "/usr/bin:/bin")
    monkeypatch.setenv("PRE_COMMIT", "1")
    assert program() != "gentle-hook"


def test_the_gates_commands_are_the_documented_ones() -> None:
    """The literal commands the commit, push and range gates print first (README, e2e)."""
    assert command(SPOT, STAGED) == "gentle-hook spot-check --staged"
    assert command(VERIFIER, COMMITTED) == "gentle-hook verify run --committed --brief"
    assert command(NoValidNote(stale=False), COMMITTED) == "gentle-hook sync fetch"


REASONS = [
    pytest.param(
        VERIFIER,
        "plan risk high (escalated: 2 security) needs 1 accepted gentle-ai-verify verdict(s) "
        "for this candidate (stakes ordinary), found 0",
        id="verifier-ordinary",
    ),
    pytest.param(
        VerifierShortfall(
            items=(DATA, SECURITY),
            needed=2,
            found=1,
            ruled=1,
            stakes=Stakes.SHIPPING,
            critical=True,
            rejected=("verdict #3 (brief b1, status pass): fullSuiteRun is false",),
        ),
        "plan risk high (escalated: 1 data, 2 security) needs 2 accepted gentle-ai-verify "
        "verdict(s) for this candidate (stakes shipping, critical), found 1; not accepted: "
        "verdict #3 (brief b1, status pass): fullSuiteRun is false",
        id="verifier-shipping-critical-rejected",
    ),
    pytest.param(
        VerifierShortfall(
            items=(DATA,), needed=3, found=2, ruled=4, stakes=Stakes.AUDIT, critical=False
        ),
        "plan risk high (escalated: 1 data) needs 3 accepted gentle-ai-verify verdict(s) for "
        "this candidate with a majority of pass (stakes audit), found 2 of 4 verifier "
        "verdict(s)",
        id="verifier-audit-majority",
    ),
    pytest.param(
        SPOT,
        "no spot check for this candidate (required in every tier; plan risk medium)",
        id="spot-check",
    ),
    pytest.param(
        READBACK,
        "no spot check for this candidate (required in every tier; plan risk passive)",
        id="spot-check-passive",
    ),
    pytest.param(
        DISAGREED,
        "a spot check failed after the writer reported success: spot check #2 re-ran receipt "
        "#1 (pytest): reported exit 0, observed exit 1",
        id="spot-check-disagreed",
    ),
    pytest.param(
        SpotCheckShortfall(
            risk=PlanRisk.MEDIUM,
            no_receipt=True,
            refused=(
                RefusedReceipt(1, "pytest -q", 1, Standing(False, "S-failed")),
                RefusedReceipt(2, "true", 0, Standing(False, "S-no-check", ("N-true",))),
                RefusedReceipt(3, "make lint", 0, Standing(False, "S-undeclared")),
            ),
            declared=("pytest -q", "npm test"),
        ),
        "no spot check for this candidate (required in every tier; plan risk medium); "
        "receipts that cannot count: receipt #1 (pytest -q) reported exit 1: a failure "
        "report is not self-verification; receipt #2 (true) verifies nothing: true succeeds "
        "and checks nothing; receipt #3 (make lint) is not one of the declared "
        "verification.commands (pytest -q, npm test)",
        id="spot-check-receipts-refused",
    ),
    pytest.param(
        NoValidNote(stale=False),
        "delegated, but it has no gentle-hooks note for its tree: no spot check can count",
        id="no-note",
    ),
    pytest.param(
        NoValidNote(stale=True),
        "delegated, but its note records another tree (rewritten after verification: "
        "stale): no spot check can count",
        id="stale-note",
    ),
    pytest.param(
        StaleRecords(),
        "its note also holds records for an earlier tree: the commit was rewritten with a "
        "changed tree, so they are stale",
        id="stale-records",
    ),
]


@pytest.mark.parametrize(("shortfall", "text"), REASONS)
def test_reason(shortfall: Shortfall, text: str) -> None:
    assert reason(shortfall) == text


@pytest.mark.parametrize(("binding", "flags"), BINDINGS)
@pytest.mark.parametrize(
    ("shortfall", "first"),
    [
        pytest.param(SPOT, None, id="spot-check-with-report"),
        pytest.param(
            SpotCheckShortfall(risk=PlanRisk.MEDIUM, no_receipt=True),
            None,
            id="spot-check-without-report",
        ),
        pytest.param(
            SpotCheckShortfall(
                risk=PlanRisk.MEDIUM, no_receipt=True, declared=("pytest -q", "npm test")
            ),
            "gentle-hook receipt run{f} -- pytest -q",
            id="spot-check-without-report-declared",
        ),
        pytest.param(
            SpotCheckShortfall(
                risk=PlanRisk.MEDIUM,
                no_receipt=True,
                refused=(
                    RefusedReceipt(1, "pytest -q", 1, Standing(False, "S-failed")),
                    RefusedReceipt(2, "true", 0, Standing(False, "S-no-check", ("N-true",))),
                ),
            ),
            "gentle-hook receipt run{f} -- pytest -q",
            id="spot-check-after-a-failure-report",
        ),
        pytest.param(
            SpotCheckShortfall(
                risk=PlanRisk.MEDIUM, no_receipt=True, earlier=("make test", "pytest -q")
            ),
            "gentle-hook receipt run{f} -- pytest -q",
            id="spot-check-after-a-report-for-another-candidate",
        ),
        pytest.param(
            SpotCheckShortfall(
                risk=PlanRisk.MEDIUM, no_receipt=True, declared=("make",), earlier=("pytest",)
            ),
            "gentle-hook receipt run{f} -- make",
            id="spot-check-declared-before-earlier",
        ),
        pytest.param(VERIFIER, None, id="verifier"),
        pytest.param(NoValidNote(stale=False), None, id="no-note"),
    ],
)
def test_first_command(
    shortfall: Shortfall, first: str | None, binding: Binding, flags: str
) -> None:
    want = None if first is None else first.format(f=flags)
    assert first_command(shortfall, binding) == want
    hints = receipt_hints([VERIFIER, shortfall], binding)
    if want is not None:
        assert hints == [
            "no receipt that counts is recorded for this candidate: the writer reports a command "
            f"first: {want}"
        ]
    elif report_prefix(shortfall, binding) is not None:
        assert hints[0].endswith(f"after: gentle-hook receipt run{flags} --")
    else:
        assert hints == []


@pytest.mark.parametrize(("binding", "flags"), BINDINGS)
def test_with_no_command_to_name_the_prefix_goes_on_its_own_line(
    binding: Binding, flags: str
) -> None:
    unknown = SpotCheckShortfall(risk=PlanRisk.MEDIUM, no_receipt=True)
    assert report_prefix(unknown, binding) == f"gentle-hook receipt run{flags} --"
    declared = SpotCheckShortfall(risk=PlanRisk.MEDIUM, no_receipt=True, declared=("make",))
    assert report_prefix(declared, binding) is None
    assert report_prefix(SPOT, binding) is None
    assert receipt_hints([unknown], binding) == [
        "no receipt that counts is recorded for this candidate: the writer reports the command "
        f"that tests the change after: gentle-hook receipt run{flags} --"
    ]


def test_lists_keep_the_shortfalls_order() -> None:
    both = (VERIFIER, SPOT)
    assert reasons(both) == [reason(VERIFIER), reason(SPOT)]
    assert commands(both, STAGED) == [
        "gentle-hook verify run --staged --brief",
        "gentle-hook spot-check --staged",
    ]
    assert [s.what for s in both] == [Missing.VERIFIER, Missing.SPOT_CHECK]


# -- the policy hands the renderer values: decide -> shortfalls ------------------------------


def _plan(native: NativeRisk, escalations: tuple[Escalation, ...] = (), stakes=Stakes.ORDINARY):
    return build_plan(
        PlanInputs(
            native_risk=native,
            escalations=escalations,
            review=ReviewEvidence(),
            runtime_writers=(),
            caller_writer=None,
            rdd=ResolvedRdd(RddMode.UNKNOWN, RddSource.DEFAULT),
            stakes=stakes,
        )
    )


@pytest.mark.parametrize(
    ("plan", "done", "shortfalls"),
    [
        pytest.param(
            _plan(NativeRisk.PASSIVE),
            Satisfaction(receipts=0),
            (SpotCheckShortfall(PlanRisk.PASSIVE, readback=True, no_receipt=True),),
            id="passive-nothing-done",
        ),
        pytest.param(
            _plan(NativeRisk.MEDIUM),
            Satisfaction(spot_check_agreed=True, disagreements=(D1,), receipts=1),
            (SpotCheckShortfall(PlanRisk.MEDIUM, disagreements=(D1,)),),
            id="medium-disagreed",
        ),
        pytest.param(
            _plan(NativeRisk.PASSIVE),
            Satisfaction(readback=True, disagreements=(D1,), receipts=1),
            (SpotCheckShortfall(PlanRisk.PASSIVE, disagreements=(D1,)),),
            id="passive-disagreed-no-readback-alternative",
        ),
        pytest.param(
            _plan(NativeRisk.MEDIUM, (make_escalation("data", "drops a column", True),)),
            Satisfaction(spot_check_agreed=True, rejected_verdicts=("r1",)),
            (
                VerifierShortfall(
                    (DATA,),
                    needed=1,
                    found=0,
                    ruled=0,
                    stakes=Stakes.ORDINARY,
                    critical=True,
                    rejected=("r1",),
                ),
            ),
            id="escalated-critical-ordinary",
        ),
        pytest.param(
            _plan(NativeRisk.MEDIUM, (make_escalation("security", "tokens"),), Stakes.AUDIT),
            Satisfaction(
                accepted_verdicts=1, verdict_statuses=("pass", "fail", "abstain"), receipts=2
            ),
            (
                VerifierShortfall(
                    (SECURITY,), needed=3, found=1, ruled=2, stakes=Stakes.AUDIT, critical=False
                ),
                SpotCheckShortfall(PlanRisk.HIGH),
            ),
            id="audit-both-missing",
        ),
    ],
)
def test_decide_returns_shortfall_values(plan: Plan, done: Satisfaction, shortfalls) -> None:
    d = decide(plan, done, applies=True)
    assert d.shortfalls == shortfalls
    assert d.missing == tuple(s.what for s in shortfalls)


def test_an_empty_tree_base_says_why_and_how_to_name_one() -> None:
    from gentle_hooks.report.base_text import empty_base_lines
    from gentle_hooks.values.candidate import BaseResolution

    none = BaseResolution(None, "none", None, "4b825dc6", "no base ref found (tried x)")
    lines = empty_base_lines(none)
    assert lines[0] == "  base: no base ref found (tried x)"
    assert lines[1].endswith(": git config gentle.baseRef HEAD")
    unborn = BaseResolution("main", "fallback", None, "4b825dc6", "HEAD is unborn")
    assert empty_base_lines(unborn) == ["  base: HEAD is unborn"]
    assert empty_base_lines(BaseResolution("main", "fallback", "c0", "t0", "merge-base")) == []


def test_a_verifier_shortfall_names_its_brief_file_and_the_commands_that_read_it() -> None:
    binding = Binding(projection=Projection.STAGED, brief="/r/.git/gentle-hooks/brief.json")
    out = steps(VERIFIER, binding)
    assert ("write", "/r/.git/gentle-hooks/brief.json") in out
    runs = [t for label, t in out if label == "run"]
    assert runs[-2].endswith("verify run --staged --brief /r/.git/gentle-hooks/brief.json")
    # otherwise the clean room first, from the same brief
    assert runs[-1].endswith("verify prepare --staged --brief /r/.git/gentle-hooks/brief.json")
    assert "..." not in command(VERIFIER, binding)


#: A failed report made in sub/ while a hook judged the top: two ways (report it again
#: there, otherwise at the top).
FAILED_IN_SUB = SpotCheckShortfall(
    risk=PlanRisk.MEDIUM,
    no_receipt=True,
    refused=(RefusedReceipt(1, "pytest -q", 1, Standing(False, "S-failed"), cwd="sub"),),
)


@pytest.mark.parametrize(
    ("shortfall", "binding", "at_top", "then"),
    [
        pytest.param(
            VERIFIER,
            STAGED,
            False,
            "either way, once the verdict add the verify run printed has run, put back the "
            "staged changes set aside above",
            id="verifier-two-ways",
        ),
        # one way printed: no "either way" (refuter h14f: it read as if a second was)
        pytest.param(
            SPOT, STAGED, False, "put back the staged changes set aside above", id="spot-one-way"
        ),
        pytest.param(
            FAILED_IN_SUB,
            Binding(projection=Projection.STAGED, top="/r"),
            True,
            "either way, put back the staged changes set aside above",
            id="spot-two-ways",
        ),
    ],
)
def test_a_partial_commits_restore_line_words_the_ways_printed_above_it(
    shortfall: Shortfall, binding: Binding, at_top: bool, then: str
) -> None:
    # the verify run prints a verdict add --staged that binds the candidate only while the
    # index holds it: the words before the restore say it runs first; "either way" only
    # when more than one way (an otherwise line) was printed above
    from gentle_hooks.errors import Command

    back = Command(
        ("restore", "--staged", "--source=abc", "--", ":(top,literal)README.md"), tool="git"
    )
    got = steps(shortfall, binding, after=(back,), at_top=at_top)
    ways = 1 + sum(label == "otherwise" for label, _ in got)
    assert ways == (1 if "either way" not in then else 2), got
    assert [text for label, text in got if label == "then"] == [then]
    assert got[-1] == ("run", "git restore --staged --source=abc -- ':(top,literal)README.md'")


def test_a_verify_run_failing_on_the_change_and_everywhere_is_named_in_the_block() -> None:
    # the change's failing check to fix, and the one that fails on every tree, both named
    s = VerifierShortfall(
        items=(SECURITY,),
        needed=1,
        found=0,
        ruled=1,
        stakes=Stakes.ORDINARY,
        critical=False,
        change_fails=(("criterion", "pytest -q tests/test_add.py"),),
        everywhere_fails=(("criterion", "test -e nonexistent"),),
    )
    assert steps(s, COMMITTED)[0] == (
        "do",
        "the last verify run failed on the change: `pytest -q tests/test_add.py` failed on it "
        "(fix the change); and `test -e nonexistent` fails on every tree (the base and the "
        "change emptied too), so no run of its brief can pass: fix the change, correct the "
        "brief under a new brief id without what fails everywhere, then verify again",
    )


def test_a_pre_push_names_the_remote_its_sync_push_shares_with() -> None:
    # the notes go where the push sent the commits: a fork's clone has no origin
    got = steps(StaleRecords(), COMMITTED, remote="my fork")
    assert ("run", "gentle-hook sync push 'my fork'") in got
    assert ("run", "gentle-hook sync push") not in got


def _copy(path: Path, name: str, age: float) -> Path:
    """An executable ``gentle-hook`` at ``path`` saying ``name``, ``age`` seconds old."""
    import time

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho {name} "$@"\n')
    path.chmod(0o755)
    os.utime(path, (time.time() - age, time.time() - age))
    return path


def _paste_path_line(repo: Path, home: Path) -> str:
    """PATH_LINE then ``gentle-hook x``, pasted in ``repo``: what the copy said."""
    import subprocess

    ran = subprocess.run(
        ["sh", "-c", PATH_LINE + "\ngentle-hook x"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "PRE_COMMIT_HOME": str(home / "pc")},
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_the_path_line_picks_the_copy_this_clones_hooks_run(tmp_path: Path) -> None:
    """Another repository's newer copy in pre-commit's cache is not this clone's: under
    the framework, the copy of the rev the clone's configuration names (pre-commit's store
    says where it is); under a plain install, the one its hook pins."""
    import sqlite3
    import subprocess
    import sys

    home, repo = tmp_path / "home", tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    url = "https://example.invalid/gentle-hooks"
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {url}\n  rev: v1\n  hooks:\n  - id: gentle-hooks-commit-gate\n"
    )
    pc = home / "pc"
    _copy(pc / "repoOLD" / "py_env-python3" / "bin" / "gentle-hook", "mine", 100)
    _copy(pc / "repoNEW" / "py_env-python3" / "bin" / "gentle-hook", "other-repo", 0)
    db = sqlite3.connect(pc / "db.db")
    db.execute("CREATE TABLE repos (repo TEXT, ref TEXT, path TEXT)")
    db.execute("INSERT INTO repos VALUES (?, 'v1', ?)", (url, str(pc / "repoOLD")))
    db.execute("INSERT INTO repos VALUES (?, 'v2', ?)", (url, str(pc / "repoNEW")))
    db.commit()
    db.close()
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(
        "#!/usr/bin/env bash\n"
        "ARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\n"
        f"INSTALL_PYTHON={sys.executable}\n"
    )
    assert _paste_path_line(repo, home) == "mine x\n"
    (repo / "sub").mkdir()
    assert _paste_path_line(repo / "sub", home) == "mine x\n"
    # prek: the environment whose .prek-hook.json names the configured rev
    prek = home / ".cache" / "prek" / "hooks"
    for env, rev, name, age in (("python-A", "v1", "mine-prek", 100), ("python-B", "v2", "o", 0)):
        _copy(prek / env / "bin" / "gentle-hook", name, age)
        meta = {"repo": {"url": url, "rev": rev}, "env_path": str(prek / env)}
        (prek / env / ".prek-hook.json").write_text(json.dumps(meta, indent=2))
    hook.write_text('#!/bin/sh\nPREK="/nowhere/prek"\nexec "$PREK" hook-impl\n')
    assert _paste_path_line(repo, home) == "mine-prek x\n"
    # a plain install: the copy beside the interpreter its hook pins, older or not
    _copy(tmp_path / "venv" / "bin" / "gentle-hook", "plain", 200)
    hook.write_text(f"#!/bin/sh\nGENTLE_HOOK_PYTHON={tmp_path}/venv/bin/python3\n")
    assert _paste_path_line(repo, home) == "plain x\n"


@pytest.mark.parametrize(
    ("status", "cwd", "words"),
    [
        pytest.param(1, ".", "fix the change (its report is a failure)", id="failed"),
        pytest.param(
            127,
            ".",
            "its command could not run (exit 127: no such command was found on the PATH it ran "
            "with): make it runnable there, not the change",
            id="not-found",
        ),
        pytest.param(
            1, "sub", "fix the change (its report, run in sub/, is a failure)", id="failed-below"
        ),
        pytest.param(
            126,
            "sub",
            "its command could not run (exit 126: the command was found but could not be "
            "executed there): make it runnable there, not the change",
            id="not-executable-below",
        ),
    ],
)
def test_a_failed_report_is_the_changes_only_when_its_command_ran(
    status: int, cwd: str, words: str
) -> None:
    # a shell's 126/127: the report's command never started (PATH, not executable), so the
    # way out makes it runnable, not "fix the change" (issue 14, refuter h14f)
    s = SpotCheckShortfall(
        risk=PlanRisk.MEDIUM,
        no_receipt=True,
        refused=(RefusedReceipt(1, "sh -c t", status, Standing(False, "S-failed"), cwd=cwd),),
    )
    got = steps(s, Binding(projection=Projection.STAGED, top="/r"), at_top=True)
    assert got[0] == ("do", f"{words}, then report it again"), got
