"""A record that repeats an earlier one (SPEC §6 "pending mutation": a replay records
once): the same tool call replayed, the generic ``record`` retried with nothing written
since, or a new write that merely looks like one recorded already.

Room ``services``. :func:`~gentle_hooks.services.mutation.record_mutation` asks these
before it stores a mutation: :func:`is_new_call` (a derived tool call id met again: a
replay, or another call of the same fields), :func:`same_write` (the generic record
repeated), :func:`reset_starts` (the generic record of content a ``git reset`` threw away
and the writer wrote again: a new write, SPEC §3 "Attribution follows content"), and the
notes that say nothing was recorded again.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import ENDED_STATES, PendingMutation, WriterEntryRecord
from gentle_hooks.policy.replacement import replaced_again_from
from gentle_hooks.services.settle import delivered_left_out, returned_ids

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.ledger.store import Ledger


def ended_derived(repo: Repository, led: Ledger, earlier: PendingMutation) -> bool:
    """Whether a call whose id matches ``earlier``'s is a new call rather than a replay:
    the id is derived (``derived:``: a runtime that names no tool call, its id made from
    the call's fields) and every entry ``earlier`` recorded has ended (settled, expired or
    discarded), or has been delivered whole by pushed commits (it ends now as ``settled``:
    :func:`~gentle_hooks.services.settle.delivered_left_out`; the ledger learns of a push
    only when a command next looks). A runtime's own id names one call; a derived one
    names every call with the same fields, and a replay arrives while the first call's
    work is still live.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read or written.
    """
    if not (earlier.tool_call_id or "").startswith("derived:"):
        return False
    entries = led.entries_of_mutation(earlier.id)
    live = [e for e in entries if e.state not in ENDED_STATES]
    return bool(entries) and not (live and delivered_left_out(repo, led, live))


def is_new_call(
    repo: Repository,
    led: Ledger,
    earlier: PendingMutation,
    replacements: tuple[tuple[str, str], ...],
    paths: tuple[str, ...],
) -> bool:
    """Whether a call whose id matches ``earlier``'s is another call: a later call of the
    same derived id was recorded (the next one is judged then), :func:`ended_derived`, or
    :func:`repeated_edit`, whose ``replacements`` are the call's
    (:attr:`~gentle_hooks.services.mutation.MutationRequest.replacements`).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read or written.
    """
    if not (earlier.tool_call_id or "").startswith("derived:"):
        return False
    later = f"{earlier.tool_call_id}+{earlier.id}"
    return (
        led.mutation_for_call(earlier.source, earlier.session_id, later) is not None
        or ended_derived(repo, led, earlier)
        or repeated_edit(repo, led, earlier, replacements, paths) is not None
    )


def repeated_edit(
    repo: Repository,
    led: Ledger,
    earlier: PendingMutation,
    replacements: tuple[tuple[str, str], ...],
    paths: tuple[str, ...],
) -> str | None:
    """Whether a call with ``earlier``'s derived id is the same edit made once more (two
    identical replacements in one generation: Cursor, Kiro, Augment): ``earlier`` recorded
    one live entry, of the one path written now, and that path now holds what the entry
    recorded with ``replacements`` applied once more, after a person's edits between the
    two calls or not (:func:`~gentle_hooks.policy.replacement.replaced_again_from`). The
    file as the entry left it is a replay; any other content (a person's edit alone, or
    one the replacements do not explain in lines of their own) is not explained by the
    call, and is never recorded as the writer's: a replay too.

    Returns:
        The content the replacements were made in once more (what the entry recorded, or
        the file as the person left it), from which the new call is measured; None when
        the call is not the same edit made once more.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    if not replacements:
        return None
    entries = [e for e in led.entries_of_mutation(earlier.id) if e.state not in ENDED_STATES]
    if len(entries) != 1 or entries[0].blob is None or paths != (entries[0].path,):
        return None
    recorded = entries[0].blob
    now = repo.hash_worktree(paths).get(paths[0])
    if now is None or now == recorded:
        return None
    contents = repo.read_blobs([recorded, now])
    try:
        before = contents[recorded].decode("utf-8")
        after = contents[now].decode("utf-8")
    except (KeyError, UnicodeDecodeError):  # a blob gone, or not text: no edit explains it
        return None
    return replaced_again_from(before, after, replacements)


def same_write(
    earlier: PendingMutation, rec: PendingMutation, repo: Repository, led: Ledger
) -> bool:
    """Whether ``rec`` is ``earlier`` again: the same writer (model, effort, source,
    session), the same paths, and each path that ``earlier`` attributed still holds the
    blob it recorded (the caller checked that no path differs from where it started)."""
    fields = ("model", "effort", "source", "session_id", "paths")
    if not all(getattr(earlier, f) == getattr(rec, f) for f in fields):
        return False
    wrote = {
        e.path: e.blob for e in led.open_entries(rec.root, rec.paths) if e.mutation_id == earlier.id
    }
    now = repo.hash_worktree(sorted(wrote)) if wrote else {}
    return all(now.get(path) == blob for path, blob in wrote.items())


def reset_starts(
    repo: Repository,
    led: Ledger,
    root: str,
    paths: Sequence[str],
    entries: Sequence[WriterEntryRecord],
) -> tuple[tuple[str, str | None], ...]:
    """Where the generic ``record`` (no runtime hands the file before the write) measures
    each of ``paths`` that got none of ``entries`` from, when the writer wrote again what a
    ``git reset`` threw away: ``(path, HEAD's blob there)`` (None: ``HEAD`` lacks it) for
    each path whose open entry of the work tree ``root`` a reset threw away since it was
    recorded, the file written since (:func:`~gentle_hooks.services.settle.returned_ids`).
    Measured from the writer's last write, that content differs from nothing and the
    record was taken for a retry (:func:`same_write`), though the write started from the
    file the reset put back; measured from it, the write is recorded and gated, never left
    to a person's ``discard``. Empty when no such path (a record repeated with nothing
    thrown away between stays one write). One ``reflog`` read at most, one tree read.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    have = {e.path for e in entries}
    missing = [p for p in paths if p not in have]
    live = [e for e in led.open_entries(root, missing) if e.state == "open"] if missing else []
    back = {e.path for e in live if e.id in returned_ids(live, repo)}
    if not back:
        return ()
    head = repo.head()
    at_head = dict(repo.blobs_in(repo.tree_of(head), sorted(back))) if head else {}
    return tuple((p, at_head.get(p)) for p in sorted(back))


def retry_note(earlier: PendingMutation) -> str:
    """The note of a record repeated with nothing written since: nothing was added."""
    return (
        f"already recorded (mutation #{earlier.id}): the same writer and paths, nothing "
        "written since; nothing was recorded again"
    )


def replay_note(earlier: PendingMutation) -> str:
    """The note of a replayed tool call: it was recorded already, nothing was added."""
    return (
        f"tool call {earlier.tool_call_id} of {earlier.source or 'an unnamed source'} is "
        f"recorded already (mutation #{earlier.id}): nothing was recorded again"
    )
