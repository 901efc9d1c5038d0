"""The recorder hooks (SPEC §6, §7): prepare-commit-msg, post-commit, post-rewrite.

Room ``hooks``. Recorders never block: they record what a commit delivered and carry it
across rewrites. Each returns at once, opening nothing, when the ledger holds no writer work.

* prepare-commit-msg: adds a ``Gentle-Writer: <model>/<effort>`` trailer per pending writer
  profile, so the delegation travels with the commit even without notes;
* post-commit: consumes the work tree's pending mutations and sticky escalations into the
  new commit's record (keyed by commit id and candidate identity);
* post-rewrite: for ``amend``/``rebase`` (git's ``<old> <new>`` stdin lines), carries commit
  records to the new commits, marking them stale when the tree changed. Under the pre-commit
  framework stdin is hidden and the command comes as ``PRE_COMMIT_REWRITE_COMMAND``: an amend
  is then carried from the reflog (``HEAD@{1}``), a rebase from its rewritten list.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from gentle_hooks.errors import EXIT_OK
from gentle_hooks.git.probe import Where, locate
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.values.candidate import Projection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.repository import Repository


def run(call: HookCall, env: Mapping[str, str]) -> int:
    """Dispatch a recorder hook; always 0 unless the store or git fails (then exit 2)."""
    where = locate(env)
    if where is None or where.root is None:
        return EXIT_OK
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.ledger.store import Ledger

    path = ledger_path(where.common_dir)
    if not os.path.exists(path):
        return EXIT_OK  # nothing was ever recorded here
    if call.name == "prepare-commit-msg":
        return prepare_commit_msg(call, where, path)
    if call.name == "post-commit":
        with Ledger.open(path) as led:
            pending = led.pending_mutations(where.root) or led.pending_escalations(where.root)
        if not pending:
            return carry_cherry_pick(where, path, env)
        return post_commit(where, path, env)
    return post_rewrite(call, where, path, env)


def prepare_commit_msg(call: HookCall, where: Where, path: str) -> int:
    """Append ``Gentle-Writer`` trailers for the pending writer profiles — and, when the
    commit being amended (source ``commit`` with its id) was delivered by a writer, for
    the writers of that commit, so ``--amend -m`` cannot wash the attribution away."""
    from gentle_hooks.ledger.store import Ledger

    if not call.args:
        return EXIT_OK
    with Ledger.open(path) as led:
        assert where.root is not None
        mutations = list(led.pending_mutations(where.root))
        if len(call.args) >= 3 and call.args[1] == "commit":
            origins = {r.origin for r in led.commit_records([call.args[2]])}
            mutations += led.delivered_work(sorted(origins))[0]
        profiles = dict.fromkeys(f"{m.model}/{m.effort}" for m in mutations)
    if not profiles:
        return EXIT_OK
    from gentle_hooks.git.message import add_trailers

    add_trailers(call.args[0], [f"Gentle-Writer: {p}" for p in profiles], os.environ)
    return EXIT_OK


def is_replay(action: str | None) -> bool:
    """True when a reflog action says the sequencer replayed an existing commit (a rebase's
    pick, squash or reword, cherry-pick, revert, am): its records travel by post-rewrite, and
    the pending writer work in the work tree (autostashed, say) is not in it. A commit made
    with ``git commit``, or by ``rebase --continue`` from what the user staged, is not one;
    nor is a commit of unknown origin (no reflog)."""
    if action is None:
        return False
    return not (action.startswith("commit") or action.endswith("(continue)"))


def post_commit(where: Where, path: str, env: Mapping[str, str]) -> int:
    """Consume the root's pending work into HEAD's commit record, unless HEAD is a replay
    (:func:`is_replay`): then the work stays pending for the commit that delivers it."""
    from gentle_hooks.config.load import load_config
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import CommitRecord
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import write_commit_notes

    repo = Repository.open()
    action = repo.head_reflog_action()
    if is_replay(action):
        if action and action.startswith("cherry-pick"):
            return carry_cherry_pick(where, path, env)
        return EXIT_OK
    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    cand = repo.candidate(Projection.COMMITTED, config_ref=config.settings.base_ref)
    assert cand.head is not None and where.root is not None
    with Ledger.open(path) as led:
        work = led.consume_pending(where.root, cand.head, cand.identity)
        if work.mutations or work.escalations:
            rec = led.add(
                CommitRecord(
                    root=where.root,
                    commit_id=cand.head,
                    identity=cand.identity,
                    tree=cand.tree,
                    base_tree=cand.base.tree,
                    origin=cand.head,
                    hook="post-commit",
                )
            )
            write_commit_notes(repo, led, [rec])
            writers = ", ".join(dict.fromkeys(f"{m.model}/{m.effort}" for m in work.mutations))
            print(
                f"gentle-hooks: recorded {cand.head[:12]} as delegated"
                + (f" ({writers})" if writers else ""),
                file=sys.stderr,
            )
    return EXIT_OK


def carry_cherry_pick(where: Where, path: str, env: Mapping[str, str]) -> int:
    """After a cherry-pick (git runs no post-rewrite for it), carry the picked commit's
    record and note to the new commit: the source is the recorded commit with the same
    patch id. A pick onto another base changes the tree: the records are then stale."""
    from gentle_hooks.config.load import load_config
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import CommitRecord
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.codec import NOTES_REF, merge
    from gentle_hooks.notes.sync import write_commit_notes

    repo = Repository.open()
    action = repo.head_reflog_action()
    head = repo.head()
    if not head or not action or not action.startswith("cherry-pick"):
        return EXIT_OK
    assert where.root is not None
    with Ledger.open(path) as led:
        recorded = {r.commit_id: r for r in reversed(led.recent_commit_records(where.root))}
        recorded.pop(head, None)
        source = repo.same_patch(head, list(recorded))
        if source is None:
            return EXIT_OK
        old = recorded[source]
        config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
        cand = repo.candidate(Projection.COMMITTED, config_ref=config.settings.base_ref)
        changed = cand.tree != old.tree
        rec = led.add(
            CommitRecord(
                root=where.root,
                commit_id=head,
                identity=cand.identity,
                tree=cand.tree,
                base_tree=cand.base.tree,
                origin=old.origin,
                hook="post-commit",
                rewritten_from=source,
                stale=changed or old.stale,
            )
        )
        old_note = repo.read_notes(NOTES_REF, [source]).get(source)
        if old_note:  # keep the picked commit's records visible (stale when the tree changed)
            repo.write_notes(NOTES_REF, {head: merge(old_note)}, "gentle-hooks: carry a note")
        write_commit_notes(repo, led, [rec])
    if changed:
        print(
            f"gentle-hooks: cherry-picked {source[:12]} with a changed tree: its earlier "
            "verification does not count for the new candidate",
            file=sys.stderr,
        )
    return EXIT_OK


#: Where git lists a rebase's ``<old> <new>`` pairs while it runs post-rewrite: the
#: sequencer's (merge backend) and ``am``'s (apply backend) state files.
REWRITTEN_LISTS = ("rebase-merge/rewritten-list", "rebase-apply/rewritten")


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            pairs.append((parts[0], parts[1]))
    return pairs


def rewrite_pairs(
    call: HookCall, repo: Repository, env: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The ``(old, new)`` commit pairs of a rewrite: git's stdin lines, or, where the pre-commit
    framework hid them (it passes the command only, as ``PRE_COMMIT_REWRITE_COMMAND``), the
    same list from git's own state: the reflog for an amend, the rebase's rewritten list
    (still in the worktree's git dir while post-rewrite runs) for a rebase."""
    pairs = _pairs(call.stdin.decode("utf-8", "replace"))
    if pairs:
        return pairs
    command = call.args[0] if call.args else env.get("PRE_COMMIT_REWRITE_COMMAND", "")
    if command == "amend":
        old = repo.peel_commit("HEAD@{1}")
        new = repo.head()
        return [(old, new)] if old and new and old != new else []
    if command == "rebase":
        for name in REWRITTEN_LISTS:
            try:
                with open(repo.git_path(name), encoding="ascii", errors="replace") as fh:
                    return _pairs(fh.read())
            except FileNotFoundError:
                continue
    return []


