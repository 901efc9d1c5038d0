"""Commands that verify nothing, and a shell line judged by whether it can succeed while
every check in it fails (SPEC §5 "Spot check": "a command that verifies nothing does not
count").

Room ``policy`` (pure). Two tables and a reader:

* :data:`NO_CHECK_ROWS` — commands that succeed whatever the change does (``true``, ``:``,
  ``exit 0``, ``echo``/``printf``, ``sleep`` ...), matched on a simple command's program
  name (a path only in a system ``bin`` directory: ``./true`` is the project's own script);
  a receipt also meets :data:`~gentle_hooks.policy.probes.PROBE_ROWS` (``test -f app.py``,
  ``stat``, ``wc -l``, ``python -m compileall``, ``grep``);
* :data:`SHAPE_ROWS` — ways a line succeeds without its check succeeding: ``! pytest``,
  ``pytest &``, a line of assignments only, a failure masked by ``||``, ``;`` or a pipe;
* :data:`~gentle_hooks.policy.hiding.HIDING_ROWS` and ``N-pipe`` — checks whose failure the
  line hides (``make -i``, ``npm test --if-present``, ``pytest | sort`` without pipefail);
* the wrappers and shells of :mod:`gentle_hooks.policy.wrappers` are read through
  (``env X=1 pytest``, ``timeout 60 pytest``, ``sh -c '...'``).

A line *checks something* when it cannot succeed unless one of its checks (a simple command
not in :data:`NO_CHECK_ROWS`) succeeds: :func:`judge_command` evaluates the line's exit
status (POSIX XCU §2.9.2 pipelines: the last command's status, any failure with
``pipefail``; §2.9.3 lists: ``&&``, ``||``, ``;``, ``&``; ``set -e``; ``exit``) with every
check failing. A line this reader cannot evaluate (an ``if``/``for``/``while``, a
here-document; :func:`gentle_hooks.policy.shell.parse_line`) counts as a check: the re-run
on the candidate's exact tree still has to succeed, and a repository that wants more
declares its commands (``verification.commands``).
"""

from __future__ import annotations

import contextlib
import shlex

from gentle_hooks.policy.hiding import HIDING_ROWS, PIPE_TEXT, hiding_rows, without_hiding
from gentle_hooks.policy.noop_args import (
    always_true_test,
    git_reads,
    make_runs_nothing,
    node_noop,
    pip_reads,
    python_noop,
    same_file,
    status_test,
    version_query,
)
from gentle_hooks.policy.noop_files import FILE_TOOLS
from gentle_hooks.policy.probes import PROBE_ROWS, NoCheckRow
from gentle_hooks.policy.shell import AndOr, Group, Pipeline, ShellList, Simple, parse_line
from gentle_hooks.policy.testcount import no_run_flags
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, program_name, shell_script, unwrap
from gentle_hooks.values.frozen import frozen


def _any(args: tuple[str, ...]) -> bool:
    return True


def _runs_no_test(words: tuple[str, ...]) -> bool:
    return bool(no_run_flags(shlex.join(words)))


def _exit_zero(args: tuple[str, ...]) -> bool:
    return args in ((), ("0",))


