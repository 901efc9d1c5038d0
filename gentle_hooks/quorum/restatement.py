"""Whether a verifier's ``whatIChecked`` shows that anything was checked (SPEC §9).

Room ``quorum``, pure functions (standard library only); no I/O. Seed ``003_0245072c02421c57.txt``:
"whatIChecked — makes a lazy verification visible" and, under "Verifying a verification",
"Look for whatIChecked that merely restates the claim". A restating check is an abstention,
never support ("Abstentions are not support"; "Default to refuted when uncertain").

The rule is deterministic and errs towards abstaining. It cannot tell a true report from an
invented one, nor catch a paraphrase in new words; it makes the lazy answer ("checked it",
"verified that <claim>", the claim with a filler word) count for nothing.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Final

_WORD = re.compile(r"\w+")

#: Words that say a check happened or agree with the claim without saying what was checked,
#: plus common English stopwords. Compared after :func:`_stem`, so ``checks``/``checked``
#: and ``verify``/``verified`` are all covered.
FILLER_WORDS: Final[frozenset[str]] = frozenset(
    # who, and the act of checking in general
    {"i", "we", "me", "my", "our", "myself", "ourselves", "you", "verifier", "reviewer"}
    | {"check", "checked", "verify", "verified", "confirm", "confirmed", "look", "looked"}
    | {"review", "reviewed", "test", "tested", "inspect", "inspected", "examine", "examined"}
    | {"validate", "validated", "reproduce", "reproduced", "reproduces", "double", "triple"}
    | {"re", "again", "independently", "carefully", "thoroughly", "manually", "personally"}
    | {"time", "times", "once", "twice", "thrice"}
    | {"uphold", "upheld", "agree", "agreed", "see", "saw", "seen", "found", "find"}
    # what was checked, named only generically
    | {"claim", "claims", "claimed", "finding", "findings", "evidence", "cited", "source"}
    | {"sources", "statement", "issue", "problem", "report", "reported", "described"}
    | {"stated", "said", "says", "above", "everything", "all", "whole", "entire", "thing"}
    # agreement
    | {"true", "correct", "valid", "ok", "okay", "yes", "right", "accurate", "indeed"}
    | {"real", "really", "holds", "hold", "fine", "good", "legit", "sure", "definitely"}
    | {"accurately", "correctly", "exactly", "fully", "actually", "apparently", "seems"}
    # stopwords
    | {"a", "an", "the", "this", "that", "these", "those", "it", "its", "is", "are", "was"}
    | {"were", "be", "been", "being", "am", "do", "does", "did", "done", "has", "have", "had"}
    | {"and", "or", "but", "so", "as", "if", "then", "than", "too", "very", "also", "just"}
    | {"of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "about", "per"}
    | {"there", "here", "which", "what", "who", "whom", "whose", "how", "why", "when"}
    | {"can", "could", "will", "would", "should", "may", "might", "must", "shall"}
    | {"some", "any", "each", "both", "such", "same", "other", "only", "own", "out"}
    | {"up", "down", "over", "under", "via", "etc", "eg", "ie", "s", "t", "ve", "ll", "d"}
)

#: Content words beyond the claim and :data:`FILLER_WORDS` that make a ``whatIChecked``
#: a description of a check even without a cited token.
MIN_NEW_WORDS: Final = 3

#: Shortest content word: ``x`` or ``zz`` is not a description of anything.
MIN_WORD_LENGTH: Final = 3

_SUFFIXES: Final = ("ing", "ed", "es", "s")

#: Concrete evidence (seed 003 "What counts as reproducing evidence"): a file and line, a
#: path, a file name with an extension, a command in backticks, a quoted string, a number.
_FILE_LINE = re.compile(r"[\w./-]+:\d+")
# a start inside a run of [\w.-] cannot match where the run's start did not (it reaches the
# same ends), so the look-behind only spares the retries: linear on one long word
_PATH = re.compile(r"(?<![\w.-])(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]*)+")
_FILE_NAME = re.compile(r"(?<![\w.])[\w-]{2,}(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}(?![\w])")
_BACKTICKS = re.compile(r"`([^`]+)`")
_QUOTED = re.compile(
    r'"([^"]+)"'  # straight double quotes
    + "|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019"  # curly quotes
    + r"|(?<!\w)'([^'\n]+)'(?!\w)"  # single quotes, not an apostrophe (didn't, it's)
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

#: Longest run without white space searched for a file, path or ``file:line``, in
#: characters: a pattern may retry from many characters of a run that fails it, so a run
#: can cost the square of its length; no name a verifier cites is this long.
MAX_TOKEN = 512
#: Quoted strings of one text read as evidence, the first ones: each is compared with the
#: whole claim, so a text of a thousand quotes would cost a thousand claims; an act of
#: checking quotes a few.
MAX_QUOTES = 32

_NAME_RUN = re.compile(r"[\w./-]+")
_LINE_NUMBER = re.compile(r":\d+")


def _file_lines(run: str) -> list[str]:
    """``_FILE_LINE.findall(run)`` in one pass: a match starts where a maximal run of
    ``[\\w./-]`` starts (a later start reaches the same ends) and is that run when a
    ``:digits`` follows it."""
    found: list[str] = []
    pos = 0
    while (name := _NAME_RUN.search(run, pos)) is not None:
        line = _LINE_NUMBER.match(run, name.end())
        pos = name.end() if line is None else line.end()
        if line is not None:
            found.append(run[name.start() : line.end()])
    return found


@functools.lru_cache(maxsize=32)  # one verdict is judged by several rules over one text
def _find_names(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    """``pattern.findall(text)`` for :data:`_FILE_LINE`, :data:`_PATH` and
    :data:`_FILE_NAME`, over the runs of ``text`` without white space of at most
    :data:`MAX_TOKEN` characters (a longer run names nothing). None of them matches white
    space, and white space passes their look-arounds, so on such runs the answer is the
    same; the cost is linear in ``text``."""
    find = _file_lines if pattern is _FILE_LINE else pattern.findall
    return tuple(t for run in text.split() if len(run) <= MAX_TOKEN for t in find(run))


def words(text: str) -> frozenset[str]:
    """The case-folded word set of ``text`` (runs of letters, digits, underscore)."""
    return frozenset(_WORD.findall(text.casefold()))


def _stem(word: str) -> str:
    """Crude suffix stripping, so ``inherits``/``inherit`` and ``caps``/``cap`` compare equal."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_FILLER_STEMS: Final = frozenset(_stem(w) for w in FILLER_WORDS)


