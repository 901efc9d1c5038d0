"""Which writer reports count as self-verification, and when a re-run agrees (SPEC §5 "Spot
check", §6 "receipt", "spot check"; seed 000: the writer reports each command it ran as
``<command>: <observed result>``).

Room ``policy`` (pure). :data:`STANDING_ROWS` decide, first match wins, whether a receipt
counts: only a report of success (exit 0), of a command the repository declares when it
declares any (``verification.commands``), that checks something
(:func:`gentle_hooks.policy.nocheck.judge_command`). A failure report is not
self-verification.

A re-run agrees only when the report and the re-run both succeeded (:func:`rerun_agrees`);
a re-run that failed after a report of success is a disagreement (:func:`is_disagreement`),
and blocks the candidate naming both results. The values a gate reports — a receipt that
cannot count (:class:`RefusedReceipt`), a disagreement (:class:`Disagreement`) — live here.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.loadenv import loading_assignments
from gentle_hooks.policy.nocheck import Judgement, judge_command
from gentle_hooks.policy.nocheck import row_text as nocheck_row_text
from gentle_hooks.policy.shell import Token, Unreadable, is_assignment, tokenize, words_of
from gentle_hooks.values.frozen import frozen


def rerun_agrees(reported_exit: int | None, observed_exit: int | None) -> bool:
    """A re-run agrees only when the report and the re-run both succeeded (exit 0)."""
    return reported_exit == 0 and observed_exit == 0


def is_disagreement(reported_exit: int | None, observed_exit: int | None) -> bool:
    """A re-run disagrees when the report said success and the re-run did not; it blocks
    the candidate, naming both results."""
    return reported_exit == 0 and observed_exit is not None and observed_exit != 0


def is_declared(command: str, declared: tuple[str, ...]) -> bool:
    """True when ``command`` is one of the declared commands, compared word by word
    (quoting and spacing aside: ``pytest  -q`` is ``'pytest' -q``). A receipt's command
    also matches in the spellings :func:`report_argv` prints for a declared line: after
    ``env`` when the line starts with assignments (``env A=1 pytest`` is ``A=1 pytest``),
    and as the line of ``sh -c LINE``."""
    mine = _spellings(command)
    for d in declared:
        theirs = words_of(d)
        if (theirs is not None and theirs in mine) or command.strip() == d.strip():
            return True
    return False


def _spellings(command: str) -> list[tuple[tuple[str, bool], ...]]:
    """The word lists ``command`` stands for (see :func:`is_declared`)."""
    words = words_of(command)
    if words is None:
        return []
    out = [words]
    if len(words) > 2 and words[0] == ("env", False) and _assigns(words[1][0]):
        out.append(words[1:])
    if len(words) == 3 and words[:2] == (("sh", False), ("-c", False)):
        inner = words_of(words[2][0])
        if inner is not None:
            out.append(inner)
    return out


def _assigns(text: str) -> bool:
    return is_assignment(Token(text))


#: The words ``receipt run`` adds to a run's observed result when the command's recognised
#: test runner says it ran 0 tests (:mod:`gentle_hooks.policy.testcount`).
RAN_NO_TESTS = "its test runner ran no tests"


@frozen
class Report:
    """A receipt as the standing rules see it: its command, reported exit status, the
    repository's declared verification commands (empty: none declared) and its observed
    result (``exit 0, its test runner ran no tests``: :data:`RAN_NO_TESTS`)."""

    command: str
    exit_code: int | None
    declared: tuple[str, ...] = ()
    observed: str = ""


@frozen
class StandingRow:
    """One standing rule: id, the condition in words, its predicate, whether the receipt
    counts when it matches."""

    id: str
    when: str
    matches: Callable[[Report, Judgement], bool]
    counts: bool


#: Whether a receipt counts as the writer's self-verification (first match wins).
STANDING_ROWS: tuple[StandingRow, ...] = (
    StandingRow(
        "S-failed",
        "the report is not a success (exit status other than 0): a failure report is not "
        "self-verification",
        lambda r, j: r.exit_code != 0,
        False,
    ),
    StandingRow(
        "S-undeclared",
        "the repository declares verification.commands and this is not one of them",
        lambda r, j: bool(r.declared) and not is_declared(r.command, r.declared),
        False,
    ),
    StandingRow(
        "S-load-env",
        "the command sets a variable that changes what its test runner or interpreter loads "
        "(PYTEST_ADDOPTS=--co: the runner collects and runs nothing): report it without",
        lambda r, j: (
            bool(loading_assignments(r.command))
            and not (r.declared and is_declared(r.command, r.declared))
        ),
        False,
    ),
    StandingRow(
        "S-no-check",
        "the command verifies nothing: it succeeds whatever the change does",
        lambda r, j: not j.checks,
        False,
    ),
    StandingRow(
        "S-no-tests",
        "its test runner ran no tests: a run of no tests verifies nothing",
        lambda r, j: RAN_NO_TESTS in r.observed,
        False,
    ),
    StandingRow(
        "S-rewrites",
        "its spot check's re-run changed the candidate's files: it tests something else "
        "(set from the recorded re-run, never from the report)",
        lambda r, j: False,
        False,
    ),
    StandingRow(
        "S-own",
        "its command runs a file the change adds or changes, so its re-run would be the "
        "change's own word (set by the gate from the change, never from the report)",
        lambda r, j: False,
        False,
    ),
    StandingRow(
        "S-counts",
        "a report of success of a command that checks something",
        lambda r, j: True,
        True,
    ),
)


@frozen
class Standing:
    """Whether one receipt counts, and by which rows.

    Attributes:
        counts: it counts as self-verification; row: the :data:`STANDING_ROWS` id;
        no_check: the :data:`NO_CHECK_ROWS`/:data:`SHAPE_ROWS` ids when ``row`` is
            ``S-no-check``.
    """

    counts: bool
    row: str
    no_check: tuple[str, ...] = ()


def receipt_standing(report: Report) -> Standing:
    """Evaluate :data:`STANDING_ROWS` for one receipt (first match wins)."""
    judgement = judge_command(report.command, receipt=True)
    for row in STANDING_ROWS:
        if row.matches(report, judgement):
            rows = judgement.rows if row.id == "S-no-check" else ()
            return Standing(row.counts, row.id, rows)
    raise AssertionError("the last standing row matches everything")  # pragma: no cover


def row_text(row_id: str) -> str:
    """The words of a :data:`STANDING_ROWS` row, or of a row of
    :mod:`gentle_hooks.policy.nocheck`.

    Raises:
        KeyError: no such row.
    """
    for t in STANDING_ROWS:
        if t.id == row_id:
            return t.when
    return nocheck_row_text(row_id)


@frozen
class RefusedReceipt:
    """A receipt recorded for the candidate that cannot count, and why.

    Attributes:
        receipt_id: its number; command: its command; exit_code: the reported status;
        standing: the rows that refused it (:func:`receipt_standing`); cwd: the directory
        it ran in, relative to the work tree root (``.`` for the root); observed: its
        observed result (None: not known).
    """

    receipt_id: int
    command: str
    exit_code: int | None
    standing: Standing
    cwd: str = "."
    observed: str | None = None


@frozen
class Disagreement:
    """A re-run that failed after a report of success: it blocks the candidate.

    Attributes:
        spot_check_id / receipt_id: the spot check and the receipt it re-ran;
        command: the command; reported_exit / observed_exit: the two results.
    """

    spot_check_id: int
    receipt_id: int | None
    command: str
    reported_exit: int | None
    observed_exit: int | None


#: Shell builtins with no program of their name: a command starting with one runs only
#: through a shell (``receipt add "exit 1: ..."`` is re-run by ``sh -c``).
SHELL_BUILTINS = frozenset(
    {".", ":", "source", "exit", "return", "cd", "export", "unset", "set", "eval", "exec"}
    | {"alias", "trap", "shift", "ulimit", "umask", "wait", "readonly", "local", "declare"}
)


#: Characters after which a line means more to a shell than its words (expansions,
#: globs, escapes, comments): such a line runs only through a shell.
SHELL_ONLY = frozenset("$`*?[]~{}!\\#\n")


def _shell_reads(command: str) -> bool:
    """Whether a character of :data:`SHELL_ONLY` in ``command`` means something to the
    shell: outside quotes, or ``$``, a backquote or ``\\`` inside double quotes. Inside
    single quotes every character is itself (``python3 -c 'print("$x")'`` is plain words,
    so a command reported again is not wrapped in one more ``sh -c`` each round)."""
    quote = ""
    for ch in command:
        if quote == "'":
            quote = "" if ch == "'" else quote
        elif quote == '"':
            if ch in "$`\\":
                return True
            quote = "" if ch == '"' else quote
        elif ch in "'\"":
            quote = ch
        elif ch in SHELL_ONLY:
            return True
    return False


def report_argv(command: str) -> tuple[str, ...]:
    """The argument vector that runs a receipt's (or a declared) command again through
    ``gentle-hook receipt run --``: its words when the line is plain words (quoted or not:
    no operator, expansion, glob, escape or comment) naming a program; ``env`` first when
    the words start with assignments (``A=1 pytest`` → ``env A=1 pytest``); else ``sh -c``
    and the line (a ``receipt add`` line may use pipes, ``&&``, expansions or a shell
    builtin)."""
    import shlex  # only a refusal or a block renders a command: off the gates' pass path

    shell = ("sh", "-c", command)
    if _shell_reads(command):
        return shell
    try:
        tokens = tokenize(command)
        words = tuple(shlex.split(command))
    except (Unreadable, ValueError):
        return shell
    if not words or any(t.op for t in tokens) or tuple(t.text for t in tokens) != words:
        return shell
    n = 0
    while n < len(tokens) and not tokens[n].quoted and is_assignment(tokens[n]):
        n += 1
    if n == len(words) or words[n] in SHELL_BUILTINS:
        return shell
    return ("env", *words) if n else words
