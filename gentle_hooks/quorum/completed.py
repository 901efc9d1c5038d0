"""Whether an upheld verdict reports a completed observation (SPEC §9).

Room ``quorum``, pure functions (standard library and :mod:`.restatement`); no I/O. Seed
``003_0245072c02421c57.txt``: "Uphold ONLY if you re-opened the evidence yourself and it
reproduces"; "A finding whose evidence is a plausible narrative refutes"; "A verifier that
errored, timed out ... has produced no evidence". Support is a positive form, not the
absence of bad phrases: an upheld ``whatIChecked`` counts only when one of its sentences
(:func:`observation_sentences`) is a *completed observation*:

1. an act of the verifier's, in the past tense (:data:`PAST_ACTS`: opened, ran, re-ran,
   grepped, read, counted ...), or a command reported with what it gave (```grep ...``
   printed 3``);
2. stated as what happened: no condition, plan or queue governs it (:data:`PROSPECTIVE`:
   "If I opened ... I expect", "TODO", "next", "will", "queued" before the act in its
   clause); "ran out of time" is no act;
3. naming what was opened or run (a ``file:line``, path, file name, backticked command,
   quote or number: :func:`~gentle_hooks.quorum.restatement.cited_evidence`);
4. with a result after the act: a colon, dash or arrow followed by words, or a word of what
   was seen (:data:`RESULT_WORDS`: found, showed, printed, returned, is, has, no ...), or
   an act that is itself a result (found, saw, counted ...);
5. finished: the sentence does not say the run was stopped before it completed
   (:data:`STOPPED`: SIGKILL, exit 137, interrupted, aborted, ran out of time ...), unless
   the claim itself is about such a stop.

:func:`incomplete_reason` says why a text holds no such sentence, and whether the verdict
then refutes (nothing observed: narrative) or abstains (a run that was stopped: "errored"
is no evidence either way).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from gentle_hooks.quorum.restatement import cited_evidence

Outcome = Literal["abstain", "refute"]

#: Quotes and backticked commands: their words are what was cited, not what was said.
PROTECTED: Final = re.compile(
    r"`[^`]*`|\"[^\"]*\"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|(?<!\w)'[^'\n]*'(?!\w)"
)
#: Sentence ends (a dot only before whitespace or the end: ``workflow.js`` is one word).
_SENTENCE: Final = re.compile(r"[.!?](?=\s|$)|\n")

#: Acts of checking, in the past tense (``ran out`` of something is no act).
PAST_ACTS: Final = re.compile(
    r"\b(?:re-?)?(?:opened|ran(?!\s+out\b)|executed|grepped|searched|read|counted|traced|"
    r"inspected|examined|viewed|compared|diffed|queried|built|compiled|loaded|fetched|"
    r"listed|replayed|stepped\s+through|measured|invoked|called|checked|tested|found|"
    r"located|looked\s+(?:at|into|through)|reproduced|observed|saw|printed|started|"
    r"launched|triggered|rebuilt|scanned|parsed|decoded|dumped)\b"
    r"|\bdid\s+not\s+(?:see|find|get|spot)\b"
)
#: A command as the subject of what it gave: ```grep -c x log`` printed 41`.
COMMAND_RESULT: Final = re.compile(
    r"^\s*`[^`]+`\s+(?:shows?|showed|prints?|printed|returns?|returned|gives?|gave|"
    r"outputs?|exit(?:s|ed)|lists?|listed|reports?|reported|yields?|yielded|match(?:es|ed)|"
    r"finds|found|fails?|failed|passe[sd]|succeeded)\b"
)
#: Acts whose object is what was seen.
_SEEING: Final = re.compile(
    r"\b(?:found|saw|counted|observed|measured|located|did\s+not\s+(?:see|find|get|spot))\b"
)
#: Words of a condition, a plan or a queue: an act after one of them in its clause did not
#: happen ("If I opened ... I expect", "TODO: run", "planned to open", "is queued").
PROSPECTIVE: Final = re.compile(
    r"\b(?:if|unless|once|until|todo|to-do|next|will|would|shall|should|could|might|"
    r"going\s+to|plan(?:s|ned)?\s+to|intend(?:s|ed)?\s+to|want(?:s|ed)?\s+to|queued|"
    r"pending|later|expect(?:s|ed)?)\b"
)
#: What shows a result after the act.
RESULT_WORDS: Final = re.compile(
    r"\b(?:found|saw|seen|shows?|showed|shown|prints?|printed|returns?|returned|gives?|gave|"
    r"got|lists?|listed|says|said|reads|contains?|contained|has|had|is|was|were|are|"
    r"exists?|existed|match(?:es|ed)?|hits?|exit(?:s|ed)|outputs?|yield(?:s|ed)|"
    r"reports?|reported|fail(?:s|ed)|pass(?:es|ed)|succeeded|crashed|raised|threw|"
    r"spawn(?:s|ed)|ran\s+out|no|none|nothing|lacks|lacked|missing|never|not)\b"
)
#: A separator before what was seen: ``opened a.py:3: the loop spawns``, ``-- no cap``.
_SEPARATOR: Final = re.compile(r"(?::|\s--?\s|\u2014|->|=>|=)\s*\w")
#: Words saying the run was stopped before it completed (a signal, exit 128+N, an
#: interruption, no time left).
STOPPED: Final = re.compile(
    r"\bsig(?:kill|term|int|hup|quit)\b|\bkilled\b|\bexit(?:ed)?\s+(?:with\s+)?"
    r"(?:status\s+|code\s+)?1(?:29|3\d|4[0-3])\b|\binterrupted\b|\baborted\b|"
    r"\bterminated\b|\bcancell?ed\b|\b(?:ran|run)\s+out\s+of\s+time\b|\bhalted\b|"
    r"\bdid\s+not\s+(?:finish|complete)\b|\bnever\s+(?:finished|completed)\b|"
    r"\bbefore\s+it\s+(?:finished|completed)\b|\bcut\s+short\b"
)


def protected_split(text: str, cut: re.Pattern[str]) -> list[str]:
    """``text`` cut at each match of ``cut`` outside quotes and backticked commands (a
    :data:`PROTECTED` span is never cut), each part stripped; parts of nothing but
    punctuation are dropped."""
    masked = PROTECTED.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    parts, start = [], 0
    for match in cut.finditer(masked):
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip(" \t\n.,;:!?-\u2014()")]


def observation_sentences(text: str) -> list[str]:
    """``text`` cut into sentences (quotes and commands kept whole)."""
    return protected_split(text, _SENTENCE)


def _masked(sentence: str) -> str:
    """The sentence case-folded, quotes and commands blanked to `` ` ` ``, contractions of
    "not" expanded."""
    text = PROTECTED.sub(" `` ", sentence.replace("\u2019", "'")).casefold()
    text = re.sub(r"n't\b", " not", text)
    return " ".join(text.split())


def _stopped(sentence: str, claim: str | None) -> bool:
    found = STOPPED.search(_masked(sentence))
    if found is None:
        return False
    return not (claim and STOPPED.search(_masked(claim)) is not None)


def _completed(sentence: str) -> bool:
    """Points 1 to 4 of the module docstring for one sentence (not 5)."""
    text = _masked(sentence)
    if not cited_evidence(sentence, None):
        return False
    if COMMAND_RESULT.search(sentence.replace("\u2019", "'").casefold()):
        return True
    for act in PAST_ACTS.finditer(text):
        clause = re.split(r"[,;]|\bthen\b|\bbut\b|\band\b", text[: act.start()])[-1]
        if PROSPECTIVE.search(clause):
            continue
        after = text[act.end() :]
        if _SEEING.fullmatch(act.group(0)) and re.search(r"\w", after):
            return True
        if _SEPARATOR.search(after) or RESULT_WORDS.search(after):
            return True
    return False


def incomplete_reason(what_i_checked: str, claim: str | None) -> tuple[str, Outcome] | None:
    """Why an upheld ``what_i_checked`` reports no completed observation, and what the
    verdict counts as; None when one of its sentences is one (module docstring).

    Returns:
        ``("... (seed 003)", "abstain")`` when a sentence reports an act that was stopped
        before it completed and none completed; ``(..., "refute")`` when no sentence is an
        observation at all (a plan, a condition, a queue, an act with no result).
    """
    sentences = observation_sentences(what_i_checked)
    stopped = [s for s in sentences if _stopped(s, claim)]
    if any(_completed(s) for s in sentences if s not in stopped):
        return None
    if any(_completed(s) for s in stopped):
        first = " ".join(stopped[0].split())
        first = first if len(first) <= 80 else first[:79] + "\u2026"
        return (
            f"the run did not complete ({first!r}): a stopped run produced no evidence, "
            "abstain (seed 003)",
            "abstain",
        )
    return (
        "no completed observation (say what you opened or ran, in the past tense, and what "
        "it showed): not evidence, refute (seed 003)",
        "refute",
    )
