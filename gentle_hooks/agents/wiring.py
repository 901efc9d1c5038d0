"""Our hook entry in a runtime's configuration document: find it, add it, remove it (SPEC §7
"Hooks": ``install --agent`` merges, is idempotent, and ``uninstall --agent`` removes only
ours).

Room ``agents`` (standard library only): pure functions over a parsed JSON document (a
``dict``); the caller reads and writes the file (:mod:`gentle_hooks.services.agent_install`).
Every function returns a new document and leaves the one it was given untouched.

Ours is an entry whose command runs ``record --from <runtime>`` of a ``gentle-hook``
(whatever its path, environment prefix, wrappers (:mod:`gentle_hooks.agents.wrappers`),
extra flags, or a leading ``cd "$CLAUDE_PROJECT_DIR" &&``; no other command before or after
it but our guard, :func:`gentle_hooks.agents.command_words.guard`), or one carrying our
entry's ``name`` (Gemini CLI's ``gentle-hooks-record``): it is never duplicated. A
re-install updates only its ``gentle-hook`` word (and drops a leading ``cd`` that fails,
and puts it in our guard for a runtime whose wiring is :attr:`Wiring.guarded`),
saying each change; all else (prefix, flags, the rest of the document) is kept as is.
"""

from __future__ import annotations

import copy
import re
import shlex
from collections.abc import Callable

from gentle_hooks.agents import entry_shape
from gentle_hooks.agents.command_words import guard as guard
from gentle_hooks.agents.command_words import is_guarded as is_guarded
from gentle_hooks.agents.command_words import is_ours as is_ours
from gentle_hooks.agents.command_words import program_of as program_of
from gentle_hooks.agents.command_words import program_words as program_words
from gentle_hooks.agents.command_words import retarget as retarget
from gentle_hooks.agents.command_words import unguarded as unguarded
from gentle_hooks.agents.entry_shape import ShapeError as ShapeError
from gentle_hooks.agents.runtimes import Runtime, Wiring
from gentle_hooks.values.frozen import replace

JSON = dict[str, object]


def covers(matcher: object, tool: str, style: str) -> bool:
    """Whether a group's ``matcher`` selects ``tool`` as the runtime reads it.

    ``style`` ``exact-or-regex`` (Claude Code, Codex): a matcher of names joined by ``|``
    matches those names exactly, anything else is a regular expression matching the whole
    name; ``regex`` (Gemini CLI's ``new RegExp(matcher).test(tool)``): a regular expression
    found anywhere in the name, an invalid one compared as a literal. No matcher, an empty
    one or ``*`` matches every tool.
    """
    if matcher is None or (isinstance(matcher, str) and matcher.strip() in ("", "*")):
        return True
    if not isinstance(matcher, str):
        return False
    if style == "exact-or-regex" and re.fullmatch(r"[\w|]+", matcher):
        return tool in matcher.split("|")
    try:
        pattern = re.compile(matcher)
    except re.error:
        return matcher == tool
    found = pattern.search(tool) if style == "regex" else pattern.fullmatch(tool)
    return found is not None


def misses(matcher: object, w: Wiring) -> tuple[str, ...]:
    """The file-writing tools (our own matcher's names) a group's ``matcher`` leaves out; a
    tool the matcher selects by one of its aliases (:attr:`Wiring.aliases`) is not left
    out."""
    if w.matcher is None:
        return ()
    aliases = dict(w.aliases)
    return tuple(
        t
        for t in w.matcher.split("|")
        if not any(covers(matcher, n, w.matcher_style) for n in (t, *aliases.get(t, ())))
    )


def _entries(doc: JSON, w: Wiring) -> list[object]:
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return []
    found = hooks.get(w.event)
    return found if isinstance(found, list) else []


def _hook_lists(doc: JSON, w: Wiring) -> list[list[object]]:
    """The lists that hold hook entries: one per group (grouped), or the event's list."""
    return [hooks for _, hooks in _groups(doc, w)]


