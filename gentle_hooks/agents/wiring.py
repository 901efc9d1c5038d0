"""Our hook entry in a runtime's configuration document: find it, add it, remove it (SPEC §7
"Hooks": ``install --agent`` merges, is idempotent, and ``uninstall --agent`` removes only
ours).

Room ``agents`` (standard library only): pure functions over a parsed JSON document (a
``dict``); the caller reads and writes the file (:mod:`gentle_hooks.services.agent_install`).
Every function returns a new document and leaves the one it was given untouched.

Ours is an entry whose command runs ``record --from <runtime>`` of a ``gentle-hook``
(whatever its path): it is updated in place when its command changed, never duplicated.
Everything else in the document is kept as it was, in its order.
"""

from __future__ import annotations

import copy
import shlex

from gentle_hooks.agents.runtimes import Runtime, Wiring

JSON = dict[str, object]


def is_ours(command: object, runtime: str) -> bool:
    """True when ``command`` runs ``gentle-hook ... record --from <runtime>``."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or not words[0].replace("\\", "/").rsplit("/", 1)[-1].startswith("gentle-hook"):
        return False
    return any(words[i : i + 3] == ["record", "--from", runtime] for i in range(len(words)))


def _entries(doc: JSON, w: Wiring) -> list[object]:
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return []
    found = hooks.get(w.event)
    return found if isinstance(found, list) else []


def _hook_lists(doc: JSON, w: Wiring) -> list[list[object]]:
    """The lists that hold hook entries: one per group (grouped), or the event's list."""
    if w.shape == "flat":
        return [_entries(doc, w)]
    out = []
    for group in _entries(doc, w):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(inner, list):
            out.append(inner)
    return out


def commands(doc: JSON, rt: Runtime) -> list[str]:
    """The commands of our entries in ``doc`` (empty when none is wired)."""
    assert rt.wiring is not None
    w = rt.wiring
    return [
        str(e[w.command_key])
        for hooks in _hook_lists(doc, w)
        for e in hooks
        if isinstance(e, dict) and is_ours(e.get(w.command_key), rt.name)
    ]


def _our_entry(w: Wiring, command: str) -> JSON:
    entry: JSON = {}
    for key, value in w.entry:
        entry[key] = value
    entry[w.command_key] = command
    return entry


class ShapeError(ValueError):
    """The document is not shaped as the runtime documents it (``hooks`` not an object, an
    event not a list); nothing is changed then."""


def _check_shape(doc: JSON, w: Wiring) -> None:
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ShapeError('"hooks" is not a JSON object')
    event = hooks.get(w.event, [])
    if not isinstance(event, list):
        raise ShapeError(f'"hooks.{w.event}" is not a JSON array')


def add(doc: JSON, rt: Runtime, command: str) -> tuple[JSON, str]:
    """``doc`` with our entry running ``command``.

    Returns:
        (the new document, what happened: ``added``, ``updated`` (our entry had another
        command) or ``unchanged``).

    Raises:
        ShapeError: ``hooks`` or its event list is not what the runtime documents.
    """
    assert rt.wiring is not None
    w = rt.wiring
    _check_shape(doc, w)
    new = copy.deepcopy(doc)
    existing = commands(new, rt)
    if existing == [command]:
        return new, "unchanged"
    if existing:
        first = True
        for hooks in _hook_lists(new, w):
            for e in list(hooks):
                if isinstance(e, dict) and is_ours(e.get(w.command_key), rt.name):
                    if first:
                        e[w.command_key] = command
                        first = False
                    else:  # a duplicate someone added by hand: one entry is ours
                        hooks.remove(e)
        return _prune(new, w), "updated"
    if w.version is not None and "version" not in new:
        new = {"version": w.version, **new}
    hooks_obj = new.setdefault("hooks", {})
    assert isinstance(hooks_obj, dict)
    event = hooks_obj.setdefault(w.event, [])
    assert isinstance(event, list)
    entry = _our_entry(w, command)
    if w.shape == "flat":
        event.append(entry)
        return new, "added"
    for group in event:
        if (
            isinstance(group, dict)
            and group.get("matcher") == w.matcher
            and isinstance(group.get("hooks"), list)
        ):
            group["hooks"].append(entry)
            return new, "added"
    group_new: JSON = {} if w.matcher is None else {"matcher": w.matcher}
    group_new["hooks"] = [entry]
    event.append(group_new)
    return new, "added"


def remove(doc: JSON, rt: Runtime) -> tuple[JSON, int]:
    """``doc`` without our entries; a group or an event list left empty by that removal is
    removed too, and so is ``hooks`` when nothing is left in it.

    Returns:
        (the new document, how many entries were removed).
    """
    assert rt.wiring is not None
    w = rt.wiring
    new = copy.deepcopy(doc)
    removed = 0
    for hooks in _hook_lists(new, w):
        for e in list(hooks):
            if isinstance(e, dict) and is_ours(e.get(w.command_key), rt.name):
                hooks.remove(e)
                removed += 1
    return (_prune(new, w) if removed else new), removed


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
