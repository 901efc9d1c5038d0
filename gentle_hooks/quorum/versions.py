"""Which tree an act was done in: the candidate's, or another version of the file.

Room ``quorum``, patterns only (standard library); no I/O. Read by :mod:`.copies`
(:func:`~.copies.copy_of`, row ``G-finding`` of :mod:`.grounds`). Seed
``003_0245072c02421c57.txt``: "Independently re-open the cited evidence"; "Uphold ONLY if
you re-opened the evidence yourself and it reproduces"; "Default to refuted when
uncertain". The evidence is the candidate's; a file read or a command run in any other
version of it reproduced nothing of the candidate. Each pattern is a class of words, not a
list of sentences; every one matches the act's object (case-folded) in, from, on or at the
place ("in the first patch set") or as its head ("the earlier draft of app.py:12"):

* :data:`OTHER_PLACE` — a tree or version named by what sets it apart: "in a stale
  checkout", "in an old clone", "on the previous commit"; an order word before a version
  noun (:data:`_ORDER`, :data:`_VERSION`: "in an earlier draft", "in the first patch set",
  "in the original diff", "in the second commit of the PR", "in the PR's first revision",
  "the previous revision of"); a state of the writer's tree before a tree noun
  (:data:`_STATE`, :data:`_TREE`: "in my local checkout", "in the uncommitted work tree",
  "from the stashed changes");
* :data:`OTHER_VERSION` — a version named by its revision or its moment: "at HEAD~3", "on
  the main branch", "in v1.2", "in revision 1", "in patch set 3", "before the change",
  "before the rebase", "prior to the force-push", "before squashing", "in patch 2 of 3",
  "in the stash", "stash@{0}", "in the draft" ("before the fix and after" read both);
* :data:`SOME_TREE` — a tree named by an indefinite article alone: "in a checkout", "from
  some clone" (which tree is unsaid);
* :data:`WORK_TREE` — the writer's work tree ("in the work tree", "in the working copy"):
  the gate never runs checks there, since it may hold what the candidate does not (SPEC
  §9: the clean room holds "nothing of the writer's context"); the room's own ("in the
  work tree of the room", "in the room's tree") and the candidate's are not it;
* :data:`NOT_CANDIDATE` — the object says it is not the candidate's: "(not the
  candidate)", "instead of the candidate", "outside the room".

Near misses stay the candidate's: an order word before a noun that is not a version ("the
first call", "the original behaviour of the parser", "the second branch of the if"), "in a
fresh checkout of the candidate", "in my clone", "against the previous commit" (a
comparison reads the candidate too).
"""

from __future__ import annotations

import re
from typing import Final

