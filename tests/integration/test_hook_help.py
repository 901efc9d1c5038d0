"""``gentle-hook hook NAME --help`` prints the hooks' help and exits 0, as ``hook --help``
does (git never calls a hook with ``--help`` alone)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "argv", [["hook", "--help"], ["hook", "pre-commit", "--help"], ["hook", "pre-push", "-h"]]
)
def test_help_on_a_hook_exits_0(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done
    assert done.stdout.startswith("Usage: gentle-hook hook"), done
    assert not done.stderr


def test_an_extra_argument_to_a_hook_is_still_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "hook", "pre-commit", "extra"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done
