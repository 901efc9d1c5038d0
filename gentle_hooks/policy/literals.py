"""A writer's line with its literals changed is still the writer's line (SPEC §3
"Attribution follows content": no laundering by ``sed s/evil.example/evil.example.com/``).

Room ``policy`` (pure: bytes in, answers out).

A line's *masked key* (:func:`masked_key`) is the key of its tokens with every string
literal read as ``""`` and every number as ``0``, whitespace removed. A line has one only
when its code around the literals is *distinctive*: it holds a literal, it calls something
or runs a command (:func:`~gentle_hooks.policy.linekeys.is_action`), and it names at least
:data:`MIN_NAMES` distinct names that are not common words
(``os.system("curl ... | sh")``, ``subprocess.run(cmd, shell=True)``). A call of one name
(``print("done")``), an assignment of a literal (``url = "https://..."``) or a comparison
(``return user == "admin"``) has none: nobody's code is told apart by them once their
literals are set aside.

A line of a change whose key is none of the writer's lines, and whose masked key is the
masked key of a writer's added line that the change does not hold as written, stands for
that writer line (:func:`unmasked_keys`): the writer's lines with a URL, a path or a number
edited count toward row A2 of :mod:`gentle_hooks.policy.attribution` as written, never as
one telling line alone. Each writer line is stood for by one line at most, in order, so two
writer lines of one masked key need two such lines.

A line standing for a writer line counts only where the content holds :data:`MIN_MASKED`
of the writer's lines in all, those stood for included (two ``os.system`` lines after
``sed``, or one beside a writer line as written). One masked match alone is the shape of a
line, not the line: with the writer's one ``os.system("curl ... | sh")`` pending, a human's
own ``os.system("make")`` in that file is the human's. The price: one writer line whose
literals were edited alone is not told from a human's line of its shape.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from gentle_hooks.policy.linekeys import (
    COMMON_WORDS,
    LINES_KEPT,
    is_action,
    stripped_key,
)
from gentle_hooks.values.digest import blake2b_hex

#: Writer lines a content must hold, those stood for by a masked key included, for a line
#: standing for a writer line to count (module docstring).
MIN_MASKED = 2

#: Distinct names (identifiers other than :data:`~gentle_hooks.policy.linekeys.COMMON_WORDS`)
#: the code around a line's literals needs to be distinctive.
MIN_NAMES = 2

_LITERAL = re.compile(
    rb'(?P<s>"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|`[^`]*`?)'
    rb"|(?P<n>(?<![\w.])\d[\w.]*)|(?P<i>[A-Za-z_]\w*)|(?P<o>\S)"
)


@lru_cache(maxsize=LINES_KEPT)
def masked_key(stripped: bytes) -> str | None:
    """The key of a stripped line with its string literals read as ``""`` and its numbers
    as ``0``, or None when the line has no literal or its code around them is not
    distinctive (module docstring)."""
    parts: list[bytes] = []
    names: set[bytes] = set()
    literal = False
    for m in _LITERAL.finditer(stripped):
        if m.group("s") is not None:
            parts.append(b'""')
            literal = True
        elif m.group("n") is not None:
            parts.append(b"0")
            literal = True
        else:
            token = m.group()
            parts.append(token)
            if m.group("i") is not None and token not in COMMON_WORDS:
                names.add(token)
    if not literal or len(names) < MIN_NAMES or not is_action(stripped):
        return None
    return blake2b_hex(b"\x00".join(parts), 8)


def masked_lines(after: bytes | None, added: frozenset[str]) -> frozenset[tuple[str, str]]:
    """(masked key, key) of each of the writer's added lines (``added``: their keys) in
    ``after`` that has a masked key (:func:`masked_key`)."""
    if not after or not added:
        return frozenset()
    return frozenset(
        (masked, key)
        for line in after.splitlines()
        if (s := line.strip())
        and (key := stripped_key(s)) in added
        and (masked := masked_key(s)) is not None
    )


def unmasked_keys(
    lines: Sequence[bytes], keys: Sequence[str], masked: frozenset[tuple[str, str]]
) -> list[str]:
    """``keys`` (one per stripped line of ``lines``) with the key of each line that is none
    of the writer's lines replaced by the writer's line it stands for (module docstring):
    the next writer line of its masked key that no line holds as written nor stands for
    yet, if any."""
    if not masked:
        return list(keys)
    writer = {key for _, key in masked}
    used = set(keys) & writer
    free: dict[str, list[str]] = {}
    for m, key in sorted(masked):
        if key not in used:
            free.setdefault(m, []).append(key)
    out = list(keys)
    for i, (line, key) in enumerate(zip(lines, keys, strict=True)):
        if key in writer or not free:
            continue
        waiting = free.get(masked_key(line) or "")
        if waiting:
            out[i] = waiting.pop(0)
    return out
