"""The recorder hooks (SPEC §3 "Attribution follows content", §6, §7): prepare-commit-msg,
post-commit, post-rewrite.

Room ``hooks``. Recorders never block: they record what a commit delivered and carry it
across rewrites, deciding from content which writer work a commit carries
(:mod:`gentle_hooks.services.attribution`), never from "the next commit". The dispatcher
runs them only when a path of the commit is one a writer wrote.

* prepare-commit-msg: adds a ``Gentle-Writer: <model>/<effort>`` trailer for each writer
  whose content the commit carries, so the delegation travels with the commit even without
  notes (:mod:`gentle_hooks.hooks.trailers`, which commit-msg shares);
* post-commit: the writer entries ``HEAD`` carries are taken by it (only those: a partial
  commit leaves the rest pending), with a commit record and a note (the record spooled
  when another process holds the ledger's write lock past the wait; its note then comes
  with ``doctor --fix`` or ``sync push``); while another work
  tree has live writer entries, the work tree that made the commit is recorded (every
  worktree then judges the commit as made there);
* post-rewrite: for ``amend``/``rebase`` (git's ``<old> <new>`` stdin lines), each new
  commit is recorded by what it carries, its old record carried along (stale when the tree
  changed; not at all when the new tree kept none of the writer's content, or the base it now
  follows holds that content already), and, as for
  post-commit, the work tree that made them. Under the pre-commit
  framework stdin is hidden and the command comes as
  ``PRE_COMMIT_REWRITE_COMMAND``: an amend is then read from the reflog (``HEAD@{1}``), a
  rebase from its rewritten list.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.errors import EXIT_OK
from gentle_hooks.git.probe import Where, locate
from gentle_hooks.hooks.call import HookCall, hook_seconds
from gentle_hooks.policy.delegation import message_evidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.objects import CommitInfo
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.records import CommitRecord, DiscardRecord, WriterEntryRecord
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.lines import NoteLine


def run(call: HookCall, env: Mapping[str, str]) -> int:
    """Dispatch a recorder hook; always 0 unless the store or git fails (then exit 2)."""
    where = locate(env)
    if where is None or where.root is None:
        return EXIT_OK
    from gentle_hooks.ledger.location import ledger_path

    path = ledger_path(where.common_dir)
    if call.name == "prepare-commit-msg":  # an agent runtime's trailer needs no ledger
        from gentle_hooks.hooks.trailers import prepare_commit_msg

        return prepare_commit_msg(call, path, env)
    if not os.path.exists(path):
        return EXIT_OK  # nothing was ever recorded here
    if call.name == "post-commit":
        return post_commit(where, path, env)
    return post_rewrite(call, where, path, env)


def post_commit(where: Where, path: str, env: Mapping[str, str]) -> int:
    """Record what ``HEAD``'s commit carries: its writer entries are taken by it (the rest
    stays pending), with a commit record and its note; a human's commit records nothing.
    Behind another process's held write lock the record is spooled instead
    (:func:`~gentle_hooks.services.delivered.spool_commit`) and the note waits."""
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.sqlite_file import StoreError
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import write_commit_notes
    from gentle_hooks.services.attribution import (
        carried_by_commits,
        expire_shaped,
        expiry_lines,
    )
    from gentle_hooks.services.delivered import commit_record_of, record_commit, spool_commit

    repo = Repository.open()
    head = repo.head()
    if head is None or rewritten_later(repo.head_reflog_action()):
        return EXIT_OK
    infos = repo.read_commits([head])
    assert where.root is not None
    note_discarded(repo, path, infos, "post-commit")
    with Ledger.open(path) as led:
        try:
            if led.live_elsewhere(where.root):  # another worktree's writer judges it as here
                led.record_worktree([head], where.root, "post-commit")
            work = carried_by_commits(repo, led, infos)[head]
            expired = expire_shaped(repo, path, [work])
        except StoreError as exc:
            if not exc.busy:
                raise
            # the write lock is held: what the commit carries is read all the same (the
            # commit record is spooled below); expiries wait for the next command
            work, expired = carried_by_commits(repo, led, infos)[head], []
        if expired:
            work = carried_by_commits(repo, led, infos)[head]
        if work.delegated:  # writer content reset away and typed again: maybe a person's
            from gentle_hooks.hooks.push_record import left_to_discard

            info = infos[0]  # its candidate computed only for such content
            work = left_to_discard(
                repo, led, work, lambda: commit_record_of(repo, info, "post-commit", env).identity
            )
        lines = [f"gentle-hooks: {line}" for line in expiry_lines(expired)]
        # an agent in the message (an AI co-author trailer) delegates it too: the CI and
        # server gates judge it from its note alone, so it gets one like writer work
        info = infos[0]
        shown = message_evidence(info.message, info.author_ident, info.committer_ident)
        if not work.delegated and shown is None:
            if led.unlinked_escalations(where.root):
                lines.append(escalation_taken(repo, led, where.root, info, env))
            _status(lines, env)
            return EXIT_OK
        try:
            rec = record_commit(repo, led, info, work, "post-commit", env)
            led.consume_unlinked_escalations(where.root, head, rec.identity)
        except StoreError as exc:
            if not exc.busy:
                raise
            kept = spool_commit(repo, led, info, work, "post-commit", env, exc)
            lines.append(
                f"gentle-hooks: spooled the record of {head[:12]} in {kept}: another process "
                "holds the ledger's write lock; the next command that opens the ledger folds "
                "it in"
            )
            _status(lines, env)
            return EXIT_OK
        write_commit_notes(repo, led, [rec])
    if not work.delegated and shown is not None:
        lines.append(f"gentle-hooks: recorded {head[:12]} as delegated ({shown.agent})")
    else:
        from gentle_hooks.services.attribution import held_paths

        lines.append(
            f"gentle-hooks: recorded {head[:12]} as delegated ({', '.join(work.writers())}): "
            f"writer content in {', '.join(held_paths(work.paths(), work.held_at))}"
        )
    _status(lines, env)
    return EXIT_OK


def escalation_taken(
    repo: Repository, led: Ledger, root: str, info: CommitInfo, env: Mapping[str, str]
) -> str:
    """A person's commit (no writer work, no agent in its message) takes the work tree's
    unlinked sticky escalations (SPEC §5: they move with the change they were made for)
    and gets no commit record and no note: an escalation raises the plan of a delegated
    change and is no writer work, so no gate judges the commit as delegated (§5
    "Decision": the gate applies to delegated candidates). Behind another process's held
    write lock the escalations stay for the next commit. The status line to print.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    from gentle_hooks.ledger.sqlite_file import StoreError
    from gentle_hooks.services.delivered import commit_record_of

    identity = commit_record_of(repo, info, "post-commit", env).identity
    try:
        led.consume_unlinked_escalations(root, info.id, identity)
    except StoreError as exc:
        if not exc.busy:
            raise
        return (
            "gentle-hooks: another process holds the ledger's write lock: this work tree's "
            "escalation stays for its next commit"
        )
    return (
        f"gentle-hooks: {info.id[:12]} took this work tree's escalation: a person's commit "
        "with no writer work, so no verifier run is required"
    )