def _stems(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in words(text))


def _is_path(token: str) -> bool:
    """A path, not ``n/a`` or ``and/or``: it starts at a root, has two separators, or its
    last part has an extension."""
    parts = [p for p in token.split("/") if p]
    return bool(parts) and (
        token.startswith(("/", "./", "../"))
        or token.count("/") >= 2
        or bool(_FILE_NAME.fullmatch(parts[-1]))
    )


def new_words(what_i_checked: str, claim: str | None) -> frozenset[str]:
    """Stemmed words of ``what_i_checked`` that are neither in the claim nor filler.

    Pure numbers are left out (they are evidence, :func:`cited_evidence`, not words).
    """
    return _new_stems(what_i_checked, _stems(claim) if claim is not None else frozenset())


def _new_stems(text: str, claim_stems: frozenset[str]) -> frozenset[str]:
    """:func:`new_words` with the claim's stems computed once by the caller (a text quoting
    a thousand strings is then read once, not once per quote)."""
    return frozenset(
        s
        for s in _stems(text)
        if s not in claim_stems and s not in _FILLER_STEMS and not s.isdigit()
    )


def _cited(what_i_checked: str, claim: str | None) -> dict[str, list[str]]:
    """:func:`cited_evidence`'s tokens, by kind, in its order."""
    text = what_i_checked.casefold()
    source = (claim or "").casefold()
    flat_source = " ".join(source.split())
    claim_numbers = frozenset(_NUMBER.findall(source))
    found: dict[str, list[str]] = {
        "file_line": [t for t in _find_names(_FILE_LINE, text) if t not in source],
        "path": [
            t for t in _find_names(_PATH, text) if "/" in t and _is_path(t) and t not in source
        ],
        "file_name": [t for t in _find_names(_FILE_NAME, text) if t not in source],
        "command": [],
        "quote": [],
    }
    for match in _BACKTICKS.finditer(text):
        body = " ".join(match.group(1).split())
        if body and body not in flat_source:
            found["command"].append(match.group(0))
    claim_stems = _stems(claim) if claim is not None else frozenset()
    for match in itertools.islice(_QUOTED.finditer(text), MAX_QUOTES):
        body = " ".join(next(g for g in match.groups() if g is not None).split())
        named = {w for w in _new_stems(body, claim_stems) if len(w) >= MIN_WORD_LENGTH}
        if body not in flat_source and (named or _NUMBER.search(body)):
            found["quote"].append(match.group(0))
    found["number"] = [t for t in _NUMBER.findall(text) if t not in claim_numbers]
    return found


