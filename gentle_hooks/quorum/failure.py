"""Whether a verifier's ``whatIChecked`` says its check failed or never happened (SPEC §9).

Room ``quorum``, pure functions (standard library and :mod:`.restatement`); no I/O. Seed
``003_0245072c02421c57.txt``. A ``whatIChecked`` can cite a ``file:line`` or a backticked
command and still say it was never opened or run: "I could not open scheduler.py:42
(permission denied)", "I did not run `grep -n fanout scheduler.py`; trust me". Such a part
is not evidence whatever it cites. What it counts as is decided by :data:`FAILURE_ROWS`,
one row per kind of failure, each naming its seed line:

* ``F-missing`` — the verifier tried to open the cited evidence and it is not there ("no
  such file", "does not exist"): refute ("Refute if ANY of these hold: The cited evidence
  does not exist").
* ``F-errored`` — the check errored, was refused access or ran out of time ("permission
  denied", "could not open", "grep failed", "timed out"): abstain ("A verifier that
  errored, timed out, or returned a malformed verdict has produced no evidence"; a finding
  that "could not be reproduced with available access" is PLAUSIBLE, never REFUTED).
* ``F-unreproduced`` — the verifier tried and it did not reproduce ("couldn't reproduce",
  "unable to verify", "could not be confirmed"): refute ("Uphold ONLY if you re-opened the
  evidence yourself and it reproduces. Default to refuted when uncertain").
* ``F-intended`` — the check was only intended, planned or attempted, with no act done
  after it in the same part ("planned to open workflow.js:142", "I was going to run",
  "would check", "should re-run"): refute ("Uphold ONLY if you re-opened the evidence
  yourself"). Time-outs however said ("`grep ...` timed out", "hit the 600 s timeout") and
  an attempt cut short ("tried to run `x` but ...") are ``F-errored``.
* ``F-skipped`` — the check never happened ("did not run", "didn't check", "never opened",
  "not checked", "without running"): refute ("A verifier that only reads the finding is an
  opinion generator"; "Default to refuted when uncertain").

Phrases are matched on a normalised text (case-folded, contractions expanded: "couldn't" is
"could not"), with backticked commands and quotes masked, so a command that contains "not"
is not a negation. A negation counts only where the verifier is its subject ("I could not
open", "we never ran") or it opens the clause ("Could not open", "Not checked: ..."), so
"the loop does not check the budget", an observation about the code, is not a failure.
Words for what the check found ("could not find a cap", "did not see a guard") are
observations, not failures.

Mixed texts (:func:`failure_split`): the text is cut into parts, each part that reports a
failure is set aside, and the rest is judged as if it were the whole ``whatIChecked``. An
upheld verdict is cut at sentences (``.``, ``;``, ``!``, ``?``, new lines), so "ran `x` but
it errored" stays one failed part; a refuted verdict is also cut at "but", "however",
"although", "though", "whereas", because keeping a refutation is the safe direction
("Default to refuted when uncertain"). How the rest and the rows combine is in
:func:`gentle_hooks.quorum.votes.classify_verdict`.
"""

from __future__ import annotations

import functools
import re
from typing import Final, Literal

from gentle_hooks.quorum.completed import PROTECTED, protected_split
from gentle_hooks.quorum.restatement import named_files
from gentle_hooks.values.frozen import frozen

Outcome = Literal["abstain", "refute"]


def _alt(*words: str) -> str:
    return "(?:" + "|".join(w.replace(" ", r"\s+") for w in words) + ")"


