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
from gentle_hooks.policy.outputs import declared_outputs
from gentle_hooks.policy.selfcheck import is_declared as declared_command
from gentle_hooks.policy.toolmissing import job_lacks, missing_files
from gentle_hooks.services.checkout import candidate_checkout, run_env
from gentle_hooks.services.receipt_guard import candidate_changes
from gentle_hooks.services.runner import run_observed
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen, replace

#: Lines of a refuted command's output kept for the report.
_TAIL = 5


@frozen
class Claim:
    """A spot check a note claims for one commit: the command, the exit it reported, and
    the directory its receipt ran in, relative to the repository top (``.``: the top)."""

    command: str
    reported_exit: int | None
    cwd: str = "."


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
        cwd: the directory it ran in (or was to run in), relative to the top (``.``);
        moved: the directory the report ran in when a declared command runs at the top
            instead (the base's ``verification.commands`` are the top's), else empty;
        absent: not run, because the commit's tree holds no directory ``cwd`` (one the
            report ran in that git does not track, or a link out of the tree).
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
    cwd: str = "."
    moved: str = ""
    absent: bool = False


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
    checkout of its commit, in the directory its receipt ran in; a command of the base's
    ``verification.commands`` runs at the top, where the base declares it (a report made in
    a subdirectory ran fewer tests than the declared command: re-running it there would
    count more than the base asks for). The definition rule (row C1-own) is judged in that
    directory; one the commit's tree does not hold there is neither run nor counted.

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

    wanted: dict[tuple[str, str], tuple[Claim, str]] = {}
    for c in claims:
        moved = c.cwd if declared and c.cwd != "." else ""
        where = "." if moved else c.cwd
        wanted.setdefault((c.command, where), (replace(c, cwd=where), moved))
    out: list[Rerun] = []
    declared_claims = [w for w in wanted.values() if is_declared(w[0].command, declared)]
    out += [
        Rerun(c.command, ran=False, cwd=c.cwd)
        for c, moved in wanted.values()
        if (c, moved) not in declared_claims
    ]
    child_env = {k: v for k, v in scrubbed_env(env).items() if not k.startswith("GENTLE_")}
    runnable = []
    for c, moved in declared_claims:
        own = command_defined_by_change(
            repo, root, cand, (c.command, None, c.cwd), child_env, dependency_dirs, in_checkout=True
        )
        if own:
            out.append(Rerun(c.command, ran=False, defined_by=own, cwd=c.cwd, moved=moved))
        else:
            runnable.append((c, moved))
    if not runnable:
        return out
    with candidate_checkout(repo, root, cand, dependency_dirs, child_env) as checkout:
        run_with = run_env(checkout, child_env)
        for c, moved in runnable:
            run_dir = _tree_dir(checkout.root, c.cwd)
            if run_dir is None:
                out.append(Rerun(c.command, ran=False, cwd=c.cwd, absent=True))
                continue
            # judged again with the PYTHONPATH the checkout really has (an install only the
            # interpreter showed puts src/ first: a src/pytest.py the commit adds runs)
            own = checkout_defined(repo, cand, checkout.root, (c.command, None, c.cwd), run_with)
            if own:
                out.append(Rerun(c.command, ran=False, defined_by=own, cwd=c.cwd, moved=moved))
                continue
            buffer = io.BytesIO()
            obs = run_observed(
                ("sh", "-c", c.command),
                cwd=run_dir,
                stdout=buffer,
                stderr=buffer,
                env=run_with,
                timeout=timeout,
            )
            # named, not refused: the note does not say which files the reported run
            # created (a local spot check counts a re-run rewriting those); the reports its
            # command names are its output, as there
            named = declared_outputs(c.command)
            touched = candidate_changes(open_checkout(checkout.root), cand.tree, named).touched
            text = buffer.getvalue().decode("utf-8", "replace")
            tail = text.splitlines()[-_TAIL:]
            lacks = job_lacks(obs.exit_code, text) or ""
            if obs.exit_code and not lacks:
                lacks = _ignored_absent(checkout.root, run_dir, text)
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
                    cwd=c.cwd,
                    moved=moved,
                )
            )
    return out


def _tree_dir(root: str, cwd: str) -> str | None:
    """The directory ``cwd`` (relative, ``.``: the top) of the checkout at ``root`` when the
    checkout holds it as a directory of its own tree (not through a link out of it, nor a
    dependency folder linked in from the job), else None."""
    real = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, cwd))
    inside = full == real or full.startswith(real + os.sep)
    return full if inside and os.path.isdir(full) else None


def _ignored_absent(root: str, run_dir: str, output: str) -> str:
    """For a failed re-run in ``run_dir`` of the checkout at ``root``: the words naming the
    first file its ``output`` could not open
    (:func:`~gentle_hooks.policy.toolmissing.missing_files`, a relative name read from
    ``run_dir``) that is inside the checkout, absent there, and ignored by git (a
    ``local.cfg`` in the writer's clone, never committed, so no CI clone has it); empty when
    there is none."""
    real = os.path.realpath(root)
    for named in missing_files(output):
        full = os.path.realpath(os.path.join(run_dir, named))
        if not full.startswith(real + os.sep) or os.path.lexists(full):
            continue
        rel = os.path.relpath(full, real)
        if open_checkout(root).is_ignored(rel):
            return (
                f"the file {rel}, which git ignores (a local file of the clone the claim was "
                "made in, not in this one)"
            )
    return ""
