"""Whether a verifier's ``whatIChecked`` is a narrative instead of evidence (SPEC §9).

Room ``quorum``, pure functions (standard library and :mod:`.restatement`); no I/O. Seed
``003_0245072c02421c57.txt``, "What counts as reproducing evidence": the row
``"It is well known that…" | Not evidence. Refute``, and below it: "A finding whose
evidence is a plausible narrative refutes. Plausibility is what the miner already
supplied". An upheld verdict whose ``whatIChecked`` only tells a story (common knowledge,
belief, the miner's own word) therefore counts as a refutation, never as support
(:func:`gentle_hooks.quorum.votes.classify_verdict`).

The rule is deterministic: a ``whatIChecked`` is narrative when it holds one of the markers
of :data:`NARRATIVE_ROWS` (the seed's ``It is well known that…`` and its paraphrases: "as
is well known", "it is generally accepted", "widely accepted", "needless to say"...)
*and* shows nothing re-opened that the claim did not already cite
(:func:`~gentle_hooks.quorum.restatement.reproduced_evidence`: a ``file:line``, a
``command`` in backticks, a verbatim quote). A verifier that re-opened
``workflow.js:142`` and adds "probably" is still citing what it opened; one that says "as
is well known, scheduler.py has no cap" names a file, not what it found there.
"""

from __future__ import annotations

import re
from typing import Final

from gentle_hooks.quorum.completed import COMMAND_RESULT, PROTECTED
from gentle_hooks.quorum.restatement import cited_evidence, reproduced_evidence
from gentle_hooks.values.frozen import frozen


@frozen
class NarrativeRow:
    """One kind of narrative: a stable id, what it is in words, its markers (a regex
    searched in the case-folded text, whole words), and whether evidence the verifier
    re-opened beside it saves the verdict (a hedge beside a citation does; an appeal to
    common knowledge or to the miner's word does not: the citation is then the miner's)."""

    id: str
    what: str
    pattern: re.Pattern[str]
    cited_saves: bool = True


def _words(*phrases: str) -> re.Pattern[str]:
    body = "|".join(p.replace(" ", r"[\s-]+") for p in phrases)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


