"""The other worktrees of the repository a shell call runs in: a command can ``cd`` into one
(``git worktree add ../b`` earlier, then ``cd ../b && sed -i ... app.py``), so its snapshot
is kept there too (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md, "What a Bash command writes").

Room ``services``. :func:`other_trees` lists them (no git process when the repository has
no linked worktree: ``<common dir>/worktrees`` is looked at first); :func:`call_id_in`
gives a call's write in another worktree of the same repository its own tool call id, since
the worktrees share one ledger, where a call id records once. A linked worktree the call
itself created (``git worktree add ../c -b c && cd ../c && sed -i ...``) had no snapshot
before it: :func:`created_since` measures it from its ``HEAD``.
"""

from __future__ import annotations

import hashlib
import os

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.git.submodules import changed_submodules
from gentle_hooks.services.shell_notes import submodules_note

#: The most other worktrees a shell call's snapshot is kept in; past it the rest are named
#: in one line and what the command writes there is not recorded.
MAX_TREES = 16


def other_trees(root: str) -> tuple[list[str], list[str]]:
    """The work tree roots of the other worktrees of the repository whose work tree is
    ``root`` that exist, at most :data:`MAX_TREES` (in ``git worktree list`` order), and
    those left out past it. Empty when the repository has no linked worktree, or git
    cannot list them.

    Raises:
        GitError: git cannot open ``root``.
    """
    repo = Repository.open(root)
    try:
        if not os.listdir(os.path.join(repo.paths.common_dir, "worktrees")):
            return [], []
    except OSError:  # no linked worktree was ever added
        return [], []
    here = os.path.realpath(repo.paths.toplevel or root)
    try:
        listed = repo.worktree_paths()
    except GitError:
        return [], []
    trees = [p for p in listed if os.path.realpath(p) != here and os.path.isdir(p)]
    return trees[:MAX_TREES], trees[MAX_TREES:]


def status_same(tree: str) -> str:
    """What a shell call's post-tool line adds to "changed no file in ``tree``"
    (:func:`.shell_notes.submodules_note` of the submodules git status shows changed there:
    one ``git status`` when the work tree has a ``.gitmodules``, none otherwise); a
    submodule list git cannot give reads as none.

    Raises:
        GitError: git cannot open ``tree``.
    """
    repo = Repository.open(tree)
    try:
        changed = changed_submodules(repo)
    except GitError:  # a submodule git cannot read: the line stays as it was
        changed = []
    return submodules_note(changed)


def snapshot_time(path: str) -> float | None:
    """When the snapshot file ``path`` was written (its ``lstat`` mtime), None when absent."""
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return None


def created_since(
    tree: str, since: float | None
) -> tuple[tuple[str, ...], tuple[tuple[str, str | None], ...]] | None:
    """(paths, their starts) of a linked worktree ``tree`` created after the snapshot written
    at ``since`` (its administrative ``commondir`` file, which ``git worktree add`` writes
    once, is not older): every path ``git status`` shows changed there, each measured from
    its blob in the worktree's ``HEAD`` (None: absent there), as the call that created it
    wrote what differs from it (fail closed: toward the writer). None for a worktree that
    existed before (its missing snapshot is said as before) or when ``since`` is None.

    Raises:
        GitError: git failed.
    """
    repo = Repository.open(tree)
    try:
        made = os.lstat(os.path.join(repo.paths.git_dir, "commondir")).st_mtime
    except OSError:
        return None
    if since is None or made < since:
        return None
    tracked, untracked = repo.dirty_split()
    head = repo.head()
    held: dict[str, str | None] = dict(repo.blobs_in(head, tracked)) if head else {}
    now = repo.hash_worktree([*tracked, *untracked])
    paths = tuple(sorted(p for p, b in now.items() if held.get(p) != b))
    return paths, tuple((p, held.get(p)) for p in paths)


def call_id_in(call_id: str | None, root: str, top: str) -> str | None:
    """The tool call id a call's write in the work tree ``top`` is recorded under, when the
    call's own work tree is ``root``: the call's own in ``root`` (and in a work tree of
    another repository, whose ledger is its own), else the call's id followed by
    ``@tree:`` and a hash of ``top``'s real path, the same each time (so a write in two
    worktrees of one repository, which share one ledger, records in each; a replay is
    stopped by the spent snapshot first).

    Raises:
        GitError: git cannot open ``root`` or ``top``.
    """
    if call_id is None or os.path.realpath(top) == os.path.realpath(root):
        return call_id
    if _common(top) != _common(root):
        return call_id
    real = os.path.realpath(top).encode("utf-8", "surrogatepass")
    return f"{call_id}@tree:{hashlib.sha256(real).hexdigest()[:12]}"


def _common(where: str) -> str:
    """The real path of the git common directory of the repository at ``where``."""
    return os.path.realpath(Repository.open(where).paths.common_dir)
