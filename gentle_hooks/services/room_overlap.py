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
  :data:`SKIPPED` directories, hidden ones and virtual environments are not read.
* :func:`installed_names` — the top-level names the ``site-packages`` directories hold
  (their entries, every distribution's ``top_level.txt``), the directories their ``.pth``
  path lines add, and ``PYTHONPATH``'s directories outside the room.
* :func:`overlap` — the names in both not already declared (``known``) nor held by many
  projects (:data:`~gentle_hooks.services.editable_copies.COMMON_NAMES`): one directory
  defining it (:attr:`Overlap.single`: the room puts it first on ``PYTHONPATH``), two or
  more (:attr:`Overlap.ambiguous`), and the names the project's own installed distribution
  (its ``[project]``/``setup.cfg``/``setup.py`` name) provides that the tree defines
  nowhere (:attr:`Overlap.renamed`: a ``package_dir`` rename no ``PYTHONPATH`` entry can
  reach).
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
#: The most directories of the tree read; more refuses (fail closed).
MAX_DIRS = 20000
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
    out: dict[str, list[str]] = {}
    seen = 0
    for dirpath, dirs, files in os.walk(room):
        seen += 1
        if seen > MAX_DIRS:
            return None
        rel = os.path.relpath(dirpath, room)
        kept = []
        for d in sorted(dirs):
            full = os.path.join(dirpath, d)
            if d.startswith(".") or d in SKIPPED or os.path.islink(full):
                continue
            if os.path.isfile(os.path.join(full, "pyvenv.cfg")):
                continue
            package = os.path.isfile(os.path.join(full, "__init__.py"))
            if d.isidentifier() and (package or _holds_py(full)):
                out.setdefault(d, []).append(rel)
            if not package:
                kept.append(d)
        dirs[:] = kept
        for f in sorted(files):
            stem, ext = os.path.splitext(f)
            if ext == ".py" and stem.isidentifier() and stem != "__init__":
                out.setdefault(stem, []).append(rel)
    return {n: list(dict.fromkeys(r)) for n, r in out.items()}


def _holds_py(directory: str) -> bool:
    try:
        with os.scandir(directory) as it:
            return any(e.name.endswith(".py") and e.is_file() for e in it)
    except OSError:
        return False


def installed_names(sites: Sequence[str], env: Mapping[str, str], room: str) -> set[str]:
    """The top-level names ``sites`` (``site-packages`` directories), their ``.pth`` path
    lines' directories and ``env``'s ``PYTHONPATH`` directories outside ``room`` hold."""
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
    for place in dict.fromkeys(places):
        names.update(_entries(place))
    return names


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
    defined = tree_names(room)
    if defined is None:
        return Overlap(
            error=f"the candidate's tree has more than {MAX_DIRS} directories: the room "
            "cannot tell which of its names an installed copy shadows; no check ran"
        )
    installed = installed_names(sites, env, room)
    single, ambiguous = [], []
    for name in sorted(set(defined) & installed - set(known) - COMMON_NAMES):
        where = defined[name]
        if len(where) == 1:
            single.append((name, where[0]))
        else:
            ambiguous.append((name, tuple(where)))
    renamed = [n for n in _own_names(room, sites) if n not in defined and n not in known]
    return Overlap(tuple(single), tuple(ambiguous), tuple(renamed))


def _own_names(room: str, sites: Sequence[str]) -> list[str]:
    """The top-level names the project's own distribution (named as ``room``'s
    ``pyproject.toml``, ``setup.cfg`` or ``setup.py`` name it) installed in ``sites``
    provides (its ``top_level.txt``, else its ``RECORD``'s first path parts)."""
    names = project_names(room) | _setup_py_names(room)
    out: dict[str, None] = {}
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


def _setup_py_names(room: str) -> set[str]:
    """The ``name="..."`` a ``setup.py`` at ``room``'s root passes (as a package would be
    named: ``-`` and ``.`` as ``_``)."""
    text = "\n".join(_lines(os.path.join(room, "setup.py")))
    found = re.findall(r"""\bname\s*=\s*["']([A-Za-z0-9_.\-]+)["']""", text)
    return {re.sub(r"[-.]+", "_", n).lower() for n in found}


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
