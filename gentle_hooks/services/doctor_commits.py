"""Delivered writer commits without a commit record, for ``doctor`` (SPEC §6 "commit
record", §8): found, and recorded by ``doctor --fix``.

Room ``services``. A post-commit hook that could not record its commit (the ledger's
write lock held past the wait and the spool unwritable, a full disk, a SIGKILL between
taking the writer's entries and adding the record) leaves a commit that delivered writer
work with no commit record and no note: the CI and server gates then cannot see it was
verified. The commit itself says what was delivered, so the record is derived again from
it (:func:`record_unrecorded`), as post-commit would have written it.
"""

from __future__ import annotations

import os

from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.store import Ledger

#: Commits of ``HEAD``'s history on no remote-tracking ref that the check reads at most
#: (the newest): pushed commits were judged by the push gate already.
MAX_COMMITS = 200
#: The trailer prepare-commit-msg adds to a commit that carries writer content.
WRITER_TRAILER = "Gentle-Writer:"


def unrecorded_commits(repo: Repository, led: Ledger) -> list[CommitInfo]:
    """Commits of ``HEAD``'s history on no remote-tracking ref (the newest
    :data:`MAX_COMMITS`) that delivered writer work and have no commit record, oldest
    first. A commit delivered writer work when its message carries a ``Gentle-Writer``
    trailer or it carries writer content the ledger recorded (entries still open, or taken
    by it: :func:`~gentle_hooks.services.attribution.carried_by_commits`).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.attribution import carried_by_commits

    head = repo.head()
    if head is None:
        return []
    ids = repo.new_commits(head, remote="")[-MAX_COMMITS:]
    recorded = {r.commit_id for r in led.commit_records(ids)}
    infos = repo.read_commits([c for c in ids if c not in recorded])
    if not infos:
        return []
    carried = carried_by_commits(repo, led, infos)
    return [i for i in infos if carried[i.id].delegated or has_writer_trailer(i.message)]


def has_writer_trailer(message: str) -> bool:
    """Whether a commit message holds a ``Gentle-Writer:`` trailer line."""
    return any(line.startswith(WRITER_TRAILER) for line in message.splitlines())


def record_unrecorded(cwd: str | None) -> list[str]:
    """``doctor --fix``: record each commit :func:`unrecorded_commits` finds as post-commit
    would have (the writer entries it carries taken by it, a commit record by ``doctor``),
    then write the note of every recorded commit in this clone that lacks one
    (:func:`~gentle_hooks.notes.sync.write_missing_notes`); the lines saying what was done.
    Nothing without a ledger.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.errors import GentleError
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.notes.sync import write_missing_notes
    from gentle_hooks.services.attribution import carried_by_commits
    from gentle_hooks.services.delivered import record_commit

    repo = Repository.open(cwd, allow_bare=True)
    path = ledger_path(repo.paths.common_dir)
    if repo.paths.is_bare or not os.path.isfile(path):
        return []
    try:
        with Ledger.open(path) as led:
            missing = unrecorded_commits(repo, led)
            carried = carried_by_commits(repo, led, missing)
            recs = [
                record_commit(repo, led, info, carried[info.id], "doctor", os.environ)
                for info in missing
            ]
            # these, and commits recorded before whose note was never written (a record
            # folded in from the spool: its hook could not write the note)
            notes = write_missing_notes(repo, led)
    except GentleError as exc:
        return [f"could not record the delivered writer commits: {exc.message}"]
    out = [f"recorded delivered writer commit {r.commit_id[:12]}" for r in recs]
    return out + ([f"wrote {notes} missing note(s) of recorded commits"] if notes else [])
