"""Where a ``receipt run`` runs, so that it observes the candidate it binds to (SPEC §6
"receipt"; issue 13 Build 4: no "work tree has other changes" dead end, no stash dance).

``--staged`` and ``--committed`` run in the work tree when it holds exactly the staged or
committed tree (ignored files aside), else in a temporary linked checkout of that tree
(:func:`gentle_hooks.services.checkout.candidate_checkout`), so uncommitted or unstaged
edits never decide a receipt bound to the index or the commit, and the user's work tree
and index are never changed. A run from a block's commit worktree (no ignored file there:
:mod:`~gentle_hooks.services.commit_worktree`) runs in such a checkout too, with the
ignored files of the work tree it was started in (else the main one).

Room ``services``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence

from gentle_hooks.bounded import scratch_dir
from gentle_hooks.errors import EXIT_BLOCKED, Command, GentleError, GitError, UsageError, cli
from gentle_hooks.git.process import scrubbed_env
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.loadenv import without_loading
from gentle_hooks.policy.outputs import is_output
from gentle_hooks.policy.toolmissing import LACKED_IGNORED
from gentle_hooks.services.checkout import candidate_checkout, run_env
from gentle_hooks.services.commit_worktree import ignored_holder, is_commit_worktree
from gentle_hooks.services.room_lacks import copy_line, lacked_here
from gentle_hooks.services.runner import Observation, stopped_cleanly
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import frozen, replace

#: What differs in the work tree when a candidate of each binding runs elsewhere.
_OTHER_CHANGES = {
    Projection.STAGED: "unstaged or untracked changes",
    Projection.COMMITTED: "uncommitted or untracked changes",
}


#: How a file the run needs gets into a candidate of each binding.
_WANT = {
    Projection.STAGED: "stage it",
    Projection.COMMITTED: "commit it",
}


@frozen
class RunPlace:
    """Where the command runs: ``cwd``; ``env``, its environment; ``note``: said when it is not
    the work tree (else empty); ``room``: the temporary checkout's root (None: the work
    tree); ``unseen``: said besides when the command failed there, naming what of the work
    tree it did not see (else empty)."""

    cwd: str
    env: Mapping[str, str]
    note: str = ""
    room: str | None = None
    unseen: str = ""

    def notes(self, exit_code: int, lacked: bool = False) -> tuple[str, ...]:
        """The lines said after a run that exited ``exit_code``: :attr:`note`, and
        :attr:`unseen` when the run failed, unless it ``lacked`` a file git ignores (then
        that file is why: :func:`lacked_note`)."""
        failed = exit_code != 0 and not lacked and self.unseen
        return tuple(n for n in (self.note, self.unseen if failed else "") if n)


@frozen
class Changed:
    """What a run left in a work tree that held a candidate's tree: ``after`` the tree
    it left, ``touched`` the candidate's tracked paths it changed or removed (files it
    created do not count), ``outputs_only`` whether it changed nothing but the run's own
    outputs."""

    after: str
    touched: tuple[str, ...]
    outputs_only: bool = False


def candidate_changes(repo: Repository, tree: str, outputs: Sequence[str] = ()) -> Changed:
    """The one check of whether a run (a ``receipt run`` or a spot check's re-run) left the
    candidate's files as they were (SPEC §5 "Spot check"): the work tree of ``repo``, as
    ``git add -A`` would stage it, against ``tree``, the candidate's tree it held before.
    ``outputs``: files of ``tree`` the reported run itself created, and the reports its
    command names (a file, or a directory's files); rewriting them is no change of the
    candidate.

    Raises:
        GitError: git could not read the work tree.
    """
    after = repo.snapshot_tree()
    delta = repo.tree_delta(tree, after)
    mine = tuple(outputs)
    touched = tuple(
        c.path
        for c in delta
        if c.old_blob is not None and c.old_blob != c.new_blob and not is_output(c.path, mine)
    )
    only = bool(delta) and all(is_output(c.path, mine) for c in delta)
    return Changed(after, touched, only)


def reports_only(repo: Repository, before: str, after: str, outputs: Sequence[str]) -> bool:
    """Whether ``after`` differs from ``before`` only in files under ``outputs`` (the
    reports the command names, :func:`~gentle_hooks.policy.outputs.declared_outputs`)."""
    changes = repo.tree_delta(before, after)
    return bool(changes) and all(is_output(c.path, tuple(outputs)) for c in changes)


def report_words(reports: Sequence[str], before: int, after: int | None) -> str:
    """The note of a run that rewrote ``reports``, tracked files its command names as
    where it writes its report: receipt ``before`` binds the candidate as it was before the
    run, ``after`` (None: none) the work tree as the run left it."""
    shown = ", ".join(reports[:3]) + (", …" if len(reports) > 3 else "")
    left = f", and #{after} binds the work tree as the run left it" if after else ""
    return (
        f"the run rewrote {shown}, the report its command names (a run's output, not what "
        f"it tested): receipt #{before} binds the candidate as it was before the run{left}"
    )


def lacked_note(
    repo: Repository, root: str, obs: Observation
) -> tuple[Observation, tuple[str, ...]]:
    """For a ``receipt run`` that failed in the work tree ``root`` of ``repo``, or in a
    temporary checkout of its candidate (which links in ``root``'s ignored files: it lacks
    what ``root`` lacks), because it lacked a file git ignores that ``root`` lacks and
    another work tree of the repository holds
    (:func:`~gentle_hooks.services.room_lacks.lacked_here`; issue 14: a linked worktree
    lacking a local ``localcfg.py`` was told to fix the change): ``obs`` with its observed
    result saying so (:data:`~gentle_hooks.policy.toolmissing.LACKED_IGNORED`, which a
    block reads back) and the note naming the file, where it is and the copy that brings
    it here; else ``obs`` as it is and no note."""
    found = None if obs.exit_code == 0 else lacked_here(repo, root, obs.tail)
    if found is None:
        return obs, ()
    rel, other = found
    copy = copy_line(other, root, rel)
    kind = "directory" if os.path.isdir(os.path.join(other, rel)) else "file"
    return replace(obs, observed=f"{obs.observed}, {LACKED_IGNORED.format(rel)}"), (
        f"the run lacks the {kind} {rel}, which git ignores: the work tree {other} holds it, "
        "this one does not (git shares no ignored file between worktrees), so the failure "
        f"is this work tree's, not the change's: copy the {kind} here, then report again; "
        f"to copy it, run: {copy}",
    )


#: The most differing paths a note names.
_NAMED = 3


def _differs(repo: Repository, tree: str, snapshot: str, outputs: Sequence[str] = ()) -> str:
    """``notes.txt, src/app.py``: the paths where the work tree's ``snapshot`` (its tree as
    ``git add -A`` would stage it) differs from ``tree`` (at most :data:`_NAMED`, then
    ``…``), or ``""`` when git cannot say."""
    try:
        delta = repo.tree_delta(tree, snapshot)
        paths = sorted({c.path for c in delta if not is_output(c.path, tuple(outputs))})
    except GitError:
        return ""
    more = ", …" if len(paths) > _NAMED else ""
    return f"{', '.join(paths[:_NAMED])}{more}"


#: The most untracked files one printed ``git add`` stages.
_MAX_ADDED = 10


def unseen_add(
    repo: Repository, tree: str, projection: Projection, outputs: Sequence[str] = ()
) -> Command | None:
    """The ``git add`` that stages the files the work tree holds and a ``projection``
    candidate of ``tree`` lacks (untracked, not ignored), for a failed report whose run did
    not see them (issue 14: the hint was words only, and a spot check's way out looped):
    literal pathspecs from the root, runnable as printed anywhere in the work tree; Python
    bytecode and ``outputs`` (the reports the failed command names: its run wrote them)
    left out. None for a candidate other than the staged one, when there is no such file,
    more than :data:`_MAX_ADDED` of them, or git cannot say."""
    if projection is not Projection.STAGED:
        return None
    snapshot = _snapshot(repo)
    if snapshot is None or snapshot == tree:
        return None
    try:
        added = sorted(
            {
                c.path
                for c in repo.tree_delta(tree, snapshot)
                if c.old_blob is None
                and not _bytecode(c.path)
                and not is_output(c.path, tuple(outputs))
            }
        )
    except GitError:
        return None
    if not added or len(added) > _MAX_ADDED:
        return None
    return Command(("add", "--", *(":(top,literal)" + p for p in added)), tool="git")


def _bytecode(path: str) -> bool:
    """Whether ``path`` is Python bytecode (a ``__pycache__`` file, a ``.pyc``): no run
    needs it staged (every run reads bytecode from a directory of its own)."""
    return "__pycache__" in path.split("/") or path.endswith(".pyc")


def _snapshot(repo: Repository) -> str | None:
    """The work tree as ``git add -A`` would stage it (ignored files aside), or None when
    git cannot stage it (then it is not known to hold any tree)."""
    try:
        return repo.snapshot_tree()
    except GitError:
        return None


@contextlib.contextmanager
def run_place(
    repo: Repository,
    root: str,
    cand: Candidate,
    cwd: str,
    dependency_dirs: Sequence[str],
    env: Mapping[str, str],
) -> Iterator[RunPlace]:
    """The place a ``receipt run`` for ``cand`` runs in, from directory ``cwd``.

    A staged or committed candidate the work tree does not hold runs in a temporary linked
    checkout of its tree (the directory ``cwd`` maps to, dependency folders linked in),
    removed on exit, with :func:`~gentle_hooks.services.checkout.run_env`'s environment;
    every other candidate runs in ``cwd`` itself with ``env``. Either way
    ``PYTHONPYCACHEPREFIX`` names an empty directory of its own outside the tree, removed on
    exit: Python reads no ``__pycache__/*.pyc`` of the tree (a planted one compiled with
    ``UNCHECKED_HASH`` would run in place of its source and decide the receipt), as the
    spot check's re-run and the verify room do. The caller's variables that change what a
    test runner loads (``PYTEST_ADDOPTS=--co`` collects and runs nothing:
    :func:`~gentle_hooks.policy.loadenv.without_loading`) are left out, and the note says so.

    Raises:
        UsageError: ``cwd`` is a directory the candidate's tree does not hold.
        GitError / OSError: the checkout could not be made.
    """
    other = _OTHER_CHANGES.get(cand.projection)
    env, dropped = without_loading(env)
    left_out = f"ran without {', '.join(dropped)} (it changes what a test runner loads)"
    # a block's commit worktree holds none of the user's ignored files (a .env the tests
    # read): the run gets, in a checkout, those of the work tree it was started in
    holder = ignored_holder(repo, root, (os.getcwd(),)) if is_commit_worktree(repo, root) else None
    if holder is not None:
        with _held_place(holder, root, cand, cwd, dependency_dirs, left_out * bool(dropped)) as p:
            yield p
        return
    snapshot = None if other is None else _snapshot(repo)
    if other is None or snapshot == cand.tree:
        with scratch_dir("gentle-hooks-pycache-") as pycache:
            yield RunPlace(cwd, {**env, "PYTHONPYCACHEPREFIX": pycache}, left_out * bool(dropped))
        return
    kind = cand.projection.value
    named = "" if snapshot is None else _differs(repo, cand.tree, snapshot)
    rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    rel = "." if rel.startswith("..") else rel
    with stopped_cleanly(), candidate_checkout(repo, root, cand, dependency_dirs) as co:
        run_dir = os.path.normpath(os.path.join(co.root, rel))
        if not os.path.isdir(run_dir):
            fix = "stage it" if cand.projection is Projection.STAGED else "commit it"
            raise UsageError(
                f"receipt run --{kind}: the {kind} tree does not hold {rel!r}, where the "
                f"command would run; {fix} or run from the repository root"
            )
        yield RunPlace(
            run_dir,
            run_env(co, without_loading(scrubbed_env())[0]),
            f"ran in a temporary linked checkout of the {kind} tree"
            f"{co.said}: the work tree has {other}" + f"; {left_out}" * bool(dropped),
            co.root,
            f"the command failed in the {kind} tree; the work tree differs from it in "
            f"{named or 'files'} the run did not see: if it needed one, "
            f"{_WANT[cand.projection]} or list it in .gitignore (ignored files are linked "
            "in), then report again" + _add_words(repo, cand.tree, cand.projection),
        )


@contextlib.contextmanager
def _held_place(
    holder: Repository,
    root: str,
    cand: Candidate,
    cwd: str,
    dependency_dirs: Sequence[str],
    left_out: str,
) -> Iterator[RunPlace]:
    """:func:`run_place` for a run from the commit worktree ``root``: in a temporary linked
    checkout of ``cand``'s tree made from the work tree ``holder``, whose ignored files and
    dependency folders are linked in (:mod:`~gentle_hooks.services.commit_worktree`), in
    the directory ``cwd`` maps to (the checkout's top when the tree does not hold it)."""
    top = holder.paths.toplevel or root
    rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    with stopped_cleanly(), candidate_checkout(holder, top, cand, dependency_dirs) as co:
        run_dir = os.path.normpath(os.path.join(co.root, "." if rel.startswith("..") else rel))
        yield RunPlace(
            run_dir if os.path.isdir(run_dir) else co.root,
            run_env(co, without_loading(scrubbed_env())[0]),
            f"ran in a temporary linked checkout of the {cand.projection.value} tree"
            f"{co.said} with the ignored files of the work tree {top} (the commit's worktree "
            "has none)" + f"; {left_out}" * bool(left_out),
            co.root,
        )


def _add_words(
    repo: Repository, tree: str, projection: Projection, outputs: Sequence[str] = ()
) -> str:
    """``; to stage the untracked ones, run: git add -- ...`` (:func:`unseen_add`, written
    as the shell reads it), or ``""``."""
    from gentle_hooks.policy.shellwords import join

    add = unseen_add(repo, tree, projection, outputs)
    return "" if add is None else f"; to stage the untracked ones, run: git {join(add.words)}"


def unseen_words(
    repo: Repository, tree: str, projection: Projection, outputs: Sequence[str] = ()
) -> str:
    """What a block over a failed report of a ``projection`` candidate of ``tree`` says
    when the work tree does not hold that tree (a ``receipt run`` of it then ran in a
    temporary checkout, :func:`run_place`): the paths the work tree differs from it in, and
    how a file the command needed gets in; ``""`` when the work tree holds the tree but
    for ``outputs`` (the reports the failed command names), for a snapshot candidate, or
    when git cannot say (a work tree it cannot stage)."""
    if projection not in _OTHER_CHANGES:
        return ""
    snapshot = _snapshot(repo)
    if snapshot is None or snapshot == tree:
        return ""
    named = _differs(repo, tree, snapshot, outputs)
    if not named:  # it differs only in the reports the failed run wrote: it saw the rest
        return ""
    return (
        f"its report ran in a temporary linked checkout of the {projection.value} tree; the "
        f"work tree differs from it in {named or 'files'} the run did not see: if the "
        f"command needed one, {_WANT[projection]} or list it in .gitignore (ignored files "
        "are linked in), then report again" + _add_words(repo, tree, projection, outputs)
    )


def does_not_count(
    binding: Binding, touched: Sequence[str], tree: str | None, root: str
) -> GentleError:
    """The one line of a ``receipt run`` whose command changed the candidate's tracked
    ``touched`` files (exit 1: it ran, but does not count), with the ``prefix:`` of a
    report of a command that leaves them alone. ``tree``: the candidate's tree when the
    command ran in a work tree of the user's (None: in a clean room, gone with it), whose
    top is ``root``; its ``git -C ROOT restore`` comes first, putting those files back as
    the candidate holds them in that work tree and no other (the run may have been in a
    verify worktree, ``--cwd``, while the user pastes the line in their own clone),
    runnable as printed from anywhere (literal pathspecs from the root)."""
    shown = ", ".join(touched[:3]) + (", …" if len(touched) > 3 else "")
    back = f"; put them back as they were in {root} with the git restore that follows"
    named = tuple(":(top,literal)" + p for p in touched)
    restore = (
        (
            Command(
                ("-C", root, "restore", f"--source={tree}", "--worktree", "--", *named),
                tool="git",
            ),
        )
        if tree
        else ()
    )
    return GentleError(
        f"not recorded: the command changed the candidate's tracked files ({shown}), so it "
        f"tested something else and does not count as the writer's self-verification"
        + back
        * bool(tree)
        + "; "
        "report a command that leaves tracked files alone",
        exit_code=EXIT_BLOCKED,
        commands=(
            *restore,
            cli("receipt", "run", *binding.for_prefix().words(), "--", label="prefix"),
        ),
    )
