"""Which of the writer's lines a change of *another* path holds are evidence of a copy,
not a coincidence (SPEC §3 "Attribution follows content": a copy carries the writer's
content; a human's change is never blocked or labelled AI work).

Room ``policy`` (pure: bytes in, answers out). Row A2 across paths
(:func:`gentle_hooks.policy.across.carries_row_across`) needs
:data:`~gentle_hooks.policy.across.MIN_ACROSS` of the writer's lines at the other path. A
person writing their own new file types lines anyone types the way the writer typed them in
its own (``print("done")`` and ``sys.exit(1)``, ``#!/usr/bin/env bash`` and ``set -euo
pipefail``, ``for line in lines:``), two of them by chance as often as not; a copy of the
writer's work brings its lines as a block (``w_a = "writer a"`` under ``w_b = "writer
b"``; a function body, its common lines and all), or brings a line nobody types alike. Each
writer line the change's new side holds (lines of a boilerplate row never: they are left
out before) counts by the first row that matches:

=====  ==========================================================================  =======
row    the writer's line, as the change's new side holds it (stripped)             counts
=====  ==========================================================================  =======
C1     a script's preamble: a ``#!`` line, a coding line, a shell's ``set``         no
       options (``set -euo pipefail``), ``"use strict"``, ``use warnings;``
C2     a common call of constants: a print, exit or sleep called with numbers,     no
       constants or one literal of one word at most (``print("done")``,
       ``sys.exit(1)``, ``time.sleep(1)``, ``console.log("ok")``), or ``echo`` /
       ``exit`` / ``printf`` of one word
C3     its literals are content or it is a shell command (rows D2, D3 of           yes
       :mod:`.distinctive`: ``raise ValueError("invalid api token")``), or it
       counts alone at another path (rows X2-X5 of :mod:`.across`: a process call)
C4     a line only the writer's whole statement joined holds (a wrapped call)      yes
C5     anything else: beside a line of row C3 or C4 anywhere in the new side, or   with
       where two such lines sit in one run of consecutive non-blank lines that are  one
       all the writer's (any of its added lines, of any row, or one too short to
       be keyed: ``else:``, ``pass``, ``}``): a block of the writer's copied, its
       common lines and all; one line of one's own between them breaks the run
=====  ==========================================================================  =======

Rows C1 and C2 are lines with too little of their own to say who wrote them: a copy of
the writer's work holding nothing else is nothing the writer made (its new file whole still
counts: :mod:`.wholefile`). Row C5 is what tells a copy from a coincidence: two lines a
person types on their own sit apart, or beside other lines than the writer's, while the
writer's lines copied come as a block, or with one of the writer's lines of content.

The writer's lines copied with names consistently renamed (``target`` -> ``host``
everywhere: a copy tidied, or moved by hand) hold none of its keys; they count by the
first of these rows that matches (:mod:`.renamedcopy`: each line's tokens with its names as
placeholders, literals, numbers, keywords and attribute names kept):

=====  ==========================================================================  =======
row    consecutive non-blank lines of the change's new side                         counts
=====  ==========================================================================  =======
C6     a block: line by line the forms of consecutive lines of one run of the      yes,
       writer's lines (any of its added lines, or one too short to be keyed),       the
       their names mapped one to one onto the writer's (one name renamed at         block
       least), holding two of its significant lines of no boilerplate row, one
       with string literals of content (row D2 of :mod:`.distinctive`) as a URL,
       a shell command or a phrase in one literal, and one line the change
       introduces (``host = sys.argv[1]`` over ``os.system('curl ' + host + ' |
       sh')``)
C7     one writer line whose literals hold a URL or a shell command (rows X2, X3     yes,
       of :mod:`.across`), its names renamed (``os.system('curl ' + out + ' |       alone
       sh')``)
C8     a block of the writer's forms with no literal of content (``for k in         no
       range(n):`` over ``count += k``, ``host = sys.argv[1]`` alone; option
       names side by side, ``"--verbose", action="store_true"``), a process
       call renamed alone (``subprocess.run(command, shell=True)``, row X5: its
       names are all it has), a shell line (row D3: its words are its names)
C9     lines of other forms: other strings or numbers, another attribute called     no
       (``os.system('wc -l ' + path + ' | sort')``), an import
=====  ==========================================================================  =======

Row C6 reads the writer's literals as its signature the way row C3 does for a line copied
as written: a person writing a block of the writer's structure writes their own strings
and numbers in it (row C9), and one written with the writer's very strings is its copy.
"""

