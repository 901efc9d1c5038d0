"""The paths an ``apply_patch`` envelope writes, and what it replaces in them (Codex's edit
tool; Cursor's ``ApplyPatch`` and Copilot's ``apply_patch`` use the same envelope).

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

import os
import posixpath
import re
import shlex

from gentle_hooks.agents.payload import text as valid_text
from gentle_hooks.values.frozen import frozen

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


@frozen
class PatchResult:
    """What one file holds once its part of an ``apply_patch`` envelope was applied.

    Attributes:
        present: the file exists (False: the patch deletes it, or moves it away);
        blocks: runs of lines the file then holds, each in order and contiguous (an added
            file's lines; each hunk's context and added lines): () when the envelope does
            not carry them (its body was left out of a large input).
    """

    present: bool
    blocks: tuple[tuple[str, ...], ...] = ()


def patch_results(text: str, base: str | None = None) -> dict[str, PatchResult]:
    """What each file an ``apply_patch`` envelope names holds once the patch applied to it,
    keyed by the path as :func:`patch_paths` names it (joined to ``base``, a leading ``cd``
    directory, when given). Codex applies an envelope file by file, so a call that fails
    part way may have written some of its files: the file that holds its result was
    written (:func:`holds_result`); it writes hunk by hunk (openai/codex
    ``codex-rs/apply-patch/src/lib.rs``, ``apply_hunks_to_files``), keeping what it wrote
    before a failure. A path named twice keeps its last header's result."""
    out: dict[str, PatchResult] = {}
    current: str | None = None
    blocks: list[list[str]] = []

    def close() -> None:
        # a blank line at a hunk's edge may separate hunks (Codex skips it): not required
        trimmed = (_trim(b) for b in blocks)
        if current is not None and current in out and out[current].present:
            out[current] = PatchResult(True, tuple(b for b in trimmed if b))

    for line in text.splitlines():
        stripped = line.strip()
        header = next((h for h in _HEADERS if stripped.startswith(h)), None)
        if header is None:
            if stripped in ("*** Begin Patch", "*** End Patch", "*** End of File"):
                continue
            if current is not None and line.startswith("@@"):
                blocks.append([])
            elif current is not None and line[:1] in ("+", " ", ""):
                if not blocks:
                    blocks.append([])
                blocks[-1].append(line[1:])
            continue
        path = stripped[len(header) :].strip()
        if not path or "\0" in path:
            continue
        path = posixpath.join(base, path) if base else path
        if header == "*** Move to:" and current is not None:
            out[current] = PatchResult(False)  # moved away: its content is the new path's
            out[path], current = PatchResult(True), path
            continue
        close()
        current, blocks = path, []
        out[path] = PatchResult(header != "*** Delete File:")
    close()
    return out


def patch_replacements(text: str) -> tuple[tuple[str, str], ...]:
    """The text replacements ``(old, new)`` of an ``apply_patch`` envelope that updates one
    file in place (:attr:`gentle_hooks.agents.event.RuntimeEvent.replacements`): its
    :func:`file_replacements` when the envelope has that one section and nothing else. ()
    for anything else (fail closed: the write is measured as before): an envelope that
    adds, deletes or moves a file (a whole write) or names more than one, or a line of a
    hunk that is none of those."""
    sections = _sections(text)
    if sections is None or len(sections) != 1:
        return ()
    _, header, moved, hunks = sections[0]
    if header != "*** Update File:" or moved or hunks is None:
        return ()
    return hunks


