"""Run a reported command in the foreground and observe it (SPEC §6 "receipt", "spot check").

Room ``services``, adapter (processes). Imports the standard library and :mod:`gentle_hooks.errors`.

The command inherits stdin; its stdout and stderr go through pipes that are copied to
our own streams as they arrive (so the output still streams to the terminal) while each
is hashed. The child therefore sees pipes, not a terminal: tools that colour only on a
terminal print plain text here.

Output digest: ``sha256:`` + SHA-256 of ``gentle-hooks.output/v1\\nstdout <hex>\\nstderr
<hex>\\n`` where each ``<hex>`` is the SHA-256 of that stream's bytes. Hashing the streams
separately keeps the digest independent of how they interleave.
"""

from __future__ import annotations

import contextlib
import hashlib
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO

from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import frozen

_CHUNK = 65536
#: Seconds to keep draining output after the command exited.
_DRAIN_SECONDS = 10.0


@frozen
class Observation:
    """What running a command showed.

    Attributes:
        exit_code: the exit status; a child killed by signal N reports ``128 + N``, as a
            shell would.
        observed: the observed result for the receipt line: ``exit N`` or
            ``killed by SIGNAME (exit 128+N)``.
        duration_ms: wall time in milliseconds (monotonic clock).
        output_digest: ``sha256:`` + 64 hex digits (see the module docstring).
        tail: the last bytes of its standard output and error, decoded (what a failure's
            cause is read from; never recorded).
    """

    exit_code: int
    observed: str
    duration_ms: int
    output_digest: str
    tail: str = ""


def describe_exit(returncode: int) -> tuple[int, str]:
    """Map a ``Popen.returncode`` to (shell-style exit status, observed-result text)."""
    if returncode >= 0:
        return returncode, f"exit {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    return 128 - returncode, f"killed by {name} (exit {128 - returncode})"


def output_digest(stdout_sha256: str, stderr_sha256: str) -> str:
    """Combine the two per-stream SHA-256 hex digests into the output digest."""
    payload = f"gentle-hooks.output/v1\nstdout {stdout_sha256}\nstderr {stderr_sha256}\n"
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


#: How much of each stream's end a run keeps to read a test runner's summary line.
_TAIL = 16384


def _pump(src: IO[bytes], sink: IO[bytes] | None, digest: hashlib._Hash, tail: bytearray) -> None:
    while True:
        chunk = src.read1(_CHUNK) if hasattr(src, "read1") else src.read(_CHUNK)
        if not chunk:
            break
        digest.update(chunk)
        tail += chunk
        del tail[:-_TAIL]
        if sink is not None:
            try:
                sink.write(chunk)
                sink.flush()
            except (OSError, ValueError):
                sink = None  # the terminal went away; keep hashing
    src.close()


def _descendants(pid: int) -> list[int]:
    """The live processes below ``pid`` (children, their children, …), read from
    ``/proc``; empty where there is no ``/proc`` (the child alone is then stopped)."""
    import os

    parents: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # it exited while we looked
        # "pid (comm) state ppid …": comm may hold spaces and parentheses, so split
        # after its last ')'.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and fields[1].isdigit():
            parents.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.append(child)
                todo.append(child)
    return found


def _signal_all(pids: Sequence[int], signum: int) -> None:
    import os

    for pid in pids:
        with contextlib.suppress(OSError):  # gone already, or no longer ours
            os.kill(pid, signum)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a child and every process below it (a shell's own children would
    otherwise run on, orphaned, holding the output pipes open), then kill what has not
    exited after a few seconds."""
    below = _descendants(proc.pid)
    proc.terminate()
    _signal_all(below, signal.SIGTERM)
    try:
        proc.wait(timeout=_DRAIN_SECONDS / 2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    _signal_all([p for p in below if _alive(p)], signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] != b"Z"


#: What runs a command under :func:`run_observed`'s ``launcher``: started with the
#: command's environment and directory, it reads that environment again from a pipe
#: (Python sets ``LC_CTYPE`` in its own under a C locale), starts the command with it and
#: exits with its status (128 + N for a death by signal N). A start that fails writes the
#: errno to the second pipe. Ctrl-C is the command's to answer: the launcher ignores it.
_LAUNCHER = """\
import os, signal, sys
envfd, errfd = int(sys.argv[1]), int(sys.argv[2])
os.set_inheritable(errfd, False)
with open(envfd, "rb") as fh:
    env = dict(i.split(b"=", 1) for i in fh.read().split(b"\\0") if i)
