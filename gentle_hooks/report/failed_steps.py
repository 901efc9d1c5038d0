"""The way out of a failed report, and the bindings a printed ``receipt run`` carries
(SPEC §5 "Spot check", §7 "every block names commands runnable exactly as printed").

Room ``report``. Used by :mod:`gentle_hooks.report.fixes`, whose labelled lines
(:data:`~gentle_hooks.report.shell_text.Step`) these are.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.selfcheck import RefusedReceipt
from gentle_hooks.report.shell_text import Step, binding_flags
from gentle_hooks.values.binding import Binding


def on_server() -> bool:
    """True under a server's pre-receive (:func:`gentle_hooks.git.location.is_on_server`)."""
    from gentle_hooks.git.location import is_on_server

    return is_on_server()


def at_top_binding(binding: Binding) -> Binding:
    """The binding a gate's ``prefix:`` line carries: ``--cwd`` naming the repository top
    (:attr:`Binding.top`, where git runs hooks) when the binding names no ``--cwd``, so the
    writer's command runs there wherever the line is pasted; the binding itself under a
    server's pre-receive (its paths mean nothing to the pusher) or when the top is unknown."""
    return binding.for_report(".", True, on_server()).for_prefix()


def failed_steps(
    rel: str, command: str, binding: Binding, gh: str, at_top: bool, failed: RefusedReceipt
) -> list[Step]:
    """The way out of the ``failed`` report of ``command`` (shell words) run in ``rel``
    (relative to the top): fix the change (one that never started: make it runnable; one
    that lacked a file git ignores: get it here, :mod:`gentle_hooks.policy.toolmissing`)
    and report it again there; when it ran below the top and a hook printed the block
    (``at_top``), another way reports it at the top."""
    from gentle_hooks.policy.toolmissing import lacked_words, not_run

    why, lacked = not_run(failed.exit_code), lacked_words(failed.observed)
    top = not at_top or rel in ("", ".") or binding.top is None or on_server()
    where = "" if top else f", run in {rel}/,"
    fix = (
        f"its command could not run ({why}): make it runnable there, not the change"
        if why
        else lacked or f"fix the change (its report{where} is a failure)"
    )
    way: list[Step] = [("do", f"{fix}, then report it again")]
    if lacked and not why and binding.top is not None and not on_server():
        way = _copy_steps(binding.top, failed.observed, fix) or way
    way.append(("run", f"{gh} receipt run{report_flags(binding)(rel)} -- {command}"))
    if top:
        return way
    return [
        *way,
        ("run", f"{gh} spot-check{binding_flags(binding)}"),
        (
            "otherwise",
            f"when the command is meant for the repository top, not {rel}/: report it there",
        ),
        ("run", f"{gh} receipt run{binding_flags(at_top_binding(binding))} -- {command}"),
    ]


def report_flags(binding: Binding) -> Callable[[str], str]:
    """The binding's flags for a printed ``receipt run`` of a command that ran in ``rel``
    (relative to the work tree root): :meth:`Binding.for_report` where the user is."""
    from gentle_hooks.git.location import is_away_from

    def flags(rel: str) -> str:
        away = binding.top is not None and is_away_from(binding.top)
        return binding_flags(binding.for_report(rel, away, on_server()))

    return flags


def _copy_steps(top: str, observed: str | None, fix: str) -> list[Step]:
    """For a report whose run lacked a file git ignores (``observed``,
    :func:`~gentle_hooks.policy.toolmissing.lacked_ignored`) that another work tree holds
    and the work tree ``top`` does not: ``fix`` naming that work tree, then the line that
    copies the file here (:func:`~gentle_hooks.services.room_lacks.copy_line`); empty when
    no other work tree holds it now."""
    from gentle_hooks.policy.toolmissing import lacked_ignored
    from gentle_hooks.services.room_lacks import copy_line, holder_of

    rel = lacked_ignored(observed)
    other = None if rel is None else holder_of(top, rel)
    if rel is None or other is None:
        return []
    return [
        ("do", f"{fix} (the work tree {other} holds it), then report it again"),
        ("run", copy_line(other, top, rel)),
    ]
