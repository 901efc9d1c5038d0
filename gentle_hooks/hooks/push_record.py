"""The push gate records a writer's commit no hook recorded (SPEC §3 "Attribution follows
content", §7 "Hooks", §8 "verify rather than believe").

Room ``hooks``. A commit made with hooks off (``git -c core.hooksPath=/dev/null commit``)
that carries writer work has no commit record and no note: the pre-push gate blocks
it from its content, but a server gate reads notes. So the push gate records it as
post-commit would (:func:`~gentle_hooks.services.delivered.record_commit`: its entries
taken, the commit recorded, its note written under ``refs/notes/gentle-hooks``) before it
reports, and the shared notes carry its writer on the next push that sends them. Only a
commit the pushing work tree's ``HEAD`` holds is recorded (one made in another worktree
is judged by where the gate runs, SPEC §3's fallback, and recorded by a push from there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.hooks.outcome import say
from gentle_hooks.report.text import short
from gentle_hooks.services.attribution import NOTHING

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.objects import CommitInfo
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import CommitRecord
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.services.attribution import Carried


def unrecorded(
    infos: Sequence[CommitInfo],
    work: Mapping[str, Carried],
    records: Mapping[str, Sequence[CommitRecord]],
) -> list[CommitInfo]:
    """The commits of ``infos`` that carry writer work and have no commit record: made
    with hooks off. Work another commit took counts too, as post-commit records it: the
    writer's commit undone (``reset --soft``) and its content committed again with hooks
    off carries entries the orphaned commit took."""
    return [i for i in infos if i.id not in records and work.get(i.id, NOTHING).delegated]


def record_pushed(
    repo: Repository,
    path: str,
    infos: Sequence[CommitInfo],
    work: Mapping[str, Carried],
    env: Mapping[str, str],
    say: Callable[[str], None] = say,
) -> None:
    """Record each of ``infos`` (:func:`unrecorded`) with the work it carries and write
    their notes. Writer content that went away and came back
    (:func:`~gentle_hooks.services.settle.returned_ids`) is not taken: it may be a person's
    typing, which the ``discard`` the block offers claims; a commit carrying only such
    content is not recorded here (a record bound to it later, ``spot-check --committed``,
    takes it as the writer's). One line per commit recorded is said with ``say`` (the push gate's
    :meth:`~gentle_hooks.hooks.outcome.Told.say`: with ``GENTLE_HOOKS_FORMAT=json`` the
    lines are in its decision object, never beside it). Behind another process's write
    lock nothing is recorded (one line: the next push records them).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    if not infos:
        return
    from gentle_hooks.ledger.sqlite_file import StoreError
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import write_commit_notes
    from gentle_hooks.services.delivered import record_commit

    work = without_returned(repo, {i.id: work[i.id] for i in infos})
    infos = [i for i in infos if work[i.id].delegated]
    if not infos:
        return
    try:
        with Ledger.open(path) as led:
            recs = [record_commit(repo, led, i, work[i.id], "pre-push", env) for i in infos]
            write_commit_notes(repo, led, recs)
    except StoreError as exc:
        if not exc.busy:
            raise
        say(
            "another process holds the ledger's write lock: commits made with hooks off are "
            "recorded by the next push"
        )
        return
    for info in infos:
        c = work[info.id]
        say(
            f"recorded {short(info.id)} as delegated ({', '.join(c.writers())}): made with "
            "hooks off, its note now names its writer"
        )


def without_returned(repo: Repository, work: Mapping[str, Carried]) -> dict[str, Carried]:
    """``work`` (commit id -> the writer work it carries) without the entries whose writer
    content went away and came back (:func:`~gentle_hooks.services.settle.returned_ids`:
    expired, or reset away and written again since).

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.services.settle import returned_ids

    back = returned_ids([e for c in work.values() for e in c.entries], repo)
    return {commit: _without(c, back) for commit, c in work.items()}


def left_to_discard(
    repo: Repository, led: Ledger, work: Carried, identity: Callable[[], str]
) -> Carried:
    """What a commit being made (prepare-commit-msg's trailer) or just made (post-commit's
    take) counts as the writer's of ``work``, the writer work it carries: all of it, unless
    some is this clone's open work a ``git reset`` threw away and whose file was written
    again since (:func:`~gentle_hooks.services.settle.returned_ids`) and no spot check is
    recorded for its candidate (``identity``, computed only then); that content is then
    left pending, no trailer and no take, as the push gate leaves it for a commit made
    with hooks off. Neither hook can tell whether the commit gate ran (``git commit
    --no-verify`` skips it, both still run): a spot check of this exact candidate says the
    parent judged it the writer's work; with none, it may be a person's typing, which the
    ``discard`` the push block offers claims (issue 13). Expired work brought back (a patch
    applied again) keeps its trailer and is taken, as before.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.services.settle import returned_ids

    back = returned_ids(work.entries, repo)
    reset = frozenset(e.id for e in work.entries if e.id in back and e.state == "open")
    if not reset or led.spot_checks(identity()):
        return work
    return _without(work, reset)


def _without(c: Carried, ids: frozenset[int]) -> Carried:
    """``c`` without the entries of ``ids``, and without the writers and escalations only
    those had (no trailer names work left out)."""
    from gentle_hooks.services.attribution import Carried

    if not ids & {e.id for e in c.entries}:
        return c
    entries = tuple(e for e in c.entries if e.id not in ids)
    made = {e.mutation_id for e in entries}
    paths = {e.path for e in entries}
    return Carried(
        entries,
        tuple(m for m in c.mutations if m.id in made),
        c.escalations if entries else (),
        c.by_shape,
        c.claimable,
        tuple(h for h in c.held_at if h[0] in paths),
        c.claimed_at,
    )
