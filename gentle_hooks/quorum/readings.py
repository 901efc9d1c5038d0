"""How a ``whatIChecked`` frames its reading: whose it is, how sure, whether real, whether kept.

Room ``quorum``, pure functions (standard library and :mod:`.narrative`); no I/O. Read by
:mod:`.grounds` (rows ``G-negated`` and ``G-hedged``). Seed ``003_0245072c02421c57.txt``:
"Uphold ONLY if you re-opened the evidence yourself and it reproduces"; "Default to
refuted when uncertain". Each is a class of words, not a list of sentences, so a new
wording of the same kind is caught. Every function takes the verifier's words as
:func:`~.grounds._said` gives them (case-folded, ``n't`` expanded, quotes and backticked
commands blanked, whitespace collapsed) and returns the words that met the class, or None:

* :func:`attributed` — the reading is someone else's (``G-hedged``): "according to the
  writer", "as the writer described it", "(as the writer told me)", "the writer says",
  "per the miner", "so I've heard", "rumor has it", "hearsay", or an act whose subject is
  "we" ("We ran …": not the verifier's own act alone). Said in a clause before the first
  act ("The miner says X; I opened …: …") it reports the claim, not the reading: it counts.
* :func:`modal` — an epistemic modal or verb (``G-hedged``): "may" (not a date: "May 14",
  "in May"), "might", "could have", "seems", "appears to" (not "appears twice"),
  "apparently", "presumably", "probably", "possibly", "perhaps", "maybe", "ostensibly",
  "untested", "unconfirmed", "it looks (to me) like", "from what I can see", "if I read
  it right", "I gather", "I'd bet", "not sure", or a ``?`` ending the text or a
  parenthesis (a question, not a report; "Any cap? None: …" asks and answers, it counts).
* :func:`framed` — an imperative or hypothetical frame (``G-negated``): "Pretend I opened",
  "Assume I opened", "Imagine", "Suppose", "Let's say", "as if I had opened",
  "hypothetically", "(simulated)", "I simulated …" ("the test simulated 41 spawns" is what
  code did: it counts).
* :func:`retracted` — a retraction marker after the first act (``G-negated``): "Edit:",
  "Update:", "actually", "my bad", "my mistake", "oops", "sorry", "correction", "wait,",
  "I stand corrected", a closing "No.". Before the act ("I actually opened …", "Edit:
  opened …") they take nothing back. "Opened app.py:12 — it actually caps at 5" may be an
  emphasis or a retraction; the words cannot tell, so by seed 003 "Default to refuted when
  uncertain" every "actually" after the act refutes.
"""

from __future__ import annotations

import re
from typing import Final

from gentle_hooks.quorum.narrative import ACT_VERBS


def _any(*items: str) -> str:
    return "(?:" + "|".join(p.replace(" ", r"\s+") for p in items) + ")"


def _class(*items: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){_any(*items)}(?!\w)")


