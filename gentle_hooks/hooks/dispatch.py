"""Hook entry points: ``gentle-hook hook <name> [--warn] [--script PATH] [ARGS...]``.

Layer: top (beside :mod:`gentle_hooks.main`, which dispatches here before importing click).
This module decides the pass path with the lightest standard library only — no click,
pydantic or pygit2, and not even ``subprocess``, ``dataclasses``, ``typing`` or
``tomllib`` (each costs more than starting Python): a human's ordinary commit spawns at
most two git processes. Anything to judge goes to :mod:`gentle_hooks.hooks.gates`; records to
:mod:`gentle_hooks.hooks.recorders`. The commit-msg gate and the recorders are asked first here
(an AI trailer in the message; pending work in the ledger), so the other hooks of a
human's commit do not import them either.

Chaining: when ``install`` moved a foreign hook aside to ``<script>.gentle-legacy``, it runs
first with the same arguments and standard input; a gating hook fails when it fails.
"""

from __future__ import annotations

import os
import sys

from gentle_hooks.errors import EXIT_OK, UsageError
from gentle_hooks.ledger.location import ledger_path

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

GATES = ("pre-commit", "pre-merge-commit", "commit-msg", "pre-push", "pre-receive")
RECORDERS = ("prepare-commit-msg", "post-commit", "post-rewrite")
READS_STDIN = ("pre-push", "post-rewrite", "pre-receive")
LEGACY_SUFFIX = ".gentle-legacy"


class HookCall:
    """One hook invocation.

    Attributes:
        name: the hook type; args: git's arguments to the hook; stdin: git's standard input
        (bytes, empty for hooks that get none); warn: report blocks without failing;
        script: the installed script's path (for chaining), or None.
    """

    __slots__ = ("args", "name", "script", "stdin", "warn")

    def __init__(
        self, name: str, args: tuple[str, ...], stdin: bytes, warn: bool, script: str | None
    ) -> None:
        self.name, self.args, self.stdin, self.warn, self.script = name, args, stdin, warn, script


class Where:
    """Where the hook runs: work tree root (None when bare) and common git dir."""

    __slots__ = ("common_dir", "root")

    def __init__(self, root: str | None, common_dir: str) -> None:
        self.root, self.common_dir = root, common_dir


def capture(argv: Sequence[str], env: Mapping[str, str]) -> tuple[int, bytes]:
    """Run a command with stdout captured, stdin and stderr on /dev/null.

    ``os.posix_spawnp`` and a pipe: the pass path does not import ``subprocess``.

    Returns:
        (exit code, stdout bytes).

    Raises:
        UsageError: the program is not on PATH.
    """
    read_end, write_end = os.pipe()
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        pid = os.posix_spawnp(
            argv[0],
            list(argv),
            dict(env),
            file_actions=[
                (os.POSIX_SPAWN_DUP2, devnull, 0),
                (os.POSIX_SPAWN_DUP2, write_end, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2),
                (os.POSIX_SPAWN_CLOSE, read_end),
            ],
        )
    except FileNotFoundError:
        os.close(read_end)
        raise UsageError(f"{argv[0]} is not on PATH") from None
    finally:
        os.close(write_end)
        os.close(devnull)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks)


def parse_call(argv: Sequence[str], stdin: bytes) -> HookCall:
    """Parse ``<name> [--warn] [--script PATH] [ARGS...]``.

    Raises:
        UsageError: a missing or unknown hook name.
    """
    names = ", ".join((*GATES, *RECORDERS))
    if not argv:
        raise UsageError("hook: name a hook: " + names)
    name, rest = argv[0], list(argv[1:])
    if name not in GATES and name not in RECORDERS:
        raise UsageError(f"hook: unknown hook {name!r}: use one of {names}")
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
    import subprocess

    return subprocess.run([legacy, *call.args], input=call.stdin, check=False).returncode


def locate(env: Mapping[str, str]) -> Where | None:
    """Work tree root and common git dir in one git process (honours the hook's env)."""
    _, out = capture(
        [
            "git",
            "rev-parse",
            "--path-format=absolute",
            "--git-common-dir",
            "--is-bare-repository",
            "--show-toplevel",
        ],
        env,
    )
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or lines[1] not in ("true", "false"):
        return None
    root = lines[2] if lines[1] == "false" and len(lines) > 2 and lines[2] else None
    return Where(root, lines[0])


def has_pending_work(where: Where) -> bool:
    """True when the ledger holds pending writer mutations for this work tree root.

    No ledger file means no records: nothing is opened or created then. A ledger that
    exists is checked (schema version, ``quick_check``) and read with one query; anything
    unexpected goes through the store, which raises its one-line error (fail closed).

    Raises:
        StoreError: the ledger exists but is damaged, newer, or unreadable.
    """
    path = ledger_path(where.common_dir)
    if where.root is None or not os.path.lexists(path):
        return False
    found = _pending_rows(path, where.root, ("pending_mutation",))
    if found is None:
        from gentle_hooks.ledger.store import Ledger

        led = Ledger.open_existing(path)  # raises the store's error; migrates an older one
        if led is None:
            return False
        with led:
            return bool(led.pending_mutations(where.root))
    return found


