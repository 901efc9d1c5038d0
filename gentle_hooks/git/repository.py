"""The git adapter's one entry point (SPEC §2 "Git access", §3): :class:`Repository`.

Room ``git``: the only code that runs git. It returns our own value types, never raw git
output. Each job lives in its own module and :class:`Repository` composes them:

* :mod:`.location` — where the repository lives, and the environment its children get;
* :mod:`.core` — running git there, the paths git keeps for it, the worktree list;
* :mod:`.gitconfig` — config reads and writes, the committer identity;
* :mod:`.refs` — resolving and peeling revisions, merge-bases, commits not yet pushed,
  HEAD's reflog;
* :mod:`.objects` — blobs, tree entries and commits by id (:class:`~.objects.CommitInfo`);
* :mod:`.notes` — notes refs read, written and merged;
* :mod:`.remote` — single refs fetched from and pushed to a remote;
* :mod:`.destination` — the remote the work goes to, and the commits it holds (where
  loosening settings are read from);
* :mod:`.index` — the staged and snapshot projections, in a private index;
* :mod:`.diff` — per-path diff stats and added lines, diffed ahead in batches;
* :mod:`.delta` — per-path blob changes, and the work tree's blobs (attribution);
* :mod:`.base` — the base ref, its merge-base, and the candidate;
* :mod:`.room_export` — one tree exported as a standalone repository (the verifier's clean
  room); :mod:`.room_check` — what such a room holds now;
* :mod:`.ignore` — whether a path is ignored here, and this clone's ``info/exclude``;
* :mod:`.blobsearch`, :mod:`.parse`, :mod:`.process` — the machinery under them;
* :mod:`.probe` — the hook pass path's light reads, without this class.

Diff stats come from git itself (``git diff --raw --numstat -z``): git's own rename pairing
is what users see. Every read goes through git plumbing, not pygit2 (README "Design
decisions"): pygit2 refuses SHA-256 repositories, costs ~10x ``python -c pass`` to import,
and child ``git`` processes honour the hook environment (``GIT_DIR``, ``GIT_INDEX_FILE``,
``GIT_WORK_TREE``, quarantine object directories) exactly as git defines it. When ``--cwd``
names another repository those variables are dropped, so no child working on another
repository inherits them.
"""

from __future__ import annotations

from gentle_hooks.git.base import Bases
from gentle_hooks.git.delta import Deltas
from gentle_hooks.git.destination import Destinations
from gentle_hooks.git.diff import Diffs
from gentle_hooks.git.gitconfig import GitConfig
from gentle_hooks.git.ignore import Ignores
from gentle_hooks.git.location import open_paths
from gentle_hooks.git.notes import Notes
from gentle_hooks.git.remote import Remotes
from gentle_hooks.git.room_check import RoomChecks
from gentle_hooks.git.room_export import RoomExport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    R = TypeVar("R", bound="Repository")


class Repository(
    Bases, Notes, Diffs, Deltas, Destinations, Remotes, RoomExport, RoomChecks, Ignores, GitConfig
):
    """A git repository opened from a directory, honouring a hook's environment.

    Use :meth:`open`; every method runs git plumbing and returns our value types.
    """

    @classmethod
    def open(cls: type[R], cwd: str | None = None, *, allow_bare: bool = False) -> R:
        """Open the repository containing ``cwd`` (default: the current directory).

        See :func:`gentle_hooks.git.location.open_paths` for which hook variables are kept.

        Raises:
            GitError: not a git repository, inside a git dir, or a bare repository when
                ``allow_bare`` is False; git missing from PATH.
        """
        paths, env = open_paths(cwd, allow_bare)
        return cls(paths, env)
