"""``gentle-hook verify run``: a test the change skips or expects to fail did not run, and
a change that silences the test that catches it is not a pass (seed 001 "Completion
criteria": a pass needs the full suite to have run; SPEC §9).

Each case: the base adds correctly and its test checks it; the escalated change makes
``add`` subtract and adds a skip or expected-failure marker to that test; the brief's
criterion and full suite run the project's test runner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, write
from tests.integration.test_verify import BRIEF, Env

_PY_APP = "def add(a, b):\n    return a + b\n"
_IMPORT = (
    "import sys\nfrom pathlib import Path\n\n"
    "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'src'))\n\n"
    "from app import add\n"
)
_UNITTEST = _IMPORT + (
    "import unittest\n\n\nclass T(unittest.TestCase):\n{mark}    def test_add(self):\n"
    "        self.assertEqual(add(2, 2), 4)\n"
)
_TEST_ADD = "def test_add():\n    assert add(2, 2) == 4\n"
_PYTEST = _IMPORT + "import pytest\n{mark}\n\n" + _TEST_ADD
_NODE_APP = "exports.add = (a, b) => a + b;\n"
_NODE_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const {{ add }} = require('../src/app.js');\n"
    "test('add', {opts}() => {{ assert.strictEqual(add(2, 2), 4); }});\n"
)

#: id: (base files, candidate files, the command the brief runs, the marker's line)
CASES: dict[str, tuple[dict[str, str], dict[str, str], str, str]] = {
    "unittest-skip": (
        {"tests/test_app.py": _UNITTEST.format(mark="")},
        {"tests/test_app.py": _UNITTEST.format(mark='    @unittest.skip("flaky")\n')},
        "python3 -m unittest discover -s tests",
        "tests/test_app.py:11",
    ),
    "pytest-xfail": (
        {"tests/test_app.py": _PYTEST.format(mark="")},
        {"tests/test_app.py": _PYTEST.format(mark="\n\n@pytest.mark.xfail")},
        "python3 -m pytest -q tests",
        "tests/test_app.py:10",
    ),
    "pytestmark-and-smoke": (
        {"tests/test_app.py": _PYTEST.format(mark="")},
        {
            "tests/test_app.py": _PYTEST.format(mark="pytestmark = pytest.mark.skip"),
            "tests/test_smoke.py": "def test_smoke():\n    assert True\n",
        },
        "python3 -m pytest -q tests",
        "tests/test_app.py:8",
    ),
    # the names pytest, its mark or its skip are imported as (refuter r18f)
    "pytest-mark-imported": (
        {"tests/test_app.py": _PYTEST.format(mark="")},
        {
            "tests/test_app.py": _IMPORT
            + "from pytest import mark\n\n\n@mark.skip(reason='x')\n"
            + _TEST_ADD
        },
        "python3 -m pytest -q tests",
        "tests/test_app.py:10",
    ),
    "pytest-skip-imported": (
        {"tests/test_app.py": _PYTEST.format(mark="")},
        {
            "tests/test_app.py": _IMPORT
            + "from pytest import skip\n\n\n"
            + _TEST_ADD.replace("    assert", "    skip('flaky')\n    assert")
        },
        "python3 -m pytest -q tests",
        "tests/test_app.py:7, tests/test_app.py:11",
    ),
    "pytest-alias": (
        {"tests/test_app.py": _PYTEST.format(mark="")},
        {"tests/test_app.py": _IMPORT + "import pytest as pt\n\n\n@pt.mark.skip\n" + _TEST_ADD},
        "python3 -m pytest -q tests",
        "tests/test_app.py:10",
    ),
    "node-skip-option": (
        {"src/app.js": _NODE_APP, "tests/app.test.js": _NODE_TEST.format(opts="")},
        {
            "src/app.js": "exports.add = (a, b) => a - b;\n",
            "tests/app.test.js": _NODE_TEST.format(opts="{ skip: 'flaky' }, "),
        },
        "node --test tests/",
        "tests/app.test.js:4",
    ),
}


def _escalated(repo: Path, tmp: Path, case: str) -> tuple[Env, str]:
    """The case's base committed, its wrong change escalated, and a brief whose criterion
    and full suite run its test runner; returns the env and the marker's ``path:line``."""
    base, cand, command, where = CASES[case]
    env = Env(repo, tmp)
    for path, text in {"src/app.py": _PY_APP, **base}.items():
        write(repo / path, text)
    commit_all(repo, "base")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a - b\n")
    for path, text in cand.items():
        write(repo / path, text)
    assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    brief: dict[str, Any] = {
        **BRIEF,
        "successCriteria": [{"criterion": "the tests pass", "run": command}],
        "negativeTests": [
            {
                "criterion": "3 + 4 is not 7",
                "run": "python3 -c 'import app; assert app.add(3, 4) == 7'",
            }
        ],
        "fullSuite": command,
    }
    env.brief(brief)
    return env, where


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_change_that_skips_the_test_that_catches_it_is_not_a_pass(
    repo: Path, tmp_path: Path, case: str
) -> None:
    """Blocked, naming the marker's file:line and the skipped count; the verdict's evidence
    (JSON and Markdown) shows the count; ``verdict add`` does not accept it."""
    env, where = _escalated(repo, tmp_path, case)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["status"] == "blocked", out["outcomes"]
    assert out["verdict"]["status"] == "blocked"
    evidence = " ".join(c["evidence"] for c in out["verdict"]["criteria"])
    assert "1 skipped or expected to fail" in evidence, evidence
    assert f"the change adds a skip marker at {where}" in evidence, evidence
    assert "remove the marker, or let a person decide" in out["verdict"]["summary"]
    view = Path(out["json_path"]).with_suffix(".md").read_text()
    assert "1 skipped or expected to fail" in view and where in view
    printed = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert printed.startswith("verify run: blocked (the change adds a skip"), printed
    assert f"1 skipped, the change adds a skip marker at {where})" in printed, printed
    assert "remove the marker, or let a person decide" in printed
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


