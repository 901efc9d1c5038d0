"""The ways out of a range block on a pull request from a fork (docs/ci.md "Forks").

Room ``report``. The writer's push sends the notes to the fork (the pull request's head
repository), which a writer without push access to the base can always push to; the job
judging the pull request reads them once it fetched them from there. So a fork's block
says, where it ran, how the job gets the fork's notes (:func:`fork_fetch_steps`), and
tells the writer to share with the fork (:data:`SHARE_WITH_FORK`; the ``sync push`` lines
name the fork through :func:`~gentle_hooks.report.worktree_text.to_remote`). Pure string
building.
"""

from __future__ import annotations

from gentle_hooks.notes.pull_request import HEAD_NOTES_REF
from gentle_hooks.policy.shellwords import quote

#: A labelled line of a way out (:data:`gentle_hooks.report.fixes.Step`).
Step = tuple[str, str]

#: The words before the writer's ``sync push`` on a fork's pull request.
SHARE_WITH_FORK = (
    "in the clone that verified this commit: share its note with the fork the pull request "
    "comes from, which its writer can push to (the base repository need not take the "
    "writer's push); the or: lines: the remote the branch pushes to, or git alone where "
    "gentle-hook is not on PATH there (a pre-commit framework install)"
)


def fork_fetch_line(fork: str) -> str:
    """The git line that fetches the notes of ``fork`` (a URL or absolute path) where the
    range gate reads them (:data:`~gentle_hooks.notes.pull_request.HEAD_NOTES_REF`, beside
    the local notes: no merge commit, so no git identity needed), quoted for a POSIX
    shell: the line docs/ci.md's recipes run before their gate."""
    return f"git fetch -q {quote(fork)} {quote(f'+refs/notes/gentle-hooks:{HEAD_NOTES_REF}')}"


def fork_fetch_steps(here: str, fork: str) -> list[Step]:
    """The first way of a fork's block, for where it ran (the job, or whoever judges the
    pull request again): the note may be on the base or on the fork, not fetched yet.
    ``here``: the CLI as this process names it (:func:`~gentle_hooks.report.fixes.program`)."""
    return [
        (
            "where",
            f"here, when the note is on the base repository or on the fork the pull request "
            f"comes from ({fork}) but not fetched yet: fetch both, then judge again (a CI job "
            "runs the second line before its gate, as docs/ci.md's recipes do: a writer "
            "without push access to the base shares with the fork)",
        ),
        ("run", f"{here} sync fetch"),
        ("run", fork_fetch_line(fork)),
    ]