#: Seed 003 "What counts as reproducing evidence", the ``"It is well known that…"`` row and
#: "a plausible narrative refutes", as data; every row refutes.
NARRATIVE_ROWS: Final[tuple[NarrativeRow, ...]] = (
    NarrativeRow(
        "N1",
        "an appeal to common knowledge",
        _words(
            "well known",
            "widely known",
            "commonly known",
            "common knowledge",
            "everyone knows",
            "everybody knows",
            "as we all know",
            "as is known",
            "it is known",
            "known fact",
            "generally accepted",
            "goes without saying",
            "needless to say",
            "self evident",
            "common sense",
            "experience shows",
            "experience tells",
            "standard knowledge",
            "general knowledge",
            "widely accepted",
            "commonly accepted",
            "broadly accepted",
            "universally accepted",
            "generally known",
            "generally agreed",
            "widely recognized",
            "widely recognised",
            "widely understood",
            "widely believed",
            "well established",
            "well documented",
            "well understood",
            "common wisdom",
            "conventional wisdom",
            "everyone is aware",
            "everybody is aware",
            "as everyone knows",
            "it stands to reason",
            "known issue",
            "known problem",
            "known limitation",
            "known bug",
            "standard practice",
        ),
        cited_saves=False,
    ),
    NarrativeRow(
        "N2",
        "a belief or a likelihood, not an observation",
        _words(
            "i believe",
            "i think",
            "i assume",
            "i suspect",
            "i expect",
            "i trust",
            "i guess",
            "presumably",
            "probably",
            "most likely",
            "likely",
            "in my experience",
            "typically",
            "usually",
            "in general",
            "should be",
            "must be",
            "would be",
            "seems",
            "appears to",
            "i am confident",
            "i'm confident",
            "i am sure",
            "i'm sure",
            "plausible",
            "given typical",
            "in my opinion",
            "in my view",
            "i'd bet",
            "i would bet",
            "i bet",
            "i am certain",
            "i'm certain",
            "from experience",
            "textbook case",
            "nothing to check",
            "anyone familiar",
        ),
    ),
    NarrativeRow(
        "N3",
        "the miner's own word taken as evidence",
        _words(
            "according to the miner",
            "according to the finding",
            "according to the claim",
            "according to the summary",
            "according to the report",
            "as the miner says",
            "as the miner said",
            "as the finding says",
            "as the finding states",
            "as the claim says",
            "as claimed",
            "as stated",
            "as reported",
            "trusted the miner",
            "trust the miner",
            "took the miner",
            "the miner says",
            "the miner said",
            "the miner's citation",
            "trusting the miner",
            "trusting the finding",
            "trusting the claim",
            "per the miner",
            "per the finding",
            "per the claim",
            "per the report",
            "the summary",
            "submitted evidence",
            "face value",
            "the miner already",
            "the miner showed",
            "the miner reported",
            "miner's reading",
            "as the miner reported",
        ),
        cited_saves=False,
    ),
    NarrativeRow(
        "N4",
        "a hedge of certainty, not an observation",
        _words(
            "obviously",
            "of course",
            "by definition",
            "clearly",
            "evidently",
            "undoubtedly",
            "no doubt",
        ),
    ),
    NarrativeRow(
        "N5",
        "an appeal to documentation without opening it",
        _words(
            "per the docs",
            "per the documentation",
            "per the spec",
            "per the manual",
            "according to the docs",
            "according to the documentation",
            "according to the spec",
            "according to the manual",
            "the docs say",
            "the docs state",
            "the docs note",
            "the documentation says",
            "the documentation states",
            "the manual says",
            "the spec says",
            "as documented",
            "documented behaviour",
            "documented behavior",
        ),
    ),
    NarrativeRow(
        "N6",
        "an appeal to design or intent, not an observation",
        _words(
            "by design",
            "as designed",
            "as intended",
            "working as intended",
            "works as intended",
            "intended behaviour",
            "intended behavior",
            "on purpose",
            "deliberately so",
        ),
    ),
)


def narrative_reason(
    what_i_checked: str, claim: str | None, evidence: str | None = None
) -> str | None:
    """Why ``what_i_checked`` is a narrative, not evidence; None when it is not one.

    Args:
        what_i_checked: the verifier's ``whatIChecked``.
        claim: the finding's claim (evidence the claim already cites is not new).
        evidence: the part of ``what_i_checked`` whose citations may save a hedge
            (default all of it; the parts reporting a failed check cite nothing,
            :mod:`gentle_hooks.quorum.failure`).

    Returns:
        ``"narrative evidence (N1 an appeal to common knowledge: 'well known'): not
        evidence, refute (seed 003)"`` for the first matching row of
        :data:`NARRATIVE_ROWS`; a row whose ``cited_saves`` is set matches only when the
        text shows nothing re-opened of its own (no ``file:line``, backticked command or
        quote). Else None.
    """
    text = " ".join(what_i_checked.casefold().split())
    for row in NARRATIVE_ROWS:
        found = row.pattern.search(text)
        if found is None:
            continue
        shown = what_i_checked if evidence is None else evidence
        if row.cited_saves and reproduced_evidence(shown, claim):
            return None
        return (
            f"narrative evidence ({row.id} {row.what}: {found.group(0)!r}): not evidence, "
            "refute (seed 003)"
        )
    return None


#: Verbs that state an act of checking a verifier performs itself (seed 003 "What counts
#: as reproducing evidence": "Open it", "Re-run the query or the grep", "Found verbatim in
#: the cited source"), matched as whole words in the case-folded text. Words for what
#: the miner did or what was handed over ("showed", "reported", "trusting", "taken") are
#: not among them.
ACT_VERBS: Final[re.Pattern[str]] = _words(
    "open",
    "opened",
    "opening",
    "reopened",
    "re opened",
    "ran",
    "run",
    "running",
    "reran",
    "re ran",
    "rerun",
    "re run",
    "executed",
    "execute",
    "grep",
    "grepped",
    "grepping",
    "searched",
    "search",
    "read",
    "counted",
    "count",
    "traced",
    "trace",
    "inspected",
    "compared",
    "diffed",
    "queried",
    "query",
    "built",
    "compiled",
    "loaded",
    "fetched",
    "listed",
    "replayed",
    "stepped",
    "measured",
    "invoked",
    "called",
    "checked out",
    "printed",
    "logged",
    "tested",
    "found",
    "located",
)