#: Commands that succeed whatever the change does (first match wins).
NO_CHECK_ROWS: tuple[NoCheckRow, ...] = (
    NoCheckRow("N-true", ("true",), _any, "true succeeds and checks nothing"),
    NoCheckRow("N-colon", (":",), _any, ": (the null command) succeeds and checks nothing"),
    NoCheckRow(
        "N-exit0", ("exit",), _exit_zero, "exit 0 (a bare exit: the status before it) ends the line"
    ),
    NoCheckRow("N-echo", ("echo", "printf"), _any, "echo and printf print their arguments"),
    NoCheckRow("N-sleep", ("sleep",), _any, "sleep waits"),
    NoCheckRow(
        "N-python",
        ("python", "python3"),
        python_noop,
        "python -c with only pass, constants, print of constants, import sys or an exit 0, "
        "python -m this (site, platform, sysconfig) or python --version succeeds on any tree",
    ),
    NoCheckRow(
        "N-node",
        ("node", "nodejs"),
        node_noop,
        "node -e with only literals, console.log of literals or an exit 0, or node --version "
        "succeeds on any tree",
    ),
    NoCheckRow(
        "N-test",
        ("test", "[", "[["),
        always_true_test,
        "test of a literal non-empty word, or of a word equal to itself, is always true",
    ),
    NoCheckRow("N-wait", ("wait",), _any, "wait (without a job) succeeds"),
    NoCheckRow("N-where", ("cd", "pwd", "pushd", "popd"), _any, "moving around checks nothing"),
    NoCheckRow(
        "N-show",
        (
            *("ls", "cat", "tee", "date", "whoami", "hostname", "uname", "id", "env"),
            *("printenv", "head", "tail", "less", "more", "nl", "tac", "od", "xxd", "hexdump"),
        ),
        _any,
        "showing files or the environment checks nothing",
    ),
    NoCheckRow(
        "N-locate",
        ("which", "type", "whereis", "hash", "command"),
        _any,
        "which, type and command -v only say where a program is: they run none of the code",
    ),
    NoCheckRow("N-dry-run", ("make", "gmake"), make_runs_nothing, "make -n/-q/-t runs no recipe"),
    NoCheckRow(
        "N-pip-read", ("pip", "pip3"), pip_reads, "pip list, freeze or show reads what is installed"
    ),
    NoCheckRow(
        "N-state",
        ("set", "export", "unset", "shopt", "umask", "ulimit", "alias", "trap"),
        _any,
        "setting shell options or the environment checks nothing",
    ),
    NoCheckRow(
        "N-declare",
        ("shift", "local", "readonly", "declare", "typeset"),
        _any,
        "declaring variables checks nothing",
    ),
    NoCheckRow("N-git-read", ("git",), git_reads, "git status, log or diff only reads"),
    NoCheckRow(
        "N-files",
        FILE_TOOLS,
        _any,
        "making, moving or naming files (touch, mkdir, cp, seq, basename) checks nothing",
    ),
    NoCheckRow("N-same-file", ("diff", "cmp"), same_file, "a file diffed with itself agrees"),
    NoCheckRow("N-no-run", (), _runs_no_test, "its test runner is told to run no test"),
    NoCheckRow(
        "N-version",
        (),
        version_query,
        "a tool's --version, -V or --help alone (npm -v, go version) describes the tool, "
        "not the change",
    ),
)


@frozen
class ShapeRow:
    """A shape of line whose success says nothing about its checks."""

    id: str
    text: str


#: Shapes of a line that succeed without a check succeeding (reported with the rows above).
SHAPE_ROWS: tuple[ShapeRow, ...] = (
    ShapeRow("N-negated", "! inverts the status: success means the command failed"),
    ShapeRow("N-background", "a command ended by & runs in the background; the line succeeds"),
    ShapeRow("N-empty", "assignments or redirections alone run nothing"),
    ShapeRow("N-masked", "the line succeeds after its checks fail (||, ;, a pipe into tee)"),
    ShapeRow("N-false", "false fails whatever the artifact holds"),
    ShapeRow(
        "N-status",
        "a test of $? after a failure turns that failure into success (pytest || [ $? -eq 5 ])",
    ),
    ShapeRow(
        "N-hidden",
        "the line succeeds while one of its checks fails (a; b, a || b, a | b without "
        "pipefail): write one command, or a && b",
    ),
    ShapeRow(
        "N-fails",
        "the line fails even when every check in it succeeds: a negative test that cannot "
        "pass on any artifact",
    ),
)


@frozen
class Judgement:
    """What :func:`judge_command` found.

    Attributes:
        checks: the line can succeed only when one of its checks succeeds (or it cannot be
            evaluated, see the module docstring).
        rows: the :data:`NO_CHECK_ROWS` and :data:`SHAPE_ROWS` ids met, in order (empty when
            ``checks``).
    """

    checks: bool
    rows: tuple[str, ...] = ()


class _State:
    """A shell's state while a line is evaluated with every check failing."""

    def __init__(
        self,
        pipefail: bool = False,
        checks_ok: bool = False,
        fail_at: int | None = None,
        table: tuple[NoCheckRow, ...] = NO_CHECK_ROWS,
    ) -> None:
        self.pipefail = pipefail
        self.table = table  # the rows a command verifying nothing is matched against
        self.checks_ok = checks_ok  # the status every check is assumed to have
        # with fail_at: only the check run fail_at-th fails, every other one succeeds;
        # seen[0] counts the checks run, seen[1] is 1 once the failing one ran
        self.fail_at = fail_at
        self.seen = [0, 0]
        self.errexit = False
        self.last = True  # $?: True for success
        self.rows: list[str] = []

    def copy(self) -> _State:
        other = _State(self.pipefail, self.checks_ok, self.fail_at, self.table)
        other.errexit, other.last, other.rows = self.errexit, self.last, self.rows
        other.seen = self.seen
        return other

    def met(self, row: str) -> None:
        if row not in self.rows:
            self.rows.append(row)


