"""Writer work that ended and comes back (SPEC §3 "Attribution follows content": content
decides, so expired work whose content a change holds again is the writer's again; a
human's change is never blocked or labelled AI work).

Room ``services``. :func:`~gentle_hooks.services.attribution.carried_by_change` reads, beside
the live entries, the expired ones a change may bring back:

* :func:`expired_back` — those whose writer blob is a new blob of a change (a dropped stash
  restored), and, for :data:`~gentle_hooks.policy.distinctive.EXPIRED_LINES_DAYS` days
  after the write, those of a changed path (their lines may be re-applied);
* :func:`back_row` — the row by which a change of such a path brings the work back;
* :func:`common_blobs` — the new contents that bring no expired work back: too short or
  common to tell who wrote them (:func:`~gentle_hooks.policy.wholefile.identifies_writer`),
  as the server and CI read a blob a note lists. A person who types a template's
  ``.gitattributes`` again after the writer's edit of it expired types the writer's blob,
  or its exact hunk: every gate reads it as nobody's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger

TYPE_CHECKING = False  # the policy types below are for annotations only
if TYPE_CHECKING:
    from gentle_hooks.policy.attribution import PathChange, WriterEntry


def expired_back(
    led: Ledger, changes: Mapping[str, Sequence[BlobChange]], paths: Sequence[str], now: float
) -> tuple[list[WriterEntryRecord], list[WriterEntryRecord]]:
    """(the expired entries whose writer blob is a new blob of ``changes``, the other
    expired entries of ``paths`` whose lines still count at ``now``:
    :func:`~gentle_hooks.policy.distinctive.lines_still_count`). A mode change's entry
    never: its blob is ``HEAD``'s, never gone.

    Raises:
        StoreError: the ledger cannot be read.
    """
    new = sorted({c.new_blob for cs in changes.values() for c in cs if c.new_blob})
    back = [e for e in led.expired_entries_of_blobs(new) if e.blob != e.before_blob]
    lines = [e for e in led.expired_entries_of_paths(paths) if e.blob != e.before_blob]
    lines = [e for e in lines if e.id not in {b.id for b in back}]
    if lines:  # imported here: the pass path reads no expired lines
        from gentle_hooks.policy.distinctive import lines_still_count

        lines = [e for e in lines if lines_still_count(e.recorded_at, now)]
    return back, lines


def common_blobs(contents: Mapping[str, bytes]) -> frozenset[str]:
    """The blob ids of ``contents`` too short or common to tell who wrote them
    (:func:`~gentle_hooks.policy.wholefile.identifies_writer` is False): a change to one
    brings no expired writer work back."""
    if not contents:  # no expired work to come back: the pass path imports no line rules
        return frozenset()
    from gentle_hooks.policy.wholefile import identifies_writer

    return frozenset(b for b, data in contents.items() if not identifies_writer(data))


def back_row(change: PathChange, rule: WriterEntry, contents: Mapping[str, bytes]) -> str:
    """The row by which ``change`` of an expired entry's path brings the writer's work
    back: ``A2`` when it adds one of its distinctive lines
    (:func:`~gentle_hooks.policy.distinctive.brought_back`), ``A3`` when it makes the
    writer's exact hunk again or removes a distinctive line the writer removed the way it
    removed it (:func:`~gentle_hooks.policy.distinctive.hunk_back`,
    :func:`~gentle_hooks.policy.distinctive.removed_again`: a human makes them alike, a
    ``discard`` claims them; never in a rewrite of the file, row A9); ``""``: neither.
    ``contents``: the blobs read, the entry's among them (an entry whose start is unknown
    or unread has no removal to match)."""
    from gentle_hooks.policy.attribution import UNKNOWN_BEFORE, is_rewrite
    from gentle_hooks.policy.distinctive import (
        brought_back,
        closed_gaps,
        hunk_back,
        removed_again,
    )

    d = rule.delta
    if brought_back(change.old, change.new, d.added | d.telling):
        return "A2"
    if is_rewrite(change, d):  # a person's own version of the file (row A9)
        return ""
    if hunk_back(change.old, change.new, d.edited(), d.placed):
        return "A3"
    ends = (rule.before, rule.blob)
    if rule.before == UNKNOWN_BEFORE or any(b is not None and b not in contents for b in ends):
        return ""
    closed = closed_gaps(*(contents[b] if b else None for b in ends))
    return "A3" if removed_again(change.old, change.new, d.removed | d.told, closed) else ""
