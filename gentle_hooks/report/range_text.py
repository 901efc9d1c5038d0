"""Why ``gate --range`` cannot judge a range, in words, and the fetch that fixes it.

Room ``report``. Each function returns ``(message, fix)``: the one error line and the
command to run, on its own line (None when no command can help: the history is empty, or
complete and without the end).
"""

from __future__ import annotations

import shlex

from gentle_hooks.errors import quoted
from gentle_hooks.report.program_text import program

UNSHALLOW = "git fetch --unshallow"


def no_commits(a: str | None, b: str) -> tuple[str]:
    """A repository without any commit (``a`` None: the range is ``B`` alone)."""
    shown = f"{a}..{b}" if a is not None else b
    return (f"cannot assess {shown}: this repository has no commits yet: nothing to judge",)


def missing_end(b: str, shallow: bool) -> tuple[str, str | None]:
    """The range's end is not a commit here."""
    if shallow:
        return (
            f"cannot assess: {quoted(b)} is not in this shallow clone; fetch more history",
            UNSHALLOW,
        )
    return (
        f"cannot assess: {quoted(b)} is not a commit in this repository (its history is complete)",
        None,
    )


def unborn_head(b: str, tracking: list[str]) -> tuple[str, str]:
    """The range's end is relative to a HEAD with no commit yet while the clone has
    remote-tracking branches (``refs/remotes/R/NAME``, sorted): the switch to the first."""
    names = [r.removeprefix("refs/remotes/") for r in tracking]
    first = names[0].split("/", 1)[1]
    shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
    return (
        f"cannot assess: {quoted(b)} has no commit: HEAD is on a branch with no commit yet "
        f"(the remote's HEAD names a branch it does not have); this clone fetched {shown}: "
        f"check one out (the command that follows checks out {quoted(first)}), then run the same "
        "gate again",
        f"git switch {shlex.quote(first)}",
    )


def missing_start(a: str, b: str, shallow: bool, count: int) -> tuple[str, str | None]:
    """The range's start is not a commit here; ``count``: the commits reachable from B."""
    if shallow:
        return (
            f"cannot assess: {quoted(a)} is not in this shallow clone; fetch more history",
            UNSHALLOW,
        )
    return (
        f"cannot assess: {quoted(a)} does not exist: the history is complete and "
        f"{quoted(b)} has only {count} commit(s); give a start inside it, or judge every "
        "commit of it, root included, with the command below",
        f"{program()} gate --range {shlex.quote(b)}",
    )


def missing_base(a: str, count: int, root: str, words: tuple[str, ...]) -> tuple[str, str | None]:
    """``assess --base-ref A`` names no commit in a complete history of ``count`` commits
    from HEAD; ``root``: its first commit; ``words``: the ``assess`` arguments to keep (the
    projection, ``--cwd``). The fix names the first commit as the base (every later commit
    judged); with one commit there is nothing older to name."""
    if count < 2:
        return (
            f"cannot assess: {quoted(a)} does not exist: the history is complete and HEAD is "
            "its only commit, so there is no older commit to name as the base; drop "
            "--base-ref to assess against the default base",
            None,
        )
    return (
        f"cannot assess: {quoted(a)} does not exist: the history is complete and HEAD has "
        f"only {count} commit(s); give a base inside it, or assess everything after its first "
        f"commit ({root[:12]}) with the command that follows",
        shlex.join((program(), "assess", *words, "--base-ref", root)),
    )


def unfetched_start(a: str, remote: str, branch: str) -> tuple[str, str]:
    """The range's start names a remote-tracking branch this clone never fetched (a
    single-branch clone fetches one branch): the fetch that makes it known here."""
    fix = f"git fetch {shlex.quote(remote)} " + shlex.quote(
        f"refs/heads/{branch}:refs/remotes/{remote}/{branch}"
    )
    return (
        f"cannot assess: {quoted(a)} is not known here: this clone has not fetched {remote}'s "
        f"branch {quoted(branch)} (a single-branch clone fetches one branch); fetch it, then run "
        "the same gate again",
        fix,
    )


def unfetched_commit(a: str, remote: str, shallow: bool) -> tuple[str, str]:
    """The range's start is a full commit id this clone does not have: in history a shallow
    clone left out, or on a branch a single-branch clone did not fetch. The fix fetches it
    by id (with ``--unshallow`` in a shallow clone: the range's own history too)."""
    why = (
        "this shallow clone does not have it (left out of its history, or on a branch it "
        "did not fetch)"
        if shallow
        else "this clone does not have it (on a branch it did not fetch)"
    )
    deepen = "--unshallow " if shallow else ""
    return (
        f"cannot assess: commit {quoted(a)} is not known here: {why}; fetch it from {remote} "
        "with the command that follows, then run the same gate again (a server that refuses "
        "a fetch by commit id: fetch the branch that holds it, by its name)",
        f"git fetch {deepen}{shlex.quote(remote)} {shlex.quote(a)}",
    )


def unfetched_local(a: str, remote: str) -> tuple[str, str]:
    """The range's start is a branch this clone does not have and ``remote`` has (a
    single-branch clone): the fetch that makes it a local branch, so the same range works."""
    ref = f"refs/heads/{a}"
    return (
        f"cannot assess: {quoted(a)} is not known here, but {remote} has a branch "
        f"{quoted(a)} this clone never fetched (a single-branch clone fetches one branch); "
        "fetch it, then run the same gate again",
        f"git fetch {shlex.quote(remote)} " + shlex.quote(f"{ref}:{ref}"),
    )


def absent_remote_branch(a: str, remote: str, branch: str) -> tuple[str, str]:
    """The range's start names a branch the remote does not have (it answered): no fetch
    can make it known; the command lists the branches it has."""
    return (
        f"cannot assess: {quoted(a)} is not known here and {remote} has no branch "
        f"{quoted(branch)}: "
        f"give a start that exists; {remote}'s branches are listed by the command that follows",
        f"git ls-remote --heads {shlex.quote(remote)}",
    )


def shallow_cut(a: str, b: str, cut: str) -> tuple[str, str]:
    """A shallow boundary inside the range."""
    return (
        f"cannot assess: the history is shallow at {cut}, inside {a}..{b}; fetch more history",
        UNSHALLOW,
    )
