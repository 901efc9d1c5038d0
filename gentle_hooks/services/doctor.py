"""The doctor service: health checks a user runs when something refuses to work (SPEC §6, §7).

Room ``services``. Each check is a function of the repository returning
:class:`CheckResult` values; :func:`run_checks` runs them in order. Today it checks the
ledger (store path, schema version, journal mode, ``PRAGMA integrity_check``, record
counts), for every worktree whether the commit and push gates are reachable, whether a
killed spot check left a temporary checkout behind (with the command that removes it),
whether every recorded commit has its note, and for every agent runtime used here whether
its recorder is wired and reachable.
Read-only: the doctor never repairs, migrates or deletes anything.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.errors import GentleError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.diagnose import diagnose
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.values.frozen import frozen


@frozen
class CheckResult:
    """One check: a stable name, whether it passed, and one line of detail."""

    name: str
    ok: bool
    detail: str


def check_ledger(repo: Repository) -> list[CheckResult]:
    """The ledger's checks: ``store``, ``schema``, ``journal``, ``integrity``, ``records``."""
    checks = diagnose(ledger_path(repo.paths.common_dir))
    return [CheckResult(c.name, c.ok, c.detail) for c in checks]


#: The hooks whose reachability decides whether the gate holds in a worktree.
GATE_HOOKS = ("pre-commit", "pre-push")


def hook_state(path: str) -> tuple[str, bool]:
    """(what is installed at ``path``, whether it reaches gentle-hooks)."""
    import os

    from gentle_hooks.services.install import is_ours

    if not os.path.lexists(path):
        return "not installed", False
    if not os.access(path, os.X_OK):
        return "present but not executable", False
    if is_ours(path):
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        py = next(
            (
                ln.split("=", 1)[1].strip("'\"")
                for ln in text.splitlines()
                if ln.startswith("GENTLE_HOOK_PYTHON=")
            ),
            "",
        )
        if py and os.access(py, os.X_OK):
            return f"gentle-hook install ({py})", True
        return f"gentle-hook install, but its interpreter {py or '?'} is gone (reinstall)", False
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read(8192)
    if "pre-commit" in text and "hook-impl" in text:
        return "the pre-commit framework", True
    return "another hook (not gentle-hooks)", False


def check_hooks(repo: Repository) -> list[CheckResult]:
    """For every worktree: is the commit gate and the push gate reachable? (SPEC §7 "Hooks")

    A worktree where nothing of gentle-hooks is installed anywhere is reported, not failed;
    once any worktree has the gate, a worktree where it is unreachable fails (an agent
    working there would go ungated), as does a broken install (moved interpreter,
    ``core.hooksPath=/dev/null``).
    """
    import os

    if repo.paths.is_bare:
        hooks = repo.git_path("hooks")
        state, ok = hook_state(os.path.join(hooks, "pre-receive"))
        return [
            CheckResult(
                "hooks: server",
                True,
                f"pre-receive: {state}"
                + ("" if ok else " (gentle-hook install --server places it)"),
            )
        ]
    rows: list[tuple[str, str, bool]] = []
    disabled: set[str] = set()
    from gentle_hooks.services.checkout import is_ours

    for wt in repo.worktree_paths():
        if is_ours(wt):
            continue  # a spot check's temporary checkout: check_checkouts reports it
        try:
            other = Repository.open(wt)
            hooks = other.git_path("hooks")
        except GentleError as exc:
            rows.append((wt, exc.message, False))
            continue
        if os.path.realpath(hooks) == os.devnull:
            rows.append((wt, "core.hooksPath is /dev/null: git runs no hooks here", False))
            disabled.add(wt)
            continue
        states = [(h, *hook_state(os.path.join(hooks, h))) for h in GATE_HOOKS]
        detail = "; ".join(f"{h}: {s}" for h, s, _ in states)
        rows.append((wt, detail, all(ok for _, _, ok in states)))
    anywhere = any(ok for _, _, ok in rows) or any(
        "gentle-hook install" in d or "pre-commit framework" in d for _, d, _ in rows
    )
    return [
        CheckResult(
            f"hooks: {wt}",
            ok or (not anywhere and wt not in disabled),
            detail + ("" if ok or anywhere else " (gentle-hook install to gate it)"),
        )
        for wt, detail, ok in rows
    ]


def check_checkouts(repo: Repository) -> list[CheckResult]:
    """Temporary checkouts a spot check left behind when it was killed (SPEC §5 "Spot
    check"): each fails, with the command that removes it (the next spot check removes
    them too)."""
    import shlex

    from gentle_hooks.services.checkout import stale_checkouts

    if repo.paths.is_bare:
        return []
    try:
        stale = stale_checkouts(repo)
    except GentleError as exc:
        return [CheckResult("spot-check checkouts", False, exc.message)]
    if not stale:
        return [CheckResult("spot-check checkouts", True, "none left behind")]
    return [
        CheckResult(
            "spot-check checkouts",
            False,
            f"{path}: left behind by a spot check that was killed; remove it: "
            f"git worktree remove --force {shlex.quote(path)}",
        )
        for path in stale
    ]


def check_notes(repo: Repository) -> list[CheckResult]:
    """Commits this clone recorded whose note is missing under ``refs/notes/gentle-hooks``
    (SPEC §8): CI and the server judge by notes, so such a commit would be blocked there.
    Fails naming how many and the first, with the command that writes and shares them."""
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import commits_without_notes

    if repo.paths.is_bare:
        return []
    try:
        led = Ledger.open_existing(ledger_path(repo.paths.common_dir))
        if led is None:
            return [CheckResult("notes", True, "no ledger: no recorded commit needs a note")]
        with led:
            missing = commits_without_notes(repo, led)
    except GentleError as exc:
        return [CheckResult("notes", False, exc.message)]
    if not missing:
        return [CheckResult("notes", True, "every recorded commit has its note")]
    first = missing[0].commit_id
    return [
        CheckResult(
            "notes",
            False,
            f"{len(missing)} recorded commit(s) without a note (first {first[:12]}); CI and "
            "the server would block them; write and share them: gentle-hook sync push",
        )
    ]


def check_agent_hooks(repo: Repository) -> list[CheckResult]:
    """Per agent runtime used here: is its recorder wired and can its hook run?
    (:mod:`gentle_hooks.services.agent_doctor`)"""
    from gentle_hooks.services.agent_doctor import check_agents

    return [CheckResult(c.name, c.ok, c.detail) for c in check_agents(repo)]


#: The checks run on an opened repository, in order.
CHECKS: tuple[Callable[[Repository], list[CheckResult]], ...] = (
    check_ledger,
    check_hooks,
    check_checkouts,
    check_notes,
    check_agent_hooks,
)


def run_checks(cwd: str | None) -> list[CheckResult]:
    """Run every check for the repository at ``cwd`` (bare repositories included).

    Returns:
        The results, ``repository`` first; when the repository cannot be opened that one
        check fails and nothing else runs. Never raises for what it diagnoses.
    """
    try:
        repo = Repository.open(cwd, allow_bare=True)
    except GentleError as exc:
        return [CheckResult("repository", False, exc.message)]
    out = [CheckResult("repository", True, repo.paths.common_dir)]
    for check in CHECKS:
        out.extend(check(repo))
    return out


def is_healthy(results: list[CheckResult]) -> bool:
    """True when every check passed."""
    return all(r.ok for r in results)
