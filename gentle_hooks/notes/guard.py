"""The server's protection of ``refs/notes/gentle-hooks`` (SPEC §8): the records of every
commit live there, so a push may only add to them, and only lines the schema accepts.

Room ``notes``. :func:`check_notes_update` judges one pushed update of the notes ref from
git's ``<old> <new>`` pair (inside pre-receive's quarantine: the incoming objects are
readable) and returns what is wrong with it, one line each:

* a deletion is refused (the server's records would be gone);
* a non-fast-forward is refused (a rewind drops records, or replaces them);
* a note whose lines are removed is refused (notes only grow: every writer merges as a
  line union);
* a note over the cap on a note (:func:`gentle_hooks.git.notes.note_bytes`) is refused
  unread, naming the commit, its size and the cap;
* every line the update adds is decoded against :data:`gentle_hooks.notes.lines.SCHEMA`;
  a line it refuses is named (annotated commit, line number, why).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from gentle_hooks.errors import GitError
from gentle_hooks.git.notes import note_bytes, too_large
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.codec import NOTES_REF, note_lines
from gentle_hooks.notes.lines import MalformedLine, decode

#: How many refused lines one rejection names before it only counts the rest.
_SHOWN = 5

#: The most note bytes read in one ``git cat-file --batch`` (old and new notes together).
_BATCH_BYTES = 16 << 20


def _is_zero(oid: str) -> bool:
    return bool(oid) and set(oid) == {"0"}


def check_notes_update(
    repo: Repository, old: str, new: str, in_time: Callable[[], None] | None = None
) -> list[str]:
    """What is wrong with moving the notes ref from ``old`` to ``new``; empty when the
    update only adds lines the schema accepts.

    A note the update changes that holds more than the cap is refused unread. A note the
    server held over the cap counts for nothing anywhere, so its lines are not compared
    (what replaces it loses nothing that counted).

    Args:
        repo: the receiving repository (its child git processes see the pushed objects).
        old / new: git's ids for the ref before and after (all zeros: absent).
        in_time: called before each batch of notes is read and each note is checked (a
            hook's time bound: it raises to stop), or None.

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
    cap = note_bytes(repo.env)
    changed = {c: e for c, e in after.items() if before.get(c, ("",))[0] != e[0]}
    gone = sorted(c for c in before if c not in after)
    problems = [f"the note of {c[:12]} is removed: notes only grow" for c in gone[:1]]
    large = sorted(c for c, e in changed.items() if e[2] > cap)
    problems += [too_large(c, NOTES_REF, changed[c][2], cap) for c in large[:_SHOWN]]
    if len(large) > _SHOWN:
        problems.append(f"... and {len(large) - _SHOWN} more note(s) over the cap")
    todo = [(c, changed[c][0], _readable(before.get(c), cap)) for c in sorted(changed)]
    refused: list[str] = []
    for commit, blob, was in _read_in_batches(repo, [t for t in todo if t[0] not in large]):
        if in_time is not None:
            in_time()
        if blob is None:
            raise GitError(f"cannot read the pushed note of {commit[:12]}")
        kept = _lines(was)
        now = note_lines(blob)
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


def _readable(entry: tuple[str, str, int] | None, cap: int) -> str | None:
    """The blob id of a note the server held, when it is within the cap (else None: a
    note over the cap counts for nothing, so there is nothing to keep)."""
    return entry[0] if entry is not None and entry[2] <= cap else None


def _read_in_batches(
    repo: Repository, todo: list[tuple[str, str, str | None]]
) -> Iterator[tuple[str, bytes | None, bytes]]:
    """(commit, its new note or None when it cannot be read, its old note or ``b""``) for
    each (commit, new blob, old blob or None) of ``todo``, read in batches of at most
    :data:`_BATCH_BYTES` (each note is within the cap), so memory stays bounded."""
    per = max(1, _BATCH_BYTES // (2 * max(note_bytes(repo.env), 1)))
    for start in range(0, len(todo), per):
        batch = todo[start : start + per]
        blobs = repo.read_blobs([b for _, new, old in batch for b in (new, old) if b is not None])
        for commit, new, old in batch:
            yield commit, blobs.get(new), blobs.get(old, b"") if old else b""


def _lines(note: bytes) -> set[str]:
    return {x for x in note_lines(note) if x.strip()}


def _clip(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
