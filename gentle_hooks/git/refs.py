"""Refs and revisions: resolve, peel, merge-base, new commits (SPEC §3 "Base").

Room ``git``. Answers that never change (a full id peeled to its commit or tree, a
learnt merge-base) are kept for the life of the repository object.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from gentle_hooks.errors import GitError, quoted
from gentle_hooks.git.core import RepositoryCore, is_full_id
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.process import popen_git
from gentle_hooks.values.candidate import EMPTY_TREES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.logwalk import Logged

#: How many ids one ``rev-parse`` of :meth:`Refs.peel_many` is given (a bounded command line).
_PEEL_CHUNK = 1000


class Refs(RepositoryCore):
    """Ref and revision reads of a repository."""

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        super().__init__(paths, env)
        #: (base commit, commit) -> their merge-base, learnt by ``learn_merge_bases``.
        self._merge_bases: dict[tuple[str, str], str] = {}
        #: commit -> whether the remote the work goes to holds it (``settings_anchor``).
        self._held_remotely: dict[str, bool] = {}
        #: commit -> the remote one of whose remote-tracking refs reaches it, known without
        #: asking: a tracking ref's own commit, and merge-bases below one (:meth:`held_below`).
        self._held_by: dict[str, str] = {}

    def held_below(self, commit: str | None, *above: str) -> None:
        """Note that ``commit`` (a merge-base of ``above``) is reached by the remote-tracking
        refs of a remote that reach one of ``above``: an ancestor of a commit a ref reaches
        is reached too, so :meth:`settings_anchor` needs no ``for-each-ref --contains`` for
        it when that remote is the one the work goes to."""
        if commit is None:
            return
        for a in above:
            remote = self._held_by.get(a)
            if remote is not None:
                self._held_by.setdefault(commit, remote)
                return

    def head(self) -> str | None:
        """The commit HEAD points at, or None when HEAD is unborn."""
        proc = self.run(["rev-parse", "--verify", "-q", "HEAD^{commit}"], ok=(0, 1, 128))
        return _answer(proc)

    def merge_in_progress(self) -> bool:
        """Whether a merge is being concluded in this worktree: ``MERGE_HEAD`` in its own
        git dir (a conflicted ``git merge`` finished with ``git commit``). Git writes it
        only after pre-merge-commit ran, so that hook is a merge by its name alone."""
        return os.path.lexists(os.path.join(self.paths.git_dir, "MERGE_HEAD"))

    def merge_heads(self) -> list[str]:
        """The commits the merge being concluded brings (``MERGE_HEAD``, one per line; an
        octopus merge has several), resolved to commits; empty when there is no merge."""
        if not self.merge_in_progress():
            return []
        proc = self.run(["rev-parse", "--verify", "-q", "MERGE_HEAD^{commit}"], ok=(0, 1, 128))
        first = _answer(proc)
        try:
            with open(os.path.join(self.paths.git_dir, "MERGE_HEAD"), encoding="ascii") as f:
                listed = [line.strip() for line in f if line.strip()]
        except (OSError, UnicodeDecodeError):
            listed = []
        found = [c for c in listed[1:] if self.peel_commit(c)]
        return [first, *found] if first else found

    def head_reflog_action(self) -> str | None:
        """What last moved HEAD, from its reflog: ``commit``, ``commit (amend)``, ``rebase
        (pick)``, ``pull --rebase origin main (pick)``, ``cherry-pick``...; None when HEAD
        has no reflog (``core.logAllRefUpdates`` off)."""
        proc = self.run(["reflog", "-1", "--format=%gs", "HEAD", "--"], ok=(0, 128))
        subject = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode != 0 or not subject:
            return None
        return subject.split(": ", 1)[0]

    def head_reset_since(self, when: float, root: str | None = None) -> bool:
        """Whether the ``HEAD`` reflog of the worktree whose root is ``root`` (this one
        when None) shows a ``git reset`` at or after ``when`` (seconds since the epoch; the
        reflog keeps whole seconds); False when that ``HEAD`` has no reflog, or ``root``
        is no worktree of this repository (:meth:`head_ref_of`)."""
        head = "HEAD" if root is None else self.head_ref_of(root)
        if head is None:
            return False
        proc = self.run(
            ["log", "-g", "--date=unix", "--format=%gd %gs", "-n", "200", head, "--"],
            ok=(0, 128),
        )
        if proc.returncode != 0:
            return False
        lines = [ln for ln in proc.stdout.decode("utf-8", "replace").split("\n") if ln]
        for i, line in enumerate(lines):
            selector, _, subject = line.partition(" ")
            stamp = selector[selector.find("{") + 1 : -1]
            if not stamp.isdigit() or int(stamp) < int(when):
                return False  # newest first: the rest is older
            # ``git worktree add`` logs its checkout as ``reset: moving to HEAD`` right after
            # the reflog's first entry (no subject), maybe in the same second as a quick write
            first = lines[-1].partition(" ")[2] == "" and len(lines) < 200
            created = first and i == len(lines) - 2
            if subject.startswith("reset: ") and not created:
                return True
        return False

    def head_ref_of(self, root: str) -> str | None:
        """The name this repository's git reads the ``HEAD`` of the worktree whose root is
        ``root`` by: ``HEAD`` for this one, ``main-worktree/HEAD`` for the main one,
        ``worktrees/<id>/HEAD`` for a linked one (its ``.git`` file names
        ``<common dir>/worktrees/<id>``); None when ``root`` is no worktree of it (gone,
        or another repository's)."""
        if self.paths.toplevel is not None and os.path.realpath(root) == os.path.realpath(
            self.paths.toplevel
        ):
            return "HEAD"
        common = os.path.realpath(self.paths.common_dir)
        dot_git = os.path.join(root, ".git")
        if os.path.isdir(dot_git):
            return "main-worktree/HEAD" if os.path.realpath(dot_git) == common else None
        try:
            with open(dot_git, encoding="utf-8", errors="surrogateescape") as f:
                line = f.readline().rstrip("\r\n")
        except OSError:
            return None
        if not line.startswith("gitdir: "):
            return None
        gitdir = os.path.realpath(os.path.join(root, line[len("gitdir: ") :]))
        if os.path.dirname(gitdir) != os.path.join(common, "worktrees"):
            return None
        return f"worktrees/{os.path.basename(gitdir)}/HEAD"

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
            return proc.stdout.decode("utf-8", "surrogateescape").strip()
        raise self.not_a_commit(ref, what)

    def object_kind(self, ref: str) -> str | None:
        """The kind of object ``ref`` names (``commit``, ``tree``, ``blob``, ``tag``);
        None when it names none."""
        kind = self.run(["cat-file", "-t", "--end-of-options", ref], ok=(0, 1, 128))
        return kind.stdout.decode("ascii", "replace").strip() if kind.returncode == 0 else None

    def not_a_commit(self, ref: str, what: str) -> GitError:
        """The one-line error for ``ref``, which names no commit: the kind of object it
        names (a tree id, a blob), or that it is not known at all."""
        typ = self.object_kind(ref)
        if typ is not None:
            return GitError(
                f"{what} {quoted(ref)} names a {typ}, not a commit; pass a branch, tag or commit id"
            )
        return GitError(f"{what} {quoted(ref)} is not a known ref or commit (see: git branch -a)")

    def ref_exists(self, ref: str) -> str | None:
        """The commit ``ref`` resolves to, or None when it does not resolve."""
        proc = self.run(
            ["rev-parse", "--verify", "-q", "--end-of-options", ref + "^{commit}"], ok=(0, 1, 128)
        )
        return _answer(proc)

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of two commits, or None when they share no history."""
        known = self._merge_bases.get((a, b))
        if known is None and a == b and a in self._trees:
            known = a  # a commit known to exist (its tree was read) is its own merge-base
        if known is None:
            known = _answer(self.run(["merge-base", a, b], ok=(0, 1)))
        self.held_below(known, a, b)
        return known

    def tree_of(self, commit: str) -> str:
        """The tree id of a commit."""
        known = self._trees.get(commit)
        if known is not None:
            return known
        return self.out(["rev-parse", "--verify", commit + "^{tree}"])

    def peel_commit(self, oid: str) -> str | None:
        """The commit an id names, peeling annotated tags; None when it is not a commit.

        An id :meth:`peel_many` (or :meth:`peel_commits`) already peeled costs no process.
        """
        known = self._peeled.get(f"{oid}^{{commit}}")
        return known if known is not None else self.ref_exists(oid)

    def peel_many(self, ids: Sequence[str]) -> None:
        """Peel many full object ids to their commits, a few processes for all of them,
        so that :meth:`peel_commit` of each needs none.

        Ids go to ``rev-parse`` in chunks; a chunk holding an id that is not a commit (a
        tag of a tree, a missing object) keeps nothing, and each of its ids is then peeled
        on its own by :meth:`peel_commit`, as without this call.
        """
        todo = [i for i in dict.fromkeys(ids) if is_full_id(i)]
        for start in range(0, len(todo), _PEEL_CHUNK):
            chunk = todo[start : start + _PEEL_CHUNK]
            if len(chunk) > 1:  # one id alone costs its process either way
                self.rev_parse_many([f"{i}^{{commit}}" for i in chunk])

    def has_object(self, oid: str) -> bool:
        """True when the object exists locally (a remote id we may never have fetched)."""
        return self.run(["cat-file", "-e", oid], ok=(0, 1, 128)).returncode == 0

    def missing_objects(self, ids: Sequence[str]) -> list[str]:
        """The ids among ``ids`` naming no object in this clone, in order (one process;
        none when a walk :meth:`know_log` was given proved each is here)."""
        ids = [i for i in ids if i not in self._present]
        if not ids:
            return []
        proc = self.run(
            ["cat-file", "--batch-check=%(objectname)"],
            input="".join(f"{i}\n" for i in ids).encode("utf-8", "surrogateescape"),
        )
        answers = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
        # one answer line per asked line: "<id> missing" (or "ambiguous") when not found
        return [
            i for i, a in zip(ids, answers, strict=False) if a.endswith((" missing", " ambiguous"))
        ]

    def existing_commits(self, ids: Sequence[str]) -> set[str]:
        """The ids among ``ids`` that are commits in this clone (one process)."""
        if not ids:
            return set()
        proc = self.run(
            ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
            input="".join(f"{i}\n" for i in ids).encode(),
        )
        out = set()
        for line in proc.stdout.decode("ascii", "replace").splitlines():
            oid, _, kind = line.partition(" ")
            if kind == "commit":
                out.add(oid)
        return out

    def rev_parse_many(self, exprs: Sequence[str]) -> list[str] | None:
        """Resolve several revision expressions in one process; None if any fails.

        A full object id peeled to a commit or a tree always resolves the same way: those
        answers are kept, and asked again cost no process (see :meth:`peel_commits`).
        """
        if all(e in self._peeled for e in exprs):
            return [self._peeled[e] for e in exprs]
        proc = self.run(["rev-parse", "--end-of-options", *exprs], ok=(0, 128))
        # Older git (2.39) echoes --end-of-options here instead of consuming it; no
        # expression can print it (check_ref_name refuses names starting with "-").
        lines = [
            x
            for x in proc.stdout.decode("utf-8", "surrogateescape").split()
            if x != "--end-of-options"
        ]
        if proc.returncode != 0 or len(lines) != len(exprs):
            return None
        for expr, value in zip(exprs, lines, strict=True):
            name, _, peel = expr.partition("^")
            if peel in ("{commit}", "{tree}") and is_full_id(name):
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
            self.rev_parse_many(exprs)

    def new_commits(
        self, tip: str, exclude: Sequence[str] = (), remote: str | None = None
    ) -> list[str]:
        """Commits reachable from ``tip`` and not from ``exclude`` (ids) nor, when ``remote``
        is given, from any of that remote's remote-tracking refs; oldest first.

        ``remote=""`` excludes every remote-tracking ref (the remote is unknown). The walk
        :meth:`know_log` kept for the same question answers without a process (its
        commits' parents are then known to :meth:`outside_parents`).
        """
        logged = self._logged_walks.get(("range", tip, tuple(exclude), remote))
        if logged is not None:
            self._walked.update((c.id, list(c.parents)) for c in logged)
            return [c.id for c in logged]
        args = ["rev-list", "--topo-order", "--reverse", tip]
        args += [f"^{x}" for x in exclude]
        if remote is not None:
            args += ["--not", f"--remotes={remote}" if remote else "--remotes"]
        return self.out(args).split()

    def new_commits_of_tips(self, tips: Sequence[str], remote: str) -> dict[str, list[str]]:
        """:meth:`new_commits` of each commit of ``tips`` with ``remote`` and no ``exclude``,
        from one ``rev-list`` walking all of them (or the walk :meth:`know_log` kept for
        the same tips and remote).

        Each tip's commits are those of the one walk that its parents reach, in that walk's
        order: oldest first, every parent before its children, the tip itself last (a
        tip already on the remote has none). ``remote=""`` excludes every remote-tracking
        ref, as in :meth:`new_commits`.
        """
        wanted = list(dict.fromkeys(tips))
        if not wanted:
            return {}
        order: dict[str, int] = {}
        parents: dict[str, list[str]] = {}
        logged = self._logged_walks.get(("tips", tuple(wanted), remote))
        if logged is not None:
            for number, c in enumerate(logged):
                order[c.id], parents[c.id] = number, list(c.parents)
        else:
            args = ["rev-list", "--topo-order", "--reverse", "--parents", "--stdin"]
            args += ["--not", f"--remotes={remote}" if remote else "--remotes"]
            # the tips on stdin: positive whatever "--not" says, and no argument-length limit
            out = self.run(args, input="".join(f"{t}\n" for t in wanted).encode()).stdout
            for number, line in enumerate(out.decode("ascii", "replace").splitlines()):
                commit, *rest = line.split()
                order[commit], parents[commit] = number, rest
        self._walked.update(parents)
        found: dict[str, list[str]] = {}
        for tip in wanted:
            seen: set[str] = set()
            todo = [tip] if tip in order else []
            while todo:
                commit = todo.pop()
                if commit not in seen:
                    seen.add(commit)
                    # a parent outside the walk is on the remote, and so is all it reaches
                    todo.extend(p for p in parents[commit] if p in order)
            found[tip] = sorted(seen, key=order.__getitem__)
        return found

    def know_log(self, question: tuple[object, ...], walk: Sequence[Logged]) -> None:
        """Keep what a :class:`~gentle_hooks.git.logwalk.LogWalk` printed, run in this
        repository with its environment: :meth:`new_commits` (``("range", tip, exclude,
        remote)``) or :meth:`new_commits_of_tips` (``("tips", tips, remote)``) asked that
        walk answer from it with no process, and listing the same commits; each listed
        id is a commit whose tree is known (no ``rev-parse`` to peel it); the ids a
        range excluded are objects here (its walk would have failed otherwise); and each
        commit's change is kept for :meth:`~gentle_hooks.git.diff.Diffs.step_changes`."""
        self._logged_walks[question] = list(walk)
        if question[0] == "range":
            self._present.update(question[2])  # type: ignore[arg-type]
        for c in walk:
            self._trees[c.id] = c.tree
            self._peeled[f"{c.id}^{{commit}}"] = c.id
            self._peeled[f"{c.id}^{{tree}}"] = c.tree
            if c.change is not None:
                self._logged_changes.append(c)

    def outside_parents(self, commits: Sequence[str]) -> list[str]:
        """The parents of ``commits`` that are not among them, as the walks of
        :meth:`new_commits_of_tips` printed them (the commits a pushed range steps from);
        none for a commit no walk listed."""
        inside = set(commits)
        found = (p for c in commits for p in self._walked.get(c, ()) if p not in inside)
        return list(dict.fromkeys(found))

    def commits_outside_branches_and_tags(self, tip: str) -> list[str]:
        """Commits reachable from ``tip`` and from no branch or tag; oldest first."""
        args = ["rev-list", "--topo-order", "--reverse", tip, "--not", "--branches", "--tags"]
        return self.out(args).split()

    def unpushed_off_head(self, limit: int) -> list[str]:
        """Commits of a local branch or tag that neither ``HEAD`` nor a remote-tracking ref
        holds (a branch not checked out and not pushed), newest first, at most ``limit``."""
        head = ["HEAD"] if self.head() is not None else []
        args = ["rev-list", f"--max-count={limit}", "--branches", "--tags", "--not", *head]
        return self.out([*args, "--remotes"]).split()

    def local_refs_holding(self, commit: str) -> list[str]:
        """The full names of the local branches and tags holding ``commit``, sorted."""
        args = ["for-each-ref", "--format=%(refname)", "--contains", commit]
        return sorted(self.out([*args, "refs/heads/", "refs/tags/"]).split())

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """Whether ``ancestor`` is ``descendant`` or one of its ancestors
        (``git merge-base --is-ancestor``)."""
        args = ["merge-base", "--is-ancestor", ancestor, descendant]
        return self.run(args, ok=(0, 1)).returncode == 0

    def update_ref(self, ref: str, target: str) -> None:
        """Point ``ref`` at ``target`` (``git update-ref``), whatever it pointed at.

        Raises:
            GitError: git refused (an invalid name, a missing object, a locked ref).
        """
        self.run(["update-ref", ref, target])

    def ref_names(self, prefix: str) -> list[str]:
        """The full names of the refs under ``prefix`` (``refs/notes/remotes/``), sorted."""
        return self.out(["for-each-ref", "--format=%(refname)", prefix]).split()

    def shallow_commits(self) -> set[str]:
        """The commits at this clone's shallow boundary (empty for a full clone)."""
        path = self.git_path("shallow")
        try:
            with open(path, encoding="ascii") as fh:
                return {x.strip() for x in fh if x.strip()}
        except OSError:
            return set()


def check_ref_name(ref: str, what: str) -> None:
    """Refuse what cannot be one ref: empty, option-like, control characters, a range.

    Raises:
        GitError: with the fix (a range names its left side as the single ref to pass).
    """
    if not ref or ref.startswith("-") or any(c in ref for c in "\0\n\r"):
        raise GitError(f"{what} {quoted(ref)} is not a valid ref name")
    if ref.startswith("^") or ref.endswith(("^@", "^!", "^-")):
        raise GitError(
            f"{what} {quoted(ref)} is range syntax; pass a single ref, e.g. "
            f"{ref.lstrip('^').split('^@')[0].split('^!')[0] or 'HEAD'!r}"
        )
    if ".." in ref:
        left = ref.split("..")[0] or "HEAD"
        raise GitError(f"{what} {quoted(ref)} is a range; pass a single ref, e.g. {quoted(left)}")


class AncestorTrees:
    """Lazily answers "is this tree the tree of an ancestor of the commit (or empty)?"."""

    def __init__(self, repo: RepositoryCore, commit: str) -> None:
        self._repo, self._commit = repo, commit
        self._seen: set[str] = set(EMPTY_TREES.values())
        self._done = False
        self._proc: subprocess.Popen[bytes] | None = None

    def __call__(self, tree: str) -> bool:
        if tree in self._seen:
            return True
        if self._done:
            return False
        if self._proc is None:
            cwd = self._repo.paths.toplevel or self._repo.paths.git_dir
            self._proc = popen_git(
                ["rev-list", "--no-commit-header", "--format=%T", self._commit],
                cwd,
                self._repo.env,
                stderr=False,
            )
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            t = raw.decode("utf-8", "surrogateescape").strip()
            self._seen.add(t)
            if t == tree:
                return True
        self._proc.wait()
        self._done = True
        return False

    def close(self) -> None:
        """Stop the ``rev-list`` process, if it is still running."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()


def _answer(proc: subprocess.CompletedProcess[bytes]) -> str | None:
    """What a successful lookup printed (stripped), or None when it failed or was silent."""
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "surrogateescape").strip() or None
