"""How the user types the CLI in a printed command (SPEC §7 "Fix commands").

Room ``report``. Reads the environment and the file system when a block is printed, or
when a push that passes names the ``sync push`` of the notes it did not send.
"""

from __future__ import annotations

#: How a line the writer reads on another machine names the CLI (a CI or server block,
#: read in the writer's clone): the path that runs it here means nothing there, so the
#: block prints :func:`~gentle_hooks.report.worktree_text.path_steps` before it instead.
WRITER_CLI = "gentle-hook"


def _user_path() -> str:
    """The PATH the user's shell has: this process's, without the pre-commit framework's
    or prek's hook environment (they put it first only while a hook runs)."""
    import os
    import sys

    path = os.environ.get("PATH", "")
    if os.environ.get("PRE_COMMIT") or os.environ.get("PREK"):
        own = os.path.realpath(os.path.dirname(sys.executable))
        path = os.pathsep.join(
            d for d in path.split(os.pathsep) if d and os.path.realpath(d) != own
        )
    return path


def _on_path(name: str, path: str) -> bool:
    """Whether a directory of ``path`` holds an executable file ``name`` (as
    :func:`shutil.which` finds it, an empty entry left out), without loading
    :mod:`shutil`: a push that passes prints a command too (the notes it did not send)."""
    import os

    for folder in path.split(os.pathsep):
        found = os.path.join(folder, name)
        if folder and os.path.isfile(found) and os.access(found, os.X_OK):
            return True
    return False


def program() -> str:
    """How the user types the CLI: ``gentle-hook`` when their PATH finds it, else the
    running CLI's absolute path (the pre-commit framework or prek puts its own environment
    on PATH only while a hook runs; a plain hook runs with the interpreter it was
    installed from, whose scripts may not be on PATH). Under a server's pre-receive
    (``GIT_QUARANTINE_PATH`` set) it is always ``gentle-hook``."""
    import os
    import shlex
    import sys

    if os.environ.get("GIT_QUARANTINE_PATH"):
        # git's pre-receive: the reader is a remote pusher, for whom the server's own
        # install path means nothing; the fix runs in their clone, with their CLI.
        return "gentle-hook"
    if _on_path("gentle-hook", _user_path()):
        return "gentle-hook"
    script = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    if os.access(script, os.X_OK):
        return shlex.quote(script)
    return f"{shlex.quote(sys.executable)} -m gentle_hooks"
