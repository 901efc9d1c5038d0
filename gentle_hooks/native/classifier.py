"""The built-in native classifier (SPEC §4): a diff's tier and reasons, as upstream gives them.

Room ``native``, pure (value types and settings in, the envelope out: no process, no file;
a monotonic clock only bounds the process scan, :mod:`gentle_hooks.native.process_scan`).
The caller gathers the inputs through the git adapter: per-path diff stats, the bytes of
the documents to prove passive (:func:`doc_blobs_to_prove`), and the added lines git
preselected for process execution.

The tier follows upstream gentle-ai's ``AssessSnapshotRisk`` (``internal/reviewtransaction/
risk.go``; ``docs/native-contract.md`` lists where a seed line rules otherwise):

* ``high`` when any change gives a signal (:data:`~gentle_hooks.native.rules.SIGNAL_ROWS`),
  or an added line of a content-scan eligible file calls a process (``process_boundary``;
  fail closed: a line over :data:`PROCESS_SCAN_LINE_LIMIT` characters, or past
  :data:`PROCESS_SCAN_SECONDS` of scanning, counts as one, see :func:`process_scan`);
* ``passive`` when every change other than a generated golden file is nominated passive by
  its name and mode and proven passive by its bytes (``non_executable_only``);
* ``medium`` otherwise, with the first change that is configuration or not passive as the
  reason (``configuration_change``, ``empty_content``, ``executable_change``).

Reasons are upstream's canonical list: sorted by code, signal and path, one per (code,
signal). Size never sets the tier; a medium candidate of ``risk.slice_budget`` changed
lines or more is ``slice_budget_reached``. An escalation passed in raises the envelope to
``high`` and appends an ``agent_escalation`` reason, as ``--escalate-item`` does upstream;
the tier before it stays :attr:`~gentle_hooks.native.result.NativeAssessment.native_risk`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.config.settings import (
    DEFAULT_PROCESS_FOLDS,
    DEFAULT_PROCESS_NEEDLES,
    DEFAULT_PROCESS_PATTERNS,
    RiskSettings,
)
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.content import is_passive_document_content
from gentle_hooks.native.pathfacts import FactCache, fact_cache, matchers
from gentle_hooks.native.process_scan import (
    PROCESS_SCAN_LINE_LIMIT,
    PROCESS_SCAN_SECONDS,
    process_hits,
    process_scan,
)
from gentle_hooks.native.result import NativeAssessment, NativeCandidate, NativeReason
from gentle_hooks.native.rules import (
    CANDIDATE,
    FALLBACK,
    NO_PATH,
    ChangeClass,
    FallbackRow,
    PathFacts,
    classify_change,
)
from gentle_hooks.values.candidate import MODE_GITLINK, MODE_NONE, PathChange
from gentle_hooks.values.frozen import frozen

__all__ = [
    "PROCESS_SCAN_LINE_LIMIT",
    "PROCESS_SCAN_SECONDS",
    "process_hits",
    "process_scan",
]

#: Bytes of documents read to prove them passive, at most; beyond, none is proven (the
#: candidate fails closed to ``medium``), as upstream's ``processBoundaryScanByteLimit``.
PASSIVE_PROOF_LIMIT = 8 << 20
#: A shebang: an added first line that starts with it is process execution.
SHEBANG = b"#!"


@functools.lru_cache(maxsize=8)
def _cached_needles(patterns: tuple[str, ...]) -> tuple[bytes, ...] | None:
    if patterns == DEFAULT_PROCESS_PATTERNS:  # what needles() reads from them (a test)
        return DEFAULT_PROCESS_NEEDLES
    from gentle_hooks.native.prefilter import needles  # only for configured patterns

    return needles(patterns)


@functools.lru_cache(maxsize=8)
def _cached_folds(patterns: tuple[str, ...]) -> bool:
    if patterns == DEFAULT_PROCESS_PATTERNS:  # what folds() reads from them (a test)
        return DEFAULT_PROCESS_FOLDS
    from gentle_hooks.native.prefilter import folds

    return folds(patterns)


def process_folds(s: RiskSettings) -> bool:
    """Whether :func:`process_needles` are to be looked for in lowercased bytes
    (:func:`gentle_hooks.native.prefilter.folds`)."""
    return _cached_folds(tuple(s.process_patterns))


def process_needles(s: RiskSettings) -> tuple[bytes, ...] | None:
    """Byte strings one of which an added line holds if :func:`process_hits` flags it
    other than as a shebang (:func:`gentle_hooks.native.prefilter.needles`), or None when the
    patterns have none: a blob holding none of them, and not starting with
    :data:`SHEBANG`, brings no process-execution hit whatever its diff."""
    return _cached_needles(tuple(s.process_patterns))


def prepare_paths(paths: Iterable[str], s: RiskSettings) -> None:
    """Learn the facts of these paths now (say, while git counts lines), so that
    :func:`doc_blobs_to_prove` and :func:`fold_changes` of changes to them only look them up."""
    fact_cache(matchers(s)).learn(paths)


def _sides(c: PathChange) -> list[tuple[str, str]]:
    """(path, blob id) of each side of a change that holds a file's bytes."""
    out = []
    if c.old_mode not in (MODE_NONE, MODE_GITLINK):
        out.append((c.old_path or c.path, c.old_oid))
    if c.new_mode not in (MODE_NONE, MODE_GITLINK):
        out.append((c.path, c.new_oid))
    return out


