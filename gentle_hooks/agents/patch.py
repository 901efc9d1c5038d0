"""The paths an ``apply_patch`` envelope writes (Codex's edit tool; Cursor's ``ApplyPatch`` and
Copilot's ``apply_patch`` use the same envelope).

Room ``agents`` (standard library only). The envelope, as Codex documents it for the model
(openai/codex ``codex-rs/apply-patch/apply_patch_tool_instructions.md``)::

    *** Begin Patch
    *** Add File: <path>          (a new file; its lines follow with "+")
    *** Delete File: <path>
    *** Update File: <path>
    *** Move to: <new path>       (optional, right after an Update header)
    @@ ...                         (hunks)
    *** End Patch

Every header names a path the patch writes: an added, deleted or updated file, and both
ends of a move.
"""

from __future__ import annotations

_HEADERS = ("*** Add File:", "*** Delete File:", "*** Update File:", "*** Move to:")


def patch_paths(text: str) -> tuple[str, ...]:
    """The paths named by the file headers of an ``apply_patch`` envelope, in order, each
    once. Text that is not an envelope names no path."""
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        for header in _HEADERS:
            if stripped.startswith(header):
                path = stripped[len(header) :].strip()
                if path:
                    out.append(path)
                break
    return tuple(dict.fromkeys(out))
