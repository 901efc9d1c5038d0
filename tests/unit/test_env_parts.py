"""``env``'s arguments as GNU ``env`` reads them (``gentle_hooks.policy.wrappers.env_parts``,
``unwrap``, ``env_split``): clustered short options, ``-S`` strings, long-option prefixes.

Issue 18, task h18e item 2: ``env -vS...`` (combined options) was not read as a split
string, and ``env -iu NAME cmd`` unwrapped to ``NAME cmd``."""

from __future__ import annotations

import shlex

import pytest

from gentle_hooks.policy.wrappers import env_parts, env_split, unwrap

#: (env's words, its options, its assignments, the command it runs).
PARTS = [
    ("env X=1 pytest", (), ("X=1",), ("pytest",)),
    ("env -i X=1 pytest", ("-i",), ("X=1",), ("pytest",)),
    ("env - X=1 pytest", ("-",), ("X=1",), ("pytest",)),
    ("env -u HOME X=1 pytest", ("-u", "HOME"), ("X=1",), ("pytest",)),
    ("env -iu HOME X=1 pytest", ("-iu", "HOME"), ("X=1",), ("pytest",)),
    ("env -uHOME X=1 pytest", ("-uHOME",), ("X=1",), ("pytest",)),
    ("env -C dir X=1 pytest", ("-C", "dir"), ("X=1",), ("pytest",)),
    ("env --unset HOME X=1 pytest", ("--unset", "HOME"), ("X=1",), ("pytest",)),
    ("env --unset=HOME X=1 pytest", ("--unset=HOME",), ("X=1",), ("pytest",)),
    ("env --ignore-env X=1 pytest", ("--ignore-env",), ("X=1",), ("pytest",)),
    ("env -S 'X=1 pytest -q'", (), ("X=1",), ("pytest", "-q")),
    ("env -SX=1 pytest", (), ("X=1",), ("pytest",)),
    ("env -vS 'X=1 pytest'", ("-v",), ("X=1",), ("pytest",)),
    ("env -iS 'X=1 pytest'", ("-i",), ("X=1",), ("pytest",)),
    ("env -vSX=1 pytest", ("-v",), ("X=1",), ("pytest",)),
    ("env -ivSX=1 pytest", ("-iv",), ("X=1",), ("pytest",)),
    ("env -S '-i X=1 pytest'", ("-i",), ("X=1",), ("pytest",)),
    ("env --split-string='X=1 pytest'", (), ("X=1",), ("pytest",)),
    ("env --split 'X=1 pytest'", (), ("X=1",), ("pytest",)),
    ("env -- X=1 pytest", (), ("X=1",), ("pytest",)),
    ("env X=1 -u HOME", (), ("X=1",), ("-u", "HOME")),  # options end at the first operand
    ("env -uS pytest", ("-uS",), (), ("pytest",)),  # -u's value is S
    ("env", (), (), ()),
]


@pytest.mark.parametrize(
    ("line", "options", "assignments", "command"), PARTS, ids=[p[0] for p in PARTS]
)
def test_env_is_read_as_env_reads_it(
    line: str, options: tuple[str, ...], assignments: tuple[str, ...], command: tuple[str, ...]
) -> None:

    parts = env_parts(tuple(shlex.split(line)))
    assert parts is not None
    assert (parts.options, parts.assignments, parts.command) == (options, assignments, command)
    assert unwrap(tuple(shlex.split(line))) == (command or None)


@pytest.mark.parametrize("line", ["env -S", "env -vS", "env -S '$X pytest'", "env -S 'a\\ b'"])
def test_a_string_this_reader_cannot_split_is_none(line: str) -> None:

    words = tuple(shlex.split(line))
    assert env_parts(words) is None and env_split(words) is None and unwrap(words) is None


def test_without_a_split_string_env_split_keeps_the_words() -> None:
    words = ("env", "-i", "--", "X=1", "pytest")
    assert env_split(words) is words
    assert env_split(("env", "-vS", "X=1 pytest")) == ("env", "-v", "X=1", "pytest")
