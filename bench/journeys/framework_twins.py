"""The journeys of the printed ways out added with the plain hooks, again under the
pre-commit framework installed as the README says (its one ``pre-commit install`` line,
then ``gentle-hook install --share origin``), and again under prek installed the same way
(``prek install`` with the same hook types), with ``gentle-hook`` not on PATH: every
printed command must be reachable there (the framework's copy by its absolute path, or
the printed line that puts it on PATH).

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported
(this module imports the journeys it twins first): each twin runs the same body, named
``framework-`` (or ``prek-``) and the plain journey's name; :func:`~.catalog.plain`
builds the framework's world for it (``Ctx.install``).
"""

from __future__ import annotations

from bench.journeys import human_ways as _human_ways  # noqa: F401 (registers journeys twinned here)
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
    "human-retyped-commit",
    "human-retyped-push",
    "human-claims-writer-lines",
)
#: The twins in the fast subset, per framework (a twin there builds its framework's hook
#: environment in its own test: ~30-50 s on a loaded two-core machine; the rest run in the
#: bench).
FAST_TWINS = {
    "pre-commit": frozenset({"push-dirty-head", "commit-flaky-rerun"}),
    "prek": frozenset[str](),
}
#: The name each framework's twins start with.
PREFIX = {"pre-commit": "framework", "prek": "prek"}


def twin(name: str, tool: str = "pre-commit") -> Journey:
    """The journey ``name`` under the framework ``tool`` (``pre-commit`` or ``prek``),
    the CLI off PATH."""
    plain = next(j for j in JOURNEYS if j.name == name)
    title = "pre-commit framework" if tool == "pre-commit" else "prek"
    return Journey(
        f"{PREFIX[tool]}-{name}",
        f"{title}, CLI off PATH: {plain.what}",
        plain.body,
        fast=name in FAST_TWINS[tool],
        needs=tool,
        on_path=False,
        install=tool,
    )


JOURNEYS.extend(twin(name, tool) for tool in ("pre-commit", "prek") for name in TWINS)
