"""Hook entry points: ``gentle-hook hook <name> [--warn] [--script PATH] [ARGS...]``.

Room ``hooks``, the pass path. :data:`HOOKS` is the dispatcher, one row per hook type:
the arguments git passes, whether it reads standard input, the light probe that decides
"nothing here can apply" with the standard library, and the handler that judges or
records. Each room owns its probe (:mod:`gentle_hooks.git.probe`,
:mod:`gentle_hooks.ledger.probe`, :mod:`gentle_hooks.config.probe`); handlers are imported
only when the probe finds work, so a human's ordinary commit imports no click, pydantic,
``subprocess``, ``dataclasses``, ``typing`` or ``tomllib`` and spawns at most two git
processes.

Chaining: when ``install`` moved a foreign hook aside to ``<script>.gentle-legacy``, it runs
first with the same arguments and standard input; a gating hook fails when it fails.
"""

from __future__ import annotations

import gc
import os
import sys

from gentle_hooks.errors import EXIT_OK, GentleError, UsageError, quoted
from gentle_hooks.hooks.call import STDIN_LIMIT, HookCall

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence

    Probe = Callable[[HookCall, Mapping[str, str]], bool]
    Handler = Callable[[HookCall, Mapping[str, str]], int]

LEGACY_SUFFIX = ".gentle-legacy"

#: Allocations between two young-generation collections in a hook (Python's default: 700).
GC_THRESHOLD = 50_000


class HookRow:
    """One row of the dispatcher.

    Attributes:
        name: the hook type; gates: a gate (fails closed; a failing chained hook fails it)
            or a recorder (never blocks); nargs: (fewest, most) arguments git or the
            framework passes; reads_stdin: git writes to its standard input;
        probe: True when there may be something to do (None: always); handler: does it.
    """

    __slots__ = ("gates", "handler", "name", "nargs", "probe", "reads_stdin")

    def __init__(
        self,
        name: str,
        gates: bool,
        nargs: tuple[int, int],
        reads_stdin: bool,
        probe: Probe | None,
        handler: Handler,
    ) -> None:
        self.name, self.gates, self.nargs, self.reads_stdin = name, gates, nargs, reads_stdin
        self.probe, self.handler = probe, handler


# -- probes: standard library only -------------------------------------------------------


def _commit_has_work(call: HookCall, env: Mapping[str, str]) -> bool:
    """The commit gate applies, or may: an agent runtime in the environment, a background
    call's window or a running shell call kept in the repository (the gate moves it), a
    staged path a writer wrote, a staged blob an ended writer entry wrote or a staged path of
    an expired or discarded one (whether the change carries the writer's content is the
    gate's to decide), or ``gate.applies_to = all``."""
    from gentle_hooks.git.probe import commit_paths, config_value, locate, staged_blobs
    from gentle_hooks.ledger.probe import (
        ended_blobs_staged,
        ended_paths_in,
        moves_waiting,
        writer_paths_touched,
    )
    from gentle_hooks.policy.delegation import runtime_evidence

    if runtime_evidence(env) is not None:
        return True
    where = locate(env)
    if where is None:
        raise UsageError("hook: not inside a git repository")
    if moves_waiting(where.common_dir):  # the gate moves them before it judges
        return True
    if writer_paths_touched(where.common_dir, lambda: commit_paths(env)):
        return True
    if ended_blobs_staged(where.common_dir, lambda: staged_blobs(env)):
        return True
    if ended_paths_in(where.common_dir, lambda: commit_paths(env)):
        return True
    from gentle_hooks.config.probe import applies_to_all

    return applies_to_all(where.root, env, lambda key: config_value(key, env))


def _message_file(call: HookCall) -> str | None:
    """The text of the message file a commit-msg or prepare-commit-msg hook names (its first
    argument, which the caller checked is there); None when it cannot be read."""
    from gentle_hooks.bounded import InputFileError
    from gentle_hooks.hooks.call import read_message

    try:
        return read_message(call.args[0])
    except InputFileError:
        return None


