"""The one shape a verifier's criterion or suite may have (policy/checkshape.py): simple
commands joined by ``&&``. Seed 001 "Completion criteria": "every declared criterion has
evidence, not an assertion"; "Guardrails": "do not accept a claim whose criteria have no
observable check". Every construct outside the shape is refused, naming it; the rows that
let a failing check pass ``verify run`` (``$(...)``, backquotes, ``if ...; fi && ...``,
``find -exec ... \\;``) are the first ones here."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.checkshape import LINE_ROWS, argv_fault, shape_fault

#: (id, line, row, construct named): a failing check inside can leave the line passing.
REFUSED = [
    ("subst-dollar", 'test -z "$(python3 -m pytest -q)" && make', "L-subst", "$("),
    ("subst-backquote", "test -z `python3 -m pytest -q` && make", "L-subst", "`"),
    ("subst-in-double-quotes", 'echo "`false`" && make', "L-subst", "`"),
    ("if-then-fi", "if python3 -m pytest; then :; fi && make", "L-compound", "if"),
    (
        "find-exec-semicolon",
        "find . -name '*.py' -exec python3 {} \\; && make",
        "L-find-exec",
        "find -exec",
    ),
    ("find-execdir-quoted", "find . -execdir false {} ';'", "L-find-exec", "find -execdir"),
    ("find-exec-wrapped", "timeout 60 find . -exec false {} \\;", "L-find-exec", "find -exec"),
    ("semicolon", "pytest a; pytest b", "N-hidden", ";"),
    ("or", "pytest || true", "N-hidden", "||"),
    ("pipe", "pytest | tee log", "N-hidden", "|"),
    ("pipe-stderr", "pytest |& tee log", "N-hidden", "|&"),
    ("background", "pytest & wait", "N-hidden", "&"),
    ("newline", "pytest a\npytest b", "N-hidden", "newline"),
    ("negated", "! pytest", "L-negate", "!"),
    ("subshell", "(pytest)", "L-compound", "("),
    ("group", "{ pytest; }", "L-compound", "{"),
    ("function", "f() { pytest; } && f", "L-compound", "("),
    ("for", "for t in a b; do pytest $t; done", "L-compound", "for"),
    ("while", "while false; do :; done && make", "L-compound", "while"),
    ("double-bracket", "[[ -f x ]] && make", "L-compound", "[["),
    ("process-subst", "diff <(pytest) expected", "L-subst", "<("),
    ("arith", "exit $((0))", "L-expansion", "$(("),
    ("default-subst", "echo ${X:-$(false)} && make", "L-expansion", "${"),
    ("heredoc", "python3 <<EOF", "L-heredoc", "<<"),
    ("herestring", "python3 <<< 'print(1)'", "L-heredoc", "<<<"),
    ("comment", "make # && pytest", "L-comment", "#"),
    ("eval", "eval 'pytest || true'", "L-eval", "eval"),
    ("exec", "exec true && pytest", "L-eval", "exec"),
    ("trap", "trap 'exit 0' EXIT && pytest", "L-eval", "trap"),
    ("sh-c-semicolon", "sh -c 'pytest a; pytest b'", "N-hidden", ";"),
    ("env-bash-c-or", "env X=1 bash -c 'pytest || true'", "N-hidden", "||"),
    ("trailing-and", "pytest &&", "L-unreadable", "missing"),
    ("leading-and", "&& pytest", "L-unreadable", "missing"),
    ("open-quote", "pytest 'a", "L-unreadable", "quote"),
    ("redirect-no-target", "pytest >", "L-unreadable", "target"),
]

#: Lines of the accepted shape.
ACCEPTED = [
    "python3 -m pytest -q tests",
    "pytest a && pytest b",
    "cd sub && pytest -q",
    # a redirection of stdout to /dev/null is part of a simple command
    "python3 -m pytest -q tests >/dev/null && python3 -m pytest -q tests",
    "pytest 2>&1",
    "pytest > log 2>&1 && grep -q passed log",
    "PYTHONPATH=src python3 -m pytest",
    "python3 -c 'import app; assert app.add(2, 2) == 4'",
    'grep -q "a;b|c" src/app.py',
    "pytest -k 'not slow' && make 'x#y'",
    'test -n "$HOME" && test -d "${HOME}"',
    "find . -name '*.py' -exec python3 -m py_compile {} +",
    "sh -c 'pytest && make'",
    "timeout 60 pytest",
    "pytest \\; x",
]


@pytest.mark.parametrize(
    ("line", "row", "named"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_construct_outside_the_shape_is_refused_by_name(line: str, row: str, named: str) -> None:
    fault = shape_fault(line)
    assert fault is not None
    assert (fault.row, named in fault.construct) == (row, True), fault
    assert fault.why


@pytest.mark.parametrize("line", ACCEPTED)
def test_simple_commands_joined_by_and_are_accepted(line: str) -> None:
    assert shape_fault(line) is None


def test_an_argument_vector_is_one_simple_command() -> None:
    """A brief's ``run`` as a list runs without a shell: only its program matters."""
    assert argv_fault(("python3", "-c", "import a; a.b() or c()")) is None
    assert argv_fault(("sh", "-c", "a; b")) is not None
    fault = argv_fault(("find", ".", "-exec", "false", "{}", ";"))
    assert fault is not None and fault.row == "L-find-exec"


def test_every_row_has_words() -> None:
    assert len({r.id for r in LINE_ROWS}) == len(LINE_ROWS)
    assert all(r.text for r in LINE_ROWS)
