"""Hook entry points: ``gentle-hook hook <name> [--warn] [--script PATH] [ARGS...]``.

Layer: top (beside :mod:`gentle_hooks.main`, which dispatches here before importing click).
This module decides the pass path with the standard library only: a human's ordinary
commit costs one or two git processes and imports no click, pydantic or pygit2. Anything
to judge is handed to :mod:`gentle_hooks.gate`; records to :mod:`gentle_hooks.recorders`.

Chaining: when ``install`` moved a foreign hook aside to ``<script>.gentle-legacy``, it runs
first with the same arguments and standard input; a gating hook fails when it fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gentle_hooks.errors import EXIT_OK, UsageError

GATES = ("pre-commit", "pre-merge-commit", "commit-msg", "pre-push", "pre-receive")
RECORDERS = ("prepare-commit-msg", "post-commit", "post-rewrite")
READS_STDIN = ("pre-push", "post-rewrite", "pre-receive")
LEGACY_SUFFIX = ".gentle-legacy"


@dataclass(frozen=True)
class HookCall:
    """One hook invocation.

    Attributes:
        name: the hook type; args: git's arguments to the hook; stdin: git's standard input
        (bytes, empty for hooks that get none); warn: report blocks without failing;
        script: the installed script's path (for chaining), or None.
    """

    name: str
    args: tuple[str, ...]
    stdin: bytes
    warn: bool
    script: str | None


@dataclass(frozen=True)
class Where:
    """Where the hook runs: work tree root (None when bare) and common git dir."""

    root: str | None
    common_dir: str


def parse_call(argv: Sequence[str], stdin: bytes) -> HookCall:
    """Parse ``<name> [--warn] [--script PATH] [ARGS...]``.

    Raises:
        UsageError: a missing or unknown hook name.
    """
    if not argv:
        raise UsageError("hook: name a hook: " + ", ".join((*GATES, *RECORDERS)))
    name, rest = argv[0], list(argv[1:])
    if name not in GATES and name not in RECORDERS:
        raise UsageError(
            f"hook: unknown hook {name!r}: use one of " + ", ".join((*GATES, *RECORDERS))
        )
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
    return HookCall(name, tuple(args), stdin, warn, script)


def run_legacy(call: HookCall) -> int:
    """Run the chained hook ``<script>.gentle-legacy`` when there is one; its exit code."""
    if not call.script:
        return EXIT_OK
    legacy = call.script + LEGACY_SUFFIX
    if not os.access(legacy, os.X_OK):
        return EXIT_OK
    return subprocess.run([legacy, *call.args], input=call.stdin, check=False).returncode


def locate(env: Mapping[str, str]) -> Where | None:
    """Work tree root and common git dir in one git process (honours the hook's env)."""
    proc = subprocess.run(
        [
            "git",
            "rev-parse",
            "--path-format=absolute",
            "--git-common-dir",
            "--is-bare-repository",
            "--show-toplevel",
        ],
        capture_output=True,
        env=dict(env),
        check=False,
    )
    lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or lines[1] not in ("true", "false"):
        return None
    root = lines[2] if lines[1] == "false" and len(lines) > 2 and lines[2] else None
    return Where(root, lines[0])


def has_pending_work(where: Where) -> bool:
    """True when the ledger holds pending writer mutations for this work tree root.

    No ledger file means no records: nothing is opened or created then.

    Raises:
        StoreError: the ledger exists but cannot be read (the gate fails closed).
    """
    from gentle_hooks.ledger import Ledger, ledger_path

    path = ledger_path(where.common_dir)
    if where.root is None or not os.path.exists(path):
        return False
    led = Ledger.open_existing(path)
    if led is None:
        return False
    try:
        return bool(led.pending_mutations(where.root))
    finally:
        led.close()


def applies_to_all(where: Where, env: Mapping[str, str]) -> bool:
    """``gate.applies_to == "all"`` from the environment, git config or the config file.

    The pass path reads only this key (the whole file is validated on every other path).

    Raises:
        ConfigError: the deciding value is neither ``delegated`` nor ``all``.
    """
    from gentle_hooks.errors import ConfigError

    value = env.get("GENTLE_HOOKS_APPLIES_TO")
    where_from = "GENTLE_HOOKS_APPLIES_TO"
    if not value:
        proc = subprocess.run(
            ["git", "config", "--get", "gentle.appliesTo"],
            capture_output=True,
            env=dict(env),
            check=False,
        )
        value = proc.stdout.decode().strip() if proc.returncode == 0 else None
        where_from = "git config gentle.appliesTo"
    if not value and where.root is not None:
        from gentle_hooks.config import raw_gate_value

        value, where_from = raw_gate_value(where.root, "applies_to")
    if not value:
        return False
    if value not in ("delegated", "all"):
        raise ConfigError(f"{where_from}: {value!r} is not one of delegated, all")
    return value == "all"


def main(argv: Sequence[str]) -> int:
    """Run one hook; return its exit code (0 pass, 1 blocked, 2 cannot decide).

    Raises:
        GentleError: bad input or an unreadable store; :mod:`gentle_hooks.main` prints it
            and exits 2, which a gating hook turns into a failed commit or push.
    """
    name = argv[0] if argv else ""
    stdin = b""
    if name in READS_STDIN and not sys.stdin.isatty():
        stdin = sys.stdin.buffer.read()
    call = parse_call(argv, stdin)
    legacy = run_legacy(call)
    if legacy != EXIT_OK and call.name in GATES:
        print(f"gentle-hooks: the chained {call.name} hook failed (exit {legacy})", file=sys.stderr)
        return legacy
    env = os.environ
    if call.name in ("pre-commit", "pre-merge-commit"):
        from gentle_hooks.delegation import runtime_evidence

        runtime = runtime_evidence(env)
        where = locate(env)
        if where is None:
            raise UsageError("hook: not inside a git repository")
        if runtime is None and not has_pending_work(where) and not applies_to_all(where, env):
            return EXIT_OK  # an ordinary commit: nothing to judge
        from gentle_hooks.gate import commit_gate

        return commit_gate(call, env, runtime)
    if call.name == "commit-msg":
        from gentle_hooks.gate import commit_msg_gate

        return commit_msg_gate(call, env)
    if call.name == "pre-push":
        from gentle_hooks.gate import push_gate

        return push_gate(call, env)
    if call.name == "pre-receive":
        from gentle_hooks.gate import receive_gate

        return receive_gate(call, env)
    from gentle_hooks import recorders

    return recorders.run(call, env)