def _groups(doc: JSON, w: Wiring) -> list[tuple[object, list[object]]]:
    """(the group's matcher, its hook list) per group; one ``(None, list)`` when flat."""
    if w.shape == "flat":
        return [(None, _entries(doc, w))]
    out = []
    for group in _entries(doc, w):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(inner, list):
            assert isinstance(group, dict)
            out.append((group.get("matcher"), inner))
    return out


def placements(doc: JSON, rt: Runtime) -> list[tuple[str, object, object]]:
    """(command, the matcher of its group, the entry) of each entry of ours in ``doc``."""
    assert rt.wiring is not None
    w = rt.wiring
    return [
        (str(entry_command(e, w)), matcher, e)
        for matcher, hooks in _groups(doc, w)
        for e in hooks
        if isinstance(e, dict) and _is_our_entry(e, rt)
    ]


def positions(doc: JSON, rt: Runtime) -> list[tuple[int, int]]:
    """(group index, hook index) of each entry of ours under the runtime's event of a
    grouped ``doc``, counted as the runtime counts them (every group and hook of the list)."""
    assert rt.wiring is not None
    out = []
    for g, group in enumerate(_entries(doc, rt.wiring)):
        inner = group.get("hooks") if isinstance(group, dict) else None
        for h, e in enumerate(inner if isinstance(inner, list) else []):
            if _is_our_entry(e, rt):
                out.append((g, h))
    return out


def command_key(entry: object, w: Wiring) -> str:
    """Which member of ``entry`` holds its command: :attr:`Wiring.command_key` when it is
    text, else the first of :attr:`Wiring.other_commands` that is (``exec``: the
    executable of an ``exec``/``args`` entry); :attr:`Wiring.command_key` when none is."""
    if not isinstance(entry, dict):
        return w.command_key
    for key in (w.command_key, *w.other_commands):
        if isinstance(entry.get(key), str):
            return key
    return w.command_key


def entry_command(entry: object, w: Wiring) -> str | None:
    """The command an entry runs, as a shell would read it: the text under its
    :func:`command_key`; an ``exec``/``args`` entry (run without a shell) as its words
    quoted and joined; None when it has none (or ``args`` is not a list of text)."""
    if not isinstance(entry, dict):
        return None
    key = command_key(entry, w)
    value = entry.get(key)
    if key != "exec" or not isinstance(value, str):
        return value if isinstance(value, str) else None
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return None
    return shlex.join([value, *args])


def _is_our_entry(entry: object, rt: Runtime) -> bool:
    """An entry of ours: its command runs our recorder, or it carries our entry's name."""
    assert rt.wiring is not None
    w = rt.wiring
    if not isinstance(entry, dict):
        return False
    name = dict(w.entry).get("name")
    command = entry_command(entry, w)
    return (
        is_ours(command, rt.name)
        or w.names_script(command)
        or (name is not None and entry.get("name") == name)
    )


def commands(doc: JSON, rt: Runtime) -> list[str]:
    """The commands of our entries in ``doc`` (empty when none is wired)."""
    assert rt.wiring is not None
    w = rt.wiring
    return [
        str(entry_command(e, w))
        for hooks in _hook_lists(doc, w)
        for e in hooks
        if isinstance(e, dict) and _is_our_entry(e, rt)
    ]


def _our_entry(w: Wiring, command: str) -> JSON:
    if w.guarded and not is_guarded(command):
        command = guard(command, program_words(command)[1] or "gentle-hook")
    entry: JSON = {}
    for key, value in w.entry:
        entry[key] = value
    entry[w.command_key] = command
    return entry


def events(w: Wiring) -> tuple[Wiring, ...]:
    """The wiring of each event our entry goes under: the runtime's event, then each of
    :attr:`Wiring.also_events` (with its matcher of :attr:`Wiring.also_matchers`)."""
    matchers = dict(w.also_matchers)
    return (
        w,
        *(
            replace(w, event=event, matcher=matchers.get(event, w.matcher))
            for event in w.also_events
        ),
    )


def hooks_phrase(w: Wiring) -> str:
    """The events ours goes under, for a person: ``PostToolUse hook``, or ``postToolUse,
    subagentStart and subagentStop hooks``."""
    names = [x.event for x in events(w)]
    if len(names) == 1:
        return f"{names[0]} hook"
    return f"{', '.join(names[:-1])} and {names[-1]} hooks"


