"""The CLI fuzz smoke: about a minute of generated hostile inputs across every input family
of :mod:`tests.fuzz`, through the real CLI; not one run may break the exit-code contract.
Maintainers run it longer: ``python -m tests.fuzz --minutes N``."""

from __future__ import annotations

import os

from tests.fuzz import run

#: Seconds of fuzzing per test run (GENTLE_FUZZ_SECONDS overrides it).
SECONDS = float(os.environ.get("GENTLE_FUZZ_SECONDS", "60"))
#: The inputs are the same on every run (GENTLE_FUZZ_SEED picks others).
SEED = int(os.environ.get("GENTLE_FUZZ_SEED", "16"))


def test_generated_hostile_inputs_never_break_the_contract() -> None:
    n, per_family, findings = run(SECONDS, SEED)
    assert not findings, f"seed {SEED}: " + "\n".join(str(f) for f in findings)
    assert len(per_family) >= 10 and n >= len(per_family), (n, per_family)
