"""The verdict service (SPEC §6 "verdict", §9): store a ``DelegationVerdict`` for a candidate.

Room ``services``. Parses and judges with :mod:`gentle_hooks.artifacts.verdict`, renders with
:mod:`gentle_hooks.artifacts.markdown`, binds to the candidate through
:mod:`gentle_hooks.services.record` and keeps the verdict's JSON, its acceptance, the
reasons it was not accepted and its Markdown view in the ledger (never in the work tree).
A verdict counts only for the candidate it was recorded for.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.artifacts.markdown import render_verdict_markdown
from gentle_hooks.artifacts.verdict import parse_verdict, verdict_acceptance, verdict_json
from gentle_hooks.errors import UsageError
from gentle_hooks.ledger.records import VerdictRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sync import refresh_for_identity
from gentle_hooks.services.record import (
    Binding,
    Bound,
    Recorded,
    bind,
    open_root,
    open_store,
    store_path,
)


def add_verdict(binding: Binding, data: bytes, source: str, env: Mapping[str, str]) -> Recorded:
    """``verdict add``: validate a verdict, judge it, and store it for the bound candidate.

    Every valid verdict is stored, accepted or not: one that is not accepted is shown as
    the reason the verifier requirement is still missing.

    Args:
        binding: the candidate; data: the verdict JSON bytes; source: its name for
            messages (a path or ``-``).

    Returns:
        The stored :class:`~gentle_hooks.ledger.records.VerdictRecord` (``accepted``,
        ``reasons``) with a note saying whether it counts.

    Raises:
        ArtifactInputError: not UTF-8, not JSON, not a DelegationVerdict (exit 2).
        GitError / StoreError: as :func:`gentle_hooks.services.record.bind` / ``open_store``.
    """
    verdict = parse_verdict(data, source)
    accepted, reasons = verdict_acceptance(verdict)
    bound = bind(binding, env)
    with open_store(bound.repo) as led:
        stored = led.add(
            VerdictRecord(
                root=bound.root,
                identity=bound.candidate.identity,
                brief_id=verdict.briefId,
                status=verdict.status,
                accepted=accepted,
                reasons=reasons,
                json=verdict_json(verdict),
                markdown=render_verdict_markdown(verdict),
            )
        )
        refresh_for_identity(bound.repo, led, bound.candidate)
    note = (
        "accepted: counts as the independent gentle-ai-verify run for this candidate only"
        if accepted
        else "not accepted: it does not satisfy the verifier requirement"
    )
    return Recorded(led.path, stored, bound.candidate, (note,))


def list_verdicts(binding: Binding, env: Mapping[str, str]) -> tuple[Bound, list[VerdictRecord]]:
    """``verdict list``: verdicts stored for the bound candidate (reads only)."""
    bound = bind(binding, env)
    led = Ledger.open_existing(store_path(bound.repo))
    if led is None:
        return bound, []
    with led:
        return bound, led.verdicts(bound.candidate.identity)


def show_verdict(cwd: str | None, verdict_id: int) -> tuple[str, VerdictRecord]:
    """``verdict show ID``: one stored verdict, whatever candidate it belongs to.

    Returns:
        (ledger path, the record).

    Raises:
        UsageError: no ledger, or no verdict with that id.
        GitError / StoreError: the repository or ledger cannot be opened.
    """

    repo, _ = open_root(cwd)
    path = store_path(repo)
    led = Ledger.open_existing(path)
    found = None
    if led is not None:
        with led:
            found = led.verdict(verdict_id)
    if found is None:
        raise UsageError(f"no verdict #{verdict_id} (see: gentle-hook verdict list)")
    return path, found