#: A test of an entry's command (``keep``, ``drop_cd`` of :func:`add_event`; None: never).
Check = Callable[[str], bool] | None


def add(
    doc: JSON, rt: Runtime, command: str, keep: Check = None, drop_cd: Check = None
) -> tuple[JSON, str, tuple[str, ...]]:
    """``doc`` with our entry running ``command`` under the runtime's event and each of its
    :attr:`Wiring.also_events` (:func:`add_event` each, with ``keep`` and ``drop_cd``; an
    event that lacked ours is said when the main one had it already, and its new entry runs
    the main one's command as it is then, the user's environment prefix and flags kept).

    Returns:
        (the new document, ``added``, ``updated`` or ``unchanged``, one line per change).

    Raises:
        ShapeError: ``hooks`` or an event list is not what the runtime documents (nothing
            is changed).
    """
    assert rt.wiring is not None
    every = events(rt.wiring)
    for w in every:
        entry_shape.check_shape(doc, w)
    new, what, changes = add_event(doc, rt, every[0], command, keep, drop_cd)
    # an event that lacks ours gets the command of the main event's entry as it now is:
    # the user's own prefix and flags (``FOO=1 gentle-hook ...``) run there too
    kept = commands(new, replace(rt, wiring=every[0]))
    also = kept[0] if kept and what != "added" and is_ours(kept[0], rt.name) else command
    for w in every[1:]:
        new, done, more = add_event(new, rt, w, command, keep, drop_cd, fresh=also)
        if done == "added":
            more = () if what == "added" else (f"added our {w.event} hook",)
        if what == "unchanged" and done != "unchanged":
            what = "updated"
        changes += more
    if doc and "version" not in doc and "version" in new:  # uninstall cannot tell it is ours
        changes += (
            f'added "version": {new["version"]}, which the file lacked (uninstall keeps it)',
        )
    return new, what, changes


def add_event(
    doc: JSON,
    rt: Runtime,
    w: Wiring,
    command: str,
    keep: Check = None,
    drop_cd: Check = None,
    fresh: str | None = None,
) -> tuple[JSON, str, tuple[str, ...]]:
    """``doc`` with our entry running ``command`` under the event of ``w`` (one of
    :func:`events` of the runtime's wiring) (``<program> record --from <runtime>``,
    :func:`gentle_hooks.agents.runtimes.record_command`).

    An entry of ours already there is kept as the user wrote it (an environment prefix,
    extra flags): only its ``gentle-hook`` word becomes ``command``'s program, unless
    ``keep`` of its command is true (the caller found it runs as written), and its leading
    ``cd DIR &&`` is removed when ``drop_cd`` of its command is true (the caller found that
    ``cd`` fails); a second entry of ours is removed (two recorders would race). An entry
    added where there is none runs ``fresh`` when given (the main event's entry as the user
    wrote it), else ``command``.

    Returns:
        (the new document, what happened: ``added``, ``updated`` or ``unchanged``, and one
        line per change made to an existing entry).

    Raises:
        ShapeError: ``hooks`` or its event list is not what the runtime documents.
    """
    entry_shape.check_shape(doc, w)
    new = copy.deepcopy(doc)
    program = unguarded(command).split(" record --from ", 1)[0]
    found = [
        (hooks, e, matcher)
        for matcher, hooks in _groups(new, w)
        for e in hooks
        if _is_our_entry(e, rt)
    ]
    if found:
        changes: list[str] = []
        first_hooks, first, first_matcher = found[0]
        assert isinstance(first, dict)
        missed = misses(first_matcher, w)
        if missed:
            # under a matcher that leaves file writes out, the recorder never runs for them
            first_hooks.remove(first)
            _prune(new, w)
            _append(new, w, first)
            changes.append(
                f"moved out of matcher '{first_matcher}', which misses {', '.join(missed)}, "
                f"into '{w.matcher}'"
            )
        key = command_key(first, w)
        before = entry_command(first, w)
        if not isinstance(before, str) or not before.strip():
            first[w.command_key] = command
            changes.append(f"our entry had no command: it runs '{command}' now")
        elif w.script is not None and before != command:
            # the runtime runs a script file: ours, at this checkout's (or home's) path
            first[key] = command
            changes.append(f"its command changed: '{before}' -> '{command}'")
        elif is_ours(before, rt.name) and not (keep and keep(before)):
            dropped = bool(drop_cd and drop_cd(before))
            after = retarget(before, program, drop_cd=dropped)
            if after != before:
                if key == "exec":
                    # an executable run without a shell: its path unquoted
                    first["exec"] = (shlex.split(program) or [program])[0]
                    after = entry_command(first, w) or after
                else:
                    first[key] = after
                what = "cd, which fails, was dropped" if dropped else "gentle-hook changed"
                changes.append(f"its {what}: '{before}' -> '{after}'")
        now = entry_command(first, w)
        if w.guarded and key != "exec" and isinstance(now, str) and not is_guarded(now):
            # unguarded, it exits non-zero where gentle-hook is missing: the runtime then
            # denies every tool call (Copilot's preToolUse)
            first[key] = guard(now, program_words(now)[1] or program)
            changes.append(
                f"its command now exits 0 where gentle-hook is missing (the tool call is "
                f"never denied): '{now}' -> '{first[key]}'"
            )
        changes += entry_shape.repair(first, w)
        for hooks, dup, _ in found[1:]:
            hooks.remove(dup)
            gone = entry_command(dup, w)
            changes.append(f"removed a second entry of ours running '{gone}'")
        if not changes:
            return new, "unchanged", ()
        return _prune(new, w), "updated", tuple(changes)
    if w.version is not None and "version" not in new:
        new = {"version": w.version, **new}
    _append(new, w, _our_entry(w, fresh or command))
    return new, "added", ()


