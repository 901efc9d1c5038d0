"""The way out for a human blocked by pending writer work (SPEC §6 ``discard``).

Room ``report``: the printed ``discard`` line, built here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.report.fixes import program

#: The reason the printed ``discard`` records (a human runs it for a change of their own).
DISCARD_REASON = "a human change, not the writer work"


def discard_lines(paths: Sequence[str], indent: str = "  ") -> list[str]:
    """The way out for a human blocked by pending writer work that is not in the change
    (the writer's edit was thrown away and a human changed the same place): abandon it on
    purpose, recorded (SPEC §6 ``discard``). Labelled ``human:``, not ``run:``: it is not a
    step of the writer's way through, and it runs exactly as printed from the work tree
    root, where git runs hooks."""
    import shlex  # off the gates' pass path: only a block renders it

    named = " ".join(shlex.quote(p) for p in paths)
    return [
        f"{indent}a human whose own change this is (not the writer's) abandons the writer's "
        "pending work on it, recorded, with:",
        f"{indent}human: {program()} discard --reason {shlex.quote(DISCARD_REASON)} -- {named}",
    ]
