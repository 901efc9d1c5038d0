"""The worktree a block checks a commit out in, and whose ignored files a spot check there
needs (SPEC §5 "Spot check": the candidate's exact tree "with the project's ignored
dependency folders available").

Room ``services``. A push, CI or server block verifies a commit that is not HEAD in a
linked worktree of its own, ``<git common dir>/gentle-hooks/verify-<12 hex>``
(:func:`gentle_hooks.report.worktree_text.worktree_dir` prints the lines that make it).
Git puts none of the user's ignored files there (a ``.env``, a virtual environment), so a
re-run in place would fail for what the worktree lacks, not for the change, and be
recorded as a refutation. :func:`ignored_holder` names the work tree whose ignored files
the spot check links into its temporary checkout instead
(:func:`gentle_hooks.services.checkout.candidate_checkout`). Git work goes through the
``git`` package.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.checkout import other_worktrees
from gentle_hooks.git.repository import Repository

#: The name a block's commit worktree has under ``<git common dir>/gentle-hooks``
#: (``verify-`` and the commit's first 12 hex digits).
_COMMIT_WORKTREE = re.compile(r"verify-[0-9a-f]{12}")


def is_commit_worktree(repo: Repository, root: str) -> bool:
    """Whether ``root`` (a work tree root of ``repo``) is a worktree a block checked a
    commit out in: ``gentle-hooks/verify-<12 hex>`` directly under the common git
    directory."""
    here = os.path.realpath(root)
    home = os.path.realpath(os.path.join(repo.paths.common_dir, "gentle-hooks"))
    return os.path.dirname(here) == home and bool(
        _COMMIT_WORKTREE.fullmatch(os.path.basename(here))
    )


def ignored_holder(repo: Repository, root: str, places: Sequence[str]) -> Repository | None:
    """For a spot check bound to the commit worktree ``root`` of ``repo``
    (:func:`is_commit_worktree`): the other work tree whose ignored files the re-run gets —
    the innermost one holding the first of ``places`` that one holds (the caller's order:
    where the writer's reported run ran, then the directory the command was started in,
    where the user pasted the block), else the repository's first (main) work tree that is
    not a commit worktree; None when git lists no such work tree (or cannot list them)."""
    try:
        others = [o for o in other_worktrees(repo) if not is_commit_worktree(o, _top(o))]
    except GitError:
        return None
    for place in places:
        where = os.path.realpath(place)
        holding = [
            (len(top), o)
            for o in others
            if where == (top := os.path.realpath(_top(o)))
            or where.startswith(top.rstrip(os.sep) + os.sep)
        ]
        if holding:  # the innermost: a worktree may be nested in another's directory
            return max(holding, key=lambda pair: pair[0])[1]
    return others[0] if others else None


def _top(repo: Repository) -> str:
    """``repo``'s work tree root (other_worktrees returns only work trees)."""
    return repo.paths.toplevel or ""
