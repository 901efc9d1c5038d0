"""Subagent definition files: Markdown with YAML front matter naming the subagent and its
model (Gemini CLI's ``.gemini/agents/*.md``, Factory Droid's ``.factory/droids/*.md``;
SPEC §7 "Hooks"; seed 000: an inherited model is unknown).

Room ``agents`` (standard library only). A runtime's project definitions live at its project's
top, which the hook's ``cwd`` need not be (it follows ``cd``): :func:`project_dirs` names the
directories to look in. Only the plain top-level scalars ``name:`` and
``model:`` of the front matter are read (quotes stripped); nothing else of YAML is needed.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.payload import read_file

#: Bytes of a definition file read: its front matter comes first.
LIMIT = 65536


def declared(path: str) -> tuple[str | None, str | None]:
    """(``name:``, ``model:``) of the definition at ``path``; None for each it does not
    declare, or when the file cannot be read or opens with no front matter."""
    data = read_file(path, limit=LIMIT)
    if data is None:
        return None, None
    lines = data.decode("utf-8", "replace").splitlines()
    if not lines or lines[0].strip() != "---":
        return None, None
    found: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            break
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("name", "model") and not line[:1].isspace():
            found[key.strip()] = value.strip().strip("'\"")
    return found.get("name") or None, found.get("model") or None


def own_model(model: str | None) -> str | None:
    """A declared model as the subagent's own: None when none is declared or it inherits
    (``inherit``: the parent's, which is unknown for the child)."""
    return None if model is None or model.strip().lower() == "inherit" else model


def project_dirs(cwd: str | None, project: str | None = None) -> list[str]:
    """The directories whose project definitions apply to an agent working in ``cwd``,
    nearest first: ``project`` (the project directory the runtime names, e.g.
    ``$CLAUDE_PROJECT_DIR``) when given, then ``cwd`` and each directory above it up to and
    including the first that holds a ``.git`` entry (the repository's top; a directory, or
    the file of a linked worktree or submodule). Outside any repository: ``cwd`` alone. No
    duplicates; stats only, no process."""
    out: list[str] = [project] if project else []
    if cwd:
        walk, where = [], os.path.abspath(cwd)
        while True:
            walk.append(where)
            if os.path.lexists(os.path.join(where, ".git")):
                break
            parent = os.path.dirname(where)
            if parent == where:
                walk = walk[:1]  # no repository above: the working directory alone
                break
            where = parent
        out += walk
    return list(dict.fromkeys(out))


def subagent_label(agent_type: str | None) -> str:
    """How a note names the subagent ``agent_type``: ``subagent 'NAME'`` for a printable
    name of at most 80 characters, else ``the subagent`` (a payload's value is not echoed
    raw)."""
    if agent_type and len(agent_type) <= 80 and agent_type.isprintable():
        return f"subagent '{agent_type}'"
    return "the subagent"
