"""Checks whose failure the line hides do not count as a receipt (SPEC §5 "Spot check":
both the report and the re-run succeeded; gentle_hooks.policy.hiding), row by row, and the
way out a refusal prints: the same command without the hiding part.

POSIX XCU §2.9.2: a pipeline's status is its last command's (all of them with bash's
``pipefail``); GNU make ``-i`` ignores every recipe's failure (``-k`` does not: make still
exits 2); npm/yarn/pnpm ``--if-present`` succeed without a script; ``busybox APPLET`` is
the applet.
"""

from __future__ import annotations

import pytest

from gentle_hooks.policy.nocheck import judge_command
from gentle_hooks.policy.selfcheck import Report, receipt_standing

#: (line, rows, the same command without the hiding part): one case per row.
HIDES = [
    pytest.param("make -i test", ("N-make-ignore",), "make test", id="N-make-ignore"),
    pytest.param("gmake --ignore-errors test", ("N-make-ignore",), "gmake test", id="N-make-long"),
    pytest.param("make -ik check", ("N-make-ignore",), "make -k check", id="N-make-cluster"),
    pytest.param("npm test --if-present", ("N-if-present",), "npm test", id="N-if-present-npm"),
    pytest.param(
        "pnpm run --if-present test", ("N-if-present",), "pnpm run test", id="N-if-present-pnpm"
    ),
    pytest.param("yarn run test --if-present", ("N-if-present",), "yarn run test", id="N-if-yarn"),
    pytest.param("pytest | grep -v x", ("N-pipe",), "pytest", id="N-pipe-grep"),
    pytest.param("pytest -q | sort", ("N-pipe",), "pytest -q", id="N-pipe-sort"),
    pytest.param("pytest 2>&1 | grep -c passed", ("N-pipe",), "pytest", id="N-pipe-redirected"),
    pytest.param("cat in | pytest | sort", ("N-pipe",), "cat in | pytest", id="N-pipe-middle"),
    pytest.param("bash -c 'pytest | sort'", ("N-pipe",), "pytest", id="N-pipe-in-sh-c"),
    pytest.param("(set -o pipefail); pytest | sort", ("N-pipe",), None, id="N-pipe-subshell-set"),
    pytest.param(
        "X=1 timeout 60 make -i test",
        ("N-make-ignore",),
        "X=1 timeout 60 make test",
        id="N-make-wrapped",
    ),
    pytest.param("busybox true", ("N-true",), None, id="N-busybox-true"),
    pytest.param("toybox echo ok", ("N-echo",), None, id="N-toybox-echo"),
    pytest.param("busybox sh -c 'pytest || true'", ("N-true", "N-masked"), None, id="busybox-sh"),
]


@pytest.mark.parametrize(("line", "rows", "way_out"), HIDES)
def test_a_check_whose_failure_is_hidden_does_not_count(
    line: str, rows: tuple[str, ...], way_out: str | None
) -> None:
    got = judge_command(line, receipt=True)
    assert (got.checks, got.rows) == (False, rows)
    standing = receipt_standing(Report(line, 0))
    assert (standing.counts, standing.row, standing.no_check) == (False, "S-no-check", rows)


@pytest.mark.parametrize(("line", "rows", "way_out"), HIDES)
def test_the_way_out_is_the_same_command_without_the_hiding_part(
    line: str, rows: tuple[str, ...], way_out: str | None
) -> None:
    from gentle_hooks.policy.nocheck import unhidden

    assert unhidden(line) == way_out
    if way_out is not None:
        assert judge_command(way_out, receipt=True).checks


HOLDS = [
    pytest.param("make test", id="make"),
    pytest.param("make -k test", id="make-k-still-fails"),
    pytest.param("npm test", id="npm-test"),
    pytest.param("cat in | pytest", id="only-the-last-checks"),
    pytest.param("echo y | pytest", id="input-from-echo"),
    pytest.param("set -o pipefail; pytest | sort", id="pipefail-before"),
    pytest.param("set -euo pipefail; pytest | grep -v x", id="pipefail-in-flags"),
    pytest.param("bash -o pipefail -c 'pytest | sort'", id="pipefail-shell-option"),
    pytest.param("(set -o pipefail; pytest | sort)", id="pipefail-in-the-subshell"),
    pytest.param("busybox sh -c pytest", id="busybox-shell-runs-the-check"),
]


@pytest.mark.parametrize("line", HOLDS)
def test_a_check_whose_failure_fails_the_line_counts(line: str) -> None:
    assert judge_command(line, receipt=True).checks