def post_rewrite(call: HookCall, where: Where, path: str, env: Mapping[str, str]) -> int:
    """Carry commit records from rewritten commits to their replacements."""
    from gentle_hooks.config.load import load_config
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import CommitRecord
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import write_commit_notes

    repo = Repository.open()
    pairs = rewrite_pairs(call, repo, env)
    if not pairs:
        return EXIT_OK
    assert where.root is not None
    with Ledger.open(path) as led:
        records = {r.commit_id: r for r in led.commit_records([old for old, _ in pairs])}
        if not records:
            return EXIT_OK
        config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
        stale = 0
        carried = []
        for old, new in pairs:
            rec = records.get(old)
            if rec is None:
                continue
            cand = repo.candidate(
                Projection.COMMITTED, commit=new, config_ref=config.settings.base_ref
            )
            changed = cand.tree != rec.tree
            stale += changed
            carried.append(
                led.add(
                    CommitRecord(
                        root=where.root,
                        commit_id=new,
                        identity=cand.identity,
                        tree=cand.tree,
                        base_tree=cand.base.tree,
                        origin=rec.origin,
                        hook="post-rewrite",
                        rewritten_from=old,
                        stale=changed or rec.stale,
                    )
                )
            )
        write_commit_notes(repo, led, carried)
        if stale:
            print(
                f"gentle-hooks: {stale} rewritten commit(s) changed their tree: their "
                "earlier verification does not count for the new candidate",
                file=sys.stderr,
            )
    return EXIT_OK
