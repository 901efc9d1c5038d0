"""Inputs the CLI fuzzer (:mod:`tests.fuzz`) found breaking the exit-code contract, each
reduced to the smallest input that still broke it, replayed through the real CLI with the
fuzzer's own check (:func:`tests.fuzz.check`): exit 2 is exactly one line on stderr, never
exit 3, a traceback or a hang."""

from __future__ import annotations

import pytest

from tests.fuzz import Case, Families, check, prepare

ZERO = "0" * 40
ABSENT = "f" * 40  # an object id no repository here holds

REDUCED = [
    # a status line for an earlier ref, then a later ref naming a missing local object:
    # the refusal must be the only line (seed 16, the pre-push lines family)
    Case(
        "pre-push lines",
        ["hook", "pre-push", "origin", "file:///nowhere"],
        stdin=(
            f"(delete) {ZERO} refs/heads/main {ZERO}\n"
            f"refs/heads/x {ABSENT} refs/heads/main {ZERO}\n"
        ).encode(),
    ),
    Case(
        "pre-receive lines",
        ["hook", "pre-receive"],
        stdin=f"{ZERO} {ZERO} refs/heads/gone\n{ZERO} {ABSENT} refs/heads/new\n".encode(),
    ),
]


@pytest.fixture(scope="module")
def families(tmp_path_factory: pytest.TempPathFactory) -> Families:
    return prepare(tmp_path_factory.mktemp("reduced"))


@pytest.mark.parametrize("case", REDUCED, ids=lambda c: c.family)
def test_a_reduced_fuzz_finding_keeps_the_contract(families: Families, case: Case) -> None:
    found = check(case, case.cwd or families.repo)
    assert found is None, str(found)
