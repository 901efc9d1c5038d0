"""RDD mode: the ``Receipt-driven development: on|off|unknown`` line (SPEC §5, seed 000).

Room ``policy`` (pure). Sources are passed in as values; the adapter reads them. The mode
is reported with its deciding source and never changes verification.
"""

from __future__ import annotations

from gentle_hooks.errors import ConfigError, quoted
from gentle_hooks.policy.vocabulary import RddMode, RddSource
from gentle_hooks.values.frozen import frozen


@frozen
class ResolvedRdd:
    """The RDD mode and the source that decided it."""

    mode: RddMode
    source: RddSource

    def line(self) -> str:
        """The harness line, exactly ``Receipt-driven development: <mode>``."""
        return f"Receipt-driven development: {self.mode.value}"


def parse_rdd(text: str, where: str) -> RddMode:
    """Parse ``on|off|unknown`` (any case); ``where`` names the source for the error.

    Raises:
        ConfigError: any other value.
    """
    try:
        return RddMode(text.strip().lower())
    except ValueError:
        words = f"RDD mode must be on, off or unknown, not {quoted(text)}"
        raise ConfigError(f"{where}: {words}") from None


def resolve_rdd(env: str | None, git_config: str | None, config_file: str | None) -> ResolvedRdd:
    """First non-empty source wins: ``GENTLE_RDD``, ``git config gentle.rdd``, config file.

    Returns ``unknown`` from ``default`` when none is set.

    Raises:
        ConfigError: the deciding source holds something other than on/off/unknown.
    """
    for value, source, where in (
        (env, RddSource.ENV, "GENTLE_RDD"),
        (git_config, RddSource.GIT_CONFIG, "git config gentle.rdd"),
        (config_file, RddSource.CONFIG_FILE, "config rdd"),
    ):
        if value is not None and value.strip():
            return ResolvedRdd(parse_rdd(value, where), source)
    return ResolvedRdd(RddMode.UNKNOWN, RddSource.DEFAULT)
