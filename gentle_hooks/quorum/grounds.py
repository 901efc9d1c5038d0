"""Whether an upheld ``whatIChecked`` re-opened the cited evidence itself (SPEC §9).

Room ``quorum``, pure functions (standard library, :mod:`gentle_hooks.policy.nocheck`,
:mod:`.restatement`, :mod:`.narrative`); no I/O. Seed ``003_0245072c02421c57.txt``, the
contract: "Independently re-open the cited evidence. Do not trust the miner's reading of
it"; "Uphold ONLY if you re-opened the evidence yourself and it reproduces"; "A verifier
that only reads the finding is an opinion generator". An upheld verdict that names an act
of checking can still have checked nothing; :data:`GROUND_ROWS` are those ways, as data,
each a refutation (``overruled`` says what is missing), never support:

* ``G-negated`` — the act is denied or imaginary: "Opened nothing; …", "Opened
  workflow.js:142 (did not actually)", "… in my head".
* ``G-finding`` — what was opened or read is the finding, not its evidence: "Opened the
  miner's finding: …", "Read the writer's transcript / the PR description: …".
* ``G-nocheck`` — the only commands run check nothing, by the rows of
  :data:`gentle_hooks.policy.nocheck.NO_CHECK_ROWS` that read nothing of the repository
  (:data:`OBSERVES_NOTHING`: ```true``: exit 0`, ```echo unbounded``: printed unbounded``),
  and nothing else is cited.
* ``G-elsewhere`` — the finding cites evidence (the files named by ``--evidence`` or a
  verdict set's ``evidence``) and the check names none of those files: "Opened README.md:
  it says subagents have no cap" for evidence ``workflow.js:142``. The check must re-open
  THAT evidence or run a command on it (name its file). Evidence naming no file, or no
  evidence given, leaves this row out.

A verifier that opened the cited evidence and reports that it says what the miner said
("Opened workflow.js:142: it spawns subagents in a loop with no budget check") reproduced
it (seed 003 "File and line | Open it. The line exists and says what was claimed"): it
counts as upheld. Only a copy of the evidence with no act of its own abstains
(:func:`~gentle_hooks.quorum.restatement.evidence_restatement`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from gentle_hooks.policy.nocheck import judge_command, row_text
from gentle_hooks.quorum.narrative import ACT_VERBS
from gentle_hooks.quorum.restatement import named_files, reproduced_evidence
from gentle_hooks.values.frozen import frozen


@frozen
class GroundRow:
    """One way an upheld check checked nothing: a stable id and what is missing, in words."""

    id: str
    missing: str


#: The rows, in the order they are tried; every one refutes an upheld verdict.
GROUND_ROWS: Final[tuple[GroundRow, ...]] = (
    GroundRow("G-negated", "an act that happened (it says nothing was opened or run)"),
    GroundRow("G-finding", "a re-opening of the evidence (it read the finding, an opinion)"),
    GroundRow("G-nocheck", "a command or an opening that reads the evidence"),
    GroundRow("G-elsewhere", "a re-opening of the cited evidence or a command on it"),
)
_ROW: Final = {row.id: row for row in GROUND_ROWS}

#: Rows of :data:`~gentle_hooks.policy.nocheck.NO_CHECK_ROWS` whose commands observe nothing
#: of the repository a verifier could report (``cat``, ``ls``, ``git log``, ``wc`` read a
#: file: they re-open evidence, though as receipts they verify nothing).
OBSERVES_NOTHING: Final = frozenset(
    {"N-true", "N-colon", "N-exit0", "N-echo", "N-sleep", "N-python", "N-node", "N-test"}
    | {"N-wait", "N-where", "N-locate", "N-dry-run", "N-state", "N-declare", "N-same-file"}
    | {"N-version"}
)


def _phrases(*items: str) -> re.Pattern[str]:
    body = "|".join(p.replace(" ", r"\s+") for p in items)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


_NEGATED: Final = _phrases(
    r"(?:opened|ran|read|checked|grepped|inspected|ran|executed|looked at|re-?opened) nothing",
    r"nothing (?:was )?(?:opened|run|read|checked|executed|re-?opened)",
    r"did not actually",
    r"didn't actually",
    r"not actually",
    r"not really",
    r"in my head",
    r"in my mind",
    r"in my imagination",
    r"mentally",
    r"imagined",
    r"from memory",
    r"pretended",
    r"hypothetically",
    r"in theory",
    r"without (?:opening|running|reading|looking|checking|executing)",
)

_WHO: Final = r"(?:miner|writer|author|reviewer|agent|submitter|reporter|coder|model|finder)"
_WHAT: Final = (
    r"(?:finding|report|transcript|summary|claim|evidence|write-?up|notes?|description"
    r"|message|output|account|dossier|comment|reading|analysis)"
)
_FINDING: Final = re.compile(
    rf"(?<!\w)(?:{_WHO}(?:'s|s')?\s+{_WHAT}s?"
    r"|(?:pr|pull\s+request|merge\s+request|mr|issue|ticket)(?:'s)?\s+"
    r"(?:description|body|summary|text|title|comments?)"
    r"|the\s+(?:finding|claim|dossier|write-?up|transcript|summary)s?)(?!\w)"
)
_CLAUSE: Final = re.compile(r"[;\n]|\.(?=\s|$)")
_BACKTICKS: Final = re.compile(r"`([^`]+)`")


def _fold(text: str) -> str:
    return text.replace("\u2019", "'").casefold()


def _act_objects(text: str) -> list[str]:
    """Per clause with an act of checking outside backticks, what the act is on: the text
    after the act's verb up to the first ``:`` (backticked commands kept)."""
    found: list[str] = []
    for clause in _CLAUSE.split(_fold(text)):
        act = ACT_VERBS.search(_BACKTICKS.sub(lambda m: " " * len(m.group(0)), clause))
        if act is not None:
            found.append(clause[act.end() :].split(":", 1)[0])
    return found


