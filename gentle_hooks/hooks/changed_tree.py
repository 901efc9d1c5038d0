"""A commit judged by another commit's note of the writer content it brings in (SPEC §3
"Attribution follows content", §8): the range and server gates find writer work in a
changed tree too.

Room ``hooks``. A writer commit's note lists the writer's files it carries, one
``writes`` line per path and blob the writer produced
(:class:`~gentle_hooks.notes.lines.WritesLine`). The writer's commit amended with one more
file, moved onto another base, or squashed with an extra file, every local hook off, has no
note or trailer of its own and another tree than any note records
(:mod:`.same_tree` cannot find it); but its change against its first parent brings in a
(path, blob) some note lists as writer content. It is delegated by that note, and since no
candidate of the note is its own tree it has no verification that counts: blocked, with
the way out of a rewritten commit (verify it, share its note).

The human side borrows nothing:

* a (path, blob) the commit does not bring in (a person's file at a writer's path holds
  the person's blob; an unchanged path is not looked at);
* a blob that already was at that path in an ancestor of the commit (a person's revert,
  a merge of work judged when it arrived: its other parent holds it, a re-application):
  its history judged it then;
* a blob every noting note verified: a note whose own candidate passes its plan
  (``verified``), as a person's cherry-pick of delivered, verified writer work onto
  another branch carries;
* a deletion, a submodule, the empty file (no writer can be told by them);
* a blob too short or common to tell its writer by
  (:func:`~gentle_hooks.policy.wholefile.identifies_writer`: a ``.gitignore`` holding
  ``__pycache__/``): a person typing that file gets the very blob id a writer's note
  lists, at a commit the note does not bind. The writer's file with lines of its own (a
  distinctive one, or two telling ones) is still the writer's.

Cost: nothing when no commit is left undelegated or no notes source holds a note. Else one
``diff-tree --stdin`` for those commits, one ``git grep -F`` per notes source over the blob
ids they bring in (the gates search the trees :mod:`.same_tree` looks up in the same one:
:func:`~gentle_hooks.hooks.judgement.judge_commits`), one ``cat-file --batch`` of the notes
holding one; then, only per (path, blob) a note lists, one ``cat-file --batch`` of those
blobs and one ``git log --find-object`` over the commit's history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.codec import ParsedNote, parse
from gentle_hooks.notes.lines import WritesLine
from gentle_hooks.policy.shellwords import shown_path
from gentle_hooks.report.text import short
from gentle_hooks.values.candidate import EMPTY_BLOBS
from gentle_hooks.values.frozen import frozen


@frozen
class Brought:
    """The notes of other commits that list writer content a commit brings in.

    Attributes:
        noted: the commits those notes belong to, each once, in notes order.
        note: their lines, in one parsed note (refused lines left out).
        paths: the paths of that content in the commit, sorted.
    """

    noted: tuple[str, ...]
    note: ParsedNote
    paths: tuple[str, ...]

    @property
    def why(self) -> str:
        """Why the gate applies, as a verdict line names it."""
        more = f" (+{len(self.noted) - 1} more)" if len(self.noted) > 1 else ""
        files = f" (+{len(self.paths) - 1} more)" if len(self.paths) > 1 else ""
        return (
            f"a gentle-hooks note of {short(self.noted[0])}{more} records writer content this "
            f"commit brings in: {shown_path(self.paths[0])}{files}"
        )


def brought_pairs(
    repo: Repository, plain: Sequence[CommitInfo]
) -> dict[str, dict[tuple[str, str], None]]:
    """The (path, blob) pairs each commit of ``plain`` brings in against its first parent
    and holds unchanged from none of its other parents (a merge: the other side had it
    already), by commit id, in one ``diff-tree --stdin`` (none without commits); a
    deletion, a submodule, the empty file and an unchanged blob are left out.

    Raises:
        GitError: git failed.
    """
    deltas = repo.commit_deltas([i.id for i in plain])
    wanted: dict[str, dict[tuple[str, str], None]] = {}
    for info in plain:
        per_parent = deltas.get(info.id) or [[]]
        changed_from_others = [{x.path for x in d} for d in per_parent[1:]]
        for c in per_parent[0]:
            if c.new_blob is None or c.new_blob in EMPTY_BLOBS or c.new_blob == c.old_blob:
                continue
            if any(c.path not in changed for changed in changed_from_others):
                continue
            wanted.setdefault(info.id, {})[(c.path, c.new_blob)] = None
    return wanted


def brought_content(
    repo: Repository,
    sources: Sequence[tuple[str, Mapping[str, tuple[str, str, int]]]],
    plain: Sequence[CommitInfo],
    verified: Callable[[ParsedNote], bool],
    in_time: Callable[[], None],
    brought: Mapping[str, Mapping[tuple[str, str], None]] | None = None,
) -> dict[str, Brought]:
    """For each commit of ``plain`` (left undelegated by its own note, its message and
    :mod:`.same_tree`), the other commits' notes listing writer content it brings in that
    its history did not hold and no noting note verified (module docstring), by commit id;
    commits with none are left out.

    Args:
        sources: each notes source (a ref or notes commit) with its
            :meth:`~gentle_hooks.git.notes.Notes.notes_map`.
        verified: whether a note's own candidate passes its plan (the gate's judgement).
        in_time: called after each source is searched and before each history walk (a
            hook's time bound).
        brought: :func:`brought_pairs` of these commits (or more), when the caller has
            them (else they are diffed here).

    Raises:
        GitError: git failed.
    """
    if not plain or not any(listed for _, listed in sources):
        return {}
    if brought is None:
        brought = brought_pairs(repo, plain)
    wanted = {i.id: brought[i.id] for i in plain if i.id in brought}
    blobs = sorted({b for pairs in wanted.values() for _, b in pairs})
    if not blobs:
        return {}
    lists: dict[tuple[str, str], list[tuple[str, ParsedNote]]] = {}
    seen: set[str] = set()  # note blob ids: a note in several sources is read once
    for notes, listed in sources:
        if not listed:
            continue
        held = repo.notes_holding(notes, blobs, listed)
        fresh = {c: listed[c] for c in held if c in listed and listed[c][0] not in seen}
        seen.update(v[0] for v in fresh.values())
        for noted, data in repo.read_every_note(fresh).items():
            note = parse(data)
            for w in dict.fromkeys(note.of(WritesLine)):
                lists.setdefault((w.path, w.blob), []).append((noted, note))
        in_time()
    judged: dict[str, bool] = {}  # noted commit -> its note verified
    telling = telling_blobs(
        repo, {b for pairs in wanted.values() for p, b in pairs if (p, b) in lists}
    )
    out: dict[str, Brought] = {}
    for info in plain:
        hits: dict[str, ParsedNote] = {}
        paths: set[str] = set()
        for pair in wanted.get(info.id, {}):
            noting = [(n, note) for n, note in lists.get(pair, []) if n != info.id]
            if not noting or pair[1] not in telling:
                continue  # no note lists it, or its content tells no writer
            in_time()
            if repo.blob_in_history(list(info.parents), *pair):
                continue  # its history held it: judged when it first arrived
            for n, note in noting:
                if n not in judged:
                    judged[n] = verified(note)
            if any(judged[n] for n, _ in noting):
                continue  # verified writer work, delivered elsewhere as it was
            paths.add(pair[0])
            hits.update((n, note) for n, note in noting if not judged[n])
        if hits:
            lines = tuple(line for note in hits.values() for line in note.lines)
            out[info.id] = Brought(tuple(hits), ParsedNote(lines), tuple(sorted(paths)))
    return out


def telling_blobs(repo: Repository, blobs: set[str]) -> frozenset[str]:
    """The blobs of ``blobs`` whose content tells who wrote it
    (:func:`~gentle_hooks.policy.wholefile.identifies_writer`); one ``cat-file --batch``.
    A blob git does not hold (a shallow or partial clone) counts: not known to be anyone's.

    Raises:
        GitError: git failed.
    """
    if not blobs:
        return frozenset()
    # imported here: a person's push whose blobs no note lists reads no line classifier
    from gentle_hooks.policy.wholefile import identifies_writer

    data = repo.read_blobs(sorted(blobs))
    return frozenset(b for b in blobs if b not in data or identifies_writer(data[b]))
