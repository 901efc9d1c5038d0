"""Files a test runner or the interpreter loads by their name alone: an ignored one makes a
work tree hold more than the candidate (SPEC §5 "Spot check": the re-run is in the work
tree only when it holds exactly the candidate).

Room ``policy`` (pure). :func:`is_runner_loaded` is true for a path whose base name a
runner reads without being told to: every file rule of
:data:`gentle_hooks.policy.checkdefs.DEFINITION_ROWS` (``conftest.py``, ``pytest.ini``,
``tox.ini``, ``setup.cfg``, ``pyproject.toml``, a makefile, ``package.json``,
``jest.config.*``, ``.mocharc.*``, ``noxfile.py``, a ``sitecustomize``/``usercustomize``
module), a ``*.pth`` file, and a module pytest collects by default (``test_*.py``,
``*_test.py``). Such a file, ignored by git and so in no candidate's tree, decides the
re-run as much as the candidate's own files do.
"""

from __future__ import annotations

import fnmatch

from gentle_hooks.policy.checkdefs import DEFINITION_ROWS
from gentle_hooks.policy.importable import module_name

#: Base names pytest collects as test modules by default (``python_files``).
TEST_MODULES = ("test_*.py", "*_test.py")
#: Suffixes Python's ``site`` module reads from a directory on its path.
SITE_SUFFIXES = (".pth",)


def is_runner_loaded(path: str) -> bool:
    """Whether a runner or the interpreter loads the file ``path`` (relative, ``/``
    separated) by its base name (see the module docstring)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if name.endswith(SITE_SUFFIXES) or any(fnmatch.fnmatchcase(name, p) for p in TEST_MODULES):
        return True
    module = module_name(name)
    for row in DEFINITION_ROWS:
        for rule in row.files:
            if name in rule.names or name.endswith(rule.suffixes or ("\0",)):
                return True
            if module is not None and module in rule.modules:
                return True
    return False
