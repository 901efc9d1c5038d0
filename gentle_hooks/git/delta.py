"""What a change did to each path, by blob id (SPEC §3 "Attribution follows content").

Room ``git``. Attribution compares blob ids and contents path by path, so renames are not
paired here (``--no-renames``): a renamed file is one path removed and one added, and the
writer's content at the new path is judged like any other. Also the blobs a writer left in
the work tree, hashed as ``git add`` would (filters applied, objects written so their
contents can be read back), and the blobs of paths in a tree.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from gentle_hooks.errors import GitError
from gentle_hooks.git.probe import STAGED_ARGS
from gentle_hooks.git.process import LITERAL_PATHSPECS, popen_git
from gentle_hooks.git.refs import Refs
from gentle_hooks.values.candidate import MODE_GITLINK, PathChange
from gentle_hooks.values.frozen import frozen

#: Beyond this many paths, a tree is listed whole rather than by pathspecs.
_MANY_PATHSPECS = 256
_RAW_FLAGS = ("-r", "--raw", "-z", "--no-abbrev", "--no-renames", "--ignore-submodules=none")

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess


@frozen
class BlobChange:
    """One path a change touched.

    Attributes:
        path: the path (decoded with :func:`os.fsdecode`); old_blob / new_blob: its blob
            id on each side, None where the path is absent or is a submodule commit;
        mode_changed: the path is on both sides and its mode differs (``chmod +x``),
            whether its blob changed too or not.
    """

    path: str
    old_blob: str | None
    new_blob: str | None
    mode_changed: bool = False


def parse_raw(data: bytes) -> list[BlobChange]:
    """Parse ``git diff-tree -r --raw -z --no-renames --no-abbrev`` output.

    Raises:
        GitError: output that does not have that shape.
    """
    out: list[BlobChange] = []
    fields = data.split(b"\0")
    if fields and fields[-1] == b"":
        fields.pop()
    if len(fields) % 2:
        raise GitError("unexpected output from git diff-tree --raw")
    for meta, path in zip(fields[::2], fields[1::2], strict=True):
        parts = meta.split(b" ")
        if len(parts) != 5 or not meta.startswith(b":"):
            raise GitError(f"unexpected raw diff record from git: {meta!r}")
        old_mode, new_mode, old_oid, new_oid = (p.decode("ascii") for p in parts[:4])
        out.append(
            BlobChange(
                os.fsdecode(path),
                _blob(old_mode, old_oid),
                _blob(new_mode, new_oid),
                _mode_changed(old_mode[1:], new_mode),  # the record starts with ':'
            )
        )
    return out


def blob_change(c: PathChange) -> BlobChange:
    """One path of a diff without rename detection (its counts dropped), as
    :func:`parse_raw` reads it from the same diff's raw record."""
    return BlobChange(
        c.path,
        _blob(c.old_mode, c.old_oid),
        _blob(c.new_mode, c.new_oid),
        _mode_changed(c.old_mode, c.new_mode),
    )


def _mode_changed(old_mode: str, new_mode: str) -> bool:
    """Whether a path on both sides of a raw record changed its mode."""
    return "000000" not in (old_mode, new_mode) and old_mode != new_mode


def _blob(mode: str, oid: str) -> str | None:
    if mode in ("000000", MODE_GITLINK) or not oid.strip("0"):
        return None
    return oid