signal.signal(signal.SIGINT, signal.SIG_IGN)
try:
    pid = os.posix_spawnp(sys.argv[3], sys.argv[3:], env, setsigdef=(signal.SIGINT,))
except OSError as exc:
    os.write(errfd, str(exc.errno).encode())
    raise SystemExit(127)
status = os.waitpid(pid, 0)[1]
raise SystemExit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
"""


def run_observed(
    argv: Sequence[str],
    *,
    cwd: str,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    launcher: bool = False,
) -> Observation:
    """Run ``argv`` in the foreground, streaming its output, and observe the result.

    Args:
        argv: the command and its arguments (no shell unless argv says so).
        cwd: directory to run in.
        stdout / stderr: binary streams that receive the child's output as it arrives
            (None discards it; it is still hashed).
        env: the child's environment (default: ours).
        timeout: seconds after which the command is stopped (terminated, then killed);
            it then reports exit 124 (as ``timeout(1)`` does), ``timed out after Ns``.
        launcher: start the command from a launcher process (:data:`_LAUNCHER`) that runs
            in ``cwd`` with ``env`` and waits for it, so the command's parent process
            (``/proc/$PPID``: its environment, directory, command line) shows only what
            the command itself was given, never this process's. A death by signal N is
            then exit 128 + N (``exit N`` in ``observed``).

    Returns:
        The :class:`Observation`.

    Raises:
        UsageError: empty argv, or the program cannot be started (not found, not
            executable); nothing ran, so nothing should be recorded.
    """
    if not argv:
        raise UsageError("no command given: put it after --, e.g. 'receipt run -- pytest -q'")
    start = time.monotonic()
    if launcher:
        return _run_launched(argv, cwd, stdout, stderr, env, timeout, start)
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=None if env is None else dict(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        raise UsageError(f"cannot run {shlex.join(argv)}: {exc.strerror}") from None
    return _observe_child(proc, argv, cwd, stdout, stderr, timeout, start)


def _run_launched(
    argv: Sequence[str],
    cwd: str,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
    env: Mapping[str, str] | None,
    timeout: float | None,
    start: float,
) -> Observation:
    """:func:`run_observed` with ``launcher``: the launcher's start failing, or the
    command's, is the same :class:`UsageError` a direct start raises."""
    import os
    import sys

    env = dict(os.environ if env is None else env)
    payload = b"".join(os.fsencode(k) + b"=" + os.fsencode(v) + b"\0" for k, v in env.items())
    env_fd, env_w = os.pipe()
    err_r, err_fd = os.pipe()
    wrapped = [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(env_fd), str(err_fd), *argv]
    try:
        try:
            proc = subprocess.Popen(
                wrapped,
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(env_fd, err_fd),
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
            raise UsageError(f"cannot run {shlex.join(argv)}: {exc.strerror}") from None
        finally:
            os.close(env_fd)
            os.close(err_fd)
        # a launcher that died before reading: its exit status says so
        with contextlib.suppress(BrokenPipeError), open(env_w, "wb", closefd=False) as fh:
            fh.write(payload)
        os.close(env_w)
        env_w = -1
        observation = _observe_child(proc, argv, cwd, stdout, stderr, timeout, start)
        with open(err_r, "rb", closefd=False) as fh:
            failed = fh.read()
    finally:
        for fd in (env_w, err_r):
            if fd >= 0:
                os.close(fd)
    if failed.isdigit():
        raise UsageError(f"cannot run {shlex.join(argv)}: {os.strerror(int(failed))}")
    return observation


def _observe_child(
    proc: subprocess.Popen[bytes],
    argv: Sequence[str],
    cwd: str,
    stdout: IO[bytes] | None,
    stderr: IO[bytes] | None,
    timeout: float | None,
    start: float,
) -> Observation:
    """Stream, hash and wait for a started child (:func:`run_observed`), started in
    ``cwd``."""
    assert proc.stdout is not None and proc.stderr is not None
    hashes = (hashlib.sha256(), hashlib.sha256())
    tails = (bytearray(), bytearray())
    pumps = [
        threading.Thread(
            target=_pump, args=(proc.stdout, stdout, hashes[0], tails[0]), daemon=True
        ),
        threading.Thread(
            target=_pump, args=(proc.stderr, stderr, hashes[1], tails[1]), daemon=True
        ),
    ]
    for t in pumps:
        t.start()
    timed_out = False
    try:
        try:
            returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop(proc)
            returncode = 124
    except KeyboardInterrupt:
        # From a terminal the child got the same SIGINT (same process group): let it
        # finish dying; a SIGINT sent to us alone must not leave us waiting on it.
        try:
            proc.wait(timeout=_DRAIN_SECONDS / 2)
        except subprocess.TimeoutExpired:
            _stop(proc)
        raise
    except BaseException:
        # We are being stopped (a SIGTERM turned into SystemExit): stop the child too, so
        # nothing runs on in a checkout about to be removed.
        _stop(proc)
        raise
    for t in pumps:
        # A background grandchild may keep a pipe open after the command exits; do not
        # wait for it forever (the digest then covers what arrived in time).
        t.join(timeout=_DRAIN_SECONDS)
    duration_ms = int((time.monotonic() - start) * 1000)
    code, observed = describe_exit(returncode)
    if timed_out:
        code, observed = 124, f"timed out after {timeout:g}s (exit 124)"
    elif code == 0:
        observed += _ran_no_tests(argv, tails, cwd)
    return Observation(
        exit_code=code,
        observed=observed,
        duration_ms=duration_ms,
        output_digest=output_digest(hashes[0].hexdigest(), hashes[1].hexdigest()),
        tail=b"\n".join(bytes(t) for t in tails).decode("utf-8", "replace"),
    )


def _ran_no_tests(argv: Sequence[str], tails: Sequence[bytearray], cwd: str) -> str:
    """``, its test runner ran no tests`` (:data:`~gentle_hooks.policy.selfcheck.RAN_NO_TESTS`)
    when ``argv`` runs a recognised test runner whose output ends saying it ran 0 tests
    (:func:`gentle_hooks.policy.testcount.tests_run`), or ``python -m doctest`` on files
    (relative to ``cwd``) in which it tried no example (:func:`_doctests_tried`); else
    empty."""
    from gentle_hooks.policy.selfcheck import RAN_NO_TESTS
    from gentle_hooks.policy.testcount import tests_run

    text = b"\n".join(bytes(t) for t in tails).decode("utf-8", "replace")
    if tests_run(shlex.join(argv), text) == 0 or _doctests_tried(argv, text, cwd) == 0:
        return f", {RAN_NO_TESTS}"
    return ""


#: The most bytes of a file doctest was given that are read to count its examples.
_DOCTEST_READ = 4 * 1024 * 1024


def _doctests_tried(argv: Sequence[str], text: str, cwd: str) -> int | None:
    """How many examples ``python -m doctest FILE...`` (``argv``, run in ``cwd``) tried:
    its ``-v`` summary lines in ``text``, else the examples its files hold
    (:mod:`gentle_hooks.policy.doctests`); None when ``argv`` runs no doctest, or a file
    cannot be read whole or counted."""
    import os

    from gentle_hooks.policy.doctests import doctest_files, examples_in, verbose_count

    files = doctest_files(list(argv))
    if not files:
        return None
    said = verbose_count(text, len(files))
    if said is not None:
        return said
    total = 0
    for name in files:
        try:
            with open(os.path.join(cwd, name), "rb") as f:
                data = f.read(_DOCTEST_READ + 1)
        except OSError:
            return None
        found = (
            None
            if len(data) > _DOCTEST_READ
            else examples_in(name, data.decode("utf-8", "replace"))
        )
        if found is None:
            return None
        total += found
    return total


@contextlib.contextmanager
def stopped_cleanly() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP end the process through ``SystemExit`` (exit
    128 + N), so ``finally`` blocks run and temporary checkouts and clean rooms are
    removed. Outside the main thread signals cannot be handled: nothing changes there."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    saved = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
