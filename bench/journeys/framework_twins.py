"""The journeys of the printed ways out added with the plain hooks, again under the
pre-commit framework installed as the README says (its one ``pre-commit install`` line,
then ``gentle-hook install --share origin``), with ``gentle-hook`` not on PATH: every
printed command must be reachable there (the framework's copy by its absolute path, or
the printed line that puts it on PATH).

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported
(this module imports the journeys it twins first): each twin runs the same body,
named ``framework-`` and the plain journey's name; :func:`~.catalog.plain` builds the
framework's world for it (``Ctx.install``).
"""

from __future__ import annotations

from bench.journeys import refuted as _refuted  # noqa: F401 (registers journeys twinned here)
from bench.journeys import ways_out as _ways_out  # noqa: F401 (registers journeys twinned here)
from bench.journeys.catalog import JOURNEYS, Journey

#: The plain journeys run again under the framework, and those of them in the fast subset.
TWINS = (
    "commit-flaky-rerun",
    "commit-dash-c",
    "commit-amend-pushed",
    "push-dirty-head",
    "push-dirty-staged",
    "push-untracked-collision",
)
FAST_TWINS = frozenset({"push-dirty-head", "commit-flaky-rerun"})


def twin(name: str) -> Journey:
    """The journey ``name`` under the pre-commit framework, the CLI off PATH."""
    plain = next(j for j in JOURNEYS if j.name == name)
    return Journey(
        f"framework-{name}",
        f"pre-commit framework, CLI off PATH: {plain.what}",
        plain.body,
        fast=name in FAST_TWINS,
        needs="pre-commit",
        on_path=False,
        install="pre-commit",
    )


JOURNEYS.extend(twin(name) for name in TWINS)
