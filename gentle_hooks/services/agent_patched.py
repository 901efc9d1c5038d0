"""Each file an ``apply_patch`` envelope of several files updated, as it was just before the
call: its hunks' replacements undone on what it holds now (SPEC §3 "Attribution follows
content": a person's unsaved lines are never the writer's; docs/agents/codex.md).

Room ``services``. A call that updates one file names its replacements, and its write is
measured from the file they undone give (:func:`gentle_hooks.services.mutation.from_preimage`);
a call that updates several (:attr:`gentle_hooks.agents.event.RuntimeEvent.patched`) has each
file measured from its own start, as a shell call's paths are
(:attr:`gentle_hooks.services.mutation.MutationRequest.starts`).
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.agents.payload import read_file
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.preimage import preimage
from gentle_hooks.services.agent_trees import full_path

#: Largest file whose start is computed (a larger one is measured as before).
MOST_BYTES = 16 * 1024 * 1024


def starts(
    event: RuntimeEvent, groups: list[tuple[str, tuple[str, ...]]], base: str
) -> dict[str, str | None]:
    """The start of each path of ``groups`` (work tree, root-relative paths) that
    ``event.patched`` names (relative ones taken from ``base``): the real work tree root
    joined to the path (as :func:`gentle_hooks.services.agent_shell.starts_in` reads it)
    -> the blob of the file now with its hunks' replacements undone
    (:func:`gentle_hooks.policy.preimage.preimage`), written to that work tree's object
    store. A file whose undo is not exact, that is not UTF-8 text, unreadable or larger
    than :data:`MOST_BYTES` is left out: measured as before (the writer's last write, the
    index or ``HEAD``: fail closed).

    Raises:
        GitError: git failed.
    """
    wanted: dict[str, tuple[tuple[str, str], ...]] = {}
    for path, pairs in event.patched:
        full = full_path(path, base)
        if full is not None:
            wanted[full] = pairs
    out: dict[str, str | None] = {}
    for top, rels in groups:
        repo = None
        for rel in rels:
            pairs = wanted.get(os.path.realpath(os.path.join(top, rel)), ())
            data = read_file(os.path.join(top, rel), limit=MOST_BYTES + 1) if pairs else None
            if data is None or len(data) > MOST_BYTES:
                continue
            try:
                start = preimage(data.decode("utf-8"), pairs)
            except UnicodeDecodeError:
                continue
            if start is not None:
                repo = repo or Repository.open(top)
                out[os.path.join(os.path.realpath(top), rel)] = repo.write_blob(
                    start.encode("utf-8")
                )
    return out