#: Who the verifier is, or the clause opening without a subject ("Could not open ..."),
#: with the adverbs and auxiliaries that may stand before the negation.
_WHO = (
    r"(?:^|\b(?:i|we)\b)(?:\s*\b(?:also|then|still|unfortunately|sadly|actually|really|"
    r"personally|myself|ourselves|honestly|simply|just|ultimately|eventually|was|were|am|"
    r"have|had|tried|attempted|but|and)\b)*?\s*"
)
#: Acts of getting at the evidence (what an error or a refusal stops).
_ACCESS = (
    r"(?:re-?)?(?:open\w*|read|reading|ran|run|runs|running|rerun|execut\w*|grep\w*|"
    r"search\w*|access\w*|load\w*|fetch\w*|clon(?:e|ed|ing)|check\s*-?\s*out|view\w*|"
    r"inspect\w*|examin\w*|quer(?:y|ied|ying)|connect\w*|reach\w*|download\w*|"
    r"retriev\w*|buil[dt]\w*|compil\w*|launch\w*|start\w*|obtain\w*|list\w*)\b"
)
#: Acts of re-establishing the claim.
_REPRODUCE = (
    r"(?:reproduc\w*|replicat\w*|verif(?:y|ied|ying)|confirm\w*|validat\w*|substantiat\w*|"
    r"corroborat\w*|re-?creat\w*|trigger\w*)\b"
)
#: Any act of checking (a negation of one says the check never happened).
_CHECK = (
    r"(?:" + _ACCESS + r"|" + _REPRODUCE + r"|(?:re-?)?check\w*|test(?:ed|ing)?\b|"
    r"look(?:ed|ing)?\s+(?:at|into)\b|review\w*|count\w*|trac(?:e|ed|ing)\b|measur\w*|"
    r"diff\w*|compar\w*|tr(?:y|ied)\b|attempt\w*|bother\w*)"
)
_UNABLE = _alt(
    "could not",
    "can not",
    "was not able to",
    "were not able to",
    "am not able to",
    "not able to",
    "was unable to",
    "were unable to",
    "unable to",
    "failed to",
    "fail to",
    "did not manage to",
    "was not possible to",
    "was prevented from",
    "not permitted to",
    "not allowed to",
    "had no way to",
    "have no way to",
    "no way to",
)
_NEVER = _alt(
    "did not",
    "do not",
    "have not",
    "has not",
    "had not",
    "have never",
    "never",
    "not",
    "without",
    "skipped",
    "chose not to",
    "decided not to",
    "opted not to",
)
#: "did not just read the summary, I ran ...": a correction, not a negation of the act.
_NOT_ONLY = r"(?!(?:just|only|merely|simply)\b)"
#: Up to three words between a negation and its verb, none of them starting a new subject.
_GAP = r"(?:(?!(?:i|we|but|and|so|then|it|that|which|or|who)\b)[\w'-]+\s+){0,3}?"
#: The same, not spanning a word of reproducing ("unable to reproduce the run" did not
#: reproduce; it is not an access failure).
_GAP_ACCESS = (
    r"(?:(?!(?:i|we|but|and|so|then|it|that|which|or|who|reproduc\w*|replicat\w*|"
    r"verif\w*|confirm\w*|validat\w*|trigger\w*)\b)[\w'-]+\s+){0,3}?"
)
_PARTICIPLES = (
    r"(?:re-?)?(?:opened|read|run|executed|accessed|loaded|fetched|cloned|checked\s+out|"
    r"viewed|inspected|queried|reached|downloaded|retrieved|built|compiled|launched|started)\b"
)
_TOOLS = (
    r"(?:attempts?|tool(?:\s+calls?)?|grep|rg|ripgrep|search(?:es)?|quer(?:y|ies)|commands?|"
    r"checkout|clone|fetch|download|sandbox|shell|file\s+read|read)"
)
_BROKE = (
    r"(?:failed|errored|crashed|timed\s+out|hung|was\s+(?:denied|refused|blocked|rejected)|"
    r"did\s+not\s+(?:work|succeed|complete|finish|return)|returned\s+an\s+error|"
    r"gave\s+an\s+error|threw\s+an\s+error)\b"
)


