"""Writer profile resolution (seed 000 "How assess resolves the writer profile"; SPEC §5).

Room ``policy`` (pure). The profile is reported and never adds a verifier: a ``mini`` model or
``low`` effort gets the same plan as any other writer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gentle_hooks.errors import PolicyInputError, quoted
from gentle_hooks.policy.vocabulary import Effort, WriterSource
from gentle_hooks.values.frozen import frozen

#: ``mini`` as a whole token of a model id (upstream ``SMALL_MODEL_ID_TOKEN``).
_MINI_TOKEN = r"(?:^|[-_./:\s])mini(?:$|[-_./:\s])"


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
        small: True when any profile is small (:func:`is_small`).
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
        raise PolicyInputError(
            f"unknown effort level {quoted(text)}: use one of {levels}"
        ) from None


def is_small(profile: WriterProfile) -> bool:
    """Upstream's small-writer rule (gentle-pi ``isSmallWriterProfile``), first match wins:

    * effort ``low``: small;
    * a model id: small exactly when ``mini`` is a whole token of it, case-insensitively,
      delimited by the id's ends, ``- _ . / :`` or whitespace (``o4-mini``,
      ``openai/gpt-5.4-mini``, ``mini-high`` yes; ``gemini-2.5-pro`` no);
    * no model id: small only when the effort is unknown too (no signal at all); a known
      effort other than ``low`` is a known-large signal (``--writer-effort high`` alone is
      not small).

    A model id is any string, a blank one too (upstream: ``typeof modelId === "string"``):
    it holds no ``mini`` token, so it is not small.
    """
    if profile.effort is Effort.LOW:
        return True
    if profile.model is not None:
        return re.search(_MINI_TOKEN, profile.model, re.IGNORECASE) is not None  # compiled on use
    return profile.effort is None


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
