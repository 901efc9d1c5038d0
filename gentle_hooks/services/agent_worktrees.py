"""Agent configuration across the worktrees of one repository (SPEC §7 "Hooks"; ``doctor``
and ``install --agent``).

Room ``services``. Read-only. A runtime's project configuration file (``.claude/settings.json``,
``.codex/hooks.json``...) that git does not track lives in the one worktree it was written in:
another worktree of the repository has none, so an agent working there records nothing,
and ``doctor`` there would see no runtime at all. :func:`missing_here` names such files for
``doctor``; :func:`untracked_note` is the line ``install --agent`` prints when the file it
wrote is untracked and other worktrees exist.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.runtimes import RUNTIMES, Runtime
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository

#: How much of another worktree's configuration file is read to see whether it wires us.
_READ = 1 << 20


def _others(repo: Repository, root: str) -> list[str]:
    """The work tree roots of the repository's other worktrees (none when git cannot
    list them)."""
    here = os.path.realpath(root)
    try:
        paths = repo.worktree_paths()
    except GitError:
        return []
    return [p for p in paths if os.path.realpath(p) != here]


def _wires(path: str, rt: Runtime) -> bool:
    """Whether the file at ``path`` names our recorder for ``rt`` (``record --from NAME``)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(_READ)
    except OSError:
        return False
    return f"--from {rt.name}" in text or f"--from={rt.name}" in text


def missing_here(repo: Repository, root: str) -> list[tuple[Runtime, str, str]]:
    """(runtime, its project file relative to the work tree root, the other worktree
    holding it) for each runtime whose project file in another worktree of the repository
    wires our recorder while the work tree ``root`` has no such file; empty when ``root``
    is the repository's only worktree."""
    others = _others(repo, root)
    out = []
    for rt in RUNTIMES:
        rel = rt.wiring.project if rt.wiring is not None else None
        if rel is None or os.path.lexists(os.path.join(root, rel)):
            continue
        other = next((o for o in others if _wires(os.path.join(o, rel), rt)), None)
        if other is not None:
            out.append((rt, rel, other))
    return out


def missing_line(rel: str, other: str) -> str:
    """The ``doctor`` line of a runtime wired in another worktree's untracked ``rel``."""
    return (
        f"its project configuration {rel} is in the worktree {other} but not in this one "
        "(git does not track it, so worktrees do not share it): edits made here are not "
        "recorded; wire it here"
    )


def untracked_note(repo: Repository, root: str, path: str) -> str | None:
    """The line ``install --agent`` prints when the project file it wrote at ``path`` is not
    tracked by git and the repository has other worktrees; None otherwise."""
    others = _others(repo, root)
    if not others:
        return None
    rel = os.path.relpath(path, root)
    proc = repo.run(["ls-files", "--error-unmatch", "--", rel], ok=(0, 1))
    if proc.returncode == 0:
        return None
    return (
        f"{rel} is not tracked by git: the repository's {len(others)} other worktree(s) do "
        f"not have it, and an agent working there records nothing; run this install there too"
    )
