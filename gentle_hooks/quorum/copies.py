"""What a reading act read: the repository's own file, or a copy of it or another source.

Room ``quorum``, pure functions (standard library and :mod:`.versions`); no I/O. Read by
:mod:`.grounds` (row ``G-finding``). Seed ``003_0245072c02421c57.txt``: "Independently
re-open the cited evidence. Do not trust the miner's reading of it"; "A verifier that only
reads the finding is an opinion generator". The file must be read from the candidate's own
tree; classes of words, not sentences, tell when it was not (:func:`copy_of`):

* a copy named by what it is (:data:`_COPY`, :data:`_COPY_HEAD`: "the miner's excerpt of
  workflow.js:142", "as quoted in the finding", "in the transcript") or by who handed it
  over (:data:`_HANDED`: "the diff the miner posted");
* a container other than the repository (:data:`CONTAINER`: ticket, message, thread, chat,
  paste, pastebin, tarball, zip, archive, attachment, screenshot, wiki, document...) that
  the file was read in, from, on or through ("from the tarball the writer sent", "in the
  Jira ticket", "on the Teams message"), or that was opened ("the pastebin of …"): the
  container must be what the object ends on ("in the message handler" is code);
* a second-hand account of the change (:data:`SECOND_HAND`: "the commit message, which
  says …", "the changelog entry for …", "the code review comments on …", "in the release
  notes", "the PR title", "the issue text about …"), read or read in;
* another tree or version than the candidate's (:data:`.versions.PLACES`: "in a stale
  checkout", "in a checkout", "at HEAD~3", "in an earlier draft", "in the first patch
  set", "before the rebase", "in the stash", "in my local checkout", "in the work tree"),
  for any act, a command too;
* a hosted or review view (:data:`_HOSTED`: "on GitHub", "in the browser", "online", "in
  Gerrit", "in the code review tool", "in the PR diff") for a reading act.

A copy that only points to the file ("Opened workflow.js:142 cited in the ticket",
:data:`_POINTER`) was not read through; "my clone", the room's tree and "the editor" are
the candidate's tree, and a file opened beside a second-hand account ("Opened app.py:12
and read the commit message") was opened itself.
"""

from __future__ import annotations

import re
from typing import Final

from gentle_hooks.quorum.versions import PLACES