def _message_may_be_delegated(call: HookCall, env: Mapping[str, str]) -> bool:
    """False when the commit-msg hook's message file plainly shows no AI attribution; True
    when it does, or when it cannot be read (the gate then says why)."""
    if not call.args:
        return True
    message = _message_file(call)
    if message is None:
        return True
    from gentle_hooks.policy.delegation import message_evidence, strip_comments

    return message_evidence(strip_comments(message)) is not None


def _commit_msg_has_work(call: HookCall, env: Mapping[str, str]) -> bool:
    """The commit-msg gate applies (:func:`_message_may_be_delegated`), or the commit may
    hold writer content whose ``Gentle-Writer`` trailer the editor took out (as
    prepare-commit-msg's probe: a live writer entry, or a staged blob of an ended one)."""
    if _message_may_be_delegated(call, env):
        return True
    from gentle_hooks.git.probe import commit_paths, locate, staged_blobs
    from gentle_hooks.ledger.probe import (
        ended_blobs_staged,
        ended_paths_in,
        ledger_exists,
        writer_paths_touched,
    )

    where = locate(env)
    if where is None or where.root is None or not ledger_exists(where.common_dir):
        return False
    return (
        writer_paths_touched(where.common_dir, lambda: commit_paths(env))
        or ended_blobs_staged(where.common_dir, lambda: staged_blobs(env))
        or ended_paths_in(where.common_dir, lambda: commit_paths(env))
        or _amends_ended_blob(where.common_dir, env)
    )


def _amends_ended_blob(common_dir: str, env: Mapping[str, str]) -> bool:
    """Whether the commit being made may amend ``HEAD`` (:func:`~gentle_hooks.git.probe.
    amend_flag` not False) and ``HEAD``'s change holds an ended entry's writer blob: an
    amend of a pushed writer commit (its entries settled) keeps its ``Gentle-Writer``
    trailer, so the trailer rule decides."""
    from gentle_hooks.git.probe import amend_flag, head_blobs
    from gentle_hooks.ledger.probe import ended_blobs_staged

    return amend_flag() is not False and ended_blobs_staged(common_dir, lambda: head_blobs(env))


def _recorder_has_work(call: HookCall, env: Mapping[str, str]) -> bool:
    """False when a recorder has nothing to record: no work tree, no ledger, or no path of
    the commit (prepare-commit-msg: staged, and ``HEAD``'s own when amending, or a staged
    blob of an ended writer entry; post-commit: ``HEAD``'s, or a blob of ``HEAD``'s
    change that is a discarded entry's, or a path a person claimed writer content at: its
    note names the discard) that a writer wrote, and
    (prepare-commit-msg, with no ledger too) no agent runtime in the environment and no
    ``Gentle-Writer`` trailer in the message it brings along. The recorders decide from
    contents; this answers first, so a human's commit never imports them."""
    from gentle_hooks.git.probe import (
        commit_paths,
        head_blobs,
        head_message,
        head_paths,
        locate,
        staged_blobs,
    )
    from gentle_hooks.ledger.probe import (
        claimed_paths_in,
        discarded_blob_in,
        ended_blobs_staged,
        ended_paths_in,
        escalation_waiting,
        ledger_exists,
        writer_paths_touched,
    )

    where = locate(env)
    if where is None or where.root is None:
        return False
    if call.name == "prepare-commit-msg":  # an agent makes it: its message says so, ledger or not
        from gentle_hooks.policy.delegation import runtime_evidence

        if runtime_evidence(env) is not None:
            return True
    if not ledger_exists(where.common_dir):
        return False
    if call.name == "prepare-commit-msg":  # an amend of a writer's commit keeps its trailer
        if writer_paths_touched(where.common_dir, lambda: commit_paths(env)):
            return True
        if ended_blobs_staged(where.common_dir, lambda: staged_blobs(env)):
            return True
        if ended_paths_in(where.common_dir, lambda: commit_paths(env)):
            return True
        if _amends_ended_blob(where.common_dir, env):
            return True
        return _brings_writer_trailer(call)
    if call.name == "post-commit":
        return (
            writer_paths_touched(where.common_dir, lambda: head_paths(env))
            or escalation_waiting(where.common_dir, where.root)
            or _shows_agent(head_message(env))
            or discarded_blob_in(where.common_dir, lambda: head_blobs(env))
            or ended_paths_in(where.common_dir, lambda: head_paths(env))
            or claimed_paths_in(where.common_dir, lambda: head_paths(env))
        )
    return True