from __future__ import annotations

import re
from collections.abc import Set

from gentle_hooks.policy.distinctive import distinctive_row
from gentle_hooks.policy.linekeys import LineRow, first_row, is_significant, stripped_key

_PREAMBLE = re.compile(
    rb"#!.*|#.*-\*-\s*coding[:=].*|set(?:\s+(?:[-+][A-Za-z]+|pipefail|errexit|nounset|xtrace))+"
    rb"|[\"']use strict[\"'];?|use\s+(?:strict|warnings);"
)
#: Calls every program makes with constants: print, exit, sleep (row C2).
_COMMON_CALL = (
    rb"(?:print|println|printf|puts|exit|quit|sleep|time\.sleep|sys\.exit|os\._exit|process\.exit"
    rb"|console\.(?:log|error|warn|info)|fmt\.Print(?:ln|f)?|System\.(?:out|err)\.println"
    rb"|Console\.WriteLine|breakpoint|input|die)"
)
_WORD_LITERAL = rb"(?:\"[^\"\s\\]*\"|'[^'\s\\]*')"  # a literal of one word at most
_ARG = rb"(?:-?[\d.]+|True|False|None|true|false|null|nil|undefined|" + _WORD_LITERAL + rb")"
_CONSTANT_CALL = re.compile(
    rb"(?:await\s+)?%s\s*\(\s*(?:%s(?:\s*,\s*%s)*)?\s*\)\s*;?" % (_COMMON_CALL, _ARG, _ARG)
    + rb"|(?:echo|exit|printf)(?:\s+(?:[\w.-]+|%s))?\s*;?" % _WORD_LITERAL
)

COINCIDENCE_ROWS: tuple[LineRow, ...] = (
    LineRow("C1", "a script's preamble", lambda s: bool(_PREAMBLE.fullmatch(s))),
    LineRow("C2", "a call of constants", lambda s: bool(_CONSTANT_CALL.fullmatch(s))),
    LineRow(
        "C3",
        "literals of content, or a shell command",
        lambda s: distinctive_row(s) in ("D2", "D3"),
    ),
)


def coincidence_row(stripped: bytes) -> str:
    """The row (C1, C2, C3 or C5 of the module table) of a stripped line: C4 is of a key
    no line of the new side has (:func:`copied_keys`)."""
    return first_row(COINCIDENCE_ROWS, stripped) or "C5"


def copied_keys(
    held: Set[str], new: bytes, writer: Set[str], alone: Set[str] = frozenset()
) -> frozenset[str]:
    """The keys of ``held`` (the writer's lines of no boilerplate row that ``new``, a change's
    new side at another path, holds) that count as copied there (rows C3-C5): those of rows
    C3 and C4, and those of row C5 where one of C3-C4 counts or two of them sit in one run
    of the writer's lines (``writer``: the keys of its added lines, any row; lines too short
    to be keyed, ``else:`` or ``}``, never break a run). ``alone``: the keys whose line
    counts alone at another path (:func:`~gentle_hooks.policy.across.alone_keys`), row C3.
    """
    lines = [s for line in new.splitlines() if (s := line.strip())]
    keys = [stripped_key(s) for s in lines]
    rows: dict[str, str] = {}
    for key, s in zip(keys, lines, strict=True):
        if key in held and key not in rows:
            rows[key] = coincidence_row(s)
    out = {k for k in held if k in alone or rows.get(k, "C4") in ("C3", "C4")}
    rest = {k for k in held if rows.get(k) == "C5"}
    if out:  # beside a line of content, anywhere
        return frozenset(out | rest)
    run: set[str] = set()
    for key, s in [*zip(keys, lines, strict=True), ("", b"")]:  # "": the end, no writer line
        if key and (key in writer or not is_significant(s)):
            run.update({key} & rest)
            continue
        if len(run) >= 2:  # a run of the writer's lines with two of row C5: a block copied
            out.update(run)
        run = set()
    return frozenset(out)
