"""Whether a reported command runs what the change itself defines (SPEC §5 "Spot check",
§9; row C1-own), for the parent's spot check, ``receipt run`` and ``gate --range
--reverify``.

Room ``services``. A reported command becomes one verifier check and is judged by
:func:`~gentle_hooks.services.defined.checks_defined` with the ``PYTHONPATH`` its re-run
gets, its entries inside the tree named relative to the command's directory (so a module
the change adds on an entry the re-run puts first, ``src/pytest.py``, takes the place of
the program the command starts and defines it).

* :func:`command_defined_by_change` — before a re-run's checkout exists: the entries the
  environment names, and, for a re-run in a temporary checkout, the places the install
  files of a linked or reached virtual environment name (an estimate: an editable install
  only the interpreter shows, a ``.pth`` ``import`` line installing a finder, is not in it).
* :func:`checkout_defined` — once the checkout exists: the entries its re-run's environment
  really has (:func:`~gentle_hooks.services.checkout.run_env`, with the places the
  checkout's import composition put first: :mod:`~gentle_hooks.services.checkout_imports`).
  This is what decides; a re-run is refused when it names a path.
* :func:`receipt_defined_by_change` — :func:`command_defined_by_change` of a receipt.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.config.settings import DEFAULT_DEPENDENCY_DIRS
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import Receipt
from gentle_hooks.services.checkout import editable_redirects, env_redirects
from gentle_hooks.services.defined import checks_defined
from gentle_hooks.services.record import Bound
from gentle_hooks.values.candidate import Candidate

#: A reported command: its text, its argument vector (None: ``sh -c`` of the text), the
#: directory it runs in relative to the tree's root.
Reported = tuple[str, tuple[str, ...] | None, str]


def receipt_defined_by_change(
    bound: Bound, receipt: Receipt, env: Mapping[str, str], *, in_checkout: bool = False
) -> tuple[str, ...]:
    """The paths the candidate adds, changes or removes that define what ``receipt``'s
    command runs (:func:`command_defined_by_change` of its command, argument vector and
    directory, with the binding's ``verification.dependency_dirs``), sorted.

    Raises:
        GitError: reading the trees failed.
    """
    return command_defined_by_change(
        bound.repo,
        bound.root,
        bound.candidate,
        (receipt.command, receipt.argv, receipt.cwd),
        env,
        bound.settings.verification.dependency_dirs,
        in_checkout=in_checkout,
    )


def command_defined_by_change(
    repo: Repository,
    root: str,
    cand: Candidate,
    command: Reported,
    env: Mapping[str, str],
    dependency_dirs: Sequence[str] = (),
    *,
    in_checkout: bool = False,
) -> tuple[str, ...]:
    """The paths the candidate ``cand`` adds, changes or removes that define what a
    reported ``command`` runs, as
    :func:`~gentle_hooks.services.defined.defined_by_change` judges a verifier's check, run
    with ``env`` (the re-run's; a ``PYTHONPATH`` entry naming a directory of the work tree
    ``root`` by its absolute path counts as that directory), sorted. ``in_checkout``: the
    re-run runs in a temporary checkout, where the places an editable install in one of the
    dependency folders (the defaults and ``dependency_dirs``) or reached by ``env`` names
    come first on ``PYTHONPATH`` (:func:`~gentle_hooks.services.checkout.run_env`: a
    ``src/pytest.py`` the change adds then comes before the installed pytest) — read from
    the install files, before the checkout exists; :func:`checkout_defined` decides once
    it does.

    Raises:
        GitError: reading the trees failed.
    """
    entries: list[str] = []
    if in_checkout:
        # the folders a checkout links in (checkout.link_dependencies): those holding a venv
        deps = (*DEFAULT_DEPENDENCY_DIRS, *dependency_dirs)
        # an editable install linked in, or reached on PATH (checkout.env_redirects)
        found = [r.rel for r in env_redirects((root,), root, deps, env)]
        places = dict.fromkeys((*editable_redirects(root, deps), *found))
        entries += [os.path.join(root, p) for p in places]
    entries += env.get("PYTHONPATH", "").split(os.pathsep)
    return _entries_defined(repo, root, cand, command, entries)


def checkout_defined(
    repo: Repository, cand: Candidate, root: str, command: Reported, env: Mapping[str, str]
) -> tuple[str, ...]:
    """The paths ``cand`` adds, changes or removes that define what ``command`` runs in the
    temporary checkout of its tree at ``root`` with ``env``, the environment its re-run gets
    there (:func:`~gentle_hooks.services.checkout.run_env` of the checkout): each
    ``PYTHONPATH`` entry inside ``root`` counts as that directory of the candidate's tree
    (the import guard's directory is outside it), sorted.

    Raises:
        GitError: reading the trees failed.
    """
    return _entries_defined(repo, root, cand, command, env.get("PYTHONPATH", "").split(os.pathsep))


def _entries_defined(
    repo: Repository, root: str, cand: Candidate, command: Reported, entries: Sequence[str]
) -> tuple[str, ...]:
    """:func:`~gentle_hooks.services.defined.checks_defined` of ``command`` as one check run
    with ``PYTHONPATH`` ``entries``, an absolute entry under ``root`` (the tree's root)
    made relative to the command's directory."""
    text, argv, rel = command
    check = Check("criterion", text, text, argv if argv is not None else ("sh", "-c", text))
    run_dir = os.path.join(root, rel)
    # absolute entries under the root: what the re-run imports from the candidate's tree
    relative = [
        os.path.relpath(e, run_dir)
        if os.path.isabs(e) and (e + os.sep).startswith(root + os.sep)
        else e
        for e in entries
    ]
    variables = {"PYTHONPATH": ":".join(relative)} if any(entries) else {}
    return checks_defined(repo, cand, (check,), variables, rel)[0]
