"""Running git: the child processes every other module of this room starts (SPEC §2).

Room ``git``. Standard library only. Hooks run inside git's environment: a child ``git``
keeps the variables git handed the hook (``GIT_DIR``, ``GIT_INDEX_FILE`` ...), and one that
works on another repository gets :func:`scrubbed_env` instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.values.bound import lowered_bound

TYPE_CHECKING = False  # typing costs ~10 ms to import: every git call of a hook comes here
if TYPE_CHECKING:
    from typing import IO, Any, TypeVar

    T = TypeVar("T")

#: Variables git sets for a hook that bind a child git to one repository.
#: ``git rev-parse --local-env-vars`` (git 2.39) plus the quarantine and namespace ones.
REPO_ENV_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_GRAFT_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_SHALLOW_FILE",
)

#: Pathspecs taken as they are, whatever the caller's environment asks (a hook may inherit
#: ``GIT_GLOB_PATHSPECS``; git refuses ``literal`` with any other global setting).
LITERAL_PATHSPECS = {
    "GIT_LITERAL_PATHSPECS": "1",
    "GIT_GLOB_PATHSPECS": "0",
    "GIT_NOGLOB_PATHSPECS": "0",
    "GIT_ICASE_PATHSPECS": "0",
}


def scrubbed_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of ``base`` (default ``os.environ``) without the repository-binding variables
    git sets for hooks (:data:`REPO_ENV_VARS`), for a child that works on another repository."""
    env = dict(os.environ if base is None else base)
    for name in list(env):
        if name in REPO_ENV_VARS or name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")):
            env.pop(name, None)
    return env


#: Seconds a ``git diff -G ERE`` scan may take before it is killed and the command stops
#: with one line (exit 2; a gate fails closed): git's POSIX regex engine can take
#: exponential time on some patterns and large blobs (config/regex_shape.py refuses the
#: shapes known to). ``GENTLE_HOOKS_SCAN_SECONDS`` can only lower it (a test's knob).
#: Memory is not bounded here: the time bound ends a scan that keeps growing.
SCAN_SECONDS = 40.0


def scan_seconds(env: Mapping[str, str]) -> float:
    """:data:`SCAN_SECONDS`, or ``GENTLE_HOOKS_SCAN_SECONDS`` when it is a smaller
    non-negative number (anything else is ignored: the bound never grows)."""
    return lowered_bound(env, "GENTLE_HOOKS_SCAN_SECONDS", SCAN_SECONDS)


def _timed_out(args: Sequence[str], seconds: float) -> GitError:
    return GitError(
        f"git {args[0]} -G did not finish within {seconds:g}s (a preselect pattern git's "
        "regex engine is slow on, or very large files); stopped, nothing judged"
    )


def run_git(
    args: Sequence[str],
    cwd: str,
    env: Mapping[str, str],
    input: bytes | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git <args>`` in ``cwd`` to completion, stdout and stderr captured; stdin is
    ``input``, or /dev/null when None. The exit code is the caller's to judge.

    Raises:
        GitError: git is not on PATH; it ran past ``timeout`` seconds (killed: a ``-G``
            scan, :data:`SCAN_SECONDS`).
    """
    try:
        return _spawn(
            subprocess.run,
            args,
            cwd,
            env,
            input=input,
            capture_output=True,
            check=False,
            stdin=None if input is not None else subprocess.DEVNULL,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:  # subprocess.run killed and reaped it
        raise _timed_out(args, timeout or 0) from None


def communicate_within(
    proc: subprocess.Popen[bytes], data: bytes | None, args: Sequence[str], seconds: float | None
) -> bytes:
    """``proc.communicate(data)``'s stdout, within ``seconds`` (None: no bound).

    Raises:
        GitError: it ran longer (killed and reaped first).
    """
    try:
        return proc.communicate(data, timeout=seconds)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise _timed_out(args, seconds or 0) from None


def popen_git(
    args: Sequence[str],
    cwd: str,
    env: Mapping[str, str],
    stdin: bool = False,
    stderr: bool = True,
) -> subprocess.Popen[bytes]:
    """Start ``git <args>`` with stdout piped; stdin piped when ``stdin``, else /dev/null;
    stderr piped when ``stderr``, else /dev/null.

    Raises:
        GitError: git is not on PATH.
    """
    return _spawn(
        subprocess.Popen,
        args,
        cwd,
        env,
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr else subprocess.DEVNULL,
    )


def _spawn(
    start: Callable[..., T], args: Sequence[str], cwd: str, env: Mapping[str, str], **how: Any
) -> T:
    """``start(["git", *args], cwd=cwd, env=env, **how)``.

    Raises:
        GitError: ``cwd`` cannot be entered (the directory and the OS reason); git is not
            on PATH (only when running it found no such program); git cannot be run.
    """
    try:
        return start(["git", *args], cwd=cwd, env=env, **how)
    except OSError as exc:
        if exc.filename == cwd:  # the child could not enter cwd: git never ran
            raise GitError(f"{cwd}: {exc.strerror}; git cannot run there") from None
        if isinstance(exc, FileNotFoundError):
            raise GitError("git is not on PATH; install git") from None
        raise GitError(f"git cannot be run: {exc.strerror}") from None


def start_session(
    argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdout: bool = True
) -> subprocess.Popen[bytes]:
    """Start ``argv`` (no shell) in ``cwd`` with ``env``, no stdin (a pre-push hook's stdin
    holds the refs), stdout piped when ``stdout`` else /dev/null, stderr piped, in a session
    of its own so :func:`kill_session` ends it with every process it started.

    Raises:
        OSError: it cannot be started (no such program, not executable).
    """
    return subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def kill_session(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the session :func:`start_session` gave ``proc`` (a script's own children
    would keep its pipes open otherwise); ``proc`` alone where there are no process groups
    or its group is already gone."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(OSError):  # it ended between the timeout and the kill
            proc.kill()


class Drain:
    """Read a pipe to its end in a thread (a child's stderr, which must not fill up while
    its stdout is read)."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self._pipe = pipe
        self._data = b""
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._data = self._pipe.read()

    def wait(self) -> bytes:
        """Everything read, once the pipe ended."""
        self._thread.join()
        return self._data


def grow_pipe(fd: int) -> None:
    """Let a pipe hold 1 MiB where the system allows it (Linux), so its writer seldom
    waits for the reader (to wake up, or to finish with what it read)."""
    with contextlib.suppress(ImportError, AttributeError, OSError):  # not Linux, or too large
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
