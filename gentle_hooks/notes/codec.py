"""The note that travels with a delivered commit (SPEC §8): format, merge, validity.

Layer: pure (standard library only). A note under ``refs/notes/gentle-hooks`` is UTF-8 JSON
Lines: one self-contained, versioned record per line, each serialised canonically (sorted
keys, compact). That makes merging a set union — git's own ``cat_sort_uniq`` notes merge
strategy is exactly right, whatever order two clones sync in, and ``notes.rewriteMode =
concatenate`` on amend/rebase loses nothing. Line kinds (``"kind"``; all carry ``"v": 1``):

* ``candidate``: ``commit``, ``identity``, ``base_tree``, ``tree`` — the candidate the
  records are bound to;
* ``writer``: ``model``, ``effort``, ``source`` — who wrote the delivered work;
* ``escalation``: ``item``, ``slug``, ``reason``, ``critical``;
* ``receipt`` / ``spot_check`` / ``verdict`` / ``review`` / ``override``: records bound to an
  ``identity``, with what the gate needs to re-derive the plan (a verdict carries the whole
  ``DelegationVerdict``; its acceptance is recomputed, never read from the note).

A note counts for a commit only through a ``candidate`` line whose ``tree`` is the commit's
tree and whose ``base_tree`` is the tree of one of the commit's ancestors or the empty tree
(:func:`valid_candidates`); records bound to other identities are stale.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gentle_hooks.values.frozen import field, frozen

NOTES_REF = "refs/notes/gentle-hooks"
NOTE_VERSION = 1
KINDS = (
    "candidate",
    "writer",
    "escalation",
    "receipt",
    "spot_check",
    "verdict",
    "review",
    "override",
)


def line(kind: str, **fields: Any) -> str:
    """One canonical note line: ``{"kind": kind, "v": 1, ...fields}`` with sorted keys."""
    return json.dumps(
        {"kind": kind, "v": NOTE_VERSION, **fields},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def render(lines: Iterable[str]) -> bytes:
    """A note's bytes: the distinct lines, sorted (what ``cat_sort_uniq`` would keep)."""
    return ("\n".join(sorted(set(lines))) + "\n").encode("utf-8")


def merge(*notes: bytes) -> bytes:
    """Union of notes, line by line (order-independent; nothing is ever dropped)."""
    out: set[str] = set()
    for note in notes:
        out.update(x for x in note.decode("utf-8", "replace").splitlines() if x.strip())
    return render(out)


@frozen
class NoteCandidate:
    """A candidate a note records: the commit it was written for and the tree pair."""

    commit: str
    identity: str
    base_tree: str
    tree: str


@frozen
class ParsedNote:
    """A note's records, grouped by kind; ``skipped`` counts lines that did not parse or
    are of a newer version or unknown kind (they can satisfy nothing)."""

    candidates: tuple[NoteCandidate, ...] = ()
    records: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    skipped: int = 0

    def of(self, kind: str, identity: str | None = None) -> tuple[dict[str, Any], ...]:
        """Records of ``kind``; only those bound to ``identity`` when it is given."""
        recs = self.records.get(kind, ())
        if identity is None:
            return recs
        return tuple(r for r in recs if r.get("identity") == identity)


def _is_oid(text: str) -> bool:
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")


def parse(note: bytes) -> ParsedNote:
    """Parse a note's lines; malformed, unknown or newer lines are skipped and counted."""
    groups: dict[str, list[dict[str, Any]]] = {}
    cands: list[NoteCandidate] = []
    skipped = 0
    for raw in note.decode("utf-8", "replace").splitlines():
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            skipped += 1
            continue
        if (
            not isinstance(rec, dict)
            or rec.get("v") != NOTE_VERSION
            or rec.get("kind") not in KINDS
        ):
            skipped += 1
            continue
        if rec["kind"] == "candidate":
            fields = [rec.get(k) for k in ("commit", "identity", "base_tree", "tree")]
            if all(isinstance(f, str) for f in fields) and all(
                _is_oid(f) for f in (fields[0], fields[2], fields[3])
            ):
                cands.append(NoteCandidate(*fields))  # type: ignore[arg-type]
            else:
                skipped += 1
            continue
        groups.setdefault(rec["kind"], []).append(rec)
    return ParsedNote(tuple(cands), {k: tuple(v) for k, v in groups.items()}, skipped)


def valid_candidates(
    note: ParsedNote,
    commit_tree: str,
    is_ancestor_tree: Callable[[str], bool],
    identity_of: Callable[[str, str], str],
) -> tuple[NoteCandidate, ...]:
    """The note's candidates that count for a commit (SPEC §8).

    Args:
        note: the parsed note; commit_tree: the commit's tree id.
        is_ancestor_tree: whether a tree id is the tree of one of the commit's ancestors
            or the empty tree.
        identity_of: the identity function (base tree, tree) -> identity, so a candidate
            line whose identity does not match its trees is refused.
    """
    return tuple(
        c
        for c in note.candidates
        if c.tree == commit_tree
        and identity_of(c.base_tree, c.tree) == c.identity
        and is_ancestor_tree(c.base_tree)
    )
