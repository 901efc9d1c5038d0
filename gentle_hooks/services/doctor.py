"""The doctor service: health checks a user runs when something refuses to work (SPEC §6, §7).

Room ``services``. Each check is a function of the repository returning
:class:`CheckResult` values; :func:`run_checks` runs them in order. Today it checks the
ledger (store path, schema version, journal mode, ``PRAGMA integrity_check``, record
counts), for every worktree whether the commit and push gates are reachable, whether a
killed spot check left a temporary checkout behind (with the command that removes it),
whether every recorded commit has its note, whether a remote still pushes the notes by the
refspec an earlier ``install --share`` added, and for every agent runtime used here whether
its recorder is wired and reachable.
what killed runs left behind (a hook's index copy, a first write's ``ledger.sqlite3.new-*``).
Read-only, except ``doctor --fix`` (:func:`remove_residue` here; the ledger's repairs in
:mod:`gentle_hooks.services.doctor_fix`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from gentle_hooks.errors import Command, GentleError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.diagnose import diagnose, is_damaged, sentinel_check
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # the names below are for annotations only
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.ledger.store import Ledger

    T = TypeVar("T")


@frozen
class CheckResult:
    """One check: a stable name, whether it passed, one line of detail, and the command
    that resolves it when one does (:func:`gentle_hooks.report.fixes.with_fix` writes it
    after the detail)."""

    name: str
    ok: bool
    detail: str
    fix: Command | None = None


def check_ledger(repo: Repository) -> list[CheckResult]:
    """The ledger's checks: ``store``, ``schema``, ``journal``, ``integrity``, ``records``;
    a damaged ledger file's failing check names ``gentle-hook doctor --fix``, which moves
    it aside (:func:`repair_ledger`)."""
    path = ledger_path(repo.paths.common_dir)
    checks = diagnose(path)
    fix = cli("doctor", "--fix") if is_damaged(path, checks) else None
    out = []
    for c in checks:
        if c.ok:
            out.append(CheckResult(c.name, True, c.detail))
        elif fix is not None:
            out.append(CheckResult(c.name, False, c.detail + _MOVE_ASIDE, fix))
        elif c.fixable:
            out.append(CheckResult(c.name, False, c.detail, cli("doctor", "--fix")))
        elif c.writable:
            out.append(CheckResult(c.name, False, c.detail, Command(("u+w", *c.writable), "chmod")))
        elif c.name in ("rows", "constraints"):
            out.append(CheckResult(c.name, False, c.detail + _QUARANTINE, cli("doctor", "--fix")))
        elif c.name == "quarantine":
            from gentle_hooks.services.doctor_fix import held_way_out

            words, first = held_way_out(path)
            out.append(CheckResult(c.name, False, c.detail + words, first))
        else:
            out.append(CheckResult(c.name, False, c.detail))
    odd = sentinel_check(path)
    if odd is not None:
        out.append(CheckResult(odd.name, False, odd.detail, cli("doctor", "--fix")))
    from gentle_hooks.services.doctor_key import key_checks
    from gentle_hooks.services.doctor_spool import damaged_findings, rest_findings, spool_findings

    out += [CheckResult("spool", False, detail, fix) for detail, fix in spool_findings(path)]
    out += [CheckResult("rewrites", False, detail, fix) for detail, fix in rest_findings(path)]
    out += [CheckResult("kept", False, detail, fix) for detail, fix in damaged_findings(path)]
    return out + [CheckResult("key", *k) for k in key_checks(path)]


#: What the fix of rows no command can read does, said before its command.
_QUARANTINE = (
    "; the fix moves each into the quarantine table (kept exactly, restorable; writer work "
    "held there keeps the gates closed)"
)
#: What the fix of a damaged ledger does, said before its command.
_MOVE_ASIDE = "; the fix moves it aside, kept as ledger.sqlite3.damaged-TIME (not read again)"


def check_hooks(repo: Repository) -> list[CheckResult]:
    """For every worktree: is the commit gate and the push gate reachable?
    (:func:`gentle_hooks.services.doctor_hooks.hook_rows`)"""
    from gentle_hooks.services.doctor_hooks import hook_rows

    return [CheckResult(*row) for row in hook_rows(repo)]


def check_checkouts(repo: Repository) -> list[CheckResult]:
    """Temporary checkouts a spot check left behind when it was killed (SPEC §5 "Spot
    check"): each fails, with the command that removes it (the next spot check removes
    them too)."""

    from gentle_hooks.services.checkout import stale_checkouts, stale_rooms

    if repo.paths.is_bare:
        return []
    try:
        stale = stale_checkouts(repo)
    except GentleError as exc:
        return [CheckResult("spot-check checkouts", False, exc.message)]
    stale += stale_rooms(repo, stale)
    if not stale:
        return [CheckResult("spot-check checkouts", True, "none left behind")]
    return [
        CheckResult(
            "spot-check checkouts",
            False,
            f"{path}: left behind by a spot check that was killed; the fix removes it",
            cli("doctor", "--fix"),
        )
        for path in stale
    ]


def _scan_ledger(
    repo: Repository, name: str, no_ledger: str, scan: Callable[[Ledger], list[T]]
) -> list[T] | CheckResult:
    """``scan`` of this clone's ledger, or the check ``name``'s result without it: passed
    with ``no_ledger`` when there is none, failed with the error when it cannot be read,
    and failed as not checked while a spool waits (only ``doctor --fix`` folds or moves
    it: the ``spool`` check says so)."""
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.services.doctor_spool import unchecked_while_spooled

    path = ledger_path(repo.paths.common_dir)
    why = unchecked_while_spooled(path)
    if why is not None:
        return CheckResult(name, False, why, cli("doctor", "--fix"))
    try:
        led = Ledger.open_existing(path, fold=False)
        if led is None:
            return CheckResult(name, True, no_ledger)
        with led:
            return scan(led)
    except GentleError as exc:
        return CheckResult(name, False, exc.message)


def check_notes(repo: Repository) -> list[CheckResult]:
    """Commits this clone recorded whose note is missing under ``refs/notes/gentle-hooks``
    (SPEC §8): CI and the server judge by notes, so such a commit would be blocked there.
    Fails naming how many and the first, with the command that writes and shares them; and
    for a recorded commit whose note is over the cap on a note (every gate counts it for
    nothing), naming it and the git command that removes it, so the note is written again."""
    from gentle_hooks.git.notes import note_bytes, too_large
    from gentle_hooks.notes.codec import NOTES_REF
    from gentle_hooks.notes.sync import commits_without_notes, notes_over_cap

    if repo.paths.is_bare:
        return []
    found = _scan_ledger(
        repo,
        "notes",
        "no ledger: no recorded commit needs a note",
        lambda led: [(commits_without_notes(repo, led), notes_over_cap(repo, led))],
    )
    if isinstance(found, CheckResult):
        return [found]
    [(missing, large)] = found
    out = [
        CheckResult(
            "notes",
            False,
            f"{too_large(c, NOTES_REF, size, note_bytes(repo.env))}: every gate counts it for "
            f"nothing; remove it (git notes --ref={NOTES_REF} remove {c}), then write it again",
            cli("sync", "push"),
        )
        for c, size in large[:1]
    ]
    if missing:
        first = missing[0].commit_id
        out.append(
            CheckResult(
                "notes",
                False,
                f"{len(missing)} recorded commit(s) without a note (first {first[:12]}); CI "
                "and the server would block them; write and share them",
                cli("sync", "push"),
            )
        )
    return out or [CheckResult("notes", True, "every recorded commit has its note")]


def check_share(repo: Repository) -> list[CheckResult]:
    """Remotes whose ``remote.<name>.push`` still holds the notes refspec an earlier
    ``install --share`` added (SPEC §8): git plans that notes update before the pre-push
    gate merges the remote's notes in, so a plain ``git push`` from a clone whose notes
    are behind (a teammate's were pushed) is rejected. Fails per remote, with the
    ``install --share --notes-only`` that replaces it; nothing when none holds it."""
    from gentle_hooks.notes.sharing import SHARE_PUSH_REFSPEC

    return [
        CheckResult(
            "notes",
            False,
            f"remote.{remote}.push carries the notes refspec an earlier install --share "
            "added: a plain git push is rejected once a teammate's notes are ahead; the "
            "push gate sends the notes instead",
            cli("install", "--share", remote, "--notes-only"),
        )
        for remote in repo.config_remotes()
        if SHARE_PUSH_REFSPEC in repo.config_get_all(f"remote.{remote}.push")
    ]


def check_commits(repo: Repository) -> list[CheckResult]:
    """Unpushed commits that delivered writer work with no commit record (a post-commit
    that failed or was killed: :mod:`gentle_hooks.services.doctor_commits`): CI and the
    server would see no note. Fails naming how many and the first, with the command that
    records them from the commits."""
    from gentle_hooks.services.doctor_commits import unrecorded_commits

    if repo.paths.is_bare:
        return []
    missing = _scan_ledger(
        repo,
        "commits",
        "no ledger: no writer commit to record",
        lambda led: unrecorded_commits(repo, led),
    )
    if isinstance(missing, CheckResult):
        return [missing]
    if not missing:
        return [CheckResult("commits", True, "every delivered writer commit is recorded")]
    return [
        CheckResult(
            "commits",
            False,
            f"{len(missing)} commit(s) delivered writer work with no commit record (first "
            f"{missing[0].id[:12]}: its post-commit hook did not record it); the gates cannot "
            "see its verification; record them from the commits",
            cli("doctor", "--fix"),
        )
    ]


def check_agent_hooks(repo: Repository) -> list[CheckResult]:
    """Per agent runtime used here: is its recorder wired and can its hook run?
    (:mod:`gentle_hooks.services.agent_doctor`)"""
    from gentle_hooks.services.agent_doctor import check_agents

    return [CheckResult(c.name, c.ok, c.detail, c.fix) for c in check_agents(repo)]


def check_user_agent_hooks() -> list[CheckResult]:
    """:func:`check_agent_hooks` with no repository: the user-scope runtimes only."""
    from gentle_hooks.services.agent_doctor import check_agents

    return [CheckResult(c.name, c.ok, c.detail, c.fix) for c in check_agents(None)]


def residue_files(repo: Repository) -> list[str]:
    """What killed runs left behind: a hook's private index copy in the git directory or
    in any linked worktree's (``gentle-hooks-index-<pid>-...``, or in the system's temporary
    directory when the git directory refused it) and a first write's
    ``ledger.sqlite3.new-<pid>-...`` beside the ledger, of processes that are gone
    (:func:`gentle_hooks.bounded.residue`),
    and this user's note, signing and verifying scratch directories under the system's
    temporary directory whose process is gone (:func:`gentle_hooks.bounded.scratch_residue`),
    and the expired markers of agent subagents whose stop event never came
    (:func:`gentle_hooks.services.agent_subagents.stale`).
    The next run that owns them removes them as well."""
    from gentle_hooks.bounded import residue, scratch_residue
    from gentle_hooks.git.index import INDEX_PREFIX, temp_index_residue
    from gentle_hooks.ledger.sqlite_file import new_file_prefix

    ledger = ledger_path(repo.paths.common_dir)
    state = os.path.dirname(ledger)
    # a symbolic link in the state directory's place points outside: nothing there is ours
    found = [] if os.path.islink(state) else residue(state, new_file_prefix(ledger))
    if not os.path.islink(state):
        # a subagent's marker whose stop never came (agent_subagents.MAX_AGE)
        from gentle_hooks.services.agent_subagents import stale

        found += stale(repo.paths.common_dir)
    worktrees = os.path.join(repo.paths.common_dir, "worktrees")
    try:  # every linked worktree's own git directory holds its hooks' index copies
        linked = sorted(
            os.path.join(worktrees, n)
            for n in os.listdir(worktrees)
            if not os.path.islink(os.path.join(worktrees, n))
        )
    except OSError:
        linked = []
    for directory in dict.fromkeys((repo.paths.git_dir, repo.paths.common_dir, *linked)):
        found += residue(directory, INDEX_PREFIX)
    return found + temp_index_residue() + scratch_residue()


def check_residue(repo: Repository) -> list[CheckResult]:
    """``residue``: files left by killed runs (:func:`residue_files`), with the command
    that removes them."""
    found = residue_files(repo)
    if not found:
        return [CheckResult("residue", True, "nothing left by killed runs")]
    shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    return [
        CheckResult(
            "residue",
            False,
            f"{len(found)} file(s) left by killed runs: {shown}",
            cli("doctor", "--fix"),
        )
    ]


def remove_residue(cwd: str | None) -> list[str]:
    """``doctor --fix``: remove :func:`residue_files` (a link itself, never its target; a
    directory with what it holds) and what stands in the idle sentinel's place when it is
    not the sentinel (:func:`~gentle_hooks.ledger.diagnose.remove_odd_sentinel`), and the
    checkouts and rooms of spot checks that were killed
    (:func:`gentle_hooks.services.checkout.sweep`: never a running one's); the paths
    removed. Nothing else is ever changed.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.bounded import remove_files
    from gentle_hooks.ledger.diagnose import remove_odd_sentinel
    from gentle_hooks.services.checkout import sweep

    repo = Repository.open(cwd, allow_bare=True)
    removed = remove_files(residue_files(repo))
    sentinel = remove_odd_sentinel(ledger_path(repo.paths.common_dir))
    removed += [sentinel] if sentinel else []
    return removed + ([] if repo.paths.is_bare else sweep(repo))


#: The checks run on an opened repository, in order.
CHECKS: tuple[Callable[[Repository], list[CheckResult]], ...] = (
    check_ledger,
    check_residue,
    check_hooks,
    check_checkouts,
    check_commits,
    check_notes,
    check_share,
    check_agent_hooks,
)


def run_checks(cwd: str | None) -> list[CheckResult]:
    """Run every check for the repository at ``cwd`` (bare repositories included).

    Returns:
        The results, ``repository`` first; when the repository cannot be opened that one
        check fails and only the user's agent runtimes are checked besides. Never raises
        for what it diagnoses.
    """
    try:
        repo = Repository.open(cwd, allow_bare=True)
    except GentleError as exc:
        # the user's agent runtimes are checked outside a repository too; the line says
        # plainly that everything else needs one
        users = check_user_agent_hooks()
        found = ", ".join(c.name.removeprefix("agent: ") for c in users) or "none found"
        detail = (
            f"{exc.message}; the gate's checks need a repository: only the user-scope agent "
            f"recorders are checked here ({found})"
        )
        return [CheckResult("repository", False, detail), *users]
    out = [CheckResult("repository", True, repo.paths.common_dir)]
    for check in CHECKS:
        out.extend(check(repo))
    return out


def is_healthy(results: list[CheckResult]) -> bool:
    """True when every check passed."""
    return all(r.ok for r in results)
