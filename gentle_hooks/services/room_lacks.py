"""Which file of the user's work tree that git ignores a failed check needed (SPEC §9: the
clean room holds the candidate's exact tree, none of the clone's ignored files; issue 14,
refuter r14u: a suite needing an ignored ``localcfg.py`` was called the brief's fault).

Room ``services``. :func:`ignored_lack` reads a failed run's output for a Python module it
could not import (``No module named 'localcfg'``) or a file it could not open
(:func:`~gentle_hooks.policy.toolmissing.missing_files`) and names the one the user's work
tree holds and git ignores: no brief can fix that, and no option passes such a file into
the room. ``gate --reverify`` says the same of a CI clone in the same words
(:func:`gentle_hooks.services.reverify._ignored_absent`).
"""

from __future__ import annotations

import os
import posixpath
import re

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.toolmissing import missing_files

#: A module an interpreter could not import, as its error names it.
_NO_MODULE = re.compile(r"No module named '?([\w.]+)'?")


def ignored_lack(repo: Repository, root: str, output: str) -> str | None:
    """The words naming the first file the failed run's ``output`` says it lacked that the
    work tree ``root`` of ``repo`` holds and git ignores (``the file localcfg.py, which git
    ignores``), or None when there is none (or git cannot say)."""
    try:
        for name in _NO_MODULE.findall(output):
            found = _module_file(repo.ignored_files(), name)
            if found is not None:
                return _words(found)
        for named in missing_files(output):
            rel = _inside(named)
            if rel is None or not os.path.lexists(os.path.join(root, rel)):
                continue
            if repo.is_ignored(rel):
                return _words(rel)
    except GitError:
        return None
    return None


def _words(rel: str) -> str:
    return f"the file {rel}, which git ignores"


def _module_file(ignored: list[str], module: str) -> str | None:
    """The ignored entry (a file, or a directory ending in ``/``) that defines ``module``
    (``a.b``: ``a/b.py`` or ``a/b/``, at the top or below a folder such as ``src/``)."""
    tail = module.replace(".", "/")
    for entry in ignored:
        for form in (f"{tail}.py", f"{tail}/"):
            if entry == form or entry.endswith("/" + form):
                return entry.rstrip("/")
    return None


def _inside(named: str) -> str | None:
    """``named`` as a path relative to the top, or None: absolute, or leading out of it."""
    if not named or named.startswith("/"):
        return None
    path = posixpath.normpath(named)
    return None if path in (".", "..") or path.startswith("../") else path
