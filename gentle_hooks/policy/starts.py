"""Which version a writer's write started from (SPEC §3 "Attribution follows content"):
the nearest, by significant lines, of the versions it may have started from.

Room ``policy`` (pure: bytes in, answers out).
"""

from __future__ import annotations

from gentle_hooks.policy.attribution import is_binary
from gentle_hooks.policy.linekeys import line_keys

#: The distance of contents that differ and cannot be compared line by line (binary).
FAR = 1 << 62


def start_distance(start: bytes | None, after: bytes | None) -> int:
    """How far ``after`` (what a write left) is from ``start`` (a version it may have
    started from): the number of significant lines in one and not the other; 0 when equal,
    :data:`FAR` when they differ and either is binary."""
    if start == after:
        return 0
    if (start is not None and is_binary(start)) or (after is not None and is_binary(after)):
        return FAR
    return len(line_keys(start) ^ line_keys(after))


def nearest_start(after: bytes | None, starts: list[bytes | None]) -> int:
    """The index in ``starts`` of the version a write most likely started from: the nearest
    to ``after`` (:func:`start_distance`), the first of equals.

    Why: a write's own delta is what it changed from where it started. The writer's last
    recorded content is where it usually continues; when that content is gone (``reset
    --hard``) and ``HEAD`` moved on (a cherry-pick, a rebase), ``HEAD`` is nearer, and
    measuring from the stale content would take lines others wrote as the writer's.
    """
    distances = [start_distance(s, after) for s in starts]
    return distances.index(min(distances))
