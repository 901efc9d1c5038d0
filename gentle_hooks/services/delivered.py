"""The writer work a commit delivered: its commit record, and the work recorded when a
record is bound to it (SPEC §3 "Binding", §6 "commit record", §8 "Sharing").

Room ``services``. The recorder hooks record a commit with :func:`record_commit`; when
another process holds the ledger's write lock past the wait, :func:`spool_commit` keeps
the record in the spool instead (the next command that opens the ledger folds it in,
once per commit). A commit made with hooks off has no post-commit record of the writer
work it carries; a record bound to it later (``spot-check``, ``receipt``, ``verdict``
``--committed``) records that work first (:func:`take_carried_commits`), so the note
written for it (:func:`refresh_notes`) carries its writer and escalation lines and every
gate reads the same plan.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.errors import GitError
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import CommitRecord
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sync import refresh_for_identity
from gentle_hooks.services.attribution import Carried, carried_by_commits
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


def record_commit(
    repo: Repository,
    led: Ledger,
    info: CommitInfo,
    work: Carried,
    hook: str,
    env: Mapping[str, str],
    old: CommitRecord | None = None,
) -> CommitRecord:
    """Take the entries a commit carries and record the commit (once: an existing record
    of the commit is returned as it is).

    Args:
        info: the commit; work: the writer work it carries; hook: who records it;
        old: the record of the commit it was rewritten from, if any (carried: stale when
            the tree changed).
    """
    existing = led.commit_records([info.id])
    rec = commit_record_of(repo, info, hook, env, old)
    led.take_entries([e.id for e in work.entries], info.id, rec.identity, hook)
    if existing:
        return existing[-1]
    return led.add(rec)


def commit_record_of(
    repo: Repository,
    info: CommitInfo,
    hook: str,
    env: Mapping[str, str],
    old: CommitRecord | None = None,
) -> CommitRecord:
    """The (unsaved) commit record of ``info``: its committed candidate, recorded from this
    work tree (or the git dir) by ``hook``; ``old`` as in :func:`record_commit`."""
    from gentle_hooks.config.load import load_config
    from gentle_hooks.ledger.records import commit_record

    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    cand = repo.candidate(Projection.COMMITTED, commit=info.id, config_ref=config.settings.base_ref)
    root = repo.paths.toplevel or repo.paths.git_dir
    return commit_record(
        root,
        info.id,
        cand,
        hook,
        origin=info.id if old is None else old.origin,
        rewritten_from=None if old is None else old.commit_id,
        stale=old is not None and (old.stale or old.tree != cand.tree),
    )


def spool_commit(
    repo: Repository,
    led: Ledger,
    info: CommitInfo,
    work: Carried,
    hook: str,
    env: Mapping[str, str],
    busy: StoreError,
    old: CommitRecord | None = None,
    escalations: bool = True,
) -> str:
    """Keep the commit record :func:`record_commit` could not store behind another
    process's held write lock in the spool (:mod:`gentle_hooks.ledger.spool`), durably,
    with the entries the commit took and (``escalations``: post-commit's) its root's
    unlinked escalations, as ``record`` keeps a mutation; ``old`` as in
    :func:`record_commit`; the spool's path. The next command that opens the ledger folds
    it in (once per commit: a commit with a record already is skipped).

    Raises:
        StoreError: the spool cannot be written either, naming the system's reason and
            ``busy``'s (:func:`~gentle_hooks.ledger.sqlite_file.unspooled`).
    """
    import time

    from gentle_hooks.ledger import spool
    from gentle_hooks.ledger.rows import to_row
    from gentle_hooks.values.frozen import replace

    rec = replace(commit_record_of(repo, info, hook, env, old), recorded_at=time.time())
    line = spool.commit_line_of(to_row(rec), [e.id for e in work.entries], escalations)
    try:
        return spool.append(led.path, line)
    except OSError as exc:
        from gentle_hooks.ledger.sqlite_file import unspooled

        raise unspooled(busy, spool.spool_path(led.path), exc) from None
