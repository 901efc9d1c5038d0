"""The names a verify room's tree defines anywhere that the verifier's interpreters also get
from outside the room: each must import the room's copy, whatever build backend put the
installed one there (SPEC §9: a verify run checks "the candidate's exact tree"; issue 18,
r18p: a ``setup.py`` ``package_dir``, uv_build's ``module-root``, hatch ``force-include``,
scikit-build-core's ``wheel.packages`` kept ``calc`` in ``lib``, which
:mod:`~gentle_hooks.services.import_roots` does not read, and the checks imported the
wheel's ``calc``).

Room ``services``. Reads files only (no interpreter start): the room's import probe
(:func:`~gentle_hooks.services.import_probe.probe`) is asked about the names found here in
the same process that asks about the declared ones, and decides what is outside the room.

* :func:`tree_names` — each top-level name the tree defines (a directory holding
  ``__init__.py`` or ``.py`` files, or a ``NAME.py`` module) at any depth, to the
  directories defining it; a package's own contents are its submodules, not looked into;
  :data:`SKIPPED` directories, hidden ones and virtual environments are not read. One
  directory listing per directory, at most :data:`MAX_DIRS` (a tree larger than any
  ordinary repository fails closed, one line).
* :func:`namespace_names` — the directories above code without ``__init__.py``: each a
  PEP 420 namespace package at any depth (``lib/acme`` of ``lib/acme/calc``), to the
  children the tree gives it.
* :func:`installed_names` — the top-level names the ``site-packages`` directories hold
  (their entries, every distribution's ``top_level.txt``), the directories their ``.pth``
  path lines add, and ``PYTHONPATH``'s directories outside the room.
* :func:`overlap` — the names in both not already declared (``known``): one directory
  defining it (:attr:`Overlap.single`: the room puts it first on ``PYTHONPATH``), two or
  more (:attr:`Overlap.ambiguous`), and the names the project's own installed distribution
  (its ``[project]``/``setup.cfg``/``setup.py`` name, or a ``setup.py`` ``package_dir``
  key, whatever ``name=`` computes) provides that the tree defines nowhere
  (:attr:`Overlap.renamed`: a ``package_dir`` rename no ``PYTHONPATH`` entry can reach).
  A namespace directory counts when an installed copy of its name holds one of its
  children (``acme/calc``). A name many projects hold
  (:data:`~gentle_hooks.services.editable_copies.COMMON_NAMES`: ``tests``, ``tools``...)
  that a distribution put in ``site-packages`` itself counts as any other when the tree
  defines it once or at its root (the copy ``python -m`` from the root imports); defined
  in several places below the root, which one a check means is its runner's choice
  (pytest's rootdir), so it is left to it; in another project's editable root (a
  ``.pth`` line) it is that project's own folder, not a copy. A ``setup.py``
  whose ``package_dir`` is no literal dict cannot say what it renames: it fails closed.
* :func:`clash_line` — the line refusing every check when the probe finds an ambiguous or
  renamed name outside the room, naming the name, the installed copy and the room's
  candidates, and what to do.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping, Sequence

from gentle_hooks.services.editable import under
from gentle_hooks.services.editable_copies import COMMON_NAMES
from gentle_hooks.services.import_probe import Probed
from gentle_hooks.services.import_roots import project_names
from gentle_hooks.values.frozen import frozen

#: Directories never looked into (besides hidden ones and virtual environments).
SKIPPED = frozenset(
    {"node_modules", "__pycache__", "venv", "build", "dist", "site-packages", "dist-packages"}
)
#: The most directories of the tree read; more refuses (fail closed). One listing each
#: (~10 µs), so the bound is about a few seconds of walking.
MAX_DIRS = 400_000
#: The most entries of one installed directory read.
_ENTRIES = 20000
#: What Python imports as a module file (``NAME.cpython-311-x86_64-linux-gnu.so``).
_MODULE = (".py", ".pyc", ".so", ".pyd")


@frozen
class Overlap:
    """What :func:`overlap` found.

    Attributes:
        single: (name, the one directory of the tree defining it, relative);
        ambiguous: (name, the directories defining it) for a name two or more define;
        renamed: the names the project's own installed distribution provides that the tree
            defines nowhere; error: why the tree could not be read (empty when it was).
    """

    single: tuple[tuple[str, str], ...] = ()
    ambiguous: tuple[tuple[str, tuple[str, ...]], ...] = ()
    renamed: tuple[str, ...] = ()
    error: str = ""

    def unredirected(self) -> list[str]:
        """The names the probe asks about that the room cannot redirect (ambiguous,
        renamed): found outside, they refuse (:func:`clash_line`)."""
        return [*(n for n, _ in self.ambiguous), *self.renamed]


def tree_names(room: str) -> dict[str, list[str]] | None:
    """Each top-level name ``room`` defines (module docstring) to the directories defining
    it (relative, ``.`` for the root), in walk order; None past :data:`MAX_DIRS`."""
    walked = _walk(room)
    return None if walked is None else walked[0]


def namespace_names(room: str) -> dict[tuple[str, str], set[str]] | None:
    """Each directory of ``room`` without ``__init__.py`` with code below it, as (the
    directory holding it, its name), to the names of its children holding code (packages,
    namespace directories, ``NAME.py``); None past :data:`MAX_DIRS`."""
    walked = _walk(room)
    return None if walked is None else walked[1]


_Walked = tuple[dict[str, list[str]], dict[tuple[str, str], set[str]]]


def _walk(room: str) -> _Walked | None:
    """(:func:`tree_names`, :func:`namespace_names`) of ``room`` from one walk, one
    directory listing per directory; None past :data:`MAX_DIRS`."""
    out: dict[str, list[str]] = {}
    children: dict[tuple[str, str], set[str]] = {}
    seen = 0
    for dirpath, dirs, files in os.walk(room):
        seen += 1
        if seen > MAX_DIRS:
            return None
        rel = os.path.relpath(dirpath, room)
        parent, name = os.path.split(rel)
        if rel != "." and "pyvenv.cfg" in files:  # a virtual environment: not the tree's
            dirs[:] = []
            continue
        package = rel != "." and "__init__.py" in files
        modules = [f[:-3] for f in sorted(files) if f.endswith(".py") and f[:-3].isidentifier()]
        if rel != "." and name.isidentifier() and (package or modules):
            out.setdefault(name, []).append(parent or ".")
            _under_namespaces(rel, children)
        # a package's contents are its submodules, not top-level names
        dirs[:] = [] if package else sorted(d for d in dirs if not _skipped(d))
        if not package:
            for stem in modules:
                if stem != "__init__":
                    out.setdefault(stem, []).append(rel)
                    _under_namespaces(os.path.join(rel, stem), children)
    names = {n: list(dict.fromkeys(r)) for n, r in out.items()}
    return names, children


def _skipped(d: str) -> bool:
    return d.startswith(".") or d in SKIPPED


def _under_namespaces(rel: str, children: dict[tuple[str, str], set[str]]) -> None:
    """Record ``rel`` (code: a package, a directory with modules, a module's path without
    ``.py``) as a child of each directory above it with an importable name."""
    parts = [p for p in rel.split(os.sep) if p != "."]
    for i in range(len(parts) - 1):
        if parts[i].isidentifier():
            where = os.sep.join(parts[:i]) or "."
            children.setdefault((where, parts[i]), set()).add(parts[i + 1])


def installed_names(sites: Sequence[str], env: Mapping[str, str], room: str) -> set[str]:
    """The top-level names ``sites`` (``site-packages`` directories), their ``.pth`` path
    lines' directories and ``env``'s ``PYTHONPATH`` directories outside ``room`` hold."""
    return _installed(sites, env, room)[0]


def _installed(
    sites: Sequence[str], env: Mapping[str, str], room: str
) -> tuple[set[str], list[str]]:
    """(:func:`installed_names`, the directories they are read from: ``sites`` first)."""
    places: list[str] = []
    names: set[str] = set()
    for site in sites:
        places.append(site)
        for pth in sorted(glob.glob(os.path.join(glob.escape(site), "*.pth"))):
            for line in _lines(pth):
                if line and not line.startswith(("#", "import ", "import\t")):
                    places.append(os.path.join(site, line))
        for top in glob.glob(os.path.join(glob.escape(site), "*.*-info", "top_level.txt")):
            names.update(n for n in _lines(top) if n.isidentifier())
    inside = os.path.realpath(room)
    for entry in env.get("PYTHONPATH", "").split(os.pathsep):
        if entry and under(os.path.realpath(entry), inside) is None:
            places.append(entry)
    unique = list(dict.fromkeys(places))
    for place in unique:
        names.update(_entries(place))
    return names, unique


def _entries(place: str) -> list[str]:
    """The importable top-level names directly in ``place``."""
    try:
        entries = sorted(os.listdir(place))[:_ENTRIES]
    except OSError:
        return []
    out = []
    for entry in entries:
        stem = entry.split(".", 1)[0]
        if entry.isidentifier() and os.path.isdir(os.path.join(place, entry)):
            out.append(entry)
        elif entry.endswith(_MODULE) and stem.isidentifier():
            out.append(stem)
    return out


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [x.strip() for x in f.read(1 << 20).splitlines()]
    except OSError:
        return []


def overlap(
    room: str, sites: Sequence[str], env: Mapping[str, str], known: Mapping[str, str]
) -> Overlap:
    """The names of ``room``'s tree the interpreters of ``sites``/``env`` also get from
    outside it, not among ``known`` (the declared layouts' names, which decide ambiguity:
    :func:`~gentle_hooks.services.import_probe.room_names`), split as :class:`Overlap`
    says."""
    walked = _walk(room)
    if walked is None:
        return Overlap(
            error=f"the candidate's tree has more than {MAX_DIRS} directories: the room "
            "cannot tell which of its names an installed copy shadows; no check ran"
        )
    defined, spaces = walked
    installed, places = _installed(sites, env, room)
    # a common name counts only as a file a distribution put in site-packages itself (a
    # wheel shipping `tools`): in another project's editable root it is that project's
    # own folder, and blocking that root would hide the project
    in_sites = {n for site in sites for n in _entries(site)}
    for (above, name), kids in sorted(spaces.items()):
        # a namespace directory an installed copy shares: the same child in both
        if (
            name in installed
            and above not in defined.get(name, [])
            and any(_provides(os.path.join(p, name), kids) for p in places)
        ):
            defined.setdefault(name, []).append(above)
    single, ambiguous = [], []
    for name in sorted(set(defined) & installed - set(known)):
        where = defined[name]
        if name in COMMON_NAMES and name not in in_sites:
            continue
        if name in COMMON_NAMES and len(where) > 1:
            if "." not in where:
                continue  # which one a check means is its runner's choice
            where = ["."]
        if len(where) == 1:
            single.append((name, where[0]))
        else:
            ambiguous.append((name, tuple(where)))
    own = _own_names(room, sites)
    if own is None:
        return Overlap(
            error="setup.py passes package_dir as an expression: the room cannot tell "
            "which names it renames, so an installed copy of them would be tested; no "
            "check ran (write package_dir as a literal dict, or declare the layout in "
            "pyproject.toml)"
        )
    renamed = [n for n in own if n not in defined and n not in known]
    return Overlap(tuple(single), tuple(ambiguous), tuple(renamed))


def _provides(directory: str, kids: set[str]) -> bool:
    """``directory`` (an installed copy of a namespace) holds one of ``kids``."""
    return any(name in kids for name in _entries(directory))


def _own_names(room: str, sites: Sequence[str]) -> list[str] | None:
    """The top-level names the project's own distribution (named as ``room``'s
    ``pyproject.toml``, ``setup.cfg`` or ``setup.py`` name it) installed in ``sites``
    provides (its ``top_level.txt``, else its ``RECORD``'s first path parts), and the keys
    of a ``setup.py`` ``package_dir`` (a renamed package, whatever the distribution's
    name); None when ``setup.py`` passes ``package_dir`` as no literal dict."""
    text = "\n".join(_lines(os.path.join(room, "setup.py")))
    keys = _package_dir_keys(text)
    if keys is None:
        return None
    names = project_names(room) | _setup_py_names(text)
    out: dict[str, None] = dict.fromkeys(keys)
    for site in sites:
        for info in glob.glob(os.path.join(glob.escape(site), "*.dist-info")):
            dist = os.path.basename(info)[: -len(".dist-info")].split("-")[0]
            if re.sub(r"[-_.]+", "_", dist).lower() not in names:
                continue
            tops = _lines(os.path.join(info, "top_level.txt"))
            if not tops:
                rows = _lines(os.path.join(info, "RECORD"))
                tops = [r.split(",", 1)[0].split("/", 1)[0].split(".", 1)[0] for r in rows]
            out.update({t: None for t in tops if t.isidentifier() and t != "__pycache__"})
    return list(out)


def _setup_py_names(text: str) -> set[str]:
    """The ``name="..."`` a ``setup.py`` (``text``) passes, or ``name=CONST`` with
    ``CONST = "..."`` assigned in it (as a package would be named: ``-`` and ``.`` as
    ``_``)."""
    found = re.findall(r"""\bname\s*=\s*["']([A-Za-z0-9_.\-]+)["']""", text)
    for const in re.findall(r"\bname\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\s*[,)]", text):
        found += re.findall(rf"""^{const}\s*=\s*["']([A-Za-z0-9_.\-]+)["']""", text, re.M)
    return {re.sub(r"[-.]+", "_", n).lower() for n in found}


def _package_dir_keys(text: str) -> list[str] | None:
    """The importable keys of each ``package_dir={...}`` literal of a ``setup.py``
    (``text``): ``"calc"`` of ``{"calc": "src/impl"}``, not ``""``; None when one is passed
    as anything else (a variable, a call)."""
    keys: list[str] = []
    for m in re.finditer(r"\bpackage_dir\s*=\s*(\S)", text):
        if m.group(1) != "{":
            return None
        end = text.find("}", m.end())
        body = text[m.end() : end if end >= 0 else len(text)]
        keys += re.findall(r"""["']([A-Za-z_][A-Za-z0-9_]*)["']\s*:""", body)
    return [k for k in dict.fromkeys(keys) if k.isidentifier()]


def clash_line(found: Probed, extra: Overlap) -> str:
    """The line refusing every check because the probe found (``found``) an ambiguous or
    renamed name of ``extra`` outside the room; empty when it found none."""
    ambiguous = dict(extra.ambiguous)
    for f in found.outside:
        if f.name in ambiguous:
            rooms = ", ".join(os.path.join(r, f.name) for r in ambiguous[f.name][:4])
            return (
                f"`{f.name}` resolves to {f.locations[-1]} outside the room for {f.python}, "
                f"and the candidate's tree defines `{f.name}` in more than one place "
                f"({rooms}): the room cannot tell which its checks should import, so they "
                f"would test that copy; no check ran (uninstall `{f.name}` from that "
                "environment, or declare the layout in pyproject.toml)"
            )
        if f.name in extra.renamed:
            return (
                f"`{f.name}` resolves to {f.locations[-1]} outside the room for {f.python}, "
                f"a copy of this project, and the candidate's tree has no `{f.name}` (a "
                "package_dir rename?): no PYTHONPATH entry makes that name import the "
                f"candidate's copy, so the checks would test that copy; no check ran "
                f"(uninstall `{f.name}` from that environment, or declare the layout in "
                "pyproject.toml)"
            )
    return ""
