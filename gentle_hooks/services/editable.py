"""Where an editable install makes Python import a work tree's code, and the same places
in a room (SPEC §9: a verify run checks "the candidate's exact tree", and each criterion
also on the base tree; §5 "Spot check": the re-run tests the candidate's tree).

Room ``services``. An editable install (``pip install -e .``) leaves, in an interpreter's
``site-packages``, a ``.pth`` line naming ``<work tree>/src``, a setuptools
``__editable___*_finder.py`` whose ``MAPPING`` names each package's directory, or a legacy
``*.egg-link``. Its virtual environment is often outside the repository (Poetry's and
pipenv's default), so a check a room runs with that interpreter imports the work tree's
copy, not the room's: a fixed work tree passes a broken candidate, a second worktree
sharing the environment tests the other worktree's code, and the base and emptied runs of
a criterion import the change from the work tree.

* :func:`site_dirs` — without running anything, the ``site-packages`` directories the
  interpreters a command may start read: each virtual environment whose ``bin`` is on
  ``PATH`` or named by ``VIRTUAL_ENV`` or by a program's ``#!`` line (its base
  installation's too with ``include-system-site-packages``), the installation of a
  ``python3`` on ``PATH`` that is none, and the user's site directory under ``HOME``.
* :func:`pythons` — the interpreters themselves, for
  :mod:`~gentle_hooks.services.import_probe` to ask where each name imports from.
* :func:`import_places` — the directories those files put on ``sys.path`` (or, for a
  finder, the parent of each package it maps), with the file that names each.
* :func:`in_trees` — those in one of the repository's work trees (main and linked), each
  as a :class:`Redirect` relative to its work tree.
* :func:`python_path` — ``PYTHONPATH`` with the same relative places inside a room first:
  entries on ``PYTHONPATH`` precede site-packages ``.pth`` entries and setuptools' finders
  (appended to ``sys.meta_path``), so Python imports the room's copy.
* :func:`unheld` — the places the room's tree does not hold (an ignored ``build/``
  directory), where Python still imports the work tree's copy
  (:mod:`~gentle_hooks.services.room_unheld` says what a room does with each).
* :func:`tree_relative` — a room's checks' ``PYTHONPATH`` (made by
  :func:`~gentle_hooks.services.room_imports.for_room`) as the rules reading a check's
  ``sys.path`` from its tree take it.

pyenv's ``shims`` directory (on ``PATH``, or holding a program the command starts) counts
as the installations its shims run (:func:`pyenv_prefixes`: the version pyenv would choose,
read from ``PYENV_VERSION`` or its version files, never by running pyenv). Not followed:
an interpreter reached only through another wrapper script, and ``import`` lines of ``.pth``
files (code, not places: :mod:`~gentle_hooks.services.import_probe` asks the interpreters
where they import from).
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.values.frozen import frozen

#: The most files of one kind read in one ``site-packages``, and bytes of each.
_FILES = 200
_BYTES = 1 << 20
#: The interpreter names looked for in a ``PATH`` directory that is no virtual environment.
_PYTHONS = ("python3", "python")


@frozen
class Redirect:
    """One place an editable install imports from that is in a work tree of the repository.

    Attributes:
        place: its real path; tree: the work tree's real root it is in (the innermost, when
            work trees nest); rel: ``place`` relative to ``tree`` (``.`` for the root);
        source: the ``.pth``, finder or ``.egg-link`` file that names it.
    """

    place: str
    tree: str
    rel: str
    source: str


def site_dirs(
    env: Mapping[str, str],
    programs: Sequence[str] = (),
    *,
    user_site: bool = True,
    cwd: str = "",
) -> tuple[str, ...]:
    """The ``site-packages`` directories (real paths, each once, in the order found) of the
    interpreters a command run with ``env`` may start (see the module docstring).

    Args:
        env: the command's environment (``PATH``, ``VIRTUAL_ENV``, ``HOME``,
            ``PYENV_VERSION``).
        programs: files the command starts (resolved), whose ``#!`` interpreter counts,
            and whose directory does when it is pyenv's ``shims``.
        user_site: count ``HOME``'s ``.local/lib/python*/site-packages`` (False when the
            command gets a fresh ``HOME``).
        cwd: where the command runs (default ``env``'s ``PWD``): pyenv's ``.python-version``
            is looked for from there up.
    """
    found: list[str] = []
    for d in _bin_dirs(env, programs):
        shimmed = pyenv_prefixes(d, env, cwd or env.get("PWD", ""))
        if shimmed is not None:
            for prefix in shimmed:
                found += _installation_sites(prefix)
            continue
        top = os.path.dirname(d)
        if os.path.isfile(os.path.join(top, "pyvenv.cfg")):
            found += _installation_sites(top)
            continue
        for name in _PYTHONS:
            python = os.path.join(d, name)
            if os.path.isfile(python):
                found += _prefix_sites(os.path.dirname(os.path.dirname(os.path.realpath(python))))
                break
    home_dir = env.get("HOME", "")
    if user_site and os.path.isabs(home_dir):
        found += _globbed(home_dir, ".local", "lib", "python*", "site-packages")
    real = (os.path.realpath(s) for s in found)
    return tuple(s for s in dict.fromkeys(real) if os.path.isdir(s))


def _bin_dirs(env: Mapping[str, str], programs: Sequence[str]) -> list[str]:
    """The directories :func:`site_dirs` reads (each once, in order): ``PATH``'s absolute
    entries, ``VIRTUAL_ENV``'s ``bin``, each ``#!`` interpreter's directory, and pyenv's
    ``shims`` holding a program."""
    dirs = [d for d in env.get("PATH", "").split(os.pathsep) if os.path.isabs(d)]
    venv = env.get("VIRTUAL_ENV", "")
    if os.path.isabs(venv):
        dirs.append(os.path.join(venv, "bin"))
    dirs += [os.path.dirname(i) for i in map(shebang, programs) if i]
    dirs += [d for d in map(os.path.dirname, programs) if os.path.basename(d) == "shims"]
    return list(dict.fromkeys(dirs))


def pythons(env: Mapping[str, str], programs: Sequence[str] = (), cwd: str = "") -> list[str]:
    """The Python interpreters a command run with ``env`` may start, as :func:`site_dirs`
    finds their installations (same arguments): each ``#!`` interpreter named
    ``python*`` and each program whose real path is so named, then the first of
    :data:`_PYTHONS` in each directory it reads (in the ``bin`` of each installation
    pyenv's ``shims`` run). Absolute paths, each interpreter once (one path per virtual
    environment, or per real program outside one)."""
    found = [i for i in map(shebang, programs) if i and os.path.basename(i).startswith("python")]
    # a program that is an interpreter by its real path (``py`` linked to ``python3``)
    found += [p for p in programs if os.path.basename(os.path.realpath(p)).startswith("python")]
    for d in _bin_dirs(env, programs):
        shimmed = pyenv_prefixes(d, env, cwd or env.get("PWD", ""))
        bins = [d] if shimmed is None else [os.path.join(p, "bin") for p in shimmed]
        for b in bins:
            found += [p for p in (os.path.join(b, n) for n in _PYTHONS) if _runnable(p)][:1]
    out: dict[tuple[str, str], str] = {}
    for python in found:
        top = os.path.dirname(os.path.dirname(python))
        venv = os.path.realpath(top) if os.path.isfile(os.path.join(top, "pyvenv.cfg")) else ""
        out.setdefault((venv, "" if venv else os.path.realpath(python)), python)
    return list(out.values())


def _runnable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _installation_sites(top: str) -> list[str]:
    """A virtual environment's ``site-packages`` (its base installation's too with
    ``include-system-site-packages``), or an installation's."""
    found = _prefix_sites(top)
    cfg = os.path.join(top, "pyvenv.cfg")
    home = _system_home(cfg) if os.path.isfile(cfg) else None
    if home:
        found += _prefix_sites(os.path.dirname(os.path.realpath(home.rstrip("/"))))
    return found


