"""The notes sent along with a push (SPEC §8 "Sharing"): once the push gate decided,
``refs/notes/gentle-hooks`` goes first when the remote carries the notes.

Room ``hooks``. When the remote carries the notes (``install --share``) and the push does
not name the notes ref itself, :func:`share_notes` merges the remote's notes in and sends
them, so the server and CI see the records with no extra command. ``install --share``
adds no notes push refspec: git fixes a push's refs before its pre-push hook runs, so one
behind the remote's would be rejected after this merge. Imported by
:mod:`gentle_hooks.hooks.push_gate` once it decided; :mod:`gentle_hooks.notes.sync`
only when the remote carries the notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import GentleError
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.push_input import PushUpdate
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sharing import NOTES_REF, is_sharing


def share_notes(
    repo: Repository,
    remote: str,
    updates: Sequence[PushUpdate],
    path: str,
    delegated: bool = False,
) -> list[str]:
    """Send the notes along with a push that does not carry them itself (one with no
    update at all included: every branch already there), when the remote is set up to
    share them: the notes of recorded commits that lack one are written, the
    remote's notes merged in, and ``refs/notes/gentle-hooks`` pushed (without hooks) before
    git sends the branches, so the server judges them with their records.

    Returns the line saying what was sent (none when nothing is shared), for the gate to
    print with its outcome (:func:`~gentle_hooks.hooks.outcome.conclude`, ``then``). A
    failure is reported in that line with the command to run, never turned into a block:
    the local gate has already decided, and the server judges what arrives. A remote not
    set up to share them, when the push sends ``delegated`` commits (their records are
    notes CI and a server gate judge from): the line naming the ``sync push`` that sends
    them (:func:`unshared_line`).
    """
    if any(u.remote_ref == NOTES_REF for u in updates):
        return []
    # no update at all is a plain push with every branch up to date (git still runs
    # pre-push): the notes written since the last push go then too
    if updates and all(u.is_deletion for u in updates):
        return []
    if not repo.has_remote(remote):
        return []
    if not is_sharing(repo, remote):
        return [unshared_line(remote)] if delegated else []
    # the note schema and signing code load only when the notes are shared
    from gentle_hooks.notes.sync import sync_push

    try:
        led = Ledger.open_existing(path)
        try:
            return [sync_push(repo, remote, led)]
        finally:
            if led is not None:
                led.close()
    except GentleError as exc:
        from gentle_hooks.errors import cli
        from gentle_hooks.report.fixes import labelled

        shown = labelled(cli("sync", "push", remote))
        return [f"the notes were not shared ({exc.message}); {shown}"]


def unshared_line(remote: str) -> str:
    """The line of an allowed push of delegated commits to ``remote`` (a configured
    remote's name) that does not carry the notes: their records stay in this clone, and
    the command that sends them (``install --share`` sends them with every push). Built
    without the block's text modules: the push passes."""
    import shlex  # a remote's name holds no control character (git refuses it)

    from gentle_hooks.report.program_text import program

    name = shlex.quote(remote)
    return (
        f"the notes of the delegated commits were not sent: {name} is not set up to carry "
        f"them, and CI and a server gate judge from them (install --share {name} sends them "
        f"with every push); run: {program()} sync push {name}"
    )
