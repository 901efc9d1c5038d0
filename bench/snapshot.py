"""This checkout as a hook repository at one commit: the pre-commit framework installs a
hook repository at a commit, so the working files are committed in a temporary repository
and the framework runs the code as it is now, not as it was last committed.

Used by the journey bench (:mod:`bench.journeys.runner`) and the end-to-end tests
(``tests/e2e/conftest.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path


def snapshot_checkout(checkout: Path, dest: Path, env: Mapping[str, str]) -> str:
    """Copy ``checkout``'s files (tracked and untracked, not ignored) into ``dest``, commit
    them there with ``env`` (git identity and config isolation are the caller's), and return
    the commit id.

    Raises:
        subprocess.CalledProcessError: a git step failed.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=checkout,
        env=env,
        capture_output=True,
        check=True,
    ).stdout
    for raw in filter(None, listed.split(b"\0")):
        src = checkout / os.fsdecode(raw)
        if src.is_file():  # a deleted but still tracked file is left out
            target = dest / os.fsdecode(raw)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True, capture_output=True)
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=dest, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
