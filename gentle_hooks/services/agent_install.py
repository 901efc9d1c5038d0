"""``install --agent NAME``: wire an agent runtime's hook to ``gentle-hook record --from
NAME`` in its own configuration file (SPEC §7 "Hooks"): the shared reading and writing of
those files (the install of our entry is :mod:`gentle_hooks.services.agent_entry`'s,
``uninstall --agent`` is :mod:`gentle_hooks.services.agent_uninstall`).

Room ``services``. The document edits are :mod:`gentle_hooks.agents.wiring`'s; this module
finds the file for a scope, reads it within bounds (:mod:`gentle_hooks.agents.payload`),
writes it atomically (a temporary file renamed over it, its mode kept) and says exactly what
changed. An existing file is edited in place (:mod:`gentle_hooks.agents.jsonedit`): only our
entry's text is added or removed, every other byte (comments where the runtime reads them,
indentation, number spellings) is kept, and uninstall after install gives back the original
bytes. A file that is a symbolic link (settings kept in a dotfiles repository) is written
through it: its target is replaced atomically, the link stays. A file that is not the JSON
its runtime reads is never rewritten.

Scopes: ``project`` is the file under the work tree root (shared with the repository's other
users when committed); ``user`` is the file under the home directory (or the runtime's own
home variable, e.g. ``CODEX_HOME``).

The command written is ``gentle-hook record --from NAME``. When no ``gentle-hook`` is on
``PATH``, it is the absolute path of the one beside the running interpreter (in a project
file this machine's path: the install says so; a later install with ``gentle-hook`` on
``PATH`` puts the plain name back). When the one ``PATH`` finds lives in the activated
virtual environment (``$VIRTUAL_ENV``), it is that one's absolute path: the runtime's shell
does not have that environment (:func:`gentle_hooks.services.agent_reach.venv_program`).
"""

from __future__ import annotations

import glob
import os
import shlex
import sys
from collections.abc import Mapping

from gentle_hooks.agents import jsonedit, wiring
from gentle_hooks.agents.payload import read_file
from gentle_hooks.agents.runtimes import Runtime, Wiring
from gentle_hooks.bounded import write_whole
from gentle_hooks.errors import Command, UsageError
from gentle_hooks.services.agent_dirs import make_parents
from gentle_hooks.services.agent_reach import venv_program, working_program
from gentle_hooks.values.frozen import field, frozen

SCOPES = ("project", "user")

#: The machine-wide settings files that can stop hooks (``system`` entries of
#: :attr:`Wiring.settings`), at their documented path for this operating system. Claude
#: Code's managed policy settings (code.claude.com/docs/en/settings, "Settings files");
#: Gemini CLI's system settings (google-gemini/gemini-cli ``docs/reference/configuration.md``,
#: "Settings files"; ``GEMINI_CLI_SYSTEM_SETTINGS_PATH`` replaces it).
SYSTEM_SETTINGS: dict[str, str] = {
    "claude-code-managed": (
        "/Library/Application Support/ClaudeCode/managed-settings.json"
        if sys.platform == "darwin"
        else r"C:\Program Files\ClaudeCode\managed-settings.json"
        if sys.platform == "win32"
        else "/etc/claude-code/managed-settings.json"
    ),
    "gemini-cli-system": (
        "/Library/Application Support/GeminiCli/settings.json"
        if sys.platform == "darwin"
        else r"C:\ProgramData\gemini-cli\settings.json"
        if sys.platform == "win32"
        else "/etc/gemini-cli/settings.json"
    ),
}


@frozen
class AgentChange:
    """What install or uninstall did to one file.

    Attributes:
        runtime: the runtime's name; scope: project | user; path: the file;
        what: ``added``, ``updated``, ``unchanged``, ``removed``, ``removed the file``, or
            ``nothing to remove``; command: our hook's command as it stands in the file
            (install: the user's own prefix and flags kept);
        notes: each change made to an entry of ours that was there, then what the user
            must still do, or should know;
        fix: the command that does what this install left undone on purpose (it ends the
            last note), or None.
    """

    runtime: str
    scope: str
    path: str
    what: str
    command: str | None = None
    notes: tuple[str, ...] = field(default=())
    fix: Command | None = None


