"""``python -m gentle_hooks``: the same entry point as the ``gentle-hook`` script.

``-m`` puts the directory it runs in first on ``sys.path``: in a repository, a module the
change adds there (``unittest.py``, ``shlex.py``) would shadow the standard library module
gentle-hooks imports later, and run as gentle-hooks. That entry goes before anything else
is imported, as ``python -P`` (3.11+) and the installed script's ``-I`` leave it out.
"""

import os
import sys

if sys.path and sys.path[0] in ("", os.getcwd()):  # the entry -m put there (none under -P)
    del sys.path[0]

from gentle_hooks.main import entry  # only now: its imports read the safe path

entry()
