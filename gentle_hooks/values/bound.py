"""A time bound the environment may only lower (SPEC §7 "Exit codes": a hook never hangs).

Room ``values``. Standard library only, and none of it imported: the hook pass path reads
its bounds here without :mod:`subprocess` or :mod:`json`. The environment is an argument.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs ~10 ms to import; the hook path avoids it
if TYPE_CHECKING:
    from collections.abc import Mapping


def lowered_bound(env: Mapping[str, str], name: str, ceiling: float) -> float:
    """``ceiling``, or the number in ``env[name]`` when it is non-negative and smaller.

    Anything else (unset, not a number, ``nan``, negative, at or above ``ceiling``) gives
    ``ceiling``: a test may shorten a bound, nothing may lengthen it.
    """
    try:
        given = float(env.get(name, ""))
    except ValueError:
        return ceiling
    # ``nan`` fails both comparisons, so it falls through to the ceiling
    return given if 0 <= given < ceiling else ceiling
