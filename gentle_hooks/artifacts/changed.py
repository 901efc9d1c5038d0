"""A check that changed the artifact it judged: what a verdict says of it (seed 001 "Scope").

Room: artifacts (imports pydantic and :mod:`.jsonio`); pure. ``gentle-hook verify run``
stops at the first check that changed the candidate's files in its clean room (rows C0 and
S0 of :mod:`gentle_hooks.artifacts.observation`): a verifier never repairs the artifact it
judges, so the checks after it do not run. The verdict names that check and what it changed
(:class:`ChangedArtifact`, field ``changedArtifact`` of
:class:`~gentle_hooks.artifacts.verdict.DelegationVerdict`), and rule V0 of
:data:`~gentle_hooks.artifacts.verdict.VERDICT_RULES` says so in :func:`changed_fault`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field, StrictStr

from gentle_hooks.artifacts.jsonio import NonNegative, StrictModel

#: What a check is to the verifier: a success criterion, a negative test (must fail), or
#: the full suite.
CheckKind = Literal["criterion", "negative", "suite"]
#: Most paths a :class:`ChangedArtifact` lists; the rest are counted in ``morePaths``.
MAX_CHANGED_PATHS = 20
_NonBlank = Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
_LABEL = {"criterion": "criterion", "negative": "negative test", "suite": "full suite"}


class ChangedArtifact(StrictModel):
    """The check that changed the artifact it judged, where the verify run stopped.

    Attributes:
        kind: criterion, negative or suite; command: the check's command as run.
        paths: what it changed, relative to the candidate's tree (``..`` for the room beside
            it, ``../base/...`` in the base tree's copy), sorted, at most
            :data:`MAX_CHANGED_PATHS`; morePaths: how many more it changed.
    """

    kind: CheckKind
    command: _NonBlank
    paths: Annotated[tuple[_NonBlank, ...], Field(min_length=1, max_length=MAX_CHANGED_PATHS)]
    morePaths: NonNegative = 0


def changed_artifact(kind: CheckKind, command: str, paths: Sequence[str]) -> ChangedArtifact:
    """The :class:`ChangedArtifact` of one check and every path it changed (bounded)."""
    ordered = tuple(sorted(paths))
    return ChangedArtifact(
        kind=kind,
        command=command,
        paths=ordered[:MAX_CHANGED_PATHS],
        morePaths=max(0, len(ordered) - MAX_CHANGED_PATHS),
    )


def changed_words(changed: ChangedArtifact) -> str:
    """What the check did, in words: ``the criterion `CMD` changed README.md, m.py and 3
    more`` (the command cut at 60 characters)."""
    shown = ", ".join(changed.paths[:3])
    more = len(changed.paths) - 3 + changed.morePaths
    if more > 0:
        shown += f" and {more} more"
    command = " ".join(changed.command.split())
    if len(command) > 60:
        command = command[:59] + "…"
    return f"the {_LABEL[changed.kind]} `{command}` changed {shown}"


def changed_fault(changed: ChangedArtifact) -> str:
    """Rule V0's reason: the check that stopped the run, what it changed, and the way out
    (the check leaves the candidate's files alone; the brief, or the change's own test,
    corrected; verified again)."""
    return (
        f"the verify run stopped where {changed_words(changed)} in the clean room: a verifier "
        "never judges an artifact it changed, so the checks after it did not run; make that "
        "check leave the candidate's files alone (its outputs in a path .gitignore ignores, or "
        "under $TMPDIR): correct the brief (or the change's own test that writes them), then "
        "verify again"
    )
