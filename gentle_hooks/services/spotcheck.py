"""The parent's spot check (SPEC §5 "Spot check", §6): re-run a reported command, or read back.

Room ``services``. Uses the git adapter, the runner, the temporary checkout
(:mod:`gentle_hooks.services.checkout`) and the store through
:mod:`gentle_hooks.services.record`; returns what it recorded, never prints.

Only a receipt that counts is re-run: a report of success (exit 0) of a command that checks
something, one of ``verification.commands`` when the repository declares them (the policy's
standing rows, :func:`gentle_hooks.policy.selfcheck.receipt_standing`), whose command does
not run what the change itself defines (:mod:`gentle_hooks.services.spot_refusal` says why
one is refused and what to run instead). The re-run runs on
the bound candidate's exact tree:

* in the work tree, when it holds exactly that tree (always for the default ``snapshot``
  binding; for ``--staged`` / ``--committed`` when nothing else is changed, the reports
  the receipt's command names aside: an earlier run rewrote them, the re-run writes them
  again, and its spot check binds also the work tree as it left it, what ``git commit -a``
  stages). Ignored files never count as a difference, but one a test runner loads by name
  (an ignored ``conftest.py``, ``pytest.ini``, ``*.pth``) sends the re-run to the checkout;
* else in a temporary linked checkout of the tree, with the project's ignored dependency
  folders linked in, removed afterwards. Nothing is stashed, and the user's index and work
  tree are never written. Always so for a spot check bound to the worktree a block checked
  a commit out in (:mod:`~gentle_hooks.services.commit_worktree`): git gave it none of
  the ignored files (a ``.env`` the tests read), so the checkout gets those of the work
  tree the command was started in (else the main one), not the worktree's none.

A re-run that fails after a report of success lacking a file git ignores, which the place
it ran in lacks and another work tree holds, is the place's failure, not the change's: it
is refused in one line with the copy that brings the file, and nothing is recorded.

The re-run agrees only when it succeeds too, and counts only when it left the candidate's
files as they were (files it creates, such as caches, do not matter). In a snapshot, the
files the reported run created (a ``--junitxml`` report: ``Receipt.created``) are that
run's outputs, not the candidate's: the re-run may write them again, and its spot check,
when it agreed, binds also to the work tree without them and to the state it left. A re-run
that fails after a report of success is recorded and blocks the candidate whose tree it
re-ran, and no other, naming both results.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import IO

from gentle_hooks.errors import EXIT_BLOCKED, Command, GentleError, UsageError, cli
from gentle_hooks.git.checkout import open_checkout
from gentle_hooks.git.process import scrubbed_env
from gentle_hooks.ledger.records import Receipt, SpotCheck
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.outputs import declared_outputs
from gentle_hooks.policy.selfcheck import rerun_agrees
from gentle_hooks.policy.shellwords import shown as one_line_command
from gentle_hooks.services.checkout import candidate_checkout, run_env, sweep
from gentle_hooks.services.commit_worktree import ignored_holder, is_commit_worktree
from gentle_hooks.services.delivered import refresh_notes_kept
from gentle_hooks.services.record import (
    Binding,
    Bound,
    Recorded,
    bind,
    open_store,
    refuse_unsignable,
)
from gentle_hooks.services.room_lacks import room_lack
from gentle_hooks.services.runner import Observation, stopped_cleanly
from gentle_hooks.services.spot_refusal import (
    checkout_refusal,
    refusal_of,
    report_binding,
    report_command,
    what_to_report,
)
from gentle_hooks.services.spot_rerun import Rerun, holds_tree, rerun_in, runner_files_here
from gentle_hooks.values.candidate import PathChange, Projection, candidate_identity
from gentle_hooks.values.frozen import frozen, replace


@frozen
class SpotOutcome:
    """A spot check that ran: what it re-ran, what it saw and what was recorded.

    Attributes:
        recorded: the spot check record (``agreed``, ``counts``, ``note``);
        receipt: the receipt re-run; observation: exit status, duration, digest;
        checkout: True when it re-ran in a temporary linked checkout.
    """

    recorded: Recorded
    receipt: Receipt
    observation: Observation
    checkout: bool = False

    @property
    def satisfied(self) -> bool:
        """True when the spot check agreed and counts for the candidate."""
        rec = self.recorded.record
        assert isinstance(rec, SpotCheck)
        return rec.agreed and rec.counts


def _short(identity: str) -> str:
    return identity[:19] + "…"


def choose_receipt(
    led: Ledger,
    bound: Bound,
    receipt_id: int | None,
    command: str | None,
    env: Mapping[str, str] | None = None,
    *,
    in_checkout: bool = False,
) -> Receipt:
    """Pick the receipt to re-run for the bound candidate: by id, by command, else the most
    recent that counts.

    Only receipts recorded for this exact candidate qualify (a report about another state
    of the work tree does not describe this one), and only receipts that count (a failure
    report, a command that verifies nothing, an undeclared command are not
    self-verification, nor one whose command runs what the change defines, judged with
    ``env`` as the re-run gets it, ``in_checkout`` or in place).

    Raises:
        UsageError: no such receipt, a receipt of another candidate, no receipt with that
            command, a receipt that cannot count (naming why and what to report instead),
            or no receipt at all for this candidate (with the report to make; first the
            `git rm --cached` of files that report's earlier run wrote and the staged
            candidate holds, which it would rewrite).
    """
    identity = bound.candidate.identity
    if receipt_id is not None:
        rec = led.receipt(receipt_id)
        if rec is None:
            raise UsageError(f"no receipt #{receipt_id}", commands=(cli("receipt", "list"),))
        if rec.identity != identity:
            raise UsageError(
                f"receipt #{receipt_id} was recorded for another candidate "
                f"({_short(rec.identity)}), not this one ({_short(identity)}); the writer "
                "reports it again on this state, then spot-checks it",
                commands=(
                    report_command(bound, rec.command, rec.cwd),
                    cli("spot-check", *report_binding(bound).words()),
                ),
            )
        refused = refusal_of(bound, rec, env or {}, in_checkout)
        if refused is not None:
            raise refused
        return rec
    receipts = led.receipts(identity)
    if command is not None:
        receipts = [r for r in receipts if r.command == command.strip()]
        if not receipts:
            known = (
                "; ".join(f"#{r.id} {one_line_command(r.command)}" for r in led.receipts(identity))
                or "none"
            )
            raise UsageError(
                f"no receipt for command {command!r} on this candidate (its receipts: {known})"
            )
    if not receipts:
        words, fix = what_to_report(bound)
        # only a command reported since the first write of the writer's pending work here:
        # one reported for work committed before it says nothing of this change
        pending = led.open_entries(bound.root)
        since = min((e.recorded_at for e in pending), default=None)
        earlier = None if since is None else led.last_receipt_elsewhere(bound.root, identity, since)
        held: list[str] = []
        if (
            fix.label == "prefix"
            and earlier
            and refusal_of(bound, earlier, env or {}, in_checkout) is None
        ):
            # reported for another state of the work tree (files added or left since, a
            # temporary index): the same command, reported again, binds to this one
            words = f"the writer reports again the command it reported last (#{earlier.id})"
            fix = report_command(bound, earlier.command, earlier.cwd)
            if bound.binding.projection is Projection.STAGED:
                held = sorted(bound.repo.blobs_staged(earlier.created or ()))
            if held:  # its report would rewrite them in the staged candidate: refused
                words = f"its run wrote {', '.join(held[:3])}, which git does not ignore " + (
                    "and the staged candidate holds: keep them out of it (and out of a later "
                    f"git add -A: .git/info/exclude), then {words}"
                )
        out = (
            "rm",
            "-q",
            "--cached",
            "--ignore-unmatch",
            "--",
            *(f":(top,literal){p}" for p in held),
        )
        raise UsageError(
            f"no receipt recorded for this candidate ({_short(identity)}); {words}, then "
            "spot-checks it",
            commands=(
                *([Command(out, tool="git")] if held else []),
                fix,
                cli("spot-check", *report_binding(bound).words()),
            ),
        )
    for rec in reversed(receipts):
        if refusal_of(bound, rec, env or {}, in_checkout) is None:
            return rec
    refused = refusal_of(bound, receipts[-1], env or {}, in_checkout)
    assert refused is not None
    if len(receipts) > 1:
        more = f" (and {len(receipts) - 1} earlier receipt(s) that cannot count either)"
        raise UsageError(refused.message + more, commands=refused.commands)
    raise refused


def run_spot_check(
    binding: Binding,
    env: Mapping[str, str],
    *,
    receipt_id: int | None = None,
    command: str | None = None,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
    announce: Callable[[str], None] | None = None,
    sign_key: str | None = None,
) -> SpotOutcome:
    """Re-run one reported command on the bound candidate's exact tree and record the
    comparison.

    Args:
        binding: the candidate; receipt_id / command: which receipt (default: the most
            recent that counts for this candidate); stdout / stderr: where the re-run's
            output streams; announce: told where the re-run runs, before it starts;
            sign_key: the SSH key the note's spot-check line is signed with (else
            ``gentle.signRecords``' key or none).

    Returns:
        The outcome; ``satisfied`` says whether it counts.

    Raises:
        UsageError: see :func:`choose_receipt`; the receipt's directory is not in the
            candidate; the command cannot be started.
        GitError / StoreError: as :func:`gentle_hooks.services.record.bind` / ``open_store``;
            the temporary checkout could not be made.
        GentleError: exit 1, nothing recorded: the re-run failed after a report of success
            lacking a file git ignores that the place it ran in lacks and another work tree
            holds (:func:`~gentle_hooks.services.room_lacks.room_lack`: the place's
            failure, not the change's, so no refutation), with the copy that brings it.
    """
    bound = bind(binding, env)
    cand = bound.candidate
    with open_store(bound.repo) as led:
        # the work tree is the snapshot's candidate, but an ignored runner file there (a
        # conftest.py) would be run with it: then a checkout of the candidate's tree
        snapshot = binding.projection is Projection.SNAPSHOT
        # a block's commit worktree holds none of the user's ignored files (a .env): the
        # re-run gets, in a checkout, those of the work tree the writer's report ran in
        # (else the one the user pasted the block in)
        room = is_commit_worktree(bound.repo, bound.root)
        in_place = not room and (
            (snapshot and not runner_files_here(bound.repo)) or holds_tree(bound.repo, cand.tree)
        )
        receipt = choose_receipt(led, bound, receipt_id, command, env, in_checkout=not in_place)
        places = (receipt.root, os.getcwd())
        holder = ignored_holder(bound.repo, bound.root, places) if room else None
        if sign_key is not None:
            refuse_unsignable(
                led,
                bound,
                sign_key,
                "the spot check",
                ("spot-check the commit", "spot-check"),
                # the same receipt, bound to the commit
                lambda words: cli(
                    "spot-check", *words, "--receipt", str(receipt.id), "--sign-key", sign_key
                ),
            )
        # in a snapshot, files the reported run created are the candidate's only because that
        # run made them (receipt run binds to the state with them too)
        outputs = receipt.created or () if binding.projection is Projection.SNAPSHOT else ()
        # and the reports its command names (--junitxml report.xml), tracked or not: written
        # after the re-run tested the tree, its output, not what it tested
        named = declared_outputs(receipt.command, bound.root, receipt.cwd)
        if not room and not in_place and named and holds_tree(bound.repo, cand.tree, named):
            # the work tree differs only in the report an earlier run rewrote: the re-run
            # writes it there again, and its spot check binds the state commit -a stages
            in_place = refusal_of(bound, receipt, env, False) is None
        said: list[str] = []
        if in_place:
            sweep(bound.repo)  # what killed spot checks left (a checkout sweeps it too)
            if announce is not None:
                what = one_line_command(receipt.command)
                announce(f"re-running receipt #{receipt.id} ({what}) in the work tree")
            rerun = rerun_in(
                bound.repo,
                bound.root,
                receipt,
                cand.tree,
                None,
                stdout,
                stderr,
                (*outputs, *named),
            )
        else:
            deps = bound.settings.verification.dependency_dirs
            source = bound.repo if holder is None else holder
            top = source.paths.toplevel or bound.root
            with stopped_cleanly(), candidate_checkout(source, top, cand, deps) as co:
                env = run_env(co, scrubbed_env())
                # the PYTHONPATH the checkout really has (an install only the interpreter
                # showed put src/ first): a src/pytest.py the change adds is its runner
                late = checkout_refusal(bound, receipt, co.root, env)
                if late is not None:
                    raise late
                linked = co.said
                # recorded words name no local path (a note travels); the announcement does
                why, shown = _why_checkout(room, holder is not None, top)
                said.append(
                    f"re-ran in a temporary linked checkout of the {binding.projection.value} "
                    f"candidate's tree{linked}: {why}"
                )
                if announce is not None:
                    announce(
                        f"re-running receipt #{receipt.id} ({one_line_command(receipt.command)}) "
                        "in a temporary "
                        f"linked checkout of the {binding.projection.value} candidate's tree, "
                        f"{co.root}{linked}: {shown}"
                    )
                repo = open_checkout(co.root)
                rerun = rerun_in(repo, co.root, receipt, cand.tree, env, stdout, stderr, named)
        obs = rerun.observation
        if receipt.exit_code == 0 and obs.exit_code not in (0, None):
            # a failure the place lacks an ignored file for is that place's, not the
            # change's: refused, nothing recorded, so it refutes nothing (issue 14)
            lacked = room_lack(*((bound.repo, bound.root) if in_place else (source, top)), obs)
            if lacked is not None:
                raise GentleError(lacked, exit_code=EXIT_BLOCKED)
        after = candidate_identity(cand.base.tree, rerun.after_tree) if rerun.after_tree else None
        if rerun.problem:
            said.insert(0, rerun.problem)
        if rerun.touched:
            shown = ", ".join(rerun.touched[:3]) + (", …" if len(rerun.touched) > 3 else "")
            said.insert(
                0,
                f"the re-run changed the candidate's files ({shown}), so it tested something else",
            )
        check = SpotCheck(
            root=bound.root,
            identity=cand.identity,
            kind="rerun",
            command=receipt.command,
            agreed=rerun_agrees(receipt.exit_code, obs.exit_code),
            counts=not rerun.touched and rerun.problem is None,
            receipt_id=receipt.id,
            reported_exit=receipt.exit_code,
            observed_exit=obs.exit_code,
            identity_after=after,
            note="; ".join(said) or None,
            duration_ms=obs.duration_ms,
            output_digest=obs.output_digest,
        )
        # a failure refutes only the tree it re-ran (the store reads no copy of one either)
        wrote = bool(outputs or (named and in_place)) and check.agreed
        also = _outputs_aside(bound, receipt, rerun) if wrote else ()
        stored, *_ = led.add_all([check, *(replace(check, identity=i) for i in also)])
        kept = refresh_notes_kept(bound.repo, led, cand, sign_key)
        return SpotOutcome(Recorded(led.path, stored, cand, kept), receipt, obs, not in_place)


def _why_checkout(room: bool, held: bool, top: str) -> tuple[str, str]:
    """Why a re-run ran in a temporary checkout, as recorded (no local path) and as
    announced: the work tree had other changes, or it was bound to a block's commit
    worktree (``room``) and got the ignored files of the work tree at ``top`` (``held``),
    or of none (git listed no other work tree)."""
    if not room:
        return ("the work tree has other changes",) * 2
    if not held:
        words = "the commit's worktree holds no ignored file and no other work tree was found"
        return words, words
    # which work tree: the one the report ran in, else the one the command started in
    return (
        "with the ignored files of another work tree (the commit's worktree has none)",
        f"with the ignored files of the work tree {top} (the commit's worktree has none)",
    )


def _outputs_aside(bound: Bound, receipt: Receipt, rerun: Rerun) -> tuple[str, ...]:
    """The other candidates an agreeing re-run in the work tree satisfies too, when the
    receipt's run created files (``receipt.created``, a snapshot's) or its command names
    reports: the work tree without the created files (what the writer produced: a commit
    that leaves them out) and, when the re-run changed nothing else, the state it left (it
    wrote them again: a commit of the work tree as it is now, ``commit -a``).
    A re-run rewriting its own report never leaves the candidate it checked behind."""
    cand = bound.candidate
    found = [
        candidate_identity(
            cand.base.tree, bound.repo.tree_without(cand.tree, receipt.created or ())
        )
    ]
    if rerun.outputs_only and rerun.after_tree is not None:
        found.append(candidate_identity(cand.base.tree, rerun.after_tree))
    return tuple(i for i in dict.fromkeys(found) if i != cand.identity)


def format_change(c: PathChange) -> str:
    """One readback line: ``<status> <path> <what changed>``."""
    from gentle_hooks.policy.shellwords import shown_path

    path = f"{shown_path(c.old_path)} -> {shown_path(c.path)}" if c.old_path else shown_path(c.path)
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
    return f"{c.status} {path}  {what}"


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
        notes = (
            "a structural readback satisfies the spot check only in the passive tier",
            *refresh_notes_kept(bound.repo, led, cand),
        )
        return Recorded(led.path, stored, cand, notes)
