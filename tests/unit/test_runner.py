"""Running a reported command (SPEC §6): exit status, signals, streamed output, digest."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import sys
import time

import pytest

from gentle_hooks.errors import UsageError
from gentle_hooks.services.runner import describe_exit, output_digest, run_observed


def _digest(out: bytes, err: bytes) -> str:
    return output_digest(hashlib.sha256(out).hexdigest(), hashlib.sha256(err).hexdigest())


def test_output_streams_through_and_is_digested(tmp_path) -> None:
    out, err = io.BytesIO(), io.BytesIO()
    code = "import sys; print('hello'); print('oops', file=sys.stderr); sys.exit(3)"
    obs = run_observed([sys.executable, "-c", code], cwd=str(tmp_path), stdout=out, stderr=err)
    assert (obs.exit_code, obs.observed) == (3, "exit 3")
    assert out.getvalue() == b"hello\n" and err.getvalue() == b"oops\n"
    assert obs.output_digest == _digest(b"hello\n", b"oops\n")
    assert obs.duration_ms >= 0


def test_the_digest_does_not_depend_on_interleaving(tmp_path) -> None:
    a = "import sys; print('x'); print('y', file=sys.stderr)"
    b = "import sys; print('y', file=sys.stderr); print('x')"
    da = run_observed([sys.executable, "-c", a], cwd=str(tmp_path), stdout=None, stderr=None)
    db = run_observed([sys.executable, "-c", b], cwd=str(tmp_path), stdout=None, stderr=None)
    assert da.output_digest == db.output_digest == _digest(b"x\n", b"y\n")


def test_it_runs_in_the_given_directory(tmp_path) -> None:
    out = io.BytesIO()
    run_observed(
        [sys.executable, "-c", "import os; print(os.getcwd())"],
        cwd=str(tmp_path),
        stdout=out,
        stderr=None,
    )
    assert out.getvalue().decode().strip() == str(tmp_path)


def test_a_signal_reports_as_a_shell_would(tmp_path) -> None:
    code = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    obs = run_observed([sys.executable, "-c", code], cwd=str(tmp_path), stdout=None, stderr=None)
    assert (obs.exit_code, obs.observed) == (143, "killed by SIGTERM (exit 143)")
    assert describe_exit(-int(signal.SIGKILL)) == (137, "killed by SIGKILL (exit 137)")
    assert describe_exit(0) == (0, "exit 0")


def test_a_missing_program_is_a_usage_error(tmp_path) -> None:
    with pytest.raises(UsageError, match="cannot run no-such-program-xyz"):
        run_observed(["no-such-program-xyz"], cwd=str(tmp_path), stdout=None, stderr=None)
    with pytest.raises(UsageError, match="no command given"):
        run_observed([], cwd=str(tmp_path), stdout=None, stderr=None)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="descendants are found through /proc")
def test_a_timeout_stops_the_commands_own_children_too(tmp_path) -> None:
    """A timed-out shell's child is stopped with it: nothing runs on, orphaned, in a
    checkout about to be removed, and the run does not wait for its pipes."""
    marker = "31.4159"  # a sleep no other process on the machine is running
    script = f"{sys.executable} -c 'import time; time.sleep({marker})'; echo after"
    start = time.monotonic()
    obs = run_observed(["sh", "-c", script], cwd=str(tmp_path), stdout=None, stderr=None, timeout=1)
    assert (obs.exit_code, obs.observed) == (124, "timed out after 1s (exit 124)")
    assert time.monotonic() - start < 8  # not the 10 s drain a live grandchild would cost
    time.sleep(0.2)
    running = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    cmdline = fh.read()
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    zombie = fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
            except OSError:
                continue
            if f"time.sleep({marker})".encode() in cmdline and not zombie:
                running.append(entry)
    assert running == []
