"""A shell call whose command names another repository than the session's: what it changes
in each repository it names is kept and recorded there (SPEC §3 "Attribution follows content",
§7 "Hooks"; README "A written path belongs to the innermost repository";
docs/agents/claude-code.md, "What a Bash command writes").

Room ``services``. The decoder names the directories a shell command names
(:attr:`gentle_hooks.agents.event.RuntimeEvent.roots`,
:func:`gentle_hooks.agents.shell_dirs.named_dirs`); each, taken from the call's directory, is
resolved to the work tree that holds it (its nearest existing directory, then the nearest
``.git`` above it, by ``lstat`` alone: :func:`.agent_trees.dot_git_dir`; git is asked only
when that is not the session's own work tree). The call's snapshot is kept in each such work
tree at its pre-tool event and compared there at its post-tool event
(:func:`.agent_shell.before`, :func:`.agent_shell.after`): what changed is recorded in the
ledger of the repository that holds it, for that repository's own hooks to gate.

Two cases. A session opened in a directory above the repository (its ``cwd`` in no work
tree: ``sed -i ... repo/app.py``, ``cd repo && ...``) keeps no snapshot of its own, so each
named work tree is the only one kept. A session in a repository keeps its own work tree (and
that repository's other worktrees: :mod:`.shell_trees`), and besides it each named work tree
of another repository: a submodule (``sed -i ... sub/lib.py``, ``cd sub && ...``), a
nested repository, untracked or ignored, or one beside it (``cd ../other``); the post-tool
line says where a change was recorded. At most :data:`MOST_TREES` work trees a call. A
directory in no work tree is ignored, so a command that names no repository (``echo notes >
scratch.txt``) keeps and records nothing more than before; a repository its words do not name
(a script run by name that writes into a submodule) is not seen, and the line of a call that
changed no file says so when git status shows a submodule changed
(:func:`.shell_trees.status_same`). A person's edit made there before the call is in its
snapshot, so it stays theirs.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.errors import GentleError, GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.services import agent_shell
from gentle_hooks.services.agent_trees import dot_git_dir, full_path, nearest_dir
from gentle_hooks.services.shell_notes import recorded_in_note
from gentle_hooks.values.frozen import replace

#: The most work trees a call is kept in (the session's own included).
MOST_TREES = 8


def trees_named(event: RuntimeEvent, cwd: str | None, root: str | None = None) -> list[str]:
    """The work tree roots holding the directories ``event``'s command names (its
    :attr:`~RuntimeEvent.roots`, relative ones taken from ``cwd`` or the event's), each once,
    in order, at most :data:`MOST_TREES`. With the session's work tree ``root``: ``root``
    first, then those of other repositories only (a directory of ``root``, or of another
    worktree of its repository, which :func:`.agent_shell.before` keeps already, is not
    listed again)."""
    base = cwd or event.cwd
    out: list[str] = [root] if root is not None else []
    real_root = os.path.realpath(root) if root is not None else None
    for named in event.roots:
        if len(out) >= MOST_TREES:
            break
        full = full_path(named, base)
        if full is None:
            continue
        where = full if os.path.isdir(full) else nearest_dir(full)
        key = dot_git_dir(where)
        if key is None or os.path.realpath(key) == real_root:
            continue  # in no repository, or in the session's own work tree: no git asked
        try:
            repo = Repository.open(key)
            top = repo.paths.toplevel
            if top is None or top in out:
                continue
            if root is not None and _same_repository(repo, root):
                continue
        except GitError:  # a ``.git`` git cannot open: no repository to keep
            continue
        out.append(top)
    return out


def _same_repository(repo: Repository, root: str) -> bool:
    """Whether ``repo`` is the repository of the work tree ``root`` (one of its worktrees).

    Raises:
        GitError: git cannot open ``root``.
    """
    common = Repository.open(root).paths.common_dir
    return os.path.realpath(repo.paths.common_dir) == os.path.realpath(common)


def before(runtime: str, title: str, event: RuntimeEvent, root: str | None, cwd: str | None) -> str:
    """:func:`.agent_shell.before` in the work tree ``root`` and in each work tree of another
    repository its command names, or, when the call's directory is in none (``root`` None),
    in each work tree its command names (:func:`trees_named`); the lines said, joined. A
    named repository whose snapshot cannot be kept is said so in the line.

    Raises:
        GentleError / GitError: as :func:`.agent_shell.before` in ``root`` (or, from above,
        in a named work tree).
    """
    trees = trees_named(event, cwd, root)
    if root is None and trees:
        return "; ".join(f"{t}: {agent_shell.before(runtime, title, event, t)}" for t in trees)
    said = agent_shell.before(runtime, title, event, root)
    for tree in trees[1:]:
        try:
            line = agent_shell.before(runtime, title, event, tree)
        except (GentleError, GitError) as exc:
            line = f"no snapshot kept ({exc}): what the command changes there is not recorded"
        said += f"; in the repository {tree}, which the command names: {line}"
    return said


def after(
    runtime: str, title: str, event: RuntimeEvent, root: str | None, cwd: str | None
) -> tuple[RuntimeEvent, dict[str, str | None], str | None]:
    """:func:`.agent_shell.after` in each work tree :func:`before` kept (``root``, and the
    named work trees of other repositories; from above, the named ones): the paths each
    changed (absolute, so each is recorded in the repository that holds it) and their
    starts, together, with a note naming each repository other than ``root`` that recorded;
    with nothing changed in any, the event and why (each tree's line, joined).

    Raises:
        GitError: git failed.
    """
    trees = trees_named(event, cwd, root)
    if len(trees) < (1 if root is None else 2):
        return agent_shell.after(runtime, title, event, root)
    done = [agent_shell.after(runtime, title, event, t) for t in trees]
    wrote = [(t, e, s) for t, (e, s, why) in zip(trees, done, strict=True) if why is None]
    if not wrote:
        said = [f"{t}: {why}" for t, (_, _, why) in zip(trees, done, strict=True)]
        if root is not None:
            said = [str(done[0][2]), *(f"in the repository {s}" for s in said[1:])]
        return event, {}, "; ".join(said)
    _, first, starts = wrote[0]
    if not isinstance(starts, agent_shell.Starts):
        starts = agent_shell.Starts(starts)
    paths, notes = list(first.paths), list(first.notes)
    for _, more, kept in wrote[1:]:
        paths += more.paths
        notes += [n for n in more.notes if n not in notes]
        starts.update(kept)
        if isinstance(kept, agent_shell.Starts):
            for path, pairs in kept.committed.items():
                starts.committed.setdefault(path, []).extend(pairs)
    call = f"the {event.tool or 'shell'} call of {title}"
    notes += [recorded_in_note(call, t, len(e.paths)) for t, e, _ in wrote if t != (root or t)]
    return replace(first, paths=tuple(paths), notes=tuple(notes)), starts, None
