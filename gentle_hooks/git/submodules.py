"""The submodules of a work tree that git status shows changed (SPEC §7 "Hooks";
docs/agents/claude-code.md, "What a Bash command writes").

Room ``git``. An agent's shell snapshot leaves submodules out (``status
--ignore-submodules=all``: each is a repository of its own, snapshot there when a command
names it: :mod:`gentle_hooks.services.agent_above`); when a call changed no file of the
outer work tree, the recorder names the submodules git status shows changed, so that its
line never says git status shows nothing new while it shows `` M sub``.
"""

from __future__ import annotations

import os

from gentle_hooks.git.core import RepositoryCore

#: The most submodule paths :func:`changed_submodules` gives.
MOST = 64


def changed_submodules(repo: RepositoryCore) -> list[str]:
    """The root-relative paths of the submodules of ``repo``'s work tree whose checked-out
    commit, tracked content or untracked files differ from what the outer repository records
    (``status --porcelain=v2 -z --untracked-files=no --no-renames --ignore-submodules=none``,
    records whose submodule field starts with ``S``; without taking the index lock), at most
    :data:`MOST`. [] and no git process when the work tree has no ``.gitmodules``.

    Raises:
        GitError: git failed.
    """
    top = repo.paths.toplevel
    if top is None or not os.path.lexists(os.path.join(top, ".gitmodules")):
        return []
    out = repo.run(
        [
            "--no-optional-locks",
            "status",
            "--porcelain=v2",
            "-z",
            "--untracked-files=no",
            "--no-renames",
            "--ignore-submodules=none",
        ]
    ).stdout
    found: list[str] = []
    for record in out.split(b"\0"):
        # "1 XY sub mH mI mW hH hI path"; "u XY sub m1 m2 m3 mW h1 h2 h3 path" (a conflict)
        fields = record.split(b" ", 8 if record[:2] == b"1 " else 10)
        if record[:2] in (b"1 ", b"u ") and len(fields) in (9, 11) and fields[2][:1] == b"S":
            found.append(os.fsdecode(fields[-1]))
        if len(found) >= MOST:
            break
    return found