@frozen
class FailureRow:
    """One kind of failed or absent check: a stable id, what it is in words, what the
    verdict then counts as, the seed line that says so, and its markers (regexes searched
    in a normalised part, :func:`normalise`). ``also``, when given, must match the same
    part too (a refinement of another row)."""

    id: str
    what: str
    outcome: Outcome
    seed: str
    patterns: tuple[re.Pattern[str], ...]
    also: tuple[re.Pattern[str], ...] = ()

    def matches(self, part: str, claim: str = "") -> bool:
        """Whether the normalised ``part`` reports this kind of failure. A marker whose
        text the normalised ``claim`` holds is what the claim is about ("fails with
        permission denied"), not a failure of the check, and does not count."""

        def found(patterns: tuple[re.Pattern[str], ...]) -> bool:
            seen: set[str] = set()  # each distinct marker looked up in the claim once
            for p in patterns:
                for m in p.finditer(part):
                    marker = m.group(0).strip()
                    if marker not in seen:
                        if marker not in claim:
                            return True
                        seen.add(marker)
            return False

        return found(self.patterns) and (not self.also or found(self.also))


_ERRORED: Final = (
    re.compile(
        r"(?:" + _WHO + r"|\b(?:and|but)\s+)" + _UNABLE + r"\s+" + _NOT_ONLY + _GAP_ACCESS + _ACCESS
    ),
    re.compile(r"\b(?:could|can)\s+not\s+be\s+" + _PARTICIPLES),
    re.compile(r"\b" + _TOOLS + r"\b(?:\s+(?:to|on|of|for|at)\s+(?:\S+\s+){0,5}?|\s+)" + _BROKE),
    re.compile(
        r"\b(?:open|read|run|runn|execut|access|load|fetch|clon|grepp|search)ing\s+"
        r"(?:\S+\s+){0,5}?" + _BROKE
    ),
    re.compile(
        r"permission\s+denied|access\s+(?:is\s+|was\s+)?(?:denied|refused)|\beacces\b|\beperm\b|"
        r"operation\s+not\s+permitted|command\s+not\s+found|"
        r"\b(?:is|was|are|were)\s+not\s+installed\s+(?:in|on)\s+(?:the|my|this)\s+"
        r"(?:sandbox|environment|container|machine)|"
        r"\b(?:i|we)\s+ran\s+out\s+of\s+(?:time|budget|tokens|context)|"
        r"\b(?:tool|command|grep|search)\s+time-?out\b|\b(?:i|we)\s+timed\s+out\b|"
        r"\btimed\s+out\s+(?:while|when|before)\s+\w+ing\b"
    ),
    # a check that ran out of time, however it is said: "`grep ...` timed out",
    # "ran `make fanout`: timed out after 600 s", "hit the 600 s timeout"
    re.compile(
        r"\btimed\s*-?\s*out\b|\btime\s*-?\s*outs?\s+(?:after|expired|exceeded|was\s+"
        r"(?:hit|reached|exceeded)|reached|hit|occurred|error)\b|"
        r"\b(?:hit|reached|exceeded|ran\s+into)\s+(?:the\s+|a\s+|my\s+|its\s+)?"
        r"(?:\d+\s*\w*\s+)?(?:time-?\s*out|time\s+limit|deadline)\b|\bdeadline\s+exceeded\b"
    ),
    # an attempt cut short: "tried to run `x` but ...", not "but found nothing" (a result)
    re.compile(
        r"\b(?:tried|attempted|trying|attempting)\s+to\s+(?:\S+\s+){0,2}?"
        + _ACCESS
        + r".*?\bbut\b(?!\s+(?:i\s+|we\s+)?(?:found|saw|there|none|no|nothing|only|"
        r"it\s+(?:shows?|showed|returned|printed|says|said|has|had|is|was)\b))"
    ),
    re.compile(
        r"\b(?:i|we)\s+(?:(?:do|did|does)\s+not\s+have|(?:had|have|has|got)\s+no|"
        r"lack(?:ed|ing)?)\s+(?:the\s+|any\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:access|permissions?|tools?|means|ability|way)\b"
    ),
    re.compile(
        r"(?:^|\b(?:i|we|but|and)\s+)(?:received|got|hit|encountered)\s+(?:an?\s+)?"
        r"(?:[\w-]+\s+)?error\b|\bpermission\s+(?:error|problem|issue)s?\b|\btool\s+error\b|"
        r"\benoent\b|\baccess\s+(?:to\s+(?:\S+\s+){1,4}?)?(?:was|is)\s+(?:denied|refused|blocked)\b|"
        r"\b(?:my|our|the)\s+(?:tools?|environment|sandbox|shell)\s+(?:could|can|did)\s+not\b|"
        r"^no\s+tools?\s+(?:was|were)\s+available\b"
    ),
    re.compile(
        r"\b(?:files?|repo(?:sitory)?|logs?|paths?|director(?:y|ies)|sources?|urls?|links?|"
        r"pages?|artifacts?)\s+(?:is|are|was|were)\s+(?:not\s+accessible|inaccessible|"
        r"unavailable|not\s+available)\b"
    ),
    re.compile(r"\bsandbox\s+(?:blocked|denied|prevented|refused|does\s+not\s+allow|did\s+not)"),
    re.compile(r"^no\s+access\b"),
    re.compile(
        r"\b(?:but|and)\s+(?:it|that|this|the\s+(?:command|run|call|tool))\s+(?:errored|"
        r"failed\s+to\s+(?:run|start|execute|complete|load))\b|modulenotfounderror|"
        r"\bno\s+module\s+named\b"
    ),
)

