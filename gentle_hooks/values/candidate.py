"""Candidates and their identity (SPEC §3): the pair (base tree, candidate tree).

Room ``values``, pure value types. Imports only the standard library. The git adapter builds these;
the ledger, the gate and the notes key every record by :func:`candidate_identity`.

Value types here are ``@frozen`` classes (:mod:`gentle_hooks.values.frozen`), not pydantic
models: a 10,000-path diff would spend tens of milliseconds validating what git already
guarantees. Pydantic models sit at the JSON boundary (:mod:`gentle_hooks.report.models`).
"""

from __future__ import annotations

from enum import Enum

from gentle_hooks.values.digest import sha256_hex
from gentle_hooks.values.frozen import frozen

#: Version tag of the canonical identity encoding; bump it and every identity changes.
IDENTITY_VERSION = b"gentle-hooks.candidate/v1"

#: Tree ids of the empty tree, by object format.
EMPTY_TREES = {
    "sha1": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}

#: Blob ids of the empty file, by object format: content no writer can be told by.
EMPTY_BLOBS = frozenset(
    {
        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
        "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
    }
)

MODE_FILE = "100644"
MODE_EXEC = "100755"
MODE_SYMLINK = "120000"
MODE_GITLINK = "160000"
MODE_NONE = "000000"


class Projection(str, Enum):
    """How the candidate tree is taken (SPEC §3 "Candidate tree, by projection")."""

    COMMITTED = "committed"
    STAGED = "staged"
    SNAPSHOT = "snapshot"


def candidate_identity(base_tree: str, candidate_tree: str) -> str:
    """Identity of a candidate: ``sha256:`` + SHA-256 of a canonical, versioned encoding.

    Args:
        base_tree: hex id of the base tree (40 or 64 lowercase hex digits).
        candidate_tree: hex id of the candidate tree.

    Returns:
        ``"sha256:" + 64 hex digits``. Depends on the two tree ids only: clone path,
        messages, authors and dates cannot change it (SPEC §3 "Identity").

    Raises:
        ValueError: a tree id that is not lowercase hex of length 40 or 64.
    """
    for tree in (base_tree, candidate_tree):
        if len(tree) not in (40, 64) or tree.strip("0123456789abcdef"):
            raise ValueError(f"not a tree id: {tree!r}")
    payload = b"%s\nbase %s\ntree %s\n" % (
        IDENTITY_VERSION,
        base_tree.encode("ascii"),
        candidate_tree.encode("ascii"),
    )
    return "sha256:" + sha256_hex(payload)


@frozen
class PathChange:
    """One changed path between two trees, as ``git diff --raw --numstat`` reports it.

    Attributes:
        path: the path in the candidate tree (the old path for a deletion); str, may hold
            spaces, newlines or any Unicode (decoded with ``surrogateescape``).
        old_path: the path in the base tree for renames and copies, else None.
        status: git's status letter: A, M, D, R, C, T.
        old_mode / new_mode: six-digit octal modes; ``000000`` where absent.
        old_oid / new_oid: full blob (or gitlink) ids; all zeros where absent.
        additions / deletions: line counts; None for binary files.
    """

    path: str
    old_path: str | None
    status: str
    old_mode: str
    new_mode: str
    old_oid: str
    new_oid: str
    additions: int | None
    deletions: int | None

    @property
    def binary(self) -> bool:
        """True when git reports ``-`` counts (a binary file)."""
        return self.additions is None

    @property
    def submodule(self) -> bool:
        """True when either side is a gitlink (a submodule commit)."""
        return MODE_GITLINK in (self.old_mode, self.new_mode)

    @property
    def mode_only(self) -> bool:
        """True when only the mode changed: same content, different mode."""
        return (
            self.old_mode != self.new_mode
            and self.old_oid == self.new_oid
            and self.status in ("M", "T")
        )

    @property
    def exec_flip(self) -> bool:
        """True when the executable bit flipped between 100644 and 100755 (either way)."""
        return {self.old_mode, self.new_mode} == {MODE_FILE, MODE_EXEC}

    @property
    def lines(self) -> int:
        """Additions plus deletions; 0 for binary files."""
        return (self.additions or 0) + (self.deletions or 0)


@frozen
class BaseResolution:
    """How the base was found (SPEC §3 "Base").

    Attributes:
        ref: the base ref used (``origin/main``), or None when none resolved.
        source: where the ref came from: ``flag``, ``config``, ``origin/HEAD``,
            ``fallback`` or ``none``.
        commit: the merge-base commit, or None when there is none (empty-tree base).
        tree: the base tree id (the empty tree when commit is None).
        note: why the base is what it is, in one line, for the output.
        replaced: the base is the first parent of the commit the candidate replaces (a
            staged ``commit --amend`` of a commit the base ref contains), not a merge-base
            with it: a command run outside the hook binds it only by naming that parent
            with ``--base-ref``.
    """

    ref: str | None
    source: str
    commit: str | None
    tree: str
    note: str
    replaced: bool = False


@frozen
class Candidate:
    """A candidate: base tree, candidate tree, identity and how they were found.

    Attributes:
        projection: committed | staged | snapshot.
        base: the base resolution.
        tree: the candidate tree id.
        head: the commit the candidate stands on (HEAD or the commit judged), or None
            when HEAD is unborn.
        identity: :func:`candidate_identity` of (base.tree, tree).
        object_format: ``sha1`` or ``sha256``.
    """

    projection: Projection
    base: BaseResolution
    tree: str
    head: str | None
    identity: str
    object_format: str

    @property
    def is_empty(self) -> bool:
        """True when the candidate tree equals its base tree (no change at all)."""
        return self.tree == self.base.tree
