"""A write a person modified before the tool wrote it, measured so that only the model's
surviving lines are the writer's (SPEC §3 "Attribution follows content", §6 "pending
mutation"; :mod:`.mutation` records it).

Room ``services``. :func:`confined` re-measures the entries
:func:`~gentle_hooks.services.attribution.entries_for_write` made from
:func:`~gentle_hooks.policy.proposal.person_start`.
"""

from __future__ import annotations

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.policy.attribution import writer_delta
from gentle_hooks.policy.proposal import person_start
from gentle_hooks.values.frozen import replace


def confined(
    repo: Repository, entries: list[WriterEntryRecord], proposed: bytes, edited: bytes
) -> list[WriterEntryRecord]:
    """``entries`` of a write a person modified before the tool wrote it, each measured
    from :func:`~gentle_hooks.policy.proposal.person_start` (stored as a blob, so the rule
    recomputes the same delta): its delta holds only the model's lines that survive in the
    file, every new line but the ones the person's ``edited`` version added. An entry of
    which nothing survives is left out; a deletion or a binary side is kept whole (the
    writer's content cannot be told from the person's there: fail closed)."""
    if not entries:
        return entries
    blobs = sorted({b for e in entries for b in (e.blob, e.before_blob) if b})
    contents = repo.read_blobs(blobs)
    out = []
    for rec in entries:
        written = contents.get(rec.blob) if rec.blob else None
        start = contents.get(rec.before_blob) if rec.before_blob else None
        if written is None or rec.binary or (rec.before_blob and start is None):
            out.append(rec)
            continue
        base = person_start(start, written, proposed, edited)
        if base == written:
            continue
        delta = writer_delta(base, written, detail=False)
        out.append(
            replace(
                rec,
                before_blob=repo.write_blob(base),
                added=tuple(sorted(delta.added)),
                removed=tuple(sorted(delta.removed)),
            )
        )
    return out
