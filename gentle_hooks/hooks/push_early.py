"""The push gate's walks, started before its imports (SPEC §7 "Hooks", §2 "Start-up is part
of the product").

Room ``hooks``; standard library and light modules only (no ``subprocess``, ``re``,
pydantic): it runs between reading git's pre-push lines and importing the gate. From the
lines (:func:`~gentle_hooks.hooks.push_input.parse_pre_push`) it starts the walks the gate
will ask (:func:`~gentle_hooks.hooks.pushed_commits.commits_of_updates`), each one
:class:`~gentle_hooks.git.logwalk.LogWalk`: the new refs' commits in one walk excluding the
remote's tracking refs, each existing ref's as ``<local> ^<remote>``; with a ledger, each
commit's own change too (the attribution diff). Git works while Python imports.

Nothing here decides: :meth:`EarlyWalks.give` hands a repository the walks run where and
with the environment it runs git, as answers to the exact questions they are; a question
asked otherwise (a remote that is not configured, a tag pushed, another directory) is
asked of git as before. A line that does not parse starts nothing (the gate says why).
"""

from __future__ import annotations

import os

from gentle_hooks.errors import UsageError
from gentle_hooks.hooks.push_input import parse_pre_push
from gentle_hooks.notes.sharing import NOTES_REF

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from gentle_hooks.git.logwalk import LogWalk
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.hooks.call import HookCall

#: The most walks started ahead for one push (one per existing ref, one for new refs).
MAX_WALKS = 4


class EarlyWalks:
    """Walks started for one push, by the question each answers (see
    :meth:`gentle_hooks.git.refs.Refs.know_log`), and where they ran."""

    def __init__(self, cwd: str, env: Mapping[str, str]) -> None:
        self.cwd, self.env = cwd, dict(env)
        self.walks: dict[tuple[object, ...], LogWalk] = {}

    def give(self, repo: Repository) -> None:
        """Hand ``repo`` every walk that finished well, when it runs git in the same
        directory with the same environment; nothing otherwise."""
        top = repo.paths.toplevel
        if top is None or os.path.realpath(top) != os.path.realpath(self.cwd):
            return
        if repo.env != self.env:
            return
        for question, walk in self.walks.items():
            logged = walk.result()
            if logged is not None:
                repo.know_log(question, logged)

    def close(self) -> None:
        """Stop the walks nobody read."""
        for walk in self.walks.values():
            walk.close()


def start_walks(call: HookCall, env: Mapping[str, str]) -> EarlyWalks | None:
    """Start the walks git's pre-push lines ask for; None when there is nothing to start
    (no line, a line that does not parse, not in a work tree, more than
    :data:`MAX_WALKS` walks, or git cannot be started)."""
    try:
        updates = parse_pre_push(call.stdin.decode("utf-8", "surrogateescape"))
    except UsageError:
        return None
    judged = [u for u in updates if u.remote_ref != NOTES_REF and not u.is_deletion]
    ranges = list({(u.local_oid, u.remote_oid): u for u in judged}.values())
    fresh = [u.local_oid for u in ranges if u.is_new]
    ranged = [u for u in ranges if not u.is_new]
    if not ranges or len(ranged) + bool(fresh) > MAX_WALKS:
        return None
    from gentle_hooks.git.probe import locate

    try:
        where = locate(env)
    except UsageError:  # git is not on PATH: the gate says so in its own words
        return None
    if where is None or where.root is None:
        return None
    from gentle_hooks.git.logwalk import LogWalk
    from gentle_hooks.ledger.location import ledger_path

    # the attribution diff reads each commit's change only where a ledger is kept
    changes = os.path.exists(ledger_path(where.common_dir))
    early = EarlyWalks(where.root, env)
    remote = call.args[0] if call.args else ""
    try:
        if fresh:
            tips = list(dict.fromkeys(fresh))
            scope = f"--remotes={remote}" if remote else "--remotes"
            early.walks[("tips", tuple(tips), remote)] = LogWalk(
                where.root, env, ["--stdin", "--not", scope], tips, changes
            )
        for u in ranged:
            assert u.remote_oid is not None  # an existing ref: is_new is False
            early.walks[("range", u.local_oid, (u.remote_oid,), None)] = LogWalk(
                where.root, env, [u.local_oid, f"^{u.remote_oid}"], (), changes
            )
    except (OSError, ValueError):
        early.close()
        return None
    return early
