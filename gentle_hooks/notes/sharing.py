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


def head_refspec_differs(repo: Repository, remote: str) -> str | None:
    """Why a ``HEAD`` push refspec for ``remote`` would push other branches than a plain
    ``git push`` does now, or None when it pushes the same ones.

    A configured ``remote.<name>.push`` replaces ``push.default``: ``HEAD`` pushes the
    current branch to its own name, as ``current`` does. ``simple`` (git's default) does
    too, except that pushing to the remote the branch pulls from it refuses a branch whose
    upstream has another name (``HEAD`` would create a branch of its name); ``upstream``
    pushes to the upstream's name, ``matching`` every branch both sides have, ``nothing``
    nothing; ``push.autoSetupRemote`` sets the upstream only where no refspec is
    configured. The upstream read is the current branch's, at install: a branch made later
    tracking another name is pushed to its own name (``simple`` would refuse it).

    Returns:
        The effective ``push.default`` that rules ``HEAD`` out (``simple`` when unset,
        ``tracking`` as ``upstream``; ``"simple, upstream BRANCH"`` for a current branch
        tracking ``BRANCH`` of ``remote``), ``"push.autoSetupRemote"``; None when ``HEAD``
        pushes what git would.
    """
    mode = (repo.config_get("push.default") or "simple").lower()
    mode = "upstream" if mode == "tracking" else mode
    if mode not in ("current", "simple"):
        return mode
    auto = (repo.config_get("push.autoSetupRemote") or "").lower()
    if auto in ("true", "yes", "on", "1"):
        return "push.autoSetupRemote"
    if mode == "current":
        return None
    head = repo.run(["symbolic-ref", "-q", "--short", "HEAD"], ok=(0, 1, 128)).stdout
    branch = head.decode("utf-8", "surrogateescape").strip()
    if not branch or repo.config_get(f"branch.{branch}.remote") != remote:
        return None  # detached, no upstream, or it pulls from another remote
    merge = (repo.config_get(f"branch.{branch}.merge") or "").removeprefix("refs/heads/")
    return None if merge in ("", branch) else f"simple, upstream {merge}"


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
    differs = head_refspec_differs(repo, remote)
    return ((), differs) if differs else (("HEAD", SHARE_PUSH_REFSPEC), None)
