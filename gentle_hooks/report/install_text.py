"""What ``gentle-hook install --share`` says of the notes, and what ``gentle-hook uninstall``
says it removed and what it kept.

Room ``report``. Pure string building.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from gentle_hooks.report.program_text import program


def removed_config_lines(removed: Sequence[str]) -> list[str]:
    """One line per git config value uninstall removed."""
    return [f"git config: removed {line}" for line in removed]


def kept_lines(
    ledger: str | None,
    notes_ref: str | None,
    tracking: Sequence[str] = (),
    exclude: str | None = None,
    rewrite_ref: str | None = None,
) -> list[str]:
    """What uninstall keeps on purpose (the records, and what install did not add), and the
    commands that remove them: the ledger, the notes ref, each remote's fetched notes
    (``tracking``), the ``info/exclude`` file holding verify's artifact line, and a
    ``notes.rewriteRef`` the user had set before install."""
    lines = []
    if ledger is not None:
        lines.append(
            f"kept: the ledger of records, {ledger} (remove it: rm -r {shlex.quote(ledger)})"
        )
    if notes_ref is not None:
        lines.append(f"kept: the notes, {notes_ref} (remove them: git update-ref -d {notes_ref})")
    for ref in tracking:
        lines.append(
            f"kept: a remote's fetched notes, {ref} (remove them: git update-ref -d "
            f"{shlex.quote(ref)})"
        )
    if exclude is not None:
        lines.append(
            f"kept: the line verify run added to {exclude} (under its '# gentle-hooks:' "
            "comment) so its artifacts stay out of the candidates; remove both by hand"
        )
    if rewrite_ref is not None:
        lines.append(f"kept: notes.rewriteRef = {rewrite_ref} (set before install, not by it)")
    return lines


def agent_kept_lines(runtimes: Sequence[str]) -> list[str]:
    """One line per agent runtime whose project configuration keeps our recorder (``install
    --agent``), with the command that removes only that entry."""
    return [
        f"kept: the {name} recorder install --agent wired in this repository (remove it: "
        f"{program()} uninstall --agent {name} --scope project)"
        for name in runtimes
    ]


def framework_lines(
    tool: str, hook_types: Sequence[str], config: str, run: str | None = None
) -> list[str]:
    """What uninstall says when the framework still runs the gate: plainly, and the
    command that removes the framework's hooks. ``run``: how the user runs ``tool`` here
    (shell words: its path where PATH does not find it), default ``tool``."""
    flags = " ".join(f"-t {shlex.quote(t)}" for t in hook_types)
    return [
        f"still gated: {tool}'s hooks here run the gate, from the gentle-hooks ids "
        f"{config} lists (uninstall removes only what gentle-hook install placed)",
        f"  to stop it: remove the gentle-hooks entries from {config}, or remove {tool}'s hooks:",
        f"  run: {run or tool} uninstall {flags}",
    ]


def share_push_lines(remote: str, push_gate: bool, framework: str | None = None) -> list[str]:
    """What ``install --share REMOTE`` says of how the notes travel: the push gate sends
    them (``push_gate``: a gentle-hooks pre-push runs here), else ``sync push`` after a
    push. ``framework``: the tool whose hooks run the gate here (``pre-commit``, ``prek``),
    which starts no hook for a push that has nothing to send (git's pre-push input is
    empty): after a push that ran no gate, only ``sync push`` sends the notes."""
    from gentle_hooks.errors import cli
    from gentle_hooks.report.shell_text import labelled

    sync = labelled(cli("sync", "push", remote))
    lines = []
    if push_gate:
        lines.append(f"notes: the push gate sends them to {remote} with each push it lets through")
    else:
        lines.append(f"notes: no gentle-hooks pre-push here sends them; after a push, {sync}")
    if push_gate and framework:
        lines.append(
            f"notes: a push that ran no gate (--no-verify) sends none, and {framework} starts no "
            "hook for a later git push with nothing new to send; after such a push, " + sync
        )
    return lines