def _brings_writer_trailer(call: HookCall) -> bool:
    """Whether prepare-commit-msg's message file holds a ``Gentle-Writer`` trailer it brought
    along (a rebase's pick, ``-C``/``-c``): the trailer rule decides whether it stays; True
    too when the file cannot be read (the recorder then says why)."""
    if not call.args:
        return False
    message = _message_file(call)
    if message is None:
        return True
    import re

    from gentle_hooks.policy.markers import MARKERS

    ours = next(m.pattern for m in MARKERS if m.id == "T-gentle-writer")
    return re.search(ours, message) is not None


def _shows_agent(commit: str) -> bool:
    """Whether a raw commit object shows an agent (its message, author or committer):
    post-commit then records it and writes its note, as for writer work."""
    from gentle_hooks.policy.delegation import message_evidence

    head, _, message = commit.partition("\n\n")
    who = {
        k: v.rsplit(" ", 2)[0]
        for k, _, v in (line.partition(" ") for line in head.split("\n"))
        if k in ("author", "committer")
    }
    return message_evidence(message, who.get("author", ""), who.get("committer", "")) is not None


# -- handlers: imported only when there is something to judge or record ------------------


def _commit_gate(call: HookCall, env: Mapping[str, str]) -> int:
    from gentle_hooks.hooks.commit import commit_gate
    from gentle_hooks.policy.delegation import runtime_evidence

    return commit_gate(call, env, runtime_evidence(env))


def _commit_msg_gate(call: HookCall, env: Mapping[str, str]) -> int:
    from gentle_hooks.hooks.commit_msg import commit_msg_gate
    from gentle_hooks.hooks.trailers import restore_trailers

    code = commit_msg_gate(call, env)
    # an allowed commit's message names its writers, whatever the editor took out
    return restore_trailers(call, env) if code == EXIT_OK else code


def _push_gate(call: HookCall, env: Mapping[str, str]) -> int:
    from gentle_hooks.hooks.push_early import start_walks

    early = start_walks(call, env)  # git walks the pushed commits while the gate imports
    try:
        from gentle_hooks.hooks.push_gate import push_gate

        return push_gate(call, env, early)
    finally:
        if early is not None:
            early.close()


def _receive_gate(call: HookCall, env: Mapping[str, str]) -> int:
    from gentle_hooks.hooks.server import receive_gate

    return receive_gate(call, env)


def _record(call: HookCall, env: Mapping[str, str]) -> int:
    from gentle_hooks.hooks import recorders

    return recorders.run(call, env)


#: The dispatcher: every hook gentle-hooks answers, in the order ``--help`` lists them.
HOOKS: dict[str, HookRow] = {
    row.name: row
    for row in (
        HookRow("pre-commit", True, (0, 0), False, _commit_has_work, _commit_gate),
        HookRow("pre-merge-commit", True, (0, 0), False, _commit_has_work, _commit_gate),
        HookRow("commit-msg", True, (0, 1), False, _commit_msg_has_work, _commit_msg_gate),
        HookRow("pre-push", True, (0, 2), True, None, _push_gate),
        HookRow("pre-receive", True, (0, 0), True, None, _receive_gate),
        HookRow("prepare-commit-msg", False, (0, 3), False, _recorder_has_work, _record),
        HookRow("post-commit", False, (0, 0), False, _recorder_has_work, _record),
        HookRow("post-rewrite", False, (0, 1), True, _recorder_has_work, _record),
    )
}
GATES = tuple(name for name, row in HOOKS.items() if row.gates)
RECORDERS = tuple(name for name, row in HOOKS.items() if not row.gates)


