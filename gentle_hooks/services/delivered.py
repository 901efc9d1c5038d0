"""The writer work a commit delivered, recorded when a record is bound to it (SPEC §3
"Binding", §8 "Sharing").

Room ``services``. A commit made with hooks off has no post-commit record of the writer
work it carries; a record bound to it later (``spot-check``, ``receipt``, ``verdict``
``--committed``) records that work first (:func:`take_carried_commits`), so the note
written for it (:func:`refresh_notes`) carries its writer and escalation lines and every
gate reads the same plan.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sync import refresh_for_identity
from gentle_hooks.services.attribution import carried_by_commits
from gentle_hooks.values.candidate import Candidate, Projection


def take_carried_commits(repo: Repository, led: Ledger, identities: Mapping[str, str]) -> int:
    """Record, for each commit of ``identities`` (commit id -> its candidate identity) in
    this clone, the writer entries it carries (:func:`carried_by_commits`) as taken by it,
    so its note carries its writer and escalation lines even when no hook ran at commit
    time (hooks off, ``core.hooksPath=/dev/null``): every gate reads the same plan.
    Returns how many commits carried writer work.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    infos = repo.read_commits(sorted(identities))
    if not infos:
        return 0
    taken = 0
    for commit, work in carried_by_commits(repo, led, infos).items():
        if work.delegated:
            taken += 1
            led.take_entries([e.id for e in work.entries], commit, identities[commit], "record")
    return taken


def refresh_notes(
    repo: Repository, led: Ledger, cand: Candidate, sign_key: str | None = None
) -> int:
    """:func:`~gentle_hooks.notes.sync.refresh_for_identity`, after recording the writer
    work a committed candidate's commit carries (:func:`take_carried_commits`): a record
    bound to a commit made with hooks off writes a note with its writer and escalation
    lines (SPEC §3 "Binding": escalations bind by content)."""
    if cand.projection is Projection.COMMITTED and cand.head:
        take_carried_commits(repo, led, {cand.head: cand.identity})
    return refresh_for_identity(repo, led, cand, sign_key)


def refresh_notes_kept(
    repo: Repository, led: Ledger, cand: Candidate, sign_key: str | None = None
) -> tuple[str, ...]:
    """:func:`refresh_notes` after a record was committed to the ledger: the record stands
    whatever git does next, so git failing to write the note (a full disk, a read-only
    object store, a notes ref contended too long) is a note to read, not an error that
    would report a stored record as refused.

    Returns:
        No notes, or the one saying which note was not written and why.

    Raises:
        SigningError / StoreError: as :func:`refresh_notes` (a key that cannot sign, the
            ledger itself failing).
    """
    try:
        refresh_notes(repo, led, cand, sign_key)
    except GitError as exc:
        return (
            f"the record is stored in the ledger, but git could not write the note that "
            f"shares it ({exc.message})",
        )
    return ()
