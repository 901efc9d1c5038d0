"""The parent's spot check (SPEC §5 "Spot check", §6): re-run a reported command, or read back.

Room ``services``. Uses the git adapter, the runner and the store through
:mod:`gentle_hooks.services.record`; returns what it recorded, never prints.

A re-run counts for the candidate computed *before* it, and only when
* gentle-hooks ran the command itself (this module), in the work tree, whose state is
  exactly the bound candidate's tree (so the re-run tests that candidate),
* the observed exit status equals the reported one, and
* the candidate after the re-run is unchanged (a command that edits files tested
  something else).
A disagreeing re-run is recorded and blocks the candidate, naming both results.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO

from gentle_hooks.errors import UsageError
from gentle_hooks.ledger.records import Receipt, SpotCheck
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sync import refresh_for_identity
from gentle_hooks.services.record import Binding, Bound, Recorded, bind, open_store
from gentle_hooks.services.runner import Observation, run_observed
from gentle_hooks.values.candidate import PathChange, Projection, candidate_identity
from gentle_hooks.values.frozen import frozen


@frozen
class SpotOutcome:
    """A spot check that ran: what it re-ran, what it saw and what was recorded.

    Attributes:
        recorded: the spot check record (``agreed``, ``counts``, ``note``);
        receipt: the receipt re-run; observation: exit status, duration, digest.
    """

    recorded: Recorded
    receipt: Receipt
    observation: Observation

    @property
    def satisfied(self) -> bool:
        """True when the spot check agreed and counts for the candidate."""
        rec = self.recorded.record
        assert isinstance(rec, SpotCheck)
        return rec.agreed and rec.counts


def _short(identity: str) -> str:
    return identity[:19] + "…"


def choose_receipt(
    led: Ledger, identity: str, receipt_id: int | None, command: str | None
) -> Receipt:
    """Pick the receipt to re-run for a candidate: by id, by command, else the most recent.

    Only receipts recorded for this exact candidate qualify: a report about another
    state of the work tree does not describe this one.

    Raises:
        UsageError: no such receipt, a receipt of another candidate, no receipt with that
            command, or no receipt at all for this candidate (with the command to record
            one).
    """
    if receipt_id is not None:
        rec = led.receipt(receipt_id)
        if rec is None:
            raise UsageError(f"no receipt #{receipt_id} (see: gentle-hook receipt list)")
        if rec.identity != identity:
            raise UsageError(
                f"receipt #{receipt_id} was recorded for another candidate "
                f"({_short(rec.identity)}), not this one ({_short(identity)}); the writer "
                f"reports it again on this state: gentle-hook receipt run -- {rec.command}"
            )
        return rec
    receipts = led.receipts(identity)
    if command is not None:
        matching = [r for r in receipts if r.command == command.strip()]
        if not matching:
            known = "; ".join(f"#{r.id} {r.command}" for r in receipts) or "none"
            raise UsageError(
                f"no receipt for command {command!r} on this candidate (its receipts: {known})"
            )
        return matching[-1]
    if not receipts:
        raise UsageError(
            f"no receipt recorded for this candidate ({_short(identity)}); the writer reports "
            f"a command first: gentle-hook receipt run -- <test command>"
        )
    return receipts[-1]


def run_spot_check(
    binding: Binding,
    env: Mapping[str, str],
    *,
    receipt_id: int | None = None,
    command: str | None = None,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
) -> SpotOutcome:
    """Re-run one reported command for the bound candidate and record the comparison.

    Args:
        binding: the candidate; receipt_id / command: which receipt (default: the most
            recent for this candidate); stdout / stderr: where the re-run's output streams.

    Returns:
        The outcome; ``satisfied`` says whether it counts.

    Raises:
        UsageError: see :func:`choose_receipt`; the work tree is not the bound candidate
            (``--committed``/``--staged`` with other changes present); the receipt's
            directory is gone; the command cannot be started.
        GitError / StoreError: as :func:`gentle_hooks.services.record.bind` / ``open_store``.
    """
    bound = bind(binding, env)
    cand = bound.candidate
    with open_store(bound.repo) as led:
        receipt = choose_receipt(led, cand.identity, receipt_id, command)
        seen = (
            cand.tree if binding.projection is Projection.SNAPSHOT else bound.repo.snapshot_tree()
        )
        if seen != cand.tree:
            raise UsageError(
                f"the work tree is not the {binding.projection.value} candidate (it has other "
                f"changes), so a re-run here would not test it; commit or stash them, or "
                f"spot-check the work tree without --{binding.projection.value}"
            )
        run_dir = os.path.normpath(os.path.join(bound.root, receipt.cwd))
        if not os.path.isdir(run_dir):
            raise UsageError(f"receipt #{receipt.id} ran in {receipt.cwd!r}, which is gone")
        argv = receipt.argv if receipt.argv is not None else ("sh", "-c", receipt.command)
        obs = run_observed(argv, cwd=run_dir, stdout=stdout, stderr=stderr)
        after = candidate_identity(cand.base.tree, bound.repo.snapshot_tree())
        counts = after == cand.identity
        note = None
        if not counts:
            note = (
                f"the re-run changed the work tree (candidate {_short(cand.identity)} -> "
                f"{_short(after)}); it does not count"
            )
        stored = led.add(
            SpotCheck(
                root=bound.root,
                identity=cand.identity,
                kind="rerun",
                command=receipt.command,
                agreed=obs.exit_code == receipt.exit_code,
                counts=counts,
                receipt_id=receipt.id,
                reported_exit=receipt.exit_code,
                observed_exit=obs.exit_code,
                identity_after=after,
                note=note,
                duration_ms=obs.duration_ms,
                output_digest=obs.output_digest,
            )
        )
        refresh_for_identity(bound.repo, led, cand)
        return SpotOutcome(Recorded(led.path, stored, cand), receipt, obs)


def format_change(c: PathChange) -> str:
    """One readback line: ``<status> <path> <what changed>``."""
    path = f"{c.old_path} -> {c.path}" if c.old_path else c.path
    if c.submodule:
        what = "submodule"
    elif c.binary:
        what = "binary"
    elif c.mode_only:
        what = f"mode {c.old_mode} -> {c.new_mode}"
    else:
        what = f"+{c.additions} -{c.deletions}"
        if c.old_mode != c.new_mode and "000000" not in (c.old_mode, c.new_mode):
            what += f", mode {c.old_mode} -> {c.new_mode}"
    return f"{c.status} {path!r} {what}" if "\n" in path else f"{c.status} {path}  {what}"


def readback_text(bound: Bound, changes: tuple[PathChange, ...]) -> str:
    """The structural readback of a candidate: a header line, then one line per path."""
    added = sum(c.additions or 0 for c in changes)
    deleted = sum(c.deletions or 0 for c in changes)
    head = f"readback of {bound.candidate.identity}: {len(changes)} path(s), +{added} -{deleted}"
    return "\n".join([head, *(format_change(c) for c in changes)])


def record_readback(binding: Binding, env: Mapping[str, str]) -> Recorded:
    """``spot-check --readback``: read the candidate's structure back and record it.

    The readback lists every changed path with its status and line counts. It satisfies
    the spot check only in the ``passive`` tier (the policy decides that).

    Raises:
        GitError / StoreError: as :func:`gentle_hooks.services.record.bind` / ``open_store``.
    """
    bound = bind(binding, env)
    cand = bound.candidate
    changes = bound.repo.diff_stats(cand.base.tree, cand.tree)
    text = readback_text(bound, changes)
    with open_store(bound.repo) as led:
        stored = led.add(
            SpotCheck(
                root=bound.root,
                identity=cand.identity,
                kind="readback",
                command="readback",
                agreed=True,
                counts=True,
                readback=text,
            )
        )
        refresh_for_identity(bound.repo, led, cand)
        notes = ("a structural readback satisfies the spot check only in the passive tier",)
        return Recorded(led.path, stored, cand, notes)
