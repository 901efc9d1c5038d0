"""The external native provider: ``gentle-ai review assess`` as a bounded subprocess (SPEC §4).

Layer: native (standard library only). The typed decode lives in
:mod:`gentle_hooks.native.decode` (pydantic), imported only once the binary answered with
exit 0: the built-in provider, and ``auto`` without the binary, never import pydantic.

What runs::

    gentle-ai review assess --cwd <root> \\
        [--base-ref <base commit> --committed-only] \\
        [--escalate-item N --escalate-reason R] --json

(with an escalation, once without it first: that answer's ``risk`` is the native tier)
in the work tree root, with stdin closed, the hook's repository-binding ``GIT_*`` variables
dropped (:func:`gentle_hooks.git.repository.scrubbed_env`: the binary resolves ``--cwd`` itself), in
its own process group, killed as a group when the timeout passes (reading its output counts)
or when it prints more than :data:`OUTPUT_LIMIT` bytes on either stream.

The binary sees one of two candidates: HEAD against a base (``--base-ref --committed-only``,
untracked files out of scope) or the uncommitted changes against HEAD (no selector). A
candidate is sent only when it is one of those two — same base tree, same candidate tree —
so ``candidate.consumed`` is about *this* candidate; any other candidate (the index during
``commit -a``, a pushed commit that is not HEAD, a snapshot spanning commits *and* dirty
files) is unassessable with the reason, never silently replaced by a neighbour. The base is
passed as the full base commit id, not the ref name: the binary then compares exactly our
base tree (merge-base, or first parent for a commit the base branch already holds).

Every failure — not on PATH, cannot execute, non-zero exit (even with a valid failure
envelope on stdout: the real binary fails closed that way), timeout, too much output, empty,
non-UTF-8, non-JSON (a number Python will not convert, nesting its parser cannot follow),
unknown schema, a shape the typed model refuses, a contradictory envelope, a
binary without the verb — is an :class:`ExternalAnswer` with ``native=None`` and one line
that keeps the binary's own message, redacted as upstream's host redacts it (environment
assignments, credential arguments, absolute paths: :mod:`gentle_hooks.native.message`).
Nothing here raises for the binary's behaviour.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence

from gentle_hooks.git.process import kill_session, scrubbed_env, start_session
from gentle_hooks.native.message import relay
from gentle_hooks.native.result import NativeAssessment
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen, replace

GENTLE_AI = "gentle-ai"
#: Most bytes read from the binary's standard output, and from its standard error: an
#: envelope is a few kilobytes; more is no answer (the binary is killed, never waited on).
OUTPUT_LIMIT = 4 * 1024 * 1024
_TIMEOUT = "timeout"
#: How a binary without the verb says so ("unknown command", "unknown review command"...).
_NO_VERB = re.compile(r"\b(unknown|unrecognized|invalid|no such) (review )?(sub)?command\b", re.I)


# -- answers -----------------------------------------------------------------------------


@frozen
class ExternalAnswer:
    """What the binary answered: the envelope, or why there is none.

    Attributes:
        native: the decoded envelope, or None when assessment failed.
        error: one line (the binary's own message kept) when it failed, else None.
        argv: the command run, or None when nothing ran.
        note: one line about an envelope that stands but is not the whole answer (the
            escalated call failed, so the envelope is the one without the escalation),
            else None.
    """

    native: NativeAssessment | None
    error: str | None
    argv: tuple[str, ...] | None = None
    note: str | None = None


# -- the candidate the binary can see ----------------------------------------------------


def selector_args(cand: Candidate, head: str | None, head_tree: str | None) -> list[str] | str:
    """The selector flags that make the binary assess exactly ``cand``, or why none can.

    Args:
        cand: the candidate; head / head_tree: HEAD's commit and tree now (None when unborn).

    Returns:
        ``["--base-ref", <base commit>, "--committed-only"]`` (committed-only leaves
        untracked files out of scope; upstream's ``--untracked-scope`` needs an expected
        untracked inventory, which committed-only mode has no use for)
        when the candidate tree is HEAD's tree; ``[]`` (the uncommitted changes) for a
        snapshot whose base is HEAD itself; otherwise one line saying why the binary cannot
        see this candidate.
    """
    if head is None:
        return "HEAD is unborn: gentle-ai review assess needs a commit to compare"
    if cand.head != head:
        return (
            f"gentle-ai review assess judges HEAD ({head[:12]}); this candidate stands on "
            f"commit {(cand.head or '-')[:12]}"
        )
    if cand.tree == head_tree:
        if cand.base.commit is None:
            return (
                f"the base is the empty tree ({cand.base.note}); gentle-ai review assess "
                f"compares against a base commit"
            )
        return ["--base-ref", cand.base.commit, "--committed-only"]
    if cand.projection.value == "snapshot" and cand.base.commit == head:
        return []
    return (
        f"gentle-ai review assess sees HEAD against a base (--committed-only) or the "
        f"uncommitted changes against HEAD; this {cand.projection.value} candidate is neither "
        f"(rerun with --committed-only, or --base-ref HEAD for the uncommitted changes)"
    )


def build_argv(
    binary: str,
    root: str,
    selector: Sequence[str],
    escalation: tuple[int, str] | None,
) -> tuple[str, ...]:
    """The full command: ``<binary> review assess --cwd <root> [selector] [escalation]
    --json``; ``escalation`` is (item number, reason)."""
    argv = [binary, "review", "assess", "--cwd", root, *selector]
    if escalation is not None:
        argv += ["--escalate-item", str(escalation[0]), "--escalate-reason", escalation[1]]
    argv.append("--json")
    return tuple(argv)


# -- running it --------------------------------------------------------------------------


def find_binary(env: Mapping[str, str]) -> str | None:
    """The ``gentle-ai`` executable on ``env``'s PATH, or None."""
    return shutil.which(GENTLE_AI, path=env.get("PATH", os.defpath))


def _failure_detail(stdout: bytes, stderr: bytes) -> str:
    """The binary's own message, redacted (:func:`~gentle_hooks.native.message.relay`):
    stderr, else the failure envelope's reason, else stdout."""
    err = stderr.decode("utf-8", "replace").strip()
    if err:
        return relay(err)
    try:
        data = json.loads(stdout.decode("utf-8"))
        reasons = data.get("reasons") if isinstance(data, dict) else None
        for reason in reasons if isinstance(reasons, list) else ():
            if isinstance(reason, dict) and isinstance(reason.get("detail"), str):
                return relay(f"{reason.get('code')}: {reason['detail']}")
    except (UnicodeDecodeError, ValueError, RecursionError):
        pass  # not an envelope (a huge number, deep nesting): what it printed is relayed
    return relay(stdout.decode("utf-8", "replace"))


def _collect(proc: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, bytes] | str:
    """``proc``'s standard output and error, read to their end and the process waited for,
    within ``timeout`` seconds in all and :data:`OUTPUT_LIMIT` bytes each.

    Returns:
        (stdout, stderr); or :data:`_TIMEOUT` when the time ran out, or the name of the
        stream (``stdout``/``stderr``) that passed the limit. The caller kills the group.
    """
    import selectors
    import time

    deadline = time.monotonic() + timeout
    assert proc.stdout is not None and proc.stderr is not None
    names = {proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"}
    chunks: dict[int, list[bytes]] = {fd: [] for fd in names}
    sizes = dict.fromkeys(names, 0)
    with selectors.DefaultSelector() as sel:
        for fd in names:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return _TIMEOUT
            for key, _ in sel.select(left):
                fd = int(key.fd)
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    sel.unregister(fd)
                    continue
                sizes[fd] += len(chunk)
                if sizes[fd] > OUTPUT_LIMIT:
                    return names[fd]
                chunks[fd].append(chunk)
    try:
        proc.wait(timeout=max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:  # the pipes closed, the process lives on
        return _TIMEOUT
    out, err = (b"".join(chunks[fd]) for fd in names)
    return out, err


def run_binary(
    argv: Sequence[str], cwd: str, timeout: float, env: Mapping[str, str]
) -> ExternalAnswer:
    """Run the binary once, bounded by ``timeout`` seconds, and decode its answer.

    The child gets ``env`` without the hook's repository-binding variables, no stdin (a
    pre-push hook's stdin holds the refs), and its own process group, killed whole at the
    timeout so a grandchild cannot hold the pipes open.

    Returns:
        The decoded envelope, or ``native=None`` and one line keeping the binary's message.
    """
    shown = " ".join(argv[1:3])
    try:
        proc = start_session(argv, cwd, scrubbed_env(env))
    except OSError as exc:
        why = relay(str(exc.strerror or exc))
        return ExternalAnswer(None, f"cannot run {GENTLE_AI}: {why}", tuple(argv))
    output = _collect(proc, timeout)
    if isinstance(output, str):
        kill_session(proc)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        if output == _TIMEOUT:
            why = (
                f"did not answer within {timeout:g}s "
                f"(GENTLE_HOOKS_NATIVE_TIMEOUT / native.timeout); killed"
            )
        else:
            why = f"printed more than {OUTPUT_LIMIT} bytes on {output}; killed"
        return ExternalAnswer(None, f"gentle-ai {shown} {why}", tuple(argv))
    stdout, stderr = output
    if proc.returncode != 0:
        detail = _failure_detail(stdout, stderr)
        if _NO_VERB.search(detail):
            why = f"this gentle-ai has no '{shown}' verb (upgrade gentle-ai): {detail}"
        else:
            why = f"gentle-ai {shown} failed (exit {proc.returncode}): {detail}"
        return ExternalAnswer(None, why, tuple(argv))
    from gentle_hooks.native.decode import DecodeError, decode_assessment

    try:
        return ExternalAnswer(decode_assessment(stdout), None, tuple(argv))
    except DecodeError as exc:
        text = (stdout + b"\n" + stderr).decode("utf-8", "replace")
        if _NO_VERB.search(text):
            msg = f"this gentle-ai has no '{shown}' verb (upgrade gentle-ai): {relay(text)}"
        else:
            msg = f"gentle-ai {shown} {exc}"
        return ExternalAnswer(None, msg, tuple(argv))


def assess_gentle_ai(
    root: str,
    cand: Candidate,
    head: str | None,
    head_tree: str | None,
    *,
    timeout: float,
    escalation: tuple[int, str] | None,
    env: Mapping[str, str],
) -> ExternalAnswer:
    """Assess ``cand`` with the ``gentle-ai`` binary (SPEC §4 ``gentle-ai``).

    Args:
        root: the work tree root (``--cwd``); cand: the candidate.
        head / head_tree: HEAD's commit and tree now (None when unborn).
        timeout: seconds (config ``native.timeout``, env ``GENTLE_HOOKS_NATIVE_TIMEOUT``).
        escalation: a requested escalation to pass on, as (item number, reason), or None.
        env: the process environment (PATH; scrubbed for the child).

    With an escalation the binary is asked twice, each run bounded by ``timeout``: without
    it, for the native tier (``nativeRisk``: the tier before escalation, seed 000), then
    with it, for the envelope relayed (its ``risk`` raised); the answer is the second
    envelope with ``unescalated`` the first one's ``risk``. When only the escalated call
    fails, the first envelope stands (the native tier is known; the plan escalates anyway)
    with a ``note`` saying the escalated call failed and why.

    Returns:
        The answer. Never raises for the binary's behaviour: every failure is ``native=None``
        with one line naming it (native risk ``unassessable``, which informs only).
    """
    binary = find_binary(env)
    if binary is None:
        return ExternalAnswer(
            None,
            f"{GENTLE_AI} not found on PATH; install gentle-ai, or set native.provider = "
            f'"builtin" (or "auto")',
        )
    selector = selector_args(cand, head, head_tree)
    if isinstance(selector, str):
        return ExternalAnswer(None, selector)
    native = run_binary(build_argv(binary, root, selector, None), root, timeout, env)
    if escalation is None or native.native is None:
        return native
    # The escalated envelope says only the raised tier; the tier before the escalation is
    # the binary's own answer without it (nativeRisk, seed 000), whatever reasons it adds.
    raised = run_binary(build_argv(binary, root, selector, escalation), root, timeout, env)
    if raised.native is None:
        note = (
            f"the escalated call (--escalate-item) failed, the envelope is the one without "
            f"it: {raised.error}"
        )
        return replace(native, note=note)
    return ExternalAnswer(replace(raised.native, unescalated=native.native.risk), None, raised.argv)
