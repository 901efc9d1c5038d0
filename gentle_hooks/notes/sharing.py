"""Where the notes live and whether a remote carries them (SPEC §8 "Sharing").

Room ``notes``; standard library only (the repository is the caller's): the notes ref's
name, the remote notes refs, and the git config ``install --share`` adds and ``uninstall``
takes out again. Kept apart from :mod:`gentle_hooks.notes.codec` and
:mod:`gentle_hooks.notes.sync` so the push gate names the notes ref and asks whether to
share them without loading the line schema (JSON, base64) or the signing code: a push that
shares nothing never reads a note.
"""

from __future__ import annotations

from gentle_hooks.errors import GitError

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


def remote_notes_ref(remote: str) -> str:
    """Where a remote's notes are fetched to (never over the local notes)."""
    return f"refs/notes/remotes/{remote}/gentle-hooks"


def add_share_refspecs(repo: Repository, remote: str) -> list[str]:
    """Add what carries the notes with the ordinary remote: the fetch refspec to
    :func:`remote_notes_ref` (forced: it mirrors the remote), and ``remote`` named under
    :data:`SHARE_KEY`, so the push gate merges the remote's notes in and sends them itself
    (:mod:`gentle_hooks.hooks.notes_sharing`). No push refspec: git plans a push's refs
    before its pre-push hook runs, so a notes ref behind the remote's would be rejected
    after the gate had merged and sent it. Idempotent.

    Returns:
        The ``git config`` lines added (empty when all were present).

    Raises:
        GitError: the remote does not exist.
    """
    if repo.config_get(f"remote.{remote}.url") is None:
        raise GitError(f"no remote named {remote!r} (see: git remote -v)")
    wanted = [
        (f"remote.{remote}.fetch", f"+{NOTES_REF}*:{remote_notes_ref(remote)}*"),
        (SHARE_KEY, remote),
    ]
    added = []
    for key, value in wanted:
        if value not in repo.config_get_all(key):
            repo.config_add(key, value)
            mark_added(repo, key, value)
            added.append(f"{key} = {value}")
    return added


def mark_added(repo: Repository, key: str, value: str) -> None:
    """List ``key = value`` under :data:`ADDED_KEY`: a value gentle-hooks set, that
    :func:`remove_share_config` takes out again."""
    repo.config_add(ADDED_KEY, f"{key}={value}")


def remove_share_config(repo: Repository) -> list[str]:
    """Undo :func:`add_share_refspecs` for every remote and
    :func:`~gentle_hooks.notes.sync.ensure_rewrite_ref`: remove the values they added
    (listed under :data:`ADDED_KEY`), and the notes refspecs only gentle-hooks writes also
    when unlisted; a value the user had set before (``remote.<name>.push = HEAD``,
    ``notes.rewriteRef``) stays. Returns the ``key = value`` lines removed."""
    listed = repo.config_get_all(ADDED_KEY)
    wanted = [tuple(v.split("=", 1)) for v in listed if "=" in v]
    for remote in repo.config_remotes():
        wanted += [
            (f"remote.{remote}.fetch", f"+{NOTES_REF}*:{remote_notes_ref(remote)}*"),
            (f"remote.{remote}.push", SHARE_PUSH_REFSPEC),
        ]
    removed = []
    for key, value in dict.fromkeys(wanted):
        if repo.config_unset_value(key, value):
            removed.append(f"{key} = {value}")
    for v in dict.fromkeys(listed):
        repo.config_unset_value(ADDED_KEY, v)
    return removed
