"""Whose act a sentence reports, and when: whether it is the verifier's own, in this run.

Room ``quorum``, pure functions (standard library only); no I/O. Read by
:mod:`.completed` (points 1 and 2 of its docstring). Seed ``003_0245072c02421c57.txt``:
"Independently re-open the cited evidence. Do not trust the miner's reading of it";
"Uphold ONLY if you re-opened the evidence yourself and it reproduces". An act is the
verifier's own when it has no subject ("Opened ...", "Ran ...") or the first person ("I
opened", "I've opened"), never when its subject is someone else (:func:`act_subject`: a
role, "The miner", "A colleague", or a name in any case, "Alice", "bob", "codex",
"gpt-4o", "o4-mini"); what code does ("the loop called ``spawn()``", "workflow.js called
``spawn()``") is no one's act (:func:`code_behaviour`); an act placed at another time or
in another review, run or branch ("Opened the file last week in another review") is not
this run's (:func:`elsewhere`).
"""

from __future__ import annotations

import re
from typing import Final

#: Third parties: an act whose subject is one of them is not the verifier's own.
_ROLES: Final = re.compile(
    r"(?:miner|author|writer|colleague|co-?worker|teammate|team|reviewer|maintainer|"
    r"contributor|submitter|reporter|developer|dev|engineer|tester|auditor|analyst|user|"
    r"someone|somebody|everyone|he|she|they|agent|subagent|model|bot|human|person|people|"
    r"lead|manager|friend|expert|assistant|finder|coder|owner|others?)(?:s|es)?"
)
#: Nouns naming code: "the loop called ``spawn()``" is what the code does (a result, no
#: one's act) when the act's object is code (:data:`_CODE_OBJECT`).
_CODE_NOUNS: Final = frozenset(
    {"loop", "function", "func", "test", "tests", "method", "handler", "code", "module"}
    | {"class", "script", "program", "callback", "worker", "job", "thread", "process", "hook"}
    | {"service", "server", "client", "runner", "parser", "routine", "scheduler", "pool"}
    | {"queue", "task", "suite", "fixture", "wrapper", "constructor", "caller", "callee"}
    | {"branch", "closure", "lambda", "generator", "coroutine", "query", "request"}
    | {"endpoint", "library", "component", "binary", "build", "pipeline", "step", "command"}
    | {"daemon", "controller", "helper", "factory", "middleware", "migration", "line", "call"}
)
#: Code as an act's object, right after its verb: a backticked command (masked to
#: `` `` ``), a call (``spawn(``), a ``file:line``, a path or a file name.
_CODE_OBJECT: Final = re.compile(r"\s*(?:``|[A-Za-z_][\w.]*\(|(?<![\w./-])[\w./-]+:\d+)")
#: Words between a subject and its act that do not change whose act it is.
_ADVERBS: Final = frozenset(
    {"also", "then", "first", "already", "just", "again", "myself", "ourselves", "both"}
    | {"next", "later", "once", "too", "even", "still", "all", "personally", "had", "have"}
)
#: The first person, contractions included ("I've opened" is the verifier's own act).
_FIRST_PERSON: Final = frozenset({"i", "we", "i've", "we've", "i'd", "we'd"})
#: Connectives that may open a clause before its subject ("so bob ran").
_CONNECTIVES: Final = frozenset({"so", "thus", "hence", "therefore", "and", "or", "yet", "plus"})
#: Words that cannot be part of a name before an act: pronouns of things, auxiliaries,
#: negations, prepositions, conjunctions and times ("it printed", "was opened", "in CI ran").
_NOT_NAMES: Final = frozenset(
    {"it", "this", "that", "these", "those", "which", "who", "what", "there", "here", "me"}
    | {"was", "were", "is", "are", "be", "been", "being", "has", "have", "had", "did", "do"}
    | {"does", "got", "get", "not", "never", "no", "in", "on", "at", "by", "with", "from"}
    | {"for", "of", "to", "into", "via", "after", "before", "during", "since", "when", "while"}
    | {"where", "as", "per", "under", "over", "through", "without", "because", "if", "each"}
    | {"every", "now", "today", "yesterday", "earlier", "tonight", "us", "our", "my"}
)
#: Commands named bare as an act's subject: "grep found 41 matches" reports what the
#: command gave, as ```grep ...`` printed 41` does (:data:`~.completed.COMMAND_RESULT`),
#: no one else's act.
_COMMANDS: Final = frozenset(
    {"grep", "rg", "ag", "git", "pytest", "npm", "node", "python", "python3", "make", "go"}
    | {"cargo", "jq", "wc", "ls", "cat", "diff", "find", "sed", "awk", "curl", "mypy", "ruff"}
    | {"tsc", "jest", "tox", "bash", "sh", "uv", "pip", "yarn", "pnpm", "deno", "strace"}
)
#: A word of a name as the subject of an act: "bob", "codex", "gpt-4o", "o4-mini", "Claude".
_NAME_WORD: Final = re.compile(r"(?=[\w+.-]*[^\W\d_])\w[\w+.-]*")
#: A subject that is itself code: a ``file:line``, a path, a file name (an extension starting
#: with a letter: ``workflow.js``, not ``gpt-4.1``) or a call (``spawn()``).
_CODE_SUBJECT: Final = re.compile(
    r"[\w./-]+:\d+|(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)+|[\w-]+(?:\.[a-z]\w*)+|[a-z_][\w.]*\(\)?"
)
_DETERMINERS: Final = frozenset(
    {"the", "a", "an", "another", "my", "our", "his", "her", "their", "your", "some", "one"}
    | {"this", "that", "other", "previous", "prior", "earlier", "original"}
)
#: The object of an act, right after its verb: a backticked command or quote (`` `` ``
#: once masked), a ``file:line`` (its colon and lines included), a path or a file name.
OBJECT: Final = re.compile(
    r"\s*(?<![\w./-])(?:``|[\w./-]+:\d+(?:[-,:]\d+)*|(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)+|[\w-]+(?:\.[\w-]+)+)"
)
#: The colon and lines of a ``file:line`` (part of what was opened, no separator).
FILE_LINE_COLON: Final = re.compile(r"(?<=[\w.])(:\d+)+")


