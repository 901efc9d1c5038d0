"""policy/testdirs.py: the modules a change puts beside the test modules pytest imports
(row D-shadow; seed 001 "Guardrails": "do not accept a claim whose criteria have no
observable check")."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.testdirs import basedirs_of_tests, shadows_across, shadows_beside_tests

TREE = ("src/app.py", "tests/test_add.py", "pkg/tests/__init__.py", "pkg/tests/test_x.py")


def test_base_directories_walk_up_past_packages() -> None:
    assert basedirs_of_tests(TREE) == frozenset({"tests", "pkg"})
    assert basedirs_of_tests(("test_a.py", "b_test.py", "lib/x.py")) == frozenset({"."})


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("tests/app.py", (("tests/app.py", "tests", "app"),)),
        ("tests/app/__init__.py", (("tests/app/__init__.py", "tests", "app"),)),
        ("pkg/app.py", (("pkg/app.py", "pkg", "app"),)),
        ("tests/helpers.py", ()),  # no product module of that name
        ("tests/conftest.py", ()),
        ("tests/test_app.py", ()),
        # inside the package ``tests`` (the caller leaves it out: the base has it there)
        ("pkg/tests/app.py", (("pkg/tests/app.py", "pkg", "tests"),)),
        ("lib/app.py", ()),  # no test module imported from lib/
    ],
)
def test_a_module_added_beside_tests_named_as_a_product_module(
    added: str, expected: tuple[tuple[str, str, str], ...]
) -> None:
    assert shadows_beside_tests((*TREE, added), [added]) == expected


def test_at_the_root_a_module_named_as_one_under_src_counts() -> None:
    tree = ("src/app.py", "test_app.py", "app.py")
    assert shadows_beside_tests(tree, ["app.py"]) == (("app.py", ".", "app"),)
    assert shadows_beside_tests(("test_app.py", "app.py"), ["app.py"]) == ()


def test_a_root_module_the_change_adds_hides_the_pythonpath_one() -> None:
    """``python -m`` puts the root first, ``PYTHONPATH=src`` puts ``src``: a root ``app.py``
    the change adds hides ``src/app.py``; a module only one directory has, a test module
    and a ``conftest.py`` hide nothing."""
    tree = ["app.py", "src/app.py", "tests/test_app.py", "conftest.py", "src/new.py"]
    dirs = [".", "src"]
    assert shadows_across(dirs, tree, ["app.py"]) == (("app.py", ".", "app"),)
    assert shadows_across(dirs, [*tree, "app/__init__.py"], ["app/__init__.py"]) == (
        ("app/__init__.py", ".", "app"),
    )
    assert shadows_across(dirs, tree, ["src/new.py", "conftest.py", "tests/test_app.py"]) == ()
    assert shadows_across(["."], tree, ["app.py"]) == ()
