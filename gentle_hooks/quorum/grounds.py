"""Whether an upheld ``whatIChecked`` re-opened the cited evidence itself (SPEC §9).

Room ``quorum``, pure functions (standard library, :mod:`gentle_hooks.policy.nocheck`,
:mod:`.restatement`, :mod:`.narrative`, :mod:`.completed`, :mod:`.copies`,
:mod:`.readings`); no I/O. Seed
``003_0245072c02421c57.txt``, the contract: "Independently re-open the cited evidence. Do
not trust the miner's reading of it"; "Uphold ONLY if you re-opened the evidence yourself
and it reproduces"; "A verifier that only reads the finding is an opinion generator". An
upheld verdict that names an act of checking can still have checked nothing;
:data:`GROUND_ROWS` are those ways, as data, each a refutation (``overruled`` says what is
missing), never support:

* ``G-negated`` — the act is denied, taken back or imaginary, anywhere in the text:
  "Opened nothing; …", "Opened workflow.js:142 (did not actually)", "… in my head", "Did
  not open anything. Opened workflow.js:142: …", "Opened workflow.js:142 — just kidding, I
  didn't: …", a file the text says it opened and also says it did not open; a make-believe
  frame or a retraction after the act (:func:`~.readings.framed`, :func:`~.readings.retracted`:
  "Pretend I opened", "(simulated)", "Edit: actually …", "My bad").
* ``G-hedged`` — the act or what it showed is a guess or a belief, not a report: "Guessed:
  opened workflow.js:142 …", "Opened workflow.js:142, or at least I think so: …", "if I
  recall", "I may have opened" (seed 003 "Default to refuted when uncertain"); the reading
  passed on from someone else or guessed (:func:`~.readings.attributed`,
  :func:`~.readings.modal`: "according to the writer", "We ran", "seems", "may", a
  trailing ``?``).
* ``G-finding`` — what was opened or read is the finding or a copy of the evidence, not
  the evidence: "Opened the miner's finding: …", "Read the writer's transcript / the PR
  description: …"; a reading act whose object is read through a copy (:data:`_VIA_COPY`:
  "Read workflow.js:142 as quoted in the finding", "… in the transcript", "… in the task
  description", "… in the miner's paste") or is a copy of the file (:data:`_COPY_HEAD`:
  "Read the miner's excerpt of workflow.js:142", "the quoted snippet of …"). A file the
  copy only points to ("Opened workflow.js:142 cited in the finding", "… as the miner's
  report cites") was opened itself; running a command taken from the task description
  ran it; finding a quote in the cited file is the seed's "A quote | Found verbatim".
  Another container, tree or version than the candidate's, or a second-hand account
  (:func:`~.copies.copy_of`: "from the tarball the writer sent", "in the Jira ticket", "in
  a stale checkout", "in an earlier draft", "before the rebase", "in the work tree", "the
  commit message, which says …", "the changelog entry for …") is a copy too.
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
from gentle_hooks.quorum.completed import PROTECTED
from gentle_hooks.quorum.copies import FINDING, copy_of
from gentle_hooks.quorum.narrative import ACT_VERBS
from gentle_hooks.quorum.readings import attributed, framed, modal, retracted
from gentle_hooks.quorum.restatement import named_files, reproduced_evidence
from gentle_hooks.values.frozen import frozen


@frozen
class GroundRow:
    """One way an upheld check checked nothing: a stable id and what is missing, in words."""

    id: str
    missing: str


#: The rows, in the order they are tried; every one refutes an upheld verdict.
GROUND_ROWS: Final[tuple[GroundRow, ...]] = (
    GroundRow("G-negated", "an act that happened (it denies or takes back the act)"),
    GroundRow("G-hedged", "an act reported as fact (it hedges: a guess is no evidence)"),
    GroundRow(
        "G-finding", "a re-opening of the evidence (it read the finding or a copy, an opinion)"
    ),
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
    | {"N-version", "N-files"}
)


def _phrases(*items: str) -> re.Pattern[str]:
    body = "|".join(p.replace(" ", r"\s+") for p in items)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


#: Reading acts, bare and in the past tense: their denial is a denial of a re-opening.
_READ_VERB: Final = (
    r"(?:open|run|read|check|look at|look|grep|execute|inspect|view|examine|re-?open)"
)
_READ_PAST: Final = (
    r"(?:opened|ran|read|checked|looked at|looked|grepped|executed|inspected|viewed|examined"
    r"|re-?opened)"
)

_NEGATED: Final = _phrases(
    r"(?:opened|ran|read|checked|grepped|inspected|ran|executed|looked at|re-?opened) nothing",
    r"nothing (?:was )?(?:opened|run|read|checked|executed|re-?opened)",
    r"did not actually",
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
    r"just kidding",
    r"only kidding",
    r"(?:i'm|i am) kidding",
    r"jk",
    r"j/k",
    r"scratch that",
    r"strike that",
    r"(?:i|we) (?:was|were) wrong",
    r"(?:i|we) retract",
    r"retracted",
    r"(?:i|we) take (?:that|it|this|it all) back",
    r"never ?mind",
    r"on second thought",
    r"correction:",
    r"(?:ignore|disregard) (?:the above|that|this|all (?:of )?(?:the above|that|this))",
    r"(?:i|we) lied",
    r"(?:that|this|it) (?:was|is|'s) a lie",
    r"(?:i|we) made (?:it|that|this|all of (?:it|that)) up",
    r"(?:i|we) (?:made up|invented|fabricated|faked)",
    rf"did not (?:actually |really |even )?{_READ_VERB} "
    r"(?:anything|any\w*|nothing|it|that|this|them)",
    rf"(?:i|we) (?:never|have not|had not) (?:actually |really |even )?{_READ_PAST} "
    r"(?:anything|any\w*|nothing|it|that|this|them)",
    r"(?:i|we) (?:did not|have not|had not|never did)(?: (?:actually|really|do (?:it|that|so)))?"
    r"(?=\s*(?:[.,;:!?)\u2014-]|$))",
    r"in my memory",
    r"from my memory",
    r"(?:i|we) (?:was|were|am|are|'m|'re) mistaken",
    r"(?:please )?disregard(?: (?:it|this|that|the above|my \w+|everything))?",
    r"(?:i|we) (?:misread|misspoke|misremembered|mixed up)",
    r"(?:that|this|it) (?:was|is|'s) (?:a |the )?(?:different|wrong|another) (?:file|line|repo\w*)",
    r"wrong (?:file|line|repo\w*)",
    # a sentence of "Not." alone after a claim (the claim taken back)
    r"(?<=[.!;]) not(?=\s*[.!]?\s*$)",
)
_HEDGED: Final = _phrases(
    r"guessed",
    r"guessing",
    r"(?:i|we) guess",
    r"(?:i|we)'d (?:guess|say|think|imagine|assume)",
    r"(?:my|our|a|best|at a) guess",
    r"(?:i|we) (?:think|believe|suppose|reckon|assume|assumed|presume|presumed|imagine)",
    r"(?:i'm|i am|we're|we are) not (?:sure|certain)",
    r"not (?:sure|certain) (?:if|whether|that|i|we)",
    r"unsure",
    r"if (?:i|we) (?:recall|remember)(?: correctly| right)?",
    r"if memory serves",
    r"as far as (?:i|we) (?:recall|remember|know|can tell)",
    r"iirc",
    r"afaik",
    r"afair",
    r"(?:pretty|fairly|quite|almost) sure",
    r"presumably",
    r"reportedly",
    r"afaict",
    r"(?:i|we) suspect",
    r"allegedly",
    r"supposedly",
    r"\(?unverified\)?",
    r"(?:or so )?(?:i|we) (?:was|were|have been|'ve been) told",
    r"(?:i|we) (?:heard|hear)",
    # "likely" stating the result ("the loop likely has"), not naming a cause ("the likely cause")
    r"likely (?:has|have|is|are|does|do|contains|lacks|misses|was|were|had|holds|runs|calls)",
    r"(?:i|we) (?:may|might|must|could) have",
    rf"(?:probably|maybe|perhaps|possibly|likely) {_READ_PAST}",
    r"maybe (?:i|we)",
    r"\(?(?:probably|maybe|perhaps|possibly)\)?(?=\s*(?:[),:;.\u2014]|$))",
)

_OBJECT_END: Final = re.compile(r"(?<![\w.]):|:(?!\d)|[\u2014]|\s--?\s|->|=>")
_CLAUSE: Final = re.compile(r"[;\n]|\.(?=\s|$)")
_BACKTICKS: Final = re.compile(r"`([^`]+)`")


def _fold(text: str) -> str:
    return text.replace("\u2019", "'").casefold()


def _act_objects(text: str) -> list[tuple[str, str]]:
    """Per act of checking outside backticks, its verb and what it is on: the text after
    the verb up to the first separator of a result (a ``:`` that is not a ``file:line``'s,
    a dash or an arrow; backticked commands kept)."""
    found: list[tuple[str, str]] = []
    for clause in _CLAUSE.split(_fold(text)):
        masked = _BACKTICKS.sub(lambda m: " " * len(m.group(0)), clause)
        for act in ACT_VERBS.finditer(masked):
            rest = clause[act.end() :]
            end = _OBJECT_END.search(rest)
            found.append((act.group(0), rest[: end.start()] if end else rest))
    return found


def _file_of(name: str) -> str:
    """``src/workflow.js:142`` is ``workflow.js``."""
    return name.split(":", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _said(what_i_checked: str) -> str:
    """The words the verifier said: case-folded, ``n't`` expanded, quotes and backticked
    commands blanked (their words are cited, not said), whitespace collapsed."""
    text = PROTECTED.sub(" ", what_i_checked.replace("\u2019", "'"))
    return " ".join(re.sub(r"n't\b", " not", text.casefold()).split())


_DENIED_OBJECT: Final = re.compile(
    rf"(?:did not|never|have not|had not) (?:actually |really |even )?"
    rf"(?:{_READ_VERB}|{_READ_PAST})\s+(?P<object>[^\s,;]+)"
)


def _negated(what_i_checked: str) -> str | None:
    said = _said(what_i_checked)
    found = _NEGATED.search(said)
    if found is not None:
        return f"{found.group(0)!r}"
    for reading in (framed, retracted):
        words = reading(said)
        if words is not None:
            return f"{words!r}"
    for denied in _DENIED_OBJECT.finditer(said):
        files = {_file_of(n) for n in named_files(denied.group("object"))}
        elsewhere = said[: denied.start()] + " " + said[denied.end() :]
        if files & {_file_of(n) for n in named_files(elsewhere)}:
            return f"{denied.group(0)!r}"
    return None


def _hedged(what_i_checked: str) -> str | None:
    said = _said(what_i_checked)
    found = _HEDGED.search(said)
    words = found.group(0) if found is not None else attributed(said) or modal(said)
    return None if words is None else f"{words!r}"


def _finding_only(what_i_checked: str) -> str | None:
    """The finding or copy an act was on, when every act that names a file or a command
    reads it through a copy and no other does (acts on nothing named are not counted)."""
    on_finding: list[str] = []
    for verb, thing in _act_objects(what_i_checked):
        copy = copy_of(verb, thing)
        if copy is not None:
            on_finding.append(copy)
            continue
        if named_files(thing) or "`" in thing:
            return None
        named = FINDING.search(thing)
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
        ("G-hedged", lambda: _hedged(what_i_checked)),
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