def act_subject(before: str, cased: str | None = None) -> str | None:
    """The third party that performed an act, or None when the act is the verifier's own.

    Args:
        before: the case-folded text of the act's clause before its verb.
        cased: the same text as written (a name is told by its capital), or None.

    Returns:
        The subject's words ("the miner", "a colleague", "the previous verifier",
        "alice"): a role (:data:`_ROLES`: miner, author, writer, colleague, reviewer...),
        a ``verifier`` other than this one, a noun after a determiner ("The/A/An <noun>"),
        a capitalised name right before the verb, or a name that is the whole clause
        before the verb in any case (:func:`_named`: "bob", "codex", "gpt-4o", "o4-mini",
        "claude code"). None for no subject ("Opened ...", "Ran ...") and for the first
        person ("I opened", "we ran", "I've opened").
    """
    found = before.split()
    shown = (cased or "").split()
    shown = shown if len(shown) == len(found) else []
    while found and (found[-1] in _ADVERBS or (found[-1].endswith("ly") and len(found[-1]) > 3)):
        found.pop()
        shown = shown[:-1] if shown else shown
    if not found or found[-1] in _FIRST_PERSON:
        return None
    last = found[-1].removesuffix("'s")
    tail = found[-4:]
    named = shown and shown[-1][:1].isupper() and shown[-1][1:].islower() and len(found) == 1
    if _ROLES.fullmatch(last) or named:
        return " ".join(found[-2:] if len(found) > 1 and found[-2] in _DETERMINERS else found[-1:])
    if last == "verifier" and len(found) > 1 and found[-2] in _DETERMINERS - {"this"}:
        return " ".join(found[-3:] if len(found) > 2 and found[-3] in _DETERMINERS else found[-2:])
    for i, word in enumerate(tail[:-1]):
        if word in _DETERMINERS and word != "this" and all(w.isalpha() for w in tail[i + 1 :]):
            return " ".join(tail[i:])
    return _named(found)


def _named(found: list[str]) -> str | None:
    """The name that is the whole subject ``found`` (the case-folded words of an act's
    clause before its verb, trailing adverbs dropped), or None: after leading connectives
    and adverbs ("so", "then", "also", "-ly"), one to three words, each a name's
    (:data:`_NAME_WORD`, none of :data:`_NOT_NAMES` or :data:`_DETERMINERS`): "bob",
    "gpt-4o", "o4-mini", "claude code"; or one word that is code (:data:`_CODE_SUBJECT`:
    ``workflow.js``, ``spawn()``), whose act :func:`code_behaviour` reads as what code
    does. "In CI ran", "it printed", "was opened", "41 spawns counted" name no one, nor
    does a command (:data:`_COMMANDS`: "grep found 41 matches")."""
    words = list(found)
    while words and (
        words[0] in _CONNECTIVES | _ADVERBS or (words[0].endswith("ly") and len(words[0]) > 3)
    ):
        words.pop(0)
    if len(words) == 1 and _CODE_SUBJECT.fullmatch(words[0]):
        return words[0]
    if words and words[-1] in _COMMANDS:
        return None
    if not 0 < len(words) <= 3:
        return None
    for word in words:
        if word in _NOT_NAMES | _DETERMINERS | _FIRST_PERSON:
            return None
        if not _NAME_WORD.fullmatch(word.removesuffix("'s")):
            return None
    return " ".join(words)


