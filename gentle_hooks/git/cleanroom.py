"""The verifier's clean room in git terms (SPEC §9; seed 001 "Hand over a clean room").

Room ``git``. :class:`CleanRooms` turns one tree of this repository into a standalone
repository in another directory, and reads back which tree that directory holds:

* :meth:`CleanRooms.export_tree` — ``git init`` a new repository, copy in only the objects
  of that one tree (``rev-list --objects`` piped through ``pack-objects`` and
  ``index-pack``), write its files byte for byte (no end-of-line conversion or filter)
  and commit it once. Nothing else of this repository goes
  along: no refs, notes, hooks, config, reflogs, other objects, and not the gentle-hooks
  ledger under the common git dir; no alternates point back here.
* :meth:`CleanRooms.room_changes` — the paths of a tree whose files in a room no longer
  hold what the tree does, hashed from the files themselves, so nothing a check did to the
  room's index, HEAD or config (``update-index --assume-unchanged``, ``--skip-worktree``)
  hides an edit;
* :meth:`CleanRooms.room_tree` — the tree ``git add -A`` would stage in such a directory,
  computed in a private copy of its index, so a room whose files were edited is told apart
  from one that still holds the candidate exactly; :meth:`CleanRooms.room_state` names the
  edited and the added paths, and :meth:`CleanRooms.clear_room` removes the added ones.
* :meth:`CleanRooms.is_ignored` / :meth:`CleanRooms.exclude_locally` — whether a path is
  ignored here, and adding a pattern to ``info/exclude`` (the clone's own ignore file,
  never committed), so artifacts written into the work tree do not change its candidate.

Children working in a room get :func:`~gentle_hooks.git.process.scrubbed_env`: a hook's
``GIT_DIR``/``GIT_INDEX_FILE`` never reach them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.core import RepositoryCore
from gentle_hooks.git.process import run_git, scrubbed_env

#: Who commits a room's one commit, and when: fixed, so the same tree gives the same commit.
ROOM_IDENTITY: Mapping[str, str] = {
    "GIT_AUTHOR_NAME": "gentle-hooks clean room",
    "GIT_AUTHOR_EMAIL": "clean-room@gentle-hooks.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "gentle-hooks clean room",
    "GIT_COMMITTER_EMAIL": "clean-room@gentle-hooks.invalid",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
}

#: The branch a room's commit is on.
ROOM_BRANCH = "refs/heads/room"


def _room_git(
    dest: str,
    args: Sequence[str],
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """Run ``git <args>`` in the room ``dest`` with a scrubbed environment (the process's,
    without the variables that bind git to a repository); its stdout.

    Raises:
        GitError: git failed (its last stderr line is kept).
    """
    full = {**scrubbed_env(), **(env or {})}
    proc = run_git(args, dest, full, input)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"clean room: git {args[0]} failed: {err[-1] if err else proc.returncode}")
    return proc.stdout


class CleanRooms(RepositoryCore):
    """Standalone copies of one tree of this repository (the verifier's clean room)."""

    def export_tree(self, tree: str, dest: str, message: str) -> str:
        """Make ``dest`` a new repository holding exactly ``tree``, checked out.

        Args:
            tree: a tree id of this repository; dest: an absent or empty directory;
            message: the message of the room's one commit.

        Returns:
            The room's commit id (on :data:`ROOM_BRANCH`, checked out as HEAD; author,
            committer and dates :data:`ROOM_IDENTITY`).

        Raises:
            GitError: ``dest`` is not empty, or a git step failed.
        """
        if os.path.exists(dest) and os.listdir(dest):
            raise GitError(f"{dest}: not empty; a clean room starts from nothing")
        os.makedirs(dest, exist_ok=True)
        fmt = self.paths.object_format
        _room_git(dest, ["init", "-q", "--template=", f"--object-format={fmt}", "."])
        if tree != self.empty_tree:
            ids = self.run(["rev-list", "--objects", "--no-object-names", tree]).stdout
            pack = self.run(["pack-objects", "--stdout", "-q"], input=ids).stdout
            _room_git(dest, ["index-pack", "--stdin"], input=pack)
        _room_git(dest, ["read-tree", tree])  # refuses paths git would never check out
        self._write_files(tree, dest)
        _room_git(dest, ["update-index", "-q", "--refresh"])
        commit = (
            _room_git(dest, ["commit-tree", tree, "-m", message], env=ROOM_IDENTITY)
            .decode("utf-8", "surrogateescape")
            .strip()
        )
        _room_git(dest, ["update-ref", ROOM_BRANCH, commit])
        _room_git(dest, ["symbolic-ref", "HEAD", ROOM_BRANCH])
        return commit

    def room_tree(self, dest: str) -> str:
        """The tree the room ``dest`` holds now, as ``git add -A`` would stage it there
        (tracked and untracked files, the room's ignore rules), computed in a private copy
        of the room's index: the room is not changed.

        Raises:
            GitError: ``dest`` is not a room (no repository there), or git failed.
        """
        index = os.path.join(dest, ".git", "index")
        if not os.path.isfile(index):
            raise GitError(f"{dest}: not a clean room (no .git/index)")
        import tempfile  # off the gates: only a clean room needs a scratch index

        # in the room's git dir: removed with the room, whatever stops this process
        fd, tmp = tempfile.mkstemp(prefix="gentle-room-index-", dir=os.path.dirname(index))
        os.close(fd)
        try:
            import shutil  # off the gates: only a clean room copies an index

            shutil.copy2(index, tmp)
            env = {"GIT_INDEX_FILE": tmp}
            _room_git(dest, ["add", "-A", "--", ":/"], env=env)
            return (
                _room_git(dest, ["write-tree"], env=env).decode("utf-8", "surrogateescape").strip()
            )
        finally:
            for path in (tmp, tmp + ".lock"):
                if os.path.exists(path):
                    os.unlink(path)

    def _entries(self, tree: str) -> list[tuple[str, str, str, str]]:
        """(mode, type, object id, path) of every entry of ``tree``, recursively."""
        out = self.run(["ls-tree", "-r", "-z", "--full-tree", tree]).stdout
        entries = []
        for rec in out.split(b"\0"):
            if rec:
                meta, _, raw_path = rec.partition(b"\t")
                mode, kind, oid = meta.decode().split()
                entries.append((mode, kind, oid, raw_path.decode("utf-8", "surrogateescape")))
        return entries

    def _write_files(self, tree: str, dest: str) -> None:
        """Write ``tree``'s files into ``dest`` byte for byte: no end-of-line conversion,
        no filter, whatever the tree's ``.gitattributes`` say, so every file holds exactly
        its blob (:meth:`room_changes` compares them with the blobs); executables are
        mode 755, symbolic links links, submodules empty directories."""
        entries = self._entries(tree)
        oids = sorted({oid for _, kind, oid, _ in entries if kind == "blob"})
        data = self.run(["cat-file", "--batch"], input="".join(f"{o}\n" for o in oids).encode())
        blobs: dict[str, bytes] = {}
        pos = 0
        for oid in oids:
            end = data.stdout.index(b"\n", pos)
            size = int(data.stdout[pos:end].split(b" ")[2])
            blobs[oid] = data.stdout[end + 1 : end + 1 + size]
            pos = end + 2 + size
        for mode, kind, oid, path in entries:
            full = os.path.join(dest, path)
            if kind != "blob":
                os.makedirs(full, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(full), exist_ok=True)
            if mode == "120000":
                os.symlink(os.fsdecode(blobs[oid]), full)
                continue
            with open(full, "wb") as fh:
                fh.write(blobs[oid])
            os.chmod(full, 0o755 if mode == "100755" else 0o644)

    def room_changes(self, dest: str, tree: str) -> tuple[str, ...]:
        """The paths of ``tree`` whose file in the room ``dest`` no longer holds what the
        tree does: content, kind (file, executable, symlink) or presence.

        Read from this repository (``ls-tree`` of ``tree``) and the room's files, hashed
        here as git hashes a blob; never from the room's index, HEAD, config or attributes,
        which anything run in the room may have changed: an ``update-index
        --assume-unchanged`` or ``--skip-worktree``, an ``fsmonitor`` hook, a clean filter,
        a commit of the edit or a moved HEAD hide nothing. Files the tree does not hold
        (caches, outputs) are not changes; submodules are not read.

        Returns:
            The changed paths in tree order, empty when the room holds ``tree``'s files.

        Raises:
            GitError: git failed reading ``tree``.
        """
        import hashlib
        import stat

        algo = self.paths.object_format
        changed: list[str] = []
        for mode, kind, oid, path in self._entries(tree):
            if kind != "blob":
                continue
            full = os.path.join(dest, path)
            try:
                st = os.lstat(full)
                if mode == "120000":
                    data = os.fsencode(os.readlink(full)) if stat.S_ISLNK(st.st_mode) else None
                elif stat.S_ISREG(st.st_mode) and (mode == "100755") == bool(st.st_mode & 0o100):
                    with open(full, "rb") as fh:
                        data = fh.read()
                else:
                    data = None
            except OSError:
                data = None
            if data is None:
                changed.append(path)
                continue
            blob = hashlib.new(algo, b"blob %d\0" % len(data))
            blob.update(data)
            if blob.hexdigest() != oid:
                changed.append(path)
        return tuple(changed)

    def room_additions(self, dest: str, tree: str) -> tuple[str, ...]:
        """The files in the room ``dest`` that ``tree`` does not hold and the ``.gitignore``
        files of ``tree`` do not ignore: what a check added to the artifact.

        Read from the room's files (a walk of its directory, ``.git`` aside), so staging a
        file in the room hides nothing; a new ``.gitignore`` is always an addition (it would
        ignore itself), and ``core.excludesFile`` is not read. A pattern a check wrote to the
        room's ``info/exclude`` is reported as ``.git/info/exclude``.

        Returns:
            The added paths, sorted; empty when the room adds nothing to ``tree``.

        Raises:
            GitError: git failed.
        """
        held = {path for _, _, _, path in self._entries(tree)}
        found: list[str] = []
        for top, dirs, files in os.walk(dest):
            rel_top = os.path.relpath(top, dest)
            if rel_top == ".":
                dirs[:] = [d for d in dirs if d != ".git"]
            for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
                rel = name if rel_top == "." else os.path.join(rel_top, name)
                if rel not in held:
                    found.append(rel)
        added = sorted(p for p in found if os.path.basename(p) == ".gitignore")
        rest = [p for p in found if os.path.basename(p) != ".gitignore"]
        if rest:
            argv = ["-c", f"core.excludesFile={os.devnull}", "check-ignore", "--no-index"]
            proc = run_git(
                [*argv, "-z", "--stdin", "-v", "-n"],
                dest,
                scrubbed_env(),
                b"".join(os.fsencode(p) + b"\0" for p in rest),
            )
            if proc.returncode not in (0, 1):  # 1: no path is ignored
                raise GitError(f"clean room: git check-ignore failed: {proc.returncode}")
            out = proc.stdout
            # -v -n: one (source, line, pattern, path) record per path; an empty source is
            # a path no pattern matches, a "!pattern" one that un-ignores it
            rec = out.split(b"\0")
            for i in range(0, len(rec) - 3, 4):
                if not rec[i] or rec[i + 2].startswith(b"!"):
                    added.append(os.fsdecode(rec[i + 3]))
        exclude = os.path.join(dest, ".git", "info", "exclude")
        try:
            with open(exclude, encoding="utf-8", errors="surrogateescape") as fh:
                patterns = [
                    ln for ln in fh.read().splitlines() if ln.strip() and not ln.startswith("#")
                ]
        except OSError:
            patterns = []
        if patterns:
            added.append(".git/info/exclude")
        return tuple(sorted(set(added)))

    def room_state(self, dest: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """What the room ``dest`` holds against its one commit.

        Returns:
            (the commit's tree, tracked paths edited or deleted since, paths added that
            git does not track: untracked and ignored files, such as caches a check left).

        Raises:
            GitError: ``dest`` is not a room, or git failed.
        """
        tree = (
            _room_git(dest, ["rev-parse", "HEAD^{tree}"]).decode("utf-8", "surrogateescape").strip()
        )
        out = _room_git(
            dest, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored"]
        )
        edited: list[str] = []
        added: list[str] = []
        records = out.split(b"\0")
        i = 0
        while i < len(records):
            rec = records[i]
            i += 1
            if len(rec) < 4:
                continue
            status, path = rec[:2], rec[3:].decode("utf-8", "surrogateescape")
            if status in (b"??", b"!!"):
                added.append(path)
            else:
                edited.append(path)
                if status[:1] in (b"R", b"C"):
                    i += 1  # a rename's source path follows
        return tree, tuple(edited), tuple(added)

    def clear_room(self, dest: str) -> None:
        """Remove every file of the room ``dest`` git does not track (``git clean -fdx``):
        what a verifier's own runs left there (caches, outputs), so the next run starts on
        the commit's tree exactly.

        Raises:
            GitError: git failed.
        """
        _room_git(dest, ["clean", "-f", "-d", "-x", "-q"])

    def is_ignored(self, path: str) -> bool:
        """Whether git ignores ``path`` (relative to the work tree root) here: ``.gitignore``
        files, ``info/exclude`` and ``core.excludesFile``, as ``git check-ignore`` says."""
        proc = self.run(["check-ignore", "-q", "--no-index", "--", path], ok=(0, 1))
        return proc.returncode == 0

    def exclude_locally(self, pattern: str, comment: str) -> str:
        """Append ``pattern`` (after a ``# comment`` line) to this clone's ``info/exclude``
        unless it is there already; the file's path.

        Raises:
            GitError: the file cannot be written.
        """
        path = self.git_path("info/exclude")
        try:
            existing = ""
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                    existing = fh.read()
            if pattern in existing.splitlines():
                return path
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "a", encoding="utf-8", errors="surrogateescape") as fh:
                if existing and not existing.endswith("\n"):
                    fh.write("\n")
                fh.write(f"# {comment}\n{pattern}\n")
        except OSError as exc:
            raise GitError(f"{path}: cannot write: {exc.strerror}") from None
        return path
