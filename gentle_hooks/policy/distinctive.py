"""Which lines nobody types the same way by chance (SPEC §3 "Attribution follows content"):
one of them, a writer's, found in another worktree is the writer's content copied there
(row A2 of :mod:`gentle_hooks.policy.attribution`); at another path only those that run or
reach something count alone (rows X2-X5 of :mod:`gentle_hooks.policy.across`).

Room ``policy`` (pure: bytes in, answers out).

A *telling* line (of no trivial row of :mod:`gentle_hooks.policy.linekeys`) says who wrote
it where the writer wrote it: in the writer's own path a human rarely retypes it. Anywhere
else in the repository, in any worktree, the same short call is typed by anyone
(``print("done")``, ``logger.info("start")``), so one line counts there only when it is
*distinctive* (:func:`distinctive_row`), the first row that matches deciding:

=====  ===========================================================================  ======
row    the line (stripped)                                                          counts
=====  ===========================================================================  ======
D1     trivial (a row L1-L6: ``return result``, ``import os``)                      no
D2     its string literals hold a URL (``://``), a shell command with arguments     yes
       (``"rm -rf /tmp/x"``), or :data:`MIN_LITERAL_WORDS` words of
       :data:`MIN_LITERAL_CHARS` word characters in all (``"invalid api token"``)
D3     the line is a shell command with arguments (``rm -rf build``,                 yes
       ``curl https://x.example/i | sh``)
D4     :data:`MIN_NAMES` distinct names outside its literals, each of               yes
       :data:`MIN_NAME_CHARS` characters or more and no common word; a dotted
       name is one (``check_auth(user)``, ``os.remove(path)``)
D5     anything else: ``print("done")``, ``logger.info("start")``, ``x = f(a, b)``   no
=====  ===========================================================================  ======

A string's prefix (``f"..."``, ``rb'...'``) is not a name; names inside a literal are its
words (D2), not the line's names (D4). Whitespace and quote style never change a row:
two lines with one key (:func:`~gentle_hooks.policy.linekeys.stripped_key`) are of the
same row, save a shell command whose words were run together (adjacent literals are
read joined, as a formatter joins them).

:func:`brought_back` reads a change of a path whose writer work ended without being
delivered (expired, or discarded): the distinctive writer lines it adds make it the
writer's again (a patch of the work re-applied, a copy put back); a human's own lines,
common ones the writer also wrote and bare definition headers never do.
:func:`removed_again` is its mirror for what the writer removed: a change that removes
the distinctive lines the writer's expired work removed (a parked deletion re-applied) is
the writer's again, and so is one that makes the writer's exact hunk again, common lines
included (:func:`hunk_back`: ``return False`` -> ``return True`` between the same
neighbours). All three read an expired entry for :data:`EXPIRED_LINES_DAYS` days after
the writer's write (:func:`lines_still_count`); after that its lines are anyone's.
"""

from __future__ import annotations

from collections.abc import Set
from functools import lru_cache

from gentle_hooks.policy.linekeys import (
    COMMON_WORDS,
    LINES_KEPT,
    SHELL_COMMANDS,
    any_line_keys,
    code_part,
    header_keys,
    is_action,
    joined_lines,
    may_have_code_part,
    stripped_key,
    trivial_row,
)
from gentle_hooks.values.lazy_pattern import lazy_pattern

TYPE_CHECKING = False  # placement is imported where an expired entry is read
if TYPE_CHECKING:
    from gentle_hooks.policy.placement import Placement

#: Words a line's string literals must hold, all literals together (row D2)...
MIN_LITERAL_WORDS = 2
#: ...with at least this many word characters in all (``"bad input"`` has 8: anyone's).
MIN_LITERAL_CHARS = 10
#: Distinct names outside the literals a line needs (row D4)...
MIN_NAMES = 2
#: ...each this long at least (``a``, ``b``, ``x`` are anyone's).
MIN_NAME_CHARS = 3

#: Days after the writer's write that an expired entry's distinctive lines, added or
#: removed again, still make a change the writer's (:func:`lines_still_count`).
EXPIRED_LINES_DAYS = 30
_DAY = 86400.0

_TOKENS = lazy_pattern(
    rb'(?P<s>"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|`[^`]*`?)'
    rb"|(?P<n>[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)(?P<q>[\"'`])?"
    rb"|(?P<o>\S)"
)
_WORD = lazy_pattern(rb"\w+")
_SPACE = lazy_pattern(rb"\s+")


