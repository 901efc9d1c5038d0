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

from gentle_hooks.agents import command_words, settings_keys
from gentle_hooks.agents.runtime_rows import Runtime, Wiring

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
        raise ShapeError('"hooks" is not a JSON object' + _null_hint(hooks, "{}"))
    event = hooks.get(w.event, [])
    if not isinstance(event, list):
        raise ShapeError(f'"hooks.{w.event}" is not a JSON array' + _null_hint(event, "[]"))


def _null_hint(value: object, empty: str) -> str:
    """For a ``null`` where a container belongs: what to write instead (the file is the
    user's: install does not decide what ``null`` meant)."""
    return f" (it is null: make it {empty} or remove it)" if value is None else ""


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


def unguarded(entry: object, w: Wiring) -> bool:
    """Whether ``entry`` (one of ours) runs its command through a shell without our guard
    while the runtime's wiring is :attr:`Wiring.guarded` (Copilot's: where gentle-hook is
    missing the command exits non-zero and a ``preToolUse`` entry denies the tool call);
    an ``exec`` entry runs no shell and is left as written."""
    if not w.guarded or not isinstance(entry, dict):
        return False
    for key in (w.command_key, *w.other_commands):
        if isinstance(entry.get(key), str):
            return key != "exec" and not command_words.is_guarded(str(entry[key]))
    return False


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


#: The hook events each runtime documents, by runtime name (a runtime not here has its
#: event names left unchecked). Claude Code: code.claude.com/docs/en/hooks, "Hook
#: lifecycle" and one section per event.
DOCUMENTED_EVENTS: dict[str, frozenset[str]] = {
    "claude-code": frozenset(
        {
            "Setup",
            "SessionStart",
            "UserPromptSubmit",
            "UserPromptExpansion",
            "PreToolUse",
            "PermissionRequest",
            "PermissionDenied",
            "PostToolUse",
            "PostToolUseFailure",
            "PostToolBatch",
            "Notification",
            "SubagentStart",
            "SubagentStop",
            "TaskCreated",
            "TaskCompleted",
            "Stop",
            "StopFailure",
            "TeammateIdle",
            "InstructionsLoaded",
            "ConfigChange",
            "CwdChanged",
            "FileChanged",
            "WorktreeCreate",
            "WorktreeRemove",
            "PreCompact",
            "PostCompact",
            "Elicitation",
            "ElicitationResult",
            "SessionEnd",
        }
    ),
}


def _group_faults(at: str, group: object) -> list[str]:
    if not isinstance(group, dict):
        return [f"{at} is not an object"]
    out = []
    if "matcher" in group and not isinstance(group["matcher"], str):
        out.append(f"{at}.matcher is not a string")
    if not isinstance(group.get("hooks"), list):
        out.append(f"{at}.hooks is not a list")
    return out


def shape_faults(doc: JSON, runtime: str, shape: str) -> list[str]:
    """Where ``doc``'s ``hooks`` departs from the shape the runtime documents, one phrase
    each (``hooks.PostToolUze is not an event Claude Code documents``): an object of the
    documented event names (:data:`DOCUMENTED_EVENTS`; only for the runtimes listed),
    each a list of groups ``{"matcher"?: string, "hooks": list}`` (``shape``
    ``grouped``; a ``null`` is named). Empty when it matches, or when there is no
    ``hooks``; nothing else of the document is checked."""
    events = DOCUMENTED_EVENTS.get(runtime)
    hooks = doc.get("hooks")
    if events is None or "hooks" not in doc:
        return []
    if not isinstance(hooks, dict):
        return ["hooks is null, not an object" if hooks is None else "hooks is not an object"]
    out = []
    for name, groups in hooks.items():
        if name not in events:
            out.append(f"hooks.{name} is not a hook event it documents")
        elif not isinstance(groups, list):
            out.append(f"hooks.{name} is not a list")
        elif shape == "grouped":
            for i, group in enumerate(groups):
                out += _group_faults(f"hooks.{name}[{i}]", group)
    return out


def shape_warnings(path: str, doc: JSON, rt: Runtime) -> list[str]:
    """The one-line warnings about ``path`` (holding ``doc``, a configuration file of
    ``rt``), each only when it applies: its ``hooks`` departs from the documented shape
    (:func:`shape_faults`, the first three named); a top-level setting gentle-hooks reads
    holds a value the runtime does not document
    (:func:`~gentle_hooks.agents.settings_keys.read_key_faults`); it has top-level keys
    the runtime does not document (:func:`~gentle_hooks.agents.settings_keys.unknown_keys`).
    Never a failure: the runtime is the judge of its own file."""
    if rt.wiring is None:
        return []
    title, doc_page = rt.title, rt.doc
    out = []
    faults = shape_faults(doc, rt.name, rt.wiring.shape)
    if faults:
        more = f" and {len(faults) - 3} more" if len(faults) > 3 else ""
        out.append(
            f"{path} does not match the shape {title} documents ({doc_page}): "
            f"{'; '.join(faults[:3])}{more}; {title} may reject the file or skip those hooks"
        )
    wrong = settings_keys.read_key_faults(doc, rt.name)
    if wrong:
        out.append(
            f"{path}: {'; '.join(wrong)} ({doc_page}); {title} may reject the file or "
            "ignore those settings"
        )
    unknown = settings_keys.unknown_keys(doc, rt.name)
    if unknown:
        out.append(
            f"{path} has top-level settings {title} does not document ({doc_page}): "
            f"{settings_keys.unknown_phrase(unknown)}; a misspelt name sets nothing"
        )
    return out
