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


def head_refspec_differs(repo: Repository) -> str | None:
    """Why a ``HEAD`` push refspec would push other branches than a plain
    ``git push`` does now, or None when it pushes the same ones.

    A configured ``remote.<name>.push`` replaces ``push.default``: ``HEAD`` (the current
    branch to its own name) pushes what ``current`` does, and only that. ``simple`` (git's
    default) refuses a branch with no upstream or one tracking another name, ``upstream``
    pushes to the upstream's name, ``matching`` every branch both sides have, ``nothing``
    nothing, and ``push.autoSetupRemote`` sets the upstream only where no refspec is
    configured. Read per install, not per branch: a static refspec cannot follow a branch's
    upstream.

    Returns:
        The effective ``push.default`` (``simple`` when unset, ``tracking`` as
        ``upstream``), or ``"current, push.autoSetupRemote"``, when ``HEAD`` differs;
        None under ``current`` without ``push.autoSetupRemote``.
    """
    mode = (repo.config_get("push.default") or "simple").lower()
    mode = "upstream" if mode == "tracking" else mode
    if mode != "current":
        return mode
    auto = (repo.config_get("push.autoSetupRemote") or "").lower()
    return "current, push.autoSetupRemote" if auto in ("true", "yes", "on", "1") else None


def own_push_refspecs(repo: Repository, remote: str) -> list[str]:
    """The ``remote.<name>.push`` values other than the notes refspec (the user's, or the
    ``HEAD`` an earlier ``install --share`` added: kept as it is)."""
    return [v for v in repo.config_get_all(f"remote.{remote}.push") if v != SHARE_PUSH_REFSPEC]


def share_push_refspecs(repo: Repository, remote: str) -> tuple[tuple[str, ...], str | None]:
    """The push refspecs ``install --share`` adds so a plain ``git push`` to ``remote``
    pushes the same branches as before, plus the notes.

    * The remote has push refspecs already: the notes refspec alone goes beside them.
    * None, and ``HEAD`` pushes what ``push.default`` does (:func:`head_refspec_differs`):
      ``HEAD`` and the notes refspec (one refspec alone would replace ``push.default``).
    * Otherwise none: the caller names the remote under :data:`SHARE_KEY` and the push gate
      sends the notes (:mod:`gentle_hooks.hooks.notes_sharing`).

    Returns:
        The refspecs to add (empty in the last case), and the effective ``push.default``
        that ruled ``HEAD`` out (None when it did not).
    """
    if own_push_refspecs(repo, remote):
        return (SHARE_PUSH_REFSPEC,), None
    differs = head_refspec_differs(repo)
    return ((), differs) if differs else (("HEAD", SHARE_PUSH_REFSPEC), None)
