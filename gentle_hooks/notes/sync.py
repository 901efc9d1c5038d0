"""Notes from the ledger, and sharing them (SPEC §8).

Room ``notes``. Builds a delivered commit's note from the ledger (lines encoded by
:mod:`gentle_hooks.notes.lines`), writes it under ``refs/notes/gentle-hooks`` merged with
what is there, refreshes the notes of commits whose candidate gains records later, and
syncs notes with a remote through the git room's typed operations. The ledger stays the
local source; the note is what others see.

Sharing: ``install --share`` adds refspecs so ordinary ``git fetch``/``git push`` carry the
notes (fetch into ``refs/notes/remotes/<remote>/gentle-hooks``, never over local notes);
``gentle-hook sync fetch|push`` merges with git's ``cat_sort_uniq`` strategy — a line union,
so two clones that add records to one commit keep both in either order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.notes import RefRaced, note_bytes
from gentle_hooks.git.repository import Repository
from gentle_hooks.git.ssh import SigningError
from gentle_hooks.ledger.fails import standing_fails
from gentle_hooks.ledger.records import CommitRecord, Receipt, commit_record
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.codec import NOTES_REF, merge, parse, render
from gentle_hooks.notes.lines import (
    CandidateLine,
    EscalationLine,
    NoteLine,
    OverrideLine,
    ReceiptLine,
    ReviewLine,
    SpotCheckLine,
    VerdictLine,
    WriterLine,
    WritesLine,
    canonical_json,
    encode,
    is_tree_dir,
)
from gentle_hooks.notes.sharing import mark_added
from gentle_hooks.notes.trust import Signer
from gentle_hooks.notes.where import repository
from gentle_hooks.values.candidate import EMPTY_BLOBS, Candidate, Projection

NOTES_MESSAGE = "gentle-hooks: record verification of delivered commits"


def note_lines(led: Ledger, rec: CommitRecord) -> list[str]:
    """The encoded note lines of one commit record (:func:`note_records`)."""
    return [encode(x) for x in note_records(led, rec)]


def note_records(led: Ledger, rec: CommitRecord) -> list[NoteLine]:
    """The note lines of one commit record: candidate, writers, the writer's files the
    commit carries (a :class:`~gentle_hooks.notes.lines.WritesLine` per path and blob the
    writer produced, but for deletions, empty files and discarded work), escalations, and
    every record bound to its identity (receipts, spot checks, verdicts, review facts,
    overrides), in that order. A spot check bound to it that re-ran a receipt of another
    snapshot brings that receipt, bound to this identity as the spot check is
    (docs/spec-notes §5 "the work tree holds exactly the candidate"). A verdict a ``verify
    run`` wrote carries that run's verdict digest
    (:attr:`~gentle_hooks.notes.lines.VerdictLine.observed`).
    """
    ident = rec.identity
    lines: list[NoteLine] = [CandidateLine(rec.commit_id, ident, rec.base_tree, rec.tree)]
    mutations, escalations = led.delivered_work(sorted({rec.commit_id, rec.origin}))
    lines += [WriterLine(m.model, m.effort, m.source) for m in mutations]
    taken = led.entries_taken_by(sorted({rec.commit_id, rec.origin})) if mutations else []
    lines += [
        WritesLine(e.path, e.blob)
        for e in taken
        if e.blob is not None and e.blob not in EMPTY_BLOBS and e.state != "discarded"
    ]
    lines += [EscalationLine(e.item, e.slug, e.reason, e.critical) for e in escalations]
    receipts = led.receipts(ident)
    spots = led.spot_checks(ident)
    # a re-run bound here that re-ran a receipt of another snapshot (the run's outputs
    # written again: docs/spec-notes §5) carries that receipt here too, bound as it is,
    # so a gate reading only the note finds the report the re-run agreed with
    bound = {r.id for r in receipts}
    rerun = sorted({s.receipt_id for s in spots if s.receipt_id is not None} - bound)
    receipts += [r for r in map(led.receipt, rerun) if r is not None]
    lines += [
        ReceiptLine(
            ident, r.command, r.observed, r.exit_code, r.output_digest, r.recorded_at, _dir(r)
        )
        for r in receipts
    ]
    # a re-run ran where its receipt ran: the gates re-run it there (issue 14)
    ran_in = {r.id: _dir(r) for r in receipts}
    lines += [
        SpotCheckLine(
            ident,
            s.kind,
            s.command,
            s.reported_exit,
            s.observed_exit,
            s.agreed,
            s.counts,
            s.recorded_at,
            cwd=ran_in.get(s.receipt_id) if s.receipt_id is not None else None,
        )
        for s in spots
    ]
    verdicts = led.verdicts(ident)
    # what a verify run observed is in this clone's ledger only: the line carries the
    # digest of the verdict the run wrote, so a gate reading the note can tell it apart
    verify_runs = led.verify_runs(ident) if any(v.observed_run for v in verdicts) else []
    # while an observed fail stands no verdict counts here (ledger.fails), so none is
    # vouched for as observed there either: the note's gates would count it
    runs = {} if standing_fails(verify_runs) else {r.id: r.verdict_digest for r in verify_runs}
    lines += [
        VerdictLine(
            ident,
            canonical_json(v.json),
            v.recorded_at,
            runs.get(v.observed_run) if v.observed_run is not None else None,
        )
        for v in verdicts
    ]
    lines += [ReviewLine(ident, f.outcome, f.recorded_at) for f in led.review_facts(ident)]
    lines += [
        OverrideLine(ident, o.hook, o.who, o.reason, o.missing, o.target, o.recorded_at)
        for o in led.overrides(ident)
    ]
    return lines


def _dir(receipt: Receipt) -> str | None:
    """A receipt's directory as its note line's ``cwd``: None for the top (the line keeps
    the text it had before the field) and for a directory no note line can name."""
    cwd = receipt.cwd.replace(os.sep, "/")
    return cwd if cwd != "." and is_tree_dir(cwd) else None


def signing_key(repo: Repository, key: str | None = None) -> str | None:
    """The SSH key this clone signs its records with: ``key`` when given (a flag), else
    ``user.signingKey`` when ``gentle.signRecords`` is true, else None (records go
    unsigned).

    Raises:
        SigningError: ``gentle.signRecords`` is true and no ``user.signingKey`` is set.
    """
    if key:
        return key
    wanted = (repo.config_get("gentle.signRecords") or "").strip().lower()
    if wanted not in ("true", "yes", "on", "1"):
        return None
    configured = repo.config_get("user.signingKey")
    if not configured:
        raise SigningError(
            "gentle.signRecords is true but user.signingKey is not set: git config "
            "user.signingKey ~/.ssh/id_ed25519.pub"
        )
    return configured


#: How many times a notes write retries its compare-and-swap before giving up (8
#: worktrees committing at once each win within a few tries; see the jitter below).
CAS_ATTEMPTS = 60


def drop_copied_notes(repo: Repository, commits: Sequence[str]) -> None:
    """Remove the gentle-hooks notes of ``commits``: rewritten commits that kept none of
    the writer's content, whose notes git copied from the commits they replace
    (``notes.rewriteRef``) and would otherwise say writer work to every gate.

    Raises:
        GitError: git failed.
    """
    repo.remove_notes(NOTES_REF, commits)


def write_commit_notes(
    repo: Repository, led: Ledger, records: Iterable[CommitRecord], sign_key: str | None = None
) -> int:
    """Write (merge into) the notes of the commits of ``records``; return how many changed.

    Spot-check, verdict, escalation and override lines are signed with
    :func:`signing_key` (``sign_key``, else ``user.signingKey`` under
    ``gentle.signRecords``); a line the note already holds signed keeps its signature.

    The notes ref moves by compare-and-swap; when another writer (another worktree's
    post-commit) moved it first, the notes are read again, merged again and written
    again, after a short random pause, up to :data:`CAS_ATTEMPTS` times: concurrent writers
    lose nothing.

    Raises:
        GitError: git failed, or the ref was still contended after every attempt.
        SigningError: records are to be signed and the key cannot sign.
    """
    found: dict[str, list[NoteLine]] = {}
    for rec in records:
        found.setdefault(rec.commit_id, []).extend(note_records(led, rec))
    return write_note_lines(repo, found, sign_key)


def write_note_lines(
    repo: Repository, found: Mapping[str, Sequence[NoteLine]], sign_key: str | None = None
) -> int:
    """Merge ``found`` (commit id -> lines) into those commits' notes, signed and by
    compare-and-swap as :func:`write_commit_notes` does; return how many changed.

    Raises:
        GitError / SigningError: as :func:`write_commit_notes`.
    """
    if not found:
        return 0
    key = signing_key(repo, sign_key)
    signer = Signer(key) if key else None
    absorb_remote_notes(repo)
    ensure_rewrite_ref(repo)
    for attempt in range(1, CAS_ATTEMPTS + 1):
        current = repo.read_notes(NOTES_REF, list(found))
        lines: dict[str, list[str]] = {}
        for commit, records_of in found.items():
            if signer is not None:
                signer.remember(current.get(commit, b""))
                records_of = [signer(x) for x in records_of]
            lines[commit] = [encode(x) for x in records_of]
        notes = {c: merge(current.get(c, b""), render(ls)) for c, ls in lines.items()}
        changed = {c: n for c, n in notes.items() if n != current.get(c)}
        try:
            repo.write_notes(NOTES_REF, changed, NOTES_MESSAGE)
            return len(changed)
        except RefRaced:
            if attempt == CAS_ATTEMPTS:
                raise
            # random, growing pauses: writers that collided do not collide again in step
            import random  # only after a collision: every push imports this module

            time.sleep(random.uniform(0.005, 0.02 * min(attempt, 8)))
    return 0  # pragma: no cover


def commits_without_notes(repo: Repository, led: Ledger) -> list[CommitRecord]:
    """Commit records of commits in this clone whose note is missing under
    ``refs/notes/gentle-hooks`` (a write that failed, notes removed by hand), oldest first.

    Raises:
        GitError: the notes cannot be read.
    """
    records = led.all_commit_records()
    present = repo.existing_commits(sorted({r.commit_id for r in records}))
    noted = repo.notes_map(NOTES_REF)
    return [r for r in records if r.commit_id in present and r.commit_id not in noted]


def notes_over_cap(repo: Repository, led: Ledger) -> list[tuple[str, int]]:
    """(commit id, note size) of the commits in this clone the ledger recorded whose note
    holds more than the cap on a note (:func:`~gentle_hooks.git.notes.note_bytes`): every
    gate counts such a note for nothing, and no record can be added to it.

    Raises:
        GitError: the notes cannot be listed.
    """
    records = led.all_commit_records()
    present = repo.existing_commits(sorted({r.commit_id for r in records}))
    noted = repo.notes_map(NOTES_REF)
    cap = note_bytes(repo.env)
    return [(c, noted[c][2]) for c in sorted(present) if c in noted and noted[c][2] > cap]


def write_missing_notes(repo: Repository, led: Ledger) -> int:
    """Write the note of every commit :func:`commits_without_notes` finds; return how many.

    Raises:
        GitError: git failed.
    """
    missing = commits_without_notes(repo, led)
    if not missing:
        return 0
    wanted = {r.commit_id for r in missing}
    # every record of those commits (an amended commit may have several)
    return write_commit_notes(
        repo, led, [r for r in led.commit_records(sorted(wanted)) if r.commit_id in wanted]
    )


def notes_lacking_escalations(repo: Repository, led: Ledger) -> list[CommitRecord]:
    """Commit records of commits in this clone whose note exists but lacks an escalation
    line the ledger says the commit delivered (:func:`note_records`): a note written before
    notes carried escalations, or by a clone that did not know of one. Without the line the
    range and server gates read a lighter plan than the local gates (SPEC §8).

    Raises:
        GitError: the notes cannot be read; StoreError: the ledger cannot be read.
    """
    records = led.escalated_commit_records()
    if not records:
        return []
    present = repo.existing_commits(sorted({r.commit_id for r in records}))
    notes = repo.read_notes(NOTES_REF, sorted(present))
    out = []
    for rec in records:
        note = notes.get(rec.commit_id)
        if note is None:  # no note at all: write_missing_notes writes it whole
            continue
        have = {(x.item, x.critical) for x in parse(note).of(EscalationLine)}
        wanted = {
            (x.item, x.critical) for x in note_records(led, rec) if isinstance(x, EscalationLine)
        }
        if wanted - have:
            out.append(rec)
    return out


def write_lacking_escalations(repo: Repository, led: Ledger) -> int:
    """Merge the escalation lines into the notes :func:`notes_lacking_escalations` finds;
    return how many notes changed.

    Raises:
        GitError: git failed.
    """
    stale = notes_lacking_escalations(repo, led)
    return write_commit_notes(repo, led, stale) if stale else 0


def write_lacking_receipts(repo: Repository, led: Ledger) -> int:
    """Merge the receipt a commit's spot check re-ran (of another snapshot) into its existing
    note, written before notes carried it; how many changed. Raises GitError: git failed."""
    records = led.rerun_elsewhere_commit_records()
    present = repo.existing_commits(sorted({r.commit_id for r in records}))
    held = repo.read_notes(NOTES_REF, sorted(present)) if present else {}
    return write_commit_notes(repo, led, [r for r in records if r.commit_id in held])


def ensure_rewrite_ref(repo: Repository) -> None:
    """Set ``notes.rewriteRef`` (once) so amend and rebase copy the notes. Set when notes
    are first written: naming a notes ref that does not exist yet makes git warn on every
    amend. Worktrees committing at once race for the config file's lock; the one that
    loses finds the value set by the winner.

    Raises:
        GitError: the config cannot be written and the value is still not set.
    """
    for attempt in range(1, 11):
        if repo.config_get("notes.rewriteRef") is not None:
            return
        try:
            repo.config_set("notes.rewriteRef", NOTES_REF)
            mark_added(repo, "notes.rewriteRef", NOTES_REF)
            return
        except GitError:
            if attempt == 10:
                raise
            import random

            time.sleep(random.uniform(0.005, 0.05))


def remote_notes_refs(repo: Repository) -> list[str]:
    """Every fetched remote's notes ref (:func:`remote_notes_ref` of each remote)."""
    return [r for r in repo.ref_names("refs/notes/remotes/") if r.endswith("/gentle-hooks")]