def _append(doc: JSON, w: Wiring, entry: JSON) -> None:
    """Put ``entry`` in ``doc``: at the end of the event's list (flat), or of the first
    group with our matcher (grouped; a new group when there is none)."""
    hooks_obj = doc.setdefault("hooks", {})
    assert isinstance(hooks_obj, dict)
    event = hooks_obj.setdefault(w.event, [])
    assert isinstance(event, list)
    if w.shape == "flat":
        event.append(entry)
        return
    for group in event:
        if (
            isinstance(group, dict)
            and group.get("matcher") == w.matcher
            and isinstance(group.get("hooks"), list)
        ):
            group["hooks"].append(entry)
            return
    group_new: JSON = {} if w.matcher is None else {"matcher": w.matcher}
    group_new["hooks"] = [entry]
    event.append(group_new)


def remove(doc: JSON, rt: Runtime) -> tuple[JSON, int]:
    """``doc`` without our entries (under every one of :func:`events`); a group or an event
    list left empty by that removal is removed too, and so is ``hooks`` when nothing is
    left in it.

    Returns:
        (the new document, how many entries were removed).
    """
    assert rt.wiring is not None
    new = copy.deepcopy(doc)
    removed = 0
    for w in events(rt.wiring):
        here = 0
        for hooks in _hook_lists(new, w):
            for e in list(hooks):
                if _is_our_entry(e, rt):
                    hooks.remove(e)
                    here += 1
        if here:
            new = _prune(new, w)
        removed += here
    return new, removed


def _prune(doc: JSON, w: Wiring) -> JSON:
    """Drop the groups and the event list our removal emptied, and an emptied ``hooks``."""
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return doc
    event = hooks.get(w.event)
    if isinstance(event, list):
        if w.shape == "grouped":
            event[:] = [g for g in event if not (isinstance(g, dict) and g.get("hooks") == [])]
        if not event:
            del hooks[w.event]
    if not hooks:
        del doc["hooks"]
    return doc


def is_empty(doc: JSON, w: Wiring) -> bool:
    """True when ``doc`` holds nothing but what we would write (own files are removed then)."""
    rest = {k: v for k, v in doc.items() if not (k == "version" and v == w.version)}
    return not rest
