"""Rows of :mod:`gentle_hooks.policy.pythonpath_line`: a check's own ``PYTHONPATH=`` with
the room's entries put in front, what it cannot reach, and an isolated Python (issue 18,
HIGH2)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.pythonpath_line import composed_argv, composed_line, isolating

FIRST = "/r/guard:/r/tree/src"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("PYTHONPATH=tests python3 -m pytest", f"PYTHONPATH={FIRST}:tests python3 -m pytest"),
        ("PYTHONPATH= python3 x.py", f"PYTHONPATH={FIRST} python3 x.py"),
        ('PYTHONPATH="a b" python3', f'PYTHONPATH={FIRST}:"a b" python3'),
        ("export PYTHONPATH=lib && pytest", f"export PYTHONPATH={FIRST}:lib && pytest"),
        ("env PYTHONPATH=lib pytest", f"env PYTHONPATH={FIRST}:lib pytest"),
        ("cd t;PYTHONPATH=. pytest", f"cd t;PYTHONPATH={FIRST}:. pytest"),
        ("make PYTHONPATH=lib test", f"make PYTHONPATH={FIRST}:lib test"),
        ("python3 -m pytest", "python3 -m pytest"),
        ("echo $PYTHONPATH; MYPYTHONPATH=x true", "echo $PYTHONPATH; MYPYTHONPATH=x true"),
    ],
)
def test_an_unquoted_assignment_gets_the_rooms_entries_first(line: str, expected: str) -> None:
    assert composed_line(line, FIRST) == (expected, ())


def test_a_room_path_with_spaces_is_quoted() -> None:
    line, _ = composed_line("PYTHONPATH=t python3", "/a b/g")
    assert line == "PYTHONPATH='/a b/g':t python3"


@pytest.mark.parametrize(
    ("line", "missed"),
    [
        ("sh -c 'PYTHONPATH=t python3'", ("PYTHONPATH=t",)),
        ('env "PYTHONPATH=t" python3', ("PYTHONPATH=t",)),
        ("unset PYTHONPATH; python3 -m pytest", ("unset PYTHONPATH",)),
        ("env -u PYTHONPATH python3", ("-u PYTHONPATH",)),
    ],
)
def test_what_the_room_cannot_reach_is_named(line: str, missed: tuple[str, ...]) -> None:
    assert composed_line(line, FIRST)[1] == missed


def test_a_vector_through_env_and_sh_c() -> None:
    argv = ("env", "PYTHONPATH=t", "timeout", "9", "sh", "-c", "PYTHONPATH=u python3")
    assert composed_argv(argv, FIRST) == (
        (
            "env",
            f"PYTHONPATH={FIRST}:t",
            "timeout",
            "9",
            "sh",
            "-c",
            f"PYTHONPATH={FIRST}:u python3",
        ),
        (),
    )
    assert composed_argv(("env", "-u", "PYTHONPATH", "python3"), FIRST)[1] == ("-u PYTHONPATH",)


@pytest.mark.parametrize(
    ("argv", "found"),
    [
        (("sh", "-c", "python3 -I -m pytest"), "`python3 -I` (isolated mode)"),
        (("sh", "-c", "cd t && python3.11 -Em pytest"), "`python3.11 -E`"),
        (("python", "-bS", "x.py"), "`python -S` (no site hooks)"),
        (("sh", "-c", "env -i python3 x.py"), "`env -i` clears the room's PYTHONPATH"),
        (("sh", "-c", "timeout 9 /usr/bin/python3 -I x.py"), "`/usr/bin/python3 -I`"),
        (("sh", "-c", "if true; then python3 -I x; fi"), "`python3 -I`"),  # unreadable line
        (("sh", "-c", "python3 -m pytest -I"), None),  # an option of pytest
        (("sh", "-c", "python3 -c 'import sys' -I"), None),  # after -c: the command's
        (("sh", "-c", "python3 -W error -m pytest"), None),
        (("sh", "-c", "python3 -X dev -I x.py"), "`python3 -I`"),
        (("pytest", "-I"), None),
        # launchers no list names: the Python among their words is read (refuter r18j)
        (("sh", "-c", "setsid python3 -I -m pytest -q"), "`python3 -I`"),
        (("sh", "-c", "unshare -U python3 -I -m pytest"), "`python3 -I`"),
        (("sh", "-c", "ionice -c3 python3 -Im pytest"), "`python3 -I`"),
        (("sh", "-c", "taskset -c 0 python3.11 -E x.py"), "`python3.11 -E`"),
        (("sh", "-c", "prlimit --nofile=1024 python3 -I x.py"), "`python3 -I`"),
        (("sh", "-c", "chrt -o 0 /usr/bin/python3 -S x.py"), "`/usr/bin/python3 -S`"),
        (("setsid", "env", "-i", "python3", "x.py"), "`env -i`"),
        (("sh", "-c", "setsid python3 -m pytest -q"), None),
        (("sh", "-c", "setsid pytest -I"), None),
    ],
)
def test_an_isolated_python(argv: tuple[str, ...], found: str | None) -> None:
    why = isolating(argv)
    assert (why is None) == (found is None), why
    assert found is None or (why is not None and why.startswith(found))
