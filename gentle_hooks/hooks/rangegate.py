"""Judge pushed commits from notes and trailers alone (SPEC §8; issue 5): ``gentle-hook gate
--range A..B`` for CI, and the server's ``pre-receive`` gate on a bare repository.

Layer: service. No local ledger is read: each commit's evidence is its
``refs/notes/gentle-hooks`` note (and, in a pre-receive, the notes commit arriving in the same
push) and its trailers. A note counts only through a candidate line whose tree is the
commit's tree and whose base tree is an ancestor's tree (or the empty tree); the plan is
re-derived from the note's records — native tier from the trees, escalations, spot checks,
and verdicts whose acceptance is recomputed from the verdict itself — never read from a
field. Overrides in notes are listed and honoured only with ``gate.honour_overrides``.

A shallow or partial history that cuts into the range cannot be judged: exit 2, with the
fetch that fixes it. Never a pass.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from gentle_hooks.config.load import LoadedConfig, load_config
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, GentleError, UsageError
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.refs import AncestorTrees, check_ref_name
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.pushspec import is_zero
from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.records import (
    EscalationRecord,
    PendingMutation,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
)
from gentle_hooks.notes.codec import NOTES_REF, ParsedNote, merge, parse, valid_candidates
from gentle_hooks.notes.lines import (
    EscalationLine,
    OverrideLine,
    ReceiptLine,
    ReviewLine,
    SpotCheckLine,
    VerdictLine,
    WriterLine,
)
from gentle_hooks.notes.sync import remote_notes_refs
from gentle_hooks.policy.delegation import message_evidence
from gentle_hooks.policy.shortfall import NoValidNote, Shortfall, StaleRecords
from gentle_hooks.report.fixes import commands, reasons
from gentle_hooks.report.text import short
from gentle_hooks.services.assess import AssessResult, evaluate
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import (
    BaseResolution,
    Candidate,
    Projection,
    candidate_identity,
)
from gentle_hooks.values.frozen import field, frozen

EXIT_CANNOT_ASSESS = 2

#: A pushed commit is judged, and its fix commands bound, by its committed candidate.
COMMITTED = Binding(projection=Projection.COMMITTED)


class CannotAssess(GentleError):
    """The history does not reach far enough to judge the range (exit 2, with the fix)."""


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


def parse_range(text: str) -> tuple[str, str]:
    """``A..B`` into (A, B).

    Raises:
        UsageError: not exactly one ``..`` with two sides (``A...B`` is refused).
    """
    if "..." in text or text.count("..") != 1:
        raise UsageError(f"--range {text!r}: give A..B (two refs or commits)")
    a, b = text.split("..")
    if not a or not b:
        raise UsageError(f"--range {text!r}: give both sides, A..B")
    check_ref_name(a, "--range start")
    check_ref_name(b, "--range end")
    return a, b


def range_commits(repo: Repository, a: str, b: str) -> list[str]:
    """The commits of ``A..B``, oldest first.

    Raises:
        CannotAssess: ``A`` or ``B`` is missing, or the range reaches a shallow boundary.
    """
    fix = "fetch more history (git fetch --unshallow, or a deeper --depth) and rerun"
    tip = repo.peel_commit(b)
    if tip is None:
        raise CannotAssess(f"cannot assess: {b!r} is not a commit here; {fix}")
    start = repo.peel_commit(a)
    if start is None:
        raise CannotAssess(f"cannot assess: {a!r} is not in this clone; {fix}")
    commits = repo.new_commits(tip, exclude=[start])
    cut = repo.shallow_commits() & set(commits)
    if cut:
        raise CannotAssess(
            f"cannot assess: the history is shallow at {short(sorted(cut)[0])}, inside "
            f"{a}..{b}; {fix}"
        )
    return commits


def _facts_from_note(note: ParsedNote, identity: str, root: str) -> LedgerFacts:
    """The note's records as the ledger's value types, so the policy sees the same facts.
    Verdict acceptance is recomputed from each verdict here."""
    from gentle_hooks.artifacts.verdict import parse_verdict, verdict_acceptance, verdict_json

    mutations = tuple(
        PendingMutation(root=root, model=w.model, effort=w.effort, source=w.source)
        for w in note.of(WriterLine)
    )
    escalations = tuple(
        EscalationRecord(
            root=root,
            identity=identity,
            item=e.item,
            slug=e.slug,
            reason=e.reason,
            critical=e.critical,
        )
        for e in note.of(EscalationLine)
    )
    receipts = {r.command for r in note.of(ReceiptLine, identity)}

    def consistent(s: SpotCheckLine) -> bool:
        """A re-run counts only as it could have been recorded: both statuses integers and
        equal when it says it agreed, and a report of the same command for this identity."""
        if s.check == "readback":
            return True
        rep, obs = s.reported_exit, s.observed_exit
        return (
            rep is not None
            and obs is not None
            and (rep == obs) == s.agreed
            and s.command in receipts
        )

    spots = tuple(
        SpotCheck(
            root=root,
            identity=identity,
            kind=s.check,
            command=s.command,
            agreed=s.agreed,
            counts=s.counts,
            reported_exit=s.reported_exit,
            observed_exit=s.observed_exit,
        )
        for s in note.of(SpotCheckLine, identity)
        if s.check in ("rerun", "readback") and consistent(s)
    )
    verdicts = []
    for v in note.of(VerdictLine, identity):
        try:
            parsed = parse_verdict(v.verdict, "note verdict")
        except GentleError:
            continue  # a malformed verdict in a note verifies nothing
        accepted, reasons = verdict_acceptance(parsed)
        verdicts.append(
            VerdictRecord(
                root=root,
                identity=identity,
                brief_id=parsed.briefId,
                status=parsed.status,
                accepted=accepted,
                reasons=reasons,
                json=verdict_json(parsed),
                markdown="",
            )
        )
    reviews = tuple(
        ReviewFact(root=root, identity=identity, outcome=r.outcome)
        for r in note.of(ReviewLine, identity)
        if r.outcome in ("declined", "unavailable", "consumed")
    )
    return LedgerFacts(
        path="note",
        present=True,
        root=root,
        identity=identity,
        mutations=mutations,
        escalations=escalations,
        spot_checks=spots,
        verdicts=tuple(verdicts),
        review_facts=reviews,
    )


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
        facts = _facts_from_note(note, c.identity, root)
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
    if v.result is not None:
        p = v.result.plan
        lines.append(
            f"  plan risk {p.risk.value} (native {p.native_risk.value}; rows "
            f"{' '.join(p.rows)}); candidate {v.result.candidate.identity[:19]}…"
        )
    for reason, fix in zip(reasons(v.shortfalls), commands(v.shortfalls, COMMITTED), strict=True):
        lines.append(f"  missing: {reason}")
        lines.append(f"  fix: {fix}")
    for o in v.overrides:
        lines.append(f"  recorded override (not honoured: gate.honour_overrides is false): {o}")
    return lines


def verdict_json(v: CommitVerdict) -> dict[str, Any]:
    """One commit's verdict for ``gate --json``."""
    out: dict[str, Any] = {
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


def gate_range(
    cwd: str | None, range_text: str, env: Mapping[str, str]
) -> tuple[int, list[CommitVerdict]]:
    """``gentle-hook gate --range A..B``: (exit code, per-commit verdicts).

    The configuration file is read from ``A`` (the base the range is judged against), not
    from the work tree: a pull request cannot loosen the gate that judges it.

    Raises:
        CannotAssess: the history does not cover the range (exit 2).
        UsageError / GitError / ConfigError: bad range, git or config failures (exit 2).
    """
    a, b = parse_range(range_text)
    repo = Repository.open(cwd, allow_bare=True)
    commits = range_commits(repo, a, b)
    config = load_config(
        f"{a}:" if repo.paths.toplevel else None,
        repo.gentle_config(),
        env,
        read=lambda name: repo.read_path(a, name),
    )
    sources = [NOTES_REF, *remote_notes_refs(repo)]
    verdicts = judge_commits(repo, config, commits, f"{a}..{b}", sources)
    return (EXIT_BLOCKED if any(v.blocked for v in verdicts) else EXIT_OK), verdicts


def receive_gate(stdin: bytes, env: Mapping[str, str]) -> int:
    """The server gate (``pre-receive`` in a bare repository): reject a push that carries an
    unverified delegated commit, with the reason and the fix on the pusher's screen.

    Works inside git's quarantine: the child git processes inherit the quarantine object
    directories, and notes pushed in the same push are read from their incoming commit.

    Raises:
        UsageError: a malformed input line (the push is refused: fail closed).
    """
    updates = []
    for number, raw in enumerate(stdin.decode("utf-8", "replace").splitlines(), 1):
        parts = raw.split()
        if not raw.strip():
            continue
        if len(parts) != 3:
            raise UsageError(f"pre-receive input line {number} is not '<old> <new> <ref>'")
        updates.append(parts)
    repo = Repository.open(allow_bare=True)
    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    sources = [NOTES_REF] + [
        new for _, new, ref in updates if ref == NOTES_REF and not is_zero(new)
    ]
    rejected = 0
    say = lambda text: print(f"gentle-hooks: {text}", file=sys.stderr)  # noqa: E731
    for old, new, ref in updates:
        if ref == NOTES_REF:
            continue  # the notes themselves; any other ref is judged like a branch
        if is_zero(new):
            say(f"{ref}: deletion, nothing to assess")
            continue
        tip = repo.peel_commit(new)
        if tip is None:
            say(f"{ref}: not a commit, nothing to assess")
            continue
        if is_zero(old) or repo.peel_commit(old) is None:
            # Only branches and tags vouch for a commit: one parked under another
            # namespace (refs/notes/x, refs/pull/...) by an earlier push is judged again.
            commits = repo.commits_outside_branches_and_tags(tip)
        else:
            commits = repo.new_commits(tip, exclude=[repo.peel_commit(old) or old])
        verdicts = judge_commits(repo, config, commits, ref, sources)
        blocked = [v for v in verdicts if v.blocked]
        for v in verdicts:
            if v.delegated_by is not None:
                for text in verdict_lines(v):
                    say(text)
        if blocked:
            rejected += 1
            say(f"REJECTED {ref}: {len(blocked)} unverified delegated commit(s)")
    return EXIT_BLOCKED if rejected else EXIT_OK
