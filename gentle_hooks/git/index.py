"""Index projections (SPEC §3 "Candidate tree"): the staged tree, the snapshot tree, and
which index git handed a hook. The user's index is never written: every projection runs
against a private copy.

Room ``git``.
"""

from __future__ import annotations

import os
from collections import namedtuple
from collections.abc import Mapping, Sequence

from gentle_hooks.bounded import WriteError, remove_files, residue, sweep
from gentle_hooks.errors import GitError, quoted, shown_field
from gentle_hooks.git.core import RepositoryCore
from gentle_hooks.git.process import popen_git

#: The name of a hook's private index copy, up to its owner's process id.
INDEX_PREFIX = "gentle-hooks-index-"


TYPE_CHECKING = False  # typing's NamedTuple costs ~10 ms to import on every gate
if TYPE_CHECKING:
    import subprocess
    from typing import NamedTuple

    #: :meth:`Index.start_staged_tree`'s private index copy and its ``write-tree`` process.
    StagedTree = tuple[str, subprocess.Popen[bytes]]

    class Restaging(NamedTuple):
        unstage: tuple[str, ...] = ()
        stage: tuple[str, ...] = ()
        kept: tuple[str, ...] = ()
        source: str = ""

else:
    Restaging = namedtuple(
        "Restaging", ("unstage", "stage", "kept", "source"), defaults=((), (), (), "")
    )
Restaging.__doc__ = """The git commands' paths that make the own index hold a tree
(:meth:`Index.restaging`).

Attributes:
    unstage: paths ``git reset -q --`` puts back to HEAD; stage: paths ``git add -A --``
    stages; kept: the paths to put back staged (every unstaged one); source: a tree holding
    the own index as it was (``git restore --staged --source=<source>`` puts ``kept``
    back), "" when ``kept`` is empty.
"""


