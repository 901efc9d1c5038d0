"""Recording service (SPEC §3 "Binding", §5, §6): bind a command to its candidate and record.

Room ``services``. Wires the git adapter, config, input parsers, the policy's validators and
the ledger store; returns records, never prints. The CLI modules under
:mod:`gentle_hooks.cli` parse flags, call one function here and render what it returns.

Binding: candidate-bound records (receipts, spot checks, verdicts, review facts) are keyed
by the identity of the current ``snapshot`` candidate, or of HEAD's (``--committed``) or
the index's (``--staged``). Pending mutations and escalations are keyed by the work tree
root and stay pending until a commit consumes them.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import IO, TypeVar

from gentle_hooks.config.settings import Settings
from gentle_hooks.errors import (
    Command,
    PolicyInputError,
    UsageError,
    quoted,
)
from gentle_hooks.git.checkout import open_checkout
from gentle_hooks.git.repository import Repository
from gentle_hooks.git.ssh import check_key
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import (
    EscalationRecord,
    Receipt,
    Record,
    ReviewFact,
)
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.escalation import make_escalation, parse_item
from gentle_hooks.policy.inputs import parse_receipt_line
from gentle_hooks.policy.outputs import declared_outputs, is_output
from gentle_hooks.policy.selfcheck import Report, Standing, receipt_standing, row_text
from gentle_hooks.services.delivered import refresh_notes_kept
from gentle_hooks.services.receipt_guard import (
    candidate_changes,
    does_not_count,
    lacked_note,
    report_words,
    reports_only,
    run_place,
)
from gentle_hooks.services.runner import Observation, run_observed
from gentle_hooks.values.binding import Binding as Binding
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import field, frozen, replace

R = TypeVar("R")

#: ``review`` verbs and the fact each records (``ack`` = the review was acknowledged).
REVIEW_VERBS: dict[str, str] = {
    "decline": "declined",
    "unavailable": "unavailable",
    "ack": "acknowledged",
}


@frozen
class Bound:
    """A repository with the candidate a command binds to.

    Attributes:
        repo: the opened repository; root: its absolute work tree root.
        candidate: the bound candidate; binding: how it was chosen.
        settings: the compiled configuration, with ``verification.commands`` from the
            candidate's base commit
            (:func:`~gentle_hooks.services.declared_suite.base_commands`).
    """

    repo: Repository
    root: str
    candidate: Candidate
    binding: Binding
    settings: Settings = field(default_factory=Settings)


@frozen
class Recorded:
    """What a recording command stored.

    Attributes:
        ledger: the database file; record: the record as stored (with its id);
        candidate: the bound candidate (None for pending mutations, which bind to the root);
        notes: lines the user should read (a changed work tree, a limit of the record).
        replayed: the record was there already (a replayed tool call), nothing was added.
        spooled: the spool the record was appended to while another process held the
            ledger's write lock, or while the ledger could not be opened
            (:mod:`gentle_hooks.ledger.spool`); None when it is stored.
        spool_reason: with ``spooled``, why the record is not in the ledger yet;
        spool_fix: the command that lets the spool be folded in, when one is needed.
    """

    ledger: str
    record: Record
    candidate: Candidate | None = None
    notes: tuple[str, ...] = field(default=())
    replayed: bool = False
    spooled: str | None = None
    spool_reason: str = "another process holds the ledger's write lock"
    spool_fix: Command | None = None


def open_root(cwd: str | None) -> tuple[Repository, str]:
    """Open the repository at ``cwd`` and return it with its work tree root.

    Raises:
        GitError: not a repository, or a bare one (no work tree to record for).
    """
    repo = Repository.open(cwd)
    assert repo.paths.toplevel is not None  # Repository.open refuses bare repositories
    return repo, repo.paths.toplevel


def bind(binding: Binding, env: Mapping[str, str]) -> Bound:
    """Resolve the candidate a command binds to.

    Args:
        binding: cwd, projection and base ref; env: the process environment (config).

    Raises:
        GitError: not a repository, bare, unknown base ref, unmerged index.
        ConfigError: invalid configuration.
    """
    from gentle_hooks.config.load import load_config  # pydantic: only when binding needs config

    repo, root = open_root(binding.cwd)
    config = load_config(root, repo.gentle_config(), env)
    cand = repo.candidate(
        binding.projection, flag_ref=binding.base_ref, config_ref=config.settings.base_ref
    )
    from gentle_hooks.services.declared_suite import with_base_commands

    # the declared verification commands are the base's: a change cannot declare its own
    settings = with_base_commands(repo, cand.base.commit, config.settings)
    return Bound(repo, root, cand, binding, settings)


def store_path(repo: Repository) -> str:
    """The ledger file of a repository (under its common git dir)."""
    return ledger_path(repo.paths.common_dir)


def open_store(repo: Repository) -> Ledger:
    """Open the repository's ledger for recording, creating it when absent.

    Raises:
        StoreError: the store exists but cannot be used.
    """
    return Ledger.open(store_path(repo))


@contextmanager
def bound_store(binding: Binding, env: Mapping[str, str]) -> Iterator[tuple[Bound, Ledger]]:
    """:func:`bind` ``binding``, then open its repository's ledger for recording.

    Raises:
        GitError / StoreError: as :func:`bind` / :func:`open_store`.
    """
    bound = bind(binding, env)
    with open_store(bound.repo) as led:
        yield bound, led


def refuse_unsignable(
    led: Ledger,
    bound: Bound,
    sign_key: str,
    what: str,
    then: tuple[str, str],
    command: Callable[[tuple[str, ...]], Command],
) -> None:
    """``--sign-key`` signs a record's line in a commit's note: refuse it before anything is
    run or stored when the key cannot sign, or when no commit has the bound candidate yet
    (the key would be ignored). ``what`` names the record (``the verdict``); ``then`` says
    what to do instead, with the commit and without the key (``("add the verdict to the
    commit", "add it")``); ``command`` builds the command that signs it once it is
    committed, from the words of the binding bound to the commit. A ``--committed``
    binding always has its commit.

    Raises:
        SigningError: the key cannot sign (no such file, a key ssh-keygen refuses).
        UsageError: no commit has the candidate, with ``command``.
    """
    check_key(sign_key)
    if bound.candidate.projection is Projection.COMMITTED:
        return
    if led.commits_with_identity(bound.candidate.identity):
        return
    committed = replace(bound.binding, projection=Projection.COMMITTED).words()
    raise UsageError(
        f"--sign-key signs {what}'s line in a commit's note, and no commit has this "
        f"candidate yet: commit the change first, then {then[0]} as below (or {then[1]} "
        "without --sign-key: the post-commit hook signs its line with the key "
        "gentle.signRecords names)",
        commands=(command(committed),),
    )


def _recorded(led: Ledger, bound: Bound, stored: Record, notes: tuple[str, ...]) -> Recorded:
    """Refresh the bound candidate's notes after ``stored`` was added; what was recorded."""
    notes += refresh_notes_kept(bound.repo, led, bound.candidate)
    return Recorded(led.path, stored, bound.candidate, notes)


def list_bound(
    binding: Binding, env: Mapping[str, str], read: Callable[[Ledger, str], list[R]]
) -> tuple[Bound, list[R]]:
    """The bound candidate and ``read(ledger, its identity)``; reads only: no ledger yet
    means no records."""
    bound = bind(binding, env)
    led = Ledger.open_existing(store_path(bound.repo))
    if led is None:
        return bound, []
    with led:
        return bound, read(led, bound.candidate.identity)


def relative_cwd(root: str, cwd: str | None) -> str:
    """``cwd`` (default: the current directory) relative to ``root``; ``.`` for the root."""
    here = os.path.realpath(cwd if cwd is not None else os.getcwd())
    rel = os.path.relpath(here, os.path.realpath(root))
    return "." if rel.startswith("..") else rel


# -- escalations and review facts --------------------------------------------------------


def record_escalation(
    binding: Binding,
    item: str,
    reason: str | None,
    env: Mapping[str, str],
    critical: bool = False,
) -> Recorded:
    """Record an escalation, sticky for the root's pending work (SPEC §5 "Escalation").

    Raises:
        PolicyInputError: unknown item (the six are listed), missing, multi-line or
            overlong reason.
        GitError / StoreError: as :func:`bind` / :func:`open_store`.
    """
    if reason is None or not reason.strip():
        it = parse_item(item)
        raise PolicyInputError(
            f"escalating item {it.number} ({it.slug}) needs a reason: "
            f'add --reason "<one line: why {it.title} applies>"'
        )
    esc = make_escalation(item, reason, critical)
    with bound_store(binding, env) as (bound, led):
        # sticky for the writer work in flight: the entries no commit has taken yet,
        # and (add_mutation links them) every entry the root records until then
        stored = led.add_escalation(
            EscalationRecord(
                root=bound.root,
                identity=bound.candidate.identity,
                item=esc.item.number,
                slug=esc.item.slug,
                reason=esc.reason,
                critical=esc.critical,
            ),
            [e.id for e in led.open_entries(bound.root)],
        )
        return _recorded(
            led,
            bound,
            stored,
            ("sticky: applies to every candidate of this work tree until the work is committed",),
        )


def record_review(binding: Binding, verb: str, env: Mapping[str, str]) -> Recorded:
    """Record a review outcome fact for the bound candidate (SPEC §5 "Review outcome").

    ``decline`` / ``unavailable`` record that outcome (it wins over closure); ``ack``
    records the caller's acknowledgement (stored as ``acknowledged``), which is shown but never
    closes the review: closure comes only from native's own ``candidate.consumed`` (seed
    000 "How assess resolves the review outcome").

    Raises:
        UsageError: a verb other than decline, unavailable, ack.
        GitError / StoreError: as :func:`bind` / :func:`open_store`.
    """
    outcome = REVIEW_VERBS.get(verb)
    if outcome is None:
        raise UsageError(f"unknown review verb {quoted(verb)}: use decline, unavailable or ack")
    with bound_store(binding, env) as (bound, led):
        stored = led.add(
            ReviewFact(root=bound.root, identity=bound.candidate.identity, outcome=outcome)
        )
        notes: tuple[str, ...] = ("a review outcome never removes a verifier the tier requires",)
        if outcome == "acknowledged":
            notes = (
                "an acknowledgement is a caller's word: the review closes only when the native "
                "provider reports candidate.consumed for this candidate",
                *notes,
            )
        return _recorded(led, bound, stored, notes)


# -- receipts ----------------------------------------------------------------------------


def record_receipt_line(
    binding: Binding, line: str, exit_code: int | None, env: Mapping[str, str]
) -> Recorded:
    """``receipt add``: record a report the writer made elsewhere.

    Args:
        binding: the candidate to bind to; line: ``<command>: <observed result>``;
        exit_code: the reported exit status (required: a spot check compares with it).

    Raises:
        UsageError: a line without ``": "`` or otherwise malformed; no exit code.
        GitError / StoreError: as :func:`bind` / :func:`open_store`.
    """
    parsed = parse_receipt_line(line)
    if exit_code is None:
        raise UsageError(
            "--exit-code N is required: the spot check compares the re-run's exit status "
            "with the reported one"
        )
    if not 0 <= exit_code <= 255:
        raise UsageError(f"--exit-code {exit_code}: an exit status is 0..255")
    with bound_store(binding, env) as (bound, led):
        stored = led.add(
            Receipt(
                root=bound.root,
                identity=bound.candidate.identity,
                kind="add",
                command=parsed.command,
                observed=parsed.observed,
                exit_code=exit_code,
                cwd=relative_cwd(bound.root, binding.cwd),
            )
        )
        return _recorded(led, bound, stored, standing_notes(stored, bound))


def standing(receipt: Receipt, settings: Settings) -> Standing:
    """Whether a receipt counts as self-verification under the repository's declared
    verification commands (the policy's standing rows)."""
    declared = settings.verification.commands
    return receipt_standing(Report(receipt.command, receipt.exit_code, declared, receipt.observed))


def refusal(receipt: Receipt, st: Standing, declared: tuple[str, ...]) -> str:
    """Why a receipt cannot count, in one clause (the standing row and what it met)."""
    if st.row == "S-failed":
        return f"it reports exit {receipt.exit_code}: a failure report is not self-verification"
    if st.row == "S-undeclared":
        return "it is not one of the declared verification.commands (" + ", ".join(declared) + ")"
    if st.row in ("S-no-tests", "S-load-env"):  # the row's own words say it
        return row_text(st.row).replace("the command ", "it ", 1)
    return "it verifies nothing: " + "; ".join(row_text(r) for r in st.no_check)


def standing_notes(receipt: Receipt, bound: Bound) -> tuple[str, ...]:
    """The note a recorded receipt gets when it cannot count (empty when it counts)."""
    st = standing(receipt, bound.settings)
    if st.counts:
        return ()
    why = refusal(receipt, st, bound.settings.verification.commands)
    return (f"receipt #{receipt.id} cannot count as self-verification: {why}",)


def run_receipt(
    binding: Binding,
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
) -> tuple[Recorded, Observation]:
    """``receipt run -- CMD``: run the command in the foreground and record what it saw.

    The receipt binds to the candidate computed *before* the run (the state the command
    tested). When the run changed the candidate, a note says so. A ``--staged`` or
    ``--committed`` run the work tree does not hold runs in a temporary checkout of that
    tree (:func:`gentle_hooks.services.receipt_guard.run_place`); the user's work tree and
    index are never changed.

    Args:
        binding: the candidate to bind to (the command runs in ``binding.cwd``).
        argv: the command; stdout / stderr: where its output streams.

    Returns:
        (the receipt recorded, the observation: exit status, duration, digest).

    A command that changed the candidate's files git tracks (the spot check's own test,
    :func:`gentle_hooks.services.receipt_guard.candidate_changes`) tested something else: it
    does not count as the writer's self-verification and nothing is recorded, unless they
    are reports it names (``--junitxml report.xml``: its output, written after testing):
    then it binds the candidate before the run (a snapshot's, after it too), noted.

    Raises:
        UsageError: no command, or it cannot be started, or the directory it would run in
            is not in the staged or committed tree (nothing is recorded then).
        GentleError: exit 1 (ran but does not count): the command changed the candidate's
            tracked files; the line names them and the ``prefix:`` of a report to make.
        GitError / StoreError: as :func:`bind` / :func:`open_store`; the store is opened
            before the command runs, so a broken store fails before anything runs.
    """
    if not argv:
        raise UsageError("no command given: put it after --, e.g. 'receipt run -- pytest -q'")
    bound = bind(binding, env)
    with open_store(bound.repo) as led:
        cwd = os.path.abspath(binding.cwd) if binding.cwd is not None else os.getcwd()
        deps = bound.settings.verification.dependency_dirs
        with run_place(bound.repo, bound.root, bound.candidate, cwd, deps, env) as place:
            obs = run_observed(argv, cwd=place.cwd, stdout=stdout, stderr=stderr, env=place.env)
            obs, lacked = lacked_note(bound.repo, bound.root, obs)
            where = bound.repo if place.room is None else open_checkout(place.room)
            changed = candidate_changes(where, bound.candidate.tree).touched
            tracked = where.blobs_staged(changed)  # files the run made or git does not track aside
            touched = [p for p in changed if p in tracked]
        # a tracked file the command names as its report (--junitxml report.xml) is written
        # after the run tested the candidate: its output, not what it tested
        outputs = declared_outputs(shlex.join(argv), bound.root, os.path.relpath(cwd, bound.root))
        reports = [p for p in touched if is_output(p, outputs)]
        if len(reports) < len(touched):
            held = bound.candidate.tree if place.room is None else None
            raise does_not_count(binding, touched, held, bound.root)
        receipt = Receipt(
            root=bound.root,
            identity=bound.candidate.identity,
            kind="run",
            command=shlex.join(argv),
            observed=obs.observed,
            exit_code=obs.exit_code,
            argv=tuple(argv),
            cwd=relative_cwd(bound.root, binding.cwd),
            duration_ms=obs.duration_ms,
            output_digest=obs.output_digest,
        )
        # Everything that can fail is done before the one transaction that stores: the
        # receipt is stored and acknowledged, or refused and not stored (never both).
        after = bind(binding, env).candidate
        moved = after.identity != bound.candidate.identity
        created = _created_only(bound.repo, bound.candidate.tree, after.tree) if moved else []
        rewrote = moved and reports_only(bound.repo, bound.candidate.tree, after.tree, outputs)
        # untracked, unignored files the run wrote, or the report it names, are in the
        # candidate now: bind to it too
        also = bool(created or rewrote) and binding.projection is Projection.SNAPSHOT
        both = (
            [receipt, replace(receipt, identity=after.identity, created=tuple(created))]
            if also
            else [receipt]
        )
        stored, *again = led.add_all(both)
        notes = standing_notes(stored, bound) + place.notes(obs.exit_code, bool(lacked)) + lacked
        notes += refresh_notes_kept(bound.repo, led, bound.candidate)
        if reports:
            notes += (report_words(reports, stored.id, again[0].id if again else None),)
        if again:
            notes += refresh_notes_kept(bound.repo, led, after)
        if again and created:
            notes += (
                f"the run wrote {len(created)} file(s) git neither tracks nor ignores ("
                + ", ".join(created[:3])
                + (", …" if len(created) > 3 else "")
                + f"): the receipt binds to the work tree with them too (#{again[0].id}); "
                "list them in .gitignore to keep them out of the candidate",
            )
        elif moved and not reports:
            notes += (
                f"the command changed the candidate ({bound.candidate.identity[:19]}… -> "
                f"{after.identity[:19]}…); this receipt is bound to the state before "
                "the run",
            )
        return Recorded(led.path, stored, bound.candidate, notes), obs


def _created_only(repo: Repository, before: str, after: str) -> list[str]:
    """The paths ``after`` adds to ``before`` or rewrites among files the index does not
    hold (a report an earlier run of the same command left untracked), when it changes
    nothing else; else empty."""
    changes = repo.tree_delta(before, after)
    if any(c.new_blob is None for c in changes):
        return []
    rewritten = [c.path for c in changes if c.old_blob is not None]
    if repo.blobs_staged(rewritten):  # a file the index holds: the candidate's own
        return []
    return sorted(c.path for c in changes)


def list_receipts(binding: Binding, env: Mapping[str, str]) -> tuple[Bound, list[Receipt]]:
    """``receipt list``: receipts recorded for the bound candidate, oldest first.

    Reads only: no ledger yet means no receipts.
    """
    return list_bound(binding, env, Ledger.receipts)
