"""``gentle-hook verify run``: a test the change makes skip, expect to fail or vanish is not
"the full suite ran" (issue 18; seed 001 "Rules": "``pass`` only when ... the full suite
ran"; row C1-suite-unrun).

Refuter r18t (HIGH): the base holds ``src/calc.py`` (``mul`` multiplies) and its test
``tests/test_other.py::test_mul``; the writer's candidate fixes ``add`` and breaks ``mul``,
and silences ``test_mul`` in a way no skip-marker text shows: the base's runslow conftest
and a ``@pytest.mark.slow`` (kg), the base's ``needs_network()`` helper called in the test
(kh), the base's conftest xfailing the ids in ``known_failures.txt`` and the id appended
there (kx), ``getattr(pytest, "sk" + "ip")`` (ke), the module renamed so that pytest no
longer collects it. Each gave ``pass`` with ``fullSuiteRun`` true. The rule, by outcome: a
test the base tree's collection holds that the candidate's observed run skipped, expected
to fail or did not collect is run by its id on the base tree; when it ran there, the run is
blocked (C1-suite-unrun) naming it. One that skips on the base too (a platform's skip, a
``pytest.skip`` in its body) stands, and a new test the change adds skipped has no base
outcome to lose.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_verify import make_env
from tests.integration.test_verify_suite_env import _evidence, _last, _run

CALC = "def mul(a, b):\n    return a * b\n"
BROKEN = "def mul(a, b):\n    return a + b\n"
TEST_MUL = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"

#: pytest's "runslow" pattern: items marked ``slow`` skip unless RUN_SLOW.
RUNSLOW_CONFTEST = (
    "import os\n\nimport pytest\n\n\n"
    "def pytest_collection_modifyitems(config, items):\n"
    "    if os.environ.get('RUN_SLOW'):\n        return\n"
    "    skip = pytest.mark.skip(reason='needs RUN_SLOW')\n"
    "    for item in items:\n"
    "        if 'slow' in item.keywords:\n            item.add_marker(skip)\n"
)
#: xfails the node ids ``known_failures.txt`` lists.
KNOWN_CONFTEST = (
    "import pathlib\n\nimport pytest\n\n\n"
    "def pytest_collection_modifyitems(config, items):\n"
    "    known = pathlib.Path(__file__).with_name('known_failures.txt')\n"
    "    ids = set(known.read_text().split())\n"
    "    for item in items:\n"
    "        if item.nodeid in ids:\n"
    "            item.add_marker(pytest.mark.xfail(reason='known'))\n"
)
NETUTIL = (
    "import os\n\nimport pytest\n\n\n"
    "def needs_network():\n    if not os.environ.get('NETWORK'):\n"
    "        pytest.skip('no network')\n"
)

#: Per variant: the base's own files beside calc and its test, and the change's test files
#: (a None text: the file is removed).
VARIANTS: dict[str, tuple[dict[str, str], dict[str, str | None]]] = {
    "kg-runslow": (
        {"conftest.py": RUNSLOW_CONFTEST, "pytest.ini": "[pytest]\nmarkers =\n    slow: slow\n"},
        {
            "tests/test_other.py": "import pytest\n\n"
            + TEST_MUL.replace("def test_mul", "@pytest.mark.slow\ndef test_mul")
        },
    ),
    "kh-helper": (
        {"tests/netutil.py": NETUTIL},
        {
            "tests/test_other.py": TEST_MUL.replace(
                "from calc import mul\n",
                "from calc import mul\nfrom netutil import needs_network\n",
            ).replace("def test_mul():\n", "def test_mul():\n    needs_network()\n")
        },
    ),
    "kx-known-failures": (
        {"conftest.py": KNOWN_CONFTEST, "known_failures.txt": "\n"},
        {"known_failures.txt": "tests/test_other.py::test_mul\n"},
    ),
    "ke-getattr": (
        {},
        {
            "tests/test_other.py": "import pytest\n\n"
            + TEST_MUL.replace(
                "def test_mul():\n", "def test_mul():\n    getattr(pytest, 'sk' + 'ip')('flaky')\n"
            )
        },
    ),
    "renamed-uncollected": (
        {},
        {"tests/test_other.py": None, "tests/check_other.py": TEST_MUL},
    ),
}


def _change(repo: Path, files: dict[str, str | None]) -> None:
    write(repo / "src" / "calc.py", BROKEN)
    for path, text in files.items():
        if text is None:
            os.unlink(repo / path)
        else:
            write(repo / path, text)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_test_the_change_silences_is_blocked(repo: Path, tmp_path: Path, variant: str) -> None:
    """r18t HIGH: ``mul`` broken and ``test_mul`` silenced (skipped, xfailed, no longer
    collected): blocked (C1-suite-unrun), ``fullSuiteRun`` false, naming ``test_mul``;
    ``verdict add`` does not accept it."""
    base, change = VARIANTS[variant]
    files = {"src/calc.py": CALC, "tests/test_other.py": TEST_MUL, **base}
    for path, text in files.items():
        write(repo / path, text)
    env = make_env(repo, tmp_path)
    _change(repo, change)
    out = _run(env, "python3 -m pytest -q", {}, 1)
    assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
    evidence = _evidence(out)
    assert "1 tests of the base tree's suite were skipped, expected to fail" in evidence, evidence
    assert "e.g. tests/test_other.py::test_mul" in evidence, evidence
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_without_the_silencing_the_broken_mul_fails(repo: Path, tmp_path: Path) -> None:
    """The control row: the same broken ``mul`` with ``test_mul`` left alone: the suite
    fails, the full suite ran, and it is the change's failure (row C5): both trees end in
    "1 failed", but the base's is the fixture's ``tests/test_app.py``, the change's
    ``test_mul`` (r18t MED: judged by the failed tests' ids)."""
    write(repo / "src" / "calc.py", CALC)
    write(repo / "tests" / "test_other.py", TEST_MUL)
    env = make_env(repo, tmp_path)
    _change(repo, {})
    out = _run(env, "python3 -m pytest -q", {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]


PLATFORM_SKIP = (
    "import sys\n\nimport pytest\n\n\n"
    "@pytest.mark.skipif(sys.platform != 'no-such-os', reason='only there')\n"
    "def test_there():\n    assert 2 * 3 == 5\n"
)

#: A test that skips at run time, without the network.
NET_TEST = "from netutil import needs_network\n\n\ndef test_net():\n    needs_network()\n"
#: A base test that fails, and the base's known failure naming it.
FAILS = "def test_known():\n    assert 2 * 3 == 5\n"
XFAILED = "tests/test_x.py::test_known\n"


@pytest.mark.parametrize(
    ("base", "change"),
    [
        ({"tests/test_win.py": PLATFORM_SKIP}, {}),
        ({"tests/netutil.py": NETUTIL, "tests/test_net.py": NET_TEST}, {}),
        ({"tests/netutil.py": NETUTIL}, {"tests/test_new.py": NET_TEST}),
        (
            {
                "conftest.py": KNOWN_CONFTEST,
                "known_failures.txt": XFAILED,
                "tests/test_x.py": FAILS,
            },
            {},
        ),
    ],
    ids=["base-platform-skip", "base-runtime-skip", "new-test-skipped", "base-xfail"],
)
def test_a_skip_of_the_base_tree_too_stands(
    repo: Path, tmp_path: Path, base: dict[str, str], change: dict[str, str]
) -> None:
    """The other way (r18t LOW 3): a test skipped or expected to fail on the base tree too
    (a platform's skipif, a helper's runtime skip, the base's known failure), or a new test
    the change adds that skips, with ``mul`` left working: pass, the full suite ran."""
    files = {"src/calc.py": CALC, "tests/test_other.py": TEST_MUL, **base}
    for path, text in files.items():
        write(repo / path, text)
    env = make_env(repo, tmp_path)
    for path, text in change.items():
        write(repo / path, text)
    out = _run(env, "python3 -m pytest -q", {}, 0)
    assert _last(out) == ("pass", True, "pass", "C4"), out["outcomes"]


#: A new test the change adds, skipped only on Windows: it runs here.
WINDOWS_ONLY_SKIP = (
    "import sys\n\nimport pytest\n\n\n"
    "@pytest.mark.skipif(sys.platform == 'win32', reason='not there')\n"
    "def test_here():\n    assert 2 * 3 == 6\n"
)


@pytest.mark.parametrize(
    ("new", "want"),
    [
        (WINDOWS_ONLY_SKIP, ("pass", True, "pass", "C4")),
        (
            WINDOWS_ONLY_SKIP.replace("== 'win32'", "!= 'no-such-os'"),
            ("blocked", True, "blocked", "C1-skip"),
        ),
    ],
    ids=["marker-on-a-test-that-ran", "marker-on-the-skipped-test"],
)
def test_an_added_marker_counts_only_where_the_observer_saw_a_skip(
    repo: Path, tmp_path: Path, new: str, want: tuple[str, bool, str, str]
) -> None:
    """r18t LOW 3: the base's own platform test skipped (on the base too), and the change
    adds a skip marker on a new test that runs here: ``pytest -q`` names no skipped test,
    so every added marker counted and the honest change was blocked (C1-skip). The observer
    names each skipped test: the marker is in no skipped test's file: pass. The other way:
    the new test the marker skips is named: blocked (C1-skip)."""
    files = {
        "src/calc.py": CALC,
        "tests/test_other.py": TEST_MUL,
        **{"tests/test_win.py": PLATFORM_SKIP},
    }
    for path, text in files.items():
        write(repo / path, text)
    env = make_env(repo, tmp_path)
    write(repo / "tests" / "test_new.py", new)
    out = _run(env, "python3 -m pytest -q", {}, 0 if want[0] == "pass" else 1)
    assert _last(out) == want, out["outcomes"]
