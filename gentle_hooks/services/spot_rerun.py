"""Where and how a spot check re-runs a receipt (SPEC §5 "Spot check"): whether the work
tree holds the candidate's exact tree, and one re-run there, with what it left.

Room ``services``. Used by :mod:`gentle_hooks.services.spotcheck`; never prints.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import IO

from gentle_hooks.bounded import scratch_dir
from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import Receipt
from gentle_hooks.policy.loadenv import without_loading
from gentle_hooks.policy.runnerfiles import is_runner_loaded
from gentle_hooks.services.receipt_guard import candidate_changes, reports_only
from gentle_hooks.services.runner import Observation, run_observed
from gentle_hooks.values.frozen import frozen


def holds_tree(repo: Repository, tree: str, outputs: Sequence[str] = ()) -> bool:
    """True when the work tree, as ``git add -A`` would stage it, is exactly ``tree`` but
    for files at ``outputs`` (the reports the receipt's command names,
    :func:`~gentle_hooks.policy.outputs.declared_outputs`: the re-run writes them again
    before anything reads them), and no ignored file a test runner or the interpreter
    loads by name is there (an ignored ``conftest.py``, ``pytest.ini``, ``*.pth``:
    :func:`~gentle_hooks.policy.runnerfiles.is_runner_loaded`; an ignored directory, such
    as a virtual environment, is linked into the checkout too). A work tree git cannot
    stage (a nested repository without a commit) is not known to hold it: the re-run goes
    to a checkout."""
    try:
        here = repo.snapshot_tree()
        if here != tree and not (outputs and reports_only(repo, tree, here, outputs)):
            return False
        return not runner_files_here(repo)
    except GitError:
        return False


def runner_files_here(repo: Repository) -> bool:
    """Whether the work tree holds an ignored file a test runner or the interpreter loads by
    name (:func:`~gentle_hooks.policy.runnerfiles.is_runner_loaded`: an ignored
    ``conftest.py`` can turn a failure into a pass): a re-run there would not test the
    candidate alone.

    Raises:
        GitError: git failed.
    """
    return any(is_runner_loaded(p) for p in repo.ignored_files() if not p.endswith("/"))


@frozen
class Rerun:
    """One re-run: what it observed, the tree left behind (None when git could not read
    it: then ``problem`` says why), the candidate's paths it changed, and whether it
    changed nothing but the run's own outputs (``outputs_only``)."""

    observation: Observation
    after_tree: str | None
    touched: tuple[str, ...]
    problem: str | None = None
    outputs_only: bool = False


def rerun_in(
    repo: Repository,
    root: str,
    receipt: Receipt,
    tree: str,
    env: Mapping[str, str] | None,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
    outputs: tuple[str, ...] = (),
) -> Rerun:
    """Run the receipt in the work tree ``root`` of ``repo``, which holds ``tree``, with
    ``env`` (default: ours) and ``PYTHONDONTWRITEBYTECODE=1``. ``outputs``: files of
    ``tree`` the reported run itself created (its report, written again by the re-run):
    rewriting them is no change of the candidate.

    Raises:
        UsageError: the receipt's directory is not there; the command cannot start.
    """
    run_dir = os.path.normpath(os.path.join(root, receipt.cwd))
    if not os.path.isdir(run_dir):
        raise UsageError(
            f"receipt #{receipt.id} ran in {receipt.cwd!r}, which the candidate's tree does "
            "not hold"
        )
    argv = receipt.argv if receipt.argv is not None else ("sh", "-c", receipt.command)
    # Python's bytecode cache is no part of what the command checks, yet writing it into a
    # __pycache__/ the candidate holds (a writer's ``add -A`` commits one) would change the
    # candidate's files, and the re-run could not count
    # nor under the writer's PYTEST_ADDOPTS=--co & co.: a re-run runs what its command says
    quiet = {**without_loading(os.environ if env is None else env)[0]}
    quiet["PYTHONDONTWRITEBYTECODE"] = "1"
    # nor read from one: with a bytecode cache of its own (empty), Python never runs a
    # __pycache__/*.pyc of the tree in place of its source (an UNCHECKED_HASH one is stale)
    with scratch_dir("gentle-hooks-pycache-") as pycache:
        quiet["PYTHONPYCACHEPREFIX"] = pycache
        obs = run_observed(argv, cwd=run_dir, stdout=stdout, stderr=stderr, env=quiet)
    try:
        changed = candidate_changes(repo, tree, outputs)
    except GitError as exc:
        # what the re-run left cannot be read, so whether it tested the candidate neither
        return Rerun(obs, None, (), f"git could not read the tree after the re-run: {exc}")
    return Rerun(obs, changed.after, changed.touched, outputs_only=changed.outputs_only)
