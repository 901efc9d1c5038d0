"""aider's commit options, resolved from every place aider documents them (SPEC §7 "Hooks";
docs/agents/aider.md).

Room ``agents`` (standard library only). aider has no hook point; what it does with its
commits decides whether the gates see them: whether git runs the hooks
(``git-commit-verify``), and how aider marks its edits (``attribute-co-authored-by``,
``attribute-author``, ``attribute-committer``, ``attribute-commit-message-author``,
``attribute-commit-message-committer``), and whether it commits at all (``auto-commits``).
:func:`marks` says what the gates read of those marks: ``(aider)`` on the committer alone
is aider's commit of a person's own dirty files, the person's (``aider/repo.py``
``GitRepo.commit``).

Each option is read, lowest precedence first, from:

1. aider's default (``aider/args.py``);
2. ``.aider.conf.yml`` in the home directory, then the git repository's root, then the
   current directory (aider/website/docs/config/aider_conf.md: "loaded in that order. Files
   loaded last will take priority");
3. the ``AIDER_<OPTION>`` environment variable (configargparse: environment over config
   files);
4. ``AIDER_<OPTION>`` in a ``.env`` file in the home directory, then the repository root,
   then the current directory (aider/website/docs/config/dotenv.md; aider loads them with
   ``override=True``, so they win over the shell's environment: ``aider/main.py``
   ``load_dotenv_files``).

Command-line flags, ``--config`` and ``--env-file`` are aider's own invocation and cannot be
seen from here. Only top-level ``option: value`` lines of a YAML file and ``KEY=value`` lines
of a ``.env`` file are read; a value that is no boolean (:func:`boolean`) is reported as unreadable
and leaves the option as the lower layers set it. Nothing else of a ``.env`` file (API keys)
is kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gentle_hooks.agents.payload import read_file
from gentle_hooks.values.frozen import frozen

CONF = ".aider.conf.yml"
DOTENV = ".env"

#: The options that decide what the gates see of aider's commits, with aider's defaults
#: (None: unset, which aider reads as "on unless the Co-authored-by trailer is on").
DEFAULTS: dict[str, bool | None] = {
    "git-commit-verify": False,
    "auto-commits": True,
    "attribute-co-authored-by": True,
    "attribute-author": None,
    "attribute-committer": None,
    "attribute-commit-message-author": False,
    "attribute-commit-message-committer": False,
}

# YAML 1.1's words, and 1/0: aider's ConfigArgParse turns a value into the flag itself
# (``true``/``yes``/``1`` set it, ``false``/``no``/``0`` clear it)
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_YAML_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?(AIDER_[A-Z0-9_]+)\s*=\s*(.*?)\s*$")


@frozen
class Setting:
    """One option as aider will use it: value (None: unset) and where it came from
    (``aider's default``, a file path, or ``AIDER_X in the environment``)."""

    option: str
    value: bool | None
    source: str


@frozen
class AiderCommits:
    """What aider does with its commits here.

    Attributes:
        settings: one per option of :data:`DEFAULTS`, in that order.
        unreadable: values that are not booleans (``where: OPTION = value``), ignored.
        files: the configuration files that exist and were read, lowest precedence first.
    """

    settings: tuple[Setting, ...]
    unreadable: tuple[str, ...]
    files: tuple[str, ...]

    def get(self, option: str) -> Setting:
        """The setting of ``option`` (one of :data:`DEFAULTS`)."""
        return next(s for s in self.settings if s.option == option)

    def _on(self, option: str) -> bool:
        return bool(self.get(option).value)

    @property
    def verify(self) -> bool:
        """git runs the hooks on aider's commits (no ``--no-verify``)."""
        return self._on("git-commit-verify")

    @property
    def trailer(self) -> bool:
        """aider's edits get a ``Co-authored-by: aider (...)`` trailer."""
        return self._on("attribute-co-authored-by")

    def _name(self, option: str) -> bool:
        # aider/repo.py GitRepo.commit: an unset name option is on unless the trailer is
        # on; an explicit value always decides
        value = self.get(option).value
        return (not self.trailer) if value is None else value

    @property
    def author_marked(self) -> bool:
        """``(aider)`` is appended to the author name of aider's edits."""
        return self._name("attribute-author")

    @property
    def committer_marked(self) -> bool:
        """``(aider)`` is appended to the committer name of aider's edits."""
        return self._name("attribute-committer")

    @property
    def dirty_marked(self) -> bool:
        """``(aider)`` is appended to the committer name of the commits aider makes of the
        user's own files (its commit of dirty files before editing, ``/commit``): always,
        unless ``attribute-committer`` is explicitly false (``aider/repo.py``
        ``GitRepo.commit``: "Committer name IS modified by default")."""
        return self.get("attribute-committer").value is not False

    @property
    def message_marked(self) -> bool:
        """The messages of aider's edits start with ``aider: ``."""
        return self._on("attribute-commit-message-author") or self._on(
            "attribute-commit-message-committer"
        )


def said(s: Setting) -> str:
    """``option: value, source`` (``unset`` for None)."""
    value = "unset" if s.value is None else str(s.value).lower()
    return f"{s.option}: {value}, {s.source}"


def marks(conf: AiderCommits, target: str) -> tuple[bool, list[str]]:
    """How aider marks its commits and what the gates read of it (docs/agents/aider.md).

    The gates read aider's edits as delegated by the ``Co-authored-by`` trailer,
    ``(aider)`` on the author name or the ``aider: `` message prefix; ``(aider)`` on the
    committer alone is what aider puts on every commit it makes, the user's own dirty files
    included, so it is read as the person's commit (SPEC §5 "Decision": a person's change is
    never taken for AI work).

    Args:
        conf: the resolved options; target: the configuration file a fix names.

    Returns:
        (False when aider's edits carry no mark the gates read, the phrases to report).
    """
    read = [
        (conf.trailer, "a Co-authored-by trailer", "attribute-co-authored-by"),
        (conf.author_marked, "'(aider)' on the author name", "attribute-author"),
    ]
    shown = [f"{what} ({said(conf.get(o))})" for on, what, o in read if on]
    for o in ("attribute-commit-message-author", "attribute-commit-message-committer"):
        if conf.get(o).value:
            shown.append(f"an 'aider: ' message prefix ({said(conf.get(o))})")
    committer = said(conf.get("attribute-committer"))
    parts = []
    if shown:
        parts.append("its edits are marked as aider's: " + ", ".join(shown))
    elif conf.committer_marked:
        parts.append(
            f"its edits carry only '(aider)' on the committer name ({committer}; "
            f"{'; '.join(said(conf.get(o)) for _, _, o in read)}), which aider puts on your "
            "own dirty files it commits too: the gates read it as a person's commit and take "
            f"aider's edits for yours; put 'attribute-co-authored-by: true' in {target}"
        )
    else:
        off = "; ".join([*(said(conf.get(o)) for _, _, o in read), committer])
        parts.append(
            f"its edits carry no mark of aider ({off}): the gates take its commits for a "
            f"person's; put 'attribute-co-authored-by: true' in {target}"
        )
    if conf.dirty_marked:
        parts.append(
            f"'(aider)' on the committer name ({committer}) is aider's mark of every commit "
            "it runs, your own dirty files it commits before editing included: the gates read "
            "it as who ran git commit, not as aider's work"
        )
    if conf.get("attribute-commit-message-committer").value:
        parts.append(
            "aider before v0.83 prefixes every commit with 'aider: ' under "
            "attribute-commit-message-committer, your own dirty files too, and the gates read "
            "those as aider's: prefer attribute-commit-message-author"
        )
    return bool(shown), parts


def env_name(option: str) -> str:
    """``git-commit-verify`` -> ``AIDER_GIT_COMMIT_VERIFY``."""
    return "AIDER_" + option.upper().replace("-", "_")


def boolean(value: str) -> bool | None:
    """A boolean as aider reads it: a YAML 1.1 word (``true yes on``/``false no off``) or
    ``1``/``0``, any case, quotes stripped; None for anything else."""
    word = value.strip().strip("\"'").strip().lower()
    return True if word in _TRUE else False if word in _FALSE else None


def _strip_comment(value: str) -> str:
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        return value[: end + 1] if end > 0 else value
    cut = re.search(r"\s#", value)
    return value[: cut.start()] if cut else ("" if value.startswith("#") else value)


def yaml_options(data: bytes) -> dict[str, str]:
    """The top-level ``option: value`` lines of a YAML file (comments dropped; indented
    lines, lists and documents markers ignored)."""
    out: dict[str, str] = {}
    for line in data.decode("utf-8", "replace").splitlines():
        m = _YAML_LINE.match(line)
        if m:
            out[m.group(1)] = _strip_comment(m.group(2)).strip()
    return out


def dotenv_options(data: bytes) -> dict[str, str]:
    """The ``AIDER_*=value`` lines of a ``.env`` file (``export`` and comments allowed)."""
    out: dict[str, str] = {}
    for line in data.decode("utf-8", "replace").splitlines():
        m = _ENV_LINE.match(line)
        if m:
            out[m.group(1)] = _strip_comment(m.group(2)).strip()
    return out


def search_path(name: str, home: str, root: str | None, cwd: str | None) -> list[str]:
    """``name`` in the home directory, the repository root and the current directory, in
    aider's loading order, each real directory once."""
    out: list[str] = []
    seen: set[str] = set()
    for base in (home, root, cwd):
        if base is None:
            continue
        real = os.path.realpath(base)
        if real not in seen:
            seen.add(real)
            out.append(os.path.join(base, name))
    return out


def resolve(
    home: str, root: str | None, cwd: str | None, environ: Mapping[str, str]
) -> AiderCommits:
    """The options of :data:`DEFAULTS` as aider started in ``cwd`` (inside the repository
    ``root``, None outside one) with environment ``environ`` will use them."""
    values: dict[str, Setting] = {
        option: Setting(option, value, "aider's default") for option, value in DEFAULTS.items()
    }
    unreadable: list[str] = []
    files: list[str] = []

    def apply(option: str, raw: str, source: str) -> None:
        value = boolean(raw)
        if value is None:
            unreadable.append(f"{source}: {option} = {raw!r}")
        else:
            values[option] = Setting(option, value, source)

    for path in search_path(CONF, home, root, cwd):
        data = read_file(path)
        if data is None:
            continue
        files.append(path)
        found = yaml_options(data)
        for option in DEFAULTS:
            if option in found:
                apply(option, found[option], path)
    for option in DEFAULTS:
        if env_name(option) in environ:
            apply(option, environ[env_name(option)], f"{env_name(option)} in the environment")
    for path in search_path(DOTENV, home, root, cwd):
        data = read_file(path)
        if data is None:
            continue
        found = dotenv_options(data)
        hits = [o for o in DEFAULTS if env_name(o) in found]
        if hits:
            files.append(path)
        for option in hits:
            apply(option, found[env_name(option)], f"{env_name(option)} in {path}")
    return AiderCommits(tuple(values[o] for o in DEFAULTS), tuple(unreadable), tuple(files))
