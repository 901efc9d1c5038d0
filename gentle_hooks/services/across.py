"""Which writer entries a change of *another* path may carry (SPEC §3 "Attribution follows
content": a rename or a copy of the writer's content).

Room ``services``. :class:`AcrossIndex` indexes the entries by the writer's blob and by the
lines it added, so each change is compared (by
:func:`gentle_hooks.policy.attribution.carries_row_across`) only with the entries it shares a
blob or an introduced line with: a change of thousands of paths against thousands of entries
stays linear in their sizes, not their product.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.policy.attribution import MIN_ACROSS, PathChange, WriterEntry
from gentle_hooks.policy.linekeys import any_line_keys


class AcrossIndex:
    """The entries other paths may carry, by blob and by added line.

    Args:
        entries: the live text entries, in the order answers keep.
        rules: each entry's policy view (its blob and its writer delta), by entry id.
    """

    def __init__(
        self, entries: Iterable[WriterEntryRecord], rules: Mapping[int, WriterEntry]
    ) -> None:
        self._by_blob: dict[str, list[WriterEntryRecord]] = {}
        self._by_line: dict[str, list[WriterEntryRecord]] = {}
        self._order: dict[int, int] = {}
        for position, rec in enumerate(entries):
            self._order[rec.id] = position
            rule = rules[rec.id]
            if rule.blob is not None:
                self._by_blob.setdefault(rule.blob, []).append(rec)
            if len(rule.delta.added) >= MIN_ACROSS:  # fewer can never carry across paths
                for line in rule.delta.added:
                    self._by_line.setdefault(line, []).append(rec)

    def candidates(self, change: PathChange) -> list[WriterEntryRecord]:
        """The entries of other paths whose blob is ``change``'s new blob or that added a line
        it introduces, each once, in the order given at construction; the caller decides
        with the policy row."""
        seen: dict[int, WriterEntryRecord] = {}
        if change.new_blob is not None:
            for rec in self._by_blob.get(change.new_blob, ()):
                if rec.path != change.path:
                    seen.setdefault(rec.id, rec)
        if self._by_line and change.new is not None:
            for line in any_line_keys(change.new) - any_line_keys(change.old):
                for rec in self._by_line.get(line, ()):
                    if rec.path != change.path:
                        seen.setdefault(rec.id, rec)
        return sorted(seen.values(), key=lambda r: self._order[r.id])
