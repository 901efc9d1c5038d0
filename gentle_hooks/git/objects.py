"""Objects by id: blobs, a tree's entries, a path in a commit, commits parsed (SPEC §2).

Room ``git``. Every batch of ids is read through the one ``git cat-file --batch`` a
repository object keeps (:mod:`~gentle_hooks.git.catfile`); :class:`CommitInfo` is our
model of a commit object.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial

from gentle_hooks.git.catfile import CatFile
from gentle_hooks.git.core import is_full_id
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.refs import AncestorTrees, Refs
from gentle_hooks.values.candidate import EMPTY_TREES
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # the blob search starts threads; the gates import it on demand
if TYPE_CHECKING:
    from gentle_hooks.git.blobsearch import BlobSearch


#: Bytes of blobs one :class:`Objects` keeps once read (an object never changes).
KEEP_LIMIT = 64 << 20

#: Ids :meth:`Objects.keep_blobs` reads at a time (what it holds beyond those it keeps).
_KEEP_SLICE = 256


class Objects(Refs):
    """Object reads of a repository."""

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        super().__init__(paths, env)
        #: blobs read already (:meth:`keep_blobs`, :meth:`read_blobs`), by id.
        self._kept: dict[str, bytes] = {}
        self._kept_bytes = 0
        #: :meth:`grep_tree` answers, by its arguments (a tree never changes).
        self._grepped: dict[tuple[str, tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
        #: ``COMMIT:PATH`` names to read with the next batch (:meth:`want_blobs`), and
        #: those found absent (a commit's tree never changes)
        self._wanted: set[str] = set()
        self._absent: set[str] = set()
        #: the run's one ``cat-file --batch``, started by the first read
        self._catfile = CatFile(paths.toplevel or paths.git_dir, env)

    def want_blobs(self, names: Sequence[str]) -> None:
        """Read ``COMMIT:PATH`` names (COMMIT an object id) with the next
        :meth:`read_blobs` batch and keep them, present or absent: a later read of them
        costs no process of its own."""
        self._wanted.update(n for n in names if n not in self._kept and n not in self._absent)

    def keep_blobs(self, oids: Sequence[str]) -> None:
        """Read blobs ahead through the run's ``git cat-file --batch`` and keep them: later
        :meth:`read_blobs` of these ids, and a :meth:`search_blobs` given them, start no
        process (an object never changes). Read a slice at a time, and no more once
        :data:`KEEP_LIMIT` bytes are kept (the ids left are read when asked)."""
        todo = [o for o in dict.fromkeys(oids) if o not in self._kept]
        for start in range(0, len(todo), _KEEP_SLICE):
            if self._kept_bytes >= KEEP_LIMIT:
                return
            self.read_blobs(todo[start : start + _KEEP_SLICE])

    def read_blobs(self, oids: Sequence[str]) -> dict[str, bytes]:
        """Read blobs by id in one ``git cat-file --batch`` process (none for the ids
        :meth:`keep_blobs` read).

        Returns:
            oid -> content for every id that exists as an object.
        """
        out: dict[str, bytes] = {}
        if self._kept or self._absent:
            out = {o: self._kept[o] for o in oids if o in self._kept}
            oids = [o for o in oids if o not in out and o not in self._absent]
        if not oids:
            return out
        asked = set(oids)
        extra = sorted(self._wanted - asked - self._kept.keys() - self._absent)
        self._wanted.clear()
        oids = [*oids, *extra]
        data = self._catfile.batch(oids)
        pos = 0
        for oid in oids:
            end = data.index(b"\n", pos)
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) != 3 and ":" in oid:
                self._absent.add(oid)  # COMMIT:PATH: absent for good
            if len(header) == 3:
                size = int(header[2])
                out[oid] = data[pos : pos + size]
                pos += size + 1
                # one hook run reads the same blobs twice (attribution, then the
                # classifier's search) and a push gate the commits it read ahead with the
                # ones it judges: the second read costs no process (neither ever changes)
                kept = header[1] == b"blob" or (
                    header[1] == b"commit" and header[0] == oid.encode()
                )
                if kept and self._kept_bytes + size <= KEEP_LIMIT:
                    self._kept[oid] = out[oid]
                    self._kept_bytes += size
        for oid in extra:
            out.pop(oid, None)  # kept (or known absent) for the read that wants them
        return out

    def write_blob(self, data: bytes) -> str:
        """Store ``data`` as a blob in the object store (``git hash-object -w --stdin``,
        no filters) and return its id; :meth:`read_blobs` reads it back."""
        return self.out(["hash-object", "-w", "--stdin"], input=data)

    def search_blobs(
        self,
        needles: Sequence[bytes],
        prefix: bytes,
        fold: bool = False,
        many: tuple[int, Callable[[], None]] | None = None,
        longer: int | None = None,
    ) -> BlobSearch:
        """A :class:`BlobSearch` in this repository: which blobs hold one of ``needles``
        (in their ASCII-lowercased bytes, with ``fold``: the needles are then lowercase),
        start with ``prefix`` or have a line of more than ``longer`` bytes; ``many``: (n, a
        callback for when more than n are found)."""
        from gentle_hooks.git.blobsearch import BlobSearch  # threads: off the gates' path

        return BlobSearch(self, needles, prefix, fold, many, known=self._kept, longer=longer)

    def read_path(self, commit: str, path: str) -> bytes | None:
        """The bytes of ``path`` in ``commit``'s tree, or None when it has no such file."""
        proc = self.run(["cat-file", "blob", f"{commit}:{path}"], ok=(0, 128))
        return proc.stdout if proc.returncode == 0 else None

    def tree_named(self, oid: str) -> str | None:
        """The tree a full object id names: a tree's own id, a commit's (or an annotated
        tag's, peeled) tree; None when this repository has no such object, or it names a
        blob (:meth:`object_kind` says which)."""
        if not is_full_id(oid):
            return None
        proc = self.run(
            ["rev-parse", "--verify", "-q", "--end-of-options", oid + "^{tree}"], ok=(0, 1, 128)
        )
        return proc.stdout.decode("ascii", "replace").strip() if proc.returncode == 0 else None

    def grep_tree(self, tree: str, strings: Sequence[str], globs: Sequence[str]) -> tuple[str, ...]:
        """The paths of ``tree``'s files matching one of ``globs`` (git's default pathspec
        matching: ``*.py`` at any depth) that hold one of the fixed ``strings``, sorted: one ``git
        grep -l -F`` over the tree, asked once per arguments by this object (a tree never
        changes).

        Raises:
            GitError: git failed; ``tree`` is not a tree here.
        """
        key = (tree, tuple(strings), tuple(globs))
        known = self._grepped.get(key)
        if known is not None:
            return known
        patterns = [w for s in strings for w in ("-e", s)]
        args = ["grep", "-l", "-z", "-F", "--no-color", "--no-textconv", *patterns, tree]
        # git's own pathspec matching, whatever the caller's environment asks: ``*`` then
        # matches across ``/`` too
        env = {f"GIT_{k}_PATHSPECS": "0" for k in ("LITERAL", "GLOB", "NOGLOB", "ICASE")}
        out = self.run([*args, "--", *globs], env=env, ok=(0, 1)).stdout
        prefix = f"{tree}:"
        found = tuple(
            sorted(
                p.removeprefix(prefix)
                for p in (r.decode("utf-8", "surrogateescape") for r in out.split(b"\0"))
                if p
            )
        )
        self._grepped[key] = found
        return found

    def tree_entries(self, tree: str) -> list[tuple[str, str, str, str]]:
        """(mode, type, object id, path) of every entry of ``tree``, recursively
        (``git ls-tree -r``).

        Raises:
            GitError: ``tree`` is not a tree here.
        """
        out = self.run(["ls-tree", "-r", "-z", "--full-tree", tree]).stdout
        entries = []
        for rec in out.split(b"\0"):
            if rec:
                meta, _, raw_path = rec.partition(b"\t")
                mode, kind, oid = meta.decode().split()
                entries.append((mode, kind, oid, raw_path.decode("utf-8", "surrogateescape")))
        return entries

    def paths_in_commit(self, commit: str, paths: Sequence[str]) -> set[str]:
        """Of ``paths`` (root-relative), those ``commit``'s tree holds as an entry of that
        exact name (``git ls-tree --full-tree``).

        Raises:
            GitError: ``commit`` is not a commit here.
        """
        if not paths:
            return set()
        out = self.run(["ls-tree", "-z", "--name-only", "--full-tree", commit, "--", *paths])
        named = {r.decode("utf-8", "surrogateescape") for r in out.stdout.split(b"\0") if r}
        return named & set(paths)

    def peel_commit(self, oid: str) -> str | None:
        """The commit an id names, peeling annotated tags; None when it is not a commit.

        A full id is first asked of the run's ``cat-file`` (which reads the pushed commits
        anyway): a commit is its own answer, and is kept for :meth:`read_commits`. Any
        other answer (a tag, a tree, no object) is peeled by ``rev-parse`` as before.
        """
        if f"{oid}^{{commit}}" not in self._peeled and is_full_id(oid):
            data = self._catfile.batch([oid])
            header, _, rest = data.partition(b"\n")
            parts = header.split(b" ")
            if len(parts) == 3 and parts[0] == oid.encode() and parts[1] == b"commit":
                body = rest[: int(parts[2])]
                info = parse_commit(oid, body)
                if info is not None:
                    self._trees[oid] = info.tree
                    self._peeled[f"{oid}^{{commit}}"] = oid
                    self._peeled[f"{oid}^{{tree}}"] = info.tree
                    if self._kept_bytes + len(body) <= KEEP_LIMIT:
                        self._kept[oid] = body
                        self._kept_bytes += len(body)
        return super().peel_commit(oid)

    def read_commits(self, ids: Sequence[str]) -> list[CommitInfo]:
        """Parse commit objects by id (one ``git cat-file --batch``), in the order given.

        Ids that are not commits (a tag, a missing object) are left out.
        """
        raw = self.read_blobs(ids)
        out = []
        for oid in ids:
            data = raw.get(oid)
            if data is not None:
                info = parse_commit(oid, data)
                if info is not None:
                    out.append(info)
                    if is_full_id(oid):  # a commit's tree never changes: no rev-parse later
                        self._trees[oid] = info.tree
                        self._peeled[f"{oid}^{{commit}}"] = oid
                        self._peeled[f"{oid}^{{tree}}"] = info.tree
        return out


