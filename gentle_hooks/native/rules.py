"""The built-in classifier's path rules (SPEC §4): one table, read by one pure function.

Layer: native, pure (value types only: no process, no file, no clock, no settings). A row
reads what :class:`ChangeFacts` holds of one change: its status, modes and binary flag,
what the classifier settings say of its path and of its old path (:class:`PathFacts`,
computed by :mod:`gentle_hooks.native.pathfacts`), and whether its documentation bytes are
proven. Rows are tried in table order; the first that holds classifies the change, and its
id is the reason code the change gets. High rows come first; ``source`` is last and always
holds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from gentle_hooks.values.candidate import (
    MODE_EXEC,
    MODE_FILE,
    MODE_GITLINK,
    MODE_SYMLINK,
    PathChange,
)
from gentle_hooks.values.frozen import frozen

#: Extensions of configuration files (the ``configuration`` row).
CONFIG_EXTENSIONS = (".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".conf", ".env", ".lock")


#: A path's facts in the order of :func:`facts_of`'s arguments.
FactValues = tuple[str | None, bool, bool, bool, bool, bool, bool]


class PathFacts:
    """What the classifier settings say of one path: everything a row reads of a path.

    Build them with :func:`facts_of`, which hands out one object per distinct value: equal
    facts are then the same object, and identity (this plain class's equality and hash) is
    value equality at the cost of a pointer compare, which :func:`classify_change` relies on
    to remember the row per facts. Never changed once built.

    Attributes:
        hot: the smallest hot-path token among the path's tokens, or None.
        shell: its extension is a shell script's (``risk.shell_extensions``).
        config: its extension is in :data:`CONFIG_EXTENSIONS`.
        agent: an agent-instruction file, by its name or a folder it is in.
        doc: a documentation name (by extension, or README / LICENSE ... names).
        delivery: a delivery glob matches it (CI workflow, gate configuration).
        generated: a generated glob matches it (golden files: outside ``changed_lines``).
    """

    __slots__ = ("agent", "config", "delivery", "doc", "generated", "hot", "shell")

    def __init__(self, values: FactValues) -> None:
        self.hot, self.shell, self.config, self.agent, self.doc, self.delivery, self.generated = (
            values
        )

    def __repr__(self) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"PathFacts({body})"


_INTERNED: dict[FactValues, PathFacts] = {}


def facts_of(
    hot: str | None,
    shell: bool,
    config: bool,
    agent: bool,
    doc: bool,
    delivery: bool,
    generated: bool,
) -> PathFacts:
    """The one :class:`PathFacts` holding these values (built on first use)."""
    values = (hot, shell, config, agent, doc, delivery, generated)
    facts = _INTERNED.get(values)
    if facts is None:
        facts = _INTERNED[values] = PathFacts(values)
    return facts


#: The facts of the old path of a change that has none: they make no row hold (and leave
#: "every path is documentation" to the new path alone).
NO_PATH = facts_of(None, False, False, False, True, False, False)


@frozen
class ChangeFacts:
    """All a row reads of one change, so the row a change gets depends on these alone.

    Attributes:
        status: git's status letter; old_mode / new_mode: six-digit octal modes.
        binary: git counted no lines (a binary file).
        new / old: the facts of its path and of its old path (:data:`NO_PATH` without one).
        proven: both paths are documentation names and the side that exists (the old one
            of a deletion) is a regular file proven by its bytes (:func:`is_proven_doc`).
    """

    status: str
    old_mode: str
    new_mode: str
    binary: bool
    new: PathFacts
    old: PathFacts
    proven: bool


@frozen
class PathClass:
    """One change's class: its tier, a stable reason code (the row's id) and a detail line."""

    tier: str
    code: str
    detail: str


#: A row's test over what it may read of a change.
Holds = Callable[[ChangeFacts], bool]
#: A detail line that depends on the change: (change, its path's facts, its old path's).
Explain = Callable[[PathChange, PathFacts, PathFacts], str]


@frozen
class PathRule:
    """One row of :data:`PATH_RULES`.

    Attributes:
        id: the reason code the row gives (stable; reported in the envelope's reasons).
        tier: ``passive``, ``medium`` or ``high``.
        holds: whether the row classifies a change.
        detail: the detail line, or a function of the change giving it.
    """

    id: str
    tier: str
    holds: Holds
    detail: str | Explain


def is_proven_doc(data: bytes | None) -> bool:
    """Documentation proven by its bytes: UTF-8, no NUL, no shebang."""
    if data is None or b"\0" in data or data.startswith(b"#!"):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _is_exec_change(f: ChangeFacts) -> bool:
    """The executable bit flipped, or an added or copied file is executable."""
    old, new = f.old_mode, f.new_mode
    flip = old != new and {old, new} == {MODE_FILE, MODE_EXEC}
    return flip or (new == MODE_EXEC and f.status in ("A", "C"))


def _hot_detail(c: PathChange, new: PathFacts, old: PathFacts) -> str:
    if new.hot is not None:
        return f"path token {new.hot!r} in {c.path}"
    return f"path token {old.hot!r} in {c.old_path}"


def _exec_detail(c: PathChange, new: PathFacts, old: PathFacts) -> str:
    if c.exec_flip:
        return f"mode {c.old_mode} -> {c.new_mode}"
    return "new executable file (mode 100755)"


#: The path rules, in precedence order. A condition on "the path" holds when it holds for
#: the path or, on a rename or copy, for the old path; documentation needs both.
PATH_RULES: tuple[PathRule, ...] = (
    PathRule(
        "hot_path",
        "high",
        lambda f: f.new.hot is not None or f.old.hot is not None,
        _hot_detail,
    ),
    PathRule(
        "delivery_config",
        "high",
        lambda f: f.new.delivery or f.old.delivery,
        "CI workflow or gate configuration",
    ),
    PathRule("shell_script", "high", lambda f: f.new.shell or f.old.shell, "shell script"),
    PathRule("exec_bit", "high", _is_exec_change, _exec_detail),
    PathRule(
        "agent_instruction",
        "medium",
        lambda f: f.new.agent or f.old.agent,
        "agent-instruction file",
    ),
    PathRule(
        "submodule",
        "medium",
        lambda f: MODE_GITLINK in (f.old_mode, f.new_mode),
        "submodule commit changed",
    ),
    PathRule(
        "symlink",
        "medium",
        lambda f: MODE_SYMLINK in (f.old_mode, f.new_mode),
        "symbolic link",
    ),
    PathRule(
        "documentation",
        "passive",
        lambda f: f.proven,
        "documentation proven by its bytes",
    ),
    PathRule(
        "unproven_documentation",
        "medium",
        lambda f: f.new.doc and f.old.doc,
        "documentation name, but its bytes or mode are not plain text",
    ),
    PathRule("binary", "medium", lambda f: f.binary, "binary file"),
    PathRule("configuration", "medium", lambda f: f.new.config, "configuration file"),
    PathRule("source", "medium", lambda f: True, "source or other file"),
)

#: The class each fixed-detail row gives, built once.
_FIXED = {r.id: PathClass(r.tier, r.id, r.detail) for r in PATH_RULES if isinstance(r.detail, str)}


@functools.lru_cache(maxsize=4096)
def _first_rule(
    status: str,
    old_mode: str,
    new_mode: str,
    binary: bool,
    new: PathFacts,
    old: PathFacts,
    proven: bool,
) -> PathRule:
    """The first row of :data:`PATH_RULES` that holds for these facts (remembered: a
    candidate of 10,000 paths has a few dozen distinct facts)."""
    facts = ChangeFacts(status, old_mode, new_mode, binary, new, old, proven)
    for rule in PATH_RULES:
        if rule.holds(facts):
            return rule
    raise AssertionError("the last path rule holds for every change")


def classify_change(
    c: PathChange, new: PathFacts, old: PathFacts, blobs: Mapping[str, bytes]
) -> PathClass:
    """The class of one change: the first row of :data:`PATH_RULES` that holds.

    Args:
        c: the change; new: its path's facts; old: its old path's facts, or
            :data:`NO_PATH` when it has none; blobs: blob id -> bytes of the documentation
            to prove.

    Returns:
        The row's tier and id (the reason code), with the row's detail line.
    """
    proven = False
    if new.doc and old.doc:
        deleted = c.status == "D"
        mode = c.old_mode if deleted else c.new_mode
        data = blobs.get(c.old_oid if deleted else c.new_oid)
        proven = mode == MODE_FILE and is_proven_doc(data)
    rule = _first_rule(c.status, c.old_mode, c.new_mode, c.additions is None, new, old, proven)
    detail = rule.detail
    if isinstance(detail, str):
        return _FIXED[rule.id]
    return PathClass(rule.tier, rule.id, detail(c, new, old))
