"""Refs fetched from and pushed to a remote (SPEC §8 "Sharing"), one refspec at a time.

Room ``git``. The caller names the refs; this module runs ``git fetch`` and ``git push``
and turns their outcome into a value or a :class:`~gentle_hooks.errors.GitError`.
"""

from __future__ import annotations

from gentle_hooks.errors import GitError, quoted
from gentle_hooks.git.gitconfig import GitConfig


def _not_an_option(remote: str) -> str:
    """``remote`` as git's positional argument, refused when git would read it as an
    option (``--upload-pack=<command>`` runs the command).

    Raises:
        GitError: ``remote`` is empty or starts with ``-``.
    """
    if not remote or remote.startswith("-"):
        raise GitError(f"no remote named {quoted(remote)} (see: git remote -v)")
    return remote


class Remotes(GitConfig):
    """Fetches and pushes of single refs."""

    def has_remote(self, name: str) -> bool:
        """Whether ``name`` is a configured remote (``remote.<name>.url`` is set)."""
        return self.config_get(f"remote.{name}.url") is not None

    def has_remote_branch(self, remote: str, branch: str) -> bool | None:
        """Whether the remote has ``refs/heads/<branch>`` (``git ls-remote``, which asks
        the remote itself).

        Returns:
            True or False; None when the remote could not be asked (unreachable, refused).
        """
        proc = self.run(
            ["ls-remote", "--heads", "--exit-code", _not_an_option(remote), f"refs/heads/{branch}"],
            env={"GIT_TERMINAL_PROMPT": "0"},  # an error path: never wait for a password
            ok=range(256),
        )
        # --exit-code: 2 when the remote answered and no ref matched
        return {0: True, 2: False}.get(proc.returncode)

    def fetch_ref(self, remote: str, ref: str, into: str) -> bool:
        """Fetch the remote's ``ref`` into the local ``into``, forced (``into`` mirrors it).

        Returns:
            False when the remote has no ``ref``; True when fetched.

        Raises:
            GitError: ``remote`` starts with ``-``; the fetch failed otherwise
                (``git fetch <remote> <ref> failed: ...`` with git's last line of error).
        """
        remote = _not_an_option(remote)
        proc = self.run(["fetch", "-q", remote, f"+{ref}:{into}"], ok=(0, 1, 128))
        if proc.returncode == 0:
            return True
        err = proc.stderr.decode("utf-8", "replace")
        if "couldn't find remote ref" in err:
            return False
        lines = err.strip().splitlines()
        last = lines[-1] if lines else f"exit {proc.returncode}"
        raise GitError(f"git fetch {remote} {ref} failed: {last}")

    def push_ref(self, remote: str, ref: str) -> None:
        """Push the local ``ref`` to the same name on the remote, without running the
        pre-push hook (``git push --no-verify``).

        Raises:
            GitError: ``remote`` starts with ``-``; the push failed (rejected,
                unreachable remote).
        """
        self.run(["push", "-q", "--no-verify", _not_an_option(remote), f"{ref}:{ref}"])