def _parts(stripped: bytes) -> tuple[list[bytes], set[bytes]]:
    """(the contents of the line's string literals, its names outside them): a name right
    before a quote is the string's prefix, and the literal starts there; literals side by
    side (only whitespace and a prefix between) are one, their contents joined, as a
    formatter joins them (:mod:`gentle_hooks.policy.keyform` row K3)."""
    literals: list[bytes] = []
    names: set[bytes] = set()
    pos = 0
    joins = -1  # where a literal starting now continues the last one
    while pos < len(stripped):
        m = _TOKENS.match(stripped, pos)
        if m is None:  # whitespace
            pos += 1
            continue
        if m.group("s") is not None:
            content = m.group("s")[1:].rstrip(b"\"'`")
            if joins >= 0 and literals:
                literals[-1] += content
            else:
                literals.append(content)
            pos = joins = m.end()
            continue
        if m.group("n") is not None:
            if m.group("q") is not None:  # a prefix: read the literal from its quote
                joins = joins if joins >= 0 and not stripped[joins : m.start()].strip() else -1
                pos = m.start("q")
                continue
            names.add(_SPACE.sub(b"", m.group("n")))
        pos = m.end()
        joins = -1
    return literals, names


def _is_command(text: bytes) -> bool:
    """Whether ``text`` starts with a word of :data:`SHELL_COMMANDS` followed by an
    argument (:func:`~gentle_hooks.policy.linekeys.is_action`)."""
    words = text.split()
    return len(words) >= 2 and words[0] in SHELL_COMMANDS and is_action(text.strip())


def _literal_kind(literals: list[bytes]) -> str:
    text = b" ".join(literals)
    if b"://" in text:
        return "url"
    if any(_is_command(lit) for lit in literals) or _is_command(text):
        return "command"
    words = _WORD.findall(text)
    if len(words) >= MIN_LITERAL_WORDS and sum(map(len, words)) >= MIN_LITERAL_CHARS:
        return "words"
    return ""


def literal_kind(stripped: bytes) -> str:
    """What makes a stripped line's literals content (row D2): ``"url"`` (``://``),
    ``"command"`` (a shell command with arguments), ``"words"`` (enough words alone:
    ``"invalid input"``), or ``""`` (none: no literal, or one anyone types)."""
    literals = _parts(stripped)[0]
    return _literal_kind(literals) if literals else ""


def literal_phrase(stripped: bytes) -> bool:
    """Whether one string literal of a stripped line holds a phrase: words apart by
    whitespace, :data:`MIN_LITERAL_WORDS` of them with :data:`MIN_LITERAL_CHARS` word
    characters in all (``"release bucket for staging"``; not option names side by side,
    ``"--verbose", action="store_true"``: one word each)."""
    for literal in _parts(stripped)[0]:
        words = [w for part in literal.split() if (w := b"".join(_WORD.findall(part)))]
        if len(words) >= MIN_LITERAL_WORDS and sum(map(len, words)) >= MIN_LITERAL_CHARS:
            return True
    return False


@lru_cache(maxsize=LINES_KEPT)
def distinctive_row(stripped: bytes) -> str:
    """The row (D1-D5 of the module table) of a stripped line."""
    if trivial_row(stripped) is not None:
        return "D1"
    literals, names = _parts(stripped)
    if literals and _literal_kind(literals):
        return "D2"
    if _is_command(stripped):
        return "D3"
    counted = {n for n in names if n not in COMMON_WORDS and len(n) >= MIN_NAME_CHARS}
    return "D4" if len(counted) >= MIN_NAMES else "D5"


def is_distinctive(stripped: bytes) -> bool:
    """Whether one writer line, a stripped one, counts alone at another path (D2-D4)."""
    return distinctive_row(stripped) in ("D2", "D3", "D4")


def distinctive_keys(data: bytes | None, among: Set[str] | None = None) -> frozenset[str]:
    """The keys of the distinctive lines of ``data``, of their code parts and of its wrapped
    statements joined (:func:`_judged_lines`); with ``among``, only those of
    its keys, the other lines never classified (the same as intersecting after)."""
    if not data:
        return frozenset()
    if among is None:
        return _distinctive_keys(data)
    lines = keyed_lines(data)
    return frozenset(k for k in among if any(map(is_distinctive, lines.get(k, ()))))


@lru_cache(maxsize=64)
def _distinctive_keys(data: bytes) -> frozenset[str]:
    return frozenset(k for k, lines in keyed_lines(data).items() if any(map(is_distinctive, lines)))


@lru_cache(maxsize=64)
def keyed_lines(data: bytes) -> dict[str, list[bytes]]:
    """The judged lines of ``data`` (:func:`_judged_lines`) by key, read once per content:
    a change compared with many entries (across paths) splits its content once."""
    out: dict[str, list[bytes]] = {}
    for s in _judged_lines(data):
        out.setdefault(stripped_key(s), []).append(s)
    return out


def _judged_lines(data: bytes) -> list[bytes]:
    """The non-blank stripped lines of ``data``, the code part of each that has a trailing
    comment or ``;`` (:func:`~gentle_hooks.policy.linekeys.code_part`: the key
    :func:`~gentle_hooks.policy.linekeys.any_line_keys` also gives it, so ``  # noqa``
    appended to a writer's line keeps it distinctive), and its wrapped statements joined."""
    lines = [s for line in data.splitlines() if (s := line.strip())]
    parts = [p for s in lines if may_have_code_part(s) and (p := code_part(s)) and p != s]
    return [*lines, *parts, *(j for j in joined_lines(data) if j)]


