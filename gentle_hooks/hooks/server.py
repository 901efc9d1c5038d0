"""The server gate (SPEC §8): ``pre-receive`` on a bare repository rejects a push that
carries an unverified delegated commit, judged from notes and trailers alone
(:mod:`gentle_hooks.hooks.judgement`).

Room ``hooks``. Works inside git's quarantine: the child git processes inherit the
quarantine object directories, and notes pushed in the same push are read from their
incoming commit. An update of ``refs/notes/gentle-hooks`` itself is checked first
(:func:`gentle_hooks.notes.guard.check_notes_update`: no deletion, no rewind, every added
line schema-checked); a refused one rejects the whole push, naming why.

The declared verification commands (``verification.commands``, SPEC §5 "Spot check") are
the configuration file's at the pushed ref's old value (a new ref: the server's ``HEAD``),
never the pushed commits' own: a push cannot loosen the commands that verify it. Every
other setting is the server's (git config and environment).
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.load import load_config
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.hooks.judgement import CommitVerdict, judge_commits
from gentle_hooks.hooks.outcome import say
from gentle_hooks.hooks.push_input import is_zero, ref_lines
from gentle_hooks.notes.codec import NOTES_REF
from gentle_hooks.notes.guard import check_notes_update
from gentle_hooks.notes.trust import load_trust
from gentle_hooks.services.declared_suite import with_base_commands


def receive_gate(call: HookCall, env: Mapping[str, str]) -> int:
    """Judge every ref a push updates (pre-receive); the reason and the fix of each block
    go to the pusher's screen.

    Args:
        call: ``stdin`` holds git's ``<old> <new> <ref>`` lines; env: the environment.

    Returns:
        0 accepted, 1 rejected (any ref carrying an unverified delegated commit, or an
        update of the notes ref that deletes, rewinds, removes or adds a refused line).

    Refs sent at the same commits (same new tip, same old base) are judged once; the
    judging stops after :data:`~gentle_hooks.hooks.call.HOOK_SECONDS` with one line (exit
    2: the push is refused), checked before each ref, each pushed note checked, each
    commit and each of its candidates.

    Raises:
        UsageError: a malformed input line, or the time limit reached (the push is
            refused: fail closed).
        GentleError: git or config failures (fails closed).
    """
    updates = []
    # surrogateescape: a ref name's byte that is not UTF-8 is kept, and shown as \xHH
    for number, raw in ref_lines(call.stdin.decode("utf-8", "surrogateescape"), "pre-receive"):
        parts = raw.split()
        if len(parts) != 3:
            raise UsageError(f"pre-receive input line {number} is not '<old> <new> <ref>'")
        updates.append(parts)
    repo = Repository.open(allow_bare=True)
    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    sources = [NOTES_REF] + [
        new for _, new, ref in updates if ref == NOTES_REF and not is_zero(new)
    ]
    # git only runs pre-receive once every object arrived: a missing one is no push,
    # refused before any other line is printed
    sent = {new: ref for _, new, ref in updates if ref != NOTES_REF and not is_zero(new)}
    missing = repo.missing_objects(list(sent))
    if missing:
        new = missing[0]
        raise UsageError(
            f"pre-receive: {sent[new]}: object {new[:80]} does not exist in this repository; "
            "cannot judge it (push refused)"
        )
    trust = load_trust(repo, config.settings, None)  # the server's own file, never the push's
    rejected = 0

    from gentle_hooks.hooks.call import time_check
    from gentle_hooks.values.frozen import replace

    in_time = time_check("pre-receive", len(updates), env)

    peeled: dict[str, str | None] = {}
    judged: dict[tuple[str, str | None], list[CommitVerdict]] = {}

    def peel(oid: str) -> str | None:
        if oid not in peeled:
            peeled[oid] = repo.peel_commit(oid)
        return peeled[oid]

    for old, new, ref in updates:
        if ref != NOTES_REF:
            continue
        problems = check_notes_update(repo, old, new, in_time)
        for text in problems:
            say(f"{ref}: {text}")
        if problems and not is_zero(old) and not is_zero(new) and _rewinds(repo, old, new):
            from gentle_hooks.errors import cli
            from gentle_hooks.report.fixes import labelled, step_lines
            from gentle_hooks.report.worktree_text import path_steps

            fix = labelled(cli("sync", "push"))  # fetches, merges, then pushes
            # it runs in the pusher's clone: the line that puts the CLI on PATH there first
            for line in step_lines(path_steps([("run", fix.removeprefix("run: "))])):
                say(line)
            say(f"  {fix}")
        if problems:
            rejected += 1
            say(
                f"REJECTED {ref}: the notes ref only grows by lines the note schema accepts, "
                "in notes within the size cap"
            )
    for old, new, ref in updates:
        if ref == NOTES_REF:
            continue  # the notes themselves were checked above
        in_time()
        if is_zero(new):
            say(f"{ref}: deletion, nothing to assess")
            continue
        tip = peel(new)
        if tip is None:
            say(f"{ref}: not a commit, nothing to assess")
            continue
        base = None if is_zero(old) else peel(old)
        if (tip, base) not in judged:  # refs sent at the same commits are judged once
            if base is None:
                # Only branches and tags vouch for a commit: one parked under another
                # namespace (refs/notes/x, refs/pull/...) by an earlier push is judged again.
                commits = repo.commits_outside_branches_and_tags(tip)
            else:
                commits = repo.new_commits(tip, exclude=[base])
            declared = base if base is not None else peel("HEAD")
            judging = replace(config, settings=with_base_commands(repo, declared, config.settings))
            judged[(tip, base)] = judge_commits(
                repo, judging, commits, ref, sources, trust, in_time
            )
        verdicts = [replace(v, ref=ref) for v in judged[(tip, base)]]
        blocked = [v for v in verdicts if v.blocked]
        for v in verdicts:
            if v.delegated_by is not None:
                from gentle_hooks.hooks.verdict_text import verdict_lines  # a writer's only

                for text in verdict_lines(v):
                    say(text)
        if blocked:
            rejected += 1
            say(f"REJECTED {ref}: {len(blocked)} unverified delegated commit(s)")
    return EXIT_BLOCKED if rejected else EXIT_OK


def _rewinds(repo: Repository, old: str, new: str) -> bool:
    """True when the notes update drops commits the server's notes had (a rewind)."""
    return repo.peel_commit(new) is not None and not repo.is_ancestor(old, new)
