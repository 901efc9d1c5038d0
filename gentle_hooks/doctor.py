"""The doctor service: health checks a user runs when something refuses to work (SPEC §6, §7).

Layer: service. Each check is a function of the repository returning
:class:`CheckResult` values; :func:`run_checks` runs them in order. Today it checks the
ledger (store path, schema version, journal mode, ``PRAGMA integrity_check``, record
counts); hook reachability joins later as more check functions. Read-only: the doctor
never repairs, migrates or deletes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gentle_hooks.errors import GentleError
from gentle_hooks.git import Repository
from gentle_hooks.ledger import diagnose, ledger_path


@dataclass(frozen=True)
class CheckResult:
    """One check: a stable name, whether it passed, and one line of detail."""

    name: str
    ok: bool
    detail: str


def check_ledger(repo: Repository) -> list[CheckResult]:
    """The ledger's checks: ``store``, ``schema``, ``journal``, ``integrity``, ``records``."""
    checks = diagnose(ledger_path(repo.paths.common_dir))
    return [CheckResult(c.name, c.ok, c.detail) for c in checks]


#: The checks run on an opened repository, in order.
CHECKS: tuple[Callable[[Repository], list[CheckResult]], ...] = (check_ledger,)


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
