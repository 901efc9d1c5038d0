"""The commits ``git fetch`` last brought in from another repository, read from each
worktree's ``FETCH_HEAD`` (SPEC §3 "Attribution follows content"; git-fetch(1) "OUTPUT",
gitrepository-layout(5) "FETCH_HEAD").

Room ``git``. ``FETCH_HEAD`` is a file in each worktree's git dir (the
main worktree's is the common dir; a linked one's is ``<common dir>/worktrees/<name>``),
one line a fetched ref: ``<id> TAB [not-for-merge] TAB <note>``, the note being ``[<kind>
]['<name>' of ]<url>`` (git's ``fetch.c``: kind ``branch``, ``tag`` or ``remote-tracking
branch``; a ref name holds no space, so its ``' of `` ends it; the URL as the remote names
it, a trailing ``/`` and ``.git`` cut). :func:`fetched_ids` lists the ids of the lines
whose source is another repository. A line whose source is this repository itself is left
out: that content was made here, not fetched (``git fetch .
HEAD:refs/remotes/origin/main``; its own path or one of its worktrees', as a path or
``file://`` URL; a relative path is resolved against the work tree root of the worktree
whose ``FETCH_HEAD`` it is, where git ran the fetch, and taken as this repository when
that root is not known: fail closed).

Cutting ``.git`` makes a note ambiguous: ``/x/app`` is written for a fetch from ``/x/app``
(this repository, when its work tree is there) and from ``/x/app.git`` (its ``origin``,
cloned beside it, as ``git clone /x/app.git`` makes it). A line whose source names this
repository while ``<source>.git`` is another repository (a directory not this one) is taken
as fetched when that repository holds its commit (one ``git cat-file --batch-check`` there
for such lines, none otherwise): a teammate's commit pulled from ``/x/app.git`` is; the
agent's own commit fetched from ``/x/app`` into a remote-tracking branch is not (only this
repository holds it).

Open limits: a line written by hand into ``FETCH_HEAD`` is taken at its word, as ``git
pull`` itself takes it; an ambiguous line's commit the call also pushed to ``<source>.git``
is taken as fetched.
"""

from __future__ import annotations

import os

from gentle_hooks.errors import GitError
from gentle_hooks.git.process import run_git, scrubbed_env

#: The most bytes read of one ``FETCH_HEAD`` (a fetch of every branch of a large remote
#: fits); the lines past it are not read (their commits stay walked: fail closed).
MAX_BYTES = 4 * 1024 * 1024
#: The most linked worktrees whose ``FETCH_HEAD`` is read.
MAX_TREES = 64
#: The kinds ``fetch.c`` writes before a fetched ref's quoted name.
_KINDS = ("remote-tracking branch ", "branch ", "tag ")
_HEX = frozenset("0123456789abcdef")


def fetched_ids(common_dir: str) -> list[str]:
    """The commit ids the ``FETCH_HEAD`` of every worktree of the repository whose common
    dir is ``common_dir`` names as fetched from another repository, without repeats, in
    file order; an unreadable file names none."""
    trees: list[tuple[str, str | None]] = [(common_dir, _main_root(common_dir))]
    try:
        names = sorted(os.listdir(os.path.join(common_dir, "worktrees")))
    except OSError:  # no linked worktree
        names = []
    for name in names[:MAX_TREES]:
        where = os.path.join(common_dir, "worktrees", name)
        trees.append((where, _linked_root(where)))
    own = {os.path.realpath(p) for t in trees for p in t if p}
    own |= {os.path.realpath(os.path.join(r, ".git")) for _, r in trees if r}
    out: dict[str, None] = {}
    twins: dict[str, list[str]] = {}  # <source>.git -> the ids of the lines naming it
    for where, root in trees:
        for oid, note in _lines(os.path.join(where, "FETCH_HEAD")):
            source = source_of(note)
            if not _is_own(source, root, own):
                out.setdefault(oid, None)
            elif twin := _twin(source, root, own):
                twins.setdefault(twin, []).append(oid)
    for twin, ids in twins.items():
        for oid in _held(twin, ids):
            out.setdefault(oid, None)
    return list(out)