class Index(RepositoryCore):
    """Index projections of a repository."""

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

    def _with_index_copy(self, args_list: Sequence[Sequence[str]], *, unhide: bool = False) -> str:
        """Run git commands against a private copy of the effective index; return the
        stdout of the last one. The user's index is never written.

        The copy keeps the original's mtime: git's racy-clean check compares entries with
        it (a same-size edit in the same second would otherwise be invisible). It lives in
        the git dir, as git's own temporary indexes do, else in the temporary directory.
        ``unhide``: first clear the copy's flags that hide edits (:meth:`_unhide`).
        """
        tmp = _private_copy(self.paths.index_file, self.paths.git_dir)
        try:
            if unhide:
                self._unhide({"GIT_INDEX_FILE": tmp})
            out = ""
            for args in args_list:
                out = self.out(args, env={"GIT_INDEX_FILE": tmp})
            return out
        finally:
            for path in (tmp, tmp + ".lock"):
                if os.path.exists(path):
                    os.unlink(path)

    def _unhide(self, env: Mapping[str, str]) -> None:
        """Clear, in the index ``env`` names (a private copy), the flags that make git skip a
        file of the work tree: ``assume-unchanged`` on every entry, ``skip-worktree`` on
        entries whose file is there (a sparse checkout's absent files keep it: they are not
        deleted). Then ``add -A`` stages what the files hold, as the work tree is."""
        listed = self.run(["ls-files", "-v", "-z"], env=env).stdout
        assumed: list[bytes] = []
        skipped: list[bytes] = []
        root = self.paths.toplevel or ""
        for rec in listed.split(b"\0"):
            tag, path = rec[:1], rec[2:]
            if not path:
                continue
            if tag.islower():
                assumed.append(path)
            if tag in (b"S", b"s") and os.path.lexists(os.path.join(os.fsencode(root), path)):
                skipped.append(path)
        # one flag per update-index: given both, git applies only the last
        for flag, paths in (("--no-assume-unchanged", assumed), ("--no-skip-worktree", skipped)):
            if paths:
                stdin = b"".join(p + b"\0" for p in paths)
                self.run(["update-index", flag, "-z", "--stdin"], input=stdin, env=env)

    def restaging(self, tree: str, limit: int = 40) -> Restaging | None:
        """How the worktree's own index comes to hold exactly ``tree`` (the index a
        ``commit -a`` or ``commit <paths>`` handed a hook) without losing what is staged
        (:class:`Restaging`): the paths ``git reset -q --`` puts back to HEAD (``tree``
        has them as HEAD does), the paths ``git add -A --`` stages, and, when it unstages
        any, those same paths again and a tree holding the own index as it was (``git
        restore --staged --source=<tree>`` puts every one back staged: a deletion, both
        sides of a rename, a modification, an addition).
        ``Restaging()`` when it holds ``tree`` already; None when no such steps reach it
        (HEAD is unborn) or more than ``limit`` paths differ. Tried on a private copy of
        the own index: the user's is never written (the kept tree is written as objects).

        Raises:
            GitError: the own index has unmerged entries (its tree cannot be written).
        """
        tmp = _private_copy(os.path.join(self.paths.git_dir, "index"), self.paths.git_dir)
        env = {"GIT_INDEX_FILE": tmp, "GIT_LITERAL_PATHSPECS": "1"}

        def names(args: list[str]) -> tuple[str, ...]:
            cmd = [args[0], "--name-only", "-z", "--no-renames", *args[1:]]
            out = self.run(cmd, env=env).stdout
            return tuple(os.fsdecode(p) for p in out.split(b"\0") if p)

        kept: tuple[str, ...] = ()
        source = ""
        try:
            differ = names(["diff-index", "--cached", tree])
            if not differ or len(differ) > limit:
                return None if differ else Restaging()
            moved = set(names(["diff-tree", "-r", "HEAD", tree, "--", *differ]))
            unstage = tuple(p for p in differ if p not in moved)
            stage = tuple(p for p in differ if p in moved)
            if unstage:  # every set-aside path is put back staged from the kept tree
                kept, source = unstage, self.out(["write-tree"], env=env)
                self.run(["reset", "-q", "--", *unstage], env=env)
            if stage:
                self.run(["add", "-A", "--", *stage], env=env)
            got = self.out(["write-tree"], env=env)
        finally:
            for path in (tmp, tmp + ".lock"):
                if os.path.exists(path):
                    os.unlink(path)
        return Restaging(unstage, stage, kept, source) if got == tree else None

    def tree_without(self, tree: str, paths: Sequence[str]) -> str:
        """``tree`` with the files ``paths`` (relative to the top) left out, written as a
        tree; built in a private index (the user's is never written).

        Raises:
            GitError: git failed (a tree id that does not exist here).
        """
        if not paths:
            return tree
        literal = [f":(top,literal){p}" for p in paths]
        rm = ["rm", "--cached", "-f", "-q", "--ignore-unmatch", "--", *literal]
        return self._with_index_copy([["read-tree", tree], rm, ["write-tree"]])

    def staged_tree(self) -> str:
        """The index git hands us (``GIT_INDEX_FILE`` in a hook) written as a tree.

        Raises:
            GitError: the index cannot be written as a tree, in one line: unmerged entries
                (a conflict in progress) say so, with the command that lists them; any
                other failure (an entry naming an object the repository lacks, a corrupt
                index, an object database refusing writes) names the index file and
                git's own reason.
        """
        return self.finish_staged_tree(self.start_staged_tree())

    def start_staged_tree(self) -> StagedTree:
        """Start the ``git write-tree`` of :meth:`staged_tree` (on a private copy of the
        index), so that git writes while the caller does other work; hand what it returns
        to :meth:`finish_staged_tree`, which removes the copy.

        Raises:
            GitError: git is not on PATH (the copy removed); WriteError: as
                :func:`_private_copy`.
        """
        tmp = _private_copy(self.paths.index_file, self.paths.git_dir)
        try:
            env = {**self.env, "GIT_INDEX_FILE": tmp}
            self._will_run(["write-tree"])
            proc = popen_git(["write-tree"], self.paths.toplevel or self.paths.git_dir, env)
        except BaseException:
            _remove_copy(tmp)
            raise
        return tmp, proc

    def abandon_staged_tree(self, started: StagedTree) -> None:
        """Stop what :meth:`start_staged_tree` started (killed and reaped) and remove the
        private copy: the caller no longer needs the tree."""
        tmp, proc = started
        try:
            proc.kill()
            proc.communicate()
        finally:
            _remove_copy(tmp)

    def finish_staged_tree(self, started: StagedTree) -> str:
        """The tree :meth:`start_staged_tree` started writing (see :meth:`staged_tree`,
        whose errors it raises); the private copy is removed."""
        tmp, started_proc = started
        try:
            stdout, stderr = started_proc.communicate()
            if started_proc.returncode == 0:
                return stdout.decode("utf-8", "surrogateescape").strip()
            env = {"GIT_INDEX_FILE": tmp}
            unmerged = self.run(["ls-files", "--unmerged", "-z"], env=env, ok=range(256))
        finally:
            _remove_copy(tmp)
        if unmerged.returncode == 0 and unmerged.stdout:
            raise GitError(
                "the index has unmerged paths (a conflict in progress): resolve each and "
                "git add it; git diff --name-only --diff-filter=U lists them"
            )
        lines = stderr.decode("utf-8", "surrogateescape").strip().splitlines()
        # git's first error names the entry or the file; its last says "error building trees"
        reason = next((x for x in lines if x.startswith(("error: ", "fatal: "))), "")
        if any(word in x for x in lines for word in ("insufficient permission", "denied")):
            reason = self._write_refusal() or reason
        # git names the private copy it read: name the index it was copied from
        reason = reason.removeprefix("error: ").removeprefix("fatal: ").replace(f"{tmp}: ", "")
        raise GitError(
            f"the index {quoted(self.paths.index_file)} cannot be written as a tree: "
            f"{shown_field(reason or f'git write-tree exited {started_proc.returncode}')}"
        )

    def snapshot_tree(self) -> str:
        """The working state as ``git add -A`` would stage it, as a tree.

        Tracked and untracked non-ignored files, built in a temporary index. An edit the
        index was told to ignore (``update-index --assume-unchanged`` or
        ``--skip-worktree`` on a file that is there) is in the snapshot: the flags are
        cleared in the copy first, so the candidate is what the work tree holds.
        """
        return self._with_index_copy([["add", "-A", "--", ":/"], ["write-tree"]], unhide=True)

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


