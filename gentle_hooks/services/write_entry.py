"""The ledger entry of one writer write, measured from where it started (SPEC §3
"Attribution follows content", §6 "pending mutation").

Room ``services``. One place builds a :class:`~gentle_hooks.ledger.records.WriterEntryRecord`
from a write's blobs, for a work-tree write (:mod:`.attribution`) and for what a shell call
left in commits it made (:mod:`.shell_commits`).
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.ledger.records import WriterEntryRecord


def write_entry(
    root: str,
    path: str,
    blob: str | None,
    start: str | None,
    head: str | None,
    contents: Mapping[str, bytes],
) -> WriterEntryRecord:
    """The unsaved entry (``mutation_id`` 0) of the work tree ``root`` for ``path``, whose
    write left ``blob`` (None: deleted) from ``start`` (None: absent), with the keys of the
    lines it added and removed; ``contents`` maps blob ids to their bytes (a blob missing
    from it reads as absent); ``head`` the commit HEAD was at."""
    from gentle_hooks.policy.attribution import writer_delta

    before, left = (contents.get(b) if b else None for b in (start, blob))
    delta = writer_delta(before, left, detail=False)  # a record stores only keys
    return WriterEntryRecord(
        mutation_id=0,
        root=root,
        path=path,
        blob=blob,
        before_blob=start,
        head=head,
        added=tuple(sorted(delta.added)),
        removed=tuple(sorted(delta.removed)),
        binary=delta.binary,
    )
