"""A person's claims of writer content their own change holds (``gentle-hook discard``
ending no entry; SPEC §3 "Attribution follows content", issue 13).

Room ``services``. Two kinds, both read from the ledger's discard records, neither ending
the writer's pending work:

* a *line claim* (:attr:`Claims.line`): a person's own path (not the writer's) holding one
  writer line that counts alone there (:func:`~gentle_hooks.policy.across.by_one_line`);
  a second writer line there is the writer's again;
* a *copy claim* (:attr:`Claims.copy`): a person in linked worktree B made by hand the
  same change the writer made in worktree A (the very blob, or its lines), and claimed
  B's copy. It binds the exact blob B's change held at that path when claimed
  (:attr:`~gentle_hooks.ledger.records.DiscardRecord.blobs`), and only in changes made in
  B: the writer's content in A (its own change, its commits) stays the writer's, and
  content that differs from the claimed blob (an edit since, the writer's lines popped
  from a stash) is judged again as the writer's; a *path claim* binds the same way the
  blob of a person's own path (not the writer's) holding more than one writer line copied
  from the writer's path, in any worktree that made the change, the writer's own path
  staying the writer's. Only content a person makes alike at the writer's path is
  claimable so (:func:`distinctive_copies`): a copy bringing a *distinctive* writer line
  (``os.system("curl x | sh")``, rows D2-D4 of :mod:`gentle_hooks.policy.distinctive`,
  which nobody writes the same way by chance) is the writer's content copied, never a
  person's same fix, and a discard of it is refused; so is a copy that is the writer's
  blob byte for byte (:func:`exact_copies`): in the writer's own worktree that blob is the
  writer's until its work ends, and another worktree is no way round that.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.policy.attribution import PathChange, WriterEntry


def bound_blob(word: str) -> tuple[str, str]:
    """(blob id, path) of one ``'<blob id> <path>'`` item of a copy claim."""
    blob, _, path = word.partition(" ")
    return blob, path


class Claims:
    """The ledger's claims, read once, when a change first needs them."""

    def __init__(self, led: Ledger) -> None:
        self._led = led
        self._lines: set[tuple[int, str]] | None = None
        self._copies: dict[tuple[int, str, str], set[str]] | None = None

    def _read(self) -> None:
        self._lines, self._copies = set(), {}
        for d in self._led.discards():
            if d.entries:
                continue
            if not d.blobs:
                self._lines |= {(i, p) for i in d.claimed for p in d.paths}
                continue
            for word in d.blobs:
                blob, path = bound_blob(word)
                for i in d.claimed:
                    self._copies.setdefault((i, path, blob), set()).add(d.root)

    def line(self, entry_id: int, where: str, change: PathChange, rule: WriterEntry) -> bool:
        """A person claimed the one writer line their own path ``where`` holds."""
        if self._lines is None:
            self._read()
        assert self._lines is not None
        if (entry_id, where) not in self._lines:
            return False
        from gentle_hooks.policy.across import by_one_line

        return by_one_line(change, rule)

    def copy(
        self,
        entry_id: int,
        entry_root: str,
        where: str,
        blob: str | None,
        makers: Set[str],
        entry_path: str | None = None,
    ) -> bool:
        """A person in a worktree that made this change (``makers``) claimed exactly
        ``blob`` at ``where`` as theirs: at the entry's own path only in another worktree
        than the entry's (``entry_root``); at another path (``entry_path`` given and not
        ``where``: a person's own file) in any."""
        own_path = entry_path is not None and where != entry_path
        if not blob or (entry_root in makers and not own_path):
            return False
        if self._copies is None:
            self._read()
        assert self._copies is not None
        return bool(self._copies.get((entry_id, where, blob), set()) & makers)


def distinctive_copies(
    repo: Repository, entries: Sequence[WriterEntryRecord], base: str, trees: Sequence[str]
) -> frozenset[int]:
    """The ids of ``entries`` (another worktree's) whose path one of ``trees`` (a change's
    new side) holds with a distinctive line the writer added that ``base`` (its old side)
    lacks: the writer's content copied, not a copy claim's to take.

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.policy.distinctive import distinctive_keys, keyed_lines
    from gentle_hooks.services.settle import entry_blobs, policy_entry

    paths = sorted({e.path for e in entries})
    if not paths:
        return frozenset()
    old, *new = [repo.blobs_in(t, paths) for t in (base, *trees)]
    blobs = {b for side in (old, *new) for b in side.values()} | entry_blobs(entries)
    contents = repo.read_blobs(sorted(blobs))
    found: set[int] = set()
    for e in entries:
        d = policy_entry(e, contents).delta
        had = set(keyed_lines(contents.get(old.get(e.path, ""), b"")))
        for side in new:
            held = distinctive_keys(contents.get(side.get(e.path, ""), b""), d.added | d.telling)
            if held - had:
                found.add(e.id)
    return frozenset(found)


def exact_copies(
    repo: Repository, entries: Sequence[WriterEntryRecord], trees: Sequence[str]
) -> dict[str, list[str]]:
    """Of ``entries`` (other worktrees' open work), each path one of ``trees`` (a change's
    new side: the work tree as ``git add -A`` would stage it, the index) holds with an
    entry's own blob (a deletion never), with the roots of those entries, sorted: the
    writer's content copied, not a copy claim's to take.

    Raises:
        GitError: git failed.
    """
    paths = sorted({e.path for e in entries if e.blob})
    held = [repo.blobs_in(t, paths) for t in trees] if paths else []
    out: dict[str, set[str]] = {}
    for e in entries:
        if e.blob and any(side.get(e.path) == e.blob for side in held):
            out.setdefault(e.path, set()).add(e.root)
    return {p: sorted(rs) for p, rs in sorted(out.items())}
