"""``policy.programs.started_programs``: the ``PATH`` each program of a check is looked up
on (issue 18, refuter r18a: ``PATH=bin:/usr/bin pytest -q`` ran the change's ``bin/pytest``
while the verdict's ``observed.programs`` named the virtual environment's pytest)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.programs import Started, check_programs, started_programs

ROOM = "/venv/bin:/usr/bin"

CASES = [
    ("pytest -q", [("pytest", ROOM)]),
    ("PATH=bin:/usr/bin pytest -q", [("pytest", "bin:/usr/bin")]),
    ("PATH=bin:$PATH pytest -q", [("pytest", f"bin:{ROOM}")]),
    ("PATH=bin:${PATH} pytest -q", [("pytest", f"bin:{ROOM}")]),
    ("env PATH=bin pytest -q", [("env", ROOM), ("pytest", "bin")]),
    ("PATH=bin && pytest -q", [("pytest", "bin")]),
    ("export PATH=bin:$PATH && pytest -q", [("pytest", f"bin:{ROOM}")]),
    ("PATH=bin true && pytest -q", [("pytest", ROOM)]),  # for true alone
    ("(PATH=bin) && pytest -q", [("pytest", ROOM)]),  # a subshell's own
    ("PATH=bin sh -c 'pytest -q'", [("sh", "bin"), ("pytest", "bin")]),
    ("LANG=C pytest -q", [("pytest", ROOM)]),
]


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[c for c, _ in CASES])
def test_the_path_a_program_is_looked_up_on(line: str, expected: list[tuple[str, str]]) -> None:
    started = started_programs(("sh", "-c", line), ROOM)
    assert started == (Started("sh", ROOM), *(Started(n, p) for n, p in expected))


def test_check_programs_names_each_program_once() -> None:
    line = "PATH=bin pytest -q && pytest -q"
    assert check_programs(("sh", "-c", line)) == ("sh", "pytest")
