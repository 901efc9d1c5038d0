"""The hook pass path's reads of git (SPEC §2 "Start-up is part of the product").

Room ``git``, light probe: standard library only, and not even ``subprocess`` (each import
on this path costs more than a git process). A human's ordinary commit asks git where it
is and at most one config value, through :func:`capture` (``os.posix_spawnp`` and a pipe).
"""

from __future__ import annotations

import os

from gentle_hooks.errors import UsageError

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


class Where:
    """Where a hook runs: the work tree root (None when bare) and the common git dir."""

    __slots__ = ("common_dir", "root")

    def __init__(self, root: str | None, common_dir: str) -> None:
        self.root, self.common_dir = root, common_dir


def capture(argv: Sequence[str], env: Mapping[str, str]) -> tuple[int, bytes]:
    """Run a command with stdout captured, stdin and stderr on /dev/null.

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


def locate(env: Mapping[str, str]) -> Where | None:
    """The work tree root and common git dir in one git process (honours the hook's env);
    None outside a repository."""
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


def staged_paths(env: Mapping[str, str]) -> list[str]:
    """The paths the index git hands the hook changes against ``HEAD`` (every staged path
    when ``HEAD`` is unborn): what the commit being made touches.

    Raises:
        UsageError: git is not on PATH.
    """
    rc, out = capture(
        ["git", "diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD", "--"],
        env,
    )
    if rc != 0:  # no HEAD yet: the first commit adds everything staged
        rc, out = capture(["git", "ls-files", "--cached", "-z"], env)
    return [os.fsdecode(p) for p in out.split(b"\0") if p]


def head_paths(env: Mapping[str, str]) -> list[str]:
    """The paths the commit ``HEAD`` changed against its first parent (every path of a
    root commit)."""
    _, out = capture(
        [
            "git",
            "diff-tree",
            "-r",
            "-z",
            "--name-only",
            "--no-commit-id",
            "--no-renames",
            "--root",
            "-m",
            "--first-parent",
            "HEAD",
        ],
        env,
    )
    return [os.fsdecode(p) for p in out.split(b"\0") if p]


def commit_paths(env: Mapping[str, str]) -> list[str]:
    """The paths the commit being made may change: the staged ones, and ``HEAD``'s own
    when it amends ``HEAD`` (or when that cannot be known: the answer is only a probe)."""
    paths = staged_paths(env)
    if amend_flag() is not False:
        paths += head_paths(env)
    return paths


def config_value(key: str, env: Mapping[str, str]) -> str | None:
    """``git config --get key``, stripped; None when unset."""
    rc, out = capture(["git", "config", "--get", key], env)
    return out.decode("utf-8", "replace").strip() if rc == 0 else None


#: Options of ``git commit`` that take the next argument as their value (so a message
#: reading ``--amend`` is not taken for the flag).
_VALUED = {
    b"-m", b"--message", b"-F", b"--file", b"-c", b"-C", b"--reuse-message",
    b"--reedit-message", b"--author", b"--date", b"-t", b"--template", b"--cleanup",
    b"--fixup", b"--squash", b"--trailer", b"--pathspec-from-file",
}  # fmt: skip


def amend_flag() -> bool | None:
    """Whether the ``git commit`` running this hook was given ``--amend``; None when that
    cannot be known (no ``git commit`` process above this one, or no ``/proc``).

    git tells a hook it amends only through prepare-commit-msg's source ``commit`` (and not
    for ``--amend -m``); the process's own arguments say it for every hook. A message that
    reads ``--amend`` is a value, not the flag.
    """
    found = _git_commit_argv()
    if found is None:
        return None
    flags = [a for i, a in enumerate(found) if i == 0 or found[i - 1] not in _VALUED]
    return b"--amend" in flags


def _git_commit_argv() -> list[bytes] | None:
    """The arguments after ``commit`` of the nearest ``git commit`` process above this one
    (through the hook script and the pre-commit framework), or None where ``/proc`` does
    not say."""
    pid = os.getppid()
    for _ in range(6):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            return None
        if argv and os.path.basename(argv[0]) == b"git" and b"commit" in argv:
            return argv[argv.index(b"commit") + 1 :]
        parent = stat.rsplit(b")", 1)[-1].split()
        if len(parent) < 2 or not parent[1].isdigit() or int(parent[1]) <= 1:
            return None
        pid = int(parent[1])
    return None