def file_replacements(
    text: str, base: str | None = None
) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Each file an ``apply_patch`` envelope updates in place, with the text replacements
    ``(old, new)`` its hunks make there (:attr:`gentle_hooks.agents.event.RuntimeEvent.
    patched`), in the envelope's order: the path as its header names it (joined to
    ``base``, a leading ``cd`` directory, when given), and per hunk, in order, the old
    text its context (`` ``) and removed (``-``) lines, the new text its context and added
    (``+``) lines, each joined by ``\\n`` (Codex replaces the hunk's old lines with its new
    ones: openai/codex ``codex-rs/apply-patch/src/parser.rs``, ``UpdateFileChunk``; an
    ``@@`` line's text only locates the hunk, an empty line is an empty context line,
    blank context lines at a hunk's edges are left out, a hunk whose old and new texts are
    equal changes nothing and is left out).

    Left out (fail closed: such a file is measured as before): a file the envelope adds,
    deletes or moves (a whole write), a path it names twice, and a section with a line
    that is none of those. () for text that is not an envelope (a line before its first
    file header)."""
    sections = _sections(text) or []
    named = [path for path, _, _, _ in sections]
    out = []
    for path, header, moved, hunks in sections:
        if header != "*** Update File:" or moved or hunks is None or named.count(path) > 1:
            continue
        if "\0" not in path:
            out.append((posixpath.join(base, path) if base else path, hunks))
    return tuple(out)


#: One file section of an envelope: its path, its header, whether a ``*** Move to:``
#: follows it, and its hunks' replacements (None: a line that is none of a hunk's).
_Section = tuple[str, str, bool, tuple[tuple[str, str], ...] | None]


def _sections(text: str) -> list[_Section] | None:
    """The file sections of an ``apply_patch`` envelope, in order; None when a line that is
    not blank comes before the first file header, or a ``***`` line is no marker of the
    envelope (not an envelope: a section read short would name only part of a file's
    hunks)."""
    sections: list[tuple[str, str, bool, list[list[str]] | None]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in ("*** Begin Patch", "*** End Patch", "*** End of File"):
            continue
        header = next((h for h in _HEADERS if stripped.startswith(h)), None)
        if header is None and line.startswith("***"):
            return None  # a marker Codex does not know: it applies nothing
        if header == "*** Move to:" and sections:
            path, head, _, hunks = sections[-1]
            sections[-1] = (path, head, True, hunks)
            continue
        if header is not None:
            sections.append((stripped[len(header) :].strip(), header, False, []))
            continue
        if not sections:
            if stripped:
                return None
            continue
        path, head, moved, hunks = sections[-1]
        if head != "*** Update File:" or hunks is None:
            continue  # an added file's lines, or a section already unreadable
        if line.startswith("@@"):
            hunks.append([])
        elif line[:1] in ("", " ", "-", "+"):
            if not hunks:
                hunks.append([])
            hunks[-1].append(line or " ")
        else:
            sections[-1] = (path, head, moved, None)
    return [(p, h, m, _pairs(hunks)) for p, h, m, hunks in sections]


def _pairs(hunks: list[list[str]] | None) -> tuple[tuple[str, str], ...] | None:
    """The ``(old, new)`` replacement of each hunk (see :func:`file_replacements`)."""
    if hunks is None:
        return None
    out = []
    for hunk in hunks:
        while hunk and hunk[0][:1] == " " and not hunk[0].strip():
            hunk.pop(0)
        while hunk and hunk[-1][:1] == " " and not hunk[-1].strip():
            hunk.pop()
        old = "\n".join(x[1:] for x in hunk if x[0] in " -")
        new = "\n".join(x[1:] for x in hunk if x[0] in " +")
        if old != new:
            out.append((old, new))
    return tuple(out)


def envelope_replacements(args: object) -> tuple[tuple[str, str], ...]:
    """:func:`patch_replacements` of the ``apply_patch`` envelope a tool's arguments carry
    (:func:`_envelope`); () when there is none."""
    body = _envelope(args)
    return patch_replacements(body) if body else ()


def envelope_files(args: object) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """:func:`file_replacements` of the ``apply_patch`` envelope a tool's arguments carry
    (:func:`_envelope`) when it names more than one file (one file:
    :func:`envelope_replacements`); () otherwise."""
    body = _envelope(args)
    return file_replacements(body) if body and len(patch_paths(body)) > 1 else ()


def _envelope(args: object) -> str | None:
    """The ``apply_patch`` envelope a tool's arguments carry: ``args`` itself as text, else
    its first :data:`PATCH_KEYS` member (or OpenCode's ``patchText``) that is text."""
    bodies: list[object] = [args] if isinstance(args, str) else []
    if isinstance(args, dict):
        bodies += [args.get(key) for key in (*PATCH_KEYS, "patchText")]
    return next((b for b in map(valid_text, bodies) if b), None)


def _trim(block: list[str]) -> tuple[str, ...]:
    """``block`` without its blank lines at either end."""
    start, end = 0, len(block)
    while start < end and not block[start].strip():
        start += 1
    while end > start and not block[end - 1].strip():
        end -= 1
    return tuple(block[start:end])


def holds_result(content: bytes | None, result: PatchResult) -> bool:
    """Whether a file's ``content`` (None: no such file) is what ``result`` says the patch
    left there: absent for a deleted or moved file, else present with each of its blocks
    in order, lines compared without trailing white space (as Codex matches them)."""
    if content is None or not result.present:
        return content is None and not result.present
    lines = [x.rstrip() for x in content.decode("utf-8", "surrogateescape").splitlines()]
    at = 0
    for block in result.blocks:
        want = [x.rstrip() for x in block]
        found = next(
            (i for i in range(at, len(lines) - len(want) + 1) if lines[i : i + len(want)] == want),
            None,
        )
        if found is None:
            return False
        at = found + len(want)
    return True


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


#: The programs a shell command runs an ``apply_patch`` envelope with (Codex puts both on the
#: agent's ``PATH``; openai/codex ``codex-rs/apply-patch``, ``APPLY_PATCH_COMMANDS``).
PATCH_PROGRAMS = ("apply_patch", "applypatch")
#: The shells whose ``-c``/``-lc`` script is read for an ``apply_patch`` invocation.
_SHELLS = ("bash", "sh", "zsh")
#: Most characters of a shell command read for an invocation.
_MOST_COMMAND = 8 * 1024 * 1024

_CD = r"(?:cd\s+(?P<dir>'[^'\n]*'|\"[^\"\n]*\"|[^\s;&|<>'\"]+)\s*&&\s*)?"
_HEREDOC = re.compile(
    r"\A\s*" + _CD + r"(?:apply_patch|applypatch)[ \t]*<<-?[ \t]*"
    r"(?P<q>['\"]?)(?P<delim>[A-Za-z_][A-Za-z0-9_]*)(?P=q)[ \t]*\n"
)


def _unquote(word: str) -> str:
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"" else word


def shell_patch(command: object) -> tuple[str, str | None] | None:
    """The ``apply_patch`` envelope a shell command runs, and the directory it runs it in.

    Codex's model may run its patch through the shell tool instead of the ``apply_patch``
    tool; Codex then applies it all the same, and its ``PostToolUse`` input names the shell
    tool (``Bash``) with the command as ``tool_input.command`` (openai/codex
    ``codex-rs/core/src/tools/handlers/unified_exec/exec_command.rs``: the command is
    intercepted by ``intercept_apply_patch``; the invocations it accepts:
    ``codex-rs/apply-patch/src/invocation.rs``). The forms read, as Codex reads them:

    * ``apply_patch <<'EOF'`` … ``EOF`` (any delimiter, quoted or not), optionally after
      ``cd DIR &&``, and nothing after it;
    * ``apply_patch 'ENVELOPE'`` (one argument);
    * either of those as the script of ``bash -lc`` / ``sh -c`` / ``zsh -lc``;
    * the same as an argument list (``["apply_patch", ENVELOPE]``, ``["bash", "-lc",
      SCRIPT]``).

    Returns:
        (the envelope, the ``cd`` directory or None), or None when the command is not an
        ``apply_patch`` invocation (any other command, or text past
        :data:`_MOST_COMMAND` characters).
    """
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        return _from_words([w for w in command if isinstance(w, str)])
    if not isinstance(command, str) or len(command) > _MOST_COMMAND:
        return None
    m = _HEREDOC.match(command)
    if m is not None:
        delim = m.group("delim")
        lines = command[m.end() :].split("\n")
        for i, line in enumerate(lines):
            if line.strip() == delim:
                if "\n".join(lines[i + 1 :]).strip():
                    return None  # a command after the heredoc: Codex does not apply it
                body = "\n".join(lines[:i]) + "\n"
                where = m.group("dir")
                return body, _unquote(where) if where else None
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return _from_words(words)


def _from_words(words: list[str]) -> tuple[str, str | None] | None:
    """:func:`shell_patch` of a command given as its words."""
    if len(words) == 2 and words[0] in PATCH_PROGRAMS:
        return words[1], None
    if len(words) == 3 and os.path.basename(words[0]) in _SHELLS and words[1] in ("-c", "-lc"):
        return shell_patch(words[2])
    return None


def shell_patch_paths(command: object) -> tuple[str, ...] | None:
    """The paths the ``apply_patch`` envelope a shell command runs writes
    (:func:`shell_patch`), each taken from the directory of a leading ``cd`` when it names
    one; None when the command runs no ``apply_patch``."""
    found = shell_patch(command)
    if found is None:
        return None
    body, where = found
    paths = tuple(p for p in patch_paths(body) if "\0" not in p)
    return tuple(posixpath.join(where, p) for p in paths) if where else paths