def _class(c: PathChange, new: PathFacts, old: PathFacts, proven: bool) -> ChangeClass:
    return classify_change(
        c.old_mode, c.new_mode, c.binary, c.mode_only, c.lines > 0, new, old, proven
    )


#: What :func:`_known` remembers of one change: the change, its class as if proven passive,
#: its path's facts, whether its added lines are scanned, the lines it counts, and the blob
#: ids :func:`doc_blobs_to_prove` asks of it (none unless it is nominated passive).
Known = tuple[PathChange, ChangeClass, PathFacts, bool, int, tuple[str, ...]]


def _known(c: PathChange, cache: FactCache) -> Known:
    """What :func:`fold_changes` reads of one change whatever the candidate: its class as if
    its bytes were proven passive, its path's facts, whether its added lines are scanned
    for process execution, and the lines it counts in ``changed_lines``. Remembered per
    change object in ``cache``: the candidates of a range share most of theirs."""
    known = cache.changes.get(id(c))
    if known is not None and known[0] is c:
        return known
    new = cache.facts(c.path)
    old = cache.facts(c.old_path) if c.old_path else NO_PATH
    counted = not c.binary and not c.mode_only
    cls = _class(c, new, old, True)
    known = (
        c,
        cls,
        new,
        new.scan and not new.generated and counted,
        c.lines if counted and not new.generated else 0,
        tuple(oid for _, oid in _sides(c)) if cls.fallback.tier == "passive" else (),
    )
    cache.changes[id(c)] = known
    return known


def doc_blobs_to_prove(changes: Sequence[PathChange], s: RiskSettings) -> list[str]:
    """Blob ids whose bytes must be read to prove the passive documents: both sides of
    every change nominated passive (by its names and modes; its bytes not yet read).

    Linear in ``changes`` with one dictionary look-up per change already classified (the
    cumulative candidates of a range share most of their change objects)."""
    cache = fact_cache(matchers(s))
    remembered = cache.changes
    out: list[str] = []
    for c in changes:
        known = remembered.get(id(c))
        if known is None or known[0] is not c:
            known = _known(c, cache)
        if known[5]:
            out.extend(known[5])
    return out


def _proven(c: PathChange, blobs: Mapping[str, bytes]) -> bool:
    for path, oid in _sides(c):
        data = blobs.get(oid)
        if data is None or not is_passive_document_content(path, data):
            return False
    return True


#: An absent side's blob id.
_NO_OID = "0" * 40
#: How far git looks for a NUL byte to call a blob binary (``FIRST_FEW_BYTES``).
_BINARY_PROBE = 8000


