"""The commit gates (SPEC §5 "Decision", §7 "Hooks"): pre-commit, pre-merge-commit and
commit-msg, over the ``staged`` candidate.

Room ``hooks``. The candidate is the index git hands the hook, so ``commit -a`` and
``commit <paths>`` are judged exactly as committed. It is delegated when it carries live
writer content, or — not while a merge is concluded — re-applies content a push settled
(:mod:`gentle_hooks.services.reapplied`). The commit-msg gate
(:mod:`gentle_hooks.hooks.commit_msg`) judges the same candidate when only the message
shows delegation (an AI co-author trailer) and the commit gate did not already apply. A
block's fix commands run outside the hook, so :func:`staged_binding` says which flag binds
them to this candidate, or why none does; :mod:`gentle_hooks.hooks.outcome` prints them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.errors import Command, GitError
from gentle_hooks.git.probe import amend_flag
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.hooks.outcome import Judged, Told, conclude, open_gate
from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.probe import calls_open
from gentle_hooks.policy.delegation import (
    Evidence,
)
from gentle_hooks.services.assess import AssessResult, evaluate
from gentle_hooks.services.attribution import expiry_lines
from gentle_hooks.services.change_facts import facts_and_expired
from gentle_hooks.services.declared_suite import want_base_commands
from gentle_hooks.services.settle import returned_ids, rewritten_ids
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import BaseResolution, Projection
from gentle_hooks.values.frozen import replace

#: The bindings of a staged candidate, as a command run outside the hook names them.
STAGED = Binding(projection=Projection.STAGED)

#: How to make ``--staged`` bind exactly what is committed.
STAGE_NOTE = (
    "stage exactly what you commit (git add), commit without -a or paths, and bind with --staged"
)

#: Why no binding flag reaches what a partial commit (``commit <paths>``) commits.
PARTIAL_NOTE = (
    "git judged a temporary index (commit -a or commit <paths>) that neither --staged nor "
    "the work tree reproduces: " + STAGE_NOTE
)


#: Why a partial commit's fix first stages the paths it commits.
STAGED_SAME_NOTE = (
    "git judged a temporary index (commit -a or commit <paths>): the git commands below "
    "make the index hold the same content (what they unstage stays in the work tree), so "
    "--staged binds this candidate; then run the same git commit again"
)

#: Why a partial commit's fix sets staged changes aside and puts them back.
KEPT_NOTE = (
    "git judged a temporary index (commit -a or commit <paths>) without the staged changes "
    "to {paths}: the git commands below set them aside (kept in tree {tree}) and make the "
    "index hold the judged content, so --staged binds this candidate; the last git command "
    "puts them back staged; then run the same git commit again"
)


def commit_gate(call: HookCall, env: Mapping[str, str], runtime: Evidence | None) -> int:
    """Judge the staged candidate (pre-commit, pre-merge-commit).

    Args:
        call: the hook call; env: the environment; runtime: an agent runtime detected in
            the environment, or None.

    Returns:
        0 allowed (or overridden / warn mode), 1 blocked.

    Raises:
        GentleError: git, config or store failures (the hook fails closed, exit 2).
    """
    repo, config = open_gate(env)
    if repo.paths.toplevel is not None:
        # a background call's process may have written since its session's last hook
        # event (its turn open, or within its grace): the writer's before the commit is judged
        from gentle_hooks.services.agent_window_settle import settle

        settle(repo.paths.toplevel, repo.paths.common_dir, env)
        if calls_open(repo.paths.common_dir):  # a shell call still running wrote too
            from gentle_hooks.services.agent_inflight_settle import settle as move_calls

            move_calls(repo.paths.toplevel, repo.paths.common_dir, env)
    amend = bool(amend_flag())
    if not amend and os.path.lexists(ledger_path(repo.paths.common_dir)):
        # what the index changes against HEAD, which the ledger's facts read below: git
        # compares while the candidate is resolved
        repo.start_staged_delta()
    try:
        # an amend replaces HEAD: when HEAD was delivered, the commit it makes is judged at
        # push against HEAD's parent, and so it is here
        cand = repo.candidate(
            Projection.STAGED, config_ref=config.settings.base_ref, replaces=amend
        )
        want_base_commands(repo, cand.base.commit)  # read with the blobs attribution reads
        # the writer content this commit adds (to HEAD's parent when it replaces HEAD)
        facts, expired = facts_and_expired(repo, cand, amend=amend)
    finally:
        repo.drop_staged_delta()  # started and not read (an unborn HEAD, an error)
    told = Told(env)
    if facts.delegated and (call.name == "pre-merge-commit" or repo.merge_in_progress()):
        facts = merged_work(repo, config, facts, told)
    if not facts.delegated:  # a writer wrote here once; is that work still anywhere?
        # imported here: a delegated candidate, judged in full, never needs them
        from gentle_hooks.services.expiry import expire_pending
        from gentle_hooks.services.reapplied import reapplied_staged

        # every open entry of this work tree, not only the paths this commit changes:
        # content that is nowhere when a gate looks has expired (SPEC §3), so a human who
        # types it again later is not blocked by work that was already gone
        expired += expire_pending(repo)
        # delivered writer content brought onto another base is a new candidate to check;
        # what a merge brings was judged on its branch (as the push gate reads merges)
        if call.name != "pre-merge-commit" and not repo.merge_in_progress():
            facts = reapplied_staged(repo, cand, amend=amend) or facts
    why = f"{runtime.agent} ({runtime.detail})" if runtime else None
    bound = replaced_binding(cand.base)
    result = evaluate(repo, config, cand, facts, delegated_by=why, binding=bound)
    for line in expiry_lines(expired):
        told.say(line)
    note = ""
    prepare: tuple[Command, ...] = ()
    after: tuple[Command, ...] = ()
    claims: tuple[str, ...] = ()
    if result.decision.applies and result.decision.shortfalls:
        # Which flag binds outside the hook costs a scan of the work tree (``add -A`` in a
        # private index): paid only when fix commands are printed, never on a pass.
        binding, note = staged_binding(repo)
        binding = replace(binding, base_ref=bound.base_ref)
        if note == PARTIAL_NOTE:
            note, prepare, after = restaging(repo, cand.tree)
        result = replace(
            result,
            binding=replace(binding, brief=result.binding.brief, top=result.binding.top),
        )
        unseen = failed_report_words(repo, result)
        note = f"{note}; {unseen}" if note and unseen else note or unseen
        mine = sorted({e.path for e in facts.entries})
        staged = dict(repo.blobs_in(cand.tree, mine)) if mine else {}
        # content that went away (expired, or reset away) and came back may be a human's
        # typing, and writer lines left in a person's own version of the file may be
        # theirs: a discard claims them
        back = returned_ids(facts.entries, repo) | rewritten_ids(repo, facts.entries)
        here = repo.paths.toplevel
        writers = frozenset(  # the writer's blob, or its own lines: no discard launders them
            e.path
            for e in facts.entries
            if e.id not in back
            and (
                (e.blob and staged.get(e.path) == e.blob)
                or e.id in facts.own_lines
                # this work tree's own open work its change carries: a discard refuses it
                or (e.state == "open" and e.root == here)
            )
        )
        # another worktree's open work this change holds a copy of (a person's same fix
        # by hand here): a discard claims that content here, the writer's work stays
        at = set(facts.held_at)  # held at its own path (a copy elsewhere is a line claim's)
        copies = tuple(
            sorted(
                {e.path for e in facts.entries if e.path in writers and (e.path, e.path) in at}
                - {e.path for e in facts.entries if e.state != "open" or e.root == here}
                # the writer's blob byte for byte is the writer's, in every worktree alike
                - {e.path for e in facts.entries if e.blob and staged.get(e.path) == e.blob}
            )
        )
        if copies:  # a distinctive writer line there is the writer's content copied
            from gentle_hooks.services.claims import distinctive_copies

            head = repo.head()
            base = repo.tree_of(head) if head else repo.empty_tree
            copied = [e for e in facts.entries if e.path in copies]
            ids = distinctive_copies(repo, copied, base, [cand.tree])
            loud = {e.path for e in copied if e.id in ids}
            copies = tuple(p for p in copies if p not in loud)
        # a person's own file holding writer content of work pending at another path (one
        # line alone, or more of them copied; never the writer's blob byte for byte)
        others = sorted({w for p, w in facts.held_at if w != p} - {e.path for e in facts.entries})
        if others:
            from gentle_hooks.ledger.store import Ledger
            from gentle_hooks.services.discard_claims import held_alone_here, left_its_path

            alone = set(held_alone_here(repo, facts.entries, others))
            # the writer's path moved there (``HEAD`` has it, the candidate not) stays the
            # writer's
            sources = [p for p, _ in facts.held_at]
            head = repo.head()
            had = set(repo.blobs_in(repo.tree_of(head), sources)) if head else set()
            kept = set(repo.blobs_in(cand.tree, sources))
            moved = {w for p, w in facts.held_at if p in had and p not in kept}
            # this work tree's pending work that left its own path (a new file moved, its
            # lines cut) is the writer's work moved there, never a person's own file
            gone: set[str] = set()
            led = Ledger.open_existing(facts.path) if here else None
            if led is not None:
                with led:
                    gone = set(left_its_path(repo, led, here or "").values())
            moved |= {w for p, w in facts.held_at if p in gone}
            blobs = {e.blob for e in facts.entries if e.blob}
            lifted = {
                p
                for p, b in repo.blobs_in(cand.tree, others).items()
                if b not in blobs and p not in moved
            }
            claims = tuple(sorted((alone | lifted) - moved))
    else:
        writers, copies = frozenset(), ()
    judged = Judged(
        "the staged change",
        None,
        result,
        note,
        prepare=prepare,
        after=after,
        writers_blob=writers,
        claims=claims,
        copies=copies,
    )
    return conclude(call, env, repo, config, [judged], told)


def replaced_binding(base: BaseResolution) -> Binding:
    """:data:`STAGED`, naming the base with ``--base-ref`` when it is the first parent of
    the commit an amend replaces (:attr:`BaseResolution.replaced`): outside the hook,
    ``--staged`` alone would take the merge-base with ``HEAD`` (the replaced commit), a
    base the push gate never judges the amended commit against. A replaced root commit
    (an empty base) has no parent to name: ``--staged`` as it is."""
    if base.replaced and base.commit is not None:
        return replace(STAGED, base_ref=base.commit)
    return STAGED


def failed_report_words(repo: Repository, result: AssessResult) -> str:
    """Why the writer's failed report of the staged candidate may have failed, when its
    binding runs a report in a temporary checkout (the work tree holds more): the paths it
    did not see (:func:`gentle_hooks.services.receipt_guard.unseen_words`); ``""`` when
    no failed report stands against it but one whose run lacked a file git ignores, or the
    work tree holds the candidate."""
    from gentle_hooks.policy.shortfall import SpotCheckShortfall
    from gentle_hooks.policy.toolmissing import lacked_ignored

    failed = [
        # a run that lacked a file git ignores says so itself (its way out copies it)
        r
        for s in result.decision.shortfalls
        if isinstance(s, SpotCheckShortfall) and s.no_receipt
        for r in s.refused
        if r.standing.row == "S-failed" and lacked_ignored(r.observed) is None
    ]
    if not failed:
        return ""
    from gentle_hooks.policy.outputs import declared_outputs
    from gentle_hooks.services.receipt_guard import unseen_words

    top = repo.paths.toplevel
    wrote = tuple(p for r in failed for p in declared_outputs(r.command, top, r.cwd))
    return unseen_words(repo, result.candidate.tree, result.binding.projection, wrote)


def merged_work(
    repo: Repository, config: LoadedConfig, facts: LedgerFacts, told: Told
) -> LedgerFacts:
    """The facts of a merge being concluded: without the writer work it carries when all
    of it was taken by commits whose plans are met, each judged as the push gate judges a
    pushed commit (what a merge brings was judged on its branch, as the push gate reads a
    merge: only what differs from every parent). ``facts`` as they are when the merge
    carries open work (a conflict resolved with the writer's pending lines) or a taking
    commit whose plan is unmet (the block then names what the merge still needs). What the
    judging says on the way goes to ``told``.

    Raises:
        GentleError: git or store failures (the gate fails closed).
    """
    from gentle_hooks.hooks.push_gate import judge_push_commits
    from gentle_hooks.ledger.store import Ledger

    if any(e.state != "taken" for e in facts.entries):
        return facts
    led = Ledger.open_existing(facts.path)
    if led is None:
        return facts
    with led:
        takers = sorted({t.commit_id for t in led.entry_takes([e.id for e in facts.entries])})
    if not takers:
        return facts
    verdicts = judge_push_commits(
        repo,
        config,
        facts.path,
        None,
        False,
        lambda: None,
        lambda: None,
        [[c] for c in takers],
        say=told.say,
    )
    if any(v is not None and v[0].decision.blocked for v in verdicts.values()):
        return facts
    return replace(facts, entries=(), mutations=(), own_lines=frozenset())


#: git's pathspec magic that reads a path from the work tree's root, wherever it runs, and
#: literally: ``*``, ``?`` and ``[..]`` in a file name (``pages/[id].tsx``) match only itself.
TOP = ":(top,literal)"


def restaging(repo: Repository, tree: str) -> tuple[str, tuple[Command, ...], tuple[Command, ...]]:
    """For a candidate no flag binds (:data:`PARTIAL_NOTE`): the ``git reset`` / ``git
    add`` that make the worktree's own index hold exactly its tree, so ``--staged`` binds
    it and the same ``git commit`` judges the same candidate again
    (:meth:`~gentle_hooks.git.index.Index.restaging`), and, when that unstages changes the
    index held staged, the ``git restore --staged --source=<tree>`` that puts every one of
    them back after the fix commands; with a note saying so (:data:`STAGED_SAME_NOTE`,
    :data:`KEPT_NOTE`). Else :data:`PARTIAL_NOTE` and nothing to run.

    Returns:
        (note, commands before the fix commands, commands after them).
    """
    try:
        found = repo.restaging(tree)
    except GitError:  # a hint only: the block it explains still stands
        found = None
    if found is None:
        return PARTIAL_NOTE, (), ()
    if not (found.unstage or found.stage):  # the own index holds this tree: --staged binds
        return "", (), ()
    # ``:(top,literal)``: the paths are from the work tree's root, and the user may paste
    # the command from a subdirectory (git resolves plain pathspecs against the cwd); a
    # wildcard in a name would stage files nobody chose
    unstage = tuple(TOP + p for p in found.unstage)
    stage = tuple(TOP + p for p in found.stage)
    out: list[Command] = []
    if unstage:
        out.append(Command(("reset", "-q", "--", *unstage), tool="git"))
    if stage:
        out.append(Command(("add", "-A", "--", *stage), tool="git"))
    if not found.kept:
        return STAGED_SAME_NOTE, tuple(out), ()
    back = Command(
        ("restore", "--staged", f"--source={found.source}", "--", *(TOP + p for p in found.kept)),
        tool="git",
    )
    from gentle_hooks.policy.shellwords import shown_paths

    note = KEPT_NOTE.format(paths=", ".join(shown_paths(found.kept)), tree=found.source[:12])
    return note, tuple(out), (back,)


def staged_binding(repo: Repository) -> tuple[Binding, str]:
    """The binding that makes a command run outside the hook (``spot-check``, ``verdict
    add``) bind to the staged candidate judged here, and a note when none does.

    ``--staged`` binds the worktree's own index. Under ``commit -a`` git hands the hook the
    index with every tracked change staged, and under ``commit <paths>`` a temporary index
    of HEAD plus those paths: no flag reproduces either once the hook has exited. The work
    tree is no binding for them even when it holds the same content now: the writer's test
    run may leave untracked files (``__pycache__/``) that change the work tree's candidate
    between the report and the spot check. So both get :data:`PARTIAL_NOTE`, which
    :func:`restaging` turns into the git commands that make ``--staged`` bind them.

    Args:
        repo: the repository of the hook.

    Returns:
        (binding, note): the note is empty when the binding reproduces the candidate.
    """
    if repo.index_kind() == "own":
        # other changes in the work tree need no note: a --staged spot check re-runs in a
        # temporary checkout of the staged tree when the work tree holds more
        return STAGED, ""
    return STAGED, PARTIAL_NOTE
