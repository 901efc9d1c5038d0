"""``gentle_hooks.policy.doctests``: the files ``python -m doctest`` is given, its ``-v``
count, and the examples a file holds as doctest collects them."""

from __future__ import annotations

import textwrap

import pytest

from gentle_hooks.policy.doctests import doctest_files, examples_in, verbose_count

EXAMPLE = '    """Add.\n\n    >>> add(2, 3)\n    5\n    """\n'


def nested(depth: int) -> str:
    """:data:`EXAMPLE` as the docstring of a ``def`` ``depth`` levels in (4 spaces each)."""
    return textwrap.indent(EXAMPLE, "    " * depth)


@pytest.mark.parametrize(
    ("argv", "files"),
    [
        (["python", "-m", "doctest", "a.py"], ("a.py",)),
        (["python3", "-m", "doctest", "-v", "-o", "ELLIPSIS", "a.py", "b.txt"], ("a.py", "b.txt")),
        (["py", "-m", "doctest", "--option=ELLIPSIS", "-fv", "--", "-x.txt"], ("-x.txt",)),
        (["python", "-m", "doctest", "-v"], ()),
        (["python", "-m", "pytest", "a.py"], ()),
        (["python", "-c", "pass", "-m", "doctest", "a.py"], ()),
        (["sh", "-c", "python -m doctest a.py"], ()),
    ],
)
def test_doctest_files(argv: list[str], files: tuple[str, ...]) -> None:
    assert doctest_files(argv) == files


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("def add(a, b):\n" + EXAMPLE + "    return a + b\n", 1),
        ('"""Module.\n\n>>> 1 + 1\n2\n"""\n', 1),
        ("class C:\n    if True:\n        def m(self):\n" + nested(2), 1),
        ("try:\n    def f():\n" + nested(1) + "except E:\n    pass\n", 1),
        # not collected: a comment, a plain string, a nested function's docstring
        ("def add(a, b):\n    # >>> add(2, 3)\n    return a + b\n", 0),
        ('X = """\n>>> 1\n1\n"""\n', 0),
        ("def f():\n    def g():\n" + nested(1) + "    return g\n", 0),
        ("def add(a, b):\n    return a + b\n", 0),
        # unknown: doctest runs what __test__ holds; a module doctest cannot import
        ('__test__ = {"x": ">>> 1\\n1"}\n', None),
        ("def f(:\n", None),
    ],
)
def test_examples_in_a_python_file(text: str, count: int | None) -> None:
    assert examples_in("src/app.py", text) == count


def test_examples_in_a_text_file() -> None:
    assert examples_in("README.md", "# demo\n\nNo examples.\n") == 0
    assert examples_in("README.md", "# demo\n\n>>> 1 + 1\n2\n>>> 3\n3\n") == 2


def test_verbose_count_needs_one_summary_per_file() -> None:
    one = "2 items had no tests:\n    app\n0 tests in 2 items.\n0 passed and 0 failed.\n"
    assert verbose_count(one, 1) == 0
    assert verbose_count(one + "1 test in 1 item.\n1 passed.\n", 2) == 1
    assert verbose_count(one, 2) is None
    assert verbose_count("", 1) is None