def unchecked_reason(what_i_checked: str, claim: str | None) -> str | None:
    """Why an upheld ``what_i_checked`` states no act of checking with what it observed;
    None when it does (seed 003: "A verifier that only reads the finding is an opinion
    generator"; "Do not trust the miner's reading"; ``"It is well known that…"`` | Not
    evidence. Refute).

    An upheld verdict counts as support only when it says what the verifier did (one of
    :data:`ACT_VERBS`: opened, ran, grepped, read, counted...) *and* what it saw that the
    claim did not already cite
    (:func:`~gentle_hooks.quorum.restatement.cited_evidence`: a ``file:line``, path, file
    name, ``command``, quote or number beyond the claim's). Certainty, experience, a
    reading of the summary or the miner's citations taken at face value state no act of
    the verifier's own with an observation, however they are worded.

    Returns:
        ``"no act of checking ...: not evidence, refute (seed 003)"``, or None.
    """
    text = " ".join(what_i_checked.casefold().split())
    acted = ACT_VERBS.search(text) is not None
    seen = bool(cited_evidence(what_i_checked, claim))
    if acted and seen:
        return None
    missing = (
        "no act of checking the verifier performed"
        if not acted
        else "no observation beyond what the claim cites"
    )
    return (
        f"{missing} (say what was opened or run, and what it showed): not evidence, "
        "refute (seed 003)"
    )


def _states_act(what_i_checked: str) -> bool:
    """Whether ``what_i_checked`` states an act of checking outside what it quotes or puts
    in backticks: one of :data:`ACT_VERBS`, or a backticked command followed by what it
    gave (```grep -c x log`` printed 41`, :data:`~.completed.COMMAND_RESULT`)."""
    folded = what_i_checked.replace("\u2019", "'").casefold()
    if any(COMMAND_RESULT.search(part) for part in re.split(r"[.;!?\n]\s*", folded)):
        return True
    return ACT_VERBS.search(" ".join(PROTECTED.sub(" ", folded).split())) is not None


def unacted_reason(what_i_checked: str, claim: str | None) -> str | None:
    """Why ``what_i_checked`` is a bare citation, no account of a check; None when it is
    not one.

    Seed 003 "What counts as reproducing evidence": a file and line is reproduced when the
    verifier opened it, a count when it re-ran the query, a quote when it found it
    verbatim; "Independently re-open the cited evidence". A ``whatIChecked`` that cites
    evidence beyond the claim (:func:`~.restatement.cited_evidence`: a ``file:line``,
    path, file name, ``command``, quote) but states no act of checking outside its quotes
    and backticks (:func:`_states_act`: no "opened", "ran", "grepped", "read", "found"...,
    no ```cmd`` printed N`) names where evidence is, not that anyone looked
    (``app.py:12 `return x```): no evidence, as a restatement is.

    Returns:
        ``"whatIChecked names no act of checking: it cites app.py:12, `return x` but does
        not say it opened, ran, grepped or read them ..."``, or None (no citation, or an
        act is stated).
    """
    cited = [
        t
        for t in cited_evidence(what_i_checked, claim)
        if not t.replace(",", "").replace(".", "").isdigit()
    ]
    if not cited or _states_act(what_i_checked):
        return None
    shown = ", ".join(dict.fromkeys(t for t in cited if not any(t != u and t in u for u in cited)))
    shown = shown if len(shown) <= 80 else shown[:79] + "\u2026"
    return (
        f"whatIChecked names no act of checking: it cites {shown} but does not say it "
        "opened, ran, grepped or read them (seed 003: independently re-open the cited "
        "evidence)"
    )
