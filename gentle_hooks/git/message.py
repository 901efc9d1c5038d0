"""Commit message files: trailers added the way git adds them (``git interpret-trailers``).

Room ``git``. The prepare-commit-msg recorder writes a writer's trailer here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.git.process import run_git


def add_trailers(message_file: str, trailers: Sequence[str], env: Mapping[str, str]) -> bool:
    """Add each ``Key: value`` of ``trailers`` to the message file in place, unless the
    message already ends with that exact trailer (``--if-exists addIfDifferent``).

    Returns:
        True when git rewrote the file; False when it refused (the message stays as it was:
        a recorder never fails a commit over its trailer).
    """
    args = ["interpret-trailers", "--in-place", "--if-exists", "addIfDifferent"]
    for trailer in trailers:
        args += ["--trailer", trailer]
    return run_git([*args, message_file], os.getcwd(), env).returncode == 0


def trailer_values(message_file: str, key: str) -> list[str]:
    """The values of the ``<key>: value`` lines of the message file, wherever they stand
    (a squash puts the first commit's trailer block mid-message), in order, once each;
    undecodable bytes replaced. Comment lines (``#``) are not read.

    Raises:
        OSError: the file cannot be read.
    """
    with open(message_file, "rb") as fh:
        lines = fh.read().decode("utf-8", "replace").splitlines()
    prefix = key.lower() + ":"
    found = [ln[len(prefix) :].strip() for ln in lines if ln.lower().startswith(prefix)]
    return list(dict.fromkeys(v for v in found if v))


def drop_trailer_lines(message_file: str, key: str) -> bool:
    """Remove every ``<key>: ...`` line (key compared case-insensitively) from the message
    file in place; True when one was removed. The file is read and written as bytes, so a
    message in any encoding keeps its other lines exactly.

    Raises:
        OSError: the file cannot be read or written.
    """
    with open(message_file, "rb") as fh:
        lines = fh.read().splitlines(keepends=True)
    prefix = key.lower().encode() + b":"
    kept = [line for line in lines if not line.lower().startswith(prefix)]
    if len(kept) == len(lines):
        return False
    with open(message_file, "wb") as fh:
        fh.write(b"".join(kept))
    return True