_OLD_PYTEST = _IMPORT + (
    "import pytest\n\n\n@pytest.mark.skip(reason='needs a GPU')\ndef test_gpu():\n"
    "    assert add(1, 1) == 2\n"
)
_NEW_PYTEST = _IMPORT + (
    "import sys\n\nimport pytest\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\n"
    "{mark}\ndef test_add_negatives():\n    assert add(-2, -2) == -4\n"
)
_OLD_UNITTEST = _IMPORT + (
    "import unittest\n\n\nclass Old(unittest.TestCase):\n    @unittest.skip('needs a GPU')\n"
    "    def test_gpu(self):\n        self.assertEqual(add(1, 1), 2)\n"
)
_NEW_UNITTEST = _IMPORT + (
    "import sys\nimport unittest\n\n\nclass New(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n\n"
    "    @unittest.skipIf(sys.platform == 'no-such-platform', 'never')\n"
    "    def test_add_negatives(self):\n        self.assertEqual(add(-2, -2), -4)\n"
)
_RAN = "@pytest.mark.skipif(sys.platform == 'no-such-platform', reason='never')"
#: An old test that prints a line in the shape of pytest -v's report of a skipped test.
_FAKE_SKIP = "def test_gpu():\n    print('\\ntests/test_old.py::test_gpu SKIPPED (needs a GPU)')\n"

#: id: (the old test file, the new one, the suite command, the status, the marker that
#: counts or None). The base holds an old test skipped long before; the change fixes
#: ``add`` and adds a test file with a skip marker.
NAMED_CASES: dict[str, tuple[str, str, str, str, str | None]] = {
    "pytest-rs-names-only-the-old-skip": (
        _OLD_PYTEST,
        _NEW_PYTEST.format(mark=_RAN),
        "python3 -m pytest -q -rs tests",
        "pass",
        None,
    ),
    "unittest-v-names-only-the-old-skip": (
        _OLD_UNITTEST,
        _NEW_UNITTEST,
        "python3 -m unittest discover -v -s tests",
        "pass",
        None,
    ),
    "pytest-q-the-observer-names-only-the-old-skip": (
        _OLD_PYTEST,
        _NEW_PYTEST.format(mark=_RAN),
        "python3 -m pytest -q tests",
        "pass",
        None,
    ),
    "pytest-s-a-printed-skip-line-names-nothing": (
        _FAKE_SKIP,
        _NEW_PYTEST.format(mark="@pytest.mark.skip(reason='flaky')"),
        "python3 -m pytest -q -s tests",
        "blocked",
        "tests/test_new.py:16",
    ),
    "pytest-rs-names-the-new-skip": (
        _OLD_PYTEST,
        _NEW_PYTEST.format(mark="@pytest.mark.skip(reason='flaky')"),
        "python3 -m pytest -q -rs tests",
        "blocked",
        "tests/test_new.py:16",
    ),
}


