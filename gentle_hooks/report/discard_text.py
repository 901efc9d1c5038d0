"""The ``discard`` a block offers a human (SPEC §3 "Pending work ends cleanly", §6
``discard``): abandoning pending writer work that is not in the change, recorded.

Room ``report``: words and the exact command only.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.report.program_text import program

#: The reason the printed ``discard`` records (a human runs it for a change of their own).
DISCARD_REASON = "a human change, not the writer work"


def discard_lines(
    paths: Sequence[str], indent: str = "  ", claim: bool = False, copy: bool = False
) -> list[str]:
    """The way out for a human blocked by pending writer work that is not in the change
    (the writer's edit was thrown away and a human changed the same place): abandon it on
    purpose, recorded (SPEC §6 ``discard``). Labelled ``human:``, not ``run:``: it is not a
    step of the writer's way through; it runs exactly as printed from the work tree root,
    where git runs hooks, in any worktree of the clone (a discard there reaches the open
    work of the others that its own change carries, checked against its own files).
    ``claim``: ``paths`` are a person's own files holding writer content (one line, or
    more copied) of work pending at another path: the discard claims that content there
    and leaves the writer's work pending.
    ``copy``: ``paths`` hold, in this linked worktree, the content of writer work pending in
    another worktree (a person's same fix by hand): the discard claims that content here
    only, and leaves the writer's work pending there (issue 13)."""
    # off the gates' pass path: only a block renders it
    from gentle_hooks.policy.shellwords import quote

    named = " ".join(quote(p) for p in paths)  # one line, runnable, whatever a name holds
    what = (
        "claims the writer content each of these files holds as theirs, that content only "
        "(the writer's own work stays pending), recorded"
        if claim
        else "claims this worktree's content of these files as theirs, that content only "
        "(the writer's work stays pending in its own worktree), recorded"
        if copy
        else "abandons the writer's pending work on it, recorded"
    )
    return [
        f"{indent}a human whose own change this is (not the writer's) {what}, with:",
        f"{indent}human: {program()} discard --reason {quote(DISCARD_REASON)} -- {named}",
    ]
