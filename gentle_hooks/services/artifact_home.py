"""Where a verdict's artifact pair is kept when the work tree it was made in is removed
after it (seed 001 "Artifact": the artifact is saved; SPEC §6 "verify", "verdict").

Room ``services``. A push block verifies a commit that is not ``HEAD`` in a linked
worktree it names under the repository's common git directory
(``<common>/gentle-hooks/verifier-<commit>``:
:func:`gentle_hooks.report.worktree_text.worktree_dir`), and its last line removes that
worktree with ``git worktree remove --force``: an artifact directory inside it
(``verification.artifact_dir``, relative to the work tree) would go with it. The pair is
written to :data:`REPORTS` ``/<identity hex>/`` of the common directory instead: every
worktree of the clone reaches it, no block removes it, and it is outside every work tree,
so it changes no candidate.
"""

from __future__ import annotations

import os

from gentle_hooks.git.repository import Repository

#: The directory, under the common git directory, of the pairs kept past their worktree.
REPORTS = os.path.join("gentle-hooks", "reports")


def kept_dir(repo: Repository, root: str, artifact_dir: str, identity: str) -> str | None:
    """The absolute directory the artifact pair of candidate ``identity`` is written to
    instead of ``artifact_dir``, or None to write it where ``artifact_dir`` says.

    Args:
        repo: the repository; root: its work tree root (absolute); artifact_dir:
            ``verification.artifact_dir`` (relative to ``root``, or absolute);
        identity: the candidate's identity (``sha256:<hex>``).

    Returns:
        ``<common dir>/gentle-hooks/reports/<hex>`` when ``root`` is a worktree under
        ``<common dir>/gentle-hooks/`` (one a block adds and removes) and ``artifact_dir``
        lies inside it; None otherwise (an artifact directory outside it outlives it).
    """
    common = os.path.realpath(repo.paths.common_dir)
    here = os.path.realpath(root)
    if not here.startswith(os.path.join(common, "gentle-hooks") + os.sep):
        return None
    target = os.path.realpath(os.path.join(here, artifact_dir))
    if target != here and not target.startswith(here + os.sep):
        return None
    return os.path.join(common, REPORTS, identity.partition(":")[2] or identity)


def kept_note(kept: str) -> str:
    """The line that says where a kept pair is and why it is there."""
    return (
        f"the verifier's report is kept in {kept}: the worktree it ran in is removed once "
        "the commit is verified, the report stays"
    )