@frozen
class CommitInfo:
    """One commit object: id, tree, parents, author and committer names, raw message,
    the committer time (Unix seconds; 0 when unreadable), and the author and committer as
    ``Name <email>``."""

    id: str
    tree: str
    parents: tuple[str, ...]
    author: str
    committer: str
    message: str
    committed_at: int = 0
    author_ident: str = ""
    committer_ident: str = ""


def _ident_name(value: str) -> str:
    return value.split(" <", 1)[0]


def _ident_whole(value: str) -> str:
    """``Name <email>`` of an ident line (its time and zone dropped)."""
    name, sep, rest = value.partition(" <")
    return f"{name} <{rest.split('>', 1)[0]}>" if sep else name


def _ident_time(value: str) -> int:
    parts = value.rsplit(" ", 2)
    try:
        return int(parts[-2]) if len(parts) == 3 else 0
    except ValueError:
        return 0


def parse_commit(oid: str, data: bytes) -> CommitInfo | None:
    """Parse a raw commit object; None when ``data`` is not one (no ``tree`` header)."""
    head, _, body = data.partition(b"\n\n")
    fields: dict[str, list[str]] = {}
    for line in head.split(b"\n"):
        if line.startswith(b" "):
            continue  # continuation of a multi-line header (gpgsig, mergetag)
        key, _, value = line.partition(b" ")
        fields.setdefault(key.decode("ascii", "replace"), []).append(
            value.decode("utf-8", "replace")
        )
    if "tree" not in fields:
        return None
    return CommitInfo(
        id=oid,
        tree=fields["tree"][0],
        parents=tuple(fields.get("parent", ())),
        author=_ident_name(fields.get("author", [""])[0]),
        committer=_ident_name(fields.get("committer", [""])[0]),
        committed_at=_ident_time(fields.get("committer", [""])[0]),
        message=body.decode("utf-8", "replace"),
        author_ident=_ident_whole(fields.get("author", [""])[0]),
        committer_ident=_ident_whole(fields.get("committer", [""])[0]),
    )


