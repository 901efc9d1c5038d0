"""The shape a runtime documents for its hooks document and for our entry in it (SPEC §7
"Hooks"): ``hooks`` an object of event lists, and our entry's fixed fields.

Room ``agents`` (standard library only): pure functions over parsed JSON; the callers are
:mod:`gentle_hooks.agents.wiring` (install) and the doctor's agent checks.

An entry of ours (its command runs our recorder) whose fixed fields differ from the
runtime's template is ours but broken: Claude Code, Codex, Gemini CLI, Droid, Augment and
Copilot run an entry's command only when its ``type`` is ``"command"`` (a missing ``type``
makes Claude Code reject the whole settings file; ``"prompt"`` never runs the command).
``install`` sets those fields again and says so; ``doctor`` fails naming them.
"""

from __future__ import annotations

from gentle_hooks.agents.runtime_rows import Wiring

JSON = dict[str, object]

#: The fields of a runtime's template (:attr:`Wiring.entry`) that decide whether the
#: runtime runs the entry's command at all. The template's other fields are the user's to
#: tune (a ``timeoutSec``, ``show_output``, Gemini CLI's ``name``) and are left as found.
FIXED_KEYS = ("type",)
_MISSING = object()


class ShapeError(ValueError):
    """The document is not shaped as the runtime documents it (``hooks`` not an object, an
    event not a list); nothing is changed then."""


def check_shape(doc: JSON, w: Wiring) -> None:
    """Raise :class:`ShapeError` when ``doc``'s ``hooks`` is not an object or the event of
    ``w`` in it is not a list (a missing one is fine: install adds it)."""
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ShapeError('"hooks" is not a JSON object')
    event = hooks.get(w.event, [])
    if not isinstance(event, list):
        raise ShapeError(f'"hooks.{w.event}" is not a JSON array')


def _fixed(w: Wiring) -> list[tuple[str, object]]:
    return [(k, v) for k, v in w.entry if k in FIXED_KEYS]


def _show(value: object) -> str:
    return '"' + value + '"' if isinstance(value, str) else repr(value)


def wrong_fields(entry: object, w: Wiring) -> list[str]:
    """One phrase per fixed field of ``entry`` that differs from the template of ``w``
    (``"type" is missing, not "command"``); empty when the entry is as the runtime runs
    it, or when the template fixes nothing."""
    if not isinstance(entry, dict):
        return []
    out = []
    for key, want in _fixed(w):
        if key not in entry:
            out.append(f'"{key}" is missing, not {_show(want)}')
        elif entry[key] != want:
            out.append(f'"{key}" is {_show(entry[key])}, not {_show(want)}')
    return out


def repair(entry: JSON, w: Wiring) -> list[str]:
    """Set each fixed field of ``entry`` (changed in place) to the template's value of
    ``w``; one line per field set, for install to print."""
    said = []
    for key, want in _fixed(w):
        if entry.get(key, _MISSING) != want:
            was = "missing" if key not in entry else _show(entry[key])
            said.append(
                f'its "{key}" was {was}: set to {_show(want)} (else the runtime does not '
                "run its command)"
            )
            entry[key] = want
    return said
