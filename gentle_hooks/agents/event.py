"""One runtime hook event reduced to what a pending mutation needs, and the rules every
runtime decoder shares (SPEC §6 "pending mutation", §7 "Hooks"; seed 000 "writer profile").

Room ``agents`` (standard library and :mod:`gentle_hooks.policy` only).

* The writer's model and effort: ``--model``/``--effort``, then ``GENTLE_WRITER_MODEL``/
  ``GENTLE_WRITER_EFFORT``, then what the runtime exposes; ``unknown`` when nothing says
  (an unknown writer counts as small, seed 000). A runtime's own effort names are mapped
  through its table; a name that is not one of ours is recorded as ``unknown``, never
  guessed.
* A subagent's event carries the child's own model, read from the child's own record; an
  inherited (parent's) model is never used: the child's model is ``unknown`` then.
* Replays: a runtime that names its tool call gives that id; one that does not gets a
  derived id, ``derived:`` + SHA-256 of the fields that identify the event (session, the
  runtime's timestamp or generation, tool, arguments), so the same payload delivered twice
  records once.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping

from gentle_hooks.agents.patch import PatchResult, written_paths
from gentle_hooks.agents.payload import hook_input, text
from gentle_hooks.values.frozen import frozen

UNKNOWN = "unknown"
#: Where a runtime's settings (files, environment) name the writer: ``(work tree root or
#: None, environment) -> (model, effort)``, None for what they do not name.
SettingsWriter = Callable[[str | None, Mapping[str, str]], tuple[str | None, str | None]]


@frozen
class RuntimeEvent:
    """One runtime hook event.

    Attributes:
        source: the runtime (``claude-code``, ``codex``...); session_id / tool_call_id: its
            ids (``derived:...`` when the runtime names no tool call); cwd: where the agent
            works; paths: the paths the tool wrote, as the runtime gave them (absolute, or
            relative to ``cwd``); writes: the tool is one that writes files (an event of
            another tool records nothing); tool: the tool's name; model / effort: the
            writer as the runtime exposes it, None when it does not; agent: the subagent
            that made the call, or None for the main agent; hook_event: the
            ``hook_event_name`` the input names (None when it names none); unreadable:
            when a writing tool names no path that can be read, what was unreadable (one
            phrase), else None; lifecycle: :data:`SUBAGENT_START` or :data:`SUBAGENT_STOP`
            for a runtime's subagent start or stop event (``agent`` names the subagent,
            ``model`` is its own model when the input names one), None for a tool event;
            failed: when the runtime reports that the tool call failed or was denied, what
            said so (one phrase naming the field), else None: such a call wrote nothing of
            the writer's, so what the file holds is not recorded as its work;
        edited_by: when the runtime reports that a person modified the writer's proposal
            before the tool wrote it, what said so (one phrase naming the field), else
            None; proposal: then, the content the writer proposed for the one path written,
            when the input carries it (None: it does not, and every line written is
            recorded as the writer's: fail closed); edited: the content the person left,
            when the input carries it (None: no line is the person's).
        replacements: the text replacements ``(old, new)`` the call made in its one written
            path, in order, when the input names them (:func:`replacement_pairs`); () when
            it does not. With a derived id they tell a second identical edit from a replay
            (:func:`gentle_hooks.policy.replacement.is_replaced_again`); undone on the
            file the call left, they give the file it started from
            (:func:`gentle_hooks.policy.preimage.preimage`).
        patched: for a call that applies an ``apply_patch`` envelope naming more than one
            file, each file it updates in place with the replacements its hunks made there
            (:func:`gentle_hooks.agents.patch.file_replacements`): each such file is
            measured from itself just before the call (they undone), so a person's unsaved
            lines in it are not the writer's; () otherwise (one file: ``replacements``).
        replace_all: the indexes of ``replacements`` the call made at every occurrence of
            their old text (Claude Code's ``replace_all``, Gemini CLI's
            ``expected_replacements`` above one); the others replaced one occurrence.
        original: the file just before the call, when the input carries it whole (Claude
            Code's ``tool_response.originalFile``; a ``Write`` then has its content as one
            replacement of it): the write is measured from it where it is consistent
            (:func:`gentle_hooks.policy.preimage.exact_start`); None otherwise.
        not_written: for a call of a tool that can write files whose input names none it
            wrote (``writes`` false: a shell command that runs no patch), what is recorded
            from that tool and why this call is not (one phrase, following ``the <tool>
            call of <runtime>``); None for a tool that never writes.
        patch_results: for a call that applies an ``apply_patch`` envelope file by file,
            what each path it names holds once its part applied
            (:func:`gentle_hooks.agents.patch.patch_results`): a failed call then records
            the paths that hold their result and differ from ``HEAD`` (content decides,
            not the exit status); () for any other call, whose failure records nothing.
        roots: for a subagent start or stop, every workspace directory of the session when
            the runtime names several (Cursor's ``workspace_roots``); for a shell call, the
            directories its command names (:func:`.shell_dirs.named_dirs`); () otherwise.
        notes: what the decoder could not tell about the writer and how it was recorded
            (one line each: a subagent whose definition cannot be read, so its model is
            ``unknown``); the recorder prints each after what it recorded.
        shell: for a shell tool call whose input names no file it wrote, :data:`SHELL_BEFORE`
            (the runtime's pre-tool event: the work tree is snapshot) or :data:`SHELL_AFTER`
            (its post-tool event: what changed since is the writer's), :data:`SHELL_END`
            for the runtime's end of the agent's turn (Claude Code's ``Stop``, no tool: the
            session's background windows close); None otherwise.
        shell_key: what pairs such a call's pre-tool and post-tool events when the runtime
            names no tool call id both share (Gemini CLI's and Cursor's inputs: a key derived
            from the session and the command); None: :attr:`tool_call_id` pairs them.
        background: for a shell call, it leaves a process running after its post-tool
            event (:func:`gentle_hooks.agents.background.is_background`): its snapshot stays
            open as a window of the session (:mod:`gentle_hooks.services.agent_windows`).
        unreported: for the end of the agent's turn, the shell calls the runtime's
            transcript shows may still run, whose post-tool event may never come (Codex:
            :func:`gentle_hooks.agents.codex_rollout.unreported`): ``(call id, tool, still
            running)``, False when the call has no output yet; () otherwise.
        patches: for the end of the agent's turn, the post-tool events of the patches its
            transcript shows applied (Codex: :func:`.codex_rollout.patches`); () otherwise.
    """

    source: str
    session_id: str | None
    tool_call_id: str | None
    cwd: str | None
    paths: tuple[str, ...]
    writes: bool
    tool: str | None
    model: str | None
    effort: str | None
    agent: str | None = None
    hook_event: str | None = None
    unreadable: str | None = None
    lifecycle: str | None = None
    failed: str | None = None
    edited_by: str | None = None
    proposal: str | None = None
    edited: str | None = None
    replacements: tuple[tuple[str, str], ...] = ()
    replace_all: frozenset[int] = frozenset()
    original: str | None = None
    patched: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    not_written: str | None = None
    patch_results: tuple[tuple[str, PatchResult], ...] = ()
    roots: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    shell: str | None = None
    shell_key: str | None = None
    background: bool = False
    unreported: tuple[tuple[str, str, bool], ...] = ()
    patches: tuple[RuntimeEvent, ...] = ()


#: :attr:`RuntimeEvent.shell` of a shell call's pre-tool and post-tool events, and of the
#: end of the agent's turn (the session's background windows close).
SHELL_BEFORE = "shell-before"
SHELL_AFTER = "shell-after"
SHELL_END = "shell-end"
#: :attr:`RuntimeEvent.shell` of a file-writing tool's pre-tool event: the files it names
#: are kept (:mod:`gentle_hooks.services.agent_prewrite`), paired by :attr:`RuntimeEvent.shell_key`.
WRITE_BEFORE = "write-before"
#: :attr:`RuntimeEvent.lifecycle` of a subagent's start and stop events.
SUBAGENT_START = "subagent-start"
SUBAGENT_STOP = "subagent-stop"


def subagent_event(
    source: str,
    lifecycle: str,
    session: str | None,
    agent: str | None,
    cwd: str | None,
    hook_event: str | None,
) -> RuntimeEvent:
    """The :class:`RuntimeEvent` of a subagent start or stop input: no tool, no path, no
    model (the inputs documented here name none of the child's own), the subagent's name
    or id in ``agent``."""
    return RuntimeEvent(
        source=source,
        session_id=session,
        tool_call_id=None,
        cwd=cwd,
        paths=(),
        writes=False,
        tool=None,
        model=None,
        effort=None,
        agent=agent,
        hook_event=hook_event,
        lifecycle=lifecycle,
    )


@frozen
class ToolCall:
    """The fields of a post-tool hook input every runtime has, wherever it names them.

    Attributes:
        event: the whole input object; tool: the tool's name; args: its arguments as given
            (what a derived call id hashes); session: the session id; paths / unreadable:
            :func:`gentle_hooks.agents.patch.written_paths` of the arguments; cwd: where the
            agent works; hook: the hook event the input names (None: it names none).
    """

    event: dict[str, object]
    tool: str | None
    args: object
    session: str | None
    paths: list[str]
    unreadable: str | None
    cwd: str | None = None
    hook: str | None = None

    def own_id(self, source: str, key: str, context: object, *moment: object) -> str:
        """The runtime's tool call id under ``key`` of the input (:func:`call_id`, with
        ``context``), else the :func:`derived_call_id` of the session, ``moment`` (the
        runtime's timestamp or turn, when it names one), the tool and its arguments."""
        return call_id(source, self.event.get(key), context) or derived_call_id(
            source, self.session, *moment, self.tool, self.args
        )

    def writes_on(self, events: tuple[str, ...], write_tools: tuple[str, ...]) -> bool:
        """Whether this input, from one of ``events`` (or naming no hook event), is a
        call that writes a file (:func:`writes_file` for ``write_tools``)."""
        return (self.hook is None or self.hook in events) and writes_file(
            self.tool, self.args, write_tools
        )

    def snake_event(
        self,
        source: str,
        moment: str,
        write_tools: tuple[str, ...],
        *,
        model: str | None,
        effort: str | None,
        agent: str | None = None,
        failed: str | None = None,
    ) -> RuntimeEvent:
        """:meth:`runtime_event` of an input in the ``tool_name`` shape (Claude Code, Codex,
        Droid): the call id is the ``tool_use_id`` member (:meth:`own_id`, in the context of
        ``session_id``), else derived with the ``moment`` member (the runtime's timestamp or
        turn); it writes when :func:`writes_file` says so for ``write_tools``."""
        event = self.event
        return self.runtime_event(
            source,
            tool_call_id=self.own_id(
                source, "tool_use_id", event.get("session_id"), event.get(moment)
            ),
            writes=writes_file(self.tool, self.args, write_tools),
            model=model,
            effort=effort,
            agent=agent,
            failed=failed,
        )

    def runtime_event(
        self,
        source: str,
        *,
        tool_call_id: str | None,
        writes: bool,
        model: str | None,
        effort: str | None,
        agent: str | None = None,
        failed: str | None = None,
    ) -> RuntimeEvent:
        """The :class:`RuntimeEvent` of this input, with what the runtime's decoder adds."""
        return RuntimeEvent(
            source=source,
            session_id=self.session,
            tool_call_id=tool_call_id,
            cwd=self.cwd,
            paths=unique(self.paths),
            writes=writes,
            tool=self.tool,
            model=model,
            effort=effort,
            agent=agent,
            hook_event=self.hook,
            unreadable=self.unreadable,
            failed=failed,
        )


#: Tools that take a sub-command, and the sub-commands that write a file: such a tool writes
#: only under one of those (``str_replace_editor``'s ``view`` reads). The editor tool of
#: Copilot's agent (``command``: ``view``, ``create``, ``str_replace``, ``insert``;
#: raymondclowe/github-copilot-agent-prompts-tools ``Functions.md`` @ 751ec5ce, as the
#: agent lists it) and of Anthropic's text editor, which adds ``undo_edit``. No other
#: file-writing tool of a runtime here takes a sub-command (Claude Code's ``NotebookEdit``
#: ``edit_mode`` replaces, inserts or deletes: each writes).
SUBCOMMANDS: dict[str, tuple[str, frozenset[str]]] = {
    "str_replace_editor": ("command", frozenset({"create", "str_replace", "insert", "undo_edit"})),
}


def writes_file(tool: str | None, args: object, write_tools: tuple[str, ...]) -> bool:
    """Whether a call of ``tool`` with the (parsed) arguments ``args`` writes a file: the
    tool is one of ``write_tools`` and, when it takes a sub-command (:data:`SUBCOMMANDS`),
    the one it was given writes; a missing or other sub-command does not."""
    if tool not in write_tools:
        return False
    if tool not in SUBCOMMANDS:
        return True
    key, writing = SUBCOMMANDS[tool]
    given = args.get(key) if isinstance(args, dict) else None
    return isinstance(given, str) and given.strip() in writing


def result_failure(response: object, where: str) -> str | None:
    """What a post-tool input's tool result (``response``, found under ``where``) says of a
    call that did not succeed, in Claude Code's shape, which Droid and Kiro follow:
    ``failed (<where>.success is false)`` or ``failed (<where>.is_error)``; None when it
    says nothing of the kind (a result that is not an object says nothing)."""
    if not isinstance(response, dict):
        return None
    if response.get("success") is False:
        return f"failed ({where}.success is false)"
    if response.get("is_error") is True or response.get("isError") is True:
        return f"failed ({where}.is_error)"
    return None


def tool_call(
    event: dict[str, object],
    tool: str,
    args: str,
    session: str,
    parse: Callable[[object], object] = lambda value: value,
    *,
    cwd: str = "cwd",
    hook: str = "hook_event_name",
    within: dict[str, object] | None = None,
    label: str | None = None,
) -> ToolCall:
    """The :class:`ToolCall` of ``event`` whose tool, arguments, session id, working
    directory and hook event are under the keys ``tool``, ``args``, ``session``, ``cwd``
    and ``hook`` (the tool and its arguments in ``within`` when given: an object of the
    input); the paths are read from ``parse`` of the arguments (named ``label``, default
    ``args``, when unreadable)."""
    holder = event if within is None else within
    raw = holder.get(args)
    paths, unreadable = written_paths(parse(raw), label or args)
    return ToolCall(
        event,
        text(holder.get(tool)),
        raw,
        text(event.get(session)),
        paths,
        unreadable,
        text(event.get(cwd)),
        text(event.get(hook)),
    )


def snake_tool_call(data: bytes, name: str) -> ToolCall:
    """Decode a hook input in the ``tool_name``/``tool_input``/``session_id`` shape (Claude
    Code, Codex, Gemini CLI).

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, name)
    return tool_call(event, "tool_name", "tool_input", "session_id")


def derived_call_id(*parts: object) -> str:
    """``derived:`` + the SHA-256 (first 32 hex digits) of ``parts`` as canonical JSON."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return "derived:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def call_id(source: str, value: object, *context: object) -> str | None:
    """The runtime's tool call id: ``value`` when it is valid text; a string that is not
    (a lone surrogate) gets a :func:`derived_call_id` of itself and ``context`` (its escaped
    form), so a replay of it still records once; None when there is no id."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return derived_call_id(source, value, *context)
    return value


#: Most replacements read from one input: a longer list names none (the input records once).
MOST_REPLACEMENTS = 100


def replacement_pairs(edits: object, old: str, new: str) -> tuple[tuple[str, str], ...]:
    """The ``(old, new)`` text pairs of ``edits``, a list of objects naming both texts under
    the keys ``old`` and ``new``; () when it is not such a list, when one entry is not
    such an object, or past :data:`MOST_REPLACEMENTS` (a partial list would explain
    nothing)."""
    if not isinstance(edits, list) or not edits or len(edits) > MOST_REPLACEMENTS:
        return ()
    pairs = []
    for edit in edits:
        before = edit.get(old) if isinstance(edit, dict) else None
        after = edit.get(new) if isinstance(edit, dict) else None
        if not isinstance(before, str) or not isinstance(after, str):
            return ()
        pairs.append((before, after))
    return tuple(pairs)


def edit_replacements(
    args: object, old: str = "old_string", new: str = "new_string", listed: str = "edits"
) -> tuple[tuple[tuple[str, str], ...], frozenset[int]]:
    """The replacements of an edit tool's arguments ``args`` and the indexes of those made at
    every occurrence (:attr:`RuntimeEvent.replacements`, :attr:`RuntimeEvent.replace_all`):
    one ``old``/``new`` pair (Claude Code's ``Edit`` and Gemini CLI's ``replace`` name them
    ``old_string``/``new_string``; other runtimes ``old_str``, ``oldString``, ``oldText``),
    else a ``listed`` list of them (Claude Code's ``MultiEdit`` ``edits``). A pair is made
    at every occurrence when its ``replace_all`` or ``replaceAll`` is true or its
    ``expected_replacements`` a number above one. ((), frozenset()) for anything else, and
    for a list with one entry that is not such a pair (a partial list explains nothing)."""
    if not isinstance(args, dict):
        return (), frozenset()
    edits = [args] if old in args else args.get(listed)
    pairs = replacement_pairs(edits, old, new)
    if not pairs or not isinstance(edits, list):
        return (), frozenset()
    every = frozenset(
        i
        for i, edit in enumerate(edits)
        if isinstance(edit, dict)
        and (
            edit.get("replace_all") is True
            or edit.get("replaceAll") is True
            or (type(n := edit.get("expected_replacements")) is int and n > 1)
        )
    )
    return pairs, every


def unique(paths: list[str]) -> tuple[str, ...]:
    """``paths`` without blanks and repeats, in first-seen order."""
    return tuple(dict.fromkeys(p for p in paths if p.strip()))


def relative_paths(root: str, paths: tuple[str, ...], cwd: str | None) -> tuple[str, ...]:
    """Paths relative to the work tree root, ``/``-separated; paths outside it (and the root
    itself) are left out, and so is a path no file can have (a NUL in it, or in ``cwd``).
    A relative path is taken from ``cwd`` (default: the root)."""
    out = []
    real_root = os.path.realpath(root)
    for p in paths:
        try:
            full = os.path.realpath(p if os.path.isabs(p) else os.path.join(cwd or root, p))
        except ValueError:  # an embedded NUL: not a path, the mutation is kept without it
            continue
        rel = os.path.relpath(full, real_root)
        if rel != "." and rel != os.pardir and not rel.startswith(os.pardir + os.sep):
            out.append(rel.replace(os.sep, "/"))
    return tuple(dict.fromkeys(out))


def map_effort(name: str | None, table: Mapping[str, str]) -> str | None:
    """A runtime's effort name in our levels (``off minimal low medium high xhigh``) through
    the runtime's ``table`` (lower-cased keys); None for a blank name, ``unknown`` for a
    name the table does not know."""
    if name is None or not name.strip():
        return None
    return table.get(name.strip().lower(), UNKNOWN)


#: Effort names that are ours already: every runtime's table starts from these.
OUR_EFFORTS: dict[str, str] = {
    level: level for level in ("off", "minimal", "low", "medium", "high", "xhigh")
}


def writer_of(
    event: RuntimeEvent,
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
    table: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """(model, effort) for the mutation: flags, then the environment, then the event;
    ``unknown`` when nothing says. An effort is taken through the runtime's ``table`` (its
    own names mapped to our levels, as its decoder maps them; default :data:`OUR_EFFORTS`);
    a name it does not know is ``unknown``, whoever gave it (``--effort``,
    ``GENTLE_WRITER_EFFORT`` in a hook entry, or the runtime): a write is never dropped for
    its effort (:func:`given_effort_problem` says what to warn about). Never raises."""
    m = model or env.get("GENTLE_WRITER_MODEL") or event.model or UNKNOWN
    given = effort if effort is not None else env.get("GENTLE_WRITER_EFFORT")
    e = given if given is not None and given.strip() else event.effort or UNKNOWN
    return m, (table or OUR_EFFORTS).get(e.strip().lower(), UNKNOWN)


def given_effort_problem(
    effort: str | None, env: Mapping[str, str], table: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """``(where, value)`` when the effort a person gave (``--effort``, else
    ``GENTLE_WRITER_EFFORT``) is not blank and neither one of the runtime's effort names
    (``table``, default :data:`OUR_EFFORTS`) nor ``unknown``: :func:`writer_of` records it as
    ``unknown``, and the recorder warns naming it. None otherwise."""
    where = "--effort" if effort is not None else "GENTLE_WRITER_EFFORT"
    given = effort if effort is not None else env.get("GENTLE_WRITER_EFFORT")
    if given is None or not given.strip():
        return None
    name = given.strip().lower()
    return None if name in (table or OUR_EFFORTS) or name == UNKNOWN else (where, given)
