"""What a configuration file held before ``install --agent`` added our entry that ``uninstall
--agent`` must give back: that the file existed, and the empty containers our entry went into.

Room ``services``. Removing our entry leaves the containers it emptied (``hooks``, an event
list, a group with our matcher); uninstall drops them, since install creates them in a file
that lacks them. A user's file may have held them empty already (``{"hooks": {}}``), and the
document after install cannot tell the two apart; nor can it tell a file install created
from a user's file that held what install would have written. So install remembers, one JSON
object a line, in ``$XDG_STATE_HOME/gentle-hooks/kept-before`` (beside
:mod:`gentle_hooks.services.agent_dirs`' list, outside every repository), keyed by the file's
real path: ``existed`` (uninstall never removes that file) and ``empty``, the containers
that were there empty. Uninstall puts those back, then forgets the file. A file without a
line (installed on another machine, or the list could not be written) is handled as before:
the list is best effort, as the folder list is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from gentle_hooks.agents import wiring
from gentle_hooks.agents.runtimes import Wiring
from gentle_hooks.bounded import WriteError, write_whole
from gentle_hooks.services.agent_dirs import list_path

#: The list's name beside the folder list.
LIST = "kept-before"


def _list() -> str:
    return os.path.join(os.path.dirname(list_path()), LIST)


def _key(path: str) -> str:
    return os.path.realpath(path)


def _read() -> list[dict[str, object]]:
    try:
        with open(_list(), encoding="utf-8") as f:
            rows = [json.loads(line) for line in f.read().splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    return [r for r in rows if isinstance(r, dict) and isinstance(r.get("path"), str)]


def _write(rows: list[dict[str, object]]) -> None:
    path = _list()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # a random name opened O_EXCL | O_NOFOLLOW, never a guessable one
        write_whole(
            path, "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode("utf-8")
        )
    except (OSError, UnicodeEncodeError, WriteError):
        # unwritable: uninstall falls back to what the document shows
        return


def empties(doc: Mapping[str, object], w: Wiring) -> list[list[object]]:
    """The containers of ``doc`` that are there empty and that our entry would go into:
    ``["hooks"]``, ``["hooks", EVENT]``, ``["hooks", EVENT, INDEX, GROUP]`` (grouped: the
    first group with our matcher, as :func:`wiring.add` picks it)."""
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return []
    out: list[list[object]] = [["hooks"]] if not hooks else []
    for e in wiring.events(w):
        event = hooks.get(e.event)
        if event == []:
            out.append(["hooks", e.event])
        elif isinstance(event, list) and e.shape == "grouped":
            for i, group in enumerate(event):
                if isinstance(group, dict) and group.get("matcher") == e.matcher:
                    if group.get("hooks") == []:
                        out.append(["hooks", e.event, i, group])
                    break
    return out


def remember(
    path: str, before: Mapping[str, object] | None, w: Wiring, updated: bool = False
) -> None:
    """Install added our entry to ``path``, whose document was ``before`` (None: no file).

    ``updated``: install added ours under an event of a file that held ours already (a
    ``BeforeTool`` hook added beside an ``AfterTool`` one): the containers ``before`` held
    empty join those the file's line names, and whether the file existed before the first
    install stays as that line says (no line: not known, so not said)."""
    key = _key(path)
    old = [r for r in _read() if r.get("path") == key]
    rows = [r for r in _read() if r.get("path") != key]
    if updated and before is not None:
        existed, kept = recall(path) if old else (False, [])
        empty = kept + [e for e in empties(before, w) if e not in kept]
        if empty or existed:
            rows.append({"path": key, "existed": existed, "empty": empty})
    elif before is not None:
        rows.append({"path": key, "existed": True, "empty": empties(before, w)})
    _write(rows)


def recall(path: str) -> tuple[bool, list[list[object]]]:
    """(the file existed before install, its empty containers then); (False, []) when the
    list names it not."""
    key = _key(path)
    for r in _read():
        if r.get("path") == key:
            empty = r.get("empty")
            rows = [p for p in empty if isinstance(p, list)] if isinstance(empty, list) else []
            return r.get("existed") is True, rows
    return False, []


def forget(path: str) -> None:
    """Uninstall took our entry out of ``path``: its line goes."""
    key = _key(path)
    rows = _read()
    if any(r.get("path") == key for r in rows):
        _write([r for r in rows if r.get("path") != key])


def restore(doc: dict[str, object], empty: list[list[object]]) -> dict[str, object]:
    """``doc`` (our entries removed) with the containers ``empty`` names put back where
    they are missing."""
    for p in empty:
        hooks = doc.setdefault("hooks", {})
        if not isinstance(hooks, dict) or len(p) < 2 or not isinstance(p[1], str):
            continue
        event = hooks.setdefault(p[1], [])
        if len(p) == 4 and isinstance(event, list) and isinstance(p[2], int):
            group = p[3]
            if group not in event:
                event.insert(min(p[2], len(event)), group)
    return doc