#: Words of intent or of a mere attempt before an act of checking: "planned to open",
#: "I was going to open", "intended to run", "wanted to grep", "would check", "should
#: re-run", "tried to open" (a part whose check is only intended is no observation).
_INTENT = (
    r"(?:(?:was|were|am|are|had\s+been)\s+)?(?:going|planning|meaning|about|hoping|intending|"
    r"aiming|trying|attempting)\s+to|(?:had\s+)?(?:planned|intended|meant|wanted|hoped|aimed|"
    r"expected|needed|tried|attempted|wished)\s+to|(?:was|were)\s+supposed\s+to|"
    r"(?:will|would|should|shall|could|might|must|may)(?:\s+have)?|"
    r"(?:plan|intend|want|need|hope|aim|wish|try|attempt)\s+to|(?:my|the|our)\s+"
    r"(?:plan|intention|intent|idea)\s+(?:was|is)\s+to"
)
#: A past-tense act of checking later in the same part: then it was done, not only meant.
_DONE = re.compile(
    r"\b(?:and|then|so|later|finally|after\s+that|instead)\b,?\s+(?:i\s+|we\s+)?(?:re-?)?"
    r"(?:opened|ran|read|grepped|executed|inspected|checked|looked|reproduced|confirmed|"
    r"counted|traced|searched|queried|did)\b|"
    r"\bbut\s+(?:i\s+|we\s+)?(?:found|saw|got|observed|counted)\b"
)
_INTENDED: Final = (
    re.compile(
        r"^(?!.*(?:" + _DONE.pattern + r"))(?:(?:i|we)\s+)?(?:also\s+|then\s+|first\s+)?"
        r"(?:" + _INTENT + r")\s+(?:also\s+|first\s+|then\s+|have\s+)?" + _GAP + _CHECK
    ),
)