def rename_blobs(changes: Sequence[PathChange]) -> list[str]:
    """Blob ids :func:`upstream_stats` reads: both sides of every rename, the new side of
    every copy (gitlinks have none here)."""
    out = []
    for c in changes:
        if c.status in ("R", "C"):
            if c.status == "R" and c.old_mode not in (MODE_NONE, MODE_GITLINK):
                out.append(c.old_oid)
            if c.new_mode not in (MODE_NONE, MODE_GITLINK):
                out.append(c.new_oid)
    return out


def _line_count(data: bytes | None, mode: str) -> int | None:
    """What ``git diff --numstat`` counts for a whole blob added or deleted: its lines (a
    last line without a newline too), 1 for a gitlink, None (binary) for a blob with a NUL
    byte in its first 8000 bytes or one that could not be read."""
    if mode == MODE_GITLINK:
        return 1
    if data is None or b"\0" in data[:_BINARY_PROBE]:
        return None
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def upstream_stats(
    changes: Sequence[PathChange], blobs: Mapping[str, bytes]
) -> tuple[list[PathChange], list[AddedLine]]:
    """The changes as upstream counts them (``git diff --numstat --no-renames``): a rename
    is its old path deleted and its new path added, a copy its new path added, each with
    every line of its blob (:func:`_line_count`); then in path order (git's, by bytes).
    The other changes are kept as they are.

    Args:
        blobs: the bytes of :func:`rename_blobs`.

    Returns:
        (the changes, the lines of every added new side, to scan for process execution: in
        upstream's diff without renames each of them is an added line).
    """
    out: list[PathChange] = []
    added: list[AddedLine] = []
    for c in changes:
        if c.status not in ("R", "C") or c.old_path is None:
            out.append(c)
            continue
        binary = c.binary
        if c.status == "R":
            gone = None if binary else _line_count(blobs.get(c.old_oid), c.old_mode)
            out.append(
                PathChange(
                    c.old_path,
                    None,
                    "D",
                    c.old_mode,
                    MODE_NONE,
                    c.old_oid,
                    _NO_OID,
                    None if gone is None else 0,
                    gone,
                )
            )
        data = blobs.get(c.new_oid)
        lines = None if binary else _line_count(data, c.new_mode)
        out.append(
            PathChange(
                c.path,
                None,
                "A",
                MODE_NONE,
                c.new_mode,
                _NO_OID,
                c.new_oid,
                lines,
                None if lines is None else 0,
            )
        )
        if lines and data is not None and c.new_mode != MODE_GITLINK:
            text = data.decode("utf-8", "replace").split("\n")
            added.extend(AddedLine(c.path, i, t) for i, t in enumerate(text[:lines], start=1))
    out.sort(key=lambda c: c.path.encode("utf-8", "surrogateescape"))
    return out, added


def _detail(signal: str, old_mode: str = "", new_mode: str = "") -> str:
    """Upstream's public detail: ``signal: <signal>`` and ``mode <old> -> <new>``."""
    parts = [f"signal: {signal}"] if signal else []
    if old_mode or new_mode:
        parts.append(f"mode {old_mode} -> {new_mode}")
    return "; ".join(parts)


#: One signal a change gives: (code, signal, path, old mode, new mode); the modes only for
#: ``executable_mode``.
Signal = tuple[str, str, str, str, str]

#: What one change gives the classification of any candidate holding it
#: (:func:`contribution`): its signals, its ``medium`` fallback reason as (code, path) or
#: None, its path when its added lines are scanned for process execution or None, and the
#: lines it counts in ``changed_lines``.
Contribution = tuple[tuple[Signal, ...], tuple[str, str] | None, str | None, int]


def proof_within(blobs: Mapping[str, bytes], proof_limit: int = PASSIVE_PROOF_LIMIT) -> bool:
    """Whether the documents' bytes are few enough to prove anything passive (at most
    ``proof_limit`` bytes in all: :data:`PASSIVE_PROOF_LIMIT`)."""
    return sum(map(len, blobs.values())) <= proof_limit


