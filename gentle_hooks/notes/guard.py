"""The server's protection of ``refs/notes/gentle-hooks`` (SPEC §8): the records of every
commit live there, so a push may only add to them, and only lines the schema accepts.

Room ``notes``. :func:`check_notes_update` judges one pushed update of the notes ref from
git's ``<old> <new>`` pair (inside pre-receive's quarantine: the incoming objects are
readable) and returns what is wrong with it, one line each:

* a deletion is refused (the server's records would be gone);
* a non-fast-forward is refused (a rewind drops records, or replaces them);
* a note whose lines are removed is refused (notes only grow: every writer merges as a
  line union);
* every line the update adds is decoded against :data:`gentle_hooks.notes.lines.SCHEMA`;
  a line it refuses is named (annotated commit, line number, why).
"""

from __future__ import annotations

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.codec import NOTES_REF, note_lines
from gentle_hooks.notes.lines import MalformedLine, decode

#: How many refused lines one rejection names before it only counts the rest.
_SHOWN = 5


def _is_zero(oid: str) -> bool:
    return bool(oid) and set(oid) == {"0"}


def check_notes_update(repo: Repository, old: str, new: str) -> list[str]:
    """What is wrong with moving the notes ref from ``old`` to ``new``; empty when the
    update only adds lines the schema accepts.

    Args:
        repo: the receiving repository (its child git processes see the pushed objects).
        old / new: git's ids for the ref before and after (all zeros: absent).

    Raises:
        GitError: git failed reading objects the update names (the push fails closed).
    """
    if _is_zero(new):
        return [
            f"deleting {NOTES_REF} is refused: it holds the verification records of every commit"
        ]
    if repo.peel_commit(new) is None:
        return [f"{NOTES_REF} must point at a notes commit; {new[:12]} is not a commit"]
    if not _is_zero(old) and not repo.is_ancestor(old, new):
        return [
            f"a non-fast-forward update of {NOTES_REF} is refused (records would be dropped "
            "or replaced); fetch and merge the notes, then push them (the sync push command)"
        ]
    before = {} if _is_zero(old) else repo.notes_map(old)
    after = repo.notes_map(new)
    changed = {c: blob for c, (blob, _) in after.items() if before.get(c, ("",))[0] != blob}
    gone = sorted(c for c in before if c not in after)
    problems = [f"the note of {c[:12]} is removed: notes only grow" for c in gone[:1]]
    olds = {c: before[c][0] for c in changed if c in before}
    blobs = repo.read_blobs([*changed.values(), *olds.values()])
    refused: list[str] = []
    for commit, blob in sorted(changed.items()):
        if blob not in blobs:
            raise GitError(f"cannot read the pushed note of {commit[:12]} ({blob[:12]})")
        kept = _lines(blobs.get(olds.get(commit, ""), b""))
        now = note_lines(blobs[blob])
        dropped = kept - {x for x in now if x.strip()}
        if dropped:
            problems.append(
                f"the note of {commit[:12]} loses {len(dropped)} line(s): notes only grow"
            )
        for number, text in enumerate(now, 1):
            if not text.strip() or text in kept:
                continue
            try:
                decode(text)
            except MalformedLine as exc:
                refused.append(f"note of {commit[:12]} line {number}: {exc}: {_clip(text)}")
    problems += refused[:_SHOWN]
    if len(refused) > _SHOWN:
        problems.append(f"... and {len(refused) - _SHOWN} more refused line(s)")
    return problems


def _lines(note: bytes) -> set[str]:
    return {x for x in note_lines(note) if x.strip()}


def _clip(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
