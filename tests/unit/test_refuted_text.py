"""A refuted candidate's block: both results in words, and only ways out that can work."""

from __future__ import annotations

import shlex

import pytest

from gentle_hooks.policy.selfcheck import Disagreement
from gentle_hooks.report.refusal_text import disagreement_text
from gentle_hooks.report.refuted_text import SKIP_REASON, both_results, refuted_steps

D = Disagreement(2, 1, "python3 -m pytest -q", 0, 1)
#: A disagreement read from a note, or CI's own re-run: no ids.
NOTE_D = Disagreement(0, None, "python3 -m pytest -q", 0, 1)

REFUTED = (
    "this change is refuted, a re-run of it disagreed: the writer's report (receipt #1: "
    "python3 -m pytest -q) said exit 0; its re-run (spot check #2) observed exit 1; both "
    "results are recorded and stay with it, so no new report or spot check of the same "
    "change can satisfy the gate"
)


def test_both_results_are_named_with_their_ids_when_known() -> None:
    assert both_results(D) == (
        "the writer's report (receipt #1: python3 -m pytest -q) said exit 0; its re-run "
        "(spot check #2) observed exit 1"
    )
    assert both_results(NOTE_D) == (
        "the writer's report (python3 -m pytest -q) said exit 0; its re-run observed exit 1"
    )
    assert disagreement_text(NOTE_D) == (
        "a re-run of python3 -m pytest -q: reported exit 0, observed exit 1"
    )


def test_a_commit_block_prints_the_override_with_the_users_own_git_command() -> None:
    again = ["git", "commit", "-q", "-m", "writer change"]
    got = refuted_steps([D], None, False, again)
    assert got[0] == ("do", REFUTED)
    assert got[1] == (
        "do",
        "the way out: change the change (fix the code, or the test its re-run failed), stage "
        "it and commit again: a changed change is a new candidate, reported and spot-checked "
        "afresh",
    )
    assert got[2][0] == "otherwise"
    line = (
        "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)' "
        "git commit -q -m 'writer change'"
    )
    assert got[3] == ("run", line)
    assert shlex.split(line) == [f"GENTLE_HOOKS_SKIP={SKIP_REASON}", *again]
    assert len(got) == 4


def test_a_push_block_folds_into_its_commit_and_keeps_the_push_arguments() -> None:
    """A push block names a commit only when it is not HEAD: ``git commit --amend`` would
    change the commit on top, so the way out folds the staged fix into the named one."""
    got = refuted_steps([D], "a" * 40, False, ["git", "push", "origin", "HEAD"], True)
    assert got[0][1].startswith("commit aaaaaaaaaaaa is refuted, a re-run of it disagreed: ")
    assert "git commit --amend" not in got[1][1]
    fold = (
        f"git commit -q --fixup={'a' * 40} && GIT_SEQUENCE_EDITOR=: "
        f"git rebase -q -i --autosquash --autostash {'a' * 40}~1"
    )
    assert f"stage it and fold it into commit aaaaaaaaaaaa ({fold})" in got[1][1]
    assert got[-1] == (
        "run",
        "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)' git push origin HEAD",
    )


def test_heads_committed_candidate_says_amend() -> None:
    got = refuted_steps([D], None, False, ["git", "push"], True)
    assert "stage it and amend the commit (git commit --amend)" in got[1][1]


def test_the_override_is_bound_to_the_candidates_it_names() -> None:
    again = ["git", "push"]
    got = refuted_steps([D], "a" * 40, False, again, True, ["sha256:aa", "sha256:bb"])
    line = (
        "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)' "
        "GENTLE_HOOKS_SKIP_ONLY='sha256:aa sha256:bb' git push"
    )
    assert got[-1] == ("run", line)
    assert shlex.split(line) == [
        f"GENTLE_HOOKS_SKIP={SKIP_REASON}",
        "GENTLE_HOOKS_SKIP_ONLY=sha256:aa sha256:bb",
        *again,
    ]
    assert "it lets through only the candidates GENTLE_HOOKS_SKIP_ONLY names" in got[-2][1]


def test_without_the_git_command_the_override_is_words() -> None:
    got = refuted_steps([D], None, False, ())
    assert [label for label, _ in got] == ["do", "do", "do"]
    assert got[2][1] == (
        "or, when the failure is not the change's (a flaky test): let it through on purpose, "
        "recorded: run the same git commit or push with GENTLE_HOOKS_SKIP='a re-run of this "
        "change disagreed (flaky test?)' in its environment"
    )


def test_ci_names_the_commit_and_the_rewrite_and_prints_no_local_override() -> None:
    got = refuted_steps([NOTE_D], "b" * 40, True, ["git", "push"], True)
    assert [label for label, _ in got] == ["do", "do", "do"]
    assert got[1][1] == (
        "a later commit does not clear it: the way out is to rewrite the branch without "
        "commit bbbbbbbbbbbb, or with it changed (an interactive rebase from its parent), "
        "verify the changed commit where it was written, and push the rewritten branch"
    )
    assert "gate.honour_overrides" in got[2][1]
    assert not any("GENTLE_HOOKS_SKIP=" in t for _, t in got)


@pytest.mark.parametrize(
    ("observed", "env", "way"),
    [
        pytest.param(1, "", "change the change (fix the code, or the test", id="exit-1-the-change"),
        pytest.param(
            127,
            "exit 127: no such command was found on the PATH it ran with",
            "make the command runnable where the spot check re-runs it",
            id="exit-127-not-found",
        ),
        pytest.param(
            126,
            "exit 126: the command was found but could not be executed there",
            "make the command runnable where the spot check re-runs it",
            id="exit-126-not-executable",
        ),
        pytest.param(2, "", "change the change (fix the code, or the test", id="exit-2-the-change"),
    ],
)
def test_a_re_run_that_never_started_is_worded_as_where_it_ran(
    observed: int, env: str, way: str
) -> None:
    # a shell's 126/127 says the re-run's command never started there (PATH shadowing a
    # tool, one not executable): not that the change is wrong (issue 14, refuter h14f)
    d = Disagreement(2, 1, "sh -c checktool", 0, observed)
    got = refuted_steps([d], None, False, ("git", "commit"))
    said = " ".join(text for _, text in got)
    assert (f"could not run there ({env})" in said) == bool(env), said
    assert ("not that the change is wrong" in said) == bool(env), said
    assert f"the way out: {way}" in said, said
    assert ("fix the code" in said) == (not env), said