def _status(lines: list[str], env: Mapping[str, str]) -> None:
    """Print post-commit's status lines when the gates print text only
    (:func:`~gentle_hooks.hooks.decision.aside`: post-commit runs after the gate printed
    its object)."""
    from gentle_hooks.hooks.decision import aside

    aside(lines, env)


def rewritten_later(action: str | None) -> bool:
    """Whether git will run post-rewrite for the commit a reflog action made (an amend, a
    rebase's pick, squash or ``--continue``): post-rewrite records it then, with the commit
    it replaced; cherry-pick, revert and ``am`` have no post-rewrite and are recorded now."""
    return action is not None and (action.startswith("commit (amend)") or "rebase" in action)


def post_rewrite(call: HookCall, where: Where, path: str, env: Mapping[str, str]) -> int:
    """Record each rewritten commit's replacement by what it carries, and carry the old
    commit's record to it (stale when the tree changed: its verification was for another
    candidate). Each distinct ``(old, new)`` pair is recorded once. Behind another
    process's held write lock the records are spooled, as post-commit's
    (:func:`~gentle_hooks.services.delivered.spool_commit`), and their notes wait.

    Raises:
        UsageError: the work took longer than
            :data:`~gentle_hooks.hooks.call.HOOK_SECONDS`: what was recorded keeps its
            notes, the pairs not reached are kept in a file of the state directory and the
            line names the command that records them
            (:func:`~gentle_hooks.hooks.rewrites.keep_unrecorded`).
    """
    import time

    from gentle_hooks.git.repository import Repository
    from gentle_hooks.hooks.rewrites import drop_processed_rests, keep_unrecorded, rewrite_pairs
    from gentle_hooks.ledger.sqlite_file import StoreError
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import drop_copied_notes, write_commit_notes
    from gentle_hooks.services.attribution import carried_by_commits
    from gentle_hooks.services.delivered import record_commit, spool_commit
    from gentle_hooks.services.settle import rewrite_keeps_writer_content

    deadline = time.monotonic() + hook_seconds(env)
    repo = Repository.open()
    pairs = rewrite_pairs(call, repo, env)
    if not pairs:
        return EXIT_OK
    rest: list[tuple[str, str]] = []
    infos = {i.id: i for i in repo.read_commits([new for _, new in pairs])}
    busy: StoreError | None = None  # another process holds the write lock: spool the rest
    spooled: list[str] = []
    with Ledger.open(path) as led:
        try:
            if where.root is not None and led.live_elsewhere(where.root):
                led.record_worktree(list(infos), where.root, "post-rewrite")
        except StoreError as exc:
            if not exc.busy:
                raise
            busy = exc  # as post-commit: the records are spooled below
        work = carried_by_commits(repo, led, list(infos.values()))
        old_records = {r.commit_id: r for r in led.commit_records([old for old, _ in pairs])}
        recorded: list[CommitRecord] = []
        human: list[str] = []
        for done, (old, new) in enumerate(pairs):
            if time.monotonic() > deadline:
                rest = pairs[done:]
                break
            info = infos.get(new)
            if info is None or not (work[new].delegated or old in old_records):
                continue
            follows = repo.tree_of(info.parents[0]) if info.parents else repo.empty_tree
            if not work[new].delegated and not rewrite_keeps_writer_content(
                repo, led, old, info.tree, follows
            ):
                human.append(new)  # every writer line taken out: the human's commit
                continue
            try:
                if busy is None:
                    recorded.append(
                        record_commit(
                            repo, led, info, work[new], "post-rewrite", env, old_records.get(old)
                        )
                    )
                    continue
            except StoreError as exc:
                if not exc.busy:
                    raise
                busy = exc
            # behind a held write lock, as post-commit: durable in the spool, folded in by
            # the next command that opens the ledger (doctor --fix writes the notes then)
            kept = spool_commit(
                repo, led, info, work[new], "post-rewrite", env, busy, old_records.get(old), False
            )
            spooled.append(kept)
        write_commit_notes(repo, led, recorded)
        drop_copied_notes(repo, human)
    said: list[str] = []  # printed as post-commit's lines are (_status)
    if spooled:
        said.append(
            f"gentle-hooks: spooled the record(s) of {len(spooled)} rewritten commit(s) in "
            f"{spooled[0]}: another process holds the ledger's write lock; the next command "
            "that opens the ledger folds them in"
        )
    if rest:
        _status(said, env)
        command = call.args[0] if call.args else env.get("PRE_COMMIT_REWRITE_COMMAND", "")
        raise keep_unrecorded(where.common_dir, command, rest, hook_seconds(env))
    # a rest file a stopped run kept is done with once its every pair went through here
    drop_processed_rests(where.common_dir, pairs)
    # a record stays stale once stale (delivered.commit_record); the line counts only the
    # commits whose tree this rewrite changed, not a reword of a commit already stale
    trees = {new: old_records[old].tree for old, new in pairs if old in old_records}
    stale = sum(1 for r in recorded if r.stale and trees.get(r.commit_id, r.tree) != r.tree)
    if stale:
        said.append(
            f"gentle-hooks: {stale} rewritten commit(s) changed their tree: their earlier "
            "verification does not count for the new candidate"
        )
    _status(said, env)
    return EXIT_OK