#: Where the place starts: the object's own head, or a preposition of place.
_AT: Final = r"(?:^\s*|(?<!\w)(?:in|from|on|at|inside|within|via|through|under)\s+)"
_DET: Final = r"(?:(?:the|a|an|my|our|your|his|her|their|its|this|that|some)\s+)?"
#: What may follow a noun that ends the place: the object's end, a separator, a
#: possessive, a preposition or a relative clause ("the draft PR" is a PR, not a draft).
_END: Final = (
    r"(?=\s*$|\s*[,;:()\u2014]|'s(?!\w)|\s+(?:of|for|on|in|at|from|by|with|that|which|where"
    r"|and|or|before|after|to|i|we|instead|rather|not|[0-9a-f]{7,40})(?!\w))"
)
#: Order and age words: which version among several.
_ORDER: Final = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th)"
    r"|earlier|earliest|original|older|oldest|old|previous|prior|preceding|former|initial"
    r"|superseded|abandoned|rejected|discarded|pre-?rebase|pre-?squash|pre-?amend"
    r"|pre-?force-?push|unrebased|unsquashed|unamended)"
)
#: Nouns that name a version of the change (not "file" or "source": "the original file"
#: may mean the file itself rather than a copy of it).
_VERSION: Final = (
    r"(?:drafts?|revisions?|revs?|versions?|patch\s*sets?|patchsets?|patch(?:es)?|diffs?"
    r"|commits?|push(?:es)?|iterations?|snapshots?|releases?|submissions?|uploads?"
    r"|change-?\s?sets?|code|copy|copies|checkouts?|clones?|prs?|pull\s+requests?|mrs?"
    r"|merge\s+requests?|tags?|builds?|cuts?)"
)
#: States of the writer's tree the candidate is not.
_STATE: Final = r"(?:local|uncommitted|unstaged|dirty|unsaved|stashed)"
_TREE: Final = (
    r"(?:checkouts?|clones?|cop(?:y|ies)|work(?:ing)?[\s-]?trees?|worktrees?|working[\s-]"
    r"cop(?:y|ies)|working[\s-]dir(?:ector(?:y|ies))?|repo(?:sitor(?:y|ies)|s)?"
    r"|branch(?:es)?|versions?|changes|edits|state|trees?|diffs?)"
)
#: The room and the candidate: a tree of theirs is the candidate's.
_OURS: Final = r"(?:clean[\s-]+)?(?:room|candidate)"
_NOT_OURS: Final = rf"(?!\s+(?:of|in|inside|for)\s+(?:the\s+|this\s+|our\s+|my\s+)?{_OURS})"
_OLD_PLACE: Final = (
    r"(?<!\w)(?:in|from|on|at|inside|within|via|through|under)\s+"
    r"(?:(?:the|a|an|my|our|some|this|that)\s+)?(?:[\w'-]+\s+)?"
    r"(?:stale|old|older|outdated|out-of-date|cached|previous|prior|earlier|another|other"
    r"|different|separate|unrelated|archived|expired|obsolete|legacy|someone\s+else's)\s+"
    r"(?:[\w-]+\s+)?(?:checkout|clone|worktree|work\s+tree|copy|version|build|branch|tree"
    r"|repo|repository|commit|revision|snapshot|install|installation|environment|sandbox"
    r"|container|machine|mirror|fork|release|tag)s?(?!\w)"
)
#: Another tree or version named by what sets it apart (module docstring).
OTHER_PLACE: Final = re.compile(
    rf"{_OLD_PLACE}"
    rf"|{_AT}{_DET}(?:[\w'-]+\s+)?{_ORDER}\s+(?:[\w-]+\s+)?{_VERSION}{_END}"
    rf"|{_AT}{_DET}(?:[\w'-]+\s+)?{_STATE}\s+(?:[\w-]+\s+)?{_TREE}(?!\w){_NOT_OURS}"
)
#: What rewrites a change: the candidate is what came after it.
_REWRITE: Final = (
    r"(?:re-?base|squash|amend(?:ment)?|force[\s-]?push|push|merge|cherry[\s-]?pick|reset"
    r"|revert|fixup|update|rewrite|refactor|change|patch|commit|fix|edit|diff|revision)(?:s|es)?"
)
_REWRITING: Final = (
    r"(?:re-?basing|squashing|amending|force[\s-]?pushing|pushing|merging|cherry[\s-]?picking"
    r"|resetting|reverting|rewriting|committing|fixing|editing)"
)
#: "before the fix and after": both versions, the candidate among them.
_NOT_AFTER: Final = r"(?!\s+and\s+after(?!\w))"
#: Another version named by its revision or its moment (module docstring).
OTHER_VERSION: Final = re.compile(
    r"(?<!\w)(?:(?:at|on|in|from|of)\s+head(?:[~^]\d*)+"
    r"|(?:at|on|in|from)\s+(?:the\s+)?(?:main|master|develop|trunk)(?:\s+branch)?"
    r"(?=\s*(?:[,.;:)\u2014]|$)|\s+(?:instead|rather)(?!\w))"
    r"|(?:at|on|in|from)\s+(?:the\s+)?(?:main|master|develop|trunk)\s+branch"
    r"|(?:in|at|on|from|of)\s+(?:the\s+)?(?:v\d+(?:\.\d+)*|version\s+\d[\w.]*|release\s+\d[\w.]*"
    r"|(?:revision|rev|patch\s*set|patchset|ps|patch|iteration|draft)\s*#?\d+)"
    r"|(?:before|prior\s+to|ahead\s+of)\s+(?:(?:the|this|his|her|their|its|that|my|our|a|any"
    rf"|every)\s+)?(?:[\w-]+\s+)?{_REWRITE}{_NOT_AFTER}|before\s+{_REWRITING}{_NOT_AFTER}"
    r"|stash@\{\d+\})(?![\w./])"
    rf"|{_AT}{_DET}(?:git\s+)?(?:stash(?:es)?|drafts?){_END}"
)
#: A tree named by an indefinite article alone (module docstring; "in a fresh checkout of
#: the candidate" and "in my clone" name it).
SOME_TREE: Final = re.compile(
    r"(?<!\w)(?:in|from|on|inside|within|via|through|under)\s+(?:a|an|some|one)\s+"
    r"(?:checkout|clone|copy|mirror|fork|worktree|work\s+tree|sandbox)(?!\w)"
)
#: The writer's work tree, not the room's or the candidate's (module docstring).
WORK_TREE: Final = re.compile(
    rf"{_AT}{_DET}(?:(?![\w'-]*{_OURS})[\w'-]+\s+){{0,2}}"
    r"(?:work(?:ing)?[\s-]?trees?|worktrees?|working[\s-]cop(?:y|ies)"
    rf"|working[\s-]dir(?:ector(?:y|ies))?|work[\s-]?dirs?)(?!\w){_NOT_OURS}"
)
#: The object says it is not the candidate's (module docstring).
NOT_CANDIDATE: Final = re.compile(
    r"(?<!\w)(?:not|instead\s+of|rather\s+than|other\s+than|outside(?:\s+of)?)\s+"
    rf"(?:(?:in|from|on|at)\s+)?(?:the\s+|our\s+)?{_OURS}(?:'s)?(?!\w)"
)
#: Every pattern of this module, in the order :func:`~.copies.copy_of` tries them.
PLACES: Final = (OTHER_PLACE, SOME_TREE, OTHER_VERSION, WORK_TREE, NOT_CANDIDATE)
