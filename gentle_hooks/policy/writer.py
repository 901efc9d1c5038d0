"""Writer profile resolution (seed 000 "How assess resolves the writer profile"; SPEC §5).

Room ``policy`` (pure). The profile is reported and never adds a verifier: a ``mini`` model or
``low`` effort gets the same plan as any other writer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.policy.vocabulary import Effort, WriterSource
from gentle_hooks.values.frozen import frozen

_TOKEN_SPLIT = re.compile(r"[^0-9a-z]+")


@frozen
class WriterProfile:
    """One writer: model id and effort, either of which may be unknown (None)."""

    model: str | None
    effort: Effort | None


@frozen
class ResolvedWriter:
    """``writerProfile`` and ``writerProfileSource`` with the row that decided them.

    Attributes:
        profiles: the distinct writer profiles behind the candidate, in first-seen order
            (runtime evidence can hold several writers; caller and fallback hold one).
        source: runtime | caller | fallback.
        small: True when any profile is small (low effort, ``mini`` model token, unknown).
        row: ``W1``..``W3``.
    """

    profiles: tuple[WriterProfile, ...]
    source: WriterSource
    small: bool
    row: str


def parse_effort(text: str) -> Effort:
    """Parse an effort level (``off minimal low medium high xhigh``, any case).

    Raises:
        PolicyInputError: any other value, listing the six levels.
    """
    try:
        return Effort(text.strip().lower())
    except ValueError:
        levels = " ".join(e.value for e in Effort)
        raise PolicyInputError(f"unknown effort level {text!r}: use one of {levels}") from None


def is_small(profile: WriterProfile) -> bool:
    """A writer is small when its effort is ``low``, ``mini`` is a whole token of its model
    id (``o4-mini`` yes, ``gemini`` no), or its model is unknown."""
    if profile.model is None or not profile.model.strip():
        return True
    if profile.effort is Effort.LOW:
        return True
    return "mini" in _TOKEN_SPLIT.split(profile.model.lower())


def resolve_writer(
    runtime: Sequence[WriterProfile],
    caller: WriterProfile | None,
) -> ResolvedWriter:
    """Resolve the writer profile, first match wins.

    Args:
        runtime: profiles recorded by runtime hooks for the root's pending mutations.
        caller: ``--writer-model``/``--writer-effort`` when given, else None.

    Returns:
        W1 runtime when runtime evidence exists (caller values are ignored then),
        W2 caller when only the caller spoke, W3 fallback (unknown, small) otherwise.
    """
    if runtime:
        distinct = tuple(dict.fromkeys(runtime))
        return ResolvedWriter(
            distinct, WriterSource.RUNTIME, any(is_small(p) for p in distinct), "W1"
        )
    if caller is not None and (caller.model or caller.effort):
        return ResolvedWriter((caller,), WriterSource.CALLER, is_small(caller), "W2")
    unknown = WriterProfile(None, None)
    return ResolvedWriter((unknown,), WriterSource.FALLBACK, True, "W3")