def note_discarded(
    repo: Repository, path: str, infos: list[CommitInfo], hook: str, read: Ledger | None = None
) -> int:
    """Record the commits of ``infos`` that hold discarded writer work (``gentle-hook
    discard``, rows A1/A2: the writer's own lines, not an edit a human makes alike:
    :attr:`~gentle_hooks.services.attribution.Carried.claimable`) like an override: each takes that
    work, gets a commit record, and its note carries the writer lines and an override line
    (``hook`` ``discard``, who, why), so every gate sees the writer's content and who let it
    go (SPEC §3 "Pending work ends cleanly", §5). Returns how many commits were recorded.

    ``read``: the ledger at ``path`` already open (the push gate opens it once for its
    whole judgement; left open), else it is opened here to read and closed.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read or written.
    """
    from gentle_hooks.ledger.store import Ledger

    if read is not None:
        discarded = read.discarded_to_note() if infos else []
        claims = [d for d in read.discards() if not d.entries] if infos else []
    else:
        led = Ledger.open_existing(path)
        if led is None or not infos:
            return 0
        with led:
            discarded = led.discarded_to_note()
            claims = [d for d in led.discards() if not d.entries]
    if not discarded and not claims:
        return 0
    # imported only with discarded work to record: the notes writer (signing, ``shutil``)
    # costs every push that has none
    from gentle_hooks.ledger.records import OverrideRecord
    from gentle_hooks.notes.sync import write_commit_notes, write_note_lines
    from gentle_hooks.policy.shellwords import shown_paths
    from gentle_hooks.services.attribution import Carried
    from gentle_hooks.services.change_facts import held_discarded
    from gentle_hooks.services.commit_steps import commit_changes
    from gentle_hooks.services.delivered import record_commit

    recorded = []
    with Ledger.open(path) as led:
        if not discarded:  # a person's claims only: the commits holding them name them
            lines = path_claim_notes(repo, led, infos, claims)
            write_note_lines(repo, lines)
            return len(lines)
        by_entry = {e: d for d in led.discards() for e in d.entries}
        # only the writer's own lines: an edit a human makes alike is theirs once discarded
        found = held_discarded(repo, led, commit_changes(repo, infos))
        for info in infos:
            held = list(found[info.id].entries)
            if not held:
                continue
            rec = record_commit(repo, led, info, Carried(tuple(held)), hook, os.environ)
            for d in dict.fromkeys(by_entry[e.id] for e in held if e.id in by_entry):
                named = sorted({e.path for e in held if e.id in d.entries})
                paths = ", ".join(shown_paths(named))
                led.add(
                    OverrideRecord(
                        d.root,
                        rec.identity,
                        "discard",
                        d.who,
                        d.reason,
                        (f"writer content discarded: {paths}",),
                        info.id,
                    )
                )
            recorded.append(rec)
        write_commit_notes(repo, led, recorded)
        claimed = claimed_notes(repo, led, infos, discarded)
        for commit, more in path_claim_notes(repo, led, infos, claims).items():
            claimed[commit] = [*claimed.get(commit, []), *more]
        write_note_lines(repo, claimed)
    return len(recorded) + len(claimed)


