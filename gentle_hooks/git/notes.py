"""Notes refs read and written as git does (SPEC §8): any fanout, one notes commit per
write, the ref moved by compare-and-swap.

Room ``git``. What a note *says* is the notes room's (:mod:`gentle_hooks.notes.codec`);
this module moves its bytes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.objects import Objects

#: The most bytes a note may hold to be read (SPEC §8). A note is a few hundred bytes a
#: record; one past this is another party's doing (the notes ref is shared), and reading
#: it whole cost seconds and memory per megabyte (300 MB: 19.5 s and 1.2 GB), so it is
#: never read: a gate counts it for nothing. ``GENTLE_HOOKS_NOTE_BYTES`` can only lower
#: it (a test's knob).
NOTE_BYTES = 1 << 20


def note_bytes(env: Mapping[str, str]) -> int:
    """:data:`NOTE_BYTES`, or ``GENTLE_HOOKS_NOTE_BYTES`` when it is a smaller
    non-negative integer (anything else is ignored: the cap never grows)."""
    given = env.get("GENTLE_HOOKS_NOTE_BYTES", "")
    if not (given.isascii() and given.isdigit()) or len(given) > 12:
        return NOTE_BYTES
    return min(int(given), NOTE_BYTES)


class NoteTooLarge(GitError):
    """A note holds more than :func:`note_bytes`: it is not read."""


class RefRaced(GitError):
    """A compare-and-swap of a ref lost: another writer moved it first (retry)."""


#: git's refusal to take a ref's lock file: ``Unable to create '<path>.lock': File exists``
_LOCK_HELD = r"Unable to create '(?P<lock>[^']+\.lock)': File exists"


def _quote(word: str) -> str:
    """``word`` quoted for a shell (:func:`shlex.quote`, imported only for a refusal's
    message: it costs every gate that loads this module otherwise)."""
    import shlex

    return shlex.quote(word)


def ref_refusal(ref: str, stderr: bytes) -> RefRaced:
    """The error for a failed ``update-ref`` of ``ref``, named from git's ``stderr``: a held
    lock file says which file and how to remove it when no git is running (git's own advice
    for a crashed process); anything else is a lost compare-and-swap."""
    text = stderr.decode("utf-8", "replace")
    held = re.search(_LOCK_HELD, text)  # compiled on a refusal only
    if held:
        lock = held["lock"]
        return RefRaced(
            f"{ref} is locked by {lock} (another git process is writing it, or one crashed); "
            f"if no git process is running, remove it: rm -f {_quote(lock)}"
        )
    err = text.strip().splitlines()
    return RefRaced(f"{ref} moved while writing notes: {err[-1] if err else 'locked'}")


def too_large(commit: str, notes: str, size: int, cap: int) -> str:
    """Why the note of ``commit`` in ``notes`` is not read: its ``size`` is over ``cap``."""
    return (
        f"the note of {commit[:12]} in {notes} holds {size:,} bytes, over the {cap:,}-byte "
        "cap on a note: not read"
    )


class Notes(Objects):
    """Notes reads and writes of a repository."""

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        super().__init__(paths, env)
        #: :meth:`search_notes_ahead`'s answers: notes source -> (the words, the commits)
        self._ahead: dict[str, tuple[frozenset[str], set[str]]] = {}

    def notes_map(self, notes: str) -> dict[str, tuple[str, str, int]]:
        """Annotated object id -> (note blob id, path in the notes tree, size in bytes) for
        a notes ref or notes commit id (any fanout). Empty when the notes do not exist.

        Raises:
            GitError: the notes exist but their tree cannot be listed (a partial clone
                missing it): what cannot be read must not read as "no notes".
        """
        # listed first: whether the notes exist is asked only when the listing failed
        tree = notes + "^{commit}"
        proc = self.run(["ls-tree", "-r", "-z", "-l", "--full-tree", tree], ok=(0, 128))
        if proc.returncode != 0:
            exists = self.run(["rev-parse", "--verify", "-q", tree], ok=(0, 1, 128))
            if exists.returncode != 0:
                return {}
            # another worktree's commit may have made the notes between the two: the commit
            # just resolved is listed before the notes are called unreadable
            made = exists.stdout.strip().decode("ascii", "replace")
            proc = self.run(["ls-tree", "-r", "-z", "-l", "--full-tree", made], ok=(0, 128))
        if proc.returncode != 0:
            raise GitError(
                f"cannot read the notes tree of {notes} (a partial or shallow clone missing "
                "it?); fetch it fully and rerun"
            )
        out: dict[str, tuple[str, str, int]] = {}
        for entry in proc.stdout.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            parts = meta.split()  # the size column is padded with spaces
            if len(parts) != 4 or parts[1] != b"blob" or not parts[3].isdigit():
                continue
            name = path.decode("ascii", "replace")
            key = name.replace("/", "")
            if len(key) in (40, 64):
                out[key] = (parts[2].decode("ascii"), name, int(parts[3]))
        return out

    def read_notes_within(
        self,
        notes: str,
        commits: Sequence[str],
        found: Mapping[str, tuple[str, str, int]] | None = None,
    ) -> tuple[dict[str, bytes], dict[str, int]]:
        """The notes of ``commits`` in a notes ref or notes commit that hold at most
        :func:`note_bytes` bytes, by commit id; and the size of each larger one, by
        commit id (its size is read from the tree, its bytes never are). ``found``: the
        notes' :meth:`notes_map`, when the caller listed it already (else it is listed).

        Raises:
            GitError: a note's blob is not in this clone, or the notes tree cannot be read.
        """
        if found is None:
            found = self.notes_map(notes)
        cap = note_bytes(self.env)
        large = {c: found[c][2] for c in commits if c in found and found[c][2] > cap}
        wanted = {c: found[c][0] for c in commits if c in found and c not in large}
        blobs = self.read_blobs(list(wanted.values()))
        missing = [c for c, b in wanted.items() if b not in blobs]
        if missing:
            raise GitError(
                f"the note of {missing[0][:12]} in {notes} is not in this clone (a partial "
                "clone?); fetch it and rerun"
            )
        return {c: blobs[b] for c, b in wanted.items()}, large

    def search_notes_ahead(self, notes: str, words: Sequence[str]) -> None:
        """Search a notes source for ``words`` once (:meth:`notes_holding`), for later
        :meth:`notes_holding` calls asking for some of them (the range and server gates
        look up trees, then blobs: one pass over every note instead of two).

        Raises:
            GitError: git failed.
        """
        self._ahead[notes] = (frozenset(words), self.notes_holding(notes, words))

    def notes_holding(
        self,
        notes: str,
        words: Sequence[str],
        listed: Mapping[str, tuple[str, str, int]] | None = None,
    ) -> set[str]:
        """The commits whose note in a notes ref or notes commit holds one of ``words``
        (fixed strings, no line end), searched by one ``git grep`` over the notes tree.
        With ``listed`` (the source's :meth:`notes_map`) and :meth:`search_notes_ahead`
        done for these words among others, the notes holding any of those are read (they
        are few, and read next by the caller) and kept when one holds one of ``words``:
        the same answer, as git grep -F matches a string without a line end anywhere in
        a blob; a note over the cap, or not listed or read, is searched by git again.

        Raises:
            GitError: git failed.
        """
        if not words:
            return set()
        ahead = self._ahead.get(notes)
        if listed is not None and ahead is not None and ahead[0].issuperset(words):
            found = self._narrowed(ahead[1], words, listed)
            if found is not None:
                return found
        proc = self.run(
            ["grep", "-l", "-z", "-F", "-f", "-", notes, "--"],  # "--": a revision, never a path
            input="".join(f"{w}\n" for w in words).encode(),
            ok=(0, 1, 128),  # 1: nothing holds them; 128: maybe no such notes
        )
        if proc.returncode == 128:
            rev = self.run(["rev-parse", "--verify", "-q", notes + "^{commit}"], ok=(0, 1, 128))
            if rev.returncode != 0:
                return set()  # no notes at all
            why = proc.stderr.decode("utf-8", "replace").strip()
            raise GitError(f"cannot search the notes of {notes}: {why}")
        out = set()
        for name in proc.stdout.split(b"\0"):
            # each name is <notes ref or commit>:<path in the notes tree, any fanout>
            _, _, path = name.decode("ascii", "replace").partition(":")
            key = path.replace("/", "")
            if len(key) in (40, 64):
                out.add(key)
        return out

    def _narrowed(
        self, held: set[str], words: Sequence[str], listed: Mapping[str, tuple[str, str, int]]
    ) -> set[str] | None:
        """The commits of ``held`` whose note holds one of ``words``, from their bytes;
        None when a note is over the cap, not listed or not read."""
        cap = note_bytes(self.env)
        if any(c not in listed or listed[c][2] > cap for c in held):
            return None
        blobs = self.read_blobs(sorted({listed[c][0] for c in held}))
        if any(listed[c][0] not in blobs for c in held):
            return None
        needles = [w.encode() for w in words]
        return {c for c in held if any(n in blobs[listed[c][0]] for n in needles)}

    def read_every_note(self, found: Mapping[str, tuple[str, str, int]]) -> dict[str, bytes]:
        """Every note of a :meth:`notes_map` (or of a part of one) that holds at most
        :func:`note_bytes` bytes, by commit id, in one ``cat-file --batch``. A note whose
        blob is not in this clone is left out (a partial clone: what it would say is not
        known here)."""
        cap = note_bytes(self.env)
        wanted = {c: v[0] for c, v in found.items() if v[2] <= cap}
        blobs = self.read_blobs(sorted(set(wanted.values())))
        return {c: blobs[b] for c, b in wanted.items() if b in blobs}

    def read_notes(self, notes: str, commits: Sequence[str]) -> dict[str, bytes]:
        """The notes of ``commits`` in a notes ref or notes commit, by commit id.

        Raises:
            NoteTooLarge: one of them holds more than :func:`note_bytes` (not read; the
                message names the git command that removes it).
            GitError: a note's blob is not in this clone, or the notes tree cannot be read.
        """
        read, large = self.read_notes_within(notes, commits)
        if large:
            commit, size = next(iter(large.items()))
            # it counts for nothing anywhere: removing it loses nothing a gate reads, and
            # the records it was to gain are written again from the ledger
            raise NoteTooLarge(
                f"{too_large(commit, notes, size, note_bytes(self.env))}; to record in it "
                f"again, remove it: git notes --ref={_quote(notes)} remove {commit}"
            )
        return read

    def write_notes(self, ref: str, notes: Mapping[str, bytes], message: str) -> str | None:
        """Set the notes of several commits in one notes commit under ``ref``.

        Each given note replaces the commit's note (callers merge first); the commit carries
        the user's identity and ``message``. The ref moves by compare-and-swap, so a
        concurrent writer makes this raise rather than lose its note.

        Returns:
            The new notes commit id, or None when nothing changed.

        Raises:
            RefRaced: the ref moved under us, or another writer holds its lock (retry).
            GitError: git failed.
        """
        from gentle_hooks.bounded import scratch_dir

        if not notes:
            return None
        proc = self.run(["rev-parse", "--verify", "-q", ref], ok=(0, 1, 128))
        old = (
            proc.stdout.decode("utf-8", "surrogateescape").strip() if proc.returncode == 0 else None
        )
        existing = self.notes_map(old) if old else {}
        with scratch_dir("gentle-hooks-notes-") as tmp:
            paths = []
            for i, commit in enumerate(notes):
                path = os.path.join(tmp, f"n{i}")
                with open(path, "wb") as fh:
                    fh.write(notes[commit])
                paths.append(path)
            blobs = self.out(
                ["hash-object", "-w", "--stdin-paths"], input="\n".join(paths).encode() + b"\n"
            ).split()
            index = os.path.join(tmp, "index")
            env = {"GIT_INDEX_FILE": index}
            if old:
                self.run(["read-tree", old], env=env)
            info = []
            zero = "0" * len(blobs[0])
            for commit, blob in zip(notes, blobs, strict=True):
                if commit in existing:
                    info.append(f"0 {zero}\t{existing[commit][1]}")
                info.append(f"100644 {blob}\t{commit}")
            self.run(
                ["update-index", "--index-info"], input="\n".join(info).encode() + b"\n", env=env
            )
            tree = self.out(["write-tree"], env=env)
        if old and self.tree_of(old) == tree:
            return None
        commit_args = ["commit-tree", tree, "-m", message] + (["-p", old] if old else [])
        new = self.out(commit_args)
        moved = self.run(["update-ref", "-m", message, ref, new, old or ""], ok=(0, 1, 128))
        if moved.returncode != 0:
            raise ref_refusal(ref, moved.stderr)
        return new

    def remove_notes(self, ref: str, commits: Sequence[str]) -> None:
        """Remove the notes of ``commits`` under ``ref`` (a commit without one is skipped).

        Raises:
            GitError: git failed.
        """
        if commits:
            stdin = "\n".join(commits).encode() + b"\n"
            self.run(["notes", "--ref", ref, "remove", "--ignore-missing", "--stdin"], input=stdin)

    def merge_notes(self, ref: str, other: str) -> None:
        """Merge the notes ``other`` into the notes ref ``ref`` as a line union (git's
        ``cat_sort_uniq`` strategy: no conflict, nothing dropped).

        Raises:
            GitError: the merge failed.
        """
        self.run(["notes", f"--ref={ref}", "merge", "-q", "-s", "cat_sort_uniq", other])
