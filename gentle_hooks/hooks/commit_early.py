"""The commit gate's first git questions, started before its imports (SPEC §7 "Hooks", §2
"Start-up is part of the product").

Room ``hooks``; standard library and light modules only (no ``subprocess``, ``re``,
pydantic): it runs once the pre-commit (or pre-merge-commit) probe found work, between the
probe and importing the gate, never on a human's pass path. The gate's first git work is
always the same: its configuration (:data:`~gentle_hooks.git.ahead.CONFIG_ARGS`),
``HEAD``'s commit and tree, the default base refs, the index written as a tree (of a
private copy), and, when a ledger is kept and the commit does not amend, the staged change
against ``HEAD`` (unless the probe asked it). Each starts here
(:class:`~gentle_hooks.git.ahead.Ahead`), so git works while Python imports.

Nothing here decides: :meth:`EarlyCommit.give` hands a repository the answers, when it
runs git where they ran and with the same environment, as answers to exactly the questions
they are; a question asked otherwise (a configured base ref, another directory) goes to git
as before, and an answer with an exit code its asker does not accept is asked again (git's
standard error then says why). While a background call's window is open, the gate settles
it first: nothing starts.
"""

from __future__ import annotations

import os

from gentle_hooks.bounded import WriteError
from gentle_hooks.errors import UsageError
from gentle_hooks.git.ahead import CONFIG_ARGS, DEFAULT_BASE_ARGS, REV_PARSE_ARGS, Ahead, head_exprs
from gentle_hooks.git.index_copy import private_copy, remove_copy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from gentle_hooks.git.probe import Where
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.hooks.call import HookCall


def commit_gate_early(call: HookCall, env: Mapping[str, str]) -> int:
    """:func:`~gentle_hooks.hooks.commit.commit_gate` for ``call``, its first git questions
    started before it is imported (:func:`start`) and stopped when it returns.

    Raises:
        GentleError: as the gate (it fails closed).
    """
    early = start(env)
    try:
        from gentle_hooks.hooks.commit import commit_gate
        from gentle_hooks.policy.delegation import runtime_evidence

        given = early.give if early is not None else None
        return commit_gate(call, env, runtime_evidence(env), given)
    finally:
        if early is not None:
            early.close()


class EarlyCommit:
    """The questions started for one commit, where they ran and with what environment."""

    def __init__(self, where: Where, env: dict[str, str]) -> None:
        self.where, self.env = where, env
        self.asked: list[Ahead] = []
        self.staged: Ahead | None = None
        self.tree: tuple[str, Ahead] | None = None  # the private index copy, its write-tree

    def give(self, repo: Repository) -> None:
        """Hand ``repo`` every answer, when it runs git in the same directory with the same
        environment and reads the same index; nothing otherwise."""
        top, root = repo.paths.toplevel, self.where.root
        if top is None or root is None or os.path.realpath(top) != os.path.realpath(root):
            return
        if repo.env != self.env or repo.paths.index_file != self.where.index_file:
            return
        for ahead in self.asked:
            repo.know_answer(ahead.args, *ahead.result())
        if self.staged is not None:
            repo.know_staged_delta(*self.staged.result())
        if self.tree is not None:
            copy, ahead = self.tree
            code, out = ahead.result()
            remove_copy(copy)
            if code == 0:  # as finish_staged_tree reads it; else the gate asks again
                repo.know_staged_tree(
                    self.where.index_file, out.decode("utf-8", "surrogateescape").strip()
                )

    def close(self) -> None:
        """Stop what nobody read, and remove the private index copy."""
        for ahead in [*self.asked, self.staged, self.tree and self.tree[1]]:
            if ahead:
                ahead.close()
        if self.tree is not None:
            remove_copy(self.tree[0])


def start(env: Mapping[str, str]) -> EarlyCommit | None:
    """Start the gate's first git questions (see the module docstring) in the repository
    the hook runs in; None when nothing starts (not at a work tree's root, a background
    window open, git cannot be started)."""
    from gentle_hooks.git.probe import STAGED_ARGS, amend_flag, asked_staged_raw, locate
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.ledger.probe import windows_open

    try:
        where = locate(env)
    except UsageError:  # git is not on PATH: the gate says so in its own words
        return None
    if where is None or where.root is None or not where.index_file:
        return None
    if os.path.realpath(where.root) != os.path.realpath(os.getcwd()):
        return None  # git runs a hook at the root; the repository runs git there
    if windows_open(where.common_dir):  # the gate settles them before it asks git
        return None
    mine = dict(env)
    index = mine.get("GIT_INDEX_FILE")
    if index and not os.path.isabs(index):  # as the repository object passes it on
        mine["GIT_INDEX_FILE"] = where.index_file
    early = EarlyCommit(where, mine)
    try:
        # the costliest first: git writes the tree and compares while the rest start
        try:
            copy = private_copy(where.index_file, where.git_dir)
        except (OSError, WriteError):  # the gate meets the same and says so
            copy = None
        if copy is not None:
            try:
                early.tree = (copy, Ahead(["write-tree"], {**mine, "GIT_INDEX_FILE": copy}))
            except BaseException:
                remove_copy(copy)
                raise
        ledger = os.path.lexists(ledger_path(where.common_dir))
        if ledger and not amend_flag() and not asked_staged_raw(mine, where.root)[0]:
            early.staged = Ahead(STAGED_ARGS, mine)
        for args in (CONFIG_ARGS, (*REV_PARSE_ARGS, *head_exprs()), DEFAULT_BASE_ARGS):
            early.asked.append(Ahead(args, mine))
    except OSError:
        early.close()
        return None
    return early