def source_of(note: str) -> str:
    """The source URL (or path) of a ``FETCH_HEAD`` line's note: what follows the fetched
    ref's quoted name and `` of ``, or the whole note when it names no ref (``HEAD``)."""
    rest = next((note[len(k) :] for k in _KINDS if note.startswith(k + "'")), note)
    if rest.startswith("'") and (end := rest.find("' of ", 1)) > 0:
        return rest[end + len("' of ") :]
    return note


def _twin(source: str, root: str | None, own: set[str]) -> str | None:
    """``<source>.git`` resolved, when ``source`` (a ``FETCH_HEAD`` URL naming this
    repository) is a path and that is a directory other than this repository's own (the
    note git wrote for a fetch from it is the same); None otherwise."""
    path = source[len("file://") :] if source.startswith("file://") else source
    if not os.path.isabs(path):
        if root is None:
            return None
        path = os.path.join(root, path)
    twin = os.path.realpath(path.rstrip("/") + ".git")
    return twin if twin not in own and os.path.isdir(twin) else None


def _held(git_dir: str, ids: list[str]) -> list[str]:
    """The ``ids`` the repository ``git_dir`` holds as commits (none when git cannot read
    it: the lines stay this repository's, fail closed)."""
    try:
        proc = run_git(
            ["--git-dir", git_dir, "cat-file", "--batch-check=%(objectname) %(objecttype)"],
            git_dir,
            scrubbed_env(),
            input="".join(f"{i}\n" for i in ids).encode(),
        )
    except GitError:
        return []
    if proc.returncode != 0:
        return []
    found = (line.split() for line in proc.stdout.decode("ascii", "replace").splitlines())
    return [f[0] for f in found if len(f) == 2 and f[1] == "commit"]


def _lines(path: str) -> list[tuple[str, str]]:
    """``(id, note)`` of each well-formed line of the ``FETCH_HEAD`` file ``path``."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES)
    except OSError:
        return []
    out = []
    for raw in data.split(b"\n"):
        fields = raw.decode("utf-8", "surrogateescape").split("\t", 2)
        if len(fields) == 3 and len(fields[0]) in (40, 64) and set(fields[0]) <= _HEX:
            out.append((fields[0], fields[2]))
    return out


def _main_root(common_dir: str) -> str | None:
    """The main worktree's root: the directory holding the common dir when it is named
    ``.git`` (None otherwise: not known without git)."""
    common = common_dir.rstrip(os.sep)
    return os.path.dirname(common) if os.path.basename(common) == ".git" else None


def _linked_root(where: str) -> str | None:
    """A linked worktree's root, from its git dir ``where``'s ``gitdir`` file (the path of
    its ``.git`` file); None when unreadable."""
    try:
        with open(os.path.join(where, "gitdir"), "rb") as fh:
            dotgit = fh.read(4096).decode("utf-8", "surrogateescape").strip()
    except OSError:
        return None
    return os.path.dirname(dotgit) if os.path.isabs(dotgit) else None


def _is_own(source: str, root: str | None, own: set[str]) -> bool:
    """Whether ``source`` (a ``FETCH_HEAD`` URL) is this repository: a path or ``file://``
    URL resolving to one of ``own``; a relative one against ``root`` (None: taken as this
    repository, fail closed). A URL of a host (``https://``, ``ssh://``, ``host:path``) is
    another repository."""
    path = source[len("file://") :] if source.startswith("file://") else source
    if not path or "://" in path or (":" in path.split("/", 1)[0] and path[0] not in "./"):
        return False
    if not os.path.isabs(path):
        if root is None:
            return True
        path = os.path.join(root, path)
    real = os.path.realpath(path)
    return real in own or os.path.realpath(real + ".git") in own
