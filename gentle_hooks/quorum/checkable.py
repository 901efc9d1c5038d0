"""Whether an upheld ``whatIChecked`` holds evidence that can be checked against the
candidate: evidence reproduces or it refutes (SPEC §9; seed 003; issue 18, refuter r18o
finding 3).

Room ``quorum``, pure functions (standard library); the caller hands over what the
candidate's tree holds at the cited files and what the clean room observed. Seed
``003_0245072c02421c57.txt`` "What counts as reproducing evidence": a file and line is
reproduced when "The line exists and says what was claimed", a quote when it is "Found
verbatim in the cited source", a count or a behaviour when the query or sequence is re-run;
"A finding whose evidence is a plausible narrative refutes". With a :class:`CheckSource`
(``quorum tally --observed``: the candidate's tree and ``verify run``'s record) an upheld
vote supports only when :func:`checkable_reason` finds one of

* a cited ``path:LINE`` (or ``path:A-B``) with a quote (in backticks or double quotes,
  between the citations before and after it) found verbatim (whitespace folded) at that
  line (or in that range) of the candidate's tree; or
* a command in backticks that the clean room ran (:attr:`CheckSource.observed`, whitespace
  folded), with no exit status stated that differs from the one it observed;

every other upheld vote is narrative and refutes, with the reason naming what did not
check out. Deny-list readings (:mod:`.narrative`, :mod:`.elsewhere`...) run before it.

A source with no clean-room record (``observed`` None: ``quorum tally --tree REV``) checks
citations only: a vote whose citations miss but that names a command in backticks is not
refuted for it (nothing records what ran), :func:`unobserved_reason` says so and the
caller counts the vote unchecked (:mod:`.judging`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from gentle_hooks.values.frozen import frozen

#: A cited file and line, or line range: ``app.py:12``, ``src/a.py:40-58``.
CITATION: Final[re.Pattern[str]] = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]*\w\.\w+):(\d{1,7})(?:\s*-\s*(\d{1,7}))?(?!\d)"
)
#: A quote: in backticks, or in straight or curly double quotes.
QUOTE: Final[re.Pattern[str]] = re.compile(r"`([^`\n]{3,})`|\"([^\"\n]{3,})\"|“([^”\n]{3,})”")
#: An exit status stated after a command: ``exit 1``, ``exited 0``, ``exit status 2``.
EXIT: Final[re.Pattern[str]] = re.compile(r"\bexit(?:ed)?(?:\s+(?:status|code))?[\s:=]+(\d{1,3})\b")
#: How :func:`checkable_reason`'s reason starts.
UNCHECKABLE: Final = "no checkable evidence in the candidate's tree"
#: How :func:`unobserved_reason`'s reason starts.
UNOBSERVED: Final = "its command was checked by no clean room"
#: The most lines of one range read.
_RANGE = 200


@frozen
class CheckSource:
    """What a verifier's evidence is checked against.

    Attributes:
        tree: the candidate's tree (its git tree id), named in the reason and the record.
        lines: the text of a path in that tree, or None when it holds no such file.
        observed: (command, exit status or None) of each check the clean room ran; None
            when there is no clean-room record (a tree named with ``--tree``).
    """

    tree: str
    lines: Callable[[str], Sequence[str] | None]
    observed: tuple[tuple[str, int | None], ...] | None = ()


def _fold(text: str) -> str:
    return " ".join(text.split())


def cited_paths(what_i_checked: str) -> list[str]:
    """The paths ``what_i_checked`` cites with a line (``app.py:12``), each once."""
    return list(dict.fromkeys(m.group(1) for m in CITATION.finditer(what_i_checked)))


def checkable_reason(what_i_checked: str, source: CheckSource) -> str | None:
    """Why an upheld ``what_i_checked`` holds no evidence that checks out against
    ``source`` (module docstring); None when one citation or one command does, or (no
    clean-room record) when it names a command it ran (:func:`unobserved_reason`).

    Returns:
        ``"no checkable evidence in the candidate's tree 1a2b3c4d5e6f: app.py:12: `x`
        is not at that line; `make` was not run by the clean room: narrative, refute
        (seed 003)"``, or None.
    """
    misses = _citation_misses(what_i_checked, source)
    if misses is None:
        return None
    if source.observed is None:
        if _ran_commands(what_i_checked):
            return None
        return _refute(misses or ["no file:line with a quote"], source)
    observed = {_fold(c): code for c, code in source.observed}
    for q in re.finditer(r"`([^`\n]+)`", what_i_checked):
        command = _fold(q.group(1))
        if command not in observed:
            if not any(command in m for m in misses):
                misses.append(f"`{command[:60]}` is no command the clean room ran")
            continue
        stated = EXIT.search(what_i_checked, q.end(), q.end() + 80)
        code = observed[command]
        if code is None or (stated is not None and int(stated.group(1)) != code):
            misses.append(f"`{command[:60]}` exited {code} in the clean room, not as stated")
            continue
        return None
    return _refute(misses or ["no file:line with a quote and no command it ran"], source)


def unobserved_reason(what_i_checked: str, source: CheckSource) -> str | None:
    """Why an upheld ``what_i_checked`` that :func:`checkable_reason` let pass is still
    unchecked: with no clean-room record (``source.observed`` None) no citation of it
    checks out in the tree and what it ran no record holds; None otherwise.

    Returns:
        ``"its command was checked by no clean room (`grep -n x a.py`): ..."``, or None.
    """
    if source.observed is not None or _citation_misses(what_i_checked, source) is None:
        return None
    ran = _ran_commands(what_i_checked)
    shown = f" (`{ran[0][:60]}`)" if ran else ""
    return (
        f"{UNOBSERVED}{shown}: re-run the tally with --observed VERDICT of a "
        "`verify run` that ran it"
    )


#: A command in backticks after a verb of running it: "ran `grep -n x a.py`".
_RAN: Final = re.compile(
    r"\b(?:ran|run|running|re-?ran|re-?run|executed|invoked)\s+(?:\w+\s+){0,2}`([^`\n]+)`",
    re.IGNORECASE,
)


def _ran_commands(what_i_checked: str) -> list[str]:
    return [_fold(m.group(1)) for m in _RAN.finditer(what_i_checked)]


def _refute(misses: Sequence[str], source: CheckSource) -> str:
    return (
        f"{UNCHECKABLE} {source.tree[:12]}: {'; '.join(misses[:3])}: "
        "narrative, refute (seed 003: evidence reproduces or it refutes)"
    )


def _citation_misses(what_i_checked: str, source: CheckSource) -> list[str] | None:
    """Why each cited ``path:LINE`` of ``what_i_checked`` with its quotes (between the
    citations before and after it) does not check out in ``source``'s tree; None when
    one does."""
    misses: list[str] = []
    cited = list(CITATION.finditer(what_i_checked))
    for n, found in enumerate(cited):
        path, first, last = found.group(1), int(found.group(2)), found.group(3)
        end = int(last) if last else first
        start = cited[n - 1].end() if n else 0
        stop = cited[n + 1].start() if n + 1 < len(cited) else len(what_i_checked)
        quotes = [
            next(g for g in q.groups() if g) for q in QUOTE.finditer(what_i_checked, start, stop)
        ]
        miss = _line_miss(path, first, end, quotes, source)
        if miss is None:
            return None
        misses.append(miss)
    return misses


def _line_miss(
    path: str, first: int, end: int, quotes: Sequence[str], source: CheckSource
) -> str | None:
    """Why ``path:first[-end]`` with ``quotes`` does not check out; None when a quote is
    at those lines of the candidate's tree."""
    where = f"{path}:{first}" + (f"-{end}" if end != first else "")
    text = source.lines(path)
    if text is None:
        return f"{where}: the candidate's tree holds no {path}"
    if first < 1 or end < first or first > len(text) or end - first > _RANGE:
        return f"{where}: the candidate's {path} has {len(text)} lines"
    if not quotes:
        return f"{where} quotes nothing to find at that line"
    held = _fold(" ".join(text[first - 1 : end]))
    if any(_fold(q) in held for q in quotes):
        return None
    return f"{where}: {_clip(quotes[0])} is not at that line"


def _clip(quote: str) -> str:
    one = _fold(quote)
    return f"`{one}`" if len(one) <= 50 else f"`{one[:49]}\u2026`"