def cited_evidence(what_i_checked: str, claim: str | None) -> tuple[str, ...]:
    """The concrete evidence ``what_i_checked`` cites that the claim did not already cite.

    Kinds: ``file:line``; a path (a leading ``/``, ``./`` or ``../``, two separators, or a
    file name last); a file name with an extension (``workflow.js``); a command in
    backticks; a quoted string naming something beyond the claim and filler (of the first
    :data:`MAX_QUOTES` quoted strings); a number.
    Every token is compared case-folded: one that occurs in the claim (a number in the
    claim's numbers, any other token as a substring of the claim) is not new evidence, so
    copying the claim's own citations does not count.

    Returns:
        The new evidence tokens, grouped by kind in the order above; empty when none.
    """
    return tuple(t for tokens in _cited(what_i_checked, claim).values() for t in tokens)


def reproduced_evidence(what_i_checked: str, claim: str | None) -> tuple[str, ...]:
    """The tokens of :func:`cited_evidence` that show something was re-opened, as seed 003
    "What counts as reproducing evidence" has it: a ``file:line`` (File and line: "Open
    it. The line exists"), a command in backticks (A count or metric: "Re-run the query or
    the grep"), a quoted string (A quote: "Found verbatim in the cited source"). A bare
    file name, path or number names where evidence might be, not that it was opened."""
    found = _cited(what_i_checked, claim)
    return (*found["file_line"], *found["command"], *found["quote"])


#: Extensions of a screenshot or another artifact one looks at (seed 003 "What counts as
#: reproducing evidence": "A screenshot or artifact | Open it and describe what is visible
#: independently").
ARTIFACT_EXTENSIONS: Final = frozenset(
    {"png", "jpg", "jpeg", "gif", "webp", "bmp", "svg", "tif", "tiff", "heic", "pdf"}
    | {"mp4", "mov", "webm", "avi", "mkv"}
)

#: Words that say an artifact was looked at, not what is visible in it.
_LOOKING: Final = frozenset(
    _stem(w)
    for w in {"open", "opened", "opening", "view", "viewed", "viewing", "look", "looked"}
    | {"show", "shows", "showed", "shown", "display", "displays", "displayed", "visible"}
    | {"screenshot", "screenshots", "image", "images", "picture", "artifact", "file"}
    | {"attached", "attachment", "see", "saw", "seen", "depicts", "depicted", "captured"}
)


