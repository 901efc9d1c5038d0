"""The checks of a verify run whose own definition the candidate adds or changes (SPEC §9;
seed 001 "Guardrails").

Room ``services``. Reads the candidate's change (its paths and blobs, from git) and asks
:mod:`gentle_hooks.policy.checkdefs` which of those paths define what each check runs, and
whether the part that defines it changed (``package.json``'s ``scripts``, not its
dependencies). :func:`~gentle_hooks.services.room_run.observe_all` does not run such a check.
A pytest check is defined too by the plugins the ``pytest_plugins`` of a Python file the
change adds or changes names (:func:`~gentle_hooks.policy.plugins.named_plugins`: pytest
loads them as it collects that test module; row ``D-plugin``).
:func:`discovery_steered` names the files of the change that steer ``python -m unittest``'s
discovery (:func:`~gentle_hooks.policy.selection.steers_discovery`): a full suite run with
them is not the full suite.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.git.delta import BlobChange
from gentle_hooks.policy.checkdefs import (
    Source,
    check_sources,
    included_files,
    is_defining,
    part_changed,
)
from gentle_hooks.policy.plugins import named_plugins
from gentle_hooks.policy.selection import steers_discovery
from gentle_hooks.services.record import Bound

#: The makefiles ``make`` reads when no ``-f`` names one (at the tree's root).
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
#: At most this many files are read following sourced and included files, per check.
_MAX_FOLLOWED = 32


def defined_by_change(bound: Bound, checks: Sequence[Check]) -> tuple[tuple[str, ...], ...]:
    """For each check, in order: the paths the candidate adds, changes or removes that
    define what it runs (:func:`~gentle_hooks.policy.checkdefs.check_sources`), sorted;
    empty when the candidate leaves its definition as the base has it.

    Raises:
        GitError: reading the trees failed.
    """
    cand = bound.candidate
    if cand.is_empty:
        return tuple(() for _ in checks)
    changes = bound.repo.tree_delta(cand.base.tree, cand.tree)
    sources = [_sources(bound, check) for check in checks]
    if any(_runs_pytest(s) for s in sources):
        loaded = _plugin_sources(bound, changes)
        sources = [(*s, *loaded) if _runs_pytest(s) else s for s in sources]
    matched = [
        [(s, c) for s in found for c in changes if is_defining(s, c.path)] for found in sources
    ]
    oids = {o for pairs in matched for _, c in pairs for o in (c.old_blob, c.new_blob) if o}
    blobs = bound.repo.read_blobs(sorted(oids)) if oids else {}

    def data(oid: str | None) -> bytes | None:
        return None if oid is None else blobs.get(oid)

    return tuple(
        tuple(
            sorted(
                {
                    c.path
                    for s, c in pairs
                    if part_changed(s, c.path, data(c.old_blob), data(c.new_blob))
                }
            )
        )
        for pairs in matched
    )


def _runs_pytest(sources: Sequence[Source]) -> bool:
    """Whether a check with ``sources`` may run pytest (its configuration defines it: a
    rule naming ``conftest.py``)."""
    return any(s.rule is not None and "conftest.py" in s.rule.names for s in sources)


def _plugin_sources(bound: Bound, changes: Sequence[BlobChange]) -> tuple[Source, ...]:
    """Row ``D-plugin``: the modules the ``pytest_plugins`` of each Python file of
    ``changes`` names, on either side; a file that sets it in a way not read
    (:func:`~gentle_hooks.policy.plugins.named_plugins` None) defines the check itself."""
    py = [c for c in changes if c.path.endswith(".py")]
    oids = sorted({o for c in py for o in (c.old_blob, c.new_blob) if o})
    blobs = bound.repo.read_blobs(oids) if oids else {}
    found: list[Source] = []
    for change in py:
        for oid in (change.old_blob, change.new_blob):
            names = named_plugins(blobs.get(oid, b"")) if oid else ()
            if names is None:
                found.append(Source("D-script", change.path))
            else:
                found += [Source("D-plugin", modules=frozenset({n})) for n in names]
    return tuple(dict.fromkeys(found))


def _sources(bound: Bound, check: Check) -> tuple[Source, ...]:
    """:func:`~gentle_hooks.policy.checkdefs.check_sources` of ``check``, with the files
    its scripts source and its makefiles include
    (:func:`~gentle_hooks.policy.checkdefs.included_files`), followed through the
    candidate's and the base's versions of each (a change that adds an ``include`` and the
    file it names writes both)."""
    sources = list(check_sources(check.argv))
    todo = [s.path for s in sources if s.path is not None and not s.tail]
    if any(s.row == "D-make" for s in sources):
        todo += _MAKEFILES
    seen: set[str] = set()
    trees = (bound.candidate.tree, bound.candidate.base.tree)
    while todo and len(seen) < _MAX_FOLLOWED:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        for tree in trees:
            data = bound.repo.read_path(tree, path)
            for name in included_files(path, data) if data is not None else ():
                if not any(s.path == name for s in sources):
                    sources.append(Source("D-script", name))
                    todo.append(name)
    return tuple(sources)


def discovery_steered(bound: Bound) -> tuple[str, ...]:
    """The Python paths the candidate adds, changes or removes that steer ``python -m
    unittest``'s discovery (:func:`~gentle_hooks.policy.selection.steers_discovery`: a
    ``load_tests`` on either side, a test package's ``__init__.py``), sorted; a file
    identical on the base is not among them.

    Raises:
        GitError: reading the trees failed.
    """
    cand = bound.candidate
    if cand.is_empty:
        return ()
    changes = [
        c for c in bound.repo.tree_delta(cand.base.tree, cand.tree) if c.path.endswith(".py")
    ]
    oids = sorted({o for c in changes for o in (c.old_blob, c.new_blob) if o})
    blobs = bound.repo.read_blobs(oids) if oids else {}

    def data(oid: str | None) -> bytes | None:
        return None if oid is None else blobs.get(oid)

    return tuple(
        sorted(
            {
                c.path
                for c in changes
                if steers_discovery(c.path, data(c.old_blob), data(c.new_blob))
            }
        )
    )
