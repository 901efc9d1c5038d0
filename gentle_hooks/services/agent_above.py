"""A shell call of a session opened in a directory above the repository: what its command
changes in each repository it names is kept and recorded there (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md, "What a Bash command writes").

Room ``services``. An agent started in a directory that is in no git work tree (the folder
that holds ``repo/``) runs ``sed -i ... repo/app.py`` or ``cd repo && ...``: no work tree
holds its ``cwd``, so :mod:`.agent_shell` keeps no snapshot. The decoder names the
directories its command names (:attr:`gentle_hooks.agents.event.RuntimeEvent.roots`,
:func:`gentle_hooks.agents.shell_dirs.named_dirs`); each, taken from the call's directory, is
resolved to the work tree that holds it (its nearest existing directory, then git from
there: :func:`.agent_trees.dot_git_dir`), and the call's
snapshot is kept in each such work tree at its pre-tool event and compared there at its
post-tool event (:func:`.agent_shell.before`, :func:`.agent_shell.after`): what changed is
recorded in the ledger of the repository that holds it. A directory in no work tree is
ignored, so a command that names no repository (``echo notes > scratch.txt``) keeps and
records nothing, as before; a repository its words do not name (a script run by name that
writes into one) is not seen.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.services import agent_shell
from gentle_hooks.services.agent_trees import dot_git_dir, full_path, nearest_dir
from gentle_hooks.values.frozen import replace

#: The most work trees a call from above is kept in.
MOST_TREES = 8


def trees_named(event: RuntimeEvent, cwd: str | None) -> list[str]:
    """The work tree roots holding the directories ``event``'s command names (its
    :attr:`~RuntimeEvent.roots`, relative ones taken from ``cwd`` or the event's), each
    once, in order, at most :data:`MOST_TREES`."""
    base = cwd or event.cwd
    out: list[str] = []
    for named in event.roots:
        full = full_path(named, base)
        if full is None:
            continue
        where = full if os.path.isdir(full) else nearest_dir(full)
        key = dot_git_dir(where)
        try:
            top = Repository.open(key).paths.toplevel if key is not None else None
        except GitError:  # a ``.git`` git cannot open: no repository to keep
            top = None
        if top is not None and top not in out:
            out.append(top)
        if len(out) >= MOST_TREES:
            break
    return out


def before(runtime: str, title: str, event: RuntimeEvent, root: str | None, cwd: str | None) -> str:
    """:func:`.agent_shell.before` in the work tree ``root``, or, when the call's directory
    is in none (``root`` None), in each work tree its command names (:func:`trees_named`);
    the lines said, joined.

    Raises:
        GentleError / GitError: as :func:`.agent_shell.before`.
    """
    trees = trees_named(event, cwd) if root is None else []
    if not trees:
        return agent_shell.before(runtime, title, event, root)
    return "; ".join(f"{t}: {agent_shell.before(runtime, title, event, t)}" for t in trees)


def after(
    runtime: str, title: str, event: RuntimeEvent, root: str | None, cwd: str | None
) -> tuple[RuntimeEvent, dict[str, str | None], str | None]:
    """:func:`.agent_shell.after` in the work tree ``root``, or, when the call's directory
    is in none, in each work tree its command names: the paths each changed (absolute, so
    each is recorded in the repository that holds it) and their starts, together; with
    nothing changed in any, the event and why (each tree's line, joined).

    Raises:
        GitError: git failed.
    """
    trees = trees_named(event, cwd) if root is None else []
    if not trees:
        return agent_shell.after(runtime, title, event, root)
    done = [agent_shell.after(runtime, title, event, t) for t in trees]
    wrote = [(e, s) for e, s, why in done if why is None]
    if not wrote:
        said = (f"{t}: {why}" for t, (_, _, why) in zip(trees, done, strict=True))
        return event, {}, "; ".join(said)
    first, starts = wrote[0]
    if not isinstance(starts, agent_shell.Starts):
        starts = agent_shell.Starts(starts)
    paths, notes = list(first.paths), list(first.notes)
    for more, kept in wrote[1:]:
        paths += more.paths
        notes += [n for n in more.notes if n not in notes]
        starts.update(kept)
        if isinstance(kept, agent_shell.Starts):
            for path, pairs in kept.committed.items():
                starts.committed.setdefault(path, []).extend(pairs)
    return replace(first, paths=tuple(paths), notes=tuple(notes)), starts, None