_WHO: Final = (
    r"(?:miner|writer|author|reviewer|agent|submitter|reporter|coder|model|finder|worker"
    r"|sub-?agent|bot|assistant|contributor)"
)
_WHAT: Final = (
    r"(?:finding|report|transcript|summary|claim|evidence|write-?up|notes?|description"
    r"|message|output|account|dossier|comment|reading|analysis|log|diff|patch|gist"
    r"|screen-?shot|attachment|paste)"
)
FINDING: Final = re.compile(
    rf"(?<!\w)(?:{_WHO}(?:'s|s')?\s+{_WHAT}s?"
    r"|(?:pr|pull\s+request|merge\s+request|mr|issue|ticket)(?:'s)?\s+"
    r"(?:description|body|summary|text|title|comments?)"
    r"|the\s+(?:finding|claim|dossier|write-?up|transcript|summary)s?)(?!\w)"
)
#: Copies of the evidence: what the miner, the writer or the task shows of a file.
_COPY: Final = (
    r"(?:finding|report|transcript|summary|claim|write-?up|notes?|description|message"
    r"|dossier|comments?|analysis|excerpt|snippet|quote|quotation|paste|pastebin|copy"
    r"|extract|citation|task(?:\s+(?:description|text|statement|prompt|brief))?|brief|prompt"
    r"|ticket|issue|chat|thread|conversation|evidence|gist|screen-?shot|attachment|image"
    r"|e-?mail|printout|print-?out|scratch-?pad|photo|picture|log"
    r"|(?:pr|pull\s+request|merge\s+request|mr)(?:\s+(?:description|body|text))?)s?"
)
_OWNER: Final = (
    rf"(?:(?:the|a|an|this|that|his|her|their|its|my)\s+)?(?:{_WHO}(?:'s|s')?\s+)?"
    r"(?:(?:quoted|pasted|copied|cited|attached|included|embedded|original|submitted|earlier"
    r"|cached|previous|old|shared|posted|sent|forwarded|e-?mail|slack|teams|discord|printed)\s+)?"
)
#: What another party handed over, named by who handed it: "the diff the miner posted",
#: "the copy the writer attached", "the log that the worker shared".
_HANDED: Final = (
    r"(?:diff|patch|log|output|file|version|text|code|copy|snippet|excerpt|paste|listing"
    r"|summary|message|comment|attachment|gist|screen-?shot|image)s?\s+(?:that\s+|which\s+)?"
    rf"(?:the\s+|a\s+|an\s+|this\s+|that\s+)?{_WHO}s?\s+(?:had\s+|has\s+)?"
    r"(?:posted|attached|sent|shared|pasted|linked|gave|given|provided|uploaded|included"
    r"|quoted|wrote|written|produced|generated|submitted|dumped|forwarded|showed|shown)"
)
#: Where a container ends the object: its end, a separator, or a relative clause or
#: preposition ("the tarball the writer sent"), never another noun ("message handler").
_ENDS: Final = (
    r"\s*$|\s*[,;()\u2014]|\s+(?:that|which|the|a|an|i|we|you|he|she|they|someone"
    r"|somebody|from|of|by|with|on|in|at|for|about|regarding|concerning|sent|shared|posted|attached|given|provided"
    r"|linked|uploaded|forwarded|received|" + _WHO + r"s?)(?!\w)"
)
#: An object read through a copy: "workflow.js:142 as quoted in the finding", "… in the
#: transcript", "… from the miner's paste" (not "… named in the finding": a pointer).
_VIA_COPY: Final = re.compile(
    rf"(?<!\w)(?:(?:as\s+)?(?:quoted|pasted|copied|excerpted|transcribed|reproduced)\s+"
    r"(?:in|by|from|into)\s+(?:(?:the|a|an|this|that|his|her|their|its)\s+)?[\w'-]+"
    rf"(?:\s+(?:description|text|body))?|(?:in|from|inside|within|via|through)\s+{_OWNER}{_COPY}"
    rf"(?!'|\w)(?={_ENDS})"
    rf"|(?:in|from|inside|within|via|through|\()\s*{_OWNER}{_HANDED}"
    rf"|(?:in|from|of|on|inside|within|via|through)\s+(?:the\s+)?{_WHO}(?:'s|s')\s+(?:{_WHAT}|clone"
    r"|checkout|worktree|work\s+tree|sandbox|machine|workspace|environment|branch|copy|session"
    r"|editor|ide|screen|terminal)s?(?!\w))"
)
#: Containers other than the repository a file can be read in or from, by kind: archives,
#: pastes, pictures, tickets and documents, messages, copies.
CONTAINER: Final = (
    r"(?:tarball|tar|tgz|zip|zipfile|zip-?file|archive|bundle|attachment|upload|download"
    r"|backup|dump|export|paste|pastebin|gist|snippet|excerpt|extract|quote|screen-?shot"
    r"|image|photo|picture|scan|recording|video|printout|print-?out|ticket|issue|card|wiki"
    r"|page|doc|document|pdf|spreadsheet|slide|message|thread|chat|dm|e-?mail|mail|post"
    r"|reply|tweet|channel|conversation|comment|copy|mirror|fork|cache|preview|build|bundle"
    r"|artifact)(?:s|es)?"
)
#: Second-hand accounts of a change: what someone wrote about the file, not the file ("the
#: commit message", "the changelog entry for", "the code review comments on", "the release
#: notes", "the PR title", "the issue text"); read, they reproduce nothing.
SECOND_HAND: Final = (
    r"(?:(?:git\s+)?(?:commit|log|merge|squash|tag|check-?in)\s+(?:messages?|logs?|bod(?:y|ies)"
    r"|subjects?|titles?|descriptions?|notes?)"
    r"|change-?\s?logs?(?:\s+(?:entry|entries|lines?|notes?|sections?|items?))?"
    r"|release\s+(?:notes?|announcements?)|news\s+entr(?:y|ies)"
    r"|(?:upgrade|migration|patch)\s+notes?"
    r"|(?:code\s+)?review(?:er'?s?)?\s+(?:comments?|notes?|threads?|feedback|remarks?"
    r"|summar(?:y|ies)|discussions?)|code\s+reviews?"
    r"|(?:pr|pull\s+request|mr|merge\s+request|cl|change\s*list)(?:'s)?\s+(?:descriptions?"
    r"|bod(?:y|ies)|summar(?:y|ies)|texts?|titles?|comments?|discussions?|conversations?"
    r"|threads?|notes?)"
    r"|(?:issue|ticket|bug|jira)(?:'s)?\s+(?:texts?|descriptions?|bod(?:y|ies)|reports?"
    r"|summar(?:y|ies)|titles?|comments?|threads?)|bug\s+reports?"
    r"|(?:github|gitlab|gitea|jira|linear|youtrack|bugzilla|tracker)\s+(?:issues?|tickets?|bugs?))"
)
_CONTAINER_END: Final = rf"(?={_ENDS})"
#: The file read in, from, on or through a container: "from the tarball the writer sent".
_VIA_CONTAINER: Final = re.compile(
    r"(?<!\w)(?:in|from|on|inside|within|via|through|out\s+of|off)\s+"
    r"(?:(?:the|a|an|this|that|his|her|their|its|my|our|some)\s+)?(?:[\w'.-]+\s+){0,2}?"
    + rf"(?:{CONTAINER}|{SECOND_HAND})"
    + _CONTAINER_END
)
#: A hosted view of the file instead of the candidate's tree: "on GitHub", "in the browser".
_HOSTED: Final = re.compile(
    r"(?<!\w)(?:(?:on|in|via|through|from|at)\s+(?:the\s+)?(?:github|gitlab|bitbucket|gitea"
    r"|codeberg|sourcehut|sourcegraph|web|website|browser|web\s+ui|web\s+interface|internet"
    r"|remote|upstream|origin|gerrit|phabricator|review\s*board"
    r"|(?:code\s+)?review\s+(?:tool|ui|page|site)|(?:pr|pull\s+request|mr|merge\s+request)\s+diff)"
    r"(?:\.com|\.org)?|online)(?![\w.])"
)
#: Words before a preposition that make the copy a pointer to the file, not what was read.
_POINTER: Final = re.compile(
    r"(?:cited|named|mentioned|referenced|listed|linked|flagged|identified|given|pointed"
    r"\s+to|as)\s*$"
)
#: An object that is itself a copy of the file: "the miner's excerpt of workflow.js:142".
_COPY_HEAD: Final = re.compile(
    rf"\s*(?:the\s+)?(?:(?:{_WHO}(?:'s|s')?\s+{_WHAT}s?)|{_OWNER}"
    rf"(?:{CONTAINER}|quotation|citation|{SECOND_HAND}))(?!'|\w)(?=\s+of(?!\w)|{_ENDS})"
)
#: A copy's head followed by the file it was found in: locating a quote in the source.
_IN_SOURCE: Final = re.compile(r"\s*(?:verbatim\s+)?(?:in|at|inside|within)\s+\S+[./]\S")
#: Acts that read what their object shows (running a command from a copy still ran it).
_READS: Final = re.compile(
    r"(?:re-?\s*)?(?:open|opened|opening|read|inspected|grep|grepped|grepping|traced|trace"
    r"|loaded|fetched|listed|printed|counted|count|searched|search|compared|located|found)"
)


def _unpointed(patterns: tuple[re.Pattern[str], ...], thing: str) -> str | None:
    """The first place one of ``patterns`` finds in ``thing`` that no pointer word
    (:data:`_POINTER`) comes right before, its whitespace collapsed; None when none."""
    for pattern in patterns:
        for place in pattern.finditer(thing):
            if not _POINTER.search(thing[: place.start()]):
                return " ".join(place.group(0).split())
    return None


def copy_of(verb: str, thing: str) -> str | None:
    """The copy or other source a reading act's object ``thing`` is read through or is, or
    another tree or version any act was done in (:data:`.versions.PLACES`); None for the
    candidate's own file (module docstring)."""
    place = _unpointed(PLACES, thing)
    if place is not None or not _READS.fullmatch(verb):
        return place
    via = _unpointed((_HOSTED, _VIA_CONTAINER, _VIA_COPY), thing)
    if via is not None:
        return via
    head = _COPY_HEAD.match(thing)
    if head is not None and head.group(0).strip() and not _IN_SOURCE.match(thing, head.end()):
        return " ".join(head.group(0).split())
    return None
