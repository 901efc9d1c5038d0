"""Whether a ``verify run``'s pass is held already (SPEC §6 "verdict", §9; seed 003 "a
second" verifier): its ``verdict add`` would add nothing.

Room ``services``. Reads the ledger only. The stakes count verifiers, not verdicts
(:func:`~gentle_hooks.ledger.verifiers.verifier_key`): a pass by a verifier whose accepted
verdict, observed by a ``verify run``, is stored for the candidate already counts once with
it, so ``verify run`` prints no ``verdict add`` for it. A run that did not pass is always
printed with its ``verdict add`` (an observed failure is evidence to record).
"""

from __future__ import annotations

from gentle_hooks.ledger.records import VerdictRecord
from gentle_hooks.ledger.verifiers import verifier_key
from gentle_hooks.services.record import open_store
from gentle_hooks.services.verify import Verified


def held_pass(v: Verified) -> VerdictRecord | None:
    """The accepted, observed verdict stored for the candidate of verify run ``v`` by the
    same verifier (its caller), when ``v`` passed; None otherwise (nothing held: the run's
    ``verdict add`` counts).

    Raises:
        StoreError: the ledger cannot be read.
    """
    if v.verdict.status != "pass" or not v.verdict.caller:
        return None
    # the record verdict add would store for this run, as far as who gave it goes
    mine = verifier_key(
        VerdictRecord(
            v.bound.root,
            v.bound.candidate.identity,
            "",
            "pass",
            True,
            (),
            "",
            "",
            caller=v.verdict.caller,
        )
    )
    with open_store(v.bound.repo) as led:
        stored = led.verdicts(v.bound.candidate.identity)
    return next(
        (
            s
            for s in stored
            if s.accepted and s.observed_run is not None and verifier_key(s) == mine
        ),
        None,
    )
