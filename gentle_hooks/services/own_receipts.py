"""Receipts whose command runs a file the change itself writes (SPEC §5 "Spot check",
§7 "Standing", row ``S-own``).

Room ``services``. The spot check refuses such a receipt (its re-run would be the change's
own word: :func:`gentle_hooks.services.spot_refusal.refusal_of`); the gate and ``receipt
run`` judge it the same way, so a block names the report to make and a report that will
not count says so when it is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import IO

from gentle_hooks.config.settings import Settings
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import Receipt
from gentle_hooks.policy.plan import Satisfaction
from gentle_hooks.policy.selfcheck import RefusedReceipt, Standing
from gentle_hooks.services.defined_command import command_defined_by_change
from gentle_hooks.services.record import Binding, Bound, Recorded, bind, run_receipt, standing
from gentle_hooks.services.runner import Observation
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import replace


def own_paths(
    repo: Repository,
    root: str,
    cand: Candidate,
    settings: Settings,
    receipt: Receipt,
    env: Mapping[str, str],
) -> tuple[str, ...]:
    """The paths ``cand`` adds or changes that define what ``receipt``'s command runs, as
    the spot check judges it in place (empty: none).

    Raises:
        GitError: reading the trees failed.
    """
    return command_defined_by_change(
        repo,
        root,
        cand,
        (receipt.command, receipt.argv, receipt.cwd),
        env,
        settings.verification.dependency_dirs,
    )


def without_own(
    repo: Repository,
    cand: Candidate,
    settings: Settings,
    receipts: Sequence[Receipt],
    done: Satisfaction,
    env: Mapping[str, str],
) -> Satisfaction:
    """``done`` with each counting receipt of ``receipts`` whose command runs a file the
    change writes moved to ``refused`` (row ``S-own``); ``receipts`` is the count of the
    rest. Unchanged when none is such a receipt.

    Raises:
        GitError: reading the trees failed.
    """
    root = repo.paths.toplevel
    if root is None:  # no work tree: nothing runs in place
        return done
    out = {r.receipt_id for r in done.refused}
    own = [r for r in receipts if r.id not in out and own_paths(repo, root, cand, settings, r, env)]
    if not own:
        return done
    refused = tuple(
        RefusedReceipt(r.id, r.command, r.exit_code, Standing(False, "S-own"), r.cwd) for r in own
    )
    left = (done.receipts or 0) - len(own)
    return replace(
        done,
        receipts=left,
        refused=done.refused + refused,
        created=done.created if left else None,
    )


def own_notes(receipt: Receipt, bound: Bound, env: Mapping[str, str]) -> tuple[str, ...]:
    """The note of a recorded receipt that counts by its standing but runs a file the
    change writes (the spot check will refuse it); empty otherwise.

    Raises:
        GitError: reading the trees failed.
    """
    if not standing(receipt, bound.settings).counts:
        return ()  # its standing note says why already
    own = own_paths(bound.repo, bound.root, bound.candidate, bound.settings, receipt, env)
    if not own:
        return ()
    shown = ", ".join(own[:3]) + (f" and {len(own) - 3} more" if len(own) > 3 else "")
    return (
        f"receipt #{receipt.id} will not count: the change adds or changes {shown}, which "
        "defines what it runs, so its spot check would be the change's own word; report a "
        "command that tests it",
    )


def run_judged(
    binding: Binding,
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
) -> tuple[Recorded, Observation]:
    """``receipt run -- CMD``: :func:`~gentle_hooks.services.record.run_receipt`, its notes
    ending with :func:`own_notes` of the receipt, judged on the candidate it binds to (the
    exit status stays the command's).

    Raises:
        as :func:`~gentle_hooks.services.record.run_receipt`.
    """
    rec, obs = run_receipt(binding, argv, env, stdout=stdout, stderr=stderr)
    if not isinstance(rec.record, Receipt) or rec.candidate is None or rec.spooled:
        return rec, obs
    bound = replace(bind(binding, env), candidate=rec.candidate)
    return replace(rec, notes=rec.notes + own_notes(rec.record, bound, env)), obs
