"""A block's printed commands bound to the repository when the user typed the git command
from outside its work tree (``git -C DIR commit``; SPEC §7: every command a block prints
runs exactly as printed, from where the user is).

Room ``hooks``. Git runs hooks at the work tree root, so a bare ``gentle-hook spot-check``
or ``git add -A -- ...`` printed there would run in the user's directory: not a repository,
or another one. When :func:`gentle_hooks.git.location.is_outside` says the user's shell is
outside the work tree, every ``run:``, ``prefix:`` and ``or:`` line starts with
``cd <top> &&`` (the top quoted for a POSIX shell): one form for git and gentle-hook alike,
and a prefix completed with the writer's test command runs it at the top, as the hook did.
Otherwise every line is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The labels of the lines that hold a command (:data:`gentle_hooks.report.fixes.LABELS`).
COMMAND_LABELS = ("run", "prefix", "or")


def outside_top(top: str | None) -> str | None:
    """``top`` when the user's shell is known to be outside that work tree, else None."""
    if top is None:
        return None
    from gentle_hooks.git.location import is_outside

    return top if is_outside(top) else None


def bound_text(text: str, top: str) -> str:
    """``cd <top> && TEXT``, the top quoted."""
    from gentle_hooks.policy.shellwords import quote

    return f"cd {quote(top)} && {text}"


def bound_lines(lines: Sequence[str], top: str | None) -> list[str]:
    """``lines`` of a block with each labelled command line (``  run: CMD``) bound to ``top``
    (:func:`bound_text`); the rest as they are. ``top`` None: unchanged."""
    if top is None:
        return list(lines)
    out = []
    for line in lines:
        body = line.lstrip(" ")
        label, sep, text = body.partition(": ")
        if sep and label in COMMAND_LABELS and text:
            line = f"{line[: len(line) - len(body)]}{label}: {bound_text(text, top)}"
        out.append(line)
    return out


def bound_steps(items: Sequence[tuple[str, str]], top: str | None) -> list[tuple[str, str]]:
    """Labelled steps with each command step bound to ``top``, as :func:`bound_lines`."""
    if top is None:
        return list(items)
    return [(k, bound_text(t, top) if k in COMMAND_LABELS else t) for k, t in items]