#: Someone other than the verifier: a role, a pronoun of a third party, or a source.
PARTY: Final = _any(
    r"(?:miner|writer|author|reviewer|agent|sub-?agent|submitter|reporter|coder|model|finder"
    r"|worker|bot|assistant|contributor|colleague|co-?worker|teammate|team|maintainer"
    r"|developer|dev|engineer|tester|user|owner|lead|manager|friend|expert|human|person"
    r"|ticket|issue|message|thread|chat|email|e-mail|transcript|summary|report|finding|pr"
    r"|post)s?",
    r"they|he|she|someone|somebody|everyone|everybody|people|others|folks|you",
)
_DET: Final = r"(?:(?:the|a|an|my|our|his|her|their|your|this|that)\s+)?"
#: Verbs of saying or showing: the reading passed on by whoever does them.
_SAYING: Final = _any(
    r"sa(?:y|ys|id)",
    r"descri(?:be|bes|bed)",
    r"t(?:ell|ells|old)",
    r"claim(?:s|ed)?",
    r"put it",
    r"report(?:s|ed)?",
    r"wr(?:ite|ites|ote)",
    r"mention(?:s|ed)?",
    r"explain(?:s|ed)?",
    r"not(?:e|es|ed)",
    r"stat(?:e|es|ed)",
    r"suggest(?:s|ed)?",
    r"insist(?:s|ed)?",
    r"assur(?:e|es|ed)",
    r"swear(?:s)?|swore",
    r"relay(?:s|ed)?",
    r"summari[sz](?:e|es|ed)",
    r"indicat(?:e|es|ed)",
    r"reckon(?:s|ed)?",
    r"believ(?:e|es|ed)",
)
#: What may follow a verb of saying: a separator or its object, never a noun ("as the
#: miner's report cites" points to the file, :mod:`.copies`).
_SAID_END: Final = (
    r"(?=\s*(?:[,.;:)\u2014]|$)|\s+(?:me|us|it|so|that|there|to|in|earlier|before|above"
    r"|below|here)(?!\w))"
)
#: First-person acts of checking in the plural ("we ran"): the verifier's act is "I".
_WE_ACT: Final = re.compile(
    r"(?<!\w)we(?:'ve|'d| have| had)?(?:\s+(?:also|then|first|just|all|both|again|\w+ly))*\s+"
    r"(?:opened|re-?opened|ran|re-?ran|read|checked|grepped|executed|inspected|searched|counted"
    r"|traced|looked|viewed|examined|reproduced|tested|verified|confirmed|found|saw|observed"
    r"|replayed|measured|compared|diffed|queried|loaded|fetched|listed|printed)(?!\w)"
)
_ATTRIBUTION: Final = _class(
    r"according to",
    rf"per {_DET}{PARTY}(?='s|\s|$|[,.;:)])",
    rf"as {_DET}{PARTY}(?:'s)?(?: \w+){{0,2}}? {_SAYING}{_SAID_END}",
    r"as (?!it\b|expected\b|noted\b|i\b)[a-z][\w-]* (?:said|told|described|claimed|wrote|put it)",
    rf"{_DET}{PARTY} {_SAYING}(?= (?:me|us|that|so|it|there|the|no|not)\b)",
    r"(?:so |or so )?(?:i|we)(?:'ve| have| had)? (?:heard|hear|been told|read somewhere)",
    r"(?:i'm|i am|we're|we are) told",
    r"rumou?r(?:s|ed)?(?: has it)?",
    r"hearsay",
    r"word (?:is|has it)",
    r"second-?hand|second hand",
    r"(?:they|people|folks) say",
)


def _first_act(said: str) -> int:
    """Where the first act of checking starts in ``said``; its length when there is none."""
    act = ACT_VERBS.search(said)
    return act.start() if act else len(said)


def _clause_start(said: str, at: int) -> int:
    """The start of the clause holding ``at`` (after the last ``;``, ``.``, ``!``, ``?``)."""
    cut = max(said.rfind(c, 0, at) for c in ";.!?")
    return cut + 1 if cut >= 0 else 0


def attributed(said: str) -> str | None:
    """The words that pass the reading on from someone else, or None (module docstring)."""
    we = _WE_ACT.search(said)
    if we is not None:
        return f"{we.group(0)} (not the verifier's own act alone)"
    start = _clause_start(said, _first_act(said))
    for found in _ATTRIBUTION.finditer(said, start):
        return found.group(0)
    return None


