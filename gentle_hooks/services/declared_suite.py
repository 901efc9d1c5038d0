"""The project's declared full suite, as ``verify run`` counts it (SPEC §9; seed 001 "Rules":
"A pass verdict requires the full suite to have run"), and its declared verification
commands, as every gate counts them (SPEC §5 "Spot check": ``verification.commands``, read
from the base).

Room ``services``. A brief's ``fullSuite`` is the brief's word; which tests make the
project's full suite is the repository's: ``[verification] full_suite`` in
``.gentle-hooks.toml`` (or ``[tool.gentle-hooks.verification]`` in ``pyproject.toml``).
Only the configuration committed at the candidate's base commit counts, as for
``require_observed``: a writer must not redefine "the full suite" in the change being
verified. :func:`declared_suite` reads it; :mod:`gentle_hooks.services.verify` runs it as the
full suite of every brief. :func:`base_commands` reads ``verification.commands`` the same
way for the commit gate, the push gate, the spot check and the server: a change cannot
loosen (or declare) the commands that verify it.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.load import CONFIG_FILE, PYPROJECT, load_config, read_file_config
from gentle_hooks.config.settings import Settings
from gentle_hooks.errors import EXIT_BLOCKED, GentleError, shown_field
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen, replace

#: The line that says how to declare the project's full suite.
DECLARE_HOW = (
    'declare the project\'s full suite: [verification] full_suite = "python3 -m pytest -q" '
    "in .gentle-hooks.toml (or [tool.gentle-hooks.verification] in pyproject.toml), committed"
)


@frozen
class DeclaredSuite:
    """The full suite the repository declares for one candidate.

    Attributes:
        command: ``verification.full_suite`` committed at the candidate's base commit, or
            None (nothing declared there, or no base commit).
        work_tree: the work tree's configuration's, when it is not ``command`` (it does not
            count: it is part of the change, or not yet committed); None otherwise.
    """

    command: str | None
    work_tree: str | None = None

    def note(self) -> str | None:
        """One line when the work tree declares another suite than the base, else None."""
        if self.work_tree is None:
            return None
        base = f"`{self.command}`" if self.command else "none"
        return (
            f"verification.full_suite `{self.work_tree}` in your work tree is not the one "
            f"committed at the candidate's base ({base}): the base's counts, so a change "
            "cannot redefine the suite that verifies it; commit it on its own first"
        )

    def load_faults(self) -> tuple[str, ...]:
        """Rule B5 for the declared suite's own command, as for a brief's checks
        (:func:`~gentle_hooks.artifacts.brief.command_load_faults`): one line per variable
        it sets that changes what its runner loads (``PYTEST_ADDOPTS="--ignore=x" pytest``,
        ``env -i PYTEST_ADDOPTS=... pytest``), naming it; empty when it sets none or
        nothing is declared."""
        if self.command is None:
            return ()
        # here, not at the top: the gates read base_commands on the pass path, and the
        # brief's model brings pydantic
        from gentle_hooks.artifacts.brief import command_load_faults

        what = f"verification.full_suite `{shown_field(self.command)}` (committed)"
        return command_load_faults(((what, self.command),))

    def refuse_loading(self) -> None:
        """Raises GentleError (exit 1, as a brief's check refused by rule B5, before
        anything runs): the first of :meth:`load_faults`."""
        for fault in self.load_faults()[:1]:
            raise GentleError(f"check refused: {fault}", exit_code=EXIT_BLOCKED)


def declared_suite(
    repo: Repository, cand: Candidate, settings: Settings, env: Mapping[str, str]
) -> DeclaredSuite:
    """``verification.full_suite`` as ``verify run`` counts it for ``cand``: the base
    commit's (its configuration file, never git config or the environment), with the work
    tree's named when it differs (``settings``: the work tree's loaded configuration).

    Raises:
        ConfigError: the base commit's configuration does not compile.
        GitError: git failed reading it.
    """
    commit = cand.base.commit
    command: str | None = None
    if commit is not None:
        base = load_config(
            f"{commit}:", repo.gentle_config(), env, read=lambda name: repo.read_path(commit, name)
        )
        command = base.settings.verification.full_suite
    mine = settings.verification.full_suite
    return DeclaredSuite(command, mine if mine != command else None)


def base_commands(repo: Repository, commit: str | None) -> tuple[str, ...]:
    """``verification.commands`` of the configuration file committed at ``commit`` (the
    candidate's base: the merge-base with the base ref; on a server the pushed ref's old
    value); empty when ``commit`` is None or declares none. Never the work tree's, the
    index's or the candidate's own file: a change that edits its declared commands is
    judged by the ones its base declares.

    Raises:
        ConfigError: the base commit's configuration file does not validate.
        GitError: git failed reading it.
    """
    if commit is None:
        return ()
    # both files in one process, kept: a push's commits on one base read them once; with
    # want_base_commands first, in the batch the gate starts anyway
    got = repo.read_blobs(config_names(commit))
    raw, _ = read_file_config(f"{commit}:", read=lambda name: got.get(f"{commit}:{name}"))
    return tuple(raw.verification.commands or ()) if raw is not None else ()


def config_names(commit: str) -> list[str]:
    """The ``COMMIT:PATH`` names of the configuration files at ``commit``."""
    return [f"{commit}:{name}" for name in (CONFIG_FILE, PYPROJECT)]


def want_base_commands(repo: Repository, commit: str | None) -> None:
    """Have the next blob batch read the configuration files :func:`base_commands` reads
    (:meth:`~gentle_hooks.git.objects.Objects.want_blobs`): no process of their own."""
    if commit is not None:
        repo.want_blobs(config_names(commit))


def with_base_commands(repo: Repository, commit: str | None, settings: Settings) -> Settings:
    """``settings`` with ``verification.commands`` replaced by :func:`base_commands`."""
    commands = base_commands(repo, commit)
    if commands == settings.verification.commands:
        return settings
    return replace(settings, verification=replace(settings.verification, commands=commands))
