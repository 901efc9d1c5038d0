"""The built-in native classifier (SPEC §4): the diff's native tier, with its reasons.

Layer: native, pure (value types and settings in, the envelope out: no process, no file,
no clock). The caller gathers the inputs through the git adapter: per-path diff stats, the
bytes of the documentation files to prove, and the added lines git preselected for process
execution.

Tiers: each changed path gets the first row of the path-rule table that holds
(:data:`gentle_hooks.native.rules.PATH_RULES`, over :mod:`gentle_hooks.native.pathfacts`):
``passive`` when every changed path is documentation proven by its bytes and none is an
agent-instruction file; ``high`` for a hot-path token in a path, a shell script, a CI
workflow or gate configuration file, an exec-bit flip (or a new executable file), or
process execution in the added lines; ``medium`` for everything else. Size never sets the
tier.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.pathfacts import fact_cache, matchers, path_facts
from gentle_hooks.native.prefilter import needles
from gentle_hooks.native.result import NativeAssessment, NativeCandidate, NativeReason
from gentle_hooks.native.rules import NO_PATH, PathClass, classify_change
from gentle_hooks.values.candidate import PathChange

_ORDER = {"passive": 0, "medium": 1, "high": 2}
#: High reasons listed one by one up to this count; the rest are summarised in one line.
MAX_HIGH_REASONS = 50


def prepare_paths(paths: Iterable[str], s: RiskSettings) -> None:
    """Learn the facts of these paths now (say, while git counts lines), so that
    :func:`doc_blobs_to_prove` and :func:`classify` of changes to them only look them up."""
    fact_cache(matchers(s)).learn(paths)


def doc_blobs_to_prove(changes: Sequence[PathChange], s: RiskSettings) -> list[str]:
    """Blob ids whose bytes must be read to prove documentation (deleted docs: old blob)."""
    cache = fact_cache(matchers(s))
    oids = []
    for c in changes:
        if cache.facts(c.path).doc and not c.submodule:
            oids.append(c.old_oid if c.status == "D" else c.new_oid)
    return oids


def classify_path(c: PathChange, blobs: Mapping[str, bytes], s: RiskSettings) -> PathClass:
    """Classify one changed path (before process-execution lines are considered), its facts
    computed one by one (:func:`~gentle_hooks.native.pathfacts.path_facts`)."""
    m = matchers(s)
    old = path_facts(c.old_path, m) if c.old_path else NO_PATH
    return classify_change(c, path_facts(c.path, m), old, blobs)


#: A shebang: an added first line that starts with it is process execution.
SHEBANG = b"#!"


@functools.lru_cache(maxsize=8)
def _cached_needles(patterns: tuple[str, ...]) -> tuple[bytes, ...] | None:
    return needles(patterns)


def process_needles(s: RiskSettings) -> tuple[bytes, ...] | None:
    """Byte strings one of which an added line holds if :func:`process_hits` flags it
    other than as a shebang (:func:`gentle_hooks.native.prefilter.needles`), or None when the
    patterns have none: a blob holding none of them, and not starting with
    :data:`SHEBANG`, brings no process-execution hit whatever its diff."""
    return _cached_needles(tuple(s.process_patterns))


def process_hits(lines: Iterable[AddedLine], s: RiskSettings) -> list[AddedLine]:
    """Added lines that execute a process: a shebang on line 1, or a process call."""
    patterns: list[re.Pattern[str]] = []
    hits = []
    for line in lines:
        if not patterns:  # compiled on the first line: most candidates bring none to scan
            patterns = [re.compile(p) for p in s.process_patterns]
        if (line.line == 1 and line.text.startswith("#!")) or any(
            p.search(line.text) for p in patterns
        ):
            hits.append(line)
    return hits


def classify(
    changes: Sequence[PathChange],
    blobs: Mapping[str, bytes],
    added: Iterable[AddedLine],
    s: RiskSettings,
    *,
    kind: str,
    base_ref: str | None,
    consumed: bool | None = None,
) -> NativeAssessment:
    """Classify a candidate's diff into the ``gentle-ai.review-assessment/v1`` envelope.

    Args:
        changes: per-path diff stats (base tree -> candidate tree).
        blobs: blob id -> bytes for the ids :func:`doc_blobs_to_prove` asked for.
        added: added lines of the files git preselected for process execution.
        s: classifier settings.
        kind: the candidate's projection (``committed``...); base_ref: its base ref.
        consumed: a review ack recorded for this exact candidate (builtin
            ``candidate.consumed``), or None when unknown.

    Returns:
        The envelope: risk, reasons (every tier carries them), changed paths and lines,
        candidate, ``review_due`` and ``review_due_reason``.
    """
    high: list[NativeReason] = []
    groups: dict[tuple[str, str], list[str]] = {}
    tier = "passive"
    facts = fact_cache(matchers(s)).facts
    lines = 0
    for c in changes:
        new = facts(c.path)
        old = c.old_path
        pc = classify_change(c, new, facts(old) if old else NO_PATH, blobs)
        if pc.tier == "high":
            tier = "high"
            high.append(NativeReason(code=pc.code, path=c.path, detail=pc.detail))
        else:
            if pc.tier == "medium" and tier == "passive":
                tier = "medium"
            key = (pc.tier, pc.code)
            paths = groups.get(key)
            if paths is None:
                groups[key] = [c.path]
            else:
                paths.append(c.path)
        # changed_lines: not binary, not mode-only, not a generated golden file
        if (
            c.additions is not None
            and not (c.old_mode != c.new_mode and c.old_oid == c.new_oid and c.status in ("M", "T"))
            and not new.generated
        ):
            lines += c.additions + (c.deletions or 0)
    for hit in process_hits(added, s):
        tier = "high"
        what = "shebang" if hit.line == 1 and hit.text.startswith("#!") else "process call"
        high.append(
            NativeReason(
                code="process_execution",
                path=hit.path,
                detail=f"{what} at line {hit.line}: {hit.text.strip()[:120]}",
            )
        )
    if not changes:
        tier = "medium"
        groups[("medium", "empty")] = []
    reasons = high[:MAX_HIGH_REASONS]
    if len(high) > MAX_HIGH_REASONS:
        reasons.append(
            NativeReason(
                code="more",
                path=None,
                detail=f"{len(high) - MAX_HIGH_REASONS} more high-risk reasons",
            )
        )
    for (_, code), paths in sorted(groups.items(), key=lambda kv: -_ORDER[kv[0][0]]):
        if code == "empty":
            reasons.append(
                NativeReason(code="empty", path=None, detail="the candidate changes nothing")
            )
            continue
        more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
        reasons.append(
            NativeReason(
                code=code, path=paths[0], detail=f"{len(paths)} path(s) classified {code}{more}"
            )
        )
    if consumed:
        due, why = False, "already_reviewed"
    elif tier == "high":
        due, why = True, "high_risk"
    elif tier == "passive":
        due, why = False, "passive"
    elif lines >= s.slice_budget:
        due, why = True, "slice_budget_reached"
    else:
        due, why = False, "under_budget"
    return NativeAssessment(
        risk=tier,
        reasons=tuple(reasons),
        changed_paths=tuple(c.path for c in changes),
        changed_lines=lines,
        candidate=NativeCandidate(kind=kind, base_ref=base_ref, consumed=consumed),
        review_due=due,
        review_due_reason=why,
    )
