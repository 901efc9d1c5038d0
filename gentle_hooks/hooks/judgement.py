"""Commits judged from notes and trailers alone (SPEC §8): the range gate's and the server
gate's shared judgement (its lines and JSON: :mod:`.verdict_text`).

Room ``hooks``. No local ledger is read: each commit's evidence is its
``refs/notes/gentle-hooks`` note (merged from every notes source given) and its trailers. A
note counts only through a candidate line whose tree is the commit's tree and whose base
tree is an ancestor's tree (or the empty tree); the plan is re-derived from the note's
records (:func:`gentle_hooks.notes.facts.facts_from_note`), never read from a field;
under ``verification.require_observed`` (the judging configuration's: the range's base)
a verdict counts only when its line says a ``verify run`` for that candidate wrote it.
Overrides in notes are listed, and honoured only with ``gate.honour_overrides``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.git.notes import note_bytes, too_large
from gentle_hooks.git.objects import CommitInfo, RangeAncestry
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.changed_tree import Brought, brought_content, brought_pairs
from gentle_hooks.hooks.outcome import COMMITTED
from gentle_hooks.hooks.same_tree import Borrowed, borrowed_notes
from gentle_hooks.notes.codec import ParsedNote, merge, parse, valid_candidates, with_unread
from gentle_hooks.notes.lines import CandidateLine, EscalationLine, NoteLine, OverrideLine
from gentle_hooks.notes.trust import SIGNABLE, Trust
from gentle_hooks.policy.delegation import message_evidence
from gentle_hooks.values.candidate import (
    BaseResolution,
    Candidate,
    Projection,
    candidate_identity,
)
from gentle_hooks.values.frozen import field, frozen, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.policy.shortfall import Shortfall
    from gentle_hooks.services.assess import AssessResult

# The classifier, the note's facts and the evaluation are imported where a commit is
# delegated: a person's push (the server gate's common case) needs none of them.


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
        refused: the note's lines the schema refused, ``line N: why`` (they count for
            nothing).
        signed: who signed the note's signed lines, ``<kind> signed by <principal>``, and
            under ``gate.require_signed`` the lines that do not count for lack of one.
        claims: the re-runs the counted spot checks claim, (command, reported exit, the
            directory its receipt ran in relative to the top: ``.`` for the top).
        reruns: what ``--reverify`` saw, one line each (empty without it).
    """

    commit: str
    ref: str
    delegated_by: str | None
    result: AssessResult | None
    blocked: bool
    shortfalls: tuple[Shortfall, ...] = ()
    overrides: tuple[str, ...] = field(default=())
    refused: tuple[str, ...] = field(default=())
    signed: tuple[str, ...] = field(default=())
    claims: tuple[tuple[str, int | None, str], ...] = field(default=())
    reruns: tuple[str, ...] = field(default=())


def judge_commits(
    repo: Repository,
    config: LoadedConfig,
    commits: Sequence[str],
    ref: str,
    notes_sources: Sequence[str],
    trust: Trust | None = None,
    in_time: Callable[[], None] | None = None,
) -> list[CommitVerdict]:
    """Judge commits from notes and trailers alone.

    The commits are judged as a batch, in a number of git processes that does not grow
    with them: each source's notes in one read, the commits in one, every commit's
    ancestor trees answered by one walk of the range (:class:`RangeAncestry`), and with
    the built-in provider every valid candidate's diffs fetched ahead
    (:func:`~gentle_hooks.native.builtin.prefetch_builtin`); then each commit is judged
    as on its own.

    Args:
        commits: commit ids, oldest first; ref: the ref or range they arrive on (labels).
        notes_sources: notes refs or notes commit ids to read, merged line by line.
        trust: who signed a line (the allowed-signers file), or None when none is
            configured; under ``gate.require_signed`` only spot checks, verdicts and
            overrides signed by an allowed principal count.
        in_time: called after each notes source is read, before each commit's note is
            parsed, before the range's diffs are fetched and before each candidate of a
            commit is judged (a hook's time bound: it raises to stop), or None.

    A note over the cap on a note (:func:`~gentle_hooks.git.notes.note_bytes`) is never
    read: its lines count for nothing, as a refused line does, and the commit reads as
    delegated (the note may hold a writer line), so it needs a valid note from another
    source or is blocked.
    """
    check = in_time or (lambda: None)
    notes: dict[str, bytes] = {}
    unread: dict[str, list[str]] = {}
    maps = []
    for src in notes_sources:
        maps.append(repo.notes_map(src))
        read, large = repo.read_notes_within(src, list(commits), maps[-1])
        for commit, data in read.items():
            notes[commit] = merge(notes.get(commit, b""), data)
        for commit, size in large.items():
            unread.setdefault(commit, []).append(too_large(commit, src, size, note_bytes(repo.env)))
        check()
    settings = config.settings
    root = repo.paths.toplevel or repo.paths.git_dir
    counts = _signed_only(trust) if settings.require_signed else None
    infos = repo.read_commits(list(commits))
    ancestry = RangeAncestry(repo, infos)
    sifted = []
    try:
        for info in infos:
            check()
            note = with_unread(parse(notes.pop(info.id, b"")), unread.get(info.id, ()))
            sifted.append(_sift(config, info, note, ancestry))
        # a person's discard claim noted on the commit is theirs, listed as an override (§5)
        plain = [s.info for s in sifted if s.why is None and not _claimed(s.note)]
        if plain:  # a note of another commit may record writer work for the same tree
            sources = list(zip(notes_sources, maps, strict=True))
            brought = _search_ahead(repo, sources, plain)
            lent: dict[str, Borrowed | Brought] = {}
            lent.update(borrowed_notes(repo, sources, plain, ancestry, candidate_identity, check))
            rest = [i for i in plain if i.id not in lent]
            if rest:  # or a note listing writer content it brings in (a changed tree)
                verified = partial(_verified, repo, config, root, counts, check)
                lent.update(brought_content(repo, sources, rest, verified, check, brought))
            sifted = [
                _lent(s, lent[s.info.id], ancestry) if s.info.id in lent else s for s in sifted
            ]
    finally:
        ancestry.close()
    # native.provider's BUILTIN, as the configuration spells it: that module imports the
    # classifier, which a person's push does not need
    if settings.native_provider == "builtin":
        check()
        _prefetch(repo, config, sifted)
    out = []
    for s in sifted:
        check()
        verdict = _judge_one(
            repo, config, s, ref, root, settings.honour_overrides, counts, in_time=check
        )
        signed = _signatures(s.note, trust, settings.require_signed)
        if s.note.problems or signed:
            verdict = replace(verdict, refused=s.note.problems, signed=signed)
        out.append(verdict)
    return out


