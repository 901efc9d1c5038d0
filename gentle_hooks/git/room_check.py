"""What a clean room holds now against the tree it was exported from (SPEC §9; seed 001
"Hand over a clean room").

Room ``git``. A room is a directory :meth:`~gentle_hooks.git.room_export.RoomExport.export_tree`
made; a check run there may have changed anything in it. :class:`RoomChecks` reads it back:

* :meth:`RoomChecks.room_changes` — the paths of a tree whose files in a room no longer
  hold what the tree does, hashed from the files themselves, so nothing a check did to the
  room's index, HEAD or config (``update-index --assume-unchanged``, ``--skip-worktree``)
  hides an edit; :meth:`RoomChecks.room_additions` — the files a check added;
* :meth:`RoomChecks.room_tree` — the tree ``git add -A`` would stage in such a directory,
  computed in a private copy of its index, so a room whose files were edited is told apart
  from one that still holds the candidate exactly; :meth:`RoomChecks.room_state` names the
  edited and the added paths, and :meth:`RoomChecks.clear_room` removes the added ones;
  :meth:`RoomChecks.room_commits` counts the commits made in it.
"""

from __future__ import annotations

import os

from gentle_hooks.errors import GitError
from gentle_hooks.git.objects import Objects
from gentle_hooks.git.process import run_git, scrubbed_env
from gentle_hooks.git.room_export import room_git


class RoomChecks(Objects):
    """Reads of a clean room's directory, compared with this repository's trees."""

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
            room_git(dest, ["add", "-A", "--", ":/"], env=env)
            return (
                room_git(dest, ["write-tree"], env=env).decode("utf-8", "surrogateescape").strip()
            )
        finally:
            for path in (tmp, tmp + ".lock"):
                if os.path.exists(path):
                    os.unlink(path)

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
        for mode, kind, oid, path in self.tree_entries(tree):
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
        held = {path for _, _, _, path in self.tree_entries(tree)}
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

    def room_commits(self, dest: str) -> int:
        """How many commits the room ``dest``'s HEAD holds: 1 as it was exported, more
        once someone committed in it.

        Raises:
            GitError: ``dest`` is not a room, or git failed.
        """
        return int(room_git(dest, ["rev-list", "--count", "HEAD"]).strip() or b"0")

    def room_state(self, dest: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """What the room ``dest`` holds against its one commit.

        Returns:
            (the commit's tree, tracked paths edited or deleted since, paths added that
            git does not track: untracked and ignored files, such as caches a check left).

        Raises:
            GitError: ``dest`` is not a room, or git failed.
        """
        tree = (
            room_git(dest, ["rev-parse", "HEAD^{tree}"]).decode("utf-8", "surrogateescape").strip()
        )
        out = room_git(
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
        room_git(dest, ["clean", "-f", "-d", "-x", "-q"])