def parse_call(argv: Sequence[str], stdin: bytes) -> HookCall:
    """Parse ``<name> [--warn] [--script PATH] [ARGS...]``.

    Raises:
        UsageError: a missing or unknown hook name, or more arguments than git passes it.
    """
    names = ", ".join(HOOKS)
    if not argv:
        raise UsageError("hook: name a hook: " + names)
    name, rest = argv[0], list(argv[1:])
    row = HOOKS.get(name)
    if row is None:
        raise UsageError(f"hook: unknown hook {quoted(name)}: use one of {names}")
    warn = False
    script = None
    args: list[str] = []
    i = 0
    while i < len(rest):
        if rest[i] == "--warn":
            warn = True
        elif rest[i] == "--script" and i + 1 < len(rest):
            script = rest[i + 1]
            i += 1
        else:
            args.append(rest[i])
        i += 1
    if len(args) > row.nargs[1]:
        raise UsageError(
            f"hook {name}: git passes it at most {row.nargs[1]} argument(s), got {len(args)}"
        )
    return HookCall(name, tuple(args), stdin, warn, script)


def run_legacy(call: HookCall) -> int:
    """Run the chained hook ``<script>.gentle-legacy`` when there is one; its exit code."""
    if not call.script:
        return EXIT_OK
    legacy = call.script + LEGACY_SUFFIX
    if not os.access(legacy, os.X_OK):
        return EXIT_OK
    import subprocess

    return subprocess.run([legacy, *call.args], input=call.stdin, check=False).returncode


#: How long a hook waits for git to close its standard input.
STDIN_SECONDS = 30.0


def _stdin_chunks(name: str) -> Iterator[bytes]:
    """Standard input in chunks to its end, within :data:`STDIN_SECONDS` in all (off POSIX
    or without a descriptor, unbounded in time: the reader bounds the size).

    Raises:
        UsageError: the input stayed open longer than :data:`STDIN_SECONDS`.
    """
    import select
    import time

    try:
        fd = sys.stdin.buffer.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd < 0 or os.name != "posix":
        yield from iter(lambda: sys.stdin.buffer.read(1 << 16), b"")
        return
    deadline = time.monotonic() + STDIN_SECONDS
    while True:
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        if not ready:
            raise UsageError(f"{name} input stayed open {STDIN_SECONDS:.0f}s; git closes it")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        yield chunk


def _read_head(chunks: Iterator[bytes]) -> bytes:
    """``chunks`` up to the first past ``STDIN_LIMIT`` bytes (all of them when fewer); the
    rest stays in ``chunks``."""
    got: list[bytes] = []
    size = 0
    for chunk in chunks:
        got.append(chunk)
        size += len(chunk)
        if size > STDIN_LIMIT:
            break
    return b"".join(got)


