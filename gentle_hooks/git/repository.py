"""The git adapter (SPEC §2 "Git access", §3): every git read and write goes through here.

Layer: adapter. Imports the standard library, :mod:`gentle_hooks.values.candidate`,
:mod:`gentle_hooks.git.parse` and :mod:`gentle_hooks.errors`; returns our own value types,
never raw git output.

Diff stats come from git itself (``git diff --raw --numstat -z``): git's own rename
pairing is what users see. The object-model reads this issue needs (ref resolution,
merge-base, trees, blobs) also go through git plumbing rather than pygit2, for three
measured reasons: pygit2 1.21 (libgit2 1.9.7) refuses SHA-256 repositories ("unknown object
format 'sha256'"), importing it costs about 77 ms (10x ``python -c pass``), and child
``git`` processes honour the hook environment (``GIT_DIR``, ``GIT_INDEX_FILE``,
``GIT_WORK_TREE``, quarantine object directories) exactly as git defines it.

Hook environment: when gentle-hooks runs inside a hook, the variables git set describe the
repository being committed to, and every child git keeps them. When ``--cwd`` names another
repository they are dropped, so no child working on another repository inherits them.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import queue
import re
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.parse import (
    AddedLine,
    Listed,
    RawNumstatParser,
    iter_added_lines,
    listing,
    parse_raw_numstat,
)
from gentle_hooks.native.prefilter import search_keys
from gentle_hooks.values.candidate import (
    EMPTY_TREES,
    BaseResolution,
    Candidate,
    PathChange,
    Projection,
    candidate_identity,
)
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # typing costs ~10 ms to import
if TYPE_CHECKING:
    from typing import IO

#: Variables git sets for a hook that bind a child git to one repository.
#: ``git rev-parse --local-env-vars`` (git 2.39) plus the quarantine and namespace ones.
REPO_ENV_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_GRAFT_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_SHALLOW_FILE",
)

#: Refs tried, in order, when neither the flag nor the config names a base ref.
DEFAULT_BASE_CHAIN = ("origin/main", "origin/master", "main", "master")

#: stdin bytes a pipe takes without a reader (Linux's buffer is 64 KiB; POSIX promises 4 KiB
#: for atomic writes only): below this, one process's input can be written whole up front.
_PIPE_SAFE = 16384
#: A file name in the git dir that nothing creates: an index that reads as empty.
_NO_INDEX = "gentle-hooks-no-index"
_DIFF_FLAGS = ("--no-ext-diff", "--no-textconv", "--no-color", "-M", "--ignore-submodules=none")


def scrubbed_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of ``base`` (default ``os.environ``) without the repository-binding variables
    git sets for hooks (:data:`REPO_ENV_VARS`), for a child that works on another repository."""
    env = dict(os.environ if base is None else base)
    for name in list(env):
        if name in REPO_ENV_VARS or name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")):
            env.pop(name, None)
    return env


@frozen
class RepoPaths:
    """Where a repository lives, as git resolved it.

    Attributes:
        toplevel: absolute work tree root (None for a bare repository).
        git_dir: absolute git dir of this worktree (``.git/worktrees/<name>`` when linked).
        common_dir: absolute common git dir shared by all worktrees.
        index_file: absolute path of the index git uses here (honours ``GIT_INDEX_FILE``).
        object_format: ``sha1`` or ``sha256``.
        is_bare: True for a bare repository.
        is_shallow: True for a shallow clone.
    """

    toplevel: str | None
    git_dir: str
    common_dir: str
    index_file: str
    object_format: str
    is_bare: bool
    is_shallow: bool


