"""Checks whose failure the line hides: a runner told to ignore errors, a script run only if
present, a pipeline whose status is not the check's (SPEC §5 "Spot check": satisfied only
when the report and the re-run *succeeded*; a success that does not come from the check
is no success of it).

Room ``policy`` (pure). :data:`HIDING_ROWS` are simple commands that run a check and
succeed when it fails (``make -i test``, ``npm test --if-present``); row ``N-pipe`` is a
pipeline without ``pipefail`` in which a check comes before the last command (``pytest |
grep -v x``, ``pytest | sort``): POSIX XCU §2.9.2 gives it the last command's status.
``set -o pipefail`` earlier in the same line (``set -euo pipefail; pytest | sort``) or a
shell started with ``-o pipefail`` makes the pipeline fail when the check does: no row.

:func:`hiding_rows` finds them in a parsed line (wrappers and ``sh -c`` scripts read
through); :func:`without_hiding` gives the same command without the hiding part, the way
out a refusal prints, when the line is one pipeline.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.shell import Group, Pipeline, ShellList, Simple, parse_line
from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, program_name, shell_script, unwrap
from gentle_hooks.values.frozen import frozen

#: make's single-letter options that take no value (GNU make): ``-ik`` is ``-i -k``.
_MAKE_LETTERS = frozenset("BdeiknLpqrRsStvwt")
#: The package managers whose ``--if-present`` runs a script only when it is defined.
_SCRIPT_RUNNERS = ("npm", "yarn", "pnpm")


def _make_ignore(word: str) -> bool:
    """``-i``/``--ignore-errors``, or a cluster of make's letters holding ``i`` (``-ik``)."""
    if word == "--ignore-errors":
        return True
    letters = set(word[1:])
    return word.startswith("-") and not word.startswith("--") and "i" in letters <= _MAKE_LETTERS


def _if_present(word: str) -> bool:
    return word == "--if-present"


@frozen
class HidingRow:
    """A check run so that its failure is hidden.

    Attributes:
        id: stable row id (the reason code); programs: the program names it matches;
        hides: whether an argument is the hiding part (dropped by :func:`without_hiding`);
        text: the row in words.
    """

    id: str
    programs: tuple[str, ...]
    hides: Callable[[str], bool]
    text: str


#: Checks run so that their failure is hidden (first match wins).
HIDING_ROWS: tuple[HidingRow, ...] = (
    HidingRow(
        "N-make-ignore",
        ("make", "gmake"),
        _make_ignore,
        "make -i (--ignore-errors) ignores every failing recipe: make succeeds when the tests fail",
    ),
    HidingRow(
        "N-if-present",
        _SCRIPT_RUNNERS,
        _if_present,
        "--if-present succeeds without running anything when the script is not defined",
    ),
)

#: Row ``N-pipe``'s words (a shape: it is found in a pipeline, not in one command).
PIPE_TEXT = (
    "the pipeline's status is its last command's (no pipefail): a check before it may "
    "fail while the line succeeds; report the check alone, or set -o pipefail first"
)


def _row_of(words: tuple[str, ...]) -> HidingRow | None:
    name = program_name(words[0])
    return next(
        (r for r in HIDING_ROWS if name in r.programs and any(r.hides(a) for a in words[1:])),
        None,
    )


def _inner(words: tuple[str, ...]) -> tuple[str, ...]:
    """The command a chain of wrappers runs (``env X=1 timeout 9 make -i`` → ``make -i``)."""
    for _ in range(MAX_DEPTH):
        inner = unwrap(words)
        if inner is None:
            break
        words = inner
    return words


