"""The policy's vocabulary as enums: tiers, outcomes, sources, efforts (SPEC §5).

Room ``policy`` (pure). Values are the seeds' spellings and appear verbatim in ``--json``.
"""

from __future__ import annotations

from enum import Enum


class NativeRisk(str, Enum):
    """The native tier of a change, from its diff (SPEC §4); ``unassessable`` when it failed."""

    PASSIVE = "passive"
    MEDIUM = "medium"
    HIGH = "high"
    UNKNOWN = "unknown"
    UNASSESSABLE = "unassessable"


class PlanRisk(str, Enum):
    """The plan tier (SPEC §5): ``high`` only through an escalation."""

    PASSIVE = "passive"
    MEDIUM = "medium"
    HIGH = "high"


class ReviewOutcome(str, Enum):
    """``nativeReviewOutcome`` (seed 000, "How assess resolves the review outcome")."""

    CLOSED = "closed"
    DECLINED = "declined"
    UNAVAILABLE = "unavailable"
    UNKNOWN = "unknown"


class OutcomeSource(str, Enum):
    """``outcome_source``: who decided the review outcome."""

    EXPLICIT = "explicit"
    DERIVED = "derived"
    UNKNOWN = "unknown"


class WriterSource(str, Enum):
    """``writerProfileSource`` (seed 000, "How assess resolves the writer profile")."""

    RUNTIME = "runtime"
    CALLER = "caller"
    FALLBACK = "fallback"


class Effort(str, Enum):
    """A writer's reasoning effort, lowest first (SPEC §5 "Writer profile")."""

    OFF = "off"
    MINIMAL = "minimal"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    XHIGH = "xhigh"


class RddMode(str, Enum):
    """The ``Receipt-driven development: on|off|unknown`` mode (SPEC §5 "RDD mode")."""

    ON = "on"
    OFF = "off"
    UNKNOWN = "unknown"


class RddSource(str, Enum):
    """Which source decided the RDD mode, in precedence order."""

    ENV = "env"
    GIT_CONFIG = "git-config"
    CONFIG_FILE = "config-file"
    DEFAULT = "default"


class Verification(str, Enum):
    """One kind of verification a tier can require (seed 000 tier table)."""

    STRUCTURAL_READBACK = "structural-readback"
    SELF_VERIFICATION = "writer-self-verification"
    INDEPENDENT_VERIFIER = "gentle-ai-verify"
    SPOT_CHECK = "spot-check"


class Missing(str, Enum):
    """What a blocked decision lacks (SPEC §5 "Decision")."""

    VERIFIER = "verifier"
    SPOT_CHECK = "spot-check"
