"""Whether an upheld verdict reports a completed observation (SPEC §9).

Room ``quorum``, pure functions (standard library, :mod:`.own_act` and :mod:`.restatement`);
no I/O. Seed ``003_0245072c02421c57.txt``: "Uphold ONLY if you re-opened the evidence
yourself and it reproduces"; "A finding whose evidence is a plausible narrative refutes";
"A verifier that errored, timed out ... has produced no evidence". Support is a positive
form, not the absence of bad phrases: an upheld ``whatIChecked`` counts only when one of
its sentences (:func:`observation_sentences`) is a *completed observation*:

1. an act of the verifier's, in the past tense (:data:`PAST_ACTS`: opened, ran, re-ran,
   grepped, read, counted ...), or a command reported with what it gave (```grep ...``
   printed 3``); an act is the verifier's own when it has no subject ("Opened ...",
   "Ran ...") or the first person ("I opened", "I've opened"), never when its subject is
   someone else (:func:`~.own_act.act_subject`: "The miner opened", "A colleague ran",
   "Alice opened", a name in any case, "bob ran", "codex ran", "gpt-4o ran", "o4-mini
   opened": seed 003 "Do not trust the miner's reading of it"); "the loop called
   ``spawn()``" is neither, it is what code does (:func:`~.own_act.code_behaviour`: a noun
   of code acting on code);
2. stated as what happened: no condition, plan or queue governs it (:data:`PROSPECTIVE`:
   "If I opened ... I expect", "TODO", "next", "will", "queued" before the act in its
   clause); "ran out of time" is no act; and in this run: an act the sentence places at
   another time or in another review, run or branch (:func:`~.own_act.elsewhere`:
   "Opened the file last week in another review", "I previously ran") is not this run's
   evidence;
3. naming what was opened or run (a ``file:line``, path, file name, backticked command,
   quote or number: :func:`~gentle_hooks.quorum.restatement.cited_evidence`);
4. with a result after the act's object (:func:`act_result`; the object is the first
   ``file:line``, path, file name or backticked command after the verb, and the colon of
   ``workflow.js:142`` is part of it): a colon, dash or arrow followed by words, a word of
   what was seen (:data:`RESULT_WORDS`: found, showed, printed, returned, is, has, no ...)
   or a quote of what is there, or an act that is itself a result (found, saw, counted
   ...); a result that only restates a verdict (:data:`VERDICT_WORDS`: "LGTM", "the claim
   holds", "looks good", "as claimed", "confirmed") is none;
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

from gentle_hooks.quorum.own_act import (
    FILE_LINE_COLON,
    OBJECT,
    act_subject,
    code_behaviour,
    elsewhere,
)
from gentle_hooks.quorum.restatement import cited_evidence, new_words

Outcome = Literal["abstain", "refute"]

#: Quotes and backticked commands: their words are what was cited, not what was said.
PROTECTED: Final = re.compile(
    r"`[^`]*`|\"[^\"]*\"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|(?<!\w)'[^'\n]*'(?!\w)"
)
#: Sentence ends (a dot only before whitespace or the end: ``workflow.js`` is one word; a
#: line break after ``;``, ``:`` or ``,`` continues the sentence).
_SENTENCE: Final = re.compile(r"[.!?](?=\s|$)|(?<![;:,\s])\s*\n")

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


#: Words of a result that only restates a verdict ("LGTM", "the claim holds", "looks good",
#: "as claimed", "confirmed"), beside :data:`~.restatement.FILLER_WORDS`: a result needs a
#: word, number or quote beyond them.
VERDICT_WORDS: Final = frozenset(
    {"lgtm", "sgtm", "ack", "looks", "confirms", "confirming", "agrees", "agreeing", "matches"}
    | {"stands", "expected", "described", "verdict", "support", "supports", "upholds"}
    | {"reproducible", "verifiable", "accurate", "claimed", "proven", "proved", "approve"}
    | {"approved", "approves"}
)


def act_result(after: str, seeing: bool = False) -> bool:
    """Whether ``after`` (the masked text after an act's verb, :func:`_masked`) holds a
    result: past the act's object (:data:`~.own_act.OBJECT`, unless the act is itself one of seeing,
    ``seeing``), a separator, a word of :data:`RESULT_WORDS` or a quote, then a word,
    number or quote beyond :data:`~.restatement.FILLER_WORDS` and :data:`VERDICT_WORDS`
    (a ``file:line``'s colon is no separator)."""
    rest = after
    if not seeing:
        found = OBJECT.match(rest)
        rest = rest[found.end() :] if found is not None else rest
    rest = FILE_LINE_COLON.sub(" ", rest)
    quoted = "``" in rest
    if seeing:
        start = 0 if re.search(r"\w", rest) or quoted else -1
    else:
        marks = [m.start() for m in (_SEPARATOR.search(rest), RESULT_WORDS.search(rest)) if m]
        marks += [rest.index("``")] if quoted else []
        start = min(marks) if marks else -1
    if start < 0:
        return False
    result = rest[start:]
    if "``" in result or re.search(r"\d", OBJECT.sub(" ", result)):
        return True
    return bool(new_words(OBJECT.sub(" ", result), None) - VERDICT_WORDS)


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


def _masked(sentence: str, fold: bool = True) -> str:
    """The sentence case-folded (unless ``fold`` is False), quotes and commands blanked to
    `` ` ` ``, contractions of "not" expanded."""
    text = PROTECTED.sub(" `` ", sentence.replace("\u2019", "'"))
    text = re.sub(r"n't\b", " not", text.casefold() if fold else text)
    return " ".join(text.split())


def _stopped(sentence: str, claim: str | None) -> bool:
    found = STOPPED.search(_masked(sentence))
    if found is None:
        return False
    return not (claim and STOPPED.search(_masked(claim)) is not None)


def _result_before(before: str) -> bool:
    """Whether the act's clause starts with its result, put before it behind a separator
    ("the loop does not check the budget: opened a.py:3")."""
    text = FILE_LINE_COLON.sub(" ", before).rstrip()
    cut = len(text) - len(text.rstrip(":-\u2014"))
    result = text[:-cut] if 0 < cut <= 2 else ""
    if "``" in result:
        return False
    return bool(new_words(result, None) - VERDICT_WORDS - {"step", "first", "then"})


_SUBJECT_CUT: Final = re.compile(r"([,;:]|\bthen\b|\bbut\b|\band\b)")


def _subject_words(head: str) -> str:
    """The words of an act's clause before its verb, ``head`` being the masked text before
    the verb: cut at the last ``,``, ``;``, ``:``, "then", "but" or "and"; when that leaves
    nothing after a bare "then", the words before it in their clause with it ("bob then
    ran": ``"bob then "``), unless they hold an act of their own ("Opened x then ran")."""
    parts = _SUBJECT_CUT.split(head)
    if parts[-1].strip() or len(parts) < 3 or parts[-2] != "then":
        return parts[-1]
    subject = parts[-3]
    if not subject.strip() or PAST_ACTS.search(subject):
        return parts[-1]
    return "".join(parts[-3:])


def _completed(
    sentence: str, others: list[str] | None = None, outside: list[str] | None = None
) -> bool:
    """Points 1 to 4 of the module docstring for one sentence (not 5). An act with a
    result whose subject is someone else (:func:`~.own_act.act_subject`) is appended to
    ``others`` ("the miner opened"), one placed outside this run
    (:func:`~.own_act.elsewhere`) to ``outside`` ("opened last week"); neither counts."""
    text = _masked(sentence)
    written = _masked(sentence, fold=False)
    cased = written if len(written) == len(text) else None
    if not cited_evidence(sentence, None):
        return False
    if COMMAND_RESULT.search(sentence.replace("\u2019", "'").casefold()):
        return True
    for act in PAST_ACTS.finditer(text):
        clause = re.split(r"[,;]|\bthen\b|\bbut\b|\band\b", text[: act.start()])[-1]
        if PROSPECTIVE.search(clause):
            continue
        seeing = _SEEING.fullmatch(act.group(0)) is not None
        if not act_result(text[act.end() :], seeing) and not _result_before(text[: act.start()]):
            continue
        stale = elsewhere(text, act.start(), act.end())
        if stale is not None:
            if outside is not None:
                outside.append(f"{act.group(0)} {stale}")
            continue
        before = _subject_words(text[: act.start()])
        who = act_subject(before, cased[act.start() - len(before) : act.start()] if cased else None)
        if who is None:
            return True
        if code_behaviour(who, text[act.end() :]):
            continue
        if others is not None:
            others.append(f"{who} {act.group(0)}")
    return False


def incomplete_reason(what_i_checked: str, claim: str | None) -> tuple[str, Outcome] | None:
    """Why an upheld ``what_i_checked`` reports no completed observation, and what the
    verdict counts as; None when one of its sentences is one (module docstring).

    Returns:
        ``("... (seed 003)", "abstain")`` when a sentence reports an act that was stopped
        before it completed and none completed; ``(..., "refute")`` when no sentence is an
        observation at all (a plan, a condition, a queue, an act with no result), or the
        only observations are someone else's acts ("The miner opened ...": ``"an act of
        someone else's ('the miner opened'), not the verifier's own ..."``), or acts
        outside this run ("Opened it last week": ``"an act outside this run ('opened
        last week') ..."``).
    """
    sentences = observation_sentences(what_i_checked)
    stopped = [s for s in sentences if _stopped(s, claim)]
    others: list[str] = []
    outside: list[str] = []
    if any(_completed(s, others, outside) for s in sentences if s not in stopped):
        return None
    if any(_completed(s) for s in stopped):
        first = " ".join(stopped[0].split())
        first = first if len(first) <= 80 else first[:79] + "\u2026"
        return (
            f"the run did not complete ({first!r}): a stopped run produced no evidence, "
            "abstain (seed 003)",
            "abstain",
        )
    if others:
        return (
            f"an act of someone else's ({others[0]!r}), not the verifier's own (re-open the "
            "evidence yourself and say what it showed): not evidence, refute (seed 003)",
            "refute",
        )
    if outside:
        return (
            f"an act outside this run ({outside[0]!r}), not this run's evidence (re-open the "
            "evidence in this run and say what it showed): not evidence, refute (seed 003)",
            "refute",
        )
    return (
        "no completed observation (say what you opened or ran, in the past tense, and what "
        "it showed): not evidence, refute (seed 003)",
        "refute",
    )