def config_path(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> str:
    """The configuration file of a runtime in a scope (the one ``install`` writes): its
    standalone hooks file when one exists (:func:`hooks_file`).

    Raises:
        UsageError: project scope outside a work tree; user scope for a runtime without one.
    """
    if scope == "project":
        if root is None:
            raise UsageError("--scope project needs a git work tree: run it inside one")
        return hooks_file(w, scope, root, env) or os.path.join(root, w.project)
    if w.user is None:
        raise UsageError("this runtime has no user-level configuration: use --scope project")
    return hooks_file(w, scope, root, env) or scoped_path(w, "user", w.user, root, env)


def hooks_file(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> str | None:
    """The first of the runtime's standalone hooks files (:attr:`Wiring.hooks_files`) in
    ``scope``, or None; while it exists the runtime reads no hook from its settings files
    (docs.factory.ai/harness/hooks: "If hooks.json is absent, Droid also reads hook
    declarations from the hooks key in the matching settings.json")."""
    if scope == "project" and root is None:
        return None
    for rel in w.hooks_files:
        path = scoped_path(w, scope, rel, root, env)
        if os.path.lexists(path):
            return path
    return None


def shadowed(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> list[str]:
    """The existing settings files of ``scope`` whose hooks the runtime does not read
    because a standalone hooks file (:func:`hooks_file`) exists; empty when none does."""
    if hooks_file(w, scope, root, env) is None:
        return []
    rels = (w.project, *w.also_project) if scope == "project" else (w.user, *w.also_user)
    return [
        path
        for rel in rels
        if rel is not None
        for path in sorted(glob.glob(scoped_path(w, scope, rel, root, env)))
        if os.path.isfile(path)
    ]


def is_hooks_file(w: Wiring, path: str) -> bool:
    """``path`` is one of the runtime's standalone hooks files (:attr:`Wiring.hooks_files`)."""
    slashed = "/" + path.replace(os.sep, "/")
    return any(slashed.endswith("/" + rel) for rel in w.hooks_files)


def scoped_path(w: Wiring, scope: str, rel: str, root: str | None, env: Mapping[str, str]) -> str:
    """``rel`` (relative as :attr:`Wiring.project` or :attr:`Wiring.user`) in ``scope``; a
    user path's first part is replaced by the runtime's home variable when it is set (the
    home directory by :attr:`Wiring.home_root_env`); a
    ``system`` name is the runtime's system variable when set, else its
    :data:`SYSTEM_SETTINGS` path."""
    if scope == "system":
        return (env.get(w.system_env) if w.system_env else None) or SYSTEM_SETTINGS[rel]
    if scope == "project":
        return os.path.join(root or ".", rel)
    base = env.get(w.home_env) if w.home_env else None
    if base:
        return os.path.join(base, *rel.split("/")[1:])
    return os.path.join(user_home(w, env), rel)


def user_home(w: Wiring | None, env: Mapping[str, str]) -> str:
    """The directory a runtime's user files are relative to: its own home variable
    (:attr:`Wiring.home_root_env`) when set, else ``HOME``."""
    own = env.get(w.home_root_env) if w is not None and w.home_root_env else None
    return own or env.get("HOME") or os.path.expanduser("~")


def locations(w: Wiring, scope: str, root: str | None, env: Mapping[str, str]) -> list[str]:
    """Every file the runtime reads our hook from in ``scope``: the one ``install`` writes
    first, then the other documented ones that exist (:attr:`Wiring.also_project`...); only
    the standalone hooks file when one exists (:func:`hooks_file`)."""
    primary = config_path(w, scope, root, env)
    out = [primary]
    if primary == hooks_file(w, scope, root, env):
        return out
    for pattern in w.also_project if scope == "project" else w.also_user:
        for found in sorted(glob.glob(scoped_path(w, scope, pattern, root, env))):
            if found not in out and os.path.isfile(found):
                out.append(found)
    return out


def _dotted(doc: Mapping[str, object], key: str) -> tuple[bool, object]:
    value: object = doc
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def disabled_by(
    w: Wiring, commands: list[str], root: str | None, env: Mapping[str, str]
) -> list[str]:
    """What in the runtime's settings stops our hook from running, one phrase each: a
    switch that turns every hook off (the file of highest precedence that sets it decides),
    or a list of disabled hooks naming ours (by its ``name`` or its command). Settings files
    that cannot be read are passed over (the runtime reports them itself)."""
    name = dict(w.entry).get("name")
    ours = {n for n in (name, *commands) if isinstance(n, str)}
    decided: dict[str, tuple[object, str]] = {}
    out: list[str] = []
    for scope, rel in w.settings:
        if scope == "project" and root is None:
            continue
        path = scoped_path(w, scope, rel, root, env)
        doc = read_toml(path) if w.settings_toml else _read_or_none(path, w.settings_comments)
        if doc is None:
            continue
        for key, _ in (*w.switches, *(w.system_switches if scope == "system" else ())):
            there, value = _dotted(doc, key)
            if there:
                decided[key] = (value, path)
        for key in w.disabled_lists:
            there, value = _dotted(doc, key)
            if (
                there
                and isinstance(value, list)
                and ours & {v for v in value if isinstance(v, str)}
            ):
                out.append(f"{key} in {path} lists it")
    for key, off in (*w.switches, *w.system_switches):
        if key in decided and decided[key][0] == off:
            out.insert(0, f"{key}: {json_word(off)} in {decided[key][1]}")
    return out


def _read_or_none(path: str, comments: bool) -> dict[str, object] | None:
    try:
        return read_config(path, comments)
    except UsageError:
        return None


def read_toml(path: str) -> dict[str, object] | None:
    """The TOML document at ``path``; None when it is absent or not readable TOML (the
    runtime reports a broken file itself)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = read_file(path) if os.path.isfile(path) else None
    if data is None:
        return None
    try:
        doc: dict[str, object] = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return doc


def json_word(value: object) -> str:
    """``value`` as JSON spells it (``false``, ``true``)."""
    return "true" if value is True else "false" if value is False else repr(value)


def program_for(scope: str, env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """The ``gentle-hook`` the hook runs (:func:`working_program`: the one ``PATH`` finds
    when it runs, else the one beside this interpreter when it runs), and a note when it may
    not be found, or names this machine's path in a project file, or passes over a broken
    ``gentle-hook`` on ``PATH``."""
    program, broken = working_program(env)
    lead = (
        "gentle-hook is not on PATH here"
        if broken is None
        else f"the gentle-hook on PATH cannot run ({broken})"
    )
    if program is None:
        return "gentle-hook", (f"{lead}: the hook fails until it is",)
    inside = venv_program(env) if program == "gentle-hook" else None
    if inside is not None:
        path, venv = inside
        where = "a path of this machine; " if scope == "project" else ""
        return shlex.quote(path), (
            f"the gentle-hook on PATH is the activated virtual environment's ({venv}): the "
            f"hook runs {path} ({where}a shell without that environment does not find it)",
        )
    if program == "gentle-hook":
        return program, ()
    beside = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    if scope == "project":
        return program, (
            f"{lead}: the hook runs {beside}, a path of this machine; put "
            "gentle-hook on PATH and install again before you commit the file",
        )
    return program, () if broken is None else (f"{lead}: the hook runs {beside}",)


def installed_path() -> str:
    """The program word install writes when ``gentle-hook`` is not on ``PATH``: the one
    beside the running interpreter, quoted for the shell."""
    return shlex.quote(os.path.join(os.path.dirname(sys.executable), "gentle-hook"))


@frozen
class Loaded:
    """A configuration file as read: its document and its text (edited in place).
    ``bare``: the file is a standalone hooks file holding the event map itself, which
    ``doc`` holds under ``hooks`` as every settings file does (:func:`write_config`
    writes it back bare)."""

    doc: dict[str, object]
    text: str
    bare: bool = False


def load_config(path: str, comments: bool = False, bare: bool = False) -> Loaded | None:
    """The configuration file at ``path`` (through a symbolic link); None when it does not
    exist. ``comments``: the runtime reads it as JSON with comments. ``bare``: it is a
    standalone hooks file, keyed by event name (docs.factory.ai/harness/hooks,
    "Structure"); one wrapped in a ``hooks`` object, as a settings file, is read as such.

    Raises:
        UsageError: it exists but is not a readable regular file of JSON (with comments
            when allowed) holding an object.
    """
    if not os.path.lexists(path):
        return None
    data = read_file(path)
    if data is None:
        raise UsageError(f"{path}: not a readable regular file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    if not text.strip():
        return Loaded({}, text, bare)
    try:
        node = jsonedit.parse(text, comments=comments)
    except jsonedit.JsonTextError as exc:
        kind = "JSON with comments" if comments else "JSON"
        plain = comments or not jsonedit.has_comments(text)
        hint = "" if plain else " (this runtime reads no comments)"
        raise UsageError(f"{path}: not {kind}{hint}: {exc}") from None
    if not isinstance(node.value, dict):
        raise UsageError(f"{path}: not a JSON object")
    if bare and not isinstance(node.value.get("hooks"), dict):
        return Loaded({"hooks": node.value} if node.value else {}, text, True)
    return Loaded(node.value, text)


def load_for_edit(path: str, w: Wiring) -> Loaded | None:
    """:func:`load_config` before an edit: its error says nothing was changed."""
    try:
        return load_config(path, w.comments, is_hooks_file(w, path))
    except UsageError as exc:
        raise UsageError(f"{exc.message}; nothing was changed") from None


def read_config(path: str, comments: bool = False) -> dict[str, object] | None:
    """:func:`load_config`'s document."""
    loaded = load_config(path, comments)
    return None if loaded is None else loaded.doc


def read_hooks(path: str, w: Wiring) -> dict[str, object] | None:
    """:func:`read_config` of a file the runtime reads hooks from (:func:`is_hooks_file`)."""
    loaded = load_config(path, w.comments, is_hooks_file(w, path))
    return None if loaded is None else loaded.doc


def write_target(path: str) -> str:
    """Where writing ``path`` goes: the file a symbolic link (chain) points to, so a
    settings file kept in a dotfiles repository stays a link and its target changes."""
    return os.path.realpath(path) if os.path.islink(path) else path


def write_config(
    path: str, loaded: Loaded | None, doc: Mapping[str, object], w: Wiring, doc_page: str
) -> None:
    """Write ``doc`` to ``path`` atomically (through a link, to its target), keeping the
    file's mode; an existing file is edited in place (:func:`jsonedit.rewrite`), so every
    byte we do not change stays as it was.

    Raises:
        UsageError: the in-place edit could not be made (nothing is written).
    """
    target = write_target(path)
    if loaded is not None and loaded.bare:
        bare = doc.get("hooks", {})
        doc = bare if isinstance(bare, dict) else {}
    if loaded is None or not loaded.text.strip():
        text = fresh_text(doc, None if loaded is None else loaded.text)
    else:
        try:
            text = jsonedit.rewrite(loaded.text, doc, comments=w.comments)
        except (jsonedit.EditError, jsonedit.JsonTextError) as exc:
            raise UsageError(
                f"{path}: cannot edit it in place ({exc}); nothing was changed: add the "
                f"entry by hand as {doc_page} shows"
            ) from None
    make_parents(target)
    write_whole(target, text.encode("utf-8"))


def fresh_text(doc: Mapping[str, object], blank: str | None) -> str:
    """The text of a file install writes whole: :func:`jsonedit.dump` of ``doc`` for a file
    that did not exist (``blank`` None); for one that held only whitespace ``blank`` (an
    empty file), a newline, that dump, then ``blank`` itself, so :func:`blank_before` can
    give those bytes back. JSON reads both the same."""
    text = jsonedit.dump(doc)
    return text if blank is None else "\n" + text + blank


def wiring_of(rt: Runtime) -> Wiring:
    if rt.wiring is None:
        raise UsageError(f"{rt.title} has no hook point: see {rt.doc}")
    return rt.wiring


def toml_placements(
    rt: Runtime, scope: str, root: str | None, env: Mapping[str, str]
) -> list[tuple[str, str]]:
    """(file, command) of each entry of ours inline in the runtime's TOML files of
    ``scope`` (:attr:`Wiring.toml_hooks`; they hold the same grouped hooks)."""
    assert rt.wiring is not None
    if scope == "project" and root is None:
        return []
    out = []
    for rel in rt.wiring.toml_hooks:
        path = scoped_path(rt.wiring, scope, rel, root, env)
        doc = read_toml(path)
        out += [(path, command) for command in wiring.commands(doc or {}, rt)]
    return out


def link_note(path: str) -> tuple[str, ...]:
    if not os.path.islink(path):
        return ()
    return (f"{path} is a link: its target {write_target(path)} was edited, the link kept",)