def _is_artifact(token: str) -> bool:
    name = token.split(":", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[-1] in ARTIFACT_EXTENSIONS


def undescribed_artifact_reason(what_i_checked: str, claim: str | None) -> str | None:
    """Why ``what_i_checked`` names a screenshot or artifact (a file of
    :data:`ARTIFACT_EXTENSIONS`) as its only evidence without describing what is visible
    in it beyond the claim's words; None otherwise.

    Seed 003 "What counts as reproducing evidence": "A screenshot or artifact | Open it and
    describe what is visible independently". With other evidence cited (a ``file:line``,
    a command, a quote) the other rules judge it. Otherwise the text without the artifact's
    name must hold :data:`MIN_NEW_WORDS` words beyond the claim, :data:`FILLER_WORDS` and
    words of looking ("opened", "shows", "visible", "screenshot"...), or a number beyond
    the claim's with one such word.
    """
    found = _cited(what_i_checked, claim)
    named = [*found["file_line"], *found["path"], *found["file_name"]]
    artifacts = [t for t in named if _is_artifact(t)]
    if not artifacts:
        return None
    others = [
        t
        for t in (*named, *found["command"], *found["quote"])
        if not _is_artifact(t) and not any(t in a for a in artifacts)
    ]
    if others:
        return None
    text = what_i_checked.casefold()
    for token in sorted(artifacts, key=len, reverse=True):
        text = text.replace(token, " ")
    seen = {w for w in new_words(text, claim) if len(w) >= MIN_WORD_LENGTH and w not in _LOOKING}
    claim_numbers = frozenset(_NUMBER.findall((claim or "").casefold()))
    numbers = [n for n in _NUMBER.findall(text) if n not in claim_numbers]
    if len(seen) >= MIN_NEW_WORDS or (numbers and seen):
        return None
    return (
        "whatIChecked names a screenshot or artifact but describes nothing visible in it "
        "beyond the claim (seed 003: open it and describe what is visible independently)"
    )


def named_files(text: str) -> frozenset[str]:
    """The files ``text`` names, case-folded: each ``file:line``, path and file name, and
    the file of each ``file:line`` and the last part of each path (``workflow.js:142``
    names ``workflow.js:142`` and ``workflow.js``)."""
    folded = text.casefold()
    names: set[str] = set(_find_names(_FILE_NAME, folded))
    for token in _find_names(_FILE_LINE, folded):
        names |= {token, token.rsplit(":", 1)[0]}
    for token in _find_names(_PATH, folded):
        if "/" in token and _is_path(token):
            names |= {token, token.rstrip("/").rsplit("/", 1)[-1]}
    return frozenset(n for n in names if n)


def restatement_reason(what_i_checked: str, claim: str | None) -> str | None:
    """Why ``whatIChecked`` shows nothing was checked, or None when it shows a check.

    The rule (seed 003 "Verifying a verification"), on case-folded words with a crude
    suffix strip (``inherits`` is ``inherit``):

    1. Take the words of ``whatIChecked``; drop the claim's words and :data:`FILLER_WORDS`
       (I, we, checked, verified, confirmed, looked, reviewed, tested, that, the, it, this,
       claim, finding, is, are, do, does, true, correct, valid, ok, yes, stopwords...).
    2. It shows a check when at least :data:`MIN_NEW_WORDS` distinct words of at least
       :data:`MIN_WORD_LENGTH` characters remain, or when it cites concrete evidence the
       claim did not (:func:`cited_evidence`): a path, ``file:line``, a command in
       backticks or a quoted string; or a number with at least one such new word to say
       what it counts (``41 agents``; a bare ``1`` appended to the claim is not a count).
    3. Otherwise it restates: ``"whatIChecked restates the claim"`` when nothing at all
       remains after step 1 (a copy, a reordering, a fragment, the claim behind "I
       checked:"), else ``"whatIChecked names no evidence..."`` (``"x"``, ``"checked it
       1 time"``).

    Without a claim only the filler and evidence parts apply. An empty or punctuation-only
    text is not judged here (:func:`gentle_hooks.quorum.votes.classify_verdict` calls it
    empty first); it restates.

    Args:
        what_i_checked: the verifier's ``whatIChecked``.
        claim: the finding's claim, or None when unknown.

    Returns:
        None when the text shows a check; else the abstention, one line.
    """
    remaining = new_words(what_i_checked, claim)
    named = {w for w in remaining if len(w) >= MIN_WORD_LENGTH}
    cited = cited_evidence(what_i_checked, claim)
    if any(not _NUMBER.fullmatch(token) for token in cited) or (cited and named):
        return None
    if len(named) >= MIN_NEW_WORDS:
        return None
    if not remaining and not cited:
        return "whatIChecked restates the claim"
    return (
        f"whatIChecked names no evidence: fewer than {MIN_NEW_WORDS} words beyond the claim, "
        "and no path, file:line, `command`, quote, or number with what it counts"
    )


def _core_words(text: str) -> list[str]:
    """``text``'s case-folded words in order, filler (:data:`FILLER_WORDS`) at either end
    dropped: ``"I checked: a.py:4 has no cap"`` is ``a py 4 has no cap``."""
    found = _WORD.findall(text.casefold())
    while found and _stem(found[0]) in _FILLER_STEMS:
        found.pop(0)
    while found and _stem(found[-1]) in _FILLER_STEMS:
        found.pop()
    return found


def evidence_restatement(what_i_checked: str, evidence: str | None) -> str | None:
    """Why ``whatIChecked`` is no independent check of the miner's ``evidence``, or None.

    Seed 003 "Verifying a verification": "Look for whatIChecked that merely restates the
    claim"; the finding's evidence is the miner's word as much as its claim is. Normalised
    (case-folded words, filler at either end dropped: :func:`_core_words`), a
    ``whatIChecked`` equal to the evidence or contained in it, word for word, shows
    nothing the verifier re-opened itself: the miner's ``workflow.js:142: the loop has no
    budget check`` copied back, or behind "I checked:". None without evidence.
    """
    if not evidence:
        return None
    mine = _core_words(what_i_checked)
    if not mine:
        return None
    if f" {' '.join(mine)} " in f" {' '.join(_WORD.findall(evidence.casefold()))} ":
        return "whatIChecked restates the miner's evidence: no independent check"
    return None


def is_restatement(what_i_checked: str, claim: str | None) -> bool:
    """True when ``whatIChecked`` shows nothing was checked (:func:`restatement_reason`).

    Seed 003 "Verifying a verification": "Look for whatIChecked that merely restates the
    claim". An exact, reordered or partial copy of the claim, the claim behind filler
    ("I checked: ...", "Verified that ..."), or filler alone ("checked it", "confirmed the
    claim") is a restatement; so is a text with fewer than :data:`MIN_NEW_WORDS` new words
    and no new cited evidence ("x").
    """
    return restatement_reason(what_i_checked, claim) is not None