def absorb_remote_notes(repo: Repository) -> None:
    """Make the local notes a descendant of every fetched remote notes ref, so the next
    push of the notes fast-forwards: adopt it when there are no local notes, else merge it
    in (line union). Nothing to do when a remote's notes are already contained."""
    for tracking in remote_notes_refs(repo):
        if not _has(repo, NOTES_REF):
            repo.update_ref(NOTES_REF, tracking)
            continue
        if not repo.is_ancestor(tracking, NOTES_REF):
            repo.merge_notes(NOTES_REF, tracking)


def refresh_for_identity(
    repo: Repository, led: Ledger, cand: Candidate, sign_key: str | None = None
) -> int:
    """Rewrite the notes of commits whose candidate gained a record.

    Commits this clone recorded as delivered are found by identity. A record bound to a
    commit's own candidate (``--committed``) also notes that commit when this clone did
    not make it — a reviewer adding a verdict to a teammate's commit — so the record
    travels with it and merges with the author's note.

    Returns:
        How many notes changed (0 quickly when the candidate belongs to no commit).
    """
    records = led.commits_with_identity(cand.identity)
    if not records and cand.projection is Projection.COMMITTED and cand.head:
        root = repo.paths.toplevel or repo.paths.git_dir
        records = [commit_record(root, cand.head, cand, "record", origin=cand.head)]
    return write_commit_notes(repo, led, records, sign_key) if records else 0