def pyenv_prefixes(directory: str, env: Mapping[str, str], cwd: str) -> tuple[str, ...] | None:
    """When ``directory`` is pyenv's ``shims`` (``<root>/shims`` beside ``<root>/versions``),
    the installations its shims run, chosen as pyenv chooses them without running it:
    ``PYENV_VERSION``, else the first ``.python-version`` from ``cwd`` up, else
    ``<root>/version``; each version named (``:`` or whitespace separated, ``system``
    left to ``PATH``'s other directories) as ``<root>/versions/<name>`` when it exists,
    else as pyenv resolves it (:func:`_pyenv_resolved`: ``python-3.11``, ``3.11``).
    None when ``directory`` is no pyenv ``shims``."""
    if os.path.basename(directory.rstrip("/")) != "shims":
        return None
    root = os.path.dirname(directory.rstrip("/"))
    if not os.path.isdir(os.path.join(root, "versions")):
        return None
    names = env.get("PYENV_VERSION", "").replace(":", " ").split()
    if not names:
        files = []
        here = os.path.abspath(cwd) if os.path.isabs(cwd) else ""
        while here:
            files.append(os.path.join(here, ".python-version"))
            parent = os.path.dirname(here)
            here = "" if parent == here else parent
        files.append(os.path.join(root, "version"))
        for name in files:
            if os.path.isfile(name):
                names = [
                    w for x in _read(name).splitlines() if not x.startswith("#") for w in x.split()
                ]
                break
    versions = os.path.join(root, "versions")
    chosen = (_pyenv_resolved(versions, n) for n in names if n != "system" and "/" not in n)
    prefixes = [os.path.join(versions, n) for n in chosen if n]
    return tuple(p for p in dict.fromkeys(prefixes) if os.path.isdir(p))


