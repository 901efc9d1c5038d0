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

from gentle_hooks.quorum.restatement import reproduced_evidence
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
)


def narrative_reason(what_i_checked: str, claim: str | None) -> str | None:
    """Why ``what_i_checked`` is a narrative, not evidence; None when it is not one.

    Args:
        what_i_checked: the verifier's ``whatIChecked``.
        claim: the finding's claim (evidence the claim already cites is not new).

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
        if row.cited_saves and reproduced_evidence(what_i_checked, claim):
            return None
        return (
            f"narrative evidence ({row.id} {row.what}: {found.group(0)!r}): not evidence, "
            "refute (seed 003)"
        )
    return None