def default_remote(repo: Repository) -> str:
    """The remote ``sync`` shares notes with when none is named: the one the current
    branch pushes to (``@{push}``'s remote: ``branch.<b>.pushRemote``, ``remote.pushDefault``,
    ``branch.<b>.remote``), else the only remote, else ``origin`` (a fork cloned with
    ``clone -o upstream`` has no ``origin``)."""
    head = repo.run(["symbolic-ref", "-q", "--short", "HEAD"], ok=(0, 1)).stdout
    branch = head.decode("utf-8", "surrogateescape").strip()
    keys = ["remote.pushDefault"]
    if branch:
        keys = [f"branch.{branch}.pushRemote", *keys, f"branch.{branch}.remote"]
    remotes = repo.config_remotes()
    for key in keys:
        found = repo.config_get(key)
        if found and found in remotes:
            return found
    return remotes[0] if len(remotes) == 1 else "origin"


def sync_fetch(repo: Repository, remote: str, here: str | None = None) -> str:
    """Fetch the notes of ``remote`` (a configured remote's name, a repository's URL or
    path: :func:`~gentle_hooks.notes.where.repository`, a path relative to ``here``) and
    merge them into the local notes (line union).

    Returns:
        One line saying what happened.

    Raises:
        GitError: ``remote`` is none of those (one starting with ``-`` would be read as
            an option); the fetch or the merge failed.
    """
    target, tracking = repository(repo, remote, here)
    if not repo.fetch_ref(target, NOTES_REF, tracking):
        return f"{target} has no gentle-hooks notes yet"
    if not _has(repo, NOTES_REF):
        repo.update_ref(NOTES_REF, tracking)
        return f"took {target}'s notes (none locally)"
    repo.merge_notes(NOTES_REF, tracking)
    return f"merged {target}'s notes into {NOTES_REF}"


