"""This clone's ignore rules (SPEC §9): whether git ignores a path here, and patterns added
to ``info/exclude`` (the clone's own ignore file, never committed), so artifacts written
into the work tree do not change its candidate.

Room ``git``.
"""

from __future__ import annotations

import os

from gentle_hooks.errors import GitError
from gentle_hooks.git.core import RepositoryCore


class Ignores(RepositoryCore):
    """Ignore checks and the clone-local exclude file."""

    def is_ignored(self, path: str) -> bool:
        """Whether git ignores ``path`` (relative to the work tree root) here: ``.gitignore``
        files, ``info/exclude`` and ``core.excludesFile``, as ``git check-ignore`` says."""
        proc = self.run(["check-ignore", "-q", "--no-index", "--", path], ok=(0, 1))
        return proc.returncode == 0

    def ignored_files(self) -> list[str]:
        """The ignored files of the work tree (relative to its root; an ignored directory
        is one entry ending in ``/``, its contents not listed): ``.gitignore`` files,
        ``info/exclude`` and ``core.excludesFile``, as ``git ls-files --others --ignored
        --exclude-standard --directory`` lists them."""
        proc = self.run(
            [
                *("ls-files", "-z", "--others", "--ignored", "--exclude-standard"),
                *("--directory", "--full-name", "--", ":/"),
            ]
        )
        return [p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p]

    def tracks_under(self, rel_dir: str) -> bool:
        """Whether the index holds a file below directory ``rel_dir`` (relative to the work
        tree root; taken literally, never as a glob)."""
        proc = self.run(["ls-files", "-z", "--", f":(top,literal){rel_dir}"])
        return bool(proc.stdout)

    def exclude_locally(self, pattern: str, comment: str) -> str:
        """Append ``pattern`` (after a ``# comment`` line) to this clone's ``info/exclude``
        unless it is there already; the file's path.

        Raises:
            GitError: the file cannot be written.
        """
        path = self.git_path("info/exclude")
        try:
            existing = ""
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                    existing = fh.read()
            if pattern in existing.splitlines():
                return path
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "a", encoding="utf-8", errors="surrogateescape") as fh:
                if existing and not existing.endswith("\n"):
                    fh.write("\n")
                fh.write(f"# {comment}\n{pattern}\n")
        except OSError as exc:
            raise GitError(f"{path}: cannot write: {exc.strerror}") from None
        return path