def _pending_rows(path: str, root: str, tables: Sequence[str]) -> bool | None:
    """Whether any of ``tables`` holds an unconsumed row for ``root``: one read-only query
    per table, after the schema version and ``quick_check`` are what this code knows; None
    when the ledger cannot be read this way (the caller asks the store, which explains)."""
    import sqlite3

    from gentle_hooks.ledger.schema import SCHEMA_VERSION

    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            check = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            if version != SCHEMA_VERSION or check != "ok":
                return None
            for table in tables:
                row = conn.execute(
                    f"SELECT 1 FROM {table} WHERE root = ? AND consumed_by IS NULL LIMIT 1",
                    (root,),
                ).fetchone()
                if row is not None:
                    return True
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return None
    return False


def strip_comments(message: str) -> str:
    """A commit message without git's comment lines (those starting with ``#``)."""
    return "\n".join(line for line in message.splitlines() if not line.startswith("#"))


def message_may_be_delegated(call: HookCall) -> bool:
    """False when the commit-msg hook's message file plainly shows no AI attribution; True
    when it does, or when it cannot be read (the gate then reports why)."""
    if not call.args:
        return True
    try:
        with open(call.args[0], encoding="utf-8", errors="replace") as fh:
            message = fh.read()
    except OSError:
        return True
    from gentle_hooks.policy.delegation import message_evidence

    return message_evidence(strip_comments(message)) is not None


def recorder_has_work(call: HookCall, env: Mapping[str, str]) -> bool:
    """False when a recorder hook has nothing to do: no work tree, no ledger, or (for
    prepare-commit-msg and post-commit) no pending writer work or escalation for this root.

    The recorders themselves decide the same way; this answers first with the standard
    library, so a human's commit never imports them.
    """
    where = locate(env)
    if where is None or where.root is None:
        return False
    path = ledger_path(where.common_dir)
    if not os.path.exists(path):
        return False
    if call.name == "prepare-commit-msg":
        return _pending_rows(path, where.root, ("pending_mutation",)) is not False
    if call.name == "post-commit":
        pending = _pending_rows(path, where.root, ("pending_mutation", "escalation"))
        return pending is not False or _last_reflog_is_cherry_pick(where.root, env)
    return True


def _last_reflog_is_cherry_pick(root: str, env: Mapping[str, str]) -> bool:
    """Whether HEAD's newest reflog entry is a cherry-pick (its records must be carried),
    read from the file: no git process on a human's commit."""
    git_dir = env.get("GIT_DIR")
    if not git_dir:
        dotgit = os.path.join(root, ".git")
        if os.path.isfile(dotgit):
            with open(dotgit, encoding="utf-8", errors="replace") as fh:
                text = fh.read().strip()
            git_dir = text[len("gitdir:") :].strip() if text.startswith("gitdir:") else dotgit
        else:
            git_dir = dotgit
    if not os.path.isabs(git_dir):
        git_dir = os.path.join(root, git_dir)
    try:
        with open(os.path.join(git_dir, "logs", "HEAD"), "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 4096))
            last = fh.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    except OSError:
        return False
    return b"\tcherry-pick" in last


def applies_to_all(where: Where, env: Mapping[str, str]) -> bool:
    """``gate.applies_to == "all"`` from the environment, git config or the config file.

    The pass path reads only this key (the whole file is validated on every other path),
    and parses TOML only when a config file mentions gentle-hooks at all.

    Raises:
        ConfigError: the deciding value is neither ``delegated`` nor ``all``.
    """
    value = env.get("GENTLE_HOOKS_APPLIES_TO")
    where_from = "GENTLE_HOOKS_APPLIES_TO"
    if not value:
        rc, out = capture(["git", "config", "--get", "gentle.appliesTo"], env)
        value = out.decode("utf-8", "replace").strip() if rc == 0 else None
        where_from = "git config gentle.appliesTo"
    if not value and where.root is not None and _mentions_us(where.root):
        from gentle_hooks.config.load import raw_gate_value

        value, where_from = raw_gate_value(where.root, "applies_to")
    if not value:
        return False
    if value not in ("delegated", "all"):
        from gentle_hooks.errors import ConfigError

        raise ConfigError(f"{where_from}: {value!r} is not one of delegated, all")
    return value == "all"


def _mentions_us(root: str) -> bool:
    if os.path.exists(os.path.join(root, ".gentle-hooks.toml")):
        return True
    try:
        with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
            return b"gentle-hooks" in fh.read()
    except OSError:
        return False


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
        from gentle_hooks.policy.delegation import runtime_evidence

        runtime = runtime_evidence(env)
        where = locate(env)
        if where is None:
            raise UsageError("hook: not inside a git repository")
        if runtime is None and not has_pending_work(where) and not applies_to_all(where, env):
            return EXIT_OK  # an ordinary commit: nothing to judge
        from gentle_hooks.hooks.gates import commit_gate

        return commit_gate(call, env, runtime)
    if call.name == "commit-msg":
        if not message_may_be_delegated(call):
            return EXIT_OK  # no AI attribution in the message: nothing to judge
        from gentle_hooks.hooks.gates import commit_msg_gate

        return commit_msg_gate(call, env)
    if call.name == "pre-push":
        from gentle_hooks.hooks.gates import push_gate

        return push_gate(call, env)
    if call.name == "pre-receive":
        from gentle_hooks.hooks.gates import receive_gate

        return receive_gate(call, env)
    if not recorder_has_work(call, env):
        return EXIT_OK
    from gentle_hooks.hooks import recorders

    return recorders.run(call, env)