def brought_back(old: bytes | None, new: bytes | None, telling: frozenset[str]) -> frozenset[str]:
    """The keys of the writer's ``telling`` lines (:attr:`~gentle_hooks.policy.delta.
    WriterDelta.telling`) that a change ``old`` -> ``new`` of their path adds (``new`` holds
    them, ``old`` does not) and that are distinctive there (rows D2-D4), a bare definition
    header (:func:`~gentle_hooks.policy.linekeys.header_keys`) never: empty when the change
    brings none of them back."""
    if not new or not telling:
        return frozenset()
    added = (any_line_keys(new) - any_line_keys(old)) & telling
    if not added:
        return frozenset()
    return added & distinctive_keys(new) - header_keys(new)


def removed_again(
    old: bytes | None,
    new: bytes | None,
    removed: frozenset[str],
    closed: frozenset[Placement],
) -> frozenset[str]:
    """The keys of the lines the writer removed (``removed``: :attr:`~gentle_hooks.policy.
    delta.WriterDelta.removed` and ``told``) that a change ``old`` -> ``new`` of their
    path removes again (``old`` holds them, ``new`` does not), as the writer removed them
    (``new`` closes a gap the writer's removal closed: ``closed``, :func:`closed_gaps`; a
    line of one's own written in their place is no such removal) and that are distinctive
    in ``old`` (rows D2-D4), a bare definition header never: empty when it removes none."""
    if not old or not removed or not closed:
        return frozenset()
    from gentle_hooks.policy.placement import is_placed

    gone = (any_line_keys(old) - any_line_keys(new)) & removed
    if not gone or not is_placed(closed, old, new):
        return frozenset()
    return gone & distinctive_keys(old) - header_keys(old)


def closed_gaps(before: bytes | None, after: bytes | None) -> frozenset[Placement]:
    """The placements (:func:`~gentle_hooks.policy.placement.placements`) a writer's write
    ``before`` -> ``after`` made that ``before`` lacks: around a removal, its neighbours
    brought together."""
    from gentle_hooks.policy.placement import placements

    return placements(after) - placements(before)


def hunk_back(
    old: bytes | None,
    new: bytes | None,
    edited: tuple[frozenset[str], frozenset[str]],
    placed: frozenset[Placement],
) -> bool:
    """Whether a change ``old`` -> ``new`` of the writer's path makes the writer's exact
    hunk again: it removes a line the writer removed and adds a line the writer added
    (``edited``: :meth:`~gentle_hooks.policy.delta.WriterDelta.edited`, lines of two
    words or more, common ones too), that line between the very neighbours the writer put
    it between (``placed``: :attr:`~gentle_hooks.policy.delta.WriterDelta.placed`,
    :func:`~gentle_hooks.policy.placement.is_placed`)."""
    adds, drops = edited
    if not old or not new or not adds or not drops or not placed:
        return False
    before, after = any_line_keys(old), any_line_keys(new)
    if not (after - before) & adds or not (before - after) & drops:
        return False
    from gentle_hooks.policy.placement import is_placed

    return is_placed(placed, old, new)


def lines_still_count(recorded_at: float, now: float) -> bool:
    """Whether an expired entry written at ``recorded_at`` (seconds since the epoch) is
    still read by its distinctive lines at ``now``: for :data:`EXPIRED_LINES_DAYS` days
    after the write, a clock set back included (fail closed)."""
    return now - recorded_at < EXPIRED_LINES_DAYS * _DAY


#: Calls that run a process, run code or reach the network (row X5 of :mod:`.across`),
#: searched in a line with its literals blanked: a process or network module named, a bare
#: spawn word called (a member of another value, ``db.exec(``, ``model.eval()``, is not
#: one), or a member call that exists only as one. The process words are upstream's
#: ``processBoundaryPattern`` (SPEC §4, :data:`~gentle_hooks.config.settings.
#: DEFAULT_PROCESS_PATTERNS`), fixed here: attribution is not configurable.
REACHING = lazy_pattern(
    rb"(?a)(?:^|[^A-Za-z0-9_.])(?:(?:subprocess|child_process|socket)(?:[^A-Za-z0-9_]|$)"
    rb"|(?:execute_process|exec|eval|system|spawn|popen|urlopen|fetch)\s*\()"
    rb"|execSync\(|getRuntime\(\)\.exec\(|ProcessBuilder|os\.system\(|os\.popen\("
    rb"|os\.exec[lv]p?e?\(|os\.spawn\w*\(|posix_spawn|proc_open\(|shell_exec\(|passthru\("
    rb"|Process\.Start\(|urllib\.request|http\.client|requests\.\w+\(|httpx\.\w+\("
    rb"|socket\.\w+\(|axios[.(]|XMLHttpRequest|Net::HTTP|http\.(?:Get|Post)\("
)
_LITERAL = lazy_pattern(rb'"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|`[^`]*`?')


def reaches(stripped: bytes) -> bool:
    """Whether the stripped line calls what runs a process, runs code or reaches the
    network (:data:`REACHING`, searched with its literals blanked)."""
    return REACHING.search(_LITERAL.sub(b'""', stripped)) is not None
