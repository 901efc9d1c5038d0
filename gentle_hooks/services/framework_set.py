"""Which gentle-hooks hooks a pre-commit framework configuration lists, and the hook
stages they run at, for ``doctor`` and ``install`` (README "Gating commits and pushes":
the full set, and "The smallest set").

Room ``services`` (the standard library only: no YAML parser is a dependency).
:func:`configured_stages` reads ``.pre-commit-config.yaml`` text line by line: every list
item whose ``id`` is one of :data:`HOOK_IDS`, with its ``stages`` when the item overrides
them (a flow list, ``stages: [pre-push]``, or a block list), else the stages
``.pre-commit-hooks.yaml`` gives it. A stage outside the id's own (its entry runs another
hook type there) does not count; the framework's old names (``commit``, ``push``,
``merge-commit``) are read as the new ones. :func:`gives_up` says, in the README's words,
what a set that reaches none of an id's stages does not do.
"""

from __future__ import annotations

import re

#: The hook ids of ``.pre-commit-hooks.yaml`` and the stages each runs at (a unit test
#: holds this table to that file).
HOOK_IDS: dict[str, tuple[str, ...]] = {
    "gentle-hooks-commit-gate": ("pre-commit", "pre-merge-commit"),
    "gentle-hooks-commit-msg-gate": ("commit-msg",),
    "gentle-hooks-push-gate": ("pre-push",),
    "gentle-hooks-prepare-commit-msg": ("prepare-commit-msg",),
    "gentle-hooks-post-commit": ("post-commit",),
    "gentle-hooks-post-rewrite": ("post-rewrite",),
}

#: The id that runs at each stage (every stage has one).
STAGE_IDS = {stage: hook_id for hook_id, stages in HOOK_IDS.items() for stage in stages}

#: What a set gives up when nothing reaches a stage (README "The smallest set").
_GIVES_UP = {
    "commit-msg": (
        "a commit whose only sign of an agent is its message (an AI co-author trailer) is "
        "judged at push, not at commit"
    ),
    "prepare-commit-msg": "no Gentle-Writer trailer",
    "post-commit": "no commit record or note written at commit",
    "post-rewrite": "no record carried across amend and rebase",
}

#: The recorders: plain git hooks beside the framework's add them without a framework start.
RECORDERS = ("prepare-commit-msg", "post-commit", "post-rewrite")

#: The framework's old stage names.
_OLD_NAMES = {"commit": "pre-commit", "merge-commit": "pre-merge-commit", "push": "pre-push"}

_ITEM = re.compile(r"^(\s*-\s+)(.*)$")
_KEY = re.compile(r"""^([A-Za-z_]+)\s*:\s*(.*)$""")
_FLOW = re.compile(r"""^\{(.*)\}$""")
_WORD = re.compile(r"""^['"]?([A-Za-z0-9_.-]+)['"]?$""")


def configured_stages(text: str) -> dict[str, tuple[str, ...]]:
    """The :data:`HOOK_IDS` ``text`` (a ``.pre-commit-config.yaml``) lists, each with the
    stages it runs at here (in :data:`HOOK_IDS` order; an id listed twice unites its
    stages). Another id, and an item whose stages are all outside its id's own, is left
    out. Never raises."""
    found: dict[str, set[str]] = {}
    for keys in _items([_bare(line) for line in text.splitlines()]):
        own = HOOK_IDS.get(_word(keys.get("id", "")))
        if own is None:
            continue
        stages = keys.get("stages")
        named = own if stages is None else tuple(_OLD_NAMES.get(s, s) for s in _words(stages))
        kept = {s for s in named if s in own}
        if kept:
            found.setdefault(_word(keys["id"]), set()).update(kept)
    return {h: tuple(s for s in own if s in found[h]) for h, own in HOOK_IDS.items() if h in found}


def _bare(line: str) -> str:
    """``line`` without a comment (a ``#`` at its start or after a blank) and trailing
    blanks."""
    return re.sub(r"(^|\s)#.*$", "", line).rstrip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _items(lines: list[str]) -> list[dict[str, str]]:
    """The keys of every block-list item (``- key: value`` and the lines at its key
    column), or of a flow mapping item (``- {id: x, stages: [y]}``); a key's block list
    (``stages:`` then ``- y`` lines) is joined as a flow list."""
    out = []
    for i, line in enumerate(lines):
        m = _ITEM.match(line)
        if m is None:
            continue
        column, first = len(m.group(1)), m.group(2)
        flow = _FLOW.match(first)
        if flow is not None:
            out.append(dict(_flow_keys(flow.group(1))))
            continue
        body = [(column, first)]
        for later in lines[i + 1 :]:
            if not later.strip():
                continue
            if _indent(later) <= _indent(line):
                break
            body.append((_indent(later), later.strip()))
        keys: dict[str, str] = {}
        for n, (col, text) in enumerate(body):
            key = _KEY.match(text)
            if col != column or key is None:
                continue
            value = key.group(2)
            if not value:  # a block list below: its entries, one deeper
                entries = []
                for deeper, entry in body[n + 1 :]:
                    if deeper < column or (deeper == column and not entry.startswith("-")):
                        break
                    entries.append(entry.removeprefix("-").strip())
                value = "[" + ", ".join(entries) + "]"
            keys[key.group(1)] = value
        out.append(keys)
    return out


def _flow_keys(text: str) -> list[tuple[str, str]]:
    """The ``key: value`` pairs of a flow mapping's inside (a list value kept whole)."""
    return [
        (m.group(1), m.group(2).strip())
        for m in re.finditer(r"([A-Za-z_]+)\s*:\s*(\[[^\]]*\]|[^,]*)", text)
    ]


def _word(value: str) -> str:
    """A scalar value without its quotes ('' when it is not one word)."""
    m = _WORD.match(value.strip())
    return m.group(1) if m else ""


def _words(value: str) -> tuple[str, ...]:
    """A list value's words (``[a, 'b']``), or a lone scalar's."""
    inner = value.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    return tuple(w for w in (_word(v) for v in inner.split(",")) if w)


def gives_up(reached: set[str]) -> list[str]:
    """What a hook set whose reached stages are ``reached`` does not do, in words (one
    item per stage of :data:`_GIVES_UP` it misses; empty for the full set)."""
    return [words for stage, words in _GIVES_UP.items() if stage not in reached]
