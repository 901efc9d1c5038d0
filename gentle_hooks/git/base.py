"""Base and candidate resolution (SPEC §3 "Base", "Candidate tree", "Identity").

Room ``git``. The base ref is the flag's, else config's, else ``origin/HEAD``, else the
first of :data:`DEFAULT_BASE_CHAIN`; the base is its merge-base with the candidate; the
candidate tree is a projection (committed, staged, snapshot).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from gentle_hooks.git.index import Index
from gentle_hooks.git.location import RepoPaths
from gentle_hooks.git.objects import CommitInfo, Objects
from gentle_hooks.git.refs import check_ref_name
from gentle_hooks.values.candidate import (
    BaseResolution,
    Candidate,
    Projection,
    candidate_identity,
)

#: Refs tried, in order, when neither the flag nor the config names a base ref.
DEFAULT_BASE_CHAIN = ("origin/main", "origin/master", "main", "master")
#: Where a base ref came from, in the words a note says it (the code stays in ``source``).
SOURCE_WORDS = {
    "flag": "named by --base-ref",
    "config": "the configured base_ref",
    "origin/HEAD": "the remote's default branch",
    "fallback": "no origin/HEAD here: the first of " + ", ".join(DEFAULT_BASE_CHAIN) + " found",
}


class Bases(Objects, Index):
    """Base and candidate resolution of a repository."""

    def __init__(self, paths: RepoPaths, env: dict[str, str]) -> None:
        super().__init__(paths, env)
        #: the default base, once :meth:`hold_refs` was called and it was read.
        self._held_base: tuple[str | None, str, str | None] | None = None
        self._hold_refs = False
        self._hold_lock = threading.Lock()  # the push gate judges commits on threads

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
        bests = (
            proc.stdout.decode("utf-8", "surrogateescape").split() if proc.returncode == 0 else []
        )
        if len(bests) != 1:
            return
        best = bests[0]
        self.held_below(best, base, tip)
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
            got = self.rev_parse_many([f"{config_ref}^{{commit}}"])
            return got[0] if got else None
        return self._default_base()[2]

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
        out = self.out(
            ["for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)%00%(tree)", *names]
        )
        found: dict[str, tuple[str, str]] = {}
        for line in out.split("\n"):
            if not line:
                continue
            refname, oid, symref, tree = line.split("\0")
            found[refname] = (oid, symref)
            if oid and refname.startswith("refs/remotes/"):  # a remote-tracking ref reaches it
                self._held_by.setdefault(oid, refname.split("/")[2])
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
        replaces: bool = False,
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
            replaces: the candidate replaces ``candidate_commit`` (a staged ``commit
                --amend``): the commit made of it stands on that commit's first parent.

        A committed candidate whose base ref (from config or the default chain, not the
        flag) already contains the commit — a commit made on the base branch itself — is
        judged against its first parent: what that commit changed. Otherwise the
        merge-base would be the commit itself and the candidate empty, and the identity
        would not match the one its work was recorded under (HEAD was then the base).
        A candidate that ``replaces`` such a commit (an amend of a pushed commit) is judged
        against that first parent too: the merge-base the push gate finds for the commit
        the amend makes, so the commit gate and the push gate judge one identity.

        Raises:
            GitError: ``flag_ref`` or ``config_ref`` given but not a commit.
        """
        ref: str | None
        commit: str | None
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
        if mb == candidate_commit and (committed or replaces) and source != "flag":
            parents = self.out(["rev-list", "--parents", "-n", "1", candidate_commit]).split()
            if len(parents) < 2:
                return BaseResolution(
                    ref,
                    source,
                    None,
                    self.empty_tree,
                    f"{ref} contains this root commit: base is the empty tree",
                    replaced=replaces,
                )
            return BaseResolution(
                ref,
                source,
                parents[1],
                self.tree_of(parents[1]),
                f"{ref} ({SOURCE_WORDS.get(source, source)}) already contains the commit"
                + (" this one replaces" if replaces else "")
                + ": its first parent",
                replaced=replaces,
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
            ref,
            source,
            mb,
            self.tree_of(mb),
            f"merge-base of {ref} ({SOURCE_WORDS.get(source, source)}) and the candidate",
        )

    def candidate(
        self,
        projection: Projection,
        *,
        flag_ref: str | None = None,
        config_ref: str | None = None,
        commit: str | None = None,
        replaces: bool = False,
    ) -> Candidate:
        """Resolve a candidate: base tree, candidate tree and identity (SPEC §3).

        Args:
            projection: committed (HEAD's tree or ``commit``'s), staged (the index git
                hands us) or snapshot (``git add -A`` in a temporary index).
            flag_ref / config_ref: base ref from the flag / from config.
            commit: for ``committed``, the commit judged (default HEAD).
            replaces: for ``staged``, the commit made of it replaces HEAD (``commit
                --amend``): see :meth:`resolve_base`.

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
        got = self.rev_parse_many(exprs)
        head: str | None
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
        # the index is written as a tree while the base is resolved (git writes meanwhile);
        # a failure to start is raised where the tree is asked for, as without the overlap
        started, failed = None, None
        if projection is Projection.STAGED:
            try:
                started = self.start_staged_tree()
            except Exception as exc:
                failed = exc
        committed = projection is Projection.COMMITTED
        try:
            base = self.resolve_base(
                head, flag_ref, config_ref, base_commit, committed=committed, replaces=replaces
            )
        except BaseException:
            if started is not None:
                self.abandon_staged_tree(started)
            raise
        if projection is Projection.COMMITTED:
            tree = head_tree
        elif projection is Projection.STAGED:
            if failed is not None:
                raise failed
            assert started is not None
            tree = self.finish_staged_tree(started)
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
