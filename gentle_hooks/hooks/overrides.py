"""Overrides (SPEC §5 "Overrides"): a block let through is recorded, never silent.

Room ``hooks``. When ``GENTLE_HOOKS_SKIP="<reason>"`` or warn mode lets a blocked
candidate through (:func:`gentle_hooks.hooks.outcome.conclude` decides that),
:func:`record_overrides` records who, when, which candidate and why in the ledger and
refreshes the commit's note, so the override travels with it; :func:`warn_source` names
where warn mode came from. An override bound with ``GENTLE_HOOKS_SKIP_ONLY`` (the
identities of the candidates it lets through, :func:`named_only`) lets nothing through
while a blocked candidate it does not name still blocks; a printed override names the
candidates an earlier one named and its own (:func:`skip_named`, :func:`override_names`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import OverrideRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.report.refuted_text import SKIP_ONLY as SKIP_ONLY
from gentle_hooks.services.assess import AssessResult


def warn_source(call: HookCall, repo: Repository, config: LoadedConfig) -> str:
    """Where warn mode came from: the installed hook (``--warn``, above every setting), else
    the source :meth:`gentle_hooks.config.load.LoadedConfig.origin` names for ``mode`` —
    ``GENTLE_HOOKS_MODE``, ``git config gentle.mode``, or the config file."""
    if call.warn:
        return "installed with --warn"
    origin = config.origin("mode")
    if origin.kind == "env":
        return f"{origin.name}=warn"
    if origin.kind == "git":
        return f"git config {origin.name} warn"
    where = origin.name or "config file"
    if repo.paths.toplevel and os.path.isabs(where):
        where = os.path.relpath(where, repo.paths.toplevel)
    return f'{where}: mode = "warn"'


def record_overrides(
    repo: Repository, hook: str, blocked: Sequence[tuple[AssessResult, str | None]], why: str
) -> str:
    """Record one override per blocked candidate, and refresh the notes of the commits they
    belong to; return who overrode (the committer ident).

    Args:
        blocked: each blocked candidate's assessment and the pushed ref it was judged for
            (None for a commit); why: the reason recorded.

    Raises:
        StoreError: the ledger cannot be written.
    """
    who = repo.ident()
    root = repo.paths.toplevel or repo.paths.git_dir
    with Ledger.open(ledger_path(repo.paths.common_dir)) as led:
        # one transaction: an override refused (a full disk) lets nothing through, so
        # none of it may be stored
        led.add_all(
            [
                OverrideRecord(
                    root=root,
                    identity=result.candidate.identity,
                    hook=hook,
                    who=who,
                    reason=why,
                    missing=tuple(m.value for m in result.decision.missing),
                    target=target,
                )
                for result, target in blocked
            ]
        )
        from gentle_hooks.notes.sync import refresh_for_identity  # only when overriding

        # the override travels with the commit's note (SPEC §5, §8); a candidate pushed on
        # several refs has one note to refresh
        once = {(r.candidate.identity, r.candidate.head): r.candidate for r, _ in blocked}
        for candidate in once.values():
            refresh_for_identity(repo, led, candidate)
    return who


def named_only(env: Mapping[str, str]) -> set[str] | None:
    """The candidate identities :data:`SKIP_ONLY` names in ``env`` (separated by spaces or
    commas), or None when it is unset or empty (the override, if any, is not bound)."""
    words = env.get(SKIP_ONLY, "").replace(",", " ").split()
    return set(words) if words else None


def skip_named(env: Mapping[str, str], identities: Sequence[str]) -> list[str]:
    """The ``identities`` (of the blocked candidates, in the order they were judged) that
    :data:`SKIP_ONLY` names in ``env``, each once (empty when it names none)."""
    only = named_only(env) or set()
    out: list[str] = []
    for ident in identities:
        if ident in only and ident not in out:
            out.append(ident)
    return out


def override_names(named: Sequence[str], identity: str) -> list[str]:
    """What a printed override of a blocked candidate names: ``named`` (those an override
    of the same git command already named), then ``identity``, each once."""
    return [*named, *([identity] if identity not in named else [])]