def _private_copy(src: str, directory: str) -> str:
    """A new file holding ``src``'s bytes with its access and modification times, or a
    path where none exists yet when ``src`` does not exist; its path.

    Created exclusively (``O_EXCL``, mode 0600) in ``directory``, else in the temporary
    directory. Plain ``os`` calls: :mod:`shutil` and :mod:`tempfile` cost ≈ 5 ms to import
    on the hook path.

    Raises:
        OSError: neither directory takes a file.
        WriteError: ``src`` cannot be read or the copy cannot be written (a full disk);
            the message names the copy and ``src``.
    """
    # A hook killed before it removed its copy left one here; the next one removes it.
    sweep(directory, INDEX_PREFIX)
    try:
        fd, path = _exclusive_file(directory)
    except OSError:
        import tempfile

        # named with the pid as in the git directory, so the next run (or doctor) can
        # tell a killed run's copy, and git's .lock beside it, from a live one's
        remove_files(temp_index_residue())
        fd, path = _exclusive_file(tempfile.gettempdir())
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
    except BaseException as exc:
        if os.path.exists(path):
            os.unlink(path)
        if isinstance(exc, OSError):
            # os.sendfile's error names no file: say which copy could not be written
            reason = exc.strerror or str(exc)
            raise WriteError(f"{path}: cannot copy the index {src}: {reason}") from None
        raise
    return path


def _remove_copy(tmp: str) -> None:
    """Remove a private index copy and the ``.lock`` git may have left beside it."""
    for path in (tmp, tmp + ".lock"):
        if os.path.exists(path):
            os.unlink(path)


def temp_index_residue() -> list[str]:
    """This user's index copies (and git's ``.lock`` beside them) that killed runs left in
    the system's temporary directory, where a copy goes when the git directory refuses
    it (:func:`gentle_hooks.bounded.residue`); never another user's."""
    import tempfile

    out = []
    for path in residue(tempfile.gettempdir(), INDEX_PREFIX):
        try:
            if os.lstat(path).st_uid == os.getuid():
                out.append(path)
        except OSError:
            continue
    return out


def _exclusive_file(directory: str) -> tuple[int, str]:
    for _ in range(16):
        path = os.path.join(directory, f"{INDEX_PREFIX}{os.getpid()}-{os.urandom(6).hex()}")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(directory)