class Deltas(Refs):
    """Per-path blob changes of trees, commits and the work tree."""

    #: :meth:`staged_delta`'s git answer once asked here, as a 1-tuple (None: not asked)
    _staged: tuple[bytes | None] | None = None
    #: the ``diff-index`` :meth:`start_staged_delta` started, until it is read
    _staged_started: subprocess.Popen[bytes] | None = None

    def tree_delta(self, old_tree: str, new_tree: str) -> list[BlobChange]:
        """What changed from ``old_tree`` to ``new_tree``, path by path.

        Raises:
            GitError: git failed (a tree id that does not exist here).
        """
        if old_tree == new_tree:
            return []
        out = self.run(["diff-tree", *_RAW_FLAGS, old_tree, new_tree]).stdout
        return parse_raw(out)

    def tree_deltas(self, pairs: Sequence[tuple[str, str]]) -> list[list[BlobChange]]:
        """:meth:`tree_delta` of many (old tree, new tree) pairs, in one ``diff-tree
        --stdin``; one list per pair, in order.

        Raises:
            GitError: git failed, or printed something this cannot split by pair.
        """
        todo = list(dict.fromkeys(p for p in pairs if p[0] != p[1]))
        if len(todo) < 2:  # one distinct pair (however often asked): one process
            one = {p: self.tree_delta(*p) for p in todo}
            return [one.get(p, []) for p in pairs]
        stdin = "".join(f"{a} {b}\n" for a, b in todo).encode("ascii")
        out = self.run(["diff-tree", "--stdin", *_RAW_FLAGS], input=stdin).stdout
        chunks = _split_by_echo(out, todo)
        by_pair = dict(zip(todo, (parse_raw(c) for c in chunks), strict=True))
        return [by_pair.get(p, []) for p in pairs]

    def commit_deltas(self, commits: Sequence[str]) -> dict[str, list[list[BlobChange]]]:
        """What each of ``commits`` changed against each of its parents, path by path: one
        list per parent, in parent order (a root commit: one, against the empty tree), in
        one ``diff-tree --stdin -m --root``.

        Raises:
            GitError: git failed, or printed something not of that shape.
        """
        if not commits:
            return {}
        stdin = "".join(f"{c}\n" for c in dict.fromkeys(commits)).encode("ascii")
        out = self.run(
            ["diff-tree", "--stdin", "-m", "--root", "--always", *_RAW_FLAGS], input=stdin
        ).stdout
        found: dict[str, list[list[BlobChange]]] = {}
        fields = out.split(b"\0")
        if fields and fields[-1] == b"":
            fields.pop()
        current: list[BlobChange] | None = None
        at = 0
        while at < len(fields):  # each parent's diff follows the commit id, echoed alone
            if fields[at].startswith(b":") and current is not None and at + 1 < len(fields):
                current.extend(parse_raw(fields[at] + b"\0" + fields[at + 1] + b"\0"))
                at += 2
                continue
            oid = fields[at].decode("ascii", "replace").strip()
            if fields[at].startswith(b":") or len(oid) not in (40, 64):
                raise GitError("unexpected output from git diff-tree --stdin -m")
            current = []
            found.setdefault(oid, []).append(current)
            at += 1
        return found

    def blob_in_history(self, tips: Sequence[str], path: str, blob: str) -> bool:
        """Whether ``blob`` was at ``path`` in a commit reachable from ``tips``: some commit
        of that history added or removed it there (one ``git log --find-object``). False
        when git cannot walk it (a tip beyond a shallow boundary): not known to be there.

        Raises:
            GitError: git failed otherwise.
        """
        if not tips:
            return False
        args = ["log", "-1", "--format=%H", "--full-history", f"--find-object={blob}"]
        proc = self.run([*args, *tips, "--", path], env=LITERAL_PATHSPECS, ok=(0, 128))
        return proc.returncode == 0 and bool(proc.stdout.strip())

    def staged_delta(self) -> list[BlobChange] | None:
        """What the index git hands a hook changes against ``HEAD``, path by path (the
        same question the hook's probe asked, answered once per process, and once per
        repository object when the probe did not ask); None when ``HEAD`` is unborn.

        Raises:
            GitError: git's output does not read as a raw diff.
        """
        from gentle_hooks.git.probe import asked_staged_raw

        known, raw = asked_staged_raw(self.env, self.paths.toplevel)
        started, self._staged_started = self._staged_started, None
        if started is not None and (known or self._staged is not None):
            started.kill()  # answered otherwise: not read
            started.communicate()
            started = None
        if not known and self._staged is not None:
            # asked already by this object: a hook never writes the index it is handed
            (raw,) = self._staged
        elif not known and started is not None:
            stdout, stderr = started.communicate()
            if started.returncode not in (0, 128):  # as run() reports it
                err = stderr.decode("utf-8", "replace").strip().splitlines()
                last = err[-1] if err else f"exit {started.returncode}"
                raise GitError(f"git diff-index failed: {last}")
            raw = stdout if started.returncode == 0 else None
            self._staged = (raw,)
        elif not known:
            proc = self.run(list(STAGED_ARGS), ok=(0, 128))
            raw = proc.stdout if proc.returncode == 0 else None
            self._staged = (raw,)
        return None if raw is None else parse_raw(raw)

    def start_staged_delta(self) -> None:
        """Start the ``git diff-index`` :meth:`staged_delta` runs (unless the probe or this
        object asked already), so that git compares while the caller does other work; the
        next :meth:`staged_delta` reads it. :meth:`drop_staged_delta` stops one not read.

        Raises:
            GitError: git is not on PATH.
        """
        from gentle_hooks.git.probe import asked_staged_raw

        if self._staged is None and not asked_staged_raw(self.env, self.paths.toplevel)[0]:
            cwd = self.paths.toplevel or self.paths.git_dir
            self._staged_started = popen_git(list(STAGED_ARGS), cwd, self.env)

    def drop_staged_delta(self) -> None:
        """Stop (kill and reap) what :meth:`start_staged_delta` started and no
        :meth:`staged_delta` read (nothing when there is none)."""
        started, self._staged_started = self._staged_started, None
        if started is not None:
            started.kill()
            started.communicate()

    def blobs_in(self, tree: str, paths: Iterable[str]) -> dict[str, str]:
        """The blob id of each of ``paths`` in ``tree`` (paths absent there, or holding a
        submodule commit, are left out)."""
        wanted = sorted(set(paths))
        if not wanted:
            return {}
        if len(wanted) > _MANY_PATHSPECS:  # list the whole tree: argv has a size limit
            listing = self.run(["ls-tree", "-r", "-z", "--full-tree", tree]).stdout
            keep = set(wanted)
            return {p: b for p, b in _blobs_listed(listing).items() if p in keep}
        out = self.run(
            ["ls-tree", "-z", "--full-tree", tree, "--", *wanted], env=LITERAL_PATHSPECS
        ).stdout
        return _blobs_listed(out)

    def modes_in(self, tree: str, paths: Iterable[str]) -> dict[str, str]:
        """The mode of each of ``paths`` that is a file or a symbolic link in ``tree``
        (``100755``, ``100644``, ``120000``; paths absent there, directories and submodules
        are left out)."""
        wanted = sorted(set(paths))
        if not wanted:
            return {}
        args = ["ls-tree", "-z", "--full-tree", tree, "--", *wanted]
        if len(wanted) > _MANY_PATHSPECS:  # list the whole tree: argv has a size limit
            args = ["ls-tree", "-r", "-z", "--full-tree", tree]
        out = self.run(args, env=LITERAL_PATHSPECS).stdout
        keep = set(wanted)
        return {p: m for p, m in _listed(out, 1, b"blob", 0).items() if p in keep}

    def blobs_staged(self, paths: Iterable[str], index: str | None = None) -> dict[str, str]:
        """The blob id of each of ``paths`` in the index git uses here, or in the index
        file ``index`` (stage 0; paths not in the index are left out)."""
        wanted = sorted(set(paths))
        if not wanted:
            return {}
        args = ["ls-files", "--stage", "-z", "--full-name"]
        if len(wanted) <= _MANY_PATHSPECS:
            args += ["--", *wanted]
        env = {**LITERAL_PATHSPECS, "GIT_INDEX_FILE": index} if index else LITERAL_PATHSPECS
        out = self.run(args, env=env).stdout
        keep = set(wanted)
        return {p: b for p, b in _listed(out, 2, b"0", 1).items() if p in keep}

    def pushed_commits(self, commits: Iterable[str]) -> set[str]:
        """The commits among ``commits`` that are on a remote-tracking ref (reachable from
        one); commits this clone does not hold are left out."""
        present = sorted(self.existing_commits(sorted(set(commits))))
        if not present:
            return set()
        unpushed = self.out(["rev-list", *present, "--not", "--remotes"]).split()
        return set(present) - set(unpushed)

    def own_index(self) -> str | None:
        """This worktree's own index file when git hands a hook another one (``commit
        --only PATH`` judges a temporary index; the user's staged work stays in the own
        one), else None (the same file, or no own index yet)."""
        own = os.path.join(self.paths.git_dir, "index")
        used = self.paths.index_file
        if not os.path.isfile(own) or os.path.realpath(own) == os.path.realpath(used):
            return None
        return own

    def unpushed_commits(self, tip: str, limit: int) -> list[str]:
        """The commits of ``tip`` on no remote-tracking ref (what a push of it carries),
        newest first, at most ``limit``."""
        return self.out(["rev-list", f"--max-count={limit}", tip, "--not", "--remotes"]).split()

    def unpushed_commits_touching(self, paths: Iterable[str]) -> list[str]:
        """Commits on a local branch, a tag or any other local ref (``HEAD`` too) or in the
        stash, on no remote-tracking ref, that change one of ``paths``; newest first."""
        wanted = sorted(set(paths))
        if not wanted:
            return []
        stash: list[str] = []
        if self.ref_exists("refs/stash"):  # every stash entry, not only the latest
            stash = self.out(["reflog", "show", "--format=%H", "refs/stash", "--"]).split()
        args = ["rev-list", "--all", *stash, "--not", "--remotes", "--", *wanted]
        if len(wanted) > _MANY_PATHSPECS:
            args = args[: -len(wanted) - 1]  # every unpushed commit: argv has a size limit
        return self.out(args, env=LITERAL_PATHSPECS).split()

    def hash_worktree(self, paths: Iterable[str]) -> dict[str, str | None]:
        """The blob each root-relative path holds in the work tree, hashed as ``git add``
        would (clean filters and ``core.autocrlf`` applied) and written to the object
        store so its content can be read back; None for a path that is not there (or is a
        directory: a submodule, say).

        Raises:
            GitError: git failed; not a work tree.
        """
        root = self.paths.toplevel
        if root is None:
            raise GitError("a bare repository has no work tree to hash")
        out: dict[str, str | None] = {}
        files: list[str] = []
        links: list[str] = []
        for path in sorted(set(paths)):
            full = os.path.join(root, path)
            if os.path.islink(full):
                links.append(path)
            elif os.path.isfile(full):
                files.append(path)
            else:
                out[path] = None
        if files:
            # paths relative to the root, which is where git runs; a path holding a newline
            # cannot go through --stdin-paths: those are hashed one by one
            plain = [p for p in files if "\n" not in p]
            if plain:
                text = "\n".join(plain) + "\n"
                ids = self.out(
                    ["hash-object", "-w", "--stdin-paths"],
                    input=os.fsencode(text),
                ).split()
                out.update(zip(plain, ids, strict=True))
            for path in files:
                if "\n" in path:
                    out[path] = self.out(["hash-object", "-w", "--", path])
        for path in links:  # git stores a symlink's target text, not what it points at
            target = os.fsencode(os.readlink(os.path.join(root, path)))
            out[path] = self.out(["hash-object", "-w", "--stdin"], input=target)
        return out

    def ref_tips(self, most: int) -> tuple[list[str], list[str]]:
        """The commits content may be restored from: the tips of the branches, tags and
        remote-tracking branches and ``refs/stash`` (``for-each-ref``: one git process), and
        the stash entries ``stash@{n}``, read from the stash's reflog file (a repository whose
        refs live in a reftable has none: only ``refs/stash`` is kept then). Returns the ref
        tips and the stash entries, each without repeats and at most ``most`` in all (stash
        entries first, newest first; the refs in name order).

        Raises:
            GitError: git failed.
        """
        stashes: list[str] = []
        try:
            with open(os.path.join(self.paths.common_dir, "logs", "refs", "stash"), "rb") as fh:
                lines = fh.read(1024 * 1024).splitlines()
        except OSError:
            lines = []
        for line in reversed(lines):
            fields = line.split(b" ", 2)
            oid = fields[1].decode("ascii", "replace") if len(fields) == 3 else ""
            if len(oid) in (40, 64) and oid.isalnum() and oid not in stashes:
                stashes.append(oid)
        refs = ("refs/heads", "refs/tags", "refs/remotes", "refs/stash")
        out = self.out(["for-each-ref", "--format=%(objectname)", *refs]).split()
        stashes = stashes[:most]
        tips = [t for t in dict.fromkeys(out) if t not in stashes]
        return tips[: most - len(stashes)], stashes

    def blobs_named(self, names: Sequence[str]) -> list[str | None]:
        """The blob each of ``names`` (``<commit>:<path>``, ``<commit>^2:<path>``; none
        holding a line end) names, in order; None for a name that names no blob (a missing
        commit or path, a tree). One ``cat-file --batch-check``.

        Raises:
            GitError: git failed.
        """
        if not names:
            return []
        text = "".join(f"{n}\n" for n in names)
        out = self.run(
            ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
            input=text.encode("utf-8", "surrogateescape"),
        ).stdout.split(b"\n")
        found: list[str | None] = []
        for i in range(len(names)):
            answer = out[i].split(b" ") if i < len(out) else []
            ok = len(answer) == 2 and answer[1] == b"blob"
            found.append(answer[0].decode("ascii") if ok else None)
        return found

    def dirty_paths(self) -> list[str]:
        """The root-relative paths ``git status`` shows as changed against the index or
        ``HEAD``, untracked files included, ignored ones and submodules not (``status
        --porcelain -z --untracked-files=all``, without taking the index lock: the user's
        index is never written); a rename is its two paths.

        Raises:
            GitError: git failed; not a work tree.
        """
        tracked, untracked = self.dirty_split()
        return [*tracked, *untracked]

    def dirty_split(self) -> tuple[list[str], list[str]]:
        """:meth:`dirty_paths` in two lists from one ``git status``: the paths the index or
        ``HEAD`` holds, and the untracked ones (``??``).

        Raises:
            GitError: git failed; not a work tree.
        """
        out = self.run(
            [
                "--no-optional-locks",
                "status",
                "--porcelain=v1",
                "-z",
                "--untracked-files=all",
                "--no-renames",
                "--ignore-submodules=all",
            ]
        ).stdout
        rows = [r for r in out.split(b"\0") if len(r) > 3 and r[2:3] == b" "]
        tracked = [os.fsdecode(r[3:]) for r in rows if r[:2] != b"??"]
        return tracked, [os.fsdecode(r[3:]) for r in rows if r[:2] == b"??"]