#: Seed 003 "What counts as reproducing evidence" and the refutation list, as data. A part
#: matching several rows is the first row's; a text with several failed parts takes the
#: first row (in this order) that any of them matches.
FAILURE_ROWS: Final[tuple[FailureRow, ...]] = (
    FailureRow(
        "F-missing",
        "the cited evidence is not there",
        "refute",
        "Refute if ANY of these hold: The cited evidence does not exist, or does not say "
        "what is claimed",
        _ERRORED,
        also=(
            re.compile(
                r"no\s+such\s+file|\benoent\b|\b(?:does|did)\s+not\s+exist|(?<!command\s)\bnot\s+found\b|"
                r"\bis\s+missing\b|\b404\b|\bonly\s+(?:has|had)\s+\d+\s+lines|"
                r"\bhas\s+only\s+\d+\s+lines|\bout\s+of\s+range\b|\bbeyond\s+the\s+end\b"
            ),
        ),
    ),
    FailureRow(
        "F-errored",
        "the check errored, was refused access or ran out of time",
        "abstain",
        "A verifier that errored, timed out, or returned a malformed verdict has produced "
        "no evidence for the finding",
        _ERRORED,
    ),
    FailureRow(
        "F-unreproduced",
        "the check did not reproduce the claim",
        "refute",
        "Uphold ONLY if you re-opened the evidence yourself and it reproduces. Default to "
        "refuted when uncertain",
        (
            re.compile(_WHO + _alt(_UNABLE, "did not", "have not") + r"\s+" + _GAP + _REPRODUCE),
            re.compile(
                r"\b(?:could|can|was|were|is|has|have)\s+not\s+(?:be|been)\s+(?:re-?)?"
                r"(?:reproduced|replicated|verified|confirmed|validated|substantiated|"
                r"corroborated)\b"
            ),
            re.compile(r"\b(?:not|non-?|ir)\s*reproducible\b|\bunreproduc\w*|\bunconfirm\w*"),
            re.compile(
                r"\b(?:reproduction|replication|verification|repro)\s+(?:attempts?\s+)?"
                r"(?:failed|was\s+unsuccessful|did\s+not\s+succeed|was\s+not\s+possible|"
                r"not\s+possible)"
            ),
            re.compile(
                r"\b(?:it|this|the\s+(?:finding|claim|issue|bug|problem|behaviou?r|failure))"
                r"\s+(?:does|did)\s+not\s+reproduce\b"
            ),
        ),
    ),
    FailureRow(
        "F-intended",
        "the check was only intended or planned, never reported done",
        "refute",
        "Uphold ONLY if you re-opened the evidence yourself and it reproduces. Default to "
        "refuted when uncertain",
        _INTENDED,
    ),
    FailureRow(
        "F-skipped",
        "the check never happened",
        "refute",
        "Independently re-open ... A verifier that only reads the finding is an opinion "
        "generator; Default to refuted when uncertain",
        (
            re.compile(_WHO + _NEVER + r"\s+" + _NOT_ONLY + r"(?:yet\s+)?" + _GAP + _CHECK),
            re.compile(
                r"^(?:not|never|no)\s+(?:yet\s+)?(?:re-?)?(?:checked|verified|run|opened|read|"
                r"tested|reproduced|inspected|looked\s+at|executed|grepped)\b"
            ),
            re.compile(r"^(?:unchecked|unverified|untested|unreproduced|skipped)\b"),
            re.compile(
                r"(?:^|\b(?:it|this|that|the\s+(?:file|files|line|lines|command|commands|grep|"
                r"suite|test\s+suite|query|script|evidence|source|log|logs|repro|reproduction|"
                r"cited\s+\w+))\s+)(?:was|were|has|have)\s+not\s+(?:been\s+)?(?:yet\s+)?"
                + _PARTICIPLES
            ),
            re.compile(
                r"\b(?:i|we)\s+skipped\b|\bno\s+time\s+to\b|\btrust\s+me\b|\btake\s+my\s+word\b|"
                r"\bfrom\s+memory\b|\b(?:i|we)\s+(?:only|just|merely|simply)\s+(?:read|looked\s+at|"
                r"relied\s+on|went\s+by)\s+(?:the\s+)?(?:finding|claim|summary|description|report|"
                r"miner)|\b(?:verification|check|reproduction|repro)\s+(?:was\s+)?not\s+"
                r"(?:performed|done|run|attempted|possible)\b"
            ),
        ),
    ),
)

