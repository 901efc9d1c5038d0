"""What a spot check's temporary checkout imports: the verify room's composition
(:func:`~gentle_hooks.services.room_imports.for_room`) for the checkout a ``receipt run
--staged``/``--committed``, a ``spot-check`` of a candidate the work tree does not hold and
a CI re-run run in (issue 18; SPEC §5 "Spot check": the re-run is on "the candidate's
exact tree").

Room ``services``. Reading install files alone, the checkout missed an editable install
whose ``.pth`` runs an ``import`` line (a finder mapping the package into the work tree:
hatchling's ``dev-mode-exact``, pdm, meson-python), another clone of the project, and a
module only the work tree holds further on ``sys.path``: its runs imported the work tree's
code. The room's composition asks the interpreters, puts the checkout's copies first on
``PYTHONPATH`` behind the import guard, and says when it cannot.

* :func:`checkout_imports` — the checkout's :class:`~gentle_hooks.services.room_imports.
  RoomImports` and the lines for the user.

The folders the checkout links in from the work tree (dependency folders, ignored paths)
are its own copies (``skip``): an install naming a place there, or a name found there, is
left as it is. A linked virtual environment's interpreter counts as one the runs may start
(its ``bin`` put on the ``PATH`` the interpreters are looked for on). The runs keep the
user's ``HOME``: the user's site directory's install files count.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.services.room_imports import RoomImports, for_room

#: The guard's directory in a checkout's temporary directory (outside the tree).
GUARD = "guard"


def checkout_imports(
    env: Mapping[str, str],
    trees: Sequence[str],
    path: str,
    linked: Sequence[str],
) -> tuple[RoomImports, tuple[str, ...]]:
    """(what a run in the checkout at ``path`` imports, the lines saying what was done)
    for runs with ``env``; ``trees``: the repository's work trees; ``linked``: the paths,
    relative to ``path``, linked in from the work tree. The guard is written to
    :data:`GUARD` beside ``path``.

    Raises:
        OSError: the guard could not be written.
    """
    skip = [os.path.join(path, rel) for rel in linked]
    venvs = [s for s in skip if os.path.isfile(os.path.join(s, "pyvenv.cfg"))]
    bins = [os.path.join(v, "bin") for v in venvs]
    seen = {**env, "PATH": os.pathsep.join([*bins, env.get("PATH", "")])}
    guard = os.path.join(os.path.dirname(path), GUARD)
    _, notes, imports = for_room(seen, (), trees, path, skip, guard, user_site=True)
    return imports, notes
