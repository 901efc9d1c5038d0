"""The checks of a verify run whose own definition the candidate adds or changes (SPEC §9;
seed 001 "Guardrails").

Room ``services``. Reads the candidate's change (its paths and blobs, from git) and asks
:mod:`gentle_hooks.policy.checkdefs` which of those paths define what each check runs, and
whether the part that defines it changed (``package.json``'s ``scripts``, not its
dependencies). :func:`~gentle_hooks.services.room_run.observe_all` does not run such a check.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.policy.checkdefs import check_sources, is_defining, part_changed
from gentle_hooks.services.record import Bound


def defined_by_change(bound: Bound, checks: Sequence[Check]) -> tuple[tuple[str, ...], ...]:
    """For each check, in order: the paths the candidate adds, changes or removes that
    define what it runs (:func:`~gentle_hooks.policy.checkdefs.check_sources`), sorted;
    empty when the candidate leaves its definition as the base has it.

    Raises:
        GitError: reading the trees failed.
    """
    cand = bound.candidate
    if cand.is_empty:
        return tuple(() for _ in checks)
    changes = bound.repo.tree_delta(cand.base.tree, cand.tree)
    matched = [
        [(s, c) for s in check_sources(check.argv) for c in changes if is_defining(s, c.path)]
        for check in checks
    ]
    oids = {o for pairs in matched for _, c in pairs for o in (c.old_blob, c.new_blob) if o}
    blobs = bound.repo.read_blobs(sorted(oids)) if oids else {}

    def data(oid: str | None) -> bytes | None:
        return None if oid is None else blobs.get(oid)

    return tuple(
        tuple(
            sorted(
                {
                    c.path
                    for s, c in pairs
                    if part_changed(s, c.path, data(c.old_blob), data(c.new_blob))
                }
            )
        )
        for pairs in matched
    )