def _blobs_listed(out: bytes) -> dict[str, str]:
    """Path -> blob id of the blob entries of ``ls-tree -z`` output."""
    return _listed(out, 1, b"blob", 2)


def _listed(out: bytes, where: int, value: bytes, take: int) -> dict[str, str]:
    """Path -> field ``take`` of each record of ``ls-tree -z`` (``<mode> <type> <object>``)
    or ``ls-files --stage -z`` (``<mode> <object> <stage>``) output whose field ``where``
    is ``value``; records not of three fields and a tab are passed over."""
    found: dict[str, str] = {}
    for record in out.split(b"\0"):
        meta, tab, path = record.partition(b"\t")
        parts = meta.split(b" ")
        if tab and len(parts) == 3 and parts[where] == value:
            found[os.fsdecode(path)] = parts[take].decode("ascii")
    return found


def _split_by_echo(out: bytes, pairs: Sequence[tuple[str, str]]) -> list[bytes]:
    """Cut ``diff-tree --stdin -z --raw`` output at each pair's echoed ``<a> <b>\\n`` line,
    recognised only where a record starts (a path never reads as one).

    Raises:
        GitError: the echoes are not where they should be.
    """
    chunks: list[bytes] = []
    pos, start, k = 0, -1, 0
    size = len(out)
    while pos < size:
        if k < len(pairs):
            echo = f"{pairs[k][0]} {pairs[k][1]}\n".encode("ascii")
            if out.startswith(echo, pos):
                if start >= 0:
                    chunks.append(out[start:pos])
                pos = start = pos + len(echo)
                k += 1
                continue
        if start < 0:
            break
        meta_end = out.find(b"\0", pos)
        path_end = out.find(b"\0", meta_end + 1) if meta_end >= 0 else -1
        if path_end < 0:
            break
        pos = path_end + 1
    if start >= 0:
        chunks.append(out[start:])
    if len(chunks) != len(pairs):
        raise GitError("unexpected output from git diff-tree --stdin")
    return chunks
