"""Objects by id: blobs, a path in a commit, commits parsed (SPEC §2).

Room ``git``. One ``git cat-file --batch`` per batch of ids; :class:`CommitInfo` is our
model of a commit object.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.core import is_full_id
from gentle_hooks.git.refs import Refs
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # the blob search starts threads; the gates import it on demand
if TYPE_CHECKING:
    from gentle_hooks.git.blobsearch import BlobSearch


class Objects(Refs):
    """Object reads of a repository."""

    def read_blobs(self, oids: Sequence[str]) -> dict[str, bytes]:
        """Read blobs by id in one ``git cat-file --batch`` process.

        Returns:
            oid -> content for every id that exists as an object.
        """
        if not oids:
            return {}
        data = self.run(["cat-file", "--batch"], input="\n".join(oids).encode() + b"\n").stdout
        out: dict[str, bytes] = {}
        pos = 0
        for oid in oids:
            end = data.index(b"\n", pos)
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) == 3:
                size = int(header[2])
                out[oid] = data[pos : pos + size]
                pos += size + 1
        return out

    def search_blobs(
        self, needles: Sequence[bytes], prefix: bytes, fold: bool = False
    ) -> BlobSearch:
        """A :class:`BlobSearch` in this repository: which blobs hold one of ``needles``
        (in their ASCII-lowercased bytes, with ``fold``: the needles are then lowercase) or
        start with ``prefix``."""
        from gentle_hooks.git.blobsearch import BlobSearch  # threads: off the gates' path

        return BlobSearch(self, needles, prefix, fold)

    def read_path(self, commit: str, path: str) -> bytes | None:
        """The bytes of ``path`` in ``commit``'s tree, or None when it has no such file."""
        proc = self.run(["cat-file", "blob", f"{commit}:{path}"], ok=(0, 128))
        return proc.stdout if proc.returncode == 0 else None

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
