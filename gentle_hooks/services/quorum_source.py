"""What ``quorum tally --observed`` checks an upheld vote's evidence against: the
candidate's tree and the commands the clean room ran, from a verdict ``verify run`` wrote
and this repository's ledger recorded (SPEC §9; seed 003: evidence reproduces or it
refutes; issue 18, refuter r18o finding 3).

Room ``services``.

* :func:`observed_source` — the :class:`~gentle_hooks.quorum.checkable.CheckSource` of a
  DelegationVerdict file: its candidate's tree (read with git, at most :data:`MAX_FILES`
  files of at most :data:`MAX_BYTES` each) and its criteria's observed commands and exit
  statuses. Refused (exit 2, one line) when the file is no verdict, names no candidate, or
  is not one a ``verify run`` of this repository observed
  (:func:`~gentle_hooks.services.verdict_filing.observation_fault`): a hand-written
  record of commands is not the clean room's.
* :func:`tree_source` — the :class:`~gentle_hooks.quorum.checkable.CheckSource` of a
  commit of the repository (``quorum tally --tree REV``): its tree, read as above, and no
  clean-room record (``observed`` None: a command is checked by nothing, so a vote resting
  on one alone stays unchecked).
* :func:`tally_source` — what one tally checks against: ``--observed``, ``--tree`` or the
  candidate its verdict sets name (a full commit or tree id, read as ``--tree`` reads a
  commit), refused (exit 2, one line) when an id is no commit or tree of this repository,
  or when two of them name different trees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gentle_hooks.artifacts.verdict import parse_verdict
from gentle_hooks.bounded import read_regular
from gentle_hooks.errors import UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.quorum.checkable import CheckSource
from gentle_hooks.services.record import open_root, open_store
from gentle_hooks.services.verdict_filing import observation_fault, observed_run

#: The most files of the candidate's tree one tally reads.
MAX_FILES = 64
#: The largest file read, in bytes.
MAX_BYTES = 1 << 20


def observed_source(path: str, cwd: str | None = None) -> CheckSource:
    """The :class:`~gentle_hooks.quorum.checkable.CheckSource` of the verdict at ``path``
    (module docstring), in the repository at ``cwd``.

    Raises:
        UsageError: not a verdict ``verify run`` observed here (exit 2).
        InputFileError / ArtifactInputError / GitError / StoreError: unreadable file,
            malformed verdict, no repository, unusable ledger (exit 2).
    """
    verdict = parse_verdict(read_regular(path), path)
    if verdict.candidate is None:
        raise UsageError(
            f"--observed {path}: it names no candidate; pass a verdict `verify run` wrote"
        )
    repo, _ = open_root(cwd)
    with open_store(repo) as led:
        if observed_run(led, verdict, verdict.candidate.identity) is None:
            raise UsageError(
                f"--observed {path}: {observation_fault(led, verdict, verdict.candidate.identity)}"
            )
    observed = tuple(
        (c.observed.command, c.observed.exitCode) for c in verdict.criteria if c.observed
    )
    return CheckSource(verdict.candidate.tree, _reader(repo, verdict.candidate.tree), observed)


def tree_source(rev: str, cwd: str | None = None) -> CheckSource:
    """The :class:`~gentle_hooks.quorum.checkable.CheckSource` of commit ``rev`` of the
    repository at ``cwd``: its tree, and no clean-room record.

    Raises:
        GitError: no repository, or ``rev`` is no commit there (exit 2).
    """
    repo, _ = open_root(cwd)
    tree = repo.tree_of(repo.resolve_commit(rev, "--tree"))
    return CheckSource(tree, _reader(repo, tree), None)


def tally_source(
    named: Sequence[tuple[str, str]],
    observed: str | None = None,
    tree: str | None = None,
    cwd: str | None = None,
) -> CheckSource | None:
    """The :class:`~gentle_hooks.quorum.checkable.CheckSource` one ``quorum tally`` checks
    upheld evidence against; None when nothing names the candidate (row ``Q6U``).

    Args:
        named: (source, full object id) of each candidate the verdict sets name
            (:func:`~gentle_hooks.quorum.ballot.named_candidates`).
        observed / tree: ``--observed VERDICT`` / ``--tree REV``, at most one of them.

    Returns:
        ``--observed``'s source (its clean-room record kept) or ``--tree``'s when given,
        else the named candidate's tree with no clean-room record; a commit and its own
        tree id name one candidate.

    Raises:
        UsageError: both ``observed`` and ``tree``; a named id that is no object here or
            names a blob; two names of different trees (sets, ``--tree``, ``--observed``):
            one tally checks one candidate (exit 2, one line). As :func:`observed_source`
            and :func:`tree_source` for theirs.
    """
    if observed is not None and tree is not None:
        raise UsageError("--observed and --tree name the candidate twice: pass one")
    source = None
    if observed is not None:
        source = observed_source(observed, cwd)
    elif tree is not None:
        source = tree_source(tree, cwd)
    if not named:
        return source
    repo, _ = open_root(cwd)
    trees = [(label, oid, _named_tree(repo, label, oid)) for label, oid in named]
    label, oid, first = trees[0]
    for other_label, other_oid, other in trees[1:]:
        if other != first:
            raise UsageError(
                f"{other_label}: its candidate {other_oid[:12]} is not {label}'s "
                f"({oid[:12]}): one tally judges one candidate's tree"
            )
    if source is None:
        return CheckSource(first, _reader(repo, first), None)
    if source.tree != first:
        flag = f"--observed {observed}" if observed is not None else f"--tree {tree}"
        raise UsageError(
            f"{flag} is tree {source.tree[:12]}, but {label} names candidate {oid[:12]} "
            f"(tree {first[:12]}): one tally checks one candidate; drop one or tally apart"
        )
    return source


def _named_tree(repo: Repository, label: str, oid: str) -> str:
    """The tree a verdict set's candidate id names in ``repo``.

    Raises:
        UsageError: no such object here, or a blob (exit 2).
    """
    found = repo.tree_named(oid)
    if found is not None:
        return found
    kind = repo.object_kind(oid)
    if kind is not None:
        raise UsageError(
            f"{label}: candidate {oid[:12]} names a {kind}, not a commit or tree: name the "
            "commit the verdicts judged"
        )
    raise UsageError(
        f"{label}: candidate {oid[:12]} is no object of this repository: tally where its "
        "commit is (fetch it first), or fix the id"
    )


def _reader(repo: Repository, tree: str) -> Callable[[str], Sequence[str] | None]:
    """The lines of a path of ``tree``, at most :data:`MAX_FILES` files of at most
    :data:`MAX_BYTES` each, none outside it."""
    cache: dict[str, Sequence[str] | None] = {}

    def lines(rel: str) -> Sequence[str] | None:
        if rel not in cache:
            if len(cache) >= MAX_FILES or rel.startswith(("/", "-")) or ".." in rel.split("/"):
                return None
            data = repo.read_path(tree, rel)
            ok = data is not None and len(data) <= MAX_BYTES
            cache[rel] = data.decode("utf-8", "replace").splitlines() if ok and data else None
        return cache[rel]

    return lines
