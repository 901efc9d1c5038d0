"""The one error type of gentle-hooks and its exit codes (SPEC §7 "Exit codes").

Room ``errors``, leaf. Imports only the standard library; every other module may import it.

A *block* is a result, never an exception. Exceptions are for input the tool cannot
act on (exit 2) and for the unexpected (exit 3, handled by :mod:`gentle_hooks.main`).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_BLOCKED = 1
EXIT_INPUT = 2
EXIT_UNEXPECTED = 3
EXIT_INTERRUPTED = 130


class GentleError(Exception):
    """A failure the user can fix; rendered as one line, never a traceback.

    Args:
        message: one line saying what is wrong and, where there is one, what to run instead.
        exit_code: process exit code; 2 (usage, bad input, config, store) unless a subclass
            says otherwise.
    """

    exit_code: int = EXIT_INPUT

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code

    @property
    def message(self) -> str:
        """The one-line message (newlines folded so the promise of one line holds)."""
        return " ".join(str(self).split("\n"))


class UsageError(GentleError):
    """Bad flags or arguments (exit 2)."""


class GitError(GentleError):
    """Git refused or failed: not a repository, unknown ref, a git command failed (exit 2)."""


class ConfigError(GentleError):
    """Invalid configuration in a file, git config or the environment (exit 2)."""


class PolicyInputError(GentleError):
    """Input the policy cannot accept: unknown escalation item, missing reason (exit 2)."""
