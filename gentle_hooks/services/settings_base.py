"""Which commit the gate's loosening settings are read from for a candidate (SPEC §5 "a
change cannot loosen the gate that judges it"; README "Opting out").

Room ``services``. ``verification.require_observed`` and ``verification.commands`` count
only from a commit the change being judged cannot have written. The candidate's base
commit (the merge-base with the base ref) is one only when the remote the work goes to
holds it (:mod:`gentle_hooks.git.destination`: the branch's upstream remote, else its push
remote or ``origin``; in a push, the remote pushed to, with its side of the pushed refs;
never a remote that is this repository itself, nor another remote's tracking refs): a
base ref named by the environment (``GENTLE_HOOKS_BASE_REF``), git config
(``gentle.baseRef``) or a local branch may point at the change's own unpushed commits, or
at a ref fetched from this repository itself. Otherwise the settings are read from the
merge-base of the candidate with what that remote holds; when there is none, the stricter
of the base and the built-in defaults: ``require_observed`` stays on, and
``verification.commands`` are the base's (declared commands only narrow what counts). A
base ref may so tighten these settings, never loosen them. Read only when the gate
applies or a verdict is judged: the human pass path runs none of this.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.load import load_config
from gentle_hooks.config.settings import Settings
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.declared_suite import base_commands
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import frozen, replace


@frozen
class SettingsBase:
    """Where a candidate's loosening settings come from.

    Attributes:
        commit: the commit to read them from: the candidate's base commit when a remote
            holds it, else the anchor on the upstream or origin's default branch; None when
            the candidate has no base commit or no commit the remote the work goes to
            holds relates to it.
        note: one line saying so when ``commit`` is not the candidate's base commit (the
            base ref moved the base off what any remote holds); None otherwise.
    """

    commit: str | None
    note: str | None = None


def settings_base(repo: Repository, cand: Candidate) -> SettingsBase:
    """The commit ``cand``'s loosening settings are read from (module docstring).

    Raises:
        GitError: git failed.
    """
    base = cand.base.commit
    if base is None or cand.head is None:
        return SettingsBase(None)
    anchor, via = repo.settings_anchor(base, cand.head)
    if anchor == base:
        return SettingsBase(base)
    named = f"base ref {cand.base.ref} ({cand.base.source})" if cand.base.ref else "the base"
    remote = repo.work_remote() or "a remote"
    where = f"{named} @ {base[:12]} is not on what {remote} holds (the remote the work goes to)"
    if anchor is None:
        return SettingsBase(
            None,
            f"{where}, and nothing that remote holds shares history with it: "
            "verification.require_observed stays on, and only the base's "
            "verification.commands count (a change cannot loosen the gate that judges it)",
        )
    return SettingsBase(
        anchor,
        f"{where}: verification settings are read from {anchor[:12]} (merge-base with "
        f"{via}), which no unpushed change wrote",
    )


def require_observed_at(
    repo: Repository, commit: str | None, env: Mapping[str, str], default: bool = True
) -> bool:
    """``verification.require_observed`` of the configuration file committed at ``commit``;
    ``default`` when ``commit`` is None.

    Raises:
        ConfigError: that configuration does not compile; GitError: git failed.
    """
    if commit is None:
        return default
    config = load_config(
        f"{commit}:", repo.gentle_config(), env, read=lambda name: repo.read_path(commit, name)
    )
    return config.settings.verification.require_observed


def require_observed_for(
    repo: Repository,
    cand: Candidate,
    settings: Settings,
    env: Mapping[str, str],
    judged: SettingsBase | None = None,
) -> tuple[bool, str | None]:
    """``verification.require_observed`` as verdicts are judged for ``cand`` (SPEC §9), and
    ``judged``'s note when reading the settings off the base turned it on.

    On by default (a configuration without the key requires it). Off only when the loaded
    configuration (the work tree's) opts out with ``require_observed = false``, and so do
    the configuration committed at the candidate's base commit and the one at the commit
    :func:`settings_base` names: the work tree may add the rule, never drop one its base
    sets, and a base ref on the change's own unpushed commits cannot drop it either (as
    ``gate --range`` reads its configuration from the range's base). No base commit (an
    unborn ``HEAD``, an orphan branch), or no commit a remote holds that relates to it:
    on. The base is read only when the loaded configuration leaves the rule off;
    ``judged``: :func:`settings_base` already found (else found here, only when the base
    opts out).

    Raises:
        ConfigError: a committed configuration does not compile; GitError: git failed.
    """
    if settings.verification.require_observed:
        return True, None
    commit = cand.base.commit
    if commit is None or require_observed_at(repo, commit, env):
        return True, None
    judged = judged or settings_base(repo, cand)
    if judged.commit == commit:  # a remote holds the base: its opt-out stands
        return False, None
    if require_observed_at(repo, judged.commit, env):  # None: on
        return True, judged.note
    return False, None


def judged_settings(
    repo: Repository, cand: Candidate, settings: Settings, env: Mapping[str, str], verdicts: bool
) -> tuple[Settings, str | None]:
    """``settings`` with ``verification.commands`` (and, when ``verdicts`` are there to
    judge, ``verification.require_observed``) as the gate counts them for ``cand``: the
    commands of the commit :func:`settings_base` names when it declares some, else the
    base commit's; and the note that says the settings base moved, when that changed
    either (None otherwise).

    Raises:
        ConfigError: a committed configuration does not compile; GitError: git failed.
    """
    judged = settings_base(repo, cand)
    commands = base_commands(repo, cand.base.commit)
    note: str | None = None
    if judged.commit != cand.base.commit:
        anchored = base_commands(repo, judged.commit)
        if anchored and anchored != commands:
            commands, note = anchored, judged.note
    observed = settings.verification.require_observed
    if verdicts and not observed:
        observed, moved = require_observed_for(repo, cand, settings, env, judged)
        note = note or moved
    verification = replace(settings.verification, commands=commands, require_observed=observed)
    if verification == settings.verification:
        return settings, note
    return replace(settings, verification=verification), note
