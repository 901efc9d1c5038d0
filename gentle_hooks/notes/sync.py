"""Notes from the ledger, and sharing them (SPEC §8; issue 5).

Layer: service. Builds a delivered commit's note from the ledger (:mod:`gentle_hooks.notes.codec`
format), writes it under ``refs/notes/gentle-hooks`` merged with what is there, refreshes the
notes of commits whose candidate gains records later, and syncs notes with a remote. The
ledger stays the local source; the note is what others see.

Sharing: ``install --share`` adds refspecs so ordinary ``git fetch``/``git push`` carry the
notes (fetch into ``refs/notes/remotes/<remote>/gentle-hooks``, never over local notes);
``gentle-hook sync fetch|push`` merges with git's ``cat_sort_uniq`` strategy — a line union,
so two clones that add records to one commit keep both in either order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import CommitRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.codec import NOTES_REF, line, merge, render
from gentle_hooks.values.candidate import Candidate, Projection

NOTES_MESSAGE = "gentle-hooks: record verification of delivered commits"


def remote_notes_ref(remote: str) -> str:
    """Where a remote's notes are fetched to (never over the local notes)."""
    return f"refs/notes/remotes/{remote}/gentle-hooks"


def note_lines(led: Ledger, rec: CommitRecord) -> list[str]:
    """The note lines of one commit record: candidate, writers, escalations, and every
    record bound to its identity (receipts, spot checks, verdicts, review facts, overrides).
    """
    ident = rec.identity
    out = [
        line(
            "candidate",
            commit=rec.commit_id,
            identity=ident,
            base_tree=rec.base_tree,
            tree=rec.tree,
        )
    ]
    mutations, escalations = led.delivered_work([rec.origin])
    for m in mutations:
        out.append(line("writer", model=m.model, effort=m.effort, source=m.source))
    for e in escalations:
        out.append(
            line("escalation", item=e.item, slug=e.slug, reason=e.reason, critical=e.critical)
        )
    for r in led.receipts(ident):
        out.append(
            line(
                "receipt",
                identity=ident,
                command=r.command,
                observed=r.observed,
                exit_code=r.exit_code,
                output_digest=r.output_digest,
                recorded_at=r.recorded_at,
            )
        )
    for s in led.spot_checks(ident):
        out.append(
            line(
                "spot_check",
                identity=ident,
                check=s.kind,
                command=s.command,
                reported_exit=s.reported_exit,
                observed_exit=s.observed_exit,
                agreed=s.agreed,
                counts=s.counts,
                recorded_at=s.recorded_at,
            )
        )
    for v in led.verdicts(ident):
        out.append(
            line("verdict", identity=ident, verdict=json.loads(v.json), recorded_at=v.recorded_at)
        )
    for f in led.review_facts(ident):
        out.append(line("review", identity=ident, outcome=f.outcome, recorded_at=f.recorded_at))
    for o in led.overrides(ident):
        out.append(
            line(
                "override",
                identity=ident,
                hook=o.hook,
                who=o.who,
                reason=o.reason,
                missing=list(o.missing),
                target=o.target,
                recorded_at=o.recorded_at,
            )
        )
    return out


def write_commit_notes(repo: Repository, led: Ledger, records: Iterable[CommitRecord]) -> int:
    """Write (merge into) the notes of the commits of ``records``; return how many changed.

    Raises:
        GitError: git failed twice in a row (a concurrent notes writer, retried once).
    """
    lines: dict[str, list[str]] = {}
    for rec in records:
        lines.setdefault(rec.commit_id, []).extend(note_lines(led, rec))
    if not lines:
        return 0
    absorb_remote_notes(repo)
    ensure_rewrite_ref(repo)
    for attempt in (1, 2):
        current = repo.read_notes(NOTES_REF, list(lines))
        notes = {c: merge(current.get(c, b""), render(ls)) for c, ls in lines.items()}
        changed = {c: n for c, n in notes.items() if n != current.get(c)}
        try:
            repo.write_notes(NOTES_REF, changed, NOTES_MESSAGE)
            return len(changed)
        except GitError:
            if attempt == 2:
                raise
    return 0  # pragma: no cover


def ensure_rewrite_ref(repo: Repository) -> None:
    """Set ``notes.rewriteRef`` (once) so amend and rebase copy the notes. Set when notes
    are first written: naming a notes ref that does not exist yet makes git warn on every
    amend."""
    if repo.config_get("notes.rewriteRef") is None:
        repo.config_set("notes.rewriteRef", NOTES_REF)


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


def refresh_for_identity(repo: Repository, led: Ledger, cand: Candidate) -> int:
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
        records = [
            CommitRecord(
                root=root,
                commit_id=cand.head,
                identity=cand.identity,
                tree=cand.tree,
                base_tree=cand.base.tree,
                origin=cand.head,
                hook="record",
            )
        ]
    return write_commit_notes(repo, led, records) if records else 0


def add_share_refspecs(repo: Repository, remote: str) -> list[str]:
    """Add fetch and push refspecs that carry the notes with the ordinary remote.

    Fetch goes to :func:`remote_notes_ref` (forced: it mirrors the remote); push sends the
    local notes with a glob so a push works before any note exists, plus ``HEAD`` so a bare
    ``git push`` still pushes the current branch (a configured push refspec replaces
    ``push.default``). Idempotent.

    Returns:
        The ``git config`` lines added (empty when all were present).

    Raises:
        GitError: the remote does not exist.
    """
    if repo.config_get(f"remote.{remote}.url") is None:
        raise GitError(f"no remote named {remote!r} (see: git remote -v)")
    wanted = [
        (f"remote.{remote}.fetch", f"+{NOTES_REF}*:{remote_notes_ref(remote)}*"),
        (f"remote.{remote}.push", "HEAD"),
        (f"remote.{remote}.push", "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*"),
    ]
    added = []
    for key, value in wanted:
        if value not in repo.config_get_all(key):
            repo.config_add(key, value)
            added.append(f"{key} = {value}")
    return added


def sync_fetch(repo: Repository, remote: str) -> str:
    """Fetch the remote's notes and merge them into the local notes (line union).

    Returns:
        One line saying what happened.

    Raises:
        GitError: the fetch or the merge failed.
    """
    tracking = remote_notes_ref(remote)
    if not repo.fetch_ref(remote, NOTES_REF, tracking):
        return f"{remote} has no gentle-hooks notes yet"
    if not _has(repo, NOTES_REF):
        repo.update_ref(NOTES_REF, tracking)
        return f"took {remote}'s notes (none locally)"
    repo.merge_notes(NOTES_REF, tracking)
    return f"merged {remote}'s notes into {NOTES_REF}"


def _has(repo: Repository, ref: str) -> bool:
    return repo.ref_exists(ref) is not None


def sync_push(repo: Repository, remote: str) -> str:
    """Merge the remote's notes into the local ones, then push the notes ref.

    Raises:
        GitError: fetch, merge or push failed.
    """
    fetched = sync_fetch(repo, remote)
    if not _has(repo, NOTES_REF):
        return f"{fetched}; no local notes to push"
    repo.push_ref(remote, NOTES_REF)
    return f"{fetched}; pushed {NOTES_REF} to {remote}"
