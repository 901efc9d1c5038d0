"""The lines an unavailable tool leaves in a check's output (seed 001 "Guardrails": "stop
and report `blocked` when a required tool, source, or suite is unavailable instead of
inferring the result"): :data:`gentle_hooks.policy.toolmissing.MISSING_ROWS`, row by row."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.toolmissing import (
    LACKED_IGNORED,
    MISSING_ROWS,
    job_lacks,
    lacked_ignored,
    lacked_words,
    missing_tool,
    not_run,
)

#: (id, command, output, the row it matches or None): outputs as the interpreter, dash,
#: bash, make and GNU env print them.
CASES: list[tuple[str, str, str, str | None]] = [
    (
        "python-m-pytest",
        "python3 -m pytest -q tests",
        "$ python3 -m pytest -q tests\n/usr/bin/python3: No module named pytest\n",
        "M-py-module",
    ),
    (
        "python-m-argv",
        "'python3' '-m' 'tox'",
        "/opt/py/bin/python3: No module named tox\n",
        "M-py-module",
    ),
    (
        "python-m-dotted",
        "python3 -m nosuch.sub",
        "/usr/bin/python3: Error while finding module specification for 'nosuch.sub' "
        "(ModuleNotFoundError: No module named 'nosuch')\n",
        "M-py-module",
    ),
    ("dash", "npm test", "sh: 1: jest: not found\n", "M-sh-not-found"),
    ("bash", "make test", "bash: line 1: pytest: command not found\n", "M-sh-not-found"),
    ("bash-plain", "tox", "bash: pytest: command not found\n", "M-sh-not-found"),
    ("make", "make test", "make: pytest: No such file or directory\n", "M-exec-missing"),
    ("env", "env nosuch", "env: \u2018nosuch\u2019: No such file or directory\n", "M-exec-missing"),
    # a test that fails for real: an import error inside a test names a quoted module
    (
        "import-error-in-a-test",
        "python3 -m unittest tests.test_new",
        "ModuleNotFoundError: No module named 'tests.test_new'\n",
        None,
    ),
    (
        "another-module-missing",
        "python3 -m pytest -q",
        "E   ModuleNotFoundError: No module named 'app'\n",
        None,
    ),
    ("no-m-flag", "python3 t.py", "/usr/bin/python3: No module named pytest\n", None),
    ("an-assertion", "python3 -m pytest", "FAILED tests/test_a.py::test_a - assert 1 == 2\n", None),
    ("words-in-a-message", "python3 -m pytest", "E   assert 'command not found' in out\n", None),
]


@pytest.mark.parametrize(
    ("command", "output", "row"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_missing_rows(command: str, output: str, row: str | None) -> None:
    assert missing_tool(command, output) == row


def test_every_missing_row_is_covered() -> None:
    assert {c[3] for c in CASES} - {None} == {r.id for r in MISSING_ROWS}


@pytest.mark.parametrize(
    ("status", "words"),
    [
        pytest.param(None, None, id="no-status"),
        pytest.param(0, None, id="passed"),
        pytest.param(1, None, id="failed"),
        pytest.param(2, None, id="usage"),
        pytest.param(
            126, "exit 126: the command was found but could not be executed there", id="126"
        ),
        pytest.param(127, "exit 127: no such command was found on the PATH it ran with", id="127"),
        pytest.param(128 + 9, None, id="killed"),
    ],
)
def test_only_a_shells_126_and_127_say_the_command_never_ran(
    status: int | None, words: str | None
) -> None:
    assert not_run(status) == words


@pytest.mark.parametrize(
    ("exit_code", "output", "lacks"),
    [
        (1, "/usr/bin/python3: No module named pytest", "the Python module pytest"),
        (2, "E   ModuleNotFoundError: No module named 'requests'\n1 error", "module requests"),
        (127, "sh: 1: pytest: not found", "the program pytest"),
        (127, "bash: line 1: tox: command not found", "the program tox"),
        (126, "", "exit 126"),
        (127, "", "exit 127"),
        (1, "FAILED tests/test_app.py::test_add - assert 3 == 4", None),
        (0, "No module named pytest", None),
    ],
)
def test_job_lacks_row_by_row(exit_code: int, output: str, lacks: str | None) -> None:
    found = job_lacks(exit_code, output)
    assert (found is None) if lacks is None else (found is not None and lacks in found), found


@pytest.mark.parametrize(
    ("output", "want"),
    [
        ("FileNotFoundError: [Errno 2] No such file or directory: 'local.cfg'", ("local.cfg",)),
        ("cat: .env: No such file or directory", (".env",)),
        ("sh: 1: cannot open .env: No such file", (".env",)),
        ("sh: 1: .: cannot open conf/.env: No such file", ("conf/.env",)),
        ("bash: line 1: conf/x.ini: No such file or directory", ("conf/x.ini",)),
        ("1 failed, 2 passed in 0.03s", ()),
    ],
    ids=["python", "cat", "dash", "dash-dot", "bash", "none"],
)
def test_missing_files(output: str, want: tuple[str, ...]) -> None:
    """Issue 14: the files a failed re-run could not open, for ``gate --reverify`` to tell a
    file git ignores (absent in a CI clone) from a failure of the command's own."""
    from gentle_hooks.policy.toolmissing import missing_files

    assert missing_files(output) == want


@pytest.mark.parametrize(
    ("observed", "lacked"),
    [
        ("exit 1, it lacked the file localcfg.py, which git ignores", "localcfg.py"),
        ("exit 2, it lacked the file conf/local dev.cfg, which git ignores", "conf/local dev.cfg"),
        ("exit 1", None),
        ("exit 0, its test runner ran no tests", None),
        (None, None),
    ],
    ids=["module", "path-with-space", "plain-failure", "other-suffix", "unknown"],
)
def test_a_failed_report_that_lacked_an_ignored_file_is_read_back(
    observed: str | None, lacked: str | None
) -> None:
    """Issue 14 (refuter r14u finding 3): the block reads back what ``receipt run`` noted
    in the observed result, and says the failure is the work tree's, not the change's."""
    assert lacked_ignored(observed) == lacked
    words = lacked_words(observed)
    if lacked is None:
        assert words is None
    else:
        assert words is not None and f"lacked the file {lacked}, which git ignores" in words
        assert "not the change's" in words and "fix the change" not in words
    if observed and lacked:
        assert observed.endswith(", " + LACKED_IGNORED.format(lacked))
