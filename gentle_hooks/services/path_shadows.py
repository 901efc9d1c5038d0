"""Modules a change adds in one ``sys.path`` directory of a check's run that the tree has
in another (SPEC §9; seed 001 "Guardrails": "do not accept a claim whose criteria have no
observable check").

Room ``services``. Reads the candidate's tree (its paths, pytest's configuration files)
and asks :func:`~gentle_hooks.policy.testdirs.shadows_across` which of the modules the
change adds are imported in place of the tree's own: a root ``app.py`` with the brief's
``PYTHONPATH=src`` and ``python3 -m pytest``, which puts the working directory first on
``sys.path``, runs the change's ``app`` instead of ``src/app.py``. The directories of a run
are those its command puts on ``sys.path`` (row ``D-shadow`` of
:mod:`gentle_hooks.policy.checkdefs`: the working directory of ``python -m``/``-c``, a
script's directory, each ``PYTHONPATH`` entry) and, for pytest, the ``pythonpath`` of its
configuration at the tree's root (:func:`~gentle_hooks.policy.plugins.config_pythonpath`),
the directories it inserts to import each ``conftest.py`` and test module (rootdir-relative,
:func:`~gentle_hooks.policy.testdirs.basedirs_of_tests`). A module the base already has at
that place is the repository's own. Each match is a ``D-shadow`` source naming the added
path: :mod:`gentle_hooks.services.defined` then does not run the check (row C1-own).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.checkdefs import Source
from gentle_hooks.policy.importable import module_name
from gentle_hooks.policy.plugins import CONFIG_PLACES, config_pythonpath
from gentle_hooks.policy.syspath import module_files
from gentle_hooks.policy.testdirs import basedirs_of_tests, shadows_across
from gentle_hooks.values.candidate import Candidate


def path_shadows(
    repo: Repository,
    cand: Candidate,
    changes: Sequence[BlobChange],
    sources: Sequence[tuple[Source, ...]],
    pytest: Sequence[bool],
) -> list[tuple[Source, ...]]:
    """For each check's ``sources`` (``pytest``: whether it runs pytest, in the same order),
    the ``D-shadow`` sources of the modules the change adds in one of its run's ``sys.path``
    directories that the candidate's tree provides from another; empty for a check that
    runs no Python or when the change adds no Python module. The tree is listed once.

    Raises:
        GitError: reading the trees failed.
    """
    added = [c.path for c in changes if c.old_blob is None and c.new_blob is not None]
    if not any(module_name(p.rsplit("/", 1)[-1]) for p in added):
        return [() for _ in sources]
    tree: list[str] | None = None
    runner_dirs: frozenset[str] | None = None
    found: list[tuple[Source, ...]] = []
    for own, runs_pytest in zip(sources, pytest, strict=True):
        dirs = {s.where for s in own if s.row == "D-shadow" and s.where is not None}
        if not dirs and not runs_pytest:
            found.append(())
            continue
        if tree is None:
            tree = [path for *_, path in repo.tree_entries(cand.tree)]
        if runs_pytest:
            if runner_dirs is None:
                runner_dirs = _pytest_dirs(repo, cand, tree)
            dirs |= runner_dirs
        inside = {d for d in dirs if d != ".." and not d.startswith("../")}
        found.append(
            tuple(
                Source("D-shadow", path=path)
                for path, where, name in shadows_across(inside, tree, added)
                if all(repo.read_path(cand.base.tree, p) is None for p in module_files(where, name))
            )
        )
    return found


def _pytest_dirs(repo: Repository, cand: Candidate, tree: Sequence[str]) -> frozenset[str]:
    """The directories pytest puts on ``sys.path`` in the candidate's tree, run from its
    root: its configuration's ``pythonpath`` entries and the base directory of each
    ``conftest.py`` and test module."""
    conftests = [p for p in tree if posixpath.basename(p) == "conftest.py"]
    files = set(tree)
    dirs: set[str] = set()
    for path in conftests:
        where = posixpath.dirname(path)
        while where and posixpath.join(where, "__init__.py") in files:
            where = posixpath.dirname(where)
        dirs.add(where or ".")
    dirs |= basedirs_of_tests(tree)
    for name in CONFIG_PLACES:
        data = repo.read_path(cand.tree, name)
        for entry in config_pythonpath(name, data) if data is not None else ():
            dirs.add(posixpath.normpath(entry))
    return frozenset(dirs)