@pytest.mark.parametrize("case", sorted(NAMED_CASES))
def test_a_marker_counts_only_where_a_named_skipped_test_is(
    repo: Path, tmp_path: Path, case: str
) -> None:
    """A run that names the tests it skipped (pytest -rs, unittest -v) blocks only on a
    marker in the file of one of them; one that names none blocks on every marker the
    change adds (seed 001 "Completion criteria"). A pytest suite is observed: the
    observer names each test it skipped, ``-q`` or ``-s`` too (issue 18, r18t LOW 3:
    ``pytest -q`` with the base's own skipped test and a marker on a new test that ran
    passes; it was blocked), so its evidence never says the output names none."""
    old, new, command, status, where = NAMED_CASES[case]
    env = Env(repo, tmp_path)
    write(repo / "src" / "app.py", "def add(a, b):\n    return a - b\n")
    write(repo / "tests" / "test_old.py", old)
    commit_all(repo, "base")
    write(repo / "src" / "app.py", _PY_APP)
    write(repo / "tests" / "test_new.py", new)
    assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    env.brief({**BRIEF, "fullSuite": command})
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), code=0 if status == "pass" else 1
    )
    assert out["verdict"]["status"] == status, out["verdict"]["summary"]
    evidence = " ".join(c["evidence"] for c in out["verdict"]["criteria"])
    if where is None:
        assert "skip marker" not in evidence, evidence
        return
    assert f"the change adds a skip marker at {where}" in evidence, evidence
    assert f"marker at {where}" in out["verdict"]["summary"].split("\n")[1]
    assert "the output does not name every skipped test" not in evidence, evidence


_BASE = (
    "import pytest\nimport unittest\n\n{mark}class Base:\n    def test_add_negatives(self):\n"
    "        from app import add\n\n        assert add(-2, -2) == -4\n"
)
_DERIVED = (
    _IMPORT + "import unittest\n\nfrom {module} import Base\n\n\nclass TestX({bases}):\n    pass\n"
)

#: id: (the base class's module, the suite command). The change marks a base class in
#: another module skipped; the test that inherits it is in tests/test_x.py.
BASE_CLASS_CASES: dict[str, tuple[str, str]] = {
    "helper-module-pytest-v": ("base", "python3 -m pytest -v tests"),
    "helper-module-pytest-rs": ("base", "python3 -m pytest -q -rs tests"),
    "test-module-pytest-v": ("test_base", "python3 -m pytest -v tests"),
    "test-module-pytest-rs": ("test_base", "python3 -m pytest -q -rs tests"),
    "test-module-unittest-v": ("test_base", "python3 -m unittest discover -v -s tests -t ."),
}


@pytest.mark.parametrize("case", sorted(BASE_CLASS_CASES))
def test_a_skip_marker_on_a_base_class_in_another_module_counts(
    repo: Path, tmp_path: Path, case: str
) -> None:
    """``@pytest.mark.skip`` on ``class Base`` in one module skips ``TestX(Base)``'s tests
    in another: the runner names test_x.py (or the base's file), and the marker counts
    wherever the base class is (seed 001 "Completion criteria")."""
    module, command = BASE_CLASS_CASES[case]
    mark = "@unittest.skip('flaky')\n" if "unittest" in command else "@pytest.mark.skip\n"
    env = Env(repo, tmp_path)
    write(repo / "src" / "app.py", "def add(a, b):\n    return a - b\n")
    write(repo / "tests" / "__init__.py", "")
    write(repo / "tests" / f"{module}.py", _BASE.format(mark=""))
    bases = "Base, unittest.TestCase" if "unittest" in command else "Base"
    write(repo / "tests" / "test_x.py", _DERIVED.format(module=f"tests.{module}", bases=bases))
    commit_all(repo, "base")
    write(repo / "src" / "app.py", _PY_APP)
    write(repo / "tests" / f"{module}.py", _BASE.format(mark=mark))
    assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    env.brief({**BRIEF, "fullSuite": command})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["verdict"]["status"] == "blocked", out["verdict"]["summary"]
    evidence = " ".join(c["evidence"] for c in out["verdict"]["criteria"])
    assert f"the change adds a skip marker at tests/{module}.py:4" in evidence, evidence
