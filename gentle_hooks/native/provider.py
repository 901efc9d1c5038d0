"""Native provider choice (SPEC §4 "Providers"): ``builtin``, ``gentle-ai`` or ``auto``.

Layer: native. :func:`assess_native` asks the configured provider about one candidate and
always answers with the diff's per-path stats; the ``gentle-ai`` binary's module
(:mod:`gentle_hooks.native.binary`) is imported only when that provider is chosen or
looked for.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.config.settings import Settings
from gentle_hooks.errors import UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.native.builtin import assess_native_builtin
from gentle_hooks.native.result import NativeAssessment
from gentle_hooks.policy.escalation import Escalation
from gentle_hooks.values.candidate import Candidate, PathChange
from gentle_hooks.values.frozen import frozen

#: Native providers (SPEC §4; config ``native.provider``, ``--native``).
BUILTIN, GENTLE_AI, AUTO = "builtin", "gentle-ai", "auto"
PROVIDERS = (BUILTIN, GENTLE_AI, AUTO)


@frozen
class NativeAnswer:
    """What the native provider answered for one candidate.

    Attributes:
        changes: per-path diff stats, from git whichever provider answered (so a plan made
            from an ``unassessable`` answer can still be explained path by path).
        native: the envelope, or None when the external provider failed.
        error: why there is no envelope (one line, the binary's own message kept), or None.
        provider: the provider that answered: ``builtin`` or ``gentle-ai`` (``auto``
            resolved).
        note: one line about an envelope that stands but is not the whole answer (the
            binary's escalated call failed), or None.
    """

    changes: tuple[PathChange, ...]
    native: NativeAssessment | None
    error: str | None
    provider: str
    note: str | None = None


def parse_provider(text: str) -> str:
    """``--native`` value: ``builtin``, ``gentle-ai`` or ``auto``.

    Raises:
        UsageError: anything else (exit 2, one line listing the three).
    """
    value = text.strip()
    if value not in PROVIDERS:
        raise UsageError(f"unknown native provider {text!r}: use {', '.join(PROVIDERS)} (SPEC §4)")
    return value


def assess_native(
    repo: Repository,
    cand: Candidate,
    settings: Settings,
    requested: tuple[Escalation, ...],
    env: Mapping[str, str],
) -> NativeAnswer:
    """Ask the configured native provider (``settings.native_provider``) about a candidate.

    Args:
        repo / cand: the open repository and the candidate.
        settings: the compiled settings (provider, classifier settings, timeout).
        requested: the escalations applied, asked for on the command line first, then
            those recorded for the change (sticky).
        env: the process environment (PATH for the binary).

    ``builtin`` runs :func:`~gentle_hooks.native.builtin.assess_native_builtin` (no
    pydantic, no extra process); it has no native review to consume, so its
    ``candidate.consumed`` is always false (seed 000: closure only from native's own
    consumed fact, never from a caller's word such as ``gentle-hook review ack``).
    ``gentle-ai`` runs the binary (:mod:`gentle_hooks.native.binary`, imported only here) bounded by
    ``native.timeout``. Both are handed the first escalation, as upstream's
    ``--escalate-item`` (the envelope's ``risk`` rises; ``native_risk`` does not); every failure
    is an answer without an envelope, never an exception. ``auto`` is ``gentle-ai`` when it
    is on PATH, else ``builtin``.

    Returns:
        The answer (:class:`NativeAnswer`).

    Raises:
        GitError: a git command failed (the diff, HEAD).
    """
    provider = settings.native_provider
    if provider == AUTO:
        from gentle_hooks.native.binary import find_binary

        provider = GENTLE_AI if find_binary(env) is not None else BUILTIN
    first = requested[0] if requested else None
    if provider != GENTLE_AI:
        changes, native = assess_native_builtin(
            repo,
            cand,
            settings.risk,
            escalation=(first.item.number, first.item.title, first.reason) if first else None,
        )
        return NativeAnswer(changes, native, None, BUILTIN)
    from gentle_hooks.native.binary import assess_gentle_ai

    changes = repo.diff_stats(cand.base.tree, cand.tree)
    head = repo.head()
    assert repo.paths.toplevel is not None  # Repository.open refuses bare repositories
    escalation = (first.item.number, first.reason) if first else None
    answer = assess_gentle_ai(
        repo.paths.toplevel,
        cand,
        head,
        repo.tree_of(head) if head else None,
        timeout=settings.native_timeout,
        escalation=escalation,
        env=env,
    )
    return NativeAnswer(changes, answer.native, answer.error, GENTLE_AI, answer.note)