def main(argv: Sequence[str]) -> int:
    """Run one hook; return its exit code (0 pass, 1 blocked, 2 cannot decide).

    Raises:
        GentleError: bad input or an unreadable store; :mod:`gentle_hooks.main` prints it
            and exits 2, which a gating hook turns into a failed commit or push.
    """
    # A hook is one short process over bounded input: the cyclic collector's passes over
    # the gate's freshly imported modules cost ~3% of a delegated commit or a push and free
    # a few hundred objects. Collected far less often, never turned off.
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    row = HOOKS.get(argv[0]) if argv else None
    stdin = b""
    chunks: Iterator[bytes] = iter(())
    if row is not None and row.reads_stdin and not sys.stdin.isatty():
        # bounded in size and time: git sends one short line per ref and closes the pipe;
        # an endless stream ends here at once, one held open ends after STDIN_SECONDS
        chunks = _stdin_chunks(argv[0])
        stdin = _read_head(chunks)
        if len(stdin) > STDIN_LIMIT and argv[0] != "post-rewrite":
            raise UsageError(
                f"{argv[0]} input is larger than {STDIN_LIMIT} bytes; push fewer refs at once"
            )
    kept: GentleError | None = None
    if len(stdin) > STDIN_LIMIT:  # post-rewrite: the whole lines within it, the rest kept
        cut = stdin.rfind(b"\n", 0, STDIN_LIMIT) + 1
        call = parse_call(argv, stdin[:cut])
        from gentle_hooks.hooks.rewrites import keep_input_rest

        kept = keep_input_rest(call, stdin[cut:], chunks, os.environ)
    else:
        call = parse_call(argv, stdin)
    try:
        code = _handle(call)
    except GentleError as exc:
        if kept is None:
            raise
        raise UsageError(f"{exc.message}; {kept.message}", commands=exc.commands) from None
    if kept is not None:
        raise kept
    return code


def _handle(call: HookCall) -> int:
    """Run the chained hook, then the row's probe and handler, for ``call``."""
    row = HOOKS[call.name]
    legacy = chained_exit(os.environ) if row.gates else None
    legacy = run_legacy(call) if legacy is None else legacy
    if legacy != EXIT_OK and row.gates:
        _chained_failed(call.name, legacy)
        return legacy
    env = os.environ
    from gentle_hooks.git.probe import check_index

    check_index(env)  # before any git reads the index git hands the hook
    if row.probe is not None and not row.probe(call, env):
        _say_allowed(call.name, env)
        return EXIT_OK  # nothing here can apply: an ordinary commit
    return row.handler(call, env)


def _say_allowed(hook: str, env: Mapping[str, str]) -> None:
    """With ``GENTLE_HOOKS_FORMAT=json``, the ``allowed`` object of a gate that speaks for
    every commit (:data:`~gentle_hooks.policy.decision_form.SPEAKS_FOR_EVERY_COMMIT`) whose
    probe found nothing to judge: the line the installed hook's fast path prints then."""
    from gentle_hooks.policy.decision_form import ENV, SPEAKS_FOR_EVERY_COMMIT

    if hook not in SPEAKS_FOR_EVERY_COMMIT or not env.get(ENV):
        return
    from gentle_hooks.hooks.decision import output_format, print_decision
    from gentle_hooks.policy.decision_form import allowed_object

    if output_format(env)[0] == "json":
        print_decision(allowed_object(hook))


def chained_exit(env: Mapping[str, str]) -> int | None:
    """The exit code of the chained hook a gate's fast path ran and saw fail
    (:data:`~gentle_hooks.services.fastpath.CHAINED_EXIT`), or None when it is not set; a
    value that is not a failing exit code fails the gate (1)."""
    raw = env.get("GENTLE_HOOKS_CHAINED_EXIT")
    if raw is None:
        return None
    return int(raw) if raw.isdigit() and 0 < int(raw) < 256 else 1


def _chained_failed(hook: str, code: int) -> None:
    """Say that the hook chained before gate ``hook`` failed with ``code`` (the gate fails
    with it): one line, and the gate's decision object as for any gate that could not
    judge (:func:`~gentle_hooks.hooks.decision.error_object`, ``run`` empty: the chained
    hook's own output says why), alone with ``GENTLE_HOOKS_FORMAT=json``."""
    from gentle_hooks.hooks.decision import error_object, output_format, print_decision

    line = f"gentle-hooks: the chained {hook} hook failed (exit {code})"
    fmt = output_format(os.environ)[0]
    if fmt != "json":
        print(line, file=sys.stderr)
    if fmt != "text":
        print_decision(error_object(hook, code, line, ()))