class _Walk:
    """The rows met while a line is read in order (``set -o pipefail`` holds from where it
    is set)."""

    def __init__(self, is_check: Callable[[tuple[str, ...]], bool]) -> None:
        self.is_check = is_check
        self.rows: list[str] = []

    def met(self, row: str) -> None:
        if row not in self.rows:
            self.rows.append(row)

    def line(self, line: ShellList, pipefail: bool, depth: int) -> bool:
        """Read ``line``; returns whether ``pipefail`` is set at its end."""
        for and_or, _ in line.items:
            for p in (and_or.first, *(p for _, p in and_or.rest)):
                pipefail = self.pipeline(p, pipefail, depth)
        return pipefail

    def pipeline(self, p: Pipeline, pipefail: bool, depth: int) -> bool:
        if len(p.commands) > 1 and not pipefail:
            before = p.commands[:-1]
            if any(self._checks(c, depth) for c in before):
                self.met("N-pipe")
        alone = len(p.commands) == 1  # a command of a longer pipeline runs in a subshell
        for c in p.commands:
            if isinstance(c, Group):
                after = self.line(c.body, pipefail, depth + 1)
                pipefail = after if alone and not c.subshell else pipefail
            elif c.words:
                after = self.simple(c.words, pipefail, depth)
                pipefail = after if alone else pipefail
        return pipefail

    def simple(self, words: tuple[str, ...], pipefail: bool, depth: int) -> bool:
        words = _inner(words)
        name = program_name(words[0])
        if name == "set" and "pipefail" in words[1:]:
            i = words.index("pipefail")
            return words[i - 1].startswith("-")  # set -o pipefail; +o unsets it
        if name in SHELLS and depth < MAX_DEPTH:
            script, own = shell_script(words)
            line = parse_line(script) if script is not None else None
            if line is not None:
                self.line(line, own, depth + 1)
            return pipefail
        row = _row_of(words)
        if row is not None:
            self.met(row.id)
        return pipefail

    def _checks(self, c: Simple | Group, depth: int) -> bool:
        if isinstance(c, Group):
            return any(
                self._checks(x, depth + 1)
                for and_or, _ in c.body.items
                for p in (and_or.first, *(p for _, p in and_or.rest))
                for x in p.commands
            )
        return bool(c.words) and self.is_check(c.words)


def hiding_rows(line: ShellList, is_check: Callable[[tuple[str, ...]], bool]) -> tuple[str, ...]:
    """The :data:`HIDING_ROWS` ids and ``N-pipe`` the line meets, in order (empty: none).

    Args:
        line: the parsed line; is_check: whether a simple command's words run a check (not
            a command that verifies nothing: ``cat x | pytest`` hides nothing).
    """
    walk = _Walk(is_check)
    walk.line(line, False, 0)
    return tuple(walk.rows)


def without_hiding(
    text: str, is_check: Callable[[tuple[str, ...]], bool], depth: int = 0
) -> str | None:
    """The same command without the part that hides its failure, or None when the line is
    not one pipeline of simple commands, hides nothing this way, or nothing of it is left
    to run. A hiding argument is dropped (``make -i test`` → ``make test``, ``make -ik``
    → ``make -k``); a pipeline without pipefail ends at its first check (``pytest | sort``
    → ``pytest``); a shell's ``-c`` script stands for itself (``sh -c 'pytest | sort'``
    → ``pytest``). Words are re-quoted (:func:`gentle_hooks.policy.shellwords.join`);
    assignments before a command are kept, redirections are not."""
    line = parse_line(text)
    if line is None or len(line.items) != 1:
        return None
    and_or, background = line.items[0]
    p = and_or.first
    if background or and_or.rest or p.negated or not p.commands:
        return None
    commands: list[Simple] = []
    for c in p.commands:
        if not isinstance(c, Simple) or not c.words:
            return None
        commands.append(c)
    if len(commands) == 1 and program_name(_inner(commands[0].words)[0]) in SHELLS:
        script, _ = shell_script(_inner(commands[0].words))  # sh -c 'pytest | sort'
        return without_hiding(script, is_check, depth + 1) if script and depth < 2 else None
    first = next((n for n, c in enumerate(commands) if is_check(c.words)), None)
    if first is None:
        return None
    kept = commands[: first + 1]
    changed = len(kept) < len(commands)
    from gentle_hooks.policy.shellwords import join  # only a line that hides its failure

    out = []
    for c in kept:
        inner = _inner(c.words)
        lead = c.words[: len(c.words) - len(inner)]  # the wrappers keep their options
        row = _row_of(inner)
        if row is not None:
            inner = tuple(w for w in (_drop(w, row) for w in inner) if w)
            changed = True
        out.append(join((*c.assignments, *lead, *inner)))
    return " | ".join(out) if changed else None


def _drop(word: str, row: HidingRow) -> str:
    """``word`` without its hiding part: empty, or the letter cluster less ``i``."""
    if not row.hides(word):
        return word
    if row.id == "N-make-ignore" and word.startswith("-") and not word.startswith("--"):
        rest = word[1:].replace("i", "")
        return f"-{rest}" if rest else ""
    return ""
