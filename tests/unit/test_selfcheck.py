"""Which reports count as self-verification (SPEC §5 "Spot check"): the tables of
gentle_hooks.policy.nocheck and gentle_hooks.policy.selfcheck, row by row, and the shell
reader under them (hypothesis).

The shell semantics the cases rely on are POSIX's (IEEE Std 1003.1-2017, XCU §2.9.2: a
pipeline's status is its last command's, inverted by ``!``; §2.9.3: ``a && b`` runs ``b``
only after success, ``a || b`` only after failure, a list's status is its last command's,
``&`` runs in the background with status 0; ``set -e`` ends the shell at a failing command
that is not on the left of ``&&``/``||``), and bash's ``pipefail``.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy.hidden import judge_hidden
from gentle_hooks.policy.nocheck import (
    NO_CHECK_ROWS,
    PROBE_ROWS,
    SHAPE_ROWS,
    judge_command,
    judge_negative,
)
from gentle_hooks.policy.selfcheck import (
    STANDING_ROWS,
    Report,
    is_declared,
    is_disagreement,
    receipt_standing,
    report_argv,
    rerun_agrees,
    row_text,
)
from gentle_hooks.policy.shell import Simple, parse_line, tokenize, words_of
from gentle_hooks.policy.wrappers import SHELLS, WRAPPERS

# -- NO_CHECK_ROWS: every program of every row verifies nothing ------------------------


def _row_programs() -> list[object]:
    return [
        pytest.param(row.id, program, id=f"{row.id}-{program}")
        for row in NO_CHECK_ROWS
        for program in row.programs
    ]


@pytest.mark.parametrize(("row_id", "program"), _row_programs())
def test_every_no_check_row_verifies_nothing(row_id: str, program: str) -> None:
    # env with a command is a wrapper (read through): with assignments alone it shows
    args = {"exit": "0", "env": "X=1", "test": "1", "[": "1 ]", "[[": "1 ]]", "git": "status"}
    args |= {"make": "-n", "gmake": "-n", "pip": "list", "pip3": "list", "command": "-v pytest"}
    args = args.get(program, "something")
    if program in ("python", "python3"):
        args = "-c pass"
    if program in ("node", "nodejs"):
        args = "-e 0"
    if program in ("diff", "cmp"):
        args = "app.py app.py"
    needs_args = ("python", "python3", "node", "nodejs", "test", "[", "[[", "git", "diff", "cmp")
    needs_args += ("make", "gmake", "pip", "pip3")
    bare = () if program in needs_args else (program,)
    for line in (*bare, f"{program} {args}"):
        got = judge_command(line)
        assert got.checks is False, line
        assert got.rows == (row_id,), line


NOTHING_TESTED = [
    ("pytest -q --version", "N-no-run"),
    ("sh -c 'pytest --co -q'", "N-no-run"),
    ("python -m pytest --collect-only", "N-no-run"),
    ("git status", "N-git-read"),
    ("git -C . log --oneline", "N-git-read"),
    ("git diff --quiet HEAD -- test_app.py", "N-git-read"),
    ("diff app.py app.py", "N-same-file"),
    ("cmp -s app.py app.py", "N-same-file"),
]


#: (line, row): receipts a refuter (r13y) found counted as self-verification although they
#: look at the tools, the environment or the files and run none of the project's checks, or
#: force the line's success after a failure.
NOTHING_CHECKED = [
    ("git --version", "N-version"),
    ("make -n", "N-dry-run"),
    ("make --dry-run", "N-dry-run"),
    ("make -kn test", "N-dry-run"),
    ("pip list", "N-pip-read"),
    ("pip freeze", "N-pip-read"),
    ("python -m pip list", "N-python"),
    ("which pytest", "N-locate"),
    ("type pytest", "N-locate"),
    ("command -v pytest", "N-locate"),
    ("npm -v", "N-version"),
    ("npm --version", "N-version"),
    ("ruff --version", "N-version"),
    ("mypy --version", "N-version"),
    ("python -m mypy --version", "N-version"),
    ("python3 -m pytest --version", "N-no-run"),
    ("cargo -V", "N-version"),
    ("go version", "N-version"),
    ("./tools/lint --help", "N-version"),
    ("head app.py", "N-show"),
    ("tail -n 5 app.py", "N-show"),
    ("cat app.py", "N-show"),
    ("ls", "N-show"),
    ("echo ok", "N-echo"),
    ("pytest -k nomatch || [ $? -eq 5 ]", "N-status"),
    ("pytest || test $? -ne 0", "N-status"),
    ('pytest; [ "$?" = 1 ]', "N-status"),
    ("sh -c 'pytest -k nomatch || [ $? -eq 5 ]'", "N-status"),
    # refuter r13j: file and text tools, a constant assert, runners told to run nothing
    ("find . -name nothing", "N-text"),
    ("xargs true", "N-true"),
    ("xargs -n 1", "N-text"),
    ("seq 3", "N-files"),
    ("basename x", "N-files"),
    ("touch x", "N-files"),
    ("mkdir -p build", "N-files"),
    ("sort app.py", "N-text"),
    ("uniq app.py", "N-text"),
    ("awk 1 app.py", "N-text"),
    ("sed -n 1p app.py", "N-text"),
    ("sha256sum app.py", "N-text"),
    ("python3 -c 'assert True'", "N-python"),
    ("cargo test --no-run", "N-no-run"),
    ("go test -list . ./...", "N-no-run"),
]


@pytest.mark.parametrize(("line", "row"), NOTHING_CHECKED, ids=[c[0] for c in NOTHING_CHECKED])
def test_receipts_that_check_nothing_do_not_count(line: str, row: str) -> None:
    got = judge_command(line, receipt=True)
    assert (got.checks, got.rows) == (False, (row,)), got
    assert receipt_standing(Report(line, 0)).row == "S-no-check"


#: Lines that look like the ones above and still check: the test runner runs, and its
#: failure fails the line.
STILL_CHECKED = [
    "pytest -v",
    "sort -c app.py",
    "sha256sum -c sums.txt",
    "find . -name '*.py' -exec python -m pytest {} +",
    "awk '/TODO/{exit 1}' app.py",
    "sed -n '/TODO/q1' app.py",
    "xargs pytest",
    "ls tests | xargs -n1 python -m pytest",
    "python3 -c 'import app; assert app.add(1, 2) == 3'",
    "python3 -c 'assert False'",
    "make test",
    "make -j4 test",
    "make -C src test",
    "pip install -e . && pytest",
    "command pytest",
    "pytest || [ $? -eq 0 ]",
    "pytest && [ $? -eq 0 ]",
    "[ $X -eq 5 ]",
    "make version",
    "pytest -q tests",
    "python -m pytest -q tests",
    "npm test",
    "tox",
    "go test ./...",
    "cargo test",
]


@pytest.mark.parametrize("line", STILL_CHECKED)
def test_test_commands_still_count(line: str) -> None:
    assert judge_command(line, receipt=True).checks, line
    assert receipt_standing(Report(line, 0)).counts, line


@pytest.mark.parametrize(("line", "row"), NOTHING_TESTED, ids=[c[0] for c in NOTHING_TESTED])
def test_receipts_that_test_nothing_do_not_check(line: str, row: str) -> None:
    assert judge_command(line).rows == (row,)
    assert not receipt_standing(Report(line, 0)).counts


#: File probes: a receipt of one verifies nothing (row N-probe); a verify criterion of one
#: is judged by its outcome on the base and hollowed trees instead (row C4-nothing).
PROBES = [
    "test -f app.py",
    "test -e app.py",
    "/usr/bin/test -d build",
    "[ -f x ]",
    "[ ! -d build ]",
    "[ -f a -a -x b ]",
    "test a -nt b",
    "stat app.py",
    "wc -l app.py",
    "file app.py",
    "du -s src",
    "sh -c 'test -f app.py'",
    "bash -c '[ -e x ] && wc -l x'",
    "test -f app.py || pytest",
    # bash's conditional command, alone, joined, grouped, negated, through bash -c
    "[[ -f x ]]",
    "[[ -e app.py ]] > /dev/null",
    "[[ -f a && -x b ]]",
    "[[ ! ( -d build || -e dist ) ]]",
    "[[ a -nt b ]]",
    "bash -c '[[ -f app.py ]]'",
    "bash -c '[[ -e x ]] && wc -l x'",
    "env X=1 bash -c '[[ -s app.py ]]'",
]


@pytest.mark.parametrize("line", PROBES)
def test_a_file_probe_is_no_receipt_but_stays_a_verify_check(line: str) -> None:
    got = judge_command(line, receipt=True)
    assert (got.checks, got.rows[:1]) == (False, ("N-probe",)), got
    assert not receipt_standing(Report(line, 0)).counts
    assert receipt_standing(Report(line, 0)).row == "S-no-check"
    assert judge_command(line).checks


#: Receipts of a byte-compile (row N-compile) or a text search (row N-grep): they succeed
#: on any tree that holds the file, whatever its code does; a verify criterion of one is
#: judged by its outcome on the base and hollowed trees instead.
READS_ONLY = [
    ("python -m compileall -q .", "N-compile"),
    ("python3 -m py_compile app.py", "N-compile"),
    ("python -W error -m compileall src", "N-compile"),
    ("/usr/bin/python3.12 -mcompileall .", "N-compile"),
    ("env X=1 python -m compileall .", "N-compile"),
    ("grep -q add app.py", "N-grep"),
    ("rg -q 'def add' src", "N-grep"),
    ("sh -c 'grep -q add app.py'", "N-grep"),
    ("egrep -c add app.py", "N-grep"),
]


@pytest.mark.parametrize(("line", "row"), READS_ONLY, ids=[c[0] for c in READS_ONLY])
def test_a_byte_compile_or_a_text_search_is_no_receipt_but_stays_a_verify_check(
    line: str, row: str
) -> None:
    got = judge_command(line, receipt=True)
    assert (got.checks, got.rows[:1]) == (False, (row,)), got
    assert receipt_standing(Report(line, 0)).row == "S-no-check"
    assert "report the command that runs the project's tests" in row_text(row)
    assert judge_command(line).checks


@pytest.mark.parametrize(
    "line",
    ["python -m pytest", "python -c 'import compileall' app.py", "python run.py -m compileall"],
)
def test_a_python_that_runs_code_is_no_byte_compile(line: str) -> None:
    assert judge_command(line, receipt=True).checks


@pytest.mark.parametrize(
    "line",
    [
        "pytest -q",
        "python -m pytest",
        "make test",
        "sh run_tests.sh",
        "test -f app.py && pytest -q",
        "pytest -q && grep -q ok out.txt",
        "test a = b",
        'test -n "$X"',
        "[[ -f app.py ]] && pytest -q",
        "pytest -q && [[ -f app.py ]]",
        "bash -c '[[ -f app.py ]] && pytest -q'",
        "[[ $(pytest -q) == *passed* ]]",
        '[[ "$X" == y ]]',
        # what this reader does not evaluate inside [[ ]] counts, as an unreadable line
        "[[ a =~ b|c ]]",
        '[[ "&&" ]]',
    ],
)
def test_a_receipt_that_runs_tests_or_compares_is_no_probe(line: str) -> None:
    assert judge_command(line, receipt=True).checks
    assert receipt_standing(Report(line, 0)).counts


@pytest.mark.parametrize(
    "line", ["pytest -q", "diff expected.txt out.txt", "git apply --check p", "cmp a b"]
)
def test_commands_that_compare_or_run_tests_still_check(line: str) -> None:
    assert judge_command(line).checks


def test_the_tables_ids_are_unique_and_have_words() -> None:
    ids = [r.id for r in NO_CHECK_ROWS + PROBE_ROWS] + [s.id for s in SHAPE_ROWS]
    ids += [t.id for t in STANDING_ROWS]
    assert len(ids) == len(set(ids))
    assert all(row_text(i) for i in ids)


def test_a_program_in_a_system_bin_is_matched_by_name_a_project_script_is_not() -> None:
    assert judge_command("/bin/true").rows == ("N-true",)
    assert judge_command("/usr/bin/echo ok").rows == ("N-echo",)
    assert judge_command("./true").checks  # the project's own script: it checks what it checks
    assert judge_command("scripts/echo").checks


def test_exit_with_another_status_fails_so_it_cannot_verify_by_succeeding() -> None:
    # "exit 1" can never be reported as success by a re-run; it is no N-exit0 row
    assert judge_command("exit 1").checks


# -- SHAPE_ROWS: ways a line succeeds without its check succeeding ----------------------

SHAPES = [
    pytest.param("! pytest", ("N-negated",), id="N-negated"),
    pytest.param("pytest &", ("N-background",), id="N-background"),
    pytest.param("X=1", ("N-empty",), id="N-empty-assignment"),
    pytest.param("> out.txt", ("N-empty",), id="N-empty-redirection"),
    pytest.param("pytest; true", ("N-true", "N-masked"), id="N-masked-semicolon"),
    pytest.param("pytest || true", ("N-true", "N-masked"), id="N-masked-or"),
    pytest.param("pytest | tee log", ("N-show", "N-masked"), id="N-masked-pipe"),
    pytest.param("pytest\necho done", ("N-echo", "N-masked"), id="N-masked-newline"),
    pytest.param("(pytest; true)", ("N-true", "N-masked"), id="N-masked-subshell"),
    pytest.param(
        "{ pytest; } 2>/dev/null; true", ("N-true", "N-masked"), id="N-masked-brace-fd-redirect"
    ),
    pytest.param("{ false; } 2>/dev/null; true", ("N-true", "N-masked"), id="N-masked-brace-false"),
    pytest.param(
        "{ pytest; } >/dev/null 2>&1 || true", ("N-true", "N-masked"), id="N-masked-brace-or"
    ),
    pytest.param("(pytest) 2>/dev/null; true", ("N-true", "N-masked"), id="N-masked-subshell-fd"),
    pytest.param(
        "sh -c '{ pytest; } 2>/dev/null; true'", ("N-true", "N-masked"), id="brace-fd-inside-sh-c"
    ),
    pytest.param("exit 0; pytest", ("N-exit0",), id="exit-before-the-check"),
    pytest.param("pytest; exit 0", ("N-exit0",), id="exit-after-the-check"),
    pytest.param("echo $(pytest)", ("N-echo",), id="command-substitution-is-an-argument"),
    pytest.param("sh -c 'pytest || true'", ("N-true", "N-masked"), id="inside-sh-c"),
]


@pytest.mark.parametrize(("line", "rows"), SHAPES)
def test_shapes_that_verify_nothing(line: str, rows: tuple[str, ...]) -> None:
    got = judge_command(line)
    assert (got.checks, got.rows) == (False, rows)


CHECKS = [
    pytest.param("pytest -q", id="a-test-runner"),
    pytest.param("python -m compileall -q src", id="an-interpreter"),
    pytest.param("no-such-runner", id="an-unknown-program"),
    pytest.param("pytest && echo ok", id="and-then-echo"),
    pytest.param("true && pytest", id="true-then-the-check"),
    pytest.param("cd tests && pytest", id="cd-then-the-check"),
    pytest.param("pytest || exit 1", id="or-exit-1"),
    pytest.param("pytest || exit", id="or-bare-exit-keeps-the-status"),
    pytest.param("pytest; exit $?", id="exit-with-the-status"),
    pytest.param("set -e; pytest; echo done", id="errexit"),
    pytest.param("set -euo pipefail; pytest | tee log", id="pipefail-by-set"),
    pytest.param("bash -o pipefail -c 'pytest | tee log'", id="pipefail-by-option"),
    pytest.param("X=1 pytest > log 2>&1", id="assignment-and-redirections"),
    pytest.param("(pytest) && true", id="subshell-and-true"),
    pytest.param("{ pytest; }", id="brace-group"),
    pytest.param("{ pytest; } 2>/dev/null", id="brace-group-fd-redirect"),
    pytest.param("{ pytest; } 2>/dev/null && echo ok", id="brace-group-fd-and-then-echo"),
    pytest.param("! ! pytest", id="double-negation"),
    pytest.param("echo '||' && pytest", id="quoted-operator-is-a-word"),
    pytest.param("sh scripts/check.sh", id="a-shell-script-file"),
    pytest.param("if true; then :; fi", id="unreadable-compound-counts"),
    pytest.param("cat <<EOF\nx\nEOF", id="unreadable-here-document-counts"),
    pytest.param("pytest '", id="unreadable-quote-counts"),
]


@pytest.mark.parametrize("line", CHECKS)
def test_lines_that_check_something(line: str) -> None:
    assert judge_command(line).checks


#: (line, row): interpreter and test one-liners that succeed whatever the artifact holds
#: (SPEC §5 "Spot check": "a command that verifies nothing does not count").
NO_OP_ONE_LINERS = [
    ("python -c pass", "N-python"),
    ("python3 -c pass", "N-python"),
    ("python3 -c 1", "N-python"),
    ('python3 -c "import sys; sys.exit(0)"', "N-python"),
    ("python3 -c 'raise SystemExit(0)'", "N-python"),
    ("python3 -c ''", "N-python"),
    ("python3 -c 'print(1)'", "N-python"),
    ('python -c \'print("ok", end="")\'', "N-python"),
    ("python3 -I -c pass", "N-python"),
    ("python -m this", "N-python"),
    ("python3 -m site", "N-python"),
    ("python3 --version", "N-python"),
    ("node -e 0", "N-node"),
    ("node -e ''", "N-node"),
    ("nodejs --eval 'console.log(\"ok\")'", "N-node"),
    ("node -p 'true'", "N-node"),
    ("node -e 'console.log(1, 2); process.exit(0)'", "N-node"),
    ("node --version", "N-node"),
    ("test 1", "N-test"),
    ("[ 1 ]", "N-test"),
    ("test a = a", "N-test"),
    ("[ x == x ]", "N-test"),
]


@pytest.mark.parametrize(("line", "row"), NO_OP_ONE_LINERS)
def test_no_op_one_liners_verify_nothing(line: str, row: str) -> None:
    got = judge_command(line)
    assert (got.checks, got.rows) == (False, (row,))


#: One-liners that check something: an import or an assert can fail.
REAL_ONE_LINERS = [
    "python -m pytest",
    "python3 test_app.py",
    'python -c "import app; assert app.f(1)==1"',
    "python3 -c 'import app'",
    "python3 -c 'assert 1 == 2'",
    "python3 -c 'import sys; sys.exit(1)'",
    "python3 -c 'print(open(\"app.py\").read())'",
    "python -m unittest",
    "python -m mypackage.selftest",
    "node -e 'require(\"./app\")'",
    "node -e '\"a;b\"'",
    "node -p '1+1'",
    "node test.js",
    'node -e "$SCRIPT"',
    'python3 -c "$SCRIPT"',
    "test -f src/app.py",
    "[ -x bin/run ]",
    "test a = b",
    '[ "$X" ]',
]


@pytest.mark.parametrize("line", REAL_ONE_LINERS)
def test_real_one_liners_check_something(line: str) -> None:
    assert judge_command(line).checks, line


@pytest.mark.parametrize("wrapper", [w.name for w in WRAPPERS])
def test_every_wrapper_is_read_through(wrapper: str) -> None:
    lead = {"timeout": "timeout 60", "nice": "nice -n 5"}.get(wrapper, wrapper)
    assert judge_command(f"{lead} true").rows == ("N-true",)
    assert judge_command(f"{lead} pytest").checks


@pytest.mark.parametrize("shell", SHELLS)
def test_every_shell_c_script_is_read(shell: str) -> None:
    assert judge_command(f"{shell} -c true").rows == ("N-true",)
    assert judge_command(f"{shell} -ec 'exit 0'").rows == ("N-exit0",)
    assert judge_command(f"{shell} -c pytest").checks


# -- STANDING_ROWS ----------------------------------------------------------------------

STANDINGS = [
    pytest.param(Report("pytest -q", 1), "S-failed", False, id="S-failed-test-failure"),
    pytest.param(Report("no-such-runner", 127), "S-failed", False, id="S-failed-not-found"),
    pytest.param(Report("true", 1), "S-failed", False, id="S-failed-first"),
    pytest.param(Report("make lint", 0, ("pytest -q",)), "S-undeclared", False, id="S-undeclared"),
    pytest.param(Report("PYTEST_ADDOPTS=--co pytest -q", 0), "S-load-env", False, id="S-load-env"),
    pytest.param(
        Report("sh -c 'env PYTEST_ADDOPTS=--co pytest'", 0), "S-load-env", False, id="S-load-env-sh"
    ),
    pytest.param(
        Report("PYTEST_ADDOPTS=-x pytest", 0, ("PYTEST_ADDOPTS=-x pytest",)),
        "S-counts",
        True,
        id="S-load-env-declared-counts",
    ),
    pytest.param(
        Report("PYTEST_ADDOPTS=--co pytest", 1), "S-failed", False, id="S-failed-before-S-load-env"
    ),
    pytest.param(Report("true", 0, ("true",)), "S-no-check", False, id="S-no-check-declared"),
    pytest.param(Report("true", 0), "S-no-check", False, id="S-no-check"),
    pytest.param(
        Report("python3 -m unittest", 0, (), "exit 0, its test runner ran no tests"),
        "S-no-tests",
        False,
        id="S-no-tests",
    ),
    pytest.param(
        Report("true", 0, (), "exit 0, its test runner ran no tests"),
        "S-no-check",
        False,
        id="S-no-check-before-S-no-tests",
    ),
    pytest.param(Report("pytest -q", 0), "S-counts", True, id="S-counts"),
    pytest.param(
        Report("'pytest'  -q", 0, ("pytest -q",)), "S-counts", True, id="S-counts-declared"
    ),
]


@pytest.mark.parametrize(("report", "row", "counts"), STANDINGS)
def test_standing_rows(report: Report, row: str, counts: bool) -> None:
    got = receipt_standing(report)
    assert (got.row, got.counts) == (row, counts)
    assert got.no_check == (("N-true",) if row == "S-no-check" else ())


@pytest.mark.parametrize(
    ("reported", "observed", "agrees", "disagrees"),
    [
        pytest.param(0, 0, True, False, id="both-succeeded"),
        pytest.param(0, 1, False, True, id="re-run-failed"),
        pytest.param(0, 127, False, True, id="re-run-not-found"),
        pytest.param(1, 1, False, False, id="both-failed-is-no-agreement"),
        pytest.param(1, 0, False, False, id="failure-report"),
        pytest.param(None, 0, False, False, id="unknown-report"),
        pytest.param(0, None, False, False, id="unknown-re-run"),
    ],
)
def test_agreement_needs_two_successes(
    reported: int | None, observed: int | None, agrees: bool, disagrees: bool
) -> None:
    assert rerun_agrees(reported, observed) is agrees
    assert is_disagreement(reported, observed) is disagrees


@pytest.mark.parametrize(
    ("command", "declared", "expected"),
    [
        ("pytest -q", ("pytest -q",), True),
        ("pytest  -q", ("pytest -q",), True),
        ("'pytest' \"-q\"", ("pytest -q",), True),
        ("pytest", ("pytest -q",), False),
        ("pytest -q && true", ("pytest -q",), False),
        ("npm test", ("pytest -q", "npm test"), True),
        ("pytest '", ("pytest '",), True),
        ("env A=1 pytest -q", ("A=1 pytest -q",), True),
        ("env pytest -q", ("pytest -q",), False),
        ("sh -c 'pytest -k '\"'\"'a b'\"'\"''", ("pytest -k 'a b'",), True),
    ],
)
def test_is_declared_compares_words(
    command: str, declared: tuple[str, ...], expected: bool
) -> None:
    assert is_declared(command, declared) is expected


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("pytest -q", ("pytest", "-q")),
        ("python -m compileall -q src", ("python", "-m", "compileall", "-q", "src")),
        ("pytest -k 'a and b'", ("pytest", "-k", "a and b")),
        ('pytest -k "a and b"', ("pytest", "-k", "a and b")),
        (
            "python3 -m unittest -k 'test_add' t.py",
            ("python3", "-m", "unittest", "-k", "test_add", "t.py"),
        ),
        ("A=0 B=1 pytest -q", ("env", "A=0", "B=1", "pytest", "-q")),
        ("'A=0' pytest", ("A=0", "pytest")),
        ("A=0", ("sh", "-c", "A=0")),
        ('pytest -k "$K"', ("sh", "-c", 'pytest -k "$K"')),
        ("pytest tests/*.py", ("sh", "-c", "pytest tests/*.py")),
        ("pytest # all", ("sh", "-c", "pytest # all")),
        ("pytest || true", ("sh", "-c", "pytest || true")),
        ("exit 1", ("sh", "-c", "exit 1")),
        ("cd tests", ("sh", "-c", "cd tests")),
        ("pytest '", ("sh", "-c", "pytest '")),
        # in single quotes every character is itself: no sh -c more each "report again"
        ("python3 -c 'print(\"$x\")'", ("python3", "-c", 'print("$x")')),
        ("pytest -k 'a or b*'", ("pytest", "-k", "a or b*")),
        ("sh -c 'python3 -c \"import x\"'", ("sh", "-c", 'python3 -c "import x"')),
        ('echo "a*"', ("echo", "a*")),
        ('echo "a\\$b"', ("sh", "-c", 'echo "a\\$b"')),
    ],
)
def test_report_argv_runs_the_command_again(command: str, argv: tuple[str, ...]) -> None:
    assert report_argv(command) == argv


# -- the shell reader (hypothesis) ------------------------------------------------------

CHECK_WORDS = st.sampled_from(["pytest", "make test", "npm test", "cargo test", "./check"])
NOOPS = st.sampled_from(["true", ":", "echo ok", "printf x", "sleep 0", "exit 0"])


@given(st.text(max_size=80))
def test_reading_any_text_never_raises(text: str) -> None:
    judge_command(text)
    parse_line(text)
    words_of(text)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("[[ -f x ]]", ("[[", "-f", "x", "]]")),
        ("[[ -f a && ( -d b || x < y ) ]]", ("[[", "-f", "a", "&&", "(", "-d", "b", "||")),
        ("[[ -f x ]] 2>/dev/null", ("[[", "-f", "x", "]]")),
    ],
)
def test_a_conditional_command_is_one_command(line: str, words: tuple[str, ...]) -> None:
    parsed = parse_line(line)
    assert parsed is not None
    (first, _), *more = parsed.items
    assert not more and not first.rest and len(first.first.commands) == 1
    command = first.first.commands[0]
    assert isinstance(command, Simple) and command.words[: len(words)] == words


@pytest.mark.parametrize("line", ["[[ -f x", "[[ a =~ b|c ]]", "[[ -f x; ]]", '[[ "(" ]]'])
def test_a_conditional_command_this_reader_cannot_evaluate_is_unreadable(line: str) -> None:
    assert parse_line(line) is None


@given(CHECK_WORDS, NOOPS)
def test_a_failure_masked_by_a_no_op_never_checks(check: str, noop: str) -> None:
    for line in (f"{check} || {noop}", f"{check}; {noop}", f"! {check}", f"{check} &"):
        assert not judge_command(line).checks, line


@given(CHECK_WORDS, NOOPS)
def test_a_no_op_before_a_check_keeps_the_check(check: str, noop: str) -> None:
    if noop == "exit 0":
        return  # exit ends the line before the check runs
    for line in (f"{noop} && {check}", f"{noop}; {check}", f"{check} && {noop}"):
        assert judge_command(line).checks, line


@given(st.lists(st.sampled_from(["pytest", "true", "||", "&&", ";", "echo x", "!"]), max_size=6))
def test_sh_c_of_a_line_is_judged_as_the_line(parts: list[str]) -> None:
    line = " ".join(parts)
    assert judge_command(f"sh -c {shlex.quote(line)}").checks == judge_command(line).checks


@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5))
def test_shell_quoted_words_read_back_as_the_words(words: list[str]) -> None:
    if any("\n" in w or "\0" in w for w in words):
        return
    tokens = tokenize(shlex.join(words))
    assert [t.text for t in tokens] == words
    assert not any(t.op for t in tokens)


#: (negative test, rows): lines that fail even when every check in them succeeds (a
#: negative test passes when its command fails: these pass on any artifact).
FAILING_NO_OPS = [
    ("false", ("N-false", "N-fails")),
    ("exit 1", ("N-fails",)),
    ("! true", ("N-true", "N-negated", "N-fails")),
    ("sh -c 'exit 3'", ("N-fails",)),
]


@pytest.mark.parametrize(("line", "rows"), FAILING_NO_OPS)
def test_negative_tests_that_fail_on_any_artifact_verify_nothing(
    line: str, rows: tuple[str, ...]
) -> None:
    got = judge_negative(line)
    assert (got.checks, got.rows) == (False, rows)


@pytest.mark.parametrize(
    "line",
    [
        "python3 test_app.py --bad-input",
        "! python3 -m pytest",
        "pytest && test -f x",
        # a script file a shell runs is a check like ./neg.sh: it fails or not by what it
        # checks (refuter 18r item 5: these were refused with N-fails whatever they held)
        "./neg.sh",
        "sh neg.sh",
        "bash tests/neg.sh",
        "sh -e neg.sh arg",
        # a -c script this reader cannot evaluate counts as a check, as a line does
        "sh -c 'if grep -q TODO app.py; then exit 1; fi'",
    ],
)
def test_negative_tests_that_exercise_something_check(line: str) -> None:
    assert judge_negative(line).checks, line


@pytest.mark.parametrize("line", ["sh a.sh; pytest", "bash a.sh || true", "sh a.sh | tee log"])
def test_a_script_files_failure_hidden_by_the_line_is_seen(line: str) -> None:
    assert judge_hidden(line).rows == ("N-hidden",), line