_CONTRACTIONS: Final = (
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\b(\w+)n't\b"), r"\1 not"),
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"\b(i|we)'ve\b"), r"\1 have"),
    (re.compile(r"\b(i|we)'d\b"), r"\1 had"),
)
#: Words that may open a clause before its subject or negation.
_LEAD = re.compile(
    r"^(?:[\W_]*\b(?:and|but|however|unfortunately|sadly|also|so|then|note|though|yet|"
    r"honestly|admittedly|regrettably|ultimately|finally|first|second|third|"
    r"step\s+\d+)\b)*[\W_]*"
)
_SENTENCE = re.compile(r"[.!?](?=\s|$)|[;\n]")
_CLAUSE = re.compile(
    r"[.!?](?=\s|$)|[;\n]|\s+--?\s+|\u2014|,?\s+\b(?:but|however|although|though|whereas)\b",
    re.IGNORECASE,
)


def normalise(part: str) -> str:
    """``part`` as the rows read it: quotes and backticked commands blanked, curly
    apostrophes straightened, case-folded, contractions expanded, whitespace collapsed,
    leading conjunctions and punctuation dropped."""
    text = PROTECTED.sub(" `` ", part.replace("\u2019", "'"))
    text = " ".join(text.casefold().split())
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return _LEAD.sub("", text)


@functools.lru_cache(maxsize=16)
def _normalised_claim(claim: str) -> str:
    # one claim is read against every part of every vote: normalised once, not per part
    return normalise(claim)


def failure_row(part: str, claim: str | None = None) -> FailureRow | None:
    """The first row of :data:`FAILURE_ROWS` that ``part`` (raw text) reports, or None;
    markers the ``claim`` itself holds do not count (:meth:`FailureRow.matches`)."""
    text = normalise(part)
    said = _normalised_claim(claim) if claim else ""
    return next((row for row in FAILURE_ROWS if row.matches(text, said)), None)


@frozen
class FailureSplit:
    """A ``whatIChecked`` cut into parts that report a failed or absent check and the rest.

    Attributes:
        row: the deciding row (the first of :data:`FAILURE_ROWS` any failed part matches).
        failed: the failed parts, as written.
        rest: the other parts, joined with ``"; "`` (empty when none).
        claim_files: files the claim cites that a failed part names (the claim's own
            evidence was not re-opened, whatever the rest shows).
    """

    row: FailureRow
    failed: tuple[str, ...]
    rest: str
    claim_files: frozenset[str] = frozenset()

    def reason(self) -> str:
        """One line: the row, the first failed part, and what the verdict counts as."""
        first = " ".join(self.failed[0].split())
        first = first if len(first) <= 80 else first[:79] + "…"
        return (
            f"the check failed or never happened ({self.row.id} {self.row.what}: {first!r}): "
            f"not evidence, {self.row.outcome} (seed 003)"
        )


def failure_split(
    what_i_checked: str, claim: str | None = None, *, by_clause: bool = False
) -> FailureSplit | None:
    """Cut ``what_i_checked`` into failed parts and the rest; None when no part fails.

    Args:
        what_i_checked: the verifier's ``whatIChecked``.
        claim: the finding's claim (its own words are not a failure of the check).
        by_clause: cut at "but", "however", "although", "though", "whereas" and dashes as
            well as at sentences (for a refuted verdict; an upheld one is cut at sentences
            only, so "ran `x` but it errored" stays one failed part).
    """
    parts = protected_split(what_i_checked, _CLAUSE if by_clause else _SENTENCE)
    rows = [(p, failure_row(p, claim)) for p in parts]
    failed = [(p, r) for p, r in rows if r is not None]
    if not failed:
        return None
    deciding = next(r for r in FAILURE_ROWS if any(fr is r for _, fr in failed))
    rest = "; ".join(p for p, r in rows if r is None)
    cited = named_files(claim) if claim else frozenset()
    unopened = frozenset(n for p, _ in failed for n in named_files(p) if n in cited)
    return FailureSplit(deciding, tuple(p for p, _ in failed), rest, unopened)