def contribution(
    c: PathChange,
    blobs: Mapping[str, bytes],
    within: bool,
    s: RiskSettings,
    cache: FactCache | None = None,
) -> Contribution:
    """What change ``c`` gives the classification of a candidate holding it, whatever its
    other changes: :func:`fold_changes` folds these in the changes' order. ``blobs`` and
    ``within`` (:func:`proof_within` of the candidate's documents) are read only for a
    change nominated passive (its bytes prove it, or it is ``medium``). ``cache``: the
    settings' :func:`~gentle_hooks.native.pathfacts.fact_cache`, when the caller holds it
    (looking it up hashes the settings)."""
    cache = cache or fact_cache(matchers(s))
    # as if proven (only the passive row reads it); scanned and counted lines as
    # :func:`_known` says: not binary, not mode-only, not a generated golden file
    _, cls, new, scan, counted, _ = _known(c, cache)
    if cls.fallback.tier == "passive" and not (within and _proven(c, blobs)):
        old = cache.facts(c.old_path) if c.old_path else NO_PATH
        cls = _class(c, new, old, False)
    signals: tuple[Signal, ...] = ()
    if cls.signals:
        signals = tuple(
            (
                code,
                signal,
                c.path,
                *((c.old_mode, c.new_mode) if code == "executable_mode" else ("", "")),
            )
            for code, signal in cls.signals
        )
    medium = (cls.fallback.id, c.path) if cls.fallback.tier == "medium" else None
    return signals, medium, c.path if scan else None, counted


def proof_read(
    c: PathChange, blobs: Mapping[str, bytes], s: RiskSettings, cache: FactCache | None = None
) -> tuple[bytes | None, ...]:
    """What :func:`contribution` reads of ``blobs`` for change ``c``: the bytes of both its
    sides (None for one missing) when it is nominated passive, else nothing. Two mappings
    that give a change the same reads give it the same contribution (with the same
    ``within``)."""
    if _known(c, cache or fact_cache(matchers(s)))[1].fallback.tier != "passive":
        return ()
    return tuple(blobs.get(oid) for _, oid in _sides(c))


@frozen
class Tally:
    """The changes of a candidate folded (:func:`contribution` of each, in their order):
    what :func:`assessment` needs of them.

    Attributes:
        signals: every distinct signal of a change; fallback: the first change's
            ``medium`` reason, or None; scannable: the paths whose added lines are scanned
            for process execution; lines: changed lines counted; paths: changes counted.
    """

    signals: frozenset[Signal]
    fallback: NativeReason | None
    scannable: frozenset[str]
    lines: int
    paths: int


def tally(contributions: Iterable[Contribution], paths: int) -> Tally:
    """Fold the contributions of a candidate's ``paths`` changes, in their order."""
    signals: set[Signal] = set()
    fallback: NativeReason | None = None
    scannable: set[str] = set()
    lines = 0
    for sig, medium, scan, counted in contributions:
        signals.update(sig)
        if fallback is None and medium is not None:
            fallback = NativeReason(*medium, None)
        if scan is not None:
            scannable.add(scan)
        lines += counted
    return Tally(frozenset(signals), fallback, frozenset(scannable), lines, paths)


def fold_changes(
    changes: Sequence[PathChange], blobs: Mapping[str, bytes], s: RiskSettings, within: bool
) -> Tally:
    """The :func:`tally` of every change's :func:`contribution`, from scratch (``within``:
    :func:`proof_within` of ``blobs``)."""
    cache = fact_cache(matchers(s))
    return tally((contribution(c, blobs, within, s, cache) for c in changes), len(changes))