def _search_ahead(
    repo: Repository,
    sources: Sequence[tuple[str, Mapping[str, tuple[str, str, int]]]],
    plain: Sequence[CommitInfo],
) -> dict[str, dict[tuple[str, str], None]] | None:
    """Search each notes source once for every word :mod:`.same_tree` (the trees of
    ``plain``) and :mod:`.changed_tree` (the blobs they bring in) look up; the blobs, by
    commit (:func:`~gentle_hooks.hooks.changed_tree.brought_pairs`), or None with no note
    to search."""
    if not any(listed for _, listed in sources):
        return None
    brought = brought_pairs(repo, plain)
    words = {i.tree for i in plain} | {b for pairs in brought.values() for _, b in pairs}
    for notes, listed in sources:
        if listed:
            repo.search_notes_ahead(notes, sorted(words))
    return brought


def _signed_only(trust: Trust | None) -> Callable[[NoteLine], bool]:
    """A line counts when an allowed principal signed it (none counts without a file)."""
    return lambda line: trust is not None and trust.signer(line) is not None


def _signatures(note: ParsedNote, trust: Trust | None, required: bool) -> tuple[str, ...]:
    """``<kind> signed by <principal>`` per signed line; under ``required``, the
    spot-check, verdict and override lines that do not count for want of a signature."""
    out: list[str] = []
    unsigned = 0
    for line in note.lines:
        if not isinstance(line, SIGNABLE):
            continue
        who = trust.signer(line) if trust is not None else None
        if who is not None:
            out.append(f"{line.KIND.replace('_', ' ')} signed by {who}")
        elif required and not isinstance(line, EscalationLine):
            unsigned += 1
    if unsigned:
        out.append(
            f"{unsigned} spot-check/verdict/override line(s) not counted: not signed by an "
            "allowed signer (gate.require_signed)"
        )
    return tuple(out)


def _prefetch(repo: Repository, config: LoadedConfig, sifted: Sequence[_Sifted]) -> None:
    """Diff every valid candidate ahead, in a few git processes for the whole range; a
    candidate whose base is also its parent's candidate's base (or its parent's tree)
    follows the parent's pair (:func:`~gentle_hooks.native.builtin.prefetch_builtin`)."""
    pairs = [(c.base_tree, c.tree) for s in sifted for c in s.valid]
    if len(pairs) < 2:
        return
    from gentle_hooks.native.builtin import prefetch_builtin

    trees = {s.info.id: s.info.tree for s in sifted}
    wanted = set(pairs)
    previous: list[str | None] = []
    for s in sifted:
        parent = trees.get(s.info.parents[0]) if s.info.parents else None
        for c in s.valid:
            follows = parent is not None and (
                parent == c.base_tree or (c.base_tree, parent) in wanted
            )
            previous.append(parent if follows else None)
    prefetch_builtin(repo, pairs, config.settings.risk, previous)


@frozen
class _Sifted:
    """One commit before evaluation: its note, why the gate applies (None: it does not)
    and the note's candidates that count for it."""

    info: CommitInfo
    note: ParsedNote
    why: str | None
    valid: tuple[CandidateLine, ...]


def _sift(
    config: LoadedConfig, info: CommitInfo, note: ParsedNote, ancestry: RangeAncestry
) -> _Sifted:
    """Delegated when the note records writer work or the message shows an agent (or
    ``applies_to = all``); then the note's valid candidates (SPEC §8)."""
    if note.records_work:
        why: str | None = "gentle-hooks note records writer work"
    else:
        ev = message_evidence(info.message, info.author_ident, info.committer_ident)
        why = f"{ev.agent} ({ev.detail})" if ev else None
        if why is None and config.settings.applies_to == "all":
            why = "gate.applies_to = all"
    if why is None:
        return _Sifted(info, note, None, ())
    valid = valid_candidates(note, info.tree, ancestry.checker(info.id), candidate_identity)
    return _Sifted(info, note, why, valid)