def _file_of(name: str) -> str:
    """``src/workflow.js:142`` is ``workflow.js``."""
    return name.split(":", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _negated(what_i_checked: str) -> str | None:
    found = _NEGATED.search(" ".join(_BACKTICKS.sub(" ", _fold(what_i_checked)).split()))
    return None if found is None else f"{found.group(0)!r}"


def _finding_only(what_i_checked: str) -> str | None:
    """The finding an act was on, when every act is on the finding (none names a file or
    a command)."""
    on_finding: list[str] = []
    for thing in _act_objects(what_i_checked):
        if named_files(thing) or "`" in thing:
            return None
        named = _FINDING.search(thing)
        if named is not None:
            on_finding.append(named.group(0))
    return f"{on_finding[0]!r}" if on_finding else None


def _nocheck(what_i_checked: str, claim: str | None) -> str | None:
    """The rows met when every backticked command observes nothing and nothing else is
    cited (no ``file:line``, file, path or quote outside the backticks)."""
    commands = [" ".join(m.group(1).split()) for m in _BACKTICKS.finditer(what_i_checked)]
    if not commands:
        return None
    rows: list[str] = []
    for command in commands:
        judged = judge_command(command)
        if judged.checks or not judged.rows or not set(judged.rows) <= OBSERVES_NOTHING:
            return None
        rows.extend(r for r in judged.rows if r not in rows)
    rest = _BACKTICKS.sub(" ", what_i_checked)
    if named_files(rest) or reproduced_evidence(rest, claim):
        return None
    shown = "; ".join(f"`{c}`" for c in commands[:3])
    return f"{shown}: " + "; ".join(f"{r} {row_text(r)}" for r in rows)


def _elsewhere(what_i_checked: str, evidence: str | None) -> str | None:
    """What was opened instead, when ``evidence`` names files and the check names none."""
    cited = {_file_of(n) for n in named_files(evidence or "")}
    if not cited:
        return None
    mine = sorted({_file_of(n) for n in named_files(what_i_checked)})
    if cited & set(mine):
        return None
    wanted = ", ".join(sorted(n for n in named_files(evidence or "") if ":" in n) or cited)
    opened = ", ".join(mine) if mine else "no file"
    return f"it names {opened}, not the cited {wanted}"


def grounds_reason(what_i_checked: str, claim: str | None, evidence: str | None) -> str | None:
    """Why an upheld ``what_i_checked`` checked nothing of the cited evidence; None when it
    did (or no row of :data:`GROUND_ROWS` applies).

    Args:
        what_i_checked: the verifier's ``whatIChecked`` (an upheld verdict's).
        claim: the finding's claim (its citations are not the verifier's).
        evidence: the miner's evidence, or None (then ``G-elsewhere`` does not apply).

    Returns:
        One line: ``"G-elsewhere: missing a re-opening of the cited evidence or a command
        on it (it names readme.md, not the cited workflow.js:142): not evidence, refute
        (seed 003: independently re-open the cited evidence)"``; else None.
    """
    checks: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("G-negated", lambda: _negated(what_i_checked)),
        ("G-finding", lambda: _finding_only(what_i_checked)),
        ("G-nocheck", lambda: _nocheck(what_i_checked, claim)),
        ("G-elsewhere", lambda: _elsewhere(what_i_checked, evidence)),
    )
    for row_id, check in checks:
        detail = check()
        if detail is not None:
            return (
                f"{row_id}: missing {_ROW[row_id].missing} ({detail}): not evidence, refute "
                "(seed 003: independently re-open the cited evidence)"
            )
    return None