def _has(repo: Repository, ref: str) -> bool:
    return repo.ref_exists(ref) is not None


def sync_push(
    repo: Repository, remote: str, led: Ledger | None = None, here: str | None = None
) -> str:
    """Write the notes the ledger's commit records lack (:func:`write_missing_notes`) and
    the escalation lines notes lack (:func:`write_lacking_escalations`), merge the notes of
    ``remote`` (as :func:`sync_fetch` names it) into the local ones, then push the notes ref
    there.

    Args:
        led: this clone's ledger, or None when it has none (nothing to write).

    Raises:
        GitError: ``remote`` names no repository; fetch, merge or push failed.
    """
    target, _ = repository(repo, remote, here)
    written = write_missing_notes(repo, led) if led is not None else 0
    wrote = f"wrote {written} missing note(s); " if written else ""
    escalated = write_lacking_escalations(repo, led) if led is not None else 0
    if escalated:
        wrote += f"added escalation lines to {escalated} note(s); "
    if led is not None and (received := write_lacking_receipts(repo, led)):
        wrote += f"added receipt lines to {received} note(s); "
    fetched = sync_fetch(repo, target, here)
    if not _has(repo, NOTES_REF):
        return f"{wrote}{fetched}; no local notes to push"
    repo.push_ref(target, NOTES_REF)
    return f"{wrote}{fetched}; pushed {NOTES_REF} to {target}"