class RangeAncestry:
    """Answers :class:`~gentle_hooks.git.refs.AncestorTrees`' question ("is this tree the
    tree of the commit, of one of its ancestors, or empty?") for every commit of a range
    at once, without a ``rev-list`` per commit.

    The range's own commits are walked in memory from their parents (a commit at the
    shallow boundary has none, as for ``rev-list``); a parent outside the range is asked
    through one lazy :class:`~gentle_hooks.git.refs.AncestorTrees` of its own, shared by
    every commit that reaches it. The ancestors of a commit are itself, its parents in the
    range and their ancestors, and the ancestors of its parents outside the range: the
    same set ``rev-list <commit>`` lists. With a graft file (which ``rev-list`` honours and
    commit objects do not show) every commit is asked through its own ``rev-list``.
    Answers for one tree are kept per commit, so a tree asked by many commits costs one
    walk of the range. Call :meth:`close` when done.
    """

    def __init__(self, repo: Refs, infos: Sequence[CommitInfo]) -> None:
        self._repo = repo
        shallow_file, grafts_file = repo.git_paths("shallow", "info/grafts")
        shallow = _ids_in(shallow_file)
        self._whole = bool(os.path.exists(grafts_file) or repo.env.get("GIT_GRAFT_FILE"))
        self._tree = {i.id: i.tree for i in infos}
        self._parents = {i.id: () if i.id in shallow else i.parents for i in infos}
        self._outside: dict[str, AncestorTrees] = {}
        self._reach: dict[str, dict[str, bool]] = {}  # tree -> commit -> answer

    def checker(self, commit: str) -> Callable[[str], bool]:
        """The question for one commit: ``tree -> bool``."""
        return partial(self.is_ancestor_tree, commit)

    def is_ancestor_tree(self, commit: str, tree: str) -> bool:
        """Whether ``tree`` is empty or the tree of ``commit`` or of one of its ancestors."""
        if tree in EMPTY_TREES.values():
            return True
        if self._whole or commit not in self._tree:
            return self._outside_trees(commit)(tree)
        memo = self._reach.setdefault(tree, {})
        stack = [commit]
        while stack:  # iterative: a range can be deeper than Python's recursion limit
            c = stack[-1]
            if c in memo:
                stack.pop()
                continue
            if self._tree[c] == tree:
                memo[c] = True
                stack.pop()
                continue
            inside = [p for p in self._parents[c] if p in self._tree]
            pending = [p for p in inside if p not in memo]
            if any(memo.get(p) for p in inside) or any(self._tree[p] == tree for p in pending):
                memo[c] = True
                stack.pop()
                continue
            if pending:
                stack.extend(pending)
                continue
            outside = [p for p in self._parents[c] if p not in self._tree]
            memo[c] = any(self._outside_trees(p)(tree) for p in outside)
            stack.pop()
        return memo[commit]

    def _outside_trees(self, commit: str) -> AncestorTrees:
        known = self._outside.get(commit)
        if known is None:
            known = self._outside[commit] = AncestorTrees(self._repo, commit)
        return known

    def close(self) -> None:
        """Stop every ``rev-list`` still running."""
        for walk in self._outside.values():
            walk.close()


def _ids_in(path: str) -> set[str]:
    try:
        with open(path, encoding="ascii") as fh:
            return {x.strip() for x in fh if x.strip()}
    except OSError:
        return set()
