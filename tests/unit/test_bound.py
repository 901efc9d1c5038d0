"""A time bound the environment may only lower (gentle_hooks.values.bound): one helper for
the hook's bound and the ``-G`` scan's, light enough for the hook pass path."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gentle_hooks.values.bound import lowered_bound

CEILING = 40.0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, CEILING),
        ("", CEILING),
        ("x", CEILING),
        ("nan", CEILING),
        ("inf", CEILING),
        ("-1", CEILING),
        ("40", CEILING),
        ("1e9", CEILING),
        ("0", 0.0),
        ("2.5", 2.5),
        ("39.9", 39.9),
    ],
    ids=lambda v: repr(v),
)
def test_the_environment_only_lowers_the_bound(given: str | None, expected: float) -> None:
    env = {} if given is None else {"KNOB": given}
    assert lowered_bound(env, "KNOB", CEILING) == expected


def test_both_bounds_read_the_same_helper() -> None:
    from gentle_hooks.git.process import SCAN_SECONDS, scan_seconds
    from gentle_hooks.hooks.call import HOOK_SECONDS, hook_seconds

    for given in ("1e9", "nan", "-1", "x", "", "2.5"):
        assert scan_seconds({"GENTLE_HOOKS_SCAN_SECONDS": given}) == lowered_bound(
            {"K": given}, "K", SCAN_SECONDS
        )
        assert hook_seconds({"GENTLE_HOOKS_HOOK_SECONDS": given}) == lowered_bound(
            {"K": given}, "K", HOOK_SECONDS
        )


def test_the_helper_and_the_hook_call_import_neither_subprocess_nor_json() -> None:
    code = (
        "import sys, gentle_hooks.values.bound, gentle_hooks.hooks.call\n"
        "print(' '.join(m for m in ('subprocess', 'json') if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == ""
