"""Where a ``receipt run`` runs, so that it observes the candidate it binds to (SPEC §6
"receipt").

``--committed`` refuses a work tree whose tracked files differ from the commit: the command
would test those changes, not the commit. ``--staged`` runs in the work tree when it holds
exactly the staged tree (ignored files aside), else in a temporary linked checkout of the
staged tree (:func:`gentle_hooks.services.checkout.candidate_checkout`), so unstaged edits
never decide a receipt bound to the index.

Room ``services``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence

from gentle_hooks.errors import Command, GitError, UsageError, cli
from gentle_hooks.git.process import scrubbed_env
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.checkout import candidate_checkout
from gentle_hooks.services.runner import stopped_cleanly
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import frozen


def refuse_dirty_committed(repo: Repository, binding: Binding, argv: Sequence[str]) -> None:
    """Raise when ``binding`` is ``--committed`` and tracked files differ from HEAD.

    Raises:
        UsageError: one line, with the way out: stash the changes, report, bring them
            back (``git stash pop``), each runnable as printed.
    """
    if binding.projection is not Projection.COMMITTED or not repo.has_dirty_tracked():
        return
    raise UsageError(
        "receipt run --committed: tracked files differ from the commit, so the command "
        "would test them, not the commit; set them aside, report, then bring them back",
        commands=(
            Command(("stash", "push", "--quiet"), tool="git"),
            cli("receipt", "run", *binding.words(), "--", *argv),
            Command(("stash", "pop", "--quiet"), tool="git"),
        ),
    )


@frozen
class RunPlace:
    """Where the command runs: ``cwd``; ``env`` (None: ours); ``note``: said when it is not
    the work tree (else empty)."""

    cwd: str
    env: Mapping[str, str] | None
    note: str = ""


def _holds(repo: Repository, tree: str) -> bool:
    """True when the work tree, as ``git add -A`` would stage it, is exactly ``tree``
    (ignored files aside); a work tree git cannot stage is not known to hold it."""
    try:
        return repo.snapshot_tree() == tree
    except GitError:
        return False


@contextlib.contextmanager
def run_place(
    repo: Repository,
    root: str,
    cand: Candidate,
    cwd: str,
    dependency_dirs: Sequence[str],
) -> Iterator[RunPlace]:
    """The place a ``receipt run`` for ``cand`` runs in, from directory ``cwd``.

    A staged candidate the work tree does not hold runs in a temporary linked checkout of
    its tree (the directory ``cwd`` maps to, dependency folders linked in), removed on
    exit; every other candidate runs in ``cwd`` itself.

    Raises:
        UsageError: ``cwd`` is a directory the staged tree does not hold.
        GitError / OSError: the checkout could not be made.
    """
    if cand.projection is not Projection.STAGED or _holds(repo, cand.tree):
        yield RunPlace(cwd, None)
        return
    rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    rel = "." if rel.startswith("..") else rel
    with stopped_cleanly(), candidate_checkout(repo, root, cand, dependency_dirs) as co:
        run_dir = os.path.normpath(os.path.join(co.root, rel))
        if not os.path.isdir(run_dir):
            raise UsageError(
                f"receipt run --staged: the staged tree does not hold {rel!r}, where the "
                "command would run; stage it or run from the repository root"
            )
        linked = f" (linked in: {', '.join(co.linked)})" if co.linked else ""
        yield RunPlace(
            run_dir,
            scrubbed_env(),
            "ran in a temporary linked checkout of the staged tree"
            f"{linked}: the work tree has unstaged or untracked changes",
        )
