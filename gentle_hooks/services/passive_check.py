"""A ``passive`` native answer, verified rather than believed (SPEC §4, §5, §8).

Room ``services``. ``passive`` is the one native tier that lowers what a change needs
(a structural readback instead of a spot check), so a local gate does not take it from
what the change itself could have set:

* the built-in classifier's tables (``[risk]``) come from the configuration committed at
  the candidate's base commit, as ``gate --range`` and the server read theirs: an
  uncommitted or untracked ``.gentle-hooks.toml`` with ``doc_extensions = [".py"]`` does
  not make source passive. A human's own change of the tables counts once it is committed
  to the base (the branch the candidate is judged against);
* an external ``gentle-ai`` binary may only raise the tier: its ``passive`` stands only
  when the built-in classifier agrees.

When the base commits tables of its own and the remote the work goes to does not hold it
(a base ref on unpushed commits, or on a ref fetched from this repository itself), the
tables committed at the commit :mod:`gentle_hooks.services.settings_base` names (the
packaged ones when there is none)
must find the change passive too: a change cannot loosen the gate that judges it. When
either would lower the tier, the built-in answer with those tables is taken, with one
line saying which configuration applied (:func:`checked_answer`). Other tiers
are not re-checked: ``medium`` and ``high`` plan the same without an escalation (SPEC §5).
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.load import load_config
from gentle_hooks.config.settings import RiskSettings, Settings
from gentle_hooks.git.repository import Repository
from gentle_hooks.native.builtin import assess_native_builtin
from gentle_hooks.native.provider import BUILTIN, NativeAnswer
from gentle_hooks.policy.escalation import Escalation
from gentle_hooks.values.candidate import Candidate

PASSIVE = "passive"


def committed_risk(
    repo: Repository, cand: Candidate, env: Mapping[str, str]
) -> tuple[RiskSettings, str]:
    """The classifier tables committed at ``cand``'s base commit (the packaged ones when it
    holds no configuration, or when there is no base commit), and where they were read.

    Raises:
        ConfigError: the base commit's configuration does not compile.
        GitError: git failed reading it.
    """
    commit = cand.base.commit
    if commit is None:
        return RiskSettings(), "the packaged defaults (no base commit)"
    base = load_config(
        f"{commit}:", repo.gentle_config(), env, read=lambda name: repo.read_path(commit, name)
    )
    shown = f"{cand.base.ref} @ {commit[:12]}" if cand.base.ref else commit[:12]
    if base.settings.config_file is None:
        return base.settings.risk, f"the packaged defaults (no configuration committed at {shown})"
    return base.settings.risk, f"the configuration committed at {shown}"


def checked_answer(
    repo: Repository,
    cand: Candidate,
    settings: Settings,
    answer: NativeAnswer,
    escalations: tuple[Escalation, ...],
    env: Mapping[str, str],
) -> tuple[NativeAnswer, str | None]:
    """``answer``, or the built-in classifier's with the base's tables when ``answer`` says
    ``passive`` and that does not (module docstring); with the line saying so, else None.

    Runs nothing when the answer is not ``passive``, when an escalation makes the plan
    ``high`` anyway, or when it is the built-in classifier's with the very tables
    committed at the base.

    Raises:
        ConfigError: the base commit's configuration does not compile.
        GitError: git failed.
    """
    native = answer.native
    if native is None or native.native_risk != PASSIVE or escalations:
        return answer, None  # an escalated plan is high whatever the native tier
    from gentle_hooks.services.settings_base import settings_base

    checks = [committed_risk(repo, cand, env)]
    # tables committed at a base no remote holds count only with those of the commit a
    # remote holds; asked only when the base commits tables of its own (no git process
    # for a change judged with the packaged ones)
    if checks[0][0] != RiskSettings():
        judged = settings_base(repo, cand)
        if judged.commit != cand.base.commit:
            checks.append(risk_at(repo, judged.commit, env))
    for risk, where in checks:
        if answer.provider == BUILTIN and risk == settings.risk:
            continue
        changes, builtin = assess_native_builtin(repo, cand, risk)
        if builtin.native_risk != PASSIVE:
            return NativeAnswer(changes, builtin, None, BUILTIN), _not_passive(
                answer, builtin.native_risk, where
            )
    return answer, None


def risk_at(
    repo: Repository, commit: str | None, env: Mapping[str, str]
) -> tuple[RiskSettings, str]:
    """The classifier tables committed at ``commit``, a commit a remote holds
    (:mod:`gentle_hooks.services.settings_base`; the packaged ones when it holds none or is
    None), and where they were read.

    Raises:
        ConfigError: its configuration does not compile; GitError: git failed.
    """
    if commit is None:
        return RiskSettings(), "the packaged defaults (no remote the work goes to holds the base)"
    base = load_config(
        f"{commit}:", repo.gentle_config(), env, read=lambda name: repo.read_path(commit, name)
    )
    return base.settings.risk, f"{commit[:12]}, the commit a remote holds the base stands on"


def _not_passive(answer: NativeAnswer, tier: str, where: str) -> str:
    """The line saying the answer's ``passive`` did not stand, and which tables said ``tier``."""
    if answer.provider == BUILTIN:
        return (
            f"native {tier}, not passive: risk tables from {where} (a work "
            "tree's own count once committed to the base)"
        )
    return (
        f"native {tier}, not passive: {answer.provider} answered passive, "
        f"the built-in classifier with risk tables from {where} does not (a native "
        "answer only raises the tier)"
    )
