"""Where the notes live and whether a remote carries them (SPEC §8 "Sharing").

Room ``notes``; standard library only (the repository is the caller's). Kept apart from
:mod:`gentle_hooks.notes.codec` and :mod:`gentle_hooks.notes.sync` so the push gate names
the notes ref and asks whether to share them without loading the line schema (JSON,
base64) or the signing code: a push that shares nothing never reads a note.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.repository import Repository

NOTES_REF = "refs/notes/gentle-hooks"

#: The push refspec an earlier ``install --share`` added (with ``HEAD`` beside it where the
#: remote had none): git planned the notes update before the pre-push gate merged the
#: remote's notes in, so a clone whose notes were behind had its plain ``git push`` rejected.
#: ``install --share`` and ``uninstall`` remove it; a clone still holding it shares.
SHARE_PUSH_REFSPEC = "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*"

#: The git config key naming each remote the push gate sends the notes to itself, merged
#: with the remote's first (``install --share``): no push refspec, so a plain ``git push``
#: pushes the branches it pushed before and never a notes ref planned before the merge.
SHARE_KEY = "gentle-hooks.shareWith"

#: The git config key listing, as ``KEY=VALUE``, each config value gentle-hooks added (not
#: under ``gentle.``: those are settings), so ``uninstall`` removes exactly those.
ADDED_KEY = "gentle-hooks.added"


def is_sharing(repo: Repository, remote: str) -> bool:
    """Whether ``install --share`` set this remote up to carry the notes on push (named
    under :data:`SHARE_KEY`, or the :data:`SHARE_PUSH_REFSPEC` of an earlier install)."""
    return SHARE_PUSH_REFSPEC in repo.config_get_all(
        f"remote.{remote}.push"
    ) or remote in repo.config_get_all(SHARE_KEY)


def remove_share_push_refspecs(repo: Repository, remote: str) -> list[str]:
    """Remove the push refspecs an earlier ``install --share`` added for ``remote``:
    :data:`SHARE_PUSH_REFSPEC` (only gentle-hooks writes it), and ``HEAD`` where it is
    listed under :data:`ADDED_KEY` (a ``HEAD`` the user set stays). Returns the ``key =
    value`` lines removed."""
    key = f"remote.{remote}.push"
    listed = repo.config_get_all(ADDED_KEY)
    removed = []
    for value in (SHARE_PUSH_REFSPEC, "HEAD"):
        mark = f"{key}={value}"
        if value == "HEAD" and mark not in listed:
            continue
        if repo.config_unset_value(key, value):
            removed.append(f"{key} = {value}")
        if mark in listed:
            repo.config_unset_value(ADDED_KEY, mark)
    return removed