def _claimed(note: ParsedNote) -> bool:
    """Whether ``note`` holds a discard's override line (a person's claim of the content,
    recorded with who and why): such a commit borrows no other commit's note."""
    return any(o.hook == "discard" for o in note.of(OverrideLine))


def _verified(
    repo: Repository,
    config: LoadedConfig,
    root: str,
    counts: Callable[[NoteLine], bool] | None,
    check: Callable[[], None],
    note: ParsedNote,
) -> bool:
    """Whether a note's own candidate (its identity true to its trees, both trees here)
    passes its plan, judged as a commit of that tree would be (:mod:`.changed_tree`)."""
    for c in note.candidates:
        if candidate_identity(c.base_tree, c.tree) != c.identity:
            continue
        if repo.missing_objects([c.base_tree, c.tree]):
            continue  # not checkable here: it verifies nothing
        info = CommitInfo(c.commit, c.tree, (), "", "", "")
        sifted = _Sifted(info, note, "writer content", (c,))
        honour = config.settings.honour_overrides
        if not _judge_one(repo, config, sifted, "", root, honour, counts, check).blocked:
            return True
    return False


def _lent(s: _Sifted, lent: Borrowed | Brought, ancestry: RangeAncestry) -> _Sifted:
    """``s`` delegated by the notes of other commits of its tree (:mod:`.same_tree`) or
    of writer content it brings in (:mod:`.changed_tree`): its own note's lines with
    theirs, and their candidates that count for it."""
    note = replace(s.note, lines=(*s.note.lines, *lent.note.lines))
    valid = valid_candidates(
        lent.note, s.info.tree, ancestry.checker(s.info.id), candidate_identity
    )
    return _Sifted(s.info, note, lent.why, valid)


def _judge_one(
    repo: Repository,
    config: LoadedConfig,
    sifted: _Sifted,
    ref: str,
    root: str,
    honour: bool,
    counts: Callable[[NoteLine], bool] | None = None,
    in_time: Callable[[], None] | None = None,
) -> CommitVerdict:
    """Judge one commit by each valid candidate in turn: the first that passes wins, else
    the first block. ``honour``: recorded overrides let a block through
    (``gate.honour_overrides``); ``counts``: under ``gate.require_signed``, whether a
    spot-check, verdict or override line counts (signed by an allowed principal);
    ``in_time``: called before each candidate after the first (a note may hold many)."""
    info, note, why, valid = sifted.info, sifted.note, sifted.why, sifted.valid
    if why is None:  # a discard's claim is noted on the person's commit: listed too (§5)
        listed = tuple(
            f"override by {o.who} ({o.hook}): {o.reason}"
            for o in note.of(OverrideLine)
            if counts is None or counts(o)
        )
        return CommitVerdict(info.id, ref, None, None, blocked=False, overrides=listed)
    from gentle_hooks.notes.facts import facts_from_note, note_reruns
    from gentle_hooks.policy.shortfall import NoValidNote, StaleRecords
    from gentle_hooks.services.assess import evaluate

    if not valid:
        stale = any(c.tree != info.tree for c in note.candidates)
        # the note has this tree, but its base is beyond a shallow boundary: not checkable
        shallow = repo.paths.is_shallow and any(c.tree == info.tree for c in note.candidates)
        return CommitVerdict(
            info.id, ref, why, None, blocked=True, shortfalls=(NoValidNote(stale, shallow),)
        )
    best: CommitVerdict | None = None
    for number, c in enumerate(valid):
        if number and in_time is not None:
            in_time()
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
        facts = facts_from_note(
            note, c.identity, root, counts, config.settings.verification.require_observed
        )
        result = evaluate(  # config is the base's already
            repo, config, cand, facts, delegated_by=why, binding=COMMITTED, check_passive=False
        )
        overrides = tuple(
            f"override by {o.who} ({o.hook}): {o.reason}"
            for o in note.of(OverrideLine, c.identity)
            if counts is None or counts(o)
        )
        blocked = result.decision.blocked and not (honour and overrides)
        shortfalls: tuple[Shortfall, ...] = result.decision.shortfalls
        if blocked and any(n.tree != info.tree for n in note.candidates):
            shortfalls = (*shortfalls, StaleRecords())
        # the spot checks counted above (note_reruns' consistent ones), with the directory
        # each re-ran its receipt in: --reverify re-runs it there (issue 14)
        claims = tuple(
            (s.command, s.reported_exit, s.cwd)
            for s in note_reruns(note, c.identity, counts)
            if s.consistent and s.check == "rerun" and s.agreed and s.counts
        )
        verdict = CommitVerdict(
            info.id, ref, why, result, blocked, shortfalls, overrides, claims=claims
        )
        if not blocked:
            return verdict
        best = best or verdict
    assert best is not None
    return best
