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