def code_behaviour(who: str, after: str) -> bool:
    """Whether an act whose subject is ``who`` (:func:`act_subject`) is what code does, not
    someone's act: the subject is a noun of code after a determiner ("the loop", "the
    function", "the test": :data:`_CODE_NOUNS`) and the act's object, ``after`` (the masked
    text after its verb), starts with code (``spawn()``, a backticked command, a
    ``file:line``, a path or a file name); or the subject is itself code (``workflow.js``,
    ``spawn()``: :data:`_CODE_SUBJECT`). Such a sentence is a result, the verifier's or
    the miner's: it neither counts as the verifier's act nor names a third party."""
    words = who.split()
    if len(words) == 1 and _CODE_SUBJECT.fullmatch(words[0]):
        return True
    if len(words) < 2 or words[0] not in _DETERMINERS or words[-1] not in _CODE_NOUNS:
        return False
    return _CODE_OBJECT.match(after) is not None or OBJECT.match(after) is not None


#: Another time or another review, run or branch as where an act happened ("last week",
#: "3 days ago", "in another review", "on a previous run", "last time").
ELSEWHERE: Final = re.compile(
    r"\b(?:yesterday|last\s+(?:week|month|year|night|time|sprint)|"
    r"(?:\d+|an?|one|two|three|four|five|a\s+few|a\s+couple\s+of|few|several|some)\s+"
    r"(?:minute|hour|day|week|month|year)s?\s+(?:ago|back)|a\s+while\s+(?:ago|back)|"
    r"long\s+ago|in\s+the\s+past|"
    r"(?:in|during|on|for)\s+(?:another|an?\s+(?:other|previous|prior|earlier|older|old|past|"
    r"different|separate|former|last)|the\s+(?:other|previous|prior|earlier|last|old|former|"
    r"past))\s+(?:review|run|session|round|pass|audit|verification|iteration|pr|pull\s+request|"
    r"task|ticket|branch|checkout|worktree|candidate|commit|attempt|job|pipeline|build|quorum)s?)\b"
)
#: The same said before the act, in its clause: "I previously ran", "Earlier, I opened".
_ELSEWHERE_BEFORE: Final = re.compile(r"\b(?:previously|formerly|earlier|before\s+today)\b")
#: Words before a time that make it the object's, not the act's: "the grep from last week".
_OF_OBJECT: Final = re.compile(r"\b(?:from|since|of|than|until)\s*$")
#: Where an act's clause ends after it: the separator before its result (the colon of a
#: ``file:line`` is none).
_ACT_END: Final = re.compile(r"(?<![\w.]):|:(?!\d)|[;\u2014]|\s--?\s|->|=>")


def elsewhere(text: str, start: int, end: int) -> str | None:
    """The words that place the act at ``text[start:end]`` (masked, case-folded: see
    :func:`~.completed._masked`) outside this run, or None. Its clause runs from the last
    ``;`` before it to the first separator after it (a ``file:line``'s colon is none:
    :data:`_ACT_END`), so the result's words ("3 failed, as in the previous run") and
    another clause's ("The miner ran it last week; I re-ran ...") are not read. Seed 003
    "Uphold ONLY if you re-opened the evidence yourself and it reproduces": an act at
    another time (:data:`ELSEWHERE`: "last week", "3 days ago"; before the verb also
    "previously", "earlier") or in another review, run or branch ("in another review", "on
    the previous run") is not this run's re-opening; a time that is the object's ("the grep
    from last week") does not count."""
    before = text[text.rfind(";", 0, start) + 1 : start]
    cut = _ACT_END.search(text, end)
    clause = f"{before} {text[start : cut.start() if cut else len(text)]}"
    for found in ELSEWHERE.finditer(clause):
        if not _OF_OBJECT.search(clause[: found.start()]):
            return found.group(0)
    earlier = _ELSEWHERE_BEFORE.search(before)
    return earlier.group(0) if earlier else None
