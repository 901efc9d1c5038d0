"""A commit judged by another commit's note of the same tree (SPEC §3 "Attribution follows
content", §8): the range and server gates keep what they saw.

Room ``hooks``. A writer's commit the server rejected leaves its note there (shared by
``sync push`` or a push of another branch). The same tree committed again with every local
hook off (``reset --soft`` and a commit, an amend of the message, a cherry-pick onto the
same base) has no note and no trailer of its own, yet it carries exactly the candidate
tree the note records writer work for: it is delegated by that note, and judged by the
note's records of that tree (:func:`~gentle_hooks.notes.codec.valid_candidates`: the tree
must be the commit's own and the base an ancestor's, so a note counts only as far as it can
be checked).

A commit whose tree is the tree of one of its ancestors (a revert to an earlier state, an
empty commit, a ``--no-ff`` merge of a branch already judged) brings back content its
history holds already, which was judged when it arrived: no note is borrowed for it.
Nor for a commit whose first parent's tree is not the noted candidate's base: on
another parent its own change differs (a rebase onto the writer's delivered part).
A commit whose own change tells no writer (every path it changes holds a new blob too
short or common to tell its writer by: a person's ``.gitignore`` of ``__pycache__/`` on the
base the writer's note names makes its very tree) borrows nothing either.
A commit whose own note records a person's discard claim (an override line of hook
``discard``: who, why, what was claimed) is not searched for: the claim is listed with it,
as for any claimed commit (SPEC §5).

Cost: only when some judged commit is left undelegated, one ``git grep`` per notes source
searches every note for those commits' tree ids, and for the blobs :mod:`.changed_tree`
looks up next (the notes tree listed once, by the caller), and only the notes holding one
are read (one ``cat-file --batch``) and parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.git.objects import CommitInfo, RangeAncestry
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.codec import ParsedNote, parse
from gentle_hooks.report.text import short
from gentle_hooks.values.frozen import frozen


@frozen
class Borrowed:
    """The notes of other commits that record writer work for a commit's exact tree.

    Attributes:
        noted: the commits those notes belong to, each once, in notes order.
        note: their lines, in one parsed note (refused lines left out: they count for
            nothing, and they are the other commit's to answer for).
    """

    noted: tuple[str, ...]
    note: ParsedNote

    @property
    def why(self) -> str:
        """Why the gate applies, as a verdict line names it."""
        more = f" (+{len(self.noted) - 1} more)" if len(self.noted) > 1 else ""
        return (
            f"a gentle-hooks note of {short(self.noted[0])}{more} records writer work for this tree"
        )


def borrowed_notes(
    repo: Repository,
    sources: Sequence[tuple[str, Mapping[str, tuple[str, str, int]]]],
    plain: Sequence[CommitInfo],
    ancestry: RangeAncestry,
    identity_of: Callable[[str, str], str],
    in_time: Callable[[], None],
) -> dict[str, Borrowed]:
    """For each commit of ``plain`` (judged undelegated by its own note and message), the
    other commits' notes holding a candidate line of its tree whose identity matches its
    trees (module docstring), by commit id; commits with none, or whose tree is an
    ancestor's, are left out.

    Args:
        sources: each notes source (a ref or notes commit) with its
            :meth:`~gentle_hooks.git.notes.Notes.notes_map`.
        ancestry: the range's ancestry (its ``rev-list`` walks are shared).
        identity_of: the identity function (base tree, tree) -> identity.
        in_time: called after each source is searched (a hook's time bound).

    Raises:
        GitError: git failed.
    """
    wanted: dict[str, list[CommitInfo]] = {}
    for info in plain:
        wanted.setdefault(info.tree, []).append(info)
    found: dict[str, list[tuple[str, ParsedNote]]] = {}
    seen: set[str] = set()  # note blob ids: a note in several sources is read once
    for notes, listed in sources:
        if not listed or not wanted:
            continue
        held = repo.notes_holding(notes, sorted(wanted), listed)
        fresh = {c: listed[c] for c in held if c in listed and listed[c][0] not in seen}
        seen.update(v[0] for v in fresh.values())
        for noted, data in repo.read_every_note(fresh).items():
            note = parse(data)
            trees = {
                c.tree
                for c in note.candidates
                if c.tree in wanted and identity_of(c.base_tree, c.tree) == c.identity
            }
            for tree in sorted(trees):
                for info in wanted[tree]:
                    if noted != info.id:
                        found.setdefault(info.id, []).append((noted, note))
        in_time()
    out: dict[str, Borrowed] = {}
    for info in plain:
        if info.id not in found:
            continue
        if any(ancestry.is_ancestor_tree(p, info.tree) for p in info.parents):
            continue  # content its history holds already (a revert, an empty commit)
        # the noted candidate's base must be this commit's parent: the same change again; on
        # another parent (a rebase onto the writer's delivered part) its own delta differs
        base = repo.tree_of(info.parents[0]) if info.parents else None
        hits_of = [
            (n, note)
            for n, note in found[info.id]
            if any(c.tree == info.tree and c.base_tree == base for c in note.candidates)
        ]
        if not hits_of:
            continue
        lines = tuple(line for _, note in hits_of for line in note.lines)
        # a commit's notes in several sources (this clone's, a remote's) name it once
        named = tuple(dict.fromkeys(n for n, _ in hits_of))
        out[info.id] = Borrowed(named, ParsedNote(lines))
    return _telling_only(repo, out, {i.id: i for i in plain}) if out else out


def _telling_only(
    repo: Repository, borrowed: dict[str, Borrowed], infos: Mapping[str, CommitInfo]
) -> dict[str, Borrowed]:
    """``borrowed`` less the commits whose own change tells no writer: against their one
    parent, every changed path holds a new blob and none of those blobs is the writer's
    evidence (:func:`~gentle_hooks.hooks.changed_tree.telling_blobs`: a ``.gitignore`` of
    ``__pycache__/``, a template's settings). A person making that file on the same base
    makes the noted candidate's very tree. A deletion, a mode change, a submodule or a
    merge keeps the borrowed note (nothing there can be read as common). One
    ``diff-tree --stdin`` and one ``cat-file --batch``, only for commits that borrow.

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.hooks.changed_tree import telling_blobs

    deltas = repo.commit_deltas(list(borrowed))
    news: dict[str, set[str]] = {}
    for cid in borrowed:
        per_parent = deltas.get(cid) or [[]]
        first = per_parent[0]
        if (
            len(infos[cid].parents) == 1
            and first
            and all(c.new_blob and c.new_blob != c.old_blob and not c.mode_changed for c in first)
        ):
            news[cid] = {c.new_blob for c in first if c.new_blob}
    telling = telling_blobs(repo, set().union(*news.values())) if news else frozenset()
    return {c: b for c, b in borrowed.items() if c not in news or news[c] & telling}
