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

Cost: only when some judged commit is left undelegated, every other note of each notes
source is read once (one ``cat-file --batch`` per source, its tree listed once by the
caller) and searched for those commits' tree ids; a note is parsed only when one of them
occurs in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.git.objects import CommitInfo, RangeAncestry
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.codec import ParsedNote, parse
from gentle_hooks.report.text import short
from gentle_hooks.values.frozen import frozen

#: Object ids as a note writes them (SHA-1 or SHA-256, lowercase hex).
_OID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")


@frozen
class Borrowed:
    """The notes of other commits that record writer work for a commit's exact tree.

    Attributes:
        noted: the commits those notes belong to, in notes order.
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
    maps: Sequence[Mapping[str, tuple[str, str, int]]],
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
        maps: each notes source's :meth:`~gentle_hooks.git.notes.Notes.notes_map`.
        ancestry: the range's ancestry (its ``rev-list`` walks are shared).
        identity_of: the identity function (base tree, tree) -> identity.
        in_time: called after each source is read (a hook's time bound).

    Raises:
        GitError: git failed.
    """
    wanted: dict[bytes, list[CommitInfo]] = {}
    for info in plain:
        wanted.setdefault(info.tree.encode("ascii"), []).append(info)
    if not wanted:
        return {}
    found: dict[str, list[tuple[str, ParsedNote]]] = {}
    seen: set[str] = set()  # note blob ids: a note in several sources is read once
    for notes in maps:
        fresh = {c: v for c, v in notes.items() if v[0] not in seen}
        seen.update(v[0] for v in fresh.values())
        for noted, data in repo.read_every_note(fresh).items():
            hits = set(_OID.findall(data)) & wanted.keys()
            if not hits:
                continue
            note = parse(data)
            for tree in hits:
                text = tree.decode("ascii")
                if not any(
                    c.tree == text and identity_of(c.base_tree, c.tree) == c.identity
                    for c in note.candidates
                ):
                    continue
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
        hits_of = found[info.id]
        lines = tuple(line for _, note in hits_of for line in note.lines)
        out[info.id] = Borrowed(tuple(n for n, _ in hits_of), ParsedNote(lines))
    return out