def claimed_notes(
    repo: Repository, led: Ledger, infos: list[CommitInfo], discarded: list[WriterEntryRecord]
) -> dict[str, list[NoteLine]]:
    """The note lines of the commits of ``infos`` that carry discarded writer content the
    gates no longer judge the writer's: content a human claimed (a discard of content that
    had expired and came back: :attr:`~gentle_hooks.ledger.records.DiscardRecord.claimed`),
    and an edit a human makes alike (rows A3, A4, A6, A7, a removal-only write's blob) of
    an entry discarded while it was not in the work tree. One override line per discard,
    bound to the commit's candidate (``hook`` ``discard``, who, why, when), so every gate
    sees who let it go; no candidate or writer line (either says a writer delivered it)
    and no commit record. Discarded own lines (rows A1, A2) are not here: they stay the
    writer's (:func:`note_discarded`). The same lines each time: writing them again
    changes no note.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.notes.lines import OverrideLine
    from gentle_hooks.policy.shellwords import shown_paths
    from gentle_hooks.services.attribution import carried_by_change, held_paths
    from gentle_hooks.services.change_facts import across_only, claimed_elsewhere
    from gentle_hooks.services.commit_steps import commit_changes
    from gentle_hooks.services.delivered import commit_record_of

    claims = [d for d in led.discards() if d.entries]  # a claim of paths ends no entry
    ids = {i for d in claims for i in d.entries}
    entries = [e for e in discarded if e.id in ids]
    if not entries:
        return {}
    out: dict[str, list[NoteLine]] = {}
    works = carried_by_change(repo, led, commit_changes(repo, infos), entries)
    others = claimed_elsewhere(led, entries)
    for info in infos:
        work = works[info.id]
        mine = across_only(work, others)  # claimed at the other path a person's change holds
        # claimed content whatever it holds; the rest only where no own line stays the
        # writer's (those are in the commit's writer lines already)
        own = {e.id for e in work.entries} - work.by_shape - work.claimable
        took = {i for d in claims for i in d.claimed} | mine
        held = {e.id: e.path for e in work.entries if e.id not in own or e.id in took}
        if not held:
            continue
        rec = commit_record_of(repo, info, "discard", os.environ)
        lines: list[NoteLine] = []  # a candidate line would say a writer delivered it
        for d in claims:
            # the writer's own content claimed; an edit a human makes alike (the shape of
            # the writer's change, a removal) is a writer edit discarded, claimed or not
            ours = {*d.claimed, *(i for i in d.entries if i in mine)}
            claimed = sorted({p for i, p in held.items() if i in ours and i in own})
            edited = sorted(
                {p for i, p in held.items() if i in d.entries and not (i in ours and i in own)}
            )
            at = held_paths(claimed, work.held_at)  # where the commit holds it
            for what in (
                f"writer content claimed: {', '.join(at)}" if claimed else "",
                f"writer edit discarded: {', '.join(shown_paths(edited))}" if edited else "",
            ):
                if what:
                    lines.append(
                        OverrideLine(
                            rec.identity, "discard", d.who, d.reason, (what,), None, d.recorded_at
                        )
                    )
        out[info.id] = lines
    return out


def path_claim_notes(
    repo: Repository, led: Ledger, infos: list[CommitInfo], claims: list[DiscardRecord]
) -> dict[str, list[NoteLine]]:
    """The note lines of the commits of ``infos`` holding writer content a person's claim
    made theirs (``claims``: discards ending no entry, :mod:`gentle_hooks.services.claims`:
    one line at their own path, their own path's blob, a copy in their worktree): one
    override line per claim the commit used (``hook`` ``discard``, who, why, when), like a
    discard at the writer's own path, so the push, ``gate --range`` and the server see who
    took it; no candidate or writer line (the gates judge that content the person's).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    from gentle_hooks.notes.lines import OverrideLine
    from gentle_hooks.policy.shellwords import shown_paths
    from gentle_hooks.services.attribution import carried_by_change
    from gentle_hooks.services.commit_steps import commit_changes
    from gentle_hooks.services.delivered import commit_record_of

    if not claims:
        return {}
    out: dict[str, list[NoteLine]] = {}
    works = carried_by_change(repo, led, commit_changes(repo, infos))
    for info in infos:
        used = works[info.id].claimed_at
        if not used:
            continue
        blobs = repo.blobs_in(repo.tree_of(info.id), sorted({w for _, w in used}))
        rec = commit_record_of(repo, info, "discard", os.environ)
        lines: list[NoteLine] = []
        for d in claims:
            bound = set(d.blobs)
            at = sorted(
                {
                    w
                    for i, w in used
                    if i in d.claimed
                    and w in d.paths
                    and (not bound or f"{blobs.get(w)} {w}" in bound)
                }
            )
            if at:
                what = f"writer content claimed: {', '.join(shown_paths(at))}"
                lines.append(
                    OverrideLine(
                        rec.identity, "discard", d.who, d.reason, (what,), None, d.recorded_at
                    )
                )
        if lines:
            out[info.id] = lines
    return out
