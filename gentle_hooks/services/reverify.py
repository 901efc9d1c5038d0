"""Re-verification in CI (SPEC §8): ``gentle-hook gate --range A..B --reverify`` re-runs
each spot-checked command a note claims on that commit's exact tree, instead of believing
the claim.

Room ``services``. Each commit is checked out as the spot check does when the work tree
is not the candidate (:func:`gentle_hooks.services.checkout.candidate_checkout`: a
temporary detached linked worktree, hooks off, removed afterwards, the dependency folders
the CI job prepared — ``.venv``, ``node_modules``..., ``verification.dependency_dirs`` —
linked in from the job's work tree). Each command runs there with ``sh -c``, the job's
environment minus git's repository variables, a timeout, and its output captured.

As the spot check does, the places an editable install in a linked virtual environment
names come first on ``PYTHONPATH`` (:func:`~gentle_hooks.services.checkout.run_env`: the
re-run imports the commit's code, not the job's work tree's).

A claimed success that fails again is *refuted*, unless its status or output says it could
not run in the job (:func:`~gentle_hooks.policy.toolmissing.job_lacks`: exit 126/127, a
missing module or program): then it is ``lacks``, what the job's environment lacks, not
a refutation of the commit (the gate still blocks: nothing was verified); so is one whose
output names a file it could not open that git ignores and the checkout does not hold
(:func:`_ignored_absent`: a local file of the clone the claim was made in). A command
outside the base's ``verification.commands`` (when it declares them) is neither run nor
counted, and neither is one whose command runs what the commit itself defines — its
script, Makefile, test configuration, a pytest plugin, a module Python imports in the
runner's place
(:func:`~gentle_hooks.services.defined_command.command_defined_by_change`, the rule the
verifier and the spot check apply, row C1-own; judged again in the checkout with the
``PYTHONPATH`` its re-run gets: :func:`~gentle_hooks.services.defined_command.
checkout_defined`): its re-run would be the change's own word.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence

from gentle_hooks.git.checkout import open_checkout
from gentle_hooks.git.process import scrubbed_env
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.selfcheck import is_declared as declared_command
from gentle_hooks.policy.toolmissing import job_lacks, missing_files
from gentle_hooks.services.checkout import candidate_checkout, run_env
from gentle_hooks.services.receipt_guard import candidate_changes
from gentle_hooks.services.runner import run_observed
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen

#: Lines of a refuted command's output kept for the report.
_TAIL = 5


@frozen
class Claim:
    """A spot check a note claims for one commit: the command and the exit it reported."""

    command: str
    reported_exit: int | None


@frozen
class Rerun:
    """What re-running one claim showed.

    Attributes:
        command: the command; ran: whether it was run (False: not declared, or
            ``defined_by`` is not empty); defined_by: the paths the commit adds, changes
            or removes that define what the command runs (then it is not run).
        exit_code: its exit status (None when not run); observed: ``exit N`` or
            ``timed out after Ns (exit 124)``; refuted: a claimed success that failed;
        output_tail: the last lines of its output (stdout then stderr), for the report;
        lacks: for a failed re-run that could not run in the job, what the job's
            environment lacks, in words (then ``refuted`` is False); else empty;
        touched: the files the commit tracks that the re-run changed, named in the report
            (a re-run that agrees still counts: docs/ci.md says why).
    """

    command: str
    ran: bool
    exit_code: int | None = None
    observed: str = ""
    refuted: bool = False
    output_tail: tuple[str, ...] = ()
    defined_by: tuple[str, ...] = ()
    lacks: str = ""
    touched: tuple[str, ...] = ()


def is_declared(command: str, declared: Sequence[str]) -> bool:
    """Whether ``command`` is one of ``verification.commands`` (word by word), or nothing
    is declared."""
    return not declared or declared_command(command, tuple(declared))


def rerun_claims(
    repo: Repository,
    root: str,
    cand: Candidate,
    claims: Sequence[Claim],
    declared: Sequence[str],
    dependency_dirs: Sequence[str],
    timeout: float,
    env: Mapping[str, str],
) -> list[Rerun]:
    """Re-run each distinct claimed command on the candidate's tree, in one temporary
    checkout of its commit.

    Args:
        repo / root: the CI clone and its work tree root (where dependency folders are);
        cand: the commit's committed candidate; claims: the note's spot checks for it;
        declared: the base's ``verification.commands``; dependency_dirs: the base's
        ``verification.dependency_dirs``; timeout: seconds per command; env: the job's
        environment.

    Raises:
        GitError: the checkout could not be made, or the trees could not be read.
        UsageError: ``sh`` cannot be started.
    """
    # the definition rule loads what the gates' path leaves out (dataclasses, pydantic)
    from gentle_hooks.services.defined_command import checkout_defined, command_defined_by_change

    wanted: dict[str, Claim] = {}
    for c in claims:
        wanted.setdefault(c.command, c)
    out: list[Rerun] = []
    declared_claims = [c for c in wanted.values() if is_declared(c.command, declared)]
    out += [Rerun(c.command, ran=False) for c in wanted.values() if c not in declared_claims]
    child_env = {k: v for k, v in scrubbed_env(env).items() if not k.startswith("GENTLE_")}
    runnable = []
    for c in declared_claims:
        own = command_defined_by_change(
            repo, root, cand, (c.command, None, "."), child_env, dependency_dirs, in_checkout=True
        )
        if own:
            out.append(Rerun(c.command, ran=False, defined_by=own))
        else:
            runnable.append(c)
    if not runnable:
        return out
    with candidate_checkout(repo, root, cand, dependency_dirs, child_env) as checkout:
        run_with = run_env(checkout, child_env)
        for c in runnable:
            # judged again with the PYTHONPATH the checkout really has (an install only the
            # interpreter showed puts src/ first: a src/pytest.py the commit adds runs)
            own = checkout_defined(repo, cand, checkout.root, (c.command, None, "."), run_with)
            if own:
                out.append(Rerun(c.command, ran=False, defined_by=own))
                continue
            buffer = io.BytesIO()
            obs = run_observed(
                ("sh", "-c", c.command),
                cwd=checkout.root,
                stdout=buffer,
                stderr=buffer,
                env=run_with,
                timeout=timeout,
            )
            # named, not refused: the note does not say which files the reported run
            # created (a local spot check counts a re-run rewriting those)
            touched = candidate_changes(open_checkout(checkout.root), cand.tree).touched
            text = buffer.getvalue().decode("utf-8", "replace")
            tail = text.splitlines()[-_TAIL:]
            lacks = job_lacks(obs.exit_code, text) or ""
            if obs.exit_code and not lacks:
                lacks = _ignored_absent(checkout.root, text)
            out.append(
                Rerun(
                    c.command,
                    ran=True,
                    exit_code=obs.exit_code,
                    observed=obs.observed,
                    refuted=c.reported_exit == 0 and obs.exit_code != 0 and not lacks,
                    output_tail=tuple(tail),
                    lacks=lacks,
                    touched=touched,
                )
            )
    return out


def _ignored_absent(root: str, output: str) -> str:
    """For a failed re-run in the checkout at ``root``: the words naming the first file its
    ``output`` could not open (:func:`~gentle_hooks.policy.toolmissing.missing_files`)
    that is inside the checkout, absent there, and ignored by git (a ``local.cfg`` in the
    writer's clone, never committed, so no CI clone has it); empty when there is none."""
    real = os.path.realpath(root)
    for named in missing_files(output):
        full = os.path.realpath(os.path.join(root, named))
        if not full.startswith(real + os.sep) or os.path.lexists(full):
            continue
        rel = os.path.relpath(full, real)
        if open_checkout(root).is_ignored(rel):
            return (
                f"the file {rel}, which git ignores (a local file of the clone the claim was "
                "made in, not in this one)"
            )
    return ""
