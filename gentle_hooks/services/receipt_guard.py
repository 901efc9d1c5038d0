"""A ``receipt run --committed`` refuses a work tree whose tracked files differ from the
commit (SPEC §6 "receipt"): the command would test those changes, not the commit, and the
receipt would still bind to the commit's candidate.

Room ``services``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import Command, UsageError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection


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