#: A pre-release or development version pyenv's ``latest`` never picks.
_UNRELEASED = re.compile(r"(-dev|-src|-latest|(a|b|rc)\d+)$")


def _pyenv_resolved(versions: str, name: str) -> str | None:
    """The installed version pyenv runs for ``name`` (``pyenv-version-name``): ``name``
    itself, without a ``python-`` prefix, else the latest installed release it is a prefix
    of (``3.11``: the highest ``3.11.x``; ``pyenv-latest``: followed by ``.`` or ``-``);
    None when none is installed."""
    bare = name.removeprefix("python-")
    for candidate in (name, bare):
        if candidate and os.path.isdir(os.path.join(versions, candidate)):
            return candidate
    try:
        installed = os.listdir(versions)
    except OSError:
        return None
    matching = [
        v for v in installed if v.startswith((bare + ".", bare + "-")) and not _UNRELEASED.search(v)
    ]
    return max(matching, key=_version_key, default=None) if bare else None


def _version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """``sort -V``'s order, near enough: numbers as numbers, other runs as text."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", version))


def _prefix_sites(prefix: str) -> list[str]:
    """An installation's (or virtual environment's) ``site-packages``/``dist-packages``;
    for ``/usr`` also ``/usr/local``'s (Debian's pip installs there)."""
    out = []
    for p in (prefix, "/usr/local") if prefix == "/usr" else (prefix,):
        for lib in ("lib", "lib64"):
            out += _globbed(p, lib, "python*", "site-packages")
            out += _globbed(p, lib, "python3*", "dist-packages")
    return out


def _globbed(base: str, *parts: str) -> list[str]:
    return sorted(glob.glob(os.path.join(glob.escape(base), *parts)))


def _system_home(cfg: str) -> str | None:
    """``pyvenv.cfg``'s ``home`` when it says ``include-system-site-packages = true``."""
    keys: dict[str, str] = {}
    for line in _read(cfg).splitlines():
        key, sep, value = line.partition("=")
        if sep:
            keys[key.strip().lower()] = value.strip()
    if keys.get("include-system-site-packages", "").lower() != "true":
        return None
    home = keys.get("home", "")
    return home if os.path.isabs(home) else None


def shebang(program: str) -> str | None:
    """The absolute interpreter a script's ``#!`` line names (``env`` lines: none)."""
    try:
        with open(program, "rb") as f:
            first = f.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words or not words[0].startswith("/") or os.path.basename(words[0]) == "env":
        return None
    return words[0]


def import_places(sites: Iterable[str]) -> list[tuple[str, str]]:
    """(place, file naming it) for each directory the ``.pth`` files, setuptools editable
    finders and ``.egg-link`` files of ``sites`` make Python import from (a finder's: the
    parent of each package or module it maps; a ``.pth`` line starting with ``import``
    runs code and adds nothing; a relative line is from its ``site-packages``)."""
    out: list[tuple[str, str]] = []
    for site in sites:
        for name in _globbed(site, "*.pth")[:_FILES]:
            out += [(p, name) for p in _pth_places(name, site)]
        for name in _globbed(site, "__editable__*finder.py")[:_FILES]:
            out += [(p, name) for p in finder_places(name)]
        for name in _globbed(site, "*.egg-link")[:_FILES]:
            lines = [x.strip() for x in _read(name).splitlines() if x.strip()]
            if lines:
                out.append((os.path.join(site, lines[0]), name))
    return out