def assessment(
    folded: Tally,
    added: Iterable[AddedLine],
    s: RiskSettings,
    *,
    kind: str,
    base_ref: str | None,
    consumed: bool = False,
    escalation: tuple[int, str, str] | None = None,
) -> NativeAssessment:
    """Classify a candidate into the ``gentle-ai.review-assessment/v1`` envelope.

    Args:
        folded: the candidate's changes folded (:func:`fold_changes`: per-path diff stats,
            base tree -> candidate tree in git's order, with the bytes
            :func:`doc_blobs_to_prove` asked for).
        added: added lines git preselected for process execution.
        s: classifier settings.
        kind: the candidate's kind (``current-changes`` or ``base-diff``); base_ref: the
            base ref, or None.
        consumed: a review ack is recorded for this exact candidate.
        escalation: an escalation to apply, as (item number, item title, reason), or None.

    Returns:
        The envelope (module docstring): risk, reasons, changed paths and lines, candidate,
        ``review_due`` and ``review_due_reason``; never a ``next_transition`` (nothing is
        invented: seed 000).
    """
    signals = list(folded.signals)
    process = CANDIDATE["process_boundary"]
    scannable = folded.scannable
    hits = process_scan((a for a in added if a.path in scannable), s)
    for hit, _ in hits:
        signals.append((process.id, process.signal, hit.path, "", ""))
    if signals:  # first that holds: a signal, no change, a medium change, all passive
        tier = process.tier
        reasons = _canonical(signals)
        if hits and all(why for _, why in hits):
            reasons = _say_unscanned(reasons, dict((h.path, why) for h, why in reversed(hits)))
    elif not folded.paths:
        tier, reasons = _whole(FALLBACK["empty_content"], "the candidate changes nothing")
    elif folded.fallback is not None:
        tier, reasons = "medium", [folded.fallback]
    else:
        tier, reasons = _whole(FALLBACK["non_executable_only"], None)
    risk = tier
    if escalation is not None:
        number, title, why = escalation
        raised = CANDIDATE["agent_escalation"]
        risk = raised.tier
        reasons.append(NativeReason(raised.id, None, f"item {number} ({title}): {why}"))
    due, due_reason = review_due(risk, folded.lines, consumed, s.slice_budget)
    return NativeAssessment(
        risk=risk,
        reasons=tuple(reasons),
        changed_paths=folded.paths,
        changed_lines=folded.lines,
        candidate=NativeCandidate(kind=kind, base_ref=base_ref, consumed=consumed),
        review_due=due,
        review_due_reason=due_reason,
        unescalated=tier if escalation is not None else None,
    )


def _whole(row: FallbackRow, detail: str | None) -> tuple[str, list[NativeReason]]:
    """The tier and reason a fallback row gives the candidate as a whole (no path)."""
    assert row.tier is not None  # only rows that give a tier are read for a candidate
    return row.tier, [NativeReason(row.id, None, detail)]


def _say_unscanned(reasons: list[NativeReason], why: Mapping[str, str]) -> list[NativeReason]:
    """``reasons`` with the ``process_boundary`` one saying why its line was not scanned
    (when every process hit is such a line: otherwise a scanned hit stands for itself)."""
    code = CANDIDATE["process_boundary"].id
    return [
        NativeReason(r.code, r.path, f"{r.detail}; {why[r.path]}")
        if r.code == code and r.path is not None and r.path in why
        else r
        for r in reasons
    ]


def _canonical(signals: list[Signal]) -> list[NativeReason]:
    """Upstream's canonical reasons: sorted, one per (code, signal), with its detail."""
    out: list[NativeReason] = []
    seen: set[tuple[str, str]] = set()
    for code, signal, path, old_mode, new_mode in sorted(signals):
        if (code, signal) not in seen:
            seen.add((code, signal))
            out.append(NativeReason(code, path, _detail(signal, old_mode, new_mode)))
    return out


def review_due(risk: str, lines: int, consumed: bool, budget: int) -> tuple[bool, str]:
    """``review_due`` and its reason, first match wins (upstream ``reviewAssessDue``):
    consumed -> already_reviewed; high -> high_risk; medium at the slice budget ->
    slice_budget_reached; medium -> under_budget; passive -> passive."""
    if consumed:
        return False, "already_reviewed"
    if risk == "high":
        return True, "high_risk"
    if risk == "medium":
        return (True, "slice_budget_reached") if lines >= budget else (False, "under_budget")
    return False, "passive"
