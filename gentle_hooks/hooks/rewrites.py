"""The ``(old, new)`` commit pairs of a rewrite, for post-rewrite (SPEC §3 "Attribution
follows content": a rewritten commit's record follows it): read from git's stdin lines, or,
under the pre-commit framework (which hides stdin), from git's own state; and the pairs a
stopped post-rewrite did not reach, kept for the command that records them.

Room ``hooks`` (standard library and ``git``/``ledger`` locations only).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping

from gentle_hooks.errors import UsageError
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.ledger.location import REST_PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.repository import Repository


#: Where git lists a rebase's ``<old> <new>`` pairs while it runs post-rewrite: the
#: sequencer's (merge backend) and ``am``'s (apply backend) state files.
REWRITTEN_LISTS = ("rebase-merge/rewritten-list", "rebase-apply/rewritten")


def _pairs(text: str) -> list[tuple[str, str]]:
    """The ``(old, new)`` pairs of ``text``'s lines, in order, each distinct pair once (git
    never repeats one; a wrapper that does gets each recorded once)."""
    pairs: dict[tuple[str, str], None] = {}
    for line in text.split("\n"):
        parts = line.split()
        if len(parts) >= 2:
            pairs[(parts[0], parts[1])] = None
    return list(pairs)


def keep_unrecorded(
    common_dir: str, command: str, rest: list[tuple[str, str]], limit: float
) -> UsageError:
    """Write the pairs post-rewrite did not reach to a new private file of the state
    directory and return the one-line error (exit 2) naming the limit and the command
    that records them; git ignores post-rewrite's exit, so the line is what tells."""
    import shlex

    from gentle_hooks.bounded import new_private_file
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.report.program_text import program

    directory = os.path.dirname(ledger_path(common_dir))
    fd, where = new_private_file(directory, REST_PREFIX)
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.writelines(f"{old} {new}\n" for old, new in rest)
    return UsageError(
        f"hook post-rewrite: stopped after {limit:g}s with {len(rest)} rewritten commit(s) "
        f"not recorded (kept in {where}); run: {program()} hook post-rewrite "
        f"{shlex.quote(command or 'rebase')} < {shlex.quote(where)}"
    )


#: The most bytes of a rest file :func:`drop_processed_rests` reads; a larger one is kept.
_REST_READ = 64 * 1024 * 1024


def drop_processed_rests(common_dir: str, processed: list[tuple[str, str]]) -> list[str]:
    """Remove every rest file of the state directory whose pairs are all in ``processed``
    (the pairs a post-rewrite run went through to the end: the printed command has done
    its work); the paths removed. A file that cannot be read, or holds a pair not
    processed, is kept."""
    from gentle_hooks.ledger.location import ledger_path

    directory = os.path.dirname(ledger_path(common_dir))
    done = set(processed)
    try:
        names = [n for n in os.listdir(directory) if n.startswith(REST_PREFIX)]
    except OSError:
        return []
    removed = []
    for name in sorted(names):
        path = os.path.join(directory, name)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as fh:
                data = fh.read(_REST_READ + 1)
        except OSError:
            continue
        if len(data) > _REST_READ or not set(_pairs(data.decode("ascii", "replace"))) <= done:
            continue
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed.append(path)
    return removed


def keep_input_rest(
    call: HookCall, first: bytes, more: Iterator[bytes], env: Mapping[str, str]
) -> UsageError | None:
    """Keep post-rewrite's input past what a hook reads (``first``, then ``more`` to its
    end), byte for byte, in a new private file of the state directory, written and fsynced
    before any pair is recorded; return the one-line error (exit 2) naming it and the
    command that records it. Without a ledger nothing is recorded here: the input is read
    to its end and None returned.

    Raises:
        UsageError: not in a repository, or the file cannot be written (its path and the OS
            reason; no file is left).
    """
    import shlex

    from gentle_hooks.bounded import new_private_file
    from gentle_hooks.git.probe import locate
    from gentle_hooks.hooks.call import STDIN_LIMIT
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.report.program_text import program

    where = locate(env)
    if where is None:
        raise UsageError("hook post-rewrite: not inside a git repository")
    ledger = ledger_path(where.common_dir)
    if not os.path.exists(ledger):
        for _ in more:  # read to its end: git waits for its writes to be taken
            pass
        return None
    directory = os.path.dirname(ledger)
    path = directory
    try:
        fd, path = new_private_file(directory, REST_PREFIX)
        with os.fdopen(fd, "wb") as fh:
            fh.write(first)
            for chunk in more:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        if path != directory:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise UsageError(
            f"hook post-rewrite: input is larger than {STDIN_LIMIT} bytes and the rest cannot "
            f"be kept: {path}: {exc.strerror or exc}"
        ) from None
    command = call.args[0] if call.args else env.get("PRE_COMMIT_REWRITE_COMMAND", "")
    return UsageError(
        f"hook post-rewrite: input is larger than {STDIN_LIMIT} bytes: the rewritten commits "
        f"past it are not recorded (kept in {path}); run: {program()} hook post-rewrite "
        f"{shlex.quote(command or 'rebase')} < {shlex.quote(path)}"
    )


def rewrite_pairs(
    call: HookCall, repo: Repository, env: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The ``(old, new)`` commit pairs of a rewrite: git's stdin lines, or, where the pre-commit
    framework hid them (it passes the command only, as ``PRE_COMMIT_REWRITE_COMMAND``), the
    same list from git's own state: the reflog for an amend, the rebase's rewritten list
    (still in the worktree's git dir while post-rewrite runs) for a rebase."""
    pairs = _pairs(call.stdin.decode("utf-8", "replace"))
    if pairs:
        return pairs
    command = call.args[0] if call.args else env.get("PRE_COMMIT_REWRITE_COMMAND", "")
    if command == "amend":
        old = repo.peel_commit("HEAD@{1}")
        new = repo.head()
        return [(old, new)] if old and new and old != new else []
    if command == "rebase":
        for name in REWRITTEN_LISTS:
            try:
                with open(repo.git_path(name), encoding="ascii", errors="replace") as fh:
                    return _pairs(fh.read())
            except FileNotFoundError:
                continue
    return []
