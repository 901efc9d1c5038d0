"""The checks an earlier candidate of the same delegated change failed, carried forward
to a verify run of this one (SPEC §9; rule R2: an observed fail stands).

Room ``services``. A failed check binds to the change, not to one candidate of it: after
a failed ``verify run --check CMD``, a comment line added to a test file makes another
candidate, and a run of the brief alone on it must not pass as though ``CMD`` never
failed. :func:`carry_forward` finds the earlier candidates' standing failures
(:func:`~gentle_hooks.ledger.fails.carried_fails`: the runs of the work tree since this
change's escalations, :func:`~gentle_hooks.ledger.facts.earlier_runs`) and adds the
checks they failed on to the run's own, so the run re-runs them; the gate holds a verdict
back until they pass on this candidate.
"""

from __future__ import annotations

from gentle_hooks.ledger.fails import carried_checks, carried_fails
from gentle_hooks.services.record import Bound


def carry_forward(
    bound: Bound, planned: frozenset[tuple[str, str]]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str | None]:
    """The commands of the checks earlier candidates of this change failed on that the
    plan (``planned``: (kind, command) of its checks) does not run yet, in order — the
    criteria, the negative tests, the suites — and the line naming them all (None when no
    earlier failure stands).

    Raises:
        GitError / StoreError: reading the change or the ledger failed.
    """
    from gentle_hooks.services.change_facts import facts_for

    facts = facts_for(bound.repo, bound.candidate)
    fails = carried_fails(facts.earlier_runs, facts.verify_runs)
    if not fails:
        return (), (), (), None
    runs = ", ".join(f"#{r.id}" for r in fails[:3])
    named = ", ".join(f"`{c}`" for _, c in carried_checks(fails)[:3])
    line = (
        f"R2: verify run {runs} failed on an earlier candidate of this change ({named}): "
        "this run re-runs those checks, and a verdict stands only once they pass here"
    )
    missing = [c for c in carried_checks(fails) if c not in planned]
    criteria = tuple(c for k, c in missing if k not in ("negative", "suite"))
    negatives = tuple(c for k, c in missing if k == "negative")
    return criteria, negatives, tuple(c for k, c in missing if k == "suite"), line