#: Months as "may" is one: "May 14", "in May", "of may 2026" date a run, hedge nothing.
_DATED: Final = re.compile(r"(?:in|on|of|since|until|from|last|this|next|early|late|mid-?)\s*$")
_MODAL: Final = _class(
    r"may(?!\s*\d)",
    r"might",
    r"could(?:'ve| have| be)",
    r"seem(?:s|ed|ingly)?",
    r"appear(?:s|ed)? to",
    r"it appear(?:s|ed)",
    r"appears? that",
    r"would appear",
    r"apparently",
    r"presumably",
    r"probably",
    r"possibly",
    r"perhaps",
    r"maybe",
    r"ostensibly",
    r"purportedly",
    r"conceivably",
    r"reportedly",
    r"untested",
    r"unconfirmed",
    r"not (?:yet )?(?:tested|confirmed|verified)",
    r"(?:it |this |that )?looks? (?:to me )?like",
    r"from what (?:i|we) (?:can )?(?:see|tell|gather|read)",
    r"if (?:i|we) (?:read|understand|understood) (?:it |this |that )?(?:right|correctly)",
    r"as (?:i|we) understand it",
    r"(?:i|we) gather",
    r"(?:i|we)(?:'d| would)? (?:bet|wager)",
    r"not sure",
)
#: A question mark ending the text or a parenthesis (outside quotes and commands: ``?x=1``
#: is no question; "Any cap? None: …" asks and answers).
_QUESTION: Final = re.compile(r"\?(?=[\s.!\]]*$|\s*\))")


def modal(said: str) -> str | None:
    """The epistemic modal, verb or question that makes the reading a guess, or None."""
    for found in _MODAL.finditer(said):
        if found.group(0) == "may" and _DATED.search(said[: found.start()]):
            continue
        return found.group(0)
    question = _QUESTION.search(said)
    if question is not None:
        start = _clause_start(said, question.start())
        return f"{said[start : question.end()].strip()} (a question, not a report)"
    return None


_FRAMED: Final = _class(
    r"(?:let's |let us |please |now |ok,? |okay,? )?(?:pretend|assume|imagine|suppose|picture)"
    r"(?= (?:that )?(?:i|we|you)\b)",
    r"pretend(?:ed|ing|s)?",
    r"imagin(?:e|ed|ing|ary)",
    r"(?:suppos|assum)ing(?: that)?(?= (?:i|we)\b)",
    r"hypothetical(?:ly)?",
    r"let's say|let us say|say (?:that )?(?:i|we)(?= (?:had |have )?\w+ed\b| ran\b| read\b)",
    r"as if (?:i|we)",
    r"if (?:i|we) (?:had|were to)",
    r"had (?:i|we) (?:opened|run|read|checked|looked)",
    r"what if",
    r"for the sake of argument",
    r"thought experiment",
    r"\(simulat(?:ed|ion)\)",
    r"(?:i|we) simulated",
    r"simulated (?:open\w*|read\w*|run|check\w*|act|result|output|session|execution|grep)",
    r"in (?:a )?simulation",
    r"simulat(?:ed|ion)(?=\s*(?:[.;:)]|$))",
)
#: Clause-initial imperatives of make-believe: "Assume I opened", "Pretend: opened …".
_FRAME_START: Final = re.compile(
    r"(?:^|[.;:!?(\u2014]\s*)((?:let's |let us )?(?:pretend|assume|imagine|suppose))(?!\w)"
)


def framed(said: str) -> str | None:
    """The words that make the act make-believe, or None (module docstring)."""
    found = _FRAMED.search(said) or _FRAME_START.search(said)
    if found is None:
        return None
    return (found.group(1) if found.re is _FRAME_START else found.group(0)).strip()


_RETRACTION: Final = _class(
    r"edit(?:ed)?(?=\s*:)",
    r"update(?=\s*:)",
    r"upd(?=\s*:)",
    r"actually",
    r"my (?:bad|mistake|error)",
    r"mea culpa",
    r"oo+ps",
    r"whoops",
    r"sorry",
    r"(?:a |one |small |minor |quick )?correction(?=\s*[:,\u2014-]|\s*$)",
    r"(?:i )?stand corrected",
    r"self-?correct\w*",
    r"wait(?=\s*[,:!.\u2014])",
    r"no,? wait|wait,? no|hold on",
    r"false alarm",
    r"scratch (?:that|this)|strike (?:that|this)",
    r"(?<=[.!;]\s)no(?=\s*[.!]?\s*$)",
)


def retracted(said: str) -> str | None:
    """The retraction marker after the first act of checking, or None (module docstring)."""
    first = _first_act(said)
    if first >= len(said):
        return None
    found = _RETRACTION.search(said, first)
    return None if found is None else found.group(0)
