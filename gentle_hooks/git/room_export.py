"""One tree of this repository exported as a standalone repository: the verifier's clean
room (SPEC §9; seed 001 "Hand over a clean room").

Room ``git``. :meth:`RoomExport.export_tree` runs ``git init`` in a new directory, copies in
only the objects of that one tree (``rev-list --objects`` piped through ``pack-objects`` and
``index-pack``), writes its files byte for byte (no end-of-line conversion or filter) and
commits it once. Nothing else of this repository goes along: no refs, notes, hooks,
config, reflogs, other objects, and not the gentle-hooks ledger under the common git dir;
no alternates point back here. What a room holds afterwards is read by
:mod:`gentle_hooks.git.room_check`.

Children working in a room get :func:`~gentle_hooks.git.process.scrubbed_env`: a hook's
``GIT_DIR``/``GIT_INDEX_FILE`` never reach them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.errors import EXIT_BLOCKED, GentleError, GitError
from gentle_hooks.git.objects import Objects
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


def room_git(
    dest: str,
    args: Sequence[str],
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """Run ``git <args>`` in the room ``dest`` with a scrubbed environment (the process's,
    without the variables that bind git to a repository); its stdout. Past ``init``, git
    is bound to ``dest/.git`` and ``dest`` (``GIT_DIR``, ``GIT_WORK_TREE``), so a
    ``core.worktree`` a check wrote to the room's config never points ``clean -fdx`` at
    another tree, and a ``.git`` that is not the room's own directory (a link, a
    ``gitdir:`` file) is refused.

    Raises:
        GitError: ``dest/.git`` is not a directory; git failed (its last stderr line is kept).
    """
    full = {**scrubbed_env(), **(env or {})}
    if not args or args[0] != "init":
        git_dir = os.path.join(dest, ".git")
        if os.path.islink(git_dir) or not os.path.isdir(git_dir):
            raise GitError(f"{git_dir}: not the clean room's own git directory; prepare a new room")
        full.update(GIT_DIR=git_dir, GIT_WORK_TREE=dest)
    proc = run_git(args, dest, full, input)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"clean room: git {args[0]} failed: {err[-1] if err else proc.returncode}")
    return proc.stdout


class RoomExport(Objects):
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
            GentleError (exit 1): a symbolic link of ``tree`` resolves outside ``dest``
                (:func:`_refuse_outward_links`).
        """
        if os.path.exists(dest) and os.listdir(dest):
            raise GitError(f"{dest}: not empty; a clean room starts from nothing")
        os.makedirs(dest, exist_ok=True)
        fmt = self.paths.object_format
        room_git(dest, ["init", "-q", "--template=", f"--object-format={fmt}", "."])
        if tree != self.empty_tree:
            ids = self.run(["rev-list", "--objects", "--no-object-names", tree]).stdout
            pack = self.run(["pack-objects", "--stdout", "-q"], input=ids).stdout
            room_git(dest, ["index-pack", "--stdin"], input=pack)
        room_git(dest, ["read-tree", tree])  # refuses paths git would never check out
        self._write_files(tree, dest)
        _refuse_outward_links(dest)
        room_git(dest, ["update-index", "-q", "--refresh"])
        commit = (
            room_git(dest, ["commit-tree", tree, "-m", message], env=ROOM_IDENTITY)
            .decode("utf-8", "surrogateescape")
            .strip()
        )
        room_git(dest, ["update-ref", ROOM_BRANCH, commit])
        room_git(dest, ["symbolic-ref", "HEAD", ROOM_BRANCH])
        return commit

    def _write_files(self, tree: str, dest: str) -> None:
        """Write ``tree``'s files into ``dest`` byte for byte: no end-of-line conversion,
        no filter, whatever the tree's ``.gitattributes`` say, so every file holds exactly
        its blob (:meth:`~gentle_hooks.git.room_check.RoomChecks.room_changes` compares them
        with the blobs); executables are mode 755, symbolic links links, submodules empty
        directories."""
        entries = self.tree_entries(tree)
        oids = sorted({oid for _, kind, oid, _ in entries if kind == "blob"})
        blobs = self.read_blobs(oids)
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


def _refuse_outward_links(dest: str) -> None:
    """Raises GentleError (exit 1): a symbolic link under ``dest`` resolves (through any
    other link, as the kernel would) outside ``dest``: ``ext -> /home/me/repo``,
    ``up -> ../..``. A check given it (``pytest -q ext``) would observe another tree than
    the candidate's; the room is not made rather than the link rewritten (the tree would
    no longer be the candidate's)."""
    top = os.path.realpath(dest)
    for where, dirs, files in os.walk(dest):
        if where == dest and ".git" in dirs:
            dirs.remove(".git")
        for name in (*dirs, *files):
            full = os.path.join(where, name)
            if not os.path.islink(full):
                continue
            real = os.path.realpath(full)
            if real != top and not real.startswith(top + os.sep):
                rel = os.path.relpath(full, dest)
                raise GentleError(
                    f"the candidate's symbolic link {rel} -> {os.readlink(full)} leads "
                    "outside its tree: a check would observe another tree than the "
                    "candidate's; make the link relative and inside the tree, or remove it",
                    exit_code=EXIT_BLOCKED,
                )
