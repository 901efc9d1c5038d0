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

#: The push refspec ``install --share`` adds: the notes go with an ordinary ``git push``.
SHARE_PUSH_REFSPEC = "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*"

#: The git config key naming each remote the push gate sends the notes to itself (no
#: notes push refspec: ``install --share`` where the pre-commit framework runs the gate).
SHARE_KEY = "gentle-hooks.shareWith"


def is_sharing(repo: Repository, remote: str) -> bool:
    """Whether ``install --share`` set this remote up to carry the notes on push."""
    return SHARE_PUSH_REFSPEC in repo.config_get_all(
        f"remote.{remote}.push"
    ) or remote in repo.config_get_all(SHARE_KEY)
