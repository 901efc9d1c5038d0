"""How the user types the CLI in a printed command (SPEC §7 "Fix commands").

Room ``report``.
"""

from __future__ import annotations


def program() -> str:
    """How the user types the CLI: ``gentle-hook`` when their PATH finds it, else the
    running CLI's absolute path (the pre-commit framework or prek puts its own environment
    on PATH only while a hook runs; a plain hook runs with the interpreter it was
    installed from, whose scripts may not be on PATH). Under a server's pre-receive
    (``GIT_QUARANTINE_PATH`` set) it is always ``gentle-hook``."""
    import os
    import shlex
    import shutil
    import sys

    if os.environ.get("GIT_QUARANTINE_PATH"):
        # git's pre-receive: the reader is a remote pusher, for whom the server's own
        # install path means nothing; the fix runs in their clone, with their CLI.
        return "gentle-hook"
    own = os.path.realpath(os.path.dirname(sys.executable))
    path = os.environ.get("PATH", "")
    if os.environ.get("PRE_COMMIT") or os.environ.get("PREK"):
        # the framework put its hook environment first: the user's shell does not have it
        path = os.pathsep.join(
            d for d in path.split(os.pathsep) if d and os.path.realpath(d) != own
        )
    if shutil.which("gentle-hook", path=path):
        return "gentle-hook"
    script = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    if os.access(script, os.X_OK):
        return shlex.quote(script)
    return f"{shlex.quote(sys.executable)} -m gentle_hooks"
