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
    from collections.abc import Callable, Mapping, Sequence


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


#: The ``rev-parse`` that says where a repository is. :func:`locate` and the repository
#: object (:func:`gentle_hooks.git.location.probe_paths`) ask it with the same words, so a hook
#: that goes on to open the repository asks git once.
WHERE_ARGS = (
    "rev-parse",
    "--is-bare-repository",
    "--is-shallow-repository",
    "--show-object-format",
    "--path-format=absolute",
    "--git-dir",
    "--git-common-dir",
    "--git-path",
    "index",
    "--show-toplevel",
)

#: The paths :data:`WHERE_ARGS` prints after its three one-word answers, each as its own
#: ``rev-parse --path-format=absolute`` asks it (:func:`where_fields`).
_WHERE_PATHS = (
    ("--git-dir",),
    ("--git-common-dir",),
    ("--git-path", "index"),
    ("--show-toplevel",),
)

#: :data:`WHERE_ARGS` answers per (directory, git variables): (exit code, stdout).
_WHERE: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[int, bytes]] = {}


def _where_key(env: Mapping[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    return os.getcwd(), tuple(sorted((k, v) for k, v in env.items() if k.startswith("GIT_")))


def check_index(env: Mapping[str, str]) -> None:
    """Refuse a ``GIT_INDEX_FILE`` that names something other than a regular file (a FIFO,
    a device such as ``/dev/zero``, a directory), before any git reads it: git would hang
    on a FIFO, or read a device as an index full of unmerged paths. One ``stat`` (followed
    through a link), no process. Unset, or naming no file yet (git reads that as an empty
    index), it passes; relative, it is read from the current directory, as git reads it.

    Raises:
        UsageError: the one line naming the variable, the path and what it is.
    """
    index = env.get("GIT_INDEX_FILE")
    if not index:
        return
    try:
        mode = os.stat(index).st_mode
    except (OSError, ValueError):  # no such file (git: an empty index), or a NUL in it
        return
    import stat  # os imported it already

    if stat.S_ISREG(mode):
        return
    from gentle_hooks.bounded import file_kind

    raise UsageError(
        f"GIT_INDEX_FILE={index}: {file_kind(mode)}, not an index file (git would hang on "
        "it or misread it); unset GIT_INDEX_FILE or name the index file"
    )


def forget() -> None:
    """Drop every answer this module remembers (a new command run asks git afresh)."""
    _WHERE.clear()
    _STAGED_RAW.clear()


def asked_where(start: str, env: Mapping[str, str]) -> tuple[int, bytes] | None:
    """What :data:`WHERE_ARGS` answered in this process for ``start`` (the current
    directory) with the same git variables; None when it was not asked."""
    if os.path.realpath(start) != os.path.realpath(os.getcwd()):
        return None
    return _WHERE.get(_where_key(env))


def where_fields(
    returncode: int, out: bytes, ask: Callable[[Sequence[str]], tuple[int, bytes]]
) -> list[str] | None:
    """What :data:`WHERE_ARGS` answered (``returncode``, ``out``) as seven fields: bare,
    shallow, object format, git dir, common dir, index, work tree root (``""`` when git
    names none: a bare repository, or inside the git dir, where ``--show-toplevel`` fails).

    git ends each answer with a line end and a path may hold one: when the paths are not
    exactly one line each, every path is asked again on its own through ``ask(args)``
    (``git <args>`` -> (exit code, stdout)), whose single answer loses only its last line
    end. None outside a repository (or when a path cannot be asked).
    """
    head = out.decode("utf-8", "surrogateescape").split("\n", 3)
    if len(head) < 4 or head[0] not in ("true", "false"):
        return None
    wanted = len(_WHERE_PATHS) if returncode == 0 else len(_WHERE_PATHS) - 1
    paths = head[3].split("\n")
    if len(paths) != wanted + 1 or paths[-1]:  # a path holds a line end
        paths = []
        for args in _WHERE_PATHS[:wanted]:
            rc, one = ask(["rev-parse", "--path-format=absolute", *args])
            if rc != 0 or not one.endswith(b"\n"):
                return None
            paths.append(one[:-1].decode("utf-8", "surrogateescape"))
    else:
        paths.pop()
    return [*head[:3], *paths, *[""] * (len(_WHERE_PATHS) - wanted)]


def locate(env: Mapping[str, str]) -> Where | None:
    """The work tree root and common git dir in one git process (honours the hook's env;
    more where a path holds a line end, :func:`where_fields`); None outside a repository."""
    key = _where_key(env)
    if key not in _WHERE:
        _WHERE[key] = capture(["git", *WHERE_ARGS], env)
    fields = where_fields(*_WHERE[key], lambda args: capture(["git", *args], env))
    if fields is None:
        return None
    root = fields[6] if fields[0] == "false" and fields[6] else None
    return Where(root, os.path.normpath(fields[4]))


#: ``diff-index --cached --raw`` output per (directory, index, git dir): the commit gate's
#: probe and the gate itself run in one process and ask the same question.
_STAGED_RAW: dict[tuple[str, str | None, str | None], bytes | None] = {}


def _staged_key(env: Mapping[str, str]) -> tuple[str, str | None, str | None]:
    """The memo key of :func:`staged_raw`: a relative ``GIT_INDEX_FILE`` (as git hands a
    hook) and the absolute one the repository object passes on name the same index."""
    cwd = os.getcwd()
    index = env.get("GIT_INDEX_FILE")
    return cwd, os.path.join(cwd, index) if index else None, env.get("GIT_DIR")


#: The ``git`` arguments of :func:`staged_raw`: the index against ``HEAD``, as
#: :meth:`gentle_hooks.git.delta.Deltas.staged_delta` reads it when the probe did not ask.
STAGED_ARGS = (
    "diff-index",
    "--cached",
    "--raw",
    "-z",
    "--no-abbrev",
    "--no-renames",
    "--ignore-submodules=none",
    "HEAD",
    "--",
)


def staged_raw(env: Mapping[str, str]) -> bytes | None:
    """``git diff-index --cached --raw -z --no-renames HEAD`` for the index git hands the
    hook (asked once per process), or None when ``HEAD`` is unborn.

    Raises:
        UsageError: git is not on PATH.
    """
    key = _staged_key(env)
    if key not in _STAGED_RAW:
        rc, out = capture(["git", *STAGED_ARGS], env)
        _STAGED_RAW[key] = out if rc == 0 else None
    return _STAGED_RAW[key]


def asked_staged_raw(env: Mapping[str, str], root: str | None) -> tuple[bool, bytes | None]:
    """What :func:`staged_raw` answered in this process for a hook running at ``root``
    with this environment: (asked, its answer); (False, None) when it was not asked here."""
    key = _staged_key(env)
    if root is None or os.path.realpath(key[0]) != os.path.realpath(root):
        return False, None
    if key not in _STAGED_RAW:
        return False, None
    return True, _STAGED_RAW[key]


def staged_paths(env: Mapping[str, str]) -> list[str]:
    """The paths the index git hands the hook changes against ``HEAD`` (every staged path
    when ``HEAD`` is unborn): what the commit being made touches.

    Raises:
        UsageError: git is not on PATH.
    """
    raw = staged_raw(env)
    if raw is None:  # no HEAD yet: the first commit adds everything staged
        _, out = capture(["git", "ls-files", "--cached", "-z"], env)
        return [os.fsdecode(p) for p in out.split(b"\0") if p]
    fields = raw.split(b"\0")
    return [os.fsdecode(p) for p in fields[1::2] if p]


def staged_blobs(env: Mapping[str, str]) -> list[str]:
    """The old and new blob ids of the staged change against ``HEAD`` (none when ``HEAD``
    is unborn), from the same ``git diff-index`` as :func:`staged_paths`."""
    raw = staged_raw(env)
    if raw is None:
        return []
    found = set()
    for meta in raw.split(b"\0")[0::2]:
        found.update(meta.split(b" ")[2:4])  # ":<mode> <mode> <old> <new> <status>"
    return sorted(b.decode("ascii", "replace") for b in found if b.strip(b"0"))


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


def head_blobs(env: Mapping[str, str]) -> list[str]:
    """The new blob ids of the commit ``HEAD``'s change against its first parent (every
    blob of a root commit)."""
    argv = ["git", "diff-tree", "-r", "-z", "--no-commit-id", "--no-renames", "--root"]
    _, out = capture([*argv, "-m", "--first-parent", "HEAD"], env)
    metas = out.split(b"\0")[0::2]  # ":<mode> <mode> <old> <new> <status>", then the path
    found = {m.split(b" ")[3] for m in metas if m.startswith(b":") and len(m.split(b" ")) > 3}
    return sorted(b.decode("ascii", "replace") for b in found if b.strip(b"0"))


def head_message(env: Mapping[str, str]) -> str:
    """``HEAD``'s raw commit object as text (its header lines, then the message); ``""``
    when it cannot be read. A probe: the recorder reads the commit again."""
    rc, out = capture(["git", "cat-file", "commit", "HEAD"], env)
    return out.decode("utf-8", "replace") if rc == 0 else ""


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


#: git commands whose commits the sequencer makes (a pick replays a commit onto ``HEAD``).
SEQUENCERS = frozenset({b"rebase", b"cherry-pick", b"revert", b"am"})


#: ``--amend`` and the prefixes git's option parser takes for it (unique among commit's options).
_AMEND_FORMS = frozenset({b"--am", b"--ame", b"--amen", b"--amend"})


def amend_flag() -> bool | None:
    """Whether the ``git commit`` running this hook was given ``--amend``: False too when
    no ``git commit`` process runs above this one; None when that cannot be known (no
    ``/proc``, an ancestor gone, or the chain deeper than looked).

    git tells a hook it amends only through prepare-commit-msg's source ``commit`` (and not
    for ``--amend -m``); the process's own arguments say it for every hook. A message that
    reads ``--amend`` is a value, not the flag; git takes ``--am``, ``--ame`` and ``--amen``
    for it too (a long option's unique prefix).
    """
    found = _git_commit_argv()
    if found is None:
        return None
    flags = [a for i, a in enumerate(found) if i == 0 or found[i - 1] not in _VALUED]
    return any(f in _AMEND_FORMS for f in flags)


def _git_commit_argv() -> list[bytes] | None:
    """The arguments after ``commit`` of the nearest ``git commit`` process above this one
    (through the hook script and the pre-commit framework); empty when the chain up to init
    holds no ``git commit``, or when the nearest such git process is a sequencer's
    (:func:`sequencer_pick`); None where ``/proc`` does not tell."""
    found = _nearest_git()
    if found is None or not found or b"commit" not in found:
        return None if found is None else []
    return found[found.index(b"commit") + 1 :]


def sequencer_pick(env: Mapping[str, str]) -> bool:
    """Whether the commit being made is a pick of git's sequencer (``rebase``,
    ``cherry-pick``, ``revert``, ``am``: :data:`SEQUENCERS`), which replays a commit and
    its message onto ``HEAD``: the rebase's ``GIT_CHERRY_PICK_HELP`` in the hook's
    environment, or the nearest ``git commit`` or sequencer process above this one being a
    sequencer. A squash or fixup the sequencer amends is told apart by the
    caller (prepare-commit-msg's source ``commit`` naming ``HEAD``)."""
    if env.get("GIT_CHERRY_PICK_HELP"):
        return True
    found = _nearest_git()
    return bool(found) and b"commit" not in (found or ())


def invoking_git(verb: str) -> list[str] | None:
    """The words the user typed for the nearest ``git`` process above this one whose
    arguments hold ``verb`` (``commit``, ``push``): ``git`` then its arguments as given (a
    ``-C DIR`` or ``-c KEY=VALUE`` before the verb included), so the same git command can
    be printed again; None when no such process is found or ``/proc`` does not tell, and
    for a sequencer's commit (:func:`sequencer_pick`: its arguments are git's, not the
    user's)."""
    found = _nearest_git(frozenset({verb.encode()}))
    if not found or SEQUENCERS.intersection(found):
        return None
    words = found[1:-1] if found[-1] == b"" else found[1:]  # cmdline ends with a NUL
    return ["git", *(a.decode("utf-8", "surrogateescape") for a in words)]


def _nearest_git(verbs: frozenset[bytes] = frozenset({b"commit"})) -> list[bytes] | None:
    """The arguments of the nearest ``git`` process above this one holding one of ``verbs``
    (``commit``), or a sequencer's (through the hook script and the pre-commit framework);
    empty when the chain up to init holds none; None where ``/proc`` does not tell (absent,
    an ancestor gone, or more than six levels up)."""
    pid = os.getppid()
    for _ in range(6):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            return None
        is_git = bool(argv) and os.path.basename(argv[0]) == b"git"
        if is_git and (verbs.intersection(argv) or SEQUENCERS.intersection(argv)):
            return argv
        parent = stat.rsplit(b")", 1)[-1].split()
        if len(parent) < 2 or not parent[1].isdigit() or int(parent[1]) <= 1:
            return []  # up to init with no git commit: not an amend
        pid = int(parent[1])
    return None
