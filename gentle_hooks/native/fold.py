"""The built-in classifier's answer folded candidate by candidate (SPEC §4 ``builtin``).

Room ``native``, pure but for what it remembers: :class:`Folding` keeps the last
candidate's changes folded (:class:`~gentle_hooks.native.classifier.Tally`) and updates
them by the next candidate's own delta; the per-change answers come from
:func:`gentle_hooks.native.classifier.contribution`. Used by
:mod:`gentle_hooks.native.builtin`.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from collections.abc import Mapping, Sequence

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.native.classifier import (
    Contribution,
    Signal,
    Tally,
    contribution,
    fold_changes,
    proof_read,
    proof_within,
)
from gentle_hooks.native.pathfacts import FactCache, fact_cache, matchers
from gentle_hooks.native.result import NativeReason
from gentle_hooks.values.candidate import PathChange


class Folding:
    """The changes of the last candidate classified, folded (:class:`Tally`), and updated
    change by change for the next: the candidates of a push or a range share most of their
    change objects (:meth:`~gentle_hooks.git.diff.Diffs.compose_stats`), so each change's
    :func:`~gentle_hooks.native.classifier.contribution` is computed once and a candidate
    costs its own delta. :meth:`tally` equals
    :func:`~gentle_hooks.native.classifier.tally` of every change's contribution, in order.

    A change is known by its object (held, so its ``id`` is not reused). Its contribution
    reads the documents' bytes only when it is nominated passive
    (:func:`~gentle_hooks.native.classifier.proof_read`): a held change that would read
    other bytes now (a blob missing from one candidate's documents and not another's) is
    folded again, and a candidate whose documents pass the proof limit where the last
    one's did not (or the other way round) is tallied from scratch.
    """

    def __init__(self) -> None:
        self.last: tuple[Sequence[PathChange], Mapping[str, bytes], RiskSettings] | None = None
        self.risk: RiskSettings | None = None
        self.within = False
        self.held: dict[int, PathChange] = {}
        self.parts: dict[int, Contribution] = {}
        self.signals: Counter[Signal] = Counter()
        self.scannable: Counter[str] = Counter()
        self.medium: dict[int, tuple[str, str]] = {}
        #: what a change nominated passive read of the documents' bytes (:func:`proof_read`)
        self.reads: dict[int, tuple[bytes | None, ...]] = {}
        self.lines = 0

    def tally(
        self, changes: Sequence[PathChange], blobs: Mapping[str, bytes], risk: RiskSettings
    ) -> Tally:
        """The :class:`Tally` of a candidate's ``changes`` (in git's order), its documents'
        ``blobs`` as :func:`~gentle_hooks.native.classifier.fold_changes` takes them."""
        within = proof_within(blobs)
        order = dict(zip(map(id, changes), itertools.count(), strict=False))
        if len(order) != len(changes):  # one object twice: nothing to fold from or onto
            self.risk = self.last = None
            return fold_changes(changes, blobs, risk, within)
        last, self.last = self.last, (changes, blobs, risk)
        if self.risk is None or self.risk != risk or self.within != within:
            if last is None or last[2] != risk or proof_within(last[1]) != within:
                self.risk = None  # nothing to start from: the first candidate costs its size
                return fold_changes(changes, blobs, risk, within)
            self._reset(risk, within, last[0], last[1])
        gone = self.held.keys() - order.keys()
        new = order.keys() - self.held.keys()
        if len(gone) + len(new) > len(changes):  # little in common: from scratch is cheaper
            self._reset(risk, within, changes, blobs)
        else:
            # a document's bytes read otherwise (missing here, present there): again
            held, reads, cache = self.held, self.reads.items(), fact_cache(matchers(risk))
            gone |= {k for k, read in reads if proof_read(held[k], blobs, risk, cache) != read}
            new |= gone & order.keys()
            for key in gone:
                self._drop(key)
            objects = dict(zip(map(id, changes), changes, strict=True))
            for key in new:
                self._add(objects[key], blobs, cache)
        first = min(self.medium, key=order.__getitem__) if self.medium else None
        return Tally(
            frozenset(self.signals),
            None if first is None else NativeReason(*self.medium[first], None),
            frozenset(self.scannable),
            self.lines,
            len(changes),
        )

    def _reset(
        self,
        risk: RiskSettings,
        within: bool,
        changes: Sequence[PathChange],
        blobs: Mapping[str, bytes],
    ) -> None:
        self.risk, self.within = risk, within
        self.held, self.parts, self.medium, self.reads = {}, {}, {}, {}
        self.signals, self.scannable, self.lines = Counter(), Counter(), 0
        cache = fact_cache(matchers(risk))
        for c in changes:
            self._add(c, blobs, cache)

    def _add(self, c: PathChange, blobs: Mapping[str, bytes], cache: FactCache) -> None:
        assert self.risk is not None
        part = contribution(c, blobs, self.within, self.risk, cache)
        key = id(c)
        self.held[key], self.parts[key] = c, part
        read = proof_read(c, blobs, self.risk, cache)
        if read:
            self.reads[key] = read
        signals, medium, scan, counted = part
        if signals:
            self.signals.update(signals)
        if medium is not None:
            self.medium[key] = medium
        if scan is not None:
            self.scannable[scan] += 1
        self.lines += counted

    def _drop(self, key: int) -> None:
        signals, medium, scan, counted = self.parts.pop(key)
        del self.held[key]
        self.reads.pop(key, None)
        for signal in signals:
            self.signals[signal] -= 1
            if not self.signals[signal]:
                del self.signals[signal]
        if medium is not None:
            del self.medium[key]
        if scan is not None:
            self.scannable[scan] -= 1
            if not self.scannable[scan]:
                del self.scannable[scan]
        self.lines -= counted


#: Each thread's :class:`Folding` (the push gate may judge commits on threads).
_FOLDINGS = threading.local()


def folding() -> Folding:
    """This thread's :class:`Folding`."""
    found: Folding | None = getattr(_FOLDINGS, "folding", None)
    if found is None:
        found = _FOLDINGS.folding = Folding()
    return found