class _Exit(Exception):
    """``exit`` ends the (sub)shell with this status."""

    def __init__(self, ok: bool) -> None:
        super().__init__()
        self.ok = ok


def _matches(row: NoCheckRow, name: str, words: tuple[str, ...]) -> bool:
    """Whether a simple command (``name``: its program's name) is of ``row``."""
    if not row.programs:
        return row.args(words)
    return name in row.programs and row.args(words[1:])


def _simple(words: tuple[str, ...], st: _State, depth: int) -> bool:
    """The status of a simple command with every check failing."""
    if not words:
        st.met("N-empty")
        return True
    if depth > MAX_DEPTH:
        return False
    inner = unwrap(words)
    if inner is not None:
        return _simple(inner, st, depth + 1)
    name = program_name(words[0])
    args = words[1:]
    if name in SHELLS:
        script, pipefail = shell_script(words)
        line = parse_line(script) if script is not None else None
        if line is not None:
            shell = _State(pipefail, st.checks_ok, st.fail_at, st.table)
            shell.rows, shell.seen = st.rows, st.seen  # one record for the whole line
            try:
                return _list(line, shell, depth + 1)
            except _Exit as done:
                return done.ok
        # a script file, stdin or a -c script this reader cannot evaluate: a check like
        # any other program, with the status every check is assumed to have
    if name == "set":
        flags = "".join(a[1:] for a in args if a.startswith("-") and a != "-o")
        if "e" in flags or "errexit" in args:
            st.errexit = True
        if "pipefail" in args:
            st.pipefail = True
    if name == "exit":
        if not args or args == ("$?",):
            st.met("N-exit0")
            raise _Exit(st.last)
        if args == ("0",):
            st.met("N-exit0")
            raise _Exit(True)
        raise _Exit(False)
    statuses = status_test(args) if name in ("test", "[", "[[") else None
    if statuses is not None:
        # $? is 0 after a success; after a failing check it may be any other status
        ok = bool(statuses & ({0} if st.last else set(range(1, 256))))
        if ok:
            st.met("N-status")
        return ok
    for row in st.table:
        if _matches(row, name, words):
            st.met(row.id)
            return True
    if name == "false" and st.checks_ok:
        st.met("N-false")
        return False
    if st.fail_at is not None:
        number = st.seen[0]
        st.seen[0] += 1
        if number == st.fail_at:
            st.seen[1] = 1
            return False
        return True
    return st.checks_ok  # a check: assumed to fail (to succeed for a negative test)


def _pipeline(p: Pipeline, st: _State, depth: int) -> bool:
    statuses = []
    for cmd in p.commands:
        if isinstance(cmd, Group):
            inner = st.copy() if cmd.subshell else st
            try:
                ok = _list(cmd.body, inner, depth + 1)
            except _Exit as done:
                if not cmd.subshell:
                    raise
                ok = done.ok
        else:
            assert isinstance(cmd, Simple)
            if len(p.commands) > 1:
                # each command of a pipe runs in a subshell: its exit ends only itself
                try:
                    ok = _simple(cmd.words, st.copy(), depth)
                except _Exit as done:
                    ok = done.ok
            else:
                ok = _simple(cmd.words, st, depth)
        statuses.append(ok)
    ok = all(statuses) if st.pipefail else statuses[-1]
    if p.negated:
        st.met("N-negated")
        return not ok
    return ok


def _and_or(a: AndOr, st: _State, depth: int) -> tuple[bool, bool]:
    """(status, whether ``set -e`` applies to it: the last pipeline ran and was not
    negated)."""
    ok = _pipeline(a.first, st, depth)
    st.last = ok
    ran_last, negated = not a.rest, a.first.negated
    for n, (op, p) in enumerate(a.rest):
        if (op == "&&") != ok:
            continue  # && runs on success, || on failure
        ok = _pipeline(p, st, depth)
        st.last = ok
        ran_last, negated = n == len(a.rest) - 1, p.negated
    return ok, ran_last and not negated


def _list(line: ShellList, st: _State, depth: int) -> bool:
    ok = True
    for and_or, background in line.items:
        if background:
            st.met("N-background")
            with contextlib.suppress(_Exit):  # an exit ends only the background job
                _and_or(and_or, st.copy(), depth)
            ok = st.last = True
            continue
        ok, errexit_applies = _and_or(and_or, st, depth)
        if st.errexit and not ok and errexit_applies:
            raise _Exit(False)
    return ok