class Repository:
    """A git repository opened from a directory, honouring a hook's environment.

    Use :meth:`open`; all methods run git plumbing and return our value types.
    """

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        self.paths = paths
        self.env = env
        #: commit id -> tree id, for commits whose tree an earlier git call already printed
        #: (saves a ``rev-parse`` per merge-base; a commit's tree never changes).
        self._trees: dict[str, str] = {}
        #: ``<full id>^{commit}`` / ``^{tree}`` -> what rev-parse printed (immutable).
        self._peeled: dict[str, str] = {}
        #: the default base, once :meth:`hold_refs` was called and it was read.
        self._held_base: tuple[str | None, str, str | None] | None = None
        self._hold_refs = False
        self._hold_lock = threading.Lock()  # the push gate judges commits on threads
        #: (base commit, commit) -> their merge-base, learnt by :meth:`learn_merge_bases`.
        self._merge_bases: dict[tuple[str, str], str] = {}
        #: diffs of tree pairs computed ahead by :meth:`prefetch_diffs` (trees are immutable).
        self._stats: dict[tuple[str, str], tuple[PathChange, ...]] = {}
        self._scans: dict[tuple[str, str, str], list[AddedLine]] = {}
        #: diff.algorithm/submodule/orderFile and remote.*.url, as gentle_config read them.
        self._config: dict[str, str] | None = None

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, cwd: str | None = None, *, allow_bare: bool = False) -> Repository:
        """Open the repository containing ``cwd`` (default: the current directory).

        Without ``cwd`` the process environment is honoured as git handed it (a hook's
        ``GIT_DIR``/``GIT_INDEX_FILE``/``GIT_WORK_TREE``). With ``cwd``, those variables
        are kept only when they describe the same repository; otherwise they are dropped.

        Raises:
            GitError: not a git repository, inside a git dir, or a bare repository when
                ``allow_bare`` is False; git missing from PATH.
        """
        start = os.path.abspath(cwd) if cwd is not None else os.getcwd()
        if not os.path.isdir(start):
            raise GitError(f"{start}: no such directory")
        env = dict(os.environ)
        if cwd is not None and any(v in env for v in REPO_ENV_VARS):
            mine = _probe(start, scrubbed_env(env))
            theirs = _probe(start, env)
            if mine is None or theirs is None or mine.common_dir != theirs.common_dir:
                env = scrubbed_env(env)
        paths = _probe(start, env)
        if paths is None:
            raise GitError(f"{start}: not a git repository (run inside a clone, or pass --cwd)")
        if paths.is_bare and not allow_bare:
            raise GitError(
                f"{paths.git_dir}: a bare repository has no work tree to assess; run in a "
                f"clone, or use 'gentle-hook gate --range A..B' for a pushed range"
            )
        if paths.toplevel is None and not paths.is_bare:
            raise GitError(f"{start}: inside the git directory; run from the work tree")
        if env.get("GIT_INDEX_FILE") and not os.path.isabs(env["GIT_INDEX_FILE"]):
            env["GIT_INDEX_FILE"] = paths.index_file
        return cls(paths, env)

    # -- running git ---------------------------------------------------------------------

    def run(
        self,
        args: Sequence[str],
        *,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: Iterable[int] = (0,),
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git <args>`` in the work tree (or git dir when bare).

        Args:
            args: arguments after ``git``.
            input: bytes for stdin, or None for no stdin.
            env: extra variables on top of the repository environment.
            ok: exit codes that are not failures.

        Raises:
            GitError: git exited with a code outside ``ok``; the message carries git's stderr.
        """
        full_env = self.env if env is None else {**self.env, **env}
        cwd = self.paths.toplevel or self.paths.git_dir
        if args and args[0] in ("config", "remote"):
            self._config = None  # it may write: what gentle_config read is stale
        proc = _git(args, cwd, full_env, input)
        if proc.returncode not in tuple(ok):
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            last = err[-1] if err else f"exit {proc.returncode}"
            raise GitError(f"git {args[0]} failed: {last}")
        return proc

    def _out(self, args: Sequence[str], **kw: object) -> str:
        return self.run(args, **kw).stdout.decode("utf-8", "surrogateescape").strip()  # type: ignore[arg-type]

    # -- object model --------------------------------------------------------------------

    @property
    def empty_tree(self) -> str:
        """The empty tree id for this repository's object format."""
        return EMPTY_TREES[self.paths.object_format]

    def head(self) -> str | None:
        """The commit HEAD points at, or None when HEAD is unborn."""
        proc = self.run(["rev-parse", "--verify", "-q", "HEAD^{commit}"], ok=(0, 1, 128))
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def resolve_commit(self, ref: str, what: str = "ref") -> str:
        """Resolve one ref or commit id to a full commit id.

        Raises:
            GitError: a range (``A..B``), an option-like or malformed name, an unknown
                ref, or an object that is not a commit (a tree id, a blob), each with the
                fix in the message.
        """
        check_ref_name(ref, what)
        proc = self.run(
            ["rev-parse", "--verify", "-q", "--end-of-options", ref + "^{commit}"], ok=(0, 1, 128)
        )
        if proc.returncode == 0:
            return proc.stdout.decode().strip()
        kind = self.run(["cat-file", "-t", "--end-of-options", ref], ok=(0, 1, 128))
        if kind.returncode == 0:
            typ = kind.stdout.decode().strip()
            raise GitError(
                f"{what} {ref!r} names a {typ}, not a commit; pass a branch, tag or commit id"
            )
        raise GitError(f"{what} {ref!r} is not a known ref or commit (see: git branch -a)")

    def ref_exists(self, ref: str) -> str | None:
        """The commit ``ref`` resolves to, or None when it does not resolve."""
        proc = self.run(
            ["rev-parse", "--verify", "-q", "--end-of-options", ref + "^{commit}"], ok=(0, 1, 128)
        )
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def origin_head(self) -> str | None:
        """The remote default branch, ``origin/HEAD``'s target (``origin/main``), or None."""
        proc = self.run(
            ["symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"], ok=(0, 1, 128)
        )
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of two commits, or None when they share no history."""
        known = self._merge_bases.get((a, b))
        if known is not None:
            return known
        if a == b and a in self._trees:
            return a  # a commit known to exist (its tree was read) is its own merge-base
        proc = self.run(["merge-base", a, b], ok=(0, 1))
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def tree_of(self, commit: str) -> str:
        """The tree id of a commit."""
        known = self._trees.get(commit)
        if known is not None:
            return known
        return self._out(["rev-parse", "--verify", commit + "^{tree}"])

    def config_get(self, key: str) -> str | None:
        """``git config --get key`` (the last value) or None when unset.

        ``diff.algorithm`` and ``remote.<name>.url`` are answered from what
        :meth:`gentle_config` read in the same process, when it was called.
        """
        value = self._config_value(key)
        return None if value is None else value.strip()

    def _config_value(self, key: str) -> str | None:
        """The value exactly as git stores it (spaces kept), or None when unset."""
        canonical = _canonical_key(key)
        if self._config is not None and _PRELOADED.match(canonical):
            return self._config.get(canonical)
        proc = self.run(["config", "--get", key], ok=(0, 1))
        if proc.returncode != 0:
            return None
        return proc.stdout.decode("utf-8", "surrogateescape").removesuffix("\n")

    def gentle_config(self) -> bytes:
        """``git config -z --get-regexp ^gentle\\.`` output (empty when nothing is set).

        The same process reads ``diff.algorithm``, ``diff.submodule``, ``diff.orderFile`` and
        every ``remote.<name>.url`` for
        :meth:`config_get` (a hook asks for them next; one process instead of three). Any
        ``git config`` or ``git remote`` run through :meth:`run` forgets them.
        """
        out = self.run(["config", "-z", "--get-regexp", _PRELOAD_REGEXP], ok=(0, 1)).stdout
        gentle: list[bytes] = []
        other: dict[str, str] = {}
        for entry in out.split(b"\0"):
            key, newline, value = entry.partition(b"\n")
            if key.startswith(b"gentle."):
                gentle.append(entry + b"\0")
            elif key:
                # a key without "=" is a boolean true; --get prints it as an empty line
                other[key.decode("utf-8", "surrogateescape")] = (
                    value.decode("utf-8", "surrogateescape") if newline else ""
                )
        self._config = other
        return b"".join(gentle)

    def read_blobs(self, oids: Sequence[str]) -> dict[str, bytes]:
        """Read blobs by id in one ``git cat-file --batch`` process.

        Returns:
            oid -> content for every id that exists as an object.
        """
        if not oids:
            return {}
        data = self.run(["cat-file", "--batch"], input="\n".join(oids).encode() + b"\n").stdout
        out: dict[str, bytes] = {}
        pos = 0
        for oid in oids:
            end = data.index(b"\n", pos)
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) == 3:
                size = int(header[2])
                out[oid] = data[pos : pos + size]
                pos += size + 1
        return out

    def search_blobs(self, needles: Sequence[bytes], prefix: bytes) -> BlobSearch:
        """A :class:`BlobSearch` in this repository: which blobs hold one of ``needles`` or
        start with ``prefix``."""
        return BlobSearch(self, needles, prefix)

    # -- commits and pushes --------------------------------------------------------------

    def read_commits(self, ids: Sequence[str]) -> list[CommitInfo]:
        """Parse commit objects by id (one ``git cat-file --batch``), in the order given.

        Ids that are not commits (a tag, a missing object) are left out.
        """
        raw = self.read_blobs(ids)
        out = []
        for oid in ids:
            data = raw.get(oid)
            if data is not None:
                info = parse_commit(oid, data)
                if info is not None:
                    out.append(info)
                    if _is_full_id(oid):  # a commit's tree never changes: no rev-parse later
                        self._trees[oid] = info.tree
                        self._peeled[f"{oid}^{{commit}}"] = oid
                        self._peeled[f"{oid}^{{tree}}"] = info.tree
        return out

    def same_patch(self, commit: str, candidates: Sequence[str]) -> str | None:
        """The first of ``candidates`` whose ``git patch-id --stable`` equals ``commit``'s
        (the same change, picked elsewhere), or None."""
        if not candidates:
            return None
        cwd = self.paths.toplevel or self.paths.git_dir
        ids = "\n".join([commit, *candidates]).encode() + b"\n"
        log = _git(
            ["log", "--no-walk=unsorted", "-p", "--no-color", "--no-ext-diff", "--stdin"],
            cwd,
            self.env,
            ids,
        )
        pid = _git(["patch-id", "--stable"], cwd, self.env, log.stdout)
        by_commit = {}
        for line in pid.stdout.decode().splitlines():
            parts = line.split()
            if len(parts) == 2:
                by_commit[parts[1]] = parts[0]
        mine = by_commit.get(commit)
        if mine is None:
            return None
        return next((c for c in candidates if by_commit.get(c) == mine), None)

    def read_path(self, commit: str, path: str) -> bytes | None:
        """The bytes of ``path`` in ``commit``'s tree, or None when it has no such file."""
        proc = self.run(["cat-file", "blob", f"{commit}:{path}"], ok=(0, 128))
        return proc.stdout if proc.returncode == 0 else None

    def peel_commit(self, oid: str) -> str | None:
        """The commit an id names, peeling annotated tags; None when it is not a commit."""
        proc = self.run(
            ["rev-parse", "--verify", "-q", "--end-of-options", oid + "^{commit}"], ok=(0, 1, 128)
        )
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def has_object(self, oid: str) -> bool:
        """True when the object exists locally (a remote id we may never have fetched)."""
        return self.run(["cat-file", "-e", oid], ok=(0, 1, 128)).returncode == 0

    def new_commits(
        self, tip: str, exclude: Sequence[str] = (), remote: str | None = None
    ) -> list[str]:
        """Commits reachable from ``tip`` and not from ``exclude`` (ids) nor, when ``remote``
        is given, from any of that remote's remote-tracking refs; oldest first.

        ``remote=""`` excludes every remote-tracking ref (the remote is unknown).
        """
        args = ["rev-list", "--topo-order", "--reverse", tip]
        args += [f"^{x}" for x in exclude]
        if remote is not None:
            args += ["--not", f"--remotes={remote}" if remote else "--remotes"]
        return self._out(args).split()

    def learn_merge_bases(self, base: str, tip: str, infos: Sequence[CommitInfo]) -> None:
        """Learn ``merge-base base C`` for many commits ``C`` of one push in one process.

        Args:
            base: the base commit (full id); tip: a commit every one of ``infos`` is an
                ancestor of (the pushed ref's tip); infos: those commits with their parents.

        When ``base`` and ``tip`` have exactly one best common ancestor ``M`` (``merge-base
        --all``), every common ancestor of ``base`` and a commit ``C`` below ``tip`` is one of
        ``base`` and ``tip``, hence an ancestor of ``M``; when ``C`` also descends from ``M``
        (a parent chain through ``infos`` reaches ``M``), ``M`` is the one best common
        ancestor of ``base`` and ``C``: :meth:`merge_base` answers ``M`` without a process.
        Anything else (several bests, no common history, a commit not proven to descend
        from ``M``) is left to :meth:`merge_base` to ask git, as before.
        """
        proc = self.run(["merge-base", "--all", base, tip], ok=(0, 1))
        bests = proc.stdout.decode().split() if proc.returncode == 0 else []
        if len(bests) != 1:
            return
        best = bests[0]
        below = {best}
        grew = True
        while grew:  # parents first in topological order: usually one pass
            grew = False
            for info in infos:
                if info.id not in below and any(p in below for p in info.parents):
                    below.add(info.id)
                    grew = True
        for info in infos:
            if info.id != best and info.id in below:
                self._merge_bases[(base, info.id)] = best

    def base_commit(self, config_ref: str | None) -> str | None:
        """The commit of the base ref a committed candidate without ``--base-ref`` uses:
        ``config_ref`` when set, else the default (``origin/HEAD``, then the chain); None
        when there is none or ``config_ref`` does not resolve (the candidate reports it)."""
        if config_ref:
            got = self._rev_parse_many([f"{config_ref}^{{commit}}"])
            return got[0] if got else None
        return self._default_base()[2]

    def head_reflog_action(self) -> str | None:
        """What last moved HEAD, from its reflog: ``commit``, ``commit (amend)``, ``rebase
        (pick)``, ``pull --rebase origin main (pick)``, ``cherry-pick``...; None when HEAD
        has no reflog (``core.logAllRefUpdates`` off)."""
        proc = self.run(["reflog", "-1", "--format=%gs", "HEAD", "--"], ok=(0, 128))
        subject = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode != 0 or not subject:
            return None
        return subject.split(": ", 1)[0]

    def index_kind(self) -> str:
        """Which index git handed us: ``own`` (the worktree's index), ``all`` (its locked
        copy, ``index.lock``: ``commit -a``, or ``commit -i <paths>``, which stage into the
        index itself) or ``partial`` (a ``next-index-*.lock`` built from HEAD and the paths
        of ``commit <paths>``)."""
        own = os.path.realpath(os.path.join(self.paths.git_dir, "index"))
        used = os.path.realpath(self.paths.index_file)
        if used == own:
            return "own"
        return "all" if used == own + ".lock" else "partial"

    def git_path(self, name: str) -> str:
        """``git rev-parse --git-path NAME``, absolute: where git keeps ``NAME`` for this
        worktree (``.git/worktrees/<wt>/NAME`` in a linked worktree, ``hooks`` honouring
        ``core.hooksPath``)."""
        return self._out(["rev-parse", "--path-format=absolute", "--git-path", name])

    def ident(self) -> str:
        """``Name <email>`` of the committer git would record now."""
        raw = self._out(["var", "GIT_COMMITTER_IDENT"])
        return raw.rsplit(" ", 2)[0] if raw.count(" ") >= 2 else raw

    # -- notes ---------------------------------------------------------------------------

    def notes_map(self, notes: str) -> dict[str, tuple[str, str]]:
        """Annotated object id -> (note blob id, path in the notes tree) for a notes ref or
        notes commit id (any fanout). Empty when the notes do not exist.

        Raises:
            GitError: the notes exist but their tree cannot be listed (a partial clone
                missing it): what cannot be read must not read as "no notes".
        """
        exists = self.run(["rev-parse", "--verify", "-q", notes + "^{commit}"], ok=(0, 1, 128))
        if exists.returncode != 0:
            return {}
        proc = self.run(["ls-tree", "-r", "-z", "--full-tree", notes], ok=(0, 128))
        if proc.returncode != 0:
            raise GitError(
                f"cannot read the notes tree of {notes} (a partial or shallow clone missing "
                "it?); fetch it fully and rerun"
            )
        out: dict[str, tuple[str, str]] = {}
        for entry in proc.stdout.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            parts = meta.split(b" ")
            if len(parts) != 3 or parts[1] != b"blob":
                continue
            name = path.decode("ascii", "replace")
            key = name.replace("/", "")
            if len(key) in (40, 64):
                out[key] = (parts[2].decode("ascii"), name)
        return out

    def read_notes(self, notes: str, commits: Sequence[str]) -> dict[str, bytes]:
        """The notes of ``commits`` in a notes ref or notes commit, by commit id."""
        found = self.notes_map(notes)
        wanted = {c: found[c][0] for c in commits if c in found}
        blobs = self.read_blobs(list(wanted.values()))
        missing = [c for c, b in wanted.items() if b not in blobs]
        if missing:
            raise GitError(
                f"the note of {missing[0][:12]} in {notes} is not in this clone (a partial "
                "clone?); fetch it and rerun"
            )
        return {c: blobs[b] for c, b in wanted.items()}

    def write_notes(self, ref: str, notes: Mapping[str, bytes], message: str) -> str | None:
        """Set the notes of several commits in one notes commit under ``ref``.

        Each given note replaces the commit's note (callers merge first); the commit carries
        the user's identity and ``message``. The ref moves by compare-and-swap, so a
        concurrent writer makes this raise rather than lose its note.

        Returns:
            The new notes commit id, or None when nothing changed.

        Raises:
            GitError: git failed, or the ref moved under us (retry).
        """
        import tempfile

        if not notes:
            return None
        proc = self.run(["rev-parse", "--verify", "-q", ref], ok=(0, 1, 128))
        old = proc.stdout.decode().strip() if proc.returncode == 0 else None
        existing = self.notes_map(old) if old else {}
        with tempfile.TemporaryDirectory(prefix="gentle-hooks-notes-") as tmp:
            paths = []
            for i, commit in enumerate(notes):
                path = os.path.join(tmp, f"n{i}")
                with open(path, "wb") as fh:
                    fh.write(notes[commit])
                paths.append(path)
            blobs = self._out(
                ["hash-object", "-w", "--stdin-paths"], input="\n".join(paths).encode() + b"\n"
            ).split()
            index = os.path.join(tmp, "index")
            env = {"GIT_INDEX_FILE": index}
            if old:
                self.run(["read-tree", old], env=env)
            info = []
            zero = "0" * len(blobs[0])
            for commit, blob in zip(notes, blobs, strict=True):
                if commit in existing:
                    info.append(f"0 {zero}\t{existing[commit][1]}")
                info.append(f"100644 {blob}\t{commit}")
            self.run(
                ["update-index", "--index-info"], input="\n".join(info).encode() + b"\n", env=env
            )
            tree = self._out(["write-tree"], env=env)
        if old and self.tree_of(old) == tree:
            return None
        commit_args = ["commit-tree", tree, "-m", message] + (["-p", old] if old else [])
        new = self._out(commit_args)
        self.run(["update-ref", "-m", message, ref, new, old or ""])
        return new

    # -- projections ---------------------------------------------------------------------

    def _with_index_copy(self, args_list: Sequence[Sequence[str]]) -> str:
        """Run git commands against a private copy of the effective index; return the
        stdout of the last one. The user's index is never written.

        The copy keeps the original's mtime: git's racy-clean check compares entries with
        it (a same-size edit in the same second would otherwise be invisible). It lives in
        the git dir, as git's own temporary indexes do, else in the temporary directory.
        """
        tmp = _private_copy(self.paths.index_file, self.paths.git_dir)
        try:
            out = ""
            for args in args_list:
                out = self._out(args, env={"GIT_INDEX_FILE": tmp})
            return out
        finally:
            for path in (tmp, tmp + ".lock"):
                if os.path.exists(path):
                    os.unlink(path)

    def staged_tree(self) -> str:
        """The index git hands us (``GIT_INDEX_FILE`` in a hook) written as a tree.

        Raises:
            GitError: unmerged entries (a conflict in progress), with the fix.
        """
        try:
            return self._with_index_copy([["write-tree"]])
        except GitError as exc:
            raise GitError(
                "the index has unmerged paths; resolve the conflict or use --committed-only"
            ) from exc

    def snapshot_tree(self) -> str:
        """The working state as ``git add -A`` would stage it, as a tree.

        Tracked and untracked non-ignored files, built in a temporary index.
        """
        return self._with_index_copy([["add", "-A", "--", ":/"], ["write-tree"]])

    def has_dirty_tracked(self) -> bool:
        """True when tracked files differ from HEAD (staged or not); untracked ignored."""
        out = self.run(
            [
                "--no-optional-locks",
                "status",
                "--porcelain=v2",
                "-z",
                "--untracked-files=no",
                "--ignore-submodules=none",
            ],
        ).stdout
        return bool(out.strip(b"\0"))

    # -- diffs ---------------------------------------------------------------------------

    def prefetch_diffs(self, pairs: Sequence[tuple[str, str]], ere: str | None) -> bool:
        """Diff many (base tree, tree) pairs ahead, in one or two git processes instead of
        one or two per pair, for :meth:`diff_stats` and :meth:`added_lines_matching` to
        answer from: every pair's numstat, and with ``ere`` every pair's ``-G ere`` scan.

        ``git diff-tree --stdin`` reads one pair per line and prints each pair's diff after
        the line echoed (``<base> <tree>``), with the flags :meth:`diff_stats` and
        :meth:`added_lines_matching` use. The porcelain's one setting that can change
        counts, ``diff.algorithm``, is passed explicitly (plumbing does not read it).
        Anything unexpected (a failed process, an echo line not where it should be) keeps
        nothing: each pair is then diffed on its own.

        Args:
            pairs: (base tree id, tree id) pairs; ere: the ``-G`` preselect, or None for
                the numstat alone.

        Returns:
            True when what was asked for every pair is now at hand.
        """
        todo = list(dict.fromkeys(p for p in pairs if p not in self._stats))
        if len(todo) < 2:
            return not todo and (ere is None or self.prefetch_scans(pairs, ere))
        return self._diff_tree_batch(todo, True, ere)

    def prefetch_scans(self, pairs: Sequence[tuple[str, str]], ere: str) -> bool:
        """The ``-G ere`` scan of many pairs ahead, in one ``git diff-tree --stdin`` (see
        :meth:`prefetch_diffs`); True when every pair's scan is at hand."""
        todo = list(dict.fromkeys(p for p in pairs if (*p, ere) not in self._scans))
        if len(todo) < 2:
            return not todo
        return self._diff_tree_batch(todo, False, ere)

    def know_scan(self, base_tree: str, tree: str, ere: str, lines: Sequence[AddedLine]) -> None:
        """Record what :meth:`added_lines_matching` is to answer for a pair, for a caller that
        proved it (no changed blob of the pair can hold a line the scan is for)."""
        self._scans[(base_tree, tree, ere)] = list(lines)

    def _diff_tree_batch(self, todo: list[tuple[str, str]], stats: bool, ere: str | None) -> bool:
        # exactly as stored: a value git refuses (" histogram", or none at all) must fail
        # here as the porcelain would, and then pair by pair with git's own message
        # The porcelain settings plumbing does not read, passed as the porcelain would
        # apply them: the algorithm (counts), the file order, and how a submodule's change
        # shows in a patch (diff.submodule=diff puts its content in the scan).
        algorithm = self._config_value("diff.algorithm")
        order = self._config_value("diff.orderFile")
        submodule = self._config_value("diff.submodule")
        if "" in (algorithm, order, submodule):
            return False
        flags = [*_DIFF_FLAGS] + ([f"--diff-algorithm={algorithm}"] if algorithm else [])
        flags += [f"-O{order}"] if order else []
        stdin = "".join(f"{a} {b}\n" for a, b in todo).encode()
        argvs = []
        if stats:
            argvs.append(["diff-tree", "--stdin", "-r", "--raw", "--numstat", "-z", "--no-abbrev"])
        if ere is not None:
            scan = ["diff-tree", "--stdin", "-r", "-U0", "--src-prefix=a/", "--dst-prefix=b/"]
            argvs.append([*scan, "-G", ere] + ([f"--submodule={submodule}"] if submodule else []))
        cwd = self.paths.toplevel or self.paths.git_dir
        # diff-tree reads the index (porcelain diff of two trees does not): ≈ 4 ms per
        # process on a 30k-file index. A path that names no file reads as an empty index,
        # and attributes then come from the work tree, as for ``git diff <tree> <tree>``.
        env = {**self.env, "GIT_INDEX_FILE": os.path.join(self.paths.git_dir, _NO_INDEX)}
        procs = [_popen([*argv, *flags], cwd, env, stdin=True) for argv in argvs]
        overlap = len(stdin) <= _PIPE_SAFE
        if overlap:  # fits a pipe's buffer: every process starts before any is read
            for proc in procs:
                assert proc.stdin is not None
                try:
                    proc.stdin.write(stdin)
                    proc.stdin.flush()  # communicate() below closes it
                except BrokenPipeError:
                    pass  # git exited early: its exit code says so below
        outs = []
        for proc in procs:
            out, _ = proc.communicate(None if overlap else stdin)
            outs.append(out if proc.returncode == 0 else None)
        if any(out is None for out in outs):
            return False
        stats_chunks = _split_echoed_records(outs[0], todo) if stats else None  # type: ignore[arg-type]
        scan_chunks = _split_echoed(outs[-1], todo, b"\n") if ere is not None else None  # type: ignore[arg-type]
        if (stats and stats_chunks is None) or (ere is not None and scan_chunks is None):
            return False
        for i, pair in enumerate(todo):
            if stats_chunks is not None:
                self._stats[pair] = parse_raw_numstat(stats_chunks[i])
            if scan_chunks is not None and ere is not None:
                self._scans[(*pair, ere)] = list(iter_added_lines(scan_chunks[i]))
        return True

    def prefetched(self, base_tree: str, tree: str, ere: str) -> bool:
        """True when :meth:`prefetch_diffs` holds this pair's numstat and ``-G ere`` scan:
        :meth:`diff_stats` and :meth:`added_lines_matching` answer without a process."""
        return (base_tree, tree) in self._stats and (base_tree, tree, ere) in self._scans

    def diff_stats(
        self,
        base_tree: str,
        tree: str,
        on_listed: Callable[[list[Listed], bool], None] | None = None,
    ) -> tuple[PathChange, ...]:
        """Per-path diff stats between two trees, as ``git diff --raw --numstat`` sees them.

        Args:
            on_listed: called in this thread with the changed paths as git lists them
                (:data:`~gentle_hooks.git.parse.Listed`: paths and the candidate side's blob
                id), before it counts their lines (most of its time on a large diff), and
                with True once every path is listed: a caller can read those blobs while
                git counts. It must not block. Git's output is then parsed as it comes.
                (A pair :meth:`prefetch_diffs` diffed is listed at once, then returned.)

        Raises:
            GitError: git failed or printed something unexpected.
        """
        known = self._stats.get((base_tree, tree))
        if known is not None:
            if on_listed is not None:
                on_listed([listing(c) for c in known], True)
            return known
        args = ["diff", "--raw", "--numstat", "-z", "--no-abbrev", *_DIFF_FLAGS, base_tree, tree]
        if on_listed is None:
            return parse_raw_numstat(self.run(args).stdout)
        parser = RawNumstatParser()
        listed = False
        proc = _popen(args, self.paths.toplevel or self.paths.git_dir, self.env)
        assert proc.stdout is not None and proc.stderr is not None
        _grow_pipe(proc.stdout.fileno())  # git lists every path without waiting for us
        errors = _Drain(proc.stderr)
        out = proc.stdout.fileno()
        try:
            while chunk := os.read(out, 1 << 18):
                parser.feed(chunk)
                if not listed:
                    listed = parser.raw_complete
                    on_listed(parser.take_listed(), listed)
            err = errors.wait()
            if proc.wait() != 0:
                lines = err.decode("utf-8", "replace").strip().splitlines()
                raise GitError(f"git diff failed: {lines[-1] if lines else proc.returncode}")
            if not listed:
                parser.end()
                on_listed(parser.take_listed(), True)
            return parser.finish()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()

    def added_lines_matching(
        self, base_tree: str, tree: str, ere: str, paths: Sequence[str] | None = None
    ) -> list[AddedLine]:
        """Added lines of files whose diff adds or removes a line matching ``ere``.

        Git's ``-G`` (POSIX extended regex) preselects the files, so only their patches
        are produced; the caller applies its precise pattern to the lines returned.

        Args:
            paths: only these paths (literal pathspecs), compared path to path without
                rename detection: each must be a change that is not a rename or a copy in
                the diff with renames, so its patch is the same in both (its old and new
                blob are the same). None: the whole diff, with renames.
        """
        known = self._scans.get((base_tree, tree, ere)) if paths is None else None
        if known is not None:
            return list(known)
        flags: Sequence[str] = _DIFF_FLAGS
        env = None
        limit: list[str] = []
        if paths is not None:
            flags = [f for f in _DIFF_FLAGS if f != "-M"] + ["--no-renames"]
            env = _LITERAL_PATHSPECS
            limit = ["--", *paths]
        out = self.run(
            [
                "diff",
                "-U0",
                "--src-prefix=a/",
                "--dst-prefix=b/",
                "-G",
                ere,
                *flags,
                base_tree,
                tree,
                *limit,
            ],
            env=env,
        ).stdout
        return list(iter_added_lines(out))

    # -- candidates ----------------------------------------------------------------------

    def _rev_parse_many(self, exprs: Sequence[str]) -> list[str] | None:
        """Resolve several revision expressions in one process; None if any fails.

        A full object id peeled to a commit or a tree always resolves the same way: those
        answers are kept, and asked again cost no process (see :meth:`peel_commits`).
        """
        if all(e in self._peeled for e in exprs):
            return [self._peeled[e] for e in exprs]
        proc = self.run(["rev-parse", "--end-of-options", *exprs], ok=(0, 128))
        # Older git (2.39) echoes --end-of-options here instead of consuming it; no
        # expression can print it (check_ref_name refuses names starting with "-").
        lines = [x for x in proc.stdout.decode().split() if x != "--end-of-options"]
        if proc.returncode != 0 or len(lines) != len(exprs):
            return None
        for expr, value in zip(exprs, lines, strict=True):
            name, _, peel = expr.partition("^")
            if peel in ("{commit}", "{tree}") and _is_full_id(name):
                self._peeled[expr] = value
        return lines

    def peel_commits(self, ids: Sequence[str]) -> None:
        """Resolve the commits and trees of many commit ids in one process, so that
        :meth:`candidate` for each of them needs no ``rev-parse`` of its own.

        Nothing is kept when any id is not a commit; each candidate then resolves (and
        reports) its own, as without this call.
        """
        exprs = [e for c in ids for e in (f"{c}^{{commit}}", f"{c}^{{tree}}")]
        if exprs:
            self._rev_parse_many(exprs)

    def hold_refs(self) -> None:
        """Read the default base refs once from now on: a hook judging many commits of one
        push sees the refs as they were when it started, not once per commit."""
        self._hold_refs = True

    def _default_base(self) -> tuple[str | None, str, str | None]:
        """(ref, source, commit) from origin/HEAD, else the fallback chain, in one process."""
        if not self._hold_refs:
            return self._read_default_base()
        with self._hold_lock:
            if self._held_base is None:
                self._held_base = self._read_default_base()
            return self._held_base

    def _read_default_base(self) -> tuple[str | None, str, str | None]:
        names = ["refs/remotes/origin/HEAD"] + [
            ("refs/remotes/" if r.startswith("origin/") else "refs/heads/") + r
            for r in DEFAULT_BASE_CHAIN
        ]
        out = self._out(
            ["for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)%00%(tree)", *names]
        )
        found: dict[str, tuple[str, str]] = {}
        for line in out.splitlines():
            refname, oid, symref, tree = line.split("\0")
            found[refname] = (oid, symref)
            if oid and tree:
                self._trees[oid] = tree
        origin = found.get("refs/remotes/origin/HEAD")
        if origin and origin[1]:
            target = origin[1]
            short = target.removeprefix("refs/remotes/")
            return short, "origin/HEAD", origin[0] or None
        for name in names[1:]:
            if name in found:
                short = name.removeprefix("refs/remotes/").removeprefix("refs/heads/")
                return short, "fallback", found[name][0]
        return None, "none", None

    def resolve_base(
        self,
        candidate_commit: str | None,
        flag_ref: str | None,
        config_ref: str | None,
        base_commit: str | None = None,
        committed: bool = False,
    ) -> BaseResolution:
        """Resolve the base (SPEC §3 "Base"): merge-base of the base ref and the candidate.

        The ref: ``flag_ref``, else ``config_ref``, else ``origin/HEAD``, else the first of
        :data:`DEFAULT_BASE_CHAIN` that exists. No base resolvable gives the empty tree,
        with the reason in ``note``.

        Args:
            candidate_commit: the commit the candidate stands on, None when HEAD is unborn.
            flag_ref / config_ref: the base ref named by the flag / by config.
            base_commit: the named ref already resolved to a commit (saves a process).
            committed: the candidate is a commit's own tree (``committed`` projection).

        A committed candidate whose base ref (from config or the default chain, not the
        flag) already contains the commit — a commit made on the base branch itself — is
        judged against its first parent: what that commit changed. Otherwise the
        merge-base would be the commit itself and the candidate empty, and the identity
        would not match the one its work was recorded under (HEAD was then the base).

        Raises:
            GitError: ``flag_ref`` or ``config_ref`` given but not a commit.
        """
        if flag_ref is not None:
            ref, source = flag_ref, "flag"
            commit = base_commit or self.resolve_commit(flag_ref, "--base-ref")
        elif config_ref:
            ref, source = config_ref, "config"
            commit = base_commit or self.resolve_commit(config_ref, "configured base_ref")
        else:
            ref, source, commit = self._default_base()
        if candidate_commit is None:
            return BaseResolution(
                ref, source, None, self.empty_tree, "HEAD is unborn: base is the empty tree"
            )
        if commit is None:
            return BaseResolution(
                None,
                "none",
                None,
                self.empty_tree,
                "no base ref found (tried origin/HEAD, "
                + ", ".join(DEFAULT_BASE_CHAIN)
                + "): base is the empty tree; pass --base-ref",
            )
        mb = self.merge_base(commit, candidate_commit)
        if mb == candidate_commit and committed and source != "flag":
            parents = self._out(["rev-list", "--parents", "-n", "1", candidate_commit]).split()
            if len(parents) < 2:
                return BaseResolution(
                    ref,
                    source,
                    None,
                    self.empty_tree,
                    f"{ref} contains this root commit: base is the empty tree",
                )
            return BaseResolution(
                ref,
                source,
                parents[1],
                self.tree_of(parents[1]),
                f"{ref} ({source}) already contains the commit: its first parent",
            )
        if mb is None:
            why = (
                "the history is shallow and does not reach a common ancestor; "
                "fetch more history (git fetch --unshallow)"
                if self.paths.is_shallow
                else "no common ancestor (an orphan branch)"
            )
            return BaseResolution(
                ref,
                source,
                None,
                self.empty_tree,
                f"{ref} and the candidate share no history: {why}; base is the empty tree",
            )
        return BaseResolution(
            ref, source, mb, self.tree_of(mb), f"merge-base of {ref} ({source}) and the candidate"
        )

    def candidate(
        self,
        projection: Projection,
        *,
        flag_ref: str | None = None,
        config_ref: str | None = None,
        commit: str | None = None,
    ) -> Candidate:
        """Resolve a candidate: base tree, candidate tree and identity (SPEC §3).

        Args:
            projection: committed (HEAD's tree or ``commit``'s), staged (the index git
                hands us) or snapshot (``git add -A`` in a temporary index).
            flag_ref / config_ref: base ref from the flag / from config.
            commit: for ``committed``, the commit judged (default HEAD).

        Raises:
            GitError: as :meth:`resolve_base`; unmerged index for ``staged``.
        """
        named = flag_ref if flag_ref is not None else config_ref
        for value, what in ((commit, "commit"), (named, "--base-ref")):
            if value is not None:
                check_ref_name(value, what)
        # Fast path: HEAD (or the commit), its tree and the named base in one process; on
        # any failure fall back to one call each, which names exactly what is wrong.
        exprs = [f"{commit or 'HEAD'}^{{commit}}", f"{commit or 'HEAD'}^{{tree}}"]
        if named:
            exprs += [f"{named}^{{commit}}", f"{named}^{{tree}}"]
        got = self._rev_parse_many(exprs)
        if got is not None:
            head, head_tree = got[0], got[1]
            base_commit = got[2] if named else None
            self._trees[head] = head_tree
            if named:
                self._trees[got[2]] = got[3]
        else:
            head = self.resolve_commit(commit, "commit") if commit else self.head()
            head_tree = self.tree_of(head) if head else self.empty_tree
            base_commit = None
        base = self.resolve_base(
            head, flag_ref, config_ref, base_commit, committed=projection is Projection.COMMITTED
        )
        if projection is Projection.COMMITTED:
            tree = head_tree
        elif projection is Projection.STAGED:
            tree = self.staged_tree()
        else:
            tree = self.snapshot_tree()
        return Candidate(
            projection=projection,
            base=base,
            tree=tree,
            head=head,
            identity=candidate_identity(base.tree, tree),
            object_format=self.paths.object_format,
        )


# -- process helpers ------------------------------------------------------------------------


class BlobSearch:
    """Which blobs hold one of some byte strings (or start with a prefix), in one
    ``git cat-file --batch`` process fed blob ids while they become known.

    :meth:`add` never blocks (a thread writes the ids; another reads the blobs, a bounded
    piece at a time, and searches them in place); :meth:`finish` answers. An id that names
    no blob here (missing, another object type) is in the answer: nothing is known of it.
    The process starts with the first ids (or :meth:`start`), so a search given none and
    never started costs nothing.
    """

    def __init__(self, repo: Repository, needles: Sequence[bytes], prefix: bytes) -> None:
        self._repo = repo
        self._needles = tuple(needles)
        self._prefix = prefix
        self._found: set[str] = set()
        self._proc: subprocess.Popen[bytes] | None = None
        self._ids: queue.SimpleQueue[list[str] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._failed: str | None = None
        self._stderr = b""

    def start(self) -> None:
        """Start cat-file now (before any id is known: its start-up then overlaps other
        work); :meth:`add` starts it otherwise."""
        if self._proc is None:
            repo = self._repo
            self._proc = _popen(
                ["cat-file", "--batch"],
                repo.paths.toplevel or repo.paths.git_dir,
                repo.env,
                stdin=True,
            )
            self._threads = [
                threading.Thread(target=self._write, daemon=True),
                threading.Thread(target=self._read, daemon=True),
            ]
            for t in self._threads:
                t.start()

    def add(self, oids: list[str]) -> None:
        """Queue more blob ids to search."""
        if oids:
            self.start()
            self._ids.put(oids)

    def _write(self) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        pipe = self._proc.stdin
        # BrokenPipeError / ValueError: cat-file is gone (it failed, or it was killed)
        with contextlib.suppress(BrokenPipeError, ValueError):
            try:
                while (oids := self._ids.get()) is not None:
                    pipe.write(("\n".join(oids) + "\n").encode("ascii"))
                    pipe.flush()
            finally:
                pipe.close()

    def _read(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out = proc.stdout.fileno()
        _grow_pipe(out)
        errors = _Drain(proc.stderr)
        buf = bytearray()
        total = 0
        try:
            while chunk := os.read(out, 1 << 20):
                buf += chunk
                total += len(chunk)
                if len(buf) >= 1 << 20:  # search in large pieces: each key is one pass
                    self._search(buf)
                elif len(chunk) < _SMALL_READ and total >= _LARGE_OUTPUT:
                    # cat-file writes each blob on its own: on a large search, waking up
                    # for every one costs more CPU than cat-file itself (measured); let the
                    # pipe fill a little
                    time.sleep(0.001)
            self._search(buf)
        except (OSError, ValueError) as exc:
            self._failed = str(exc)
            return
        finally:
            self._stderr = errors.wait()
        if buf:
            self._failed = "its output ended inside a record"

    def _search(self, buf: bytearray) -> None:
        """Search the whole records at the start of ``buf``, and drop them."""
        del buf[: _search_batch(buf, self._needles, self._prefix, self._found)]

    def finish(self) -> set[str]:
        """The ids given to :meth:`add` that hold a needle or start with the prefix, or that
        name no blob.

        Raises:
            GitError: cat-file failed.
        """
        proc = self._proc
        if proc is None:
            return set()
        self._ids.put(None)
        for t in self._threads:
            t.join()
        if proc.wait() != 0 or self._failed:
            last = self._stderr.decode("utf-8", "replace").strip().splitlines()
            why = last[-1] if last else self._failed or f"exit {proc.returncode}"
            raise GitError(f"git cat-file failed: {why}")
        self._close()
        return self._found

    def abort(self) -> None:
        """Stop the process and the threads (an error elsewhere: the answer is not needed)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        self._ids.put(None)
        for t in self._threads:
            t.join()
        proc.wait()
        self._close()

    def _close(self) -> None:
        assert self._proc is not None
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()


@frozen
class CommitInfo:
    """One commit object: id, tree, parents, author and committer names, raw message,
    and the committer time (Unix seconds; 0 when unreadable)."""

    id: str
    tree: str
    parents: tuple[str, ...]
    author: str
    committer: str
    message: str
    committed_at: int = 0


def _ident_name(value: str) -> str:
    return value.split(" <", 1)[0]


def _ident_time(value: str) -> int:
    parts = value.rsplit(" ", 2)
    try:
        return int(parts[-2]) if len(parts) == 3 else 0
    except ValueError:
        return 0


def parse_commit(oid: str, data: bytes) -> CommitInfo | None:
    """Parse a raw commit object; None when ``data`` is not one (no ``tree`` header)."""
    head, _, body = data.partition(b"\n\n")
    fields: dict[str, list[str]] = {}
    for line in head.split(b"\n"):
        if line.startswith(b" "):
            continue  # continuation of a multi-line header (gpgsig, mergetag)
        key, _, value = line.partition(b" ")
        fields.setdefault(key.decode("ascii", "replace"), []).append(
            value.decode("utf-8", "replace")
        )
    if "tree" not in fields:
        return None
    return CommitInfo(
        id=oid,
        tree=fields["tree"][0],
        parents=tuple(fields.get("parent", ())),
        author=_ident_name(fields.get("author", [""])[0]),
        committer=_ident_name(fields.get("committer", [""])[0]),
        committed_at=_ident_time(fields.get("committer", [""])[0]),
        message=body.decode("utf-8", "replace"),
    )


def _is_full_id(name: str) -> bool:
    return len(name) in (40, 64) and not name.strip("0123456789abcdef")


#: What :meth:`Repository.gentle_config` reads in its one ``git config`` process.
_PRELOAD_REGEXP = r"^(gentle\.|diff\.(algorithm|submodule|orderfile)$|remote\..*\.url$)"
#: The keys among those that :meth:`Repository.config_get` answers from it.
_PRELOADED = re.compile(r"^(diff\.(algorithm|submodule|orderfile)|remote\..*\.url)$")


def _canonical_key(key: str) -> str:
    """A config key as ``git config --get-regexp`` prints it: section and variable
    lower-cased, a subsection kept as written."""
    section, _, rest = key.partition(".")
    sub, _, var = rest.rpartition(".")
    return f"{section.lower()}.{sub}.{var.lower()}" if sub else f"{section.lower()}.{var.lower()}"


def check_ref_name(ref: str, what: str) -> None:
    """Refuse what cannot be one ref: empty, option-like, control characters, a range.

    Raises:
        GitError: with the fix (a range names its left side as the single ref to pass).
    """
    if not ref or ref.startswith("-") or any(c in ref for c in "\0\n\r"):
        raise GitError(f"{what} {ref!r} is not a valid ref name")
    if ref.startswith("^") or ref.endswith(("^@", "^!", "^-")):
        raise GitError(
            f"{what} {ref!r} is range syntax; pass a single ref, e.g. "
            f"{ref.lstrip('^').split('^@')[0].split('^!')[0] or 'HEAD'!r}"
        )
    if ".." in ref:
        left = ref.split("..")[0] or "HEAD"
        raise GitError(f"{what} {ref!r} is a range; pass a single ref, e.g. {left!r}")


#: Pathspecs taken as they are, whatever the caller's environment asks (a hook may inherit
#: ``GIT_GLOB_PATHSPECS``; git refuses ``literal`` with any other global setting).
_LITERAL_PATHSPECS = {
    "GIT_LITERAL_PATHSPECS": "1",
    "GIT_GLOB_PATHSPECS": "0",
    "GIT_NOGLOB_PATHSPECS": "0",
    "GIT_ICASE_PATHSPECS": "0",
}


#: Once this much was read from cat-file, a read of less than _SMALL_READ is followed by a
#: short pause (see BlobSearch._read).
_LARGE_OUTPUT = 256 * 1024
_SMALL_READ = 16 * 1024


class _Drain:
    """Read a pipe to its end in a thread (a child's stderr, which must not fill up while
    its stdout is read)."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self._pipe = pipe
        self._data = b""
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._data = self._pipe.read()

    def wait(self) -> bytes:
        """Everything read, once the pipe ended."""
        self._thread.join()
        return self._data


def _grow_pipe(fd: int) -> None:
    """Let a pipe hold 1 MiB where the system allows it (Linux), so its writer seldom
    waits for the reader (to wake up, or to finish with what it read)."""
    with contextlib.suppress(ImportError, AttributeError, OSError):  # not Linux, or too large
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)


def _search_batch(buf: bytearray, needles: Sequence[bytes], prefix: bytes, found: set[str]) -> int:
    """Read the complete ``cat-file --batch`` records at the start of ``buf``; add to
    ``found`` the ids whose content holds a needle or starts with ``prefix``, and those that
    name no blob. Returns how many bytes were read (whole records only).

    Each needle is one pass over the buffer: fewer, shorter keys that every needle contains
    (:func:`~gentle_hooks.native.prefilter.search_keys`) are looked for instead, and a blob where
    one is found is then searched for the needles themselves.
    """
    starts: list[int] = []  # content of each blob: buf[starts[k]:ends[k]]
    ends: list[int] = []
    heads: list[int] = []  # where its header (and id) begins
    pos = 0
    size = len(buf)
    while (eol := buf.find(b"\n", pos)) >= 0:
        gap = buf.find(b" ", pos, eol)
        if gap >= 0 and buf.startswith(b" blob ", gap):  # "<id> blob <size>"
            end = eol + 1 + int(buf[gap + 6 : eol])
            if end >= size:  # then a newline: not all here yet
                break
            if prefix and buf.startswith(prefix, eol + 1):
                found.add(buf[pos:gap].decode("ascii"))
            else:
                starts.append(eol + 1)
                ends.append(end)
                heads.append(pos)
            pos = end + 1
            continue
        # "<id> missing" / "<id> ambiguous", or another type: nothing is known of it
        fields = bytes(buf[pos:eol]).split(b" ")
        if len(fields) == 3:
            end = eol + 1 + int(fields[2])
            if end >= size:
                break
            found.add(fields[0].decode("ascii", "replace"))
            pos = end + 1
        else:
            found.add(fields[0].decode("ascii", "replace"))
            pos = eol + 1
    if starts and needles:
        checked: set[int] = set()
        last = ends[-1]
        for key in search_keys(tuple(needles)):
            at = buf.find(key, starts[0], last)
            while at >= 0:
                k = bisect.bisect_right(starts, at) - 1
                if k < 0 or at + len(key) > ends[k]:  # across a record boundary
                    at = buf.find(key, at + 1, last)
                    continue
                if k not in checked:
                    checked.add(k)
                    content = bytes(buf[starts[k] : ends[k]])
                    if any(n in content for n in needles):
                        head = heads[k]
                        found.add(buf[head : buf.index(b" ", head)].decode("ascii"))
                at = buf.find(key, ends[k], last)
    return pos


def _git(
    args: Sequence[str], cwd: str, env: Mapping[str, str], input: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=env,
            input=input,
            capture_output=True,
            check=False,
            stdin=None if input is not None else subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise GitError("git is not on PATH; install git") from None


def _private_copy(src: str, directory: str) -> str:
    """A new file holding ``src``'s bytes with its access and modification times, or a
    path where none exists yet when ``src`` does not exist; its path.

    Created exclusively (``O_EXCL``, mode 0600) in ``directory``, else in the temporary
    directory. Plain ``os`` calls: :mod:`shutil` and :mod:`tempfile` cost ≈ 5 ms to import
    on the hook path (issue 8).

    Raises:
        OSError: neither directory takes a file, or ``src`` cannot be read.
    """
    try:
        fd, path = _exclusive_file(directory)
    except OSError:
        import tempfile

        fd, path = tempfile.mkstemp(prefix="gentle-hooks-index-")
    try:
        try:
            src_fd = os.open(src, os.O_RDONLY)
        except FileNotFoundError:
            os.close(fd)
            os.unlink(path)  # git creates the index it needs
            return path
        try:
            st = os.fstat(src_fd)
            done = 0
            while done < st.st_size:
                sent = os.sendfile(fd, src_fd, done, st.st_size - done)
                if sent == 0:
                    break
                done += sent
        finally:
            os.close(src_fd)
        os.close(fd)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    except BaseException:
        if os.path.exists(path):
            os.unlink(path)
        raise
    return path


def _exclusive_file(directory: str) -> tuple[int, str]:
    for _ in range(16):
        path = os.path.join(directory, f"gentle-hooks-index-{os.getpid()}-{os.urandom(6).hex()}")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(directory)


def _split_echoed(out: bytes, pairs: Sequence[tuple[str, str]], end: bytes) -> list[bytes] | None:
    """Cut ``git diff-tree --stdin -U0`` (patch) output into one chunk per input pair.

    Each pair's output follows its echoed input line ``<base> <tree>\\n``: a whole line,
    which no patch line can be (every patch line has a prefix — ``diff --git``, ``+``, ``@@``
    … — and git C-quotes a path holding a newline there). None when an echo is not found
    in order (the caller then diffs pair by pair).
    """
    starts: list[tuple[int, int]] = []
    pos = 0  # where the next echo begins when the previous pair printed nothing
    for a, b in pairs:
        echo = f"{a} {b}\n".encode()
        if out.startswith(echo, pos):
            i = pos
        else:
            j = out.find(end + echo, pos)
            if j < 0:
                return None
            i = j + len(end)
        if not starts and i != 0:
            return None  # something before the first echo
        pos = i + len(echo)
        starts.append((i, pos))
    chunks = []
    for k, (_, body) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else len(out)
        chunks.append(out[body:stop])
    return chunks


def _split_echoed_records(out: bytes, pairs: Sequence[tuple[str, str]]) -> list[bytes] | None:
    """Cut ``git diff-tree --stdin -z --raw --numstat`` output into one chunk per pair.

    Walked record by record, so an echo line (``<base> <tree>\\n``) is recognised only where
    a record starts; a path is never taken for one, whatever bytes it holds. Raw records are
    ``:<modes> <ids> <status>`` then one path, two for a rename or copy (``R``/``C``);
    numstat records are ``<added>\\t<deleted>\\t<path>``, or an empty path then two paths
    for a rename or copy; every field ends with NUL. None when the output does not read so
    (the caller then diffs pair by pair).
    """
    echoes = [f"{a} {b}\n".encode() for a, b in pairs]
    chunks: list[bytes] = []
    start = -1  # where the current pair's records begin; -1 before the first echo
    pos, size = 0, len(out)
    while pos < size:
        if len(chunks) + (start >= 0) < len(echoes):
            echo = echoes[len(chunks) + (start >= 0)]
            if out.startswith(echo, pos):
                if start >= 0:
                    chunks.append(out[start:pos])
                pos = start = pos + len(echo)
                continue
        if start < 0:
            return None  # output before the first echo
        stop = out.find(b"\0", pos)
        if stop < 0:
            return None
        head = out[pos:stop]
        if head.startswith(b":"):
            paths = 2 if head.rsplit(b" ", 1)[-1][:1] in (b"R", b"C") else 1
        else:
            fields = head.split(b"\t", 2)
            if len(fields) != 3:
                return None
            paths = 2 if fields[2] == b"" else 0
        pos = stop + 1
        for _ in range(paths):
            stop = out.find(b"\0", pos)
            if stop < 0:
                return None
            pos = stop + 1
    if start < 0:
        return None
    chunks.append(out[start:])
    return chunks if len(chunks) == len(echoes) else None


def _popen(
    args: Sequence[str], cwd: str, env: Mapping[str, str], stdin: bool = False
) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except FileNotFoundError:
        raise GitError("git is not on PATH; install git") from None


def _probe(start: str, env: Mapping[str, str]) -> RepoPaths | None:
    proc = _git(
        [
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
        ],
        start,
        env,
    )
    lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 6 or lines[0] not in ("true", "false"):
        return None
    bare = lines[0] == "true"
    toplevel = lines[6] if proc.returncode == 0 and len(lines) > 6 and lines[6] else None
    return RepoPaths(
        toplevel=None if bare else toplevel,
        git_dir=lines[3],
        common_dir=os.path.normpath(lines[4]),
        index_file=lines[5],
        object_format=lines[2],
        is_bare=bare,
        is_shallow=lines[1] == "true",
    )
