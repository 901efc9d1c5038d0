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
#: The most lines of one range read.
_RANGE = 200


@frozen
class CheckSource:
    """What a verifier's evidence is checked against.

    Attributes:
        tree: the candidate's tree (its git tree id), named in the reason and the record.
        lines: the text of a path in that tree, or None when it holds no such file.
        observed: (command, exit status or None) of each check the clean room ran.
    """

    tree: str
    lines: Callable[[str], Sequence[str] | None]
    observed: tuple[tuple[str, int | None], ...] = ()


def _fold(text: str) -> str:
    return " ".join(text.split())


def cited_paths(what_i_checked: str) -> list[str]:
    """The paths ``what_i_checked`` cites with a line (``app.py:12``), each once."""
    return list(dict.fromkeys(m.group(1) for m in CITATION.finditer(what_i_checked)))


def checkable_reason(what_i_checked: str, source: CheckSource) -> str | None:
    """Why an upheld ``what_i_checked`` holds no evidence that checks out against
    ``source`` (module docstring); None when one citation or one command does.

    Returns:
        ``"no checkable evidence in the candidate's tree 1a2b3c4d5e6f: app.py:12: `x`
        is not at that line; `make` was not run by the clean room: narrative, refute
        (seed 003)"``, or None.
    """
    misses: list[str] = []
    cited = list(CITATION.finditer(what_i_checked))
    for n, found in enumerate(cited):
        path, first, last = found.group(1), int(found.group(2)), found.group(3)
        end = int(last) if last else first
        # its quotes: between the citations before and after it
        start = cited[n - 1].end() if n else 0
        stop = cited[n + 1].start() if n + 1 < len(cited) else len(what_i_checked)
        quotes = [
            next(g for g in q.groups() if g) for q in QUOTE.finditer(what_i_checked, start, stop)
        ]
        miss = _line_miss(path, first, end, quotes, source)
        if miss is None:
            return None
        misses.append(miss)
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
    shown = "; ".join(misses[:3]) or "no file:line with a quote and no command it ran"
    return (
        f"{UNCHECKABLE} {source.tree[:12]}: {shown}: "
        "narrative, refute (seed 003: evidence reproduces or it refutes)"
    )


def _line_miss(
    path: str, first: int, end: int, quotes: Sequence[str], source: CheckSource
) -> str | None:
    """Why ``path:first[-end]`` with ``quotes`` does not check out; None when a quote is
    at those lines of the candidate's tree."""
    where = f"{path}:{first}" + (f"-{end}" if end != first else "")
    if not quotes:
        return f"{where} quotes nothing to find at that line"
    text = source.lines(path)
    if text is None:
        return f"{where}: the candidate's tree holds no {path}"
    if first < 1 or end < first or first > len(text) or end - first > _RANGE:
        return f"{where}: the candidate's {path} has {len(text)} lines"
    held = _fold(" ".join(text[first - 1 : end]))
    if any(_fold(q) in held for q in quotes):
        return None
    return f"{where}: {_clip(quotes[0])} is not at that line"


def _clip(quote: str) -> str:
    one = _fold(quote)
    return f"`{one}`" if len(one) <= 50 else f"`{one[:49]}\u2026`"