def judge_command(text: str, *, receipt: bool = False) -> Judgement:
    """Whether a reported command checks something (see the module docstring).

    Args:
        text: the receipt's command: a shell line (``receipt add``) or the shell-quoted argv
            (``receipt run``).
        receipt: judge it as a receipt: :data:`PROBE_ROWS` verify nothing too.

    Returns:
        ``checks`` False with the rows met when the line succeeds with every check failing;
        True (no rows) when it cannot, or when the line cannot be evaluated.
    """
    line = parse_line(text)
    if line is None:
        return Judgement(True)
    st = _State(table=NO_CHECK_ROWS + PROBE_ROWS if receipt else NO_CHECK_ROWS)
    try:
        ok = _list(line, st, 0)
    except _Exit as done:
        ok = done.ok
    if not ok:  # it fails when its checks fail, unless a check's failure is hidden
        hidden = hiding_rows(line, lambda words: not _verifies_nothing(words, st.table, 0))
        return Judgement(not hidden, hidden)
    rows = list(st.rows)
    if {r.id for r in PROBE_ROWS} & set(rows):  # ``pytest | sort``: the pipe hides
        hidden = hiding_rows(line, lambda words: not _verifies_nothing(words, NO_CHECK_ROWS, 0))
        if hidden:
            return Judgement(False, hidden)
    if not rows or (_has_check(line, st.table) and not any(r in _MASKING for r in rows)):
        rows.append("N-masked")  # a check ran and failed, and something after it succeeded
    return Judgement(False, tuple(rows))


def unhidden(text: str) -> str | None:
    """The receipt's command without the part that hides its failure (``make -i test`` →
    ``make test``; :func:`gentle_hooks.policy.hiding.without_hiding`), or None."""
    table = NO_CHECK_ROWS + PROBE_ROWS
    return without_hiding(text, lambda words: not _verifies_nothing(words, table, 0))


def judge_negative(text: str) -> Judgement:
    """Whether a negative test (it passes when its command fails) checks something: the
    mirror of :func:`judge_command`: a line that fails with every check succeeding and
    with every check failing (``false``, ``exit 1``, ``! true``) fails on any artifact.

    Returns:
        ``checks`` False with the rows met (ending with ``N-fails``) when the line fails
        whatever its checks do; True when it can succeed or cannot be evaluated.
    """
    line = parse_line(text)
    if line is None:
        return Judgement(True)
    rows: list[str] = []
    for checks_ok in (True, False):  # every check succeeding, then every check failing
        st = _State(checks_ok=checks_ok)
        try:
            ok = _list(line, st, 0)
        except _Exit as done:
            ok = done.ok
        if ok:
            return Judgement(True)
        rows += [r for r in st.rows if r not in rows]
    return Judgement(False, (*rows, "N-fails"))


#: Rows that explain by themselves why a line containing a check still succeeds.
_MASKING = frozenset({"N-negated", "N-background", "N-exit0", "N-masked", "N-status"})


def _has_check(line: ShellList, table: tuple[NoCheckRow, ...], depth: int = 0) -> bool:
    """True when a simple command of the line is not a :data:`NO_CHECK_ROWS` row (a check
    that something else in the line masks)."""
    for and_or, _ in line.items:
        for p in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in p.commands:
                if isinstance(cmd, Group):
                    if _has_check(cmd.body, table, depth):
                        return True
                elif cmd.words and not _verifies_nothing(cmd.words, table, depth):
                    return True
    return False


def _verifies_nothing(words: tuple[str, ...], table: tuple[NoCheckRow, ...], depth: int) -> bool:
    inner = unwrap(words)
    if inner is not None and depth < MAX_DEPTH:
        return _verifies_nothing(inner, table, depth + 1)
    name = program_name(words[0])
    if name in SHELLS:
        script, _ = shell_script(words)
        line = parse_line(script) if script is not None else None
        return line is not None and depth < MAX_DEPTH and not _has_check(line, table, depth + 1)
    if name in ("test", "[", "[[") and status_test(words[1:]) is not None:
        return True
    return any(_matches(row, name, words) for row in table)


def row_text(row_id: str) -> str:
    """The words of a :data:`NO_CHECK_ROWS`, :data:`PROBE_ROWS` or :data:`SHAPE_ROWS` row.

    Raises:
        KeyError: no such row.
    """
    for r in NO_CHECK_ROWS + PROBE_ROWS:
        if r.id == row_id:
            return r.text
    for s in SHAPE_ROWS:
        if s.id == row_id:
            return s.text
    for h in HIDING_ROWS:
        if h.id == row_id:
            return h.text
    if row_id == "N-pipe":
        return PIPE_TEXT
    raise KeyError(row_id)
