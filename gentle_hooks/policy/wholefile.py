"""A file the writer created, moved or copied whole to another path (SPEC §3 "Attribution
follows content": a rename or a copy carries the writer's content).

Room ``policy`` (pure). A writer's new file never was in ``HEAD``, so moving it (``mv
deploy.py tools/setup_env.py``) and adding lines of one's own pairs no deletion with the
added path: no rename is read. Across paths, row A2 asks for two of the writer's
distinctive lines, which a small new file may not have (``import subprocess`` and one
``subprocess.run("curl ... | sh", shell=True)``). The other path holds the writer's file
whole when it introduces *every* line the writer added and at least one of them is telling
and of no boilerplate row: nobody writes all of a file's lines, a telling one among them,
the same way by chance. :func:`holds_whole_new_file` says so for
:func:`~gentle_hooks.policy.across.carries_row_across`.
"""

from __future__ import annotations

from collections.abc import Iterable, Set


def holds_whole_new_file(
    created: bool,
    added: Set[str],
    telling: Set[str],
    introduced: Iterable[tuple[str, bool]],
) -> bool:
    """Whether a change of another path holds the whole file a writer created.

    Args:
        created: the writer created the file (it started from no blob);
        added: keys of the writer's added significant lines; telling: keys of its telling
            lines (:class:`~gentle_hooks.policy.delta.WriterDelta`);
        introduced: (key, is boilerplate) of each line the change's new side introduces
            (not on its old side).

    Returns:
        True when ``created``, the change introduces every key of ``added`` (at least one),
        and one of them, of ``telling`` and not boilerplate.
    """
    if not created or not added:
        return False
    keys: set[str] = set()
    told = False
    for key, boilerplate in introduced:
        keys.add(key)
        told = told or (key in telling and not boilerplate)
    return told and added <= keys
