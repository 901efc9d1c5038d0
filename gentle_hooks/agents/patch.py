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

from gentle_hooks.agents.payload import text as valid_text

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


#: The members a runtime's file-writing tool names its path in: Claude Code and Codex
#: ``file_path`` (Claude's ``NotebookEdit`` ``notebook_path``), Copilot ``path`` (also seen as
#: ``file_path``/``filePath``), Gemini CLI ``file_path``. Every adapter reads all of them:
#: one runtime may run another's hook configuration (Copilot CLI runs the hooks of
#: ``.claude/settings.json``, github/docs ``content/copilot/reference/hooks-reference.md``,
#: "Hooks locations"), handing its own tool arguments in the other's shape.
PATH_KEYS = ("file_path", "path", "filePath", "notebook_path")
#: The members an ``apply_patch`` envelope travels in.
PATCH_KEYS = ("command", "patch", "input")
#: Members that hold a list of written files: VS Code's ``editFiles`` ``files`` (paths) and
#: its ``multi_replace_string_in_file`` ``replacements`` (objects naming a
#: :data:`PATH_KEYS` member each): microsoft/vscode-docs ``docs/agent-customization/hooks.md``
#: ("PostToolUse input"), microsoft/vscode-copilot-chat ``toolNames.ts``.
LIST_KEYS = ("files", "replacements")
#: At most this many entries of one list are read.
_MAX_LISTED = 1000


def _listed(value: object) -> list[str]:
    """The paths of a :data:`LIST_KEYS` member: its text entries, and the :data:`PATH_KEYS`
    members of its object entries; entries that are not valid text or hold a NUL are left
    out."""
    out: list[str] = []
    for item in value[:_MAX_LISTED] if isinstance(value, list) else []:
        values: list[object] = [item]
        if isinstance(item, dict):
            values = [item.get(k) for k in PATH_KEYS]
        out += [v for v in map(valid_text, values) if v is not None and "\0" not in v]
    return out


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return "not valid text" if value.strip() else "blank"
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list"}.get(
        type(value), "an object"
    )


def written_paths(args: object, where: str) -> tuple[list[str], str | None]:
    """The paths a file-writing tool's arguments name, and why none can be read.

    Args:
        args: the tool's arguments (an object, or an ``apply_patch`` envelope as text);
        where: how to name them in the reason (``tool_input``).

    Returns:
        (the paths, in order: the :data:`PATH_KEYS` members that are valid text without a
        NUL, then the headers of an envelope in a :data:`PATCH_KEYS` member, then the
        entries of a :data:`LIST_KEYS` member; None when
        there is at least one path, else one phrase naming what was unreadable).
    """
    if isinstance(args, str):
        found = list(patch_paths(args))
        return found, None if found else f"{where} is text that holds no apply_patch header"
    if not isinstance(args, dict):
        return [], f"{where} is {_kind(args)}, not the tool's arguments"
    paths: list[str] = []
    bad: list[str] = []
    for key in PATH_KEYS:
        if key not in args:
            continue
        value = valid_text(args[key])
        if value is None:
            bad.append(f"{where}.{key} is {_kind(args[key])}")
        elif "\0" in value:
            bad.append(f"{where}.{key} holds a NUL byte")
        else:
            paths.append(value)
    for key in PATCH_KEYS:
        body = valid_text(args.get(key))
        if body and "*** " in body:
            paths.extend(p for p in patch_paths(body) if "\0" not in p)
    for key in LIST_KEYS:
        paths.extend(_listed(args.get(key)))
    if paths:
        return paths, None
    if bad:
        return [], "; ".join(bad)
    return [], f"{where} names none of {', '.join(PATH_KEYS)} nor an apply_patch envelope"