def _pth_places(name: str, site: str) -> list[str]:
    """The directories a ``.pth`` file adds to ``sys.path`` (``site``'s rules)."""
    places = []
    for line in _read(name).splitlines():
        line = line.rstrip()
        if not line or line.startswith("#") or line.startswith(("import ", "import\t")):
            continue
        places.append(os.path.join(site, line))
    return places


def finder_places(name: str) -> list[str]:
    """The parent directories of the packages and modules a setuptools editable finder's
    literal ``MAPPING`` (``MAPPING: dict[str, str] = {"pkg": "/path/to/pkg"}``, annotated
    or not) and ``NAMESPACES`` name (nothing when it has neither)."""
    return [os.path.dirname(path.rstrip("/")) for _, path in finder_mapped(name)]


def finder_mapped(name: str) -> list[tuple[str, str]]:
    """(module name, absolute path) for each entry of a setuptools editable finder's
    literal ``MAPPING`` and ``NAMESPACES`` (:func:`finder_places`), in file order."""
    import ast

    try:
        tree = ast.parse(_read(name))
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[str, str]] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id in ("MAPPING", "NAMESPACES") for t in targets):
            continue
        try:
            literal = ast.literal_eval(value)
        except ValueError:
            continue
        if not isinstance(literal, dict):
            continue
        for k, v in literal.items():
            for path in v if isinstance(v, list) else [v]:
                if isinstance(k, str) and isinstance(path, str) and os.path.isabs(path):
                    out.append((k, path))
    return out


def _read(name: str) -> str:
    try:
        with open(name, "rb") as f:
            return f.read(_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def in_trees(
    places: Iterable[tuple[str, str]], trees: Sequence[str], skip: Sequence[str] = ()
) -> tuple[Redirect, ...]:
    """The ``places`` (from :func:`import_places`) in one of the work trees ``trees``, each
    once by its relative path, in the order found; none in one of ``skip`` (a room, a
    folder linked into a checkout, whose copy is already the one imported)."""
    roots = sorted({os.path.realpath(t) for t in trees if t}, key=len, reverse=True)
    skipped = tuple(os.path.realpath(s) for s in skip if s)
    out: dict[str, Redirect] = {}
    for place, source in places:
        real = os.path.realpath(place)
        if any(under(real, s) is not None for s in skipped):
            continue
        for root in roots:  # innermost work tree first
            rel = under(real, root)
            if rel is not None:
                out.setdefault(rel, Redirect(real, root, rel, source))
                break
    return tuple(out.values())


def under(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` (both real paths) when it is ``root`` or under it."""
    if path == root:
        return "."
    return os.path.relpath(path, root) if path.startswith(root.rstrip("/") + os.sep) else None


def python_path(room: str, rels: Sequence[str], kept: str, trees: Sequence[str] = ()) -> str:
    """``PYTHONPATH`` for a run in ``room`` (the candidate's tree): each of ``rels`` (places
    relative to a work tree's root) inside it first, then each entry of ``kept`` (the
    ``PYTHONPATH`` the run had), an absolute one in one of the work trees ``trees`` mapped
    to the same place in the room; each once."""
    first = [os.path.normpath(os.path.join(room, rel)) for rel in rels]
    rest = []
    for entry in (e for e in kept.split(os.pathsep) if e):
        mapped = in_trees([(entry, "")], trees) if os.path.isabs(entry) else ()
        rest.append(os.path.normpath(os.path.join(room, mapped[0].rel)) if mapped else entry)
    return os.pathsep.join(dict.fromkeys([*first, *rest]))


def unheld(room: str, redirects: Sequence[Redirect]) -> tuple[Redirect, ...]:
    """The redirects whose place the room's tree ``room`` does not hold (no such
    directory there): Python still imports those from the work tree."""
    return tuple(r for r in redirects if not os.path.isdir(os.path.join(room, r.rel)))


def tree_relative(env: Mapping[str, str], tree: str) -> dict[str, str]:
    """``env`` with each absolute ``PYTHONPATH`` entry in ``tree`` made relative to it
    (``<room>/tree/src``: ``src``), as the rules reading a check's ``sys.path`` from its
    tree take them."""
    value = env.get("PYTHONPATH")
    if not value:
        return dict(env)
    root = os.path.realpath(tree)
    entries = []
    for e in value.split(os.pathsep):
        rel = under(os.path.realpath(e), root) if os.path.isabs(e) else None
        entries.append(e if rel is None else rel)
    return {**env, "PYTHONPATH": os.pathsep.join(entries)}
