"""The lines a shell call's recording says about what it could not see or left out (SPEC §7
"Hooks"; docs/agents/claude-code.md, "What a Bash command writes";
:mod:`gentle_hooks.services.agent_shell` says them).

Room ``services``. Text only: no git, no files.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent


def over_note(root: str, bound: int) -> str:
    """The one line saying the work tree ``root`` had more than ``bound`` changed paths, too
    many for its snapshot (:attr:`.agent_shell.Changed.over`: fail closed)."""
    return (
        f"{root} has more than {bound} changed paths, too many to snapshot: "
        "every tracked file that differs from HEAD after the command is recorded as the "
        "writer's (a person's unsaved edits too: fail closed), untracked files are not; "
        "ignore the generated directories (.gitignore) to record only what it writes"
    )


def outside(event: RuntimeEvent) -> str:
    """Why a shell call whose directory is in no git work tree is not snapshot or recorded
    (a workspace opened on the folder above a repository: ``cd proj && sed -i ...``)."""
    where = event.cwd or os.getcwd()
    return (
        f"{where} is not in a git work tree, so no snapshot is kept there and what a command "
        "changes in a repository below it is not recorded (open the repository itself as "
        "the workspace)"
    )


def replayed_before(call: str) -> str:
    """Why the pre-tool input of ``call``, whose post-tool input already read its snapshot,
    keeps nothing (:func:`.shell_files.settles`)."""
    return (
        f"{call} was read already: its post-tool input used its snapshot of the work tree "
        "(this pre-tool input is a replay or a stale copy), so nothing is kept again"
    )


def restored_note(restored: tuple[str, ...]) -> str | None:
    """The one line saying which changed paths hold restored content (None: none)."""
    if not restored:
        return None
    more = f" and {len(restored) - 5} more" if len(restored) > 5 else ""
    shown = ", ".join(restored[:5]) + more
    return (
        f"{len(restored)} file(s) it changed ({shown}) now hold what a branch, tag or stash "
        "entry, or another path moved away, held before it ran, or gave theirs up to another "
        "path, or a commit git fetch brought in holds (git checkout/restore --source, stash "
        "pop, mv, git mv, a pull whose merge stopped): restored, moved or fetched content, "
        "not the writer's, so not recorded"
    )


def trees_note(kept: int, missed: list[str], over: list[str], bound: int) -> str:
    """What a shell call's pre-tool line adds about the repository's other worktrees:
    ``kept`` snapshots kept there, the worktrees ``missed`` (git could not read them, or
    past the most kept), those ``over`` the bound of ``bound`` changed paths; "" for none."""
    said = ""
    if kept:
        said += (
            f" (and in the {kept} other worktree(s) of the repository: what the command "
            "changes in one it cd's into is recorded there)"
        )
    if missed:
        more = f" and {len(missed) - 1} more" if len(missed) > 1 else ""
        said += (
            f"; no snapshot kept in the worktree {missed[0]}{more}: what the command changes "
            "there is not recorded"
        )
    for tree in over:
        said += f"; {over_note(tree, bound)}"
    return said


def no_snapshot_note(root: str) -> str:
    """What a post-tool line adds when no snapshot of the call was found in the work tree
    ``root`` nor in the other worktrees of its repository: where they are kept, so that a
    command that went into another repository is not mistaken for a missing hook."""
    return (
        f" (none was found for {root} nor for the other worktrees of its repository: the "
        "pre-tool hook keeps one for the work tree the call starts in and for every worktree "
        "of that repository, so a command that went into another repository (cd ../other) "
        "is not recorded there)"
    )


def unseen_note(paths: tuple[str, ...]) -> str:
    """The one line naming the files a shell call tracked or unignored that held the same
    content before any agent shell call (:attr:`.agent_shell.Changed.unseen`)."""
    more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
    return (
        f"it tracked or unignored {len(paths)} file(s) ({', '.join(paths[:5])}{more}) that "
        "held the same content before any agent shell call in this repository (unchanged "
        "since: ignored files are not in the snapshot): this call did not write them, so it "
        "records nothing for them (a record of an earlier write of them still applies)"
    )


def submodules_note(changed: list[str]) -> str:
    """What a post-tool line says after "changed no file in <tree>": `` (git status shows
    the same)``, or, when git status shows the submodules ``changed`` changed (a snapshot
    leaves them out: each is a repository of its own), which they are and what of them is
    seen (:func:`.shell_trees.status_same`)."""
    if not changed:
        return " (git status shows the same)"
    more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
    return (
        f" (git status shows changes in the submodule(s) {', '.join(changed[:5])}{more}: each "
        "is a repository of its own, compared only when the command names it (then what it "
        "changed there is recorded there, for its own hooks to gate); what changes in one "
        "the command does not name (a script that writes there by itself) is not recorded)"
    )


def recorded_in_note(call: str, tree: str, count: int) -> str:
    """The line saying that ``call``, run from another repository, changed ``count`` file(s)
    in the repository ``tree`` its command names (a submodule, a nested repository), and
    that they are recorded there (:mod:`.agent_above`)."""
    return (
        f"{call} changed {count} file(s) in {tree}, which its command names: recorded in the "
        f"repository {tree}, for its own hooks to gate"
    )
