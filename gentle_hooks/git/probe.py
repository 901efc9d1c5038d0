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


def config_value(key: str, env: Mapping[str, str]) -> str | None:
    """``git config --get key``, stripped; None when unset."""
    rc, out = capture(["git", "config", "--get", key], env)
    return out.decode("utf-8", "replace").strip() if rc == 0 else None


def last_reflog_is_cherry_pick(root: str, env: Mapping[str, str]) -> bool:
    """Whether HEAD's newest reflog entry is a cherry-pick, read from the reflog file (no
    git process): the git dir is ``GIT_DIR``, else what ``<root>/.git`` is or points at."""
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
