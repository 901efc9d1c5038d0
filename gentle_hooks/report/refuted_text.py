"""A candidate a recorded re-run refuted: the words, and the ways out that can work.

Room ``report``. SPEC §5 "Decision": a disagreeing re-run is recorded and blocks, naming
both results; it stays with the candidate, so a new report or spot check of the same
change cannot satisfy the gate (:class:`~gentle_hooks.policy.shortfall.SpotCheckShortfall`
``disagreements``), and these lines never offer one. The ways out are a changed change
(a new candidate, verified afresh), or the recorded override (SPEC §5 "Overrides"): a
``run:`` line with the git command the hook ran under when it is known, a concrete reason
in it; under CI and a server's gate the override counts only where
``gate.honour_overrides`` is set, and rewriting the branch without the commit is the way.
Labelled lines as :func:`gentle_hooks.report.fixes.steps` returns them.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.selfcheck import Disagreement
from gentle_hooks.policy.shellwords import quote, shown
from gentle_hooks.policy.toolmissing import not_run

#: The reason a printed override line records (a concrete one: the user may edit it).
SKIP_REASON = "a re-run of this change disagreed (flaky test?)"


def both_results(d: Disagreement) -> str:
    """The writer's reported result and the re-run's, in words (the receipt and spot
    check named when their ids are known)."""
    receipt = f"receipt #{d.receipt_id}: " if d.receipt_id else ""
    check = f" (spot check #{d.spot_check_id})" if d.spot_check_id else ""
    return (
        f"the writer's report ({receipt}{shown(d.command)}) said exit {d.reported_exit}; "
        f"its re-run{check} observed exit {d.observed_exit}"
    )


#: The variable that binds a ``GENTLE_HOOKS_SKIP`` override to the candidates it names
#: (their identities, separated by spaces): the gate lets those through and no other; a
#: blocked candidate it does not name still blocks (SPEC §5 "Overrides").
SKIP_ONLY = "GENTLE_HOOKS_SKIP_ONLY"


def override_line(again: Sequence[str], identities: Sequence[str] = ()) -> str:
    """``again`` (a git command's words, as typed) run with :data:`SKIP_REASON` in
    ``GENTLE_HOOKS_SKIP`` and, when ``identities`` are given, :data:`SKIP_ONLY` naming them
    (the override binds to those candidates alone), quoted for a POSIX shell."""
    from gentle_hooks.policy.shellwords import join

    only = f" {SKIP_ONLY}={quote(' '.join(identities))}" if identities else ""
    return f"GENTLE_HOOKS_SKIP={quote(SKIP_REASON)}{only} {join(again)}"


def fold_line(commit: str) -> str:
    """The git line that folds what is staged into ``commit`` (a full id), runnable as
    printed where the user is: a fixup commit, then a non-interactive autosquash rebase from
    its parent (``GIT_SEQUENCE_EDITOR=:`` accepts the list git made; ``--autostash`` keeps
    unstaged changes). A local push's block names a commit only when it is not HEAD, where
    ``git commit --amend`` would change another commit (the one on top)."""
    return (
        f"git commit -q --fixup={commit} && GIT_SEQUENCE_EDITOR=: "
        f"git rebase -q -i --autosquash --autostash {commit}~1"
    )


#: Where the CI recipes say to prepare what ``--reverify``'s re-runs need.
CI_DOC = 'docs/ci.md ("--reverify: re-run instead of believing")'


def job_steps(lacks: Sequence[str]) -> list[tuple[str, str]]:
    """The lines for a commit whose claimed re-runs could not run in the CI job judging it
    (``lacks``: each command and what the job's environment lacks, in words): the gate
    could not verify it and blocks, but the commit is not refuted (nothing is recorded in
    CI), so the way out is the job's, not a rewritten branch."""
    return [
        (
            "do",
            "this CI job could not run the claimed test ("
            + "; ".join(lacks)
            + "): that says what the job lacks, not that the commit is wrong; install the "
            "project's dependencies (what the command needs), and make any file it reads "
            "that git ignores, in the job's work tree before the gate step, as "
            f"{CI_DOC} shows, and run the job again: the same commit passes once its re-run "
            "can run and agrees",
        )
    ]


def refuted_steps(
    disagreements: Sequence[Disagreement],
    commit: str | None,
    share: bool,
    again: Sequence[str] = (),
    committed: bool = False,
    identities: Sequence[str] = (),
    lacks: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """The lines for a candidate whose re-run disagreed (``disagreements``), or, with
    none, whose re-run could not run in a CI job (``lacks``, a shortfall's ``job_lacks``:
    :func:`job_steps`).

    Args:
        commit: the commit a push, range or server gate judged (None: a staged or work-tree
            candidate); share: the judge reads notes (CI, a server): no local override
            line, the branch rewritten instead; again: the git command the block's hook ran
            under, as typed (empty: not known, the override in words); committed: the
            candidate is HEAD's commit (its change is amended, not committed again; with
            ``commit``, it is folded into that commit instead: :func:`fold_line`);
            identities: the candidates the printed override names (:data:`SKIP_ONLY`: this
            one, and those an override of this git command already named), or empty.
    """
    if not disagreements:
        return job_steps(lacks)
    what = f"commit {commit[:12]}" if commit else "this change"
    last = disagreements[-1]
    # a shell's 126/127: the re-run's command never started where it ran (PATH, a tool
    # shadowed or missing there): that is the environment's doing, not the change's
    why = not_run(last.observed_exit)
    env = (
        f"; the re-run's command could not run there ({why}): that says where it ran, not "
        "that the change is wrong"
        if why
        else ""
    )
    out = [
        (
            "do",
            f"{what} is refuted, a re-run of it disagreed: {both_results(last)}{env}; "
            "both results are recorded and stay with it, so no new report or spot check of "
            "the same change can satisfy the gate",
        )
    ]
    if share and commit:
        out.append(
            (
                "do",
                "a later commit does not clear it: the way out is to rewrite the branch "
                f"without commit {commit[:12]}, or with it changed (an interactive rebase "
                "from its parent), verify the changed commit where it was written, and push "
                "the rewritten branch",
            )
        )
        out.append(
            (
                "do",
                "when the failure is not the change's (a flaky test): a recorded "
                "GENTLE_HOOKS_SKIP override counts here only where this gate honours "
                "overrides (gate.honour_overrides, git config gentle.honourOverrides true: "
                "the repository owner's decision; off by default)",
            )
        )
        return out
    amend = (
        f"fold it into commit {commit[:12]} ({fold_line(commit)})"
        if commit
        else "amend the commit (git commit --amend)"
        if committed
        else "commit again"
    )
    fix = (
        "make the command runnable where the spot check re-runs it (on the PATH it gets "
        "there, executable); then let it through on purpose (the failure is not the "
        "change's), or change the change"
        if why
        else "change the change (fix the code, or the test its re-run failed)"
    )
    out.append(
        (
            "do",
            f"the way out: {fix}, stage it and {amend}: a changed change is a new "
            "candidate, reported and spot-checked afresh",
        )
    )
    reason = f"GENTLE_HOOKS_SKIP={quote(SKIP_REASON)}"
    flaky = "a flaky test, a command that could not run" if why else "a flaky test"
    if not again:
        out.append(
            (
                "do",
                f"or, when the failure is not the change's ({flaky}): let it through on "
                f"purpose, recorded: run the same git commit or push with {reason} in its "
                "environment",
            )
        )
        return out
    out.append(
        (
            "otherwise",
            f"when the failure is not the change's ({flaky}): let it through on purpose "
            "(recorded: who, when, which candidate, why; edit the reason to say yours; it "
            f"lets through only the candidates {SKIP_ONLY} names)",
        )
    )
    out.append(("run", override_line(again, identities)))
    return out
