"""Commits judged from notes and trailers alone (SPEC §8): the range gate's and the server
gate's shared judgement, and its lines and JSON.

Room ``hooks``. No local ledger is read: each commit's evidence is its
``refs/notes/gentle-hooks`` note (merged from every notes source given) and its trailers. A
note counts only through a candidate line whose tree is the commit's tree and whose base
tree is an ancestor's tree (or the empty tree); the plan is re-derived from the note's
records (:func:`gentle_hooks.notes.facts.facts_from_note`), never read from a field.
Overrides in notes are listed, and honoured only with ``gate.honour_overrides``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.refs import AncestorTrees
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.outcome import COMMITTED
from gentle_hooks.notes.codec import ParsedNote, merge, parse, valid_candidates
from gentle_hooks.notes.facts import facts_from_note
from gentle_hooks.notes.lines import OverrideLine
from gentle_hooks.policy.delegation import message_evidence
from gentle_hooks.policy.shortfall import NoValidNote, Shortfall, StaleRecords
from gentle_hooks.report.fixes import commands, headline, reasons, step_lines, steps
from gentle_hooks.report.text import short
from gentle_hooks.services.assess import AssessResult, evaluate
from gentle_hooks.values.candidate import (
    BaseResolution,
    Candidate,
    Projection,
    candidate_identity,
)
from gentle_hooks.values.frozen import field, frozen


@frozen
class CommitVerdict:
    """The gate's answer for one commit of a range.

    Attributes:
        commit / ref: the commit and the ref it arrives on (or the range).
        delegated_by: why the gate applies, or None (a human's ordinary commit).
        result: the re-derived assessment, or None when there is no valid note.
        blocked: whether it blocks; shortfalls: what is missing (the decision's, then
            the note's), rendered with :data:`COMMITTED` by :mod:`gentle_hooks.report.fixes`.
        overrides: recorded overrides found in the note (one line each).
    """

    commit: str
    ref: str
    delegated_by: str | None
    result: AssessResult | None
    blocked: bool
    shortfalls: tuple[Shortfall, ...] = ()
    overrides: tuple[str, ...] = field(default=())


def judge_commits(
    repo: Repository,
    config: LoadedConfig,
    commits: Sequence[str],
    ref: str,
    notes_sources: Sequence[str],
) -> list[CommitVerdict]:
    """Judge commits from notes and trailers alone.

    Args:
        commits: commit ids, oldest first; ref: the ref or range they arrive on (labels).
        notes_sources: notes refs or notes commit ids to read, merged line by line.
    """
    notes: dict[str, bytes] = {}
    for src in notes_sources:
        for commit, data in repo.read_notes(src, list(commits)).items():
            notes[commit] = merge(notes.get(commit, b""), data)
    settings = config.settings
    root = repo.paths.toplevel or repo.paths.git_dir
    out = []
    for info in repo.read_commits(list(commits)):
        note = parse(notes.get(info.id, b""))
        out.append(_judge_one(repo, config, info, note, ref, root, settings.honour_overrides))
    return out


def _judge_one(
    repo: Repository,
    config: LoadedConfig,
    info: CommitInfo,
    note: ParsedNote,
    ref: str,
    root: str,
    honour: bool,
) -> CommitVerdict:
    """Judge one commit by its note: delegated when the note records writer work or the
    message shows an agent (or ``applies_to = all``); then by each valid candidate in turn,
    the first that passes wins, else the first block. ``honour``: recorded overrides let a
    block through (``gate.honour_overrides``)."""
    if note.records_work:
        why: str | None = "gentle-hooks note records writer work"
    else:
        ev = message_evidence(info.message, info.author, info.committer)
        why = f"{ev.agent} ({ev.detail})" if ev else None
        if why is None and config.settings.applies_to == "all":
            why = "gate.applies_to = all"
    if why is None:
        return CommitVerdict(info.id, ref, None, None, blocked=False)
    ancestors = AncestorTrees(repo, info.id)
    try:
        valid = valid_candidates(note, info.tree, ancestors, candidate_identity)
    finally:
        ancestors.close()
    if not valid:
        stale = any(c.tree != info.tree for c in note.candidates)
        return CommitVerdict(
            info.id, ref, why, None, blocked=True, shortfalls=(NoValidNote(stale),)
        )
    best: CommitVerdict | None = None
    for c in valid:
        cand = Candidate(
            projection=Projection.COMMITTED,
            base=BaseResolution(
                None, "note", None, c.base_tree, "base tree recorded in the gentle-hooks note"
            ),
            tree=c.tree,
            head=info.id,
            identity=c.identity,
            object_format=repo.paths.object_format,
        )
        facts = facts_from_note(note, c.identity, root)
        result = evaluate(repo, config, cand, facts, delegated_by=why, binding=COMMITTED)
        overrides = tuple(
            f"override by {o.who} ({o.hook}): {o.reason}" for o in note.of(OverrideLine, c.identity)
        )
        blocked = result.decision.blocked and not (honour and overrides)
        shortfalls: tuple[Shortfall, ...] = result.decision.shortfalls
        if blocked and any(n.tree != info.tree for n in note.candidates):
            shortfalls = (*shortfalls, StaleRecords())
        verdict = CommitVerdict(info.id, ref, why, result, blocked, shortfalls, overrides)
        if not blocked:
            return verdict
        best = best or verdict
    assert best is not None
    return best


def verdict_lines(v: CommitVerdict) -> list[str]:
    """Human lines for one commit: one when it passes, what/why/fix when it blocks."""
    head = f"{short(v.commit)} on {v.ref}"
    if v.delegated_by is None:
        return [f"ok {head}: not delegated"]
    if not v.blocked:
        extra = (
            f"; override honoured ({v.overrides[0]})"
            if v.result and v.result.decision.blocked
            else ""
        )
        return [f"ok {head}: delegated ({v.delegated_by}), verified as its plan requires{extra}"]
    lines = [f"BLOCKED {head}: delegated ({v.delegated_by})"]
    risk = f" (plan risk {v.result.plan.risk.value})" if v.result is not None else ""
    lines.append(f"  {headline(v.shortfalls)}{risk}")
    for s, reason in zip(v.shortfalls, reasons(v.shortfalls), strict=True):
        lines.append(f"  missing: {reason}")
        lines.extend(step_lines(steps(s, COMMITTED, v.commit, share=True)))
    if v.result is not None:
        lines.append(f"  candidate {v.result.candidate.identity[:19]}…")
    for o in v.overrides:
        lines.append(f"  recorded override (not honoured: gate.honour_overrides is false): {o}")
    return lines


def verdict_json(v: CommitVerdict) -> dict[str, object]:
    """One commit's verdict for ``gate --json``: a JSON object of plain values."""
    out: dict[str, object] = {
        "commit": v.commit,
        "ref": v.ref,
        "delegated": v.delegated_by is not None,
        "delegated_by": v.delegated_by,
        "blocked": v.blocked,
        "reasons": reasons(v.shortfalls),
        "fixes": commands(v.shortfalls, COMMITTED),
        "overrides": list(v.overrides),
    }
    if v.result is not None:
        out["risk"] = v.result.plan.risk.value
        out["nativeRisk"] = v.result.plan.native_risk.value
        out["candidate"] = v.result.candidate.identity
        out["rows"] = list(v.result.plan.rows)
    return out
