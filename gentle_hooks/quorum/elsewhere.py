"""Whether an upheld ``whatIChecked`` places what it saw elsewhere than the candidate's
tree, or leaves it for later (SPEC §9; seed 003; issue 18, refuter r18o finding 3).

Room ``quorum``, patterns only (standard library); no I/O. Seed
``003_0245072c02421c57.txt``: "Independently re-open the cited evidence"; "Uphold ONLY if
you re-opened the evidence yourself and it reproduces"; "Default to refuted when
uncertain". Evidence seen in a clone from last month, in the base branch, before the
writer's last push, in production, in a CI log, "or so the log says", or "to be confirmed"
reproduced nothing of the candidate in this review: :func:`elsewhere_reason` names it,
and :func:`gentle_hooks.quorum.ruling.judged` refutes a vote that would otherwise have
upheld (after every other step, so the more specific rows keep their reasons:
:mod:`.versions`, :mod:`.completed`, :mod:`.grounds`).

Not here: the inversion seed 003 asks for (an upheld vote supports only when its
``file:line`` quote is at that line of the candidate's tree, or its command is one the
clean room observed) needs the tree and ``verify run``'s record, which this pure room does
not read.
"""

from __future__ import annotations

import re
from typing import Final


def _words(*phrases: str) -> re.Pattern[str]:
    body = "|".join(p.replace(" ", r"[\s-]+") for p in phrases)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


#: Words placing the check in another tree, time or system than the candidate's, or
#: leaving it for later; matched whole-word in the case-folded text.
ELSEWHERE: Final[re.Pattern[str]] = _words(
    # another copy, at another time
    r"(?:clone|checkout|copy|fork|build|tree) from (?:last|a|an|the other) \w+",
    "last month",
    "last year",
    "a while ago",
    "weeks ago",
    "months ago",
    # another branch or state of the writer's work
    "base branch",
    "release branch",
    "the writer's last",
    "before the writer",
    "last push",
    "previous push",
    "earlier push",
    "before the push",
    "before the last push",
    # another system
    "in production",
    "on production",
    "production logs?",
    "production server",
    "in prod",
    "on prod",
    "in staging",
    "on staging",
    r"(?:the )?deployed (?:box|server|host|machine|instance|environment|env|site|build|version)",
    "on the box",
    r"(?:customer|client|user)'?s? (?:environment|env|box|server|machine|site|install|"
    r"installation|setup|repo|repository|tree)",
    "release candidate",
    # someone else's record of a run
    "ci logs?",
    "ci output",
    "ci run",
    "build logs?",
    "ci artifacts?",
    "build artifacts?",
    "the logs? says?",
    "logs? says?",
    "according to the logs?",
    "or so the",
    # left for later
    "to be confirmed",
    "to be verified",
    "to be checked",
    "tbc",
    "tbd",
    "will confirm",
    "will verify",
    "pending confirmation",
    "not yet confirmed",
    "unconfirmed",
    r"needs? (?:a )?(?:double|re|second|further|more)(?:[\s-]+)?check(?:ing)?",
    r"needs? (?:to be )?(?:double|re)(?:[\s-]+)?checked",
    r"(?:should|must|will) be (?:double|re)(?:[\s-]+)?checked",
    r"(?:should|must|will) be (?:verified|confirmed|reproduced) later",
    r"needs? (?:a )?(?:second|another|closer) look",
    r"needs? (?:further|more) (?:checking|verification|review|investigation)",
    r"pending (?:review|verification|re-?check|reproduction)",
    "not yet reproduced",
    "yet to be reproduced",
    "yet to be (?:checked|verified|confirmed)",
)


def elsewhere_reason(what_i_checked: str) -> str | None:
    """Why ``what_i_checked`` places its evidence elsewhere than the candidate's tree, or
    leaves it unconfirmed; None when nothing says so.

    Returns:
        ``"evidence placed elsewhere than the candidate's tree ('in production'): it
        reproduces nothing of the candidate, refute (seed 003)"``, or None.
    """
    text = " ".join(what_i_checked.replace("\u2019", "'").casefold().split())
    found = ELSEWHERE.search(text)
    if found is None:
        return None
    return (
        f"evidence placed elsewhere than the candidate's tree, or left unconfirmed "
        f"({found.group(0)!r}): it reproduces nothing of the candidate, refute (seed 003)"
    )
