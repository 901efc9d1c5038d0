"""Where a verify room's checks would import the room's top-level names from, asked of the
interpreters themselves (SPEC §9: a verify run checks "the candidate's exact tree"; issue
18: verify rather than believe).

Room ``services``. :mod:`~gentle_hooks.services.editable` reads install files (``.pth``
path lines, setuptools finders, ``.egg-link``); an installer whose ``.pth`` holds an
``import`` line (hatchling's ``dev-mode-exact``/editables, scikit-build-core, meson-python,
pdm) installs a meta path finder mapping the package into the work tree, and setuptools'
strict mode puts a ``build/__editable__.*`` farm of links to the work tree's files on
``sys.path``: reading the files, the room missed both, and its checks tested the work
tree's code.

* :func:`room_names` — the top-level modules and packages (namespace packages too) the
  room's tree holds in its import roots
  (:func:`~gentle_hooks.services.import_roots.import_roots`) and the other directories
  given, each with the directory holding it.
* :func:`probe` — one process per interpreter, started with the checks' environment in
  the room's tree as a check's would be (normal start-up: ``site`` runs every ``.pth``
  line, ``import`` lines too, and the room's ``sitecustomize`` guard), running
  ``importlib.util.find_spec`` for each name; the places outside the room where one
  resolves (symbolic links followed), or why the probe failed. It also lists the modules
  start-up left in ``sys.modules`` from a file outside the room and outside the
  interpreter's own library and ``site-packages`` (:attr:`Probed.loaded`): one a
  ``sitecustomize`` or a ``.pth`` ``import`` line loaded by path, which no finder (and no
  guard) is asked about again. Asked with ``reach`` (a Python started without the guard:
  :mod:`~gentle_hooks.services.room_unguarded`), it also lists the symbolic links at the
  top of each ``sys.path`` directory and the absolute paths the meta path finders other
  than Python's own hold (:attr:`Probed.links`, :attr:`Probed.mapped`); a finder it
  cannot read fails it.

``find_spec`` of a top-level name runs no code of the package: it only asks the finders.
The probe drops the ``-c`` script's ``''`` entry of ``sys.path`` (a console script such as
``pytest`` does not have the directory it runs in there), runs at most
:data:`PROBE_SECONDS` and reads at most :data:`PROBE_BYTES` of output; anything else (it
could not start, exit status not 0, no answer line) is a failure, which the room treats as
a name resolving outside it (fail closed). A name the interpreter's standard library holds
(a module there, built in or frozen) is none of the room's business and not reported.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from typing import Any

from gentle_hooks.git.process import kill_session
from gentle_hooks.services.editable import under
from gentle_hooks.services.editable_copies import COMMON_NAMES, top_names
from gentle_hooks.services.import_roots import import_roots
from gentle_hooks.values.frozen import frozen

#: The longest one probe process may run, in seconds.
PROBE_SECONDS = 20.0
#: The most output one probe process may print (its answer is one line).
PROBE_BYTES = 1 << 20
#: The most interpreters probed; more is a failure.
MAX_PYTHONS = 12
#: The most names probed.
MAX_NAMES = 1000

#: What each probe process runs: ``python -c _SCRIPT NONCE MODE NAME...``. It prints one
#: line, ``NONCE {"specs": {name: [[location, real location], ...]}, "errors": {...},
#: "std": [...], "own": [...], "loaded": [[module, file, real file], ...],
#: "entries": [[sys.path entry, real path], ...]}``; with ``MODE`` ``reach`` also
#: ``"links": [[link, real path], ...]`` (the symbolic links at the top of each
#: ``sys.path`` directory), ``"mapped": [[finder, real path], ...]`` (the absolute paths a
#: meta path finder other than Python's own holds) and ``"unread": [[finder, why], ...]``.
_SCRIPT = r"""
import sys
if sys.path and sys.path[0] == "" and not getattr(sys.flags, "safe_path", False):
    del sys.path[0]
started = [(n, getattr(m, "__file__", None)) for n, m in list(sys.modules.items())]
import importlib.util, json, os, sysconfig
loaded = [[n, f, os.path.realpath(f)] for n, f in started if isinstance(f, str)]
LIMIT = 100000


def links():
    out, seen = [], 0
    for d in [p for p in sys.path if isinstance(p, str) and p]:
        try:
            it = os.scandir(d)
        except OSError:
            continue
        with it:
            for e in it:
                seen += 1
                if seen > LIMIT or len(out) > 2000:
                    raise OverflowError("more sys.path entries than read")
                if e.name != "__pycache__" and e.is_symlink():
                    out.append([e.path, os.path.realpath(e.path)])
    return out


def strings(roots):
    from collections.abc import Mapping
    todo, found, n = [(r, 0) for r in roots], [], 0
    while todo:
        obj, depth = todo.pop()
        n += 1
        if n > LIMIT:
            raise OverflowError("it holds more than the probe reads")
        if isinstance(obj, os.PathLike):
            obj = os.fspath(obj)
        if isinstance(obj, str):
            if os.path.isabs(obj):
                found.append(os.path.realpath(obj))
        elif depth < 6 and isinstance(obj, Mapping):
            todo += [(x, depth + 1) for kv in list(obj.items()) for x in kv]
        elif depth < 6 and isinstance(obj, (list, tuple, set, frozenset)):
            todo += [(x, depth + 1) for x in obj]
    return found


def finders():
    import importlib.machinery as m, types
    std = (m.BuiltinImporter, m.FrozenImporter, m.PathFinder)
    mapped, unread = [], []
    for f in list(sys.meta_path):
        if any(f is s for s in std):
            continue
        cls = f if isinstance(f, type) else type(f)
        what = cls.__module__ + "." + cls.__qualname__
        try:
            find = getattr(f, "find_spec", None) or getattr(f, "find_module", None)
            code = getattr(find, "__func__", find)
            if not isinstance(code, types.FunctionType):
                raise TypeError("its finder is not Python code")
            roots = [getattr(f, "__dict__", {})]
            roots += [vars(c) for c in cls.__mro__ if c is not object]
            module = sys.modules.get(cls.__module__)
            roots += [vars(module)] if module is not None else []
            roots += [code.__globals__, code.__defaults__ or (), code.__code__.co_consts]
            roots += [c.cell_contents for c in code.__closure__ or ()]
            mapped += [[what, p] for p in strings(roots)]
        except Exception as exc:
            unread.append([what, (type(exc).__name__ + ": " + str(exc))[:300]])
    return mapped, unread


specs, errors = {}, {}
for name in sys.argv[3:]:
    try:
        spec = importlib.util.find_spec(name)
    except BaseException as exc:
        errors[name] = (type(exc).__name__ + ": " + str(exc))[:300]
        continue
    if spec is None:
        continue
    where = [spec.origin] if spec.has_location and spec.origin else []
    where += [p for p in (spec.submodule_search_locations or ()) if isinstance(p, str)]
    specs[name] = [[w, os.path.realpath(w)] for w in where]
paths = sysconfig.get_paths()
std = [os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib") if paths.get(k)]
own = [os.path.realpath(paths[k]) for k in ("purelib", "platlib") if paths.get(k)]
entries = [[p, os.path.realpath(p)] for p in sys.path if isinstance(p, str) and p]
answer = {"specs": specs, "errors": errors, "std": std, "own": own, "loaded": loaded}
answer["entries"] = entries
if sys.argv[2] == "reach":
    try:
        answer["links"] = links()
    except (OSError, OverflowError) as exc:
        answer["unread"] = [["sys.path", (type(exc).__name__ + ": " + str(exc))[:300]]]
    answer["mapped"], unread = finders()
    answer["unread"] = answer.get("unread", []) + unread
print(sys.argv[1], json.dumps(answer))
"""


@frozen
class Found:
    """One name an interpreter imports from outside the room.

    Attributes:
        name: the top-level module or package; python: the interpreter asked;
        locations: where its spec is (origin, package directories) as the interpreter
            found them and, after each, with symbolic links followed.
    """

    name: str
    python: str
    locations: tuple[str, ...]


@frozen
class Probed:
    """What :func:`probe` found: the names resolving outside the room, and why the probe
    failed (empty when it did not); ``loaded``: the modules start-up left in
    ``sys.modules`` from a file outside the room, the standard library and the
    interpreter's own ``site-packages`` (``locations``: the file, then its real path);
    ``entries``: the ``sys.path`` entries after start-up outside the room, the standard
    library and the interpreter's own ``site-packages`` (``name``: ``sys.path``).

    Asked with ``reach`` only: ``links``, the symbolic links at the top of a ``sys.path``
    directory (``name``: ``sys.path``; ``locations``: the link, its real path) outside the
    room; ``mapped``, the absolute paths (real) a meta path finder other than Python's
    built-in, frozen and path finders holds in its state, its class and module, and its
    ``find_spec``'s constants, globals and closure (``name``: the finder's class). A finder
    that could not be read (its ``find_spec`` is no Python function, its state is larger
    than read) or too many ``sys.path`` entries fail the probe (fail closed)."""

    outside: tuple[Found, ...] = ()
    error: str = ""
    loaded: tuple[Found, ...] = ()
    entries: tuple[Found, ...] = ()
    links: tuple[Found, ...] = ()
    mapped: tuple[Found, ...] = ()


def room_names(room: str, rels: Sequence[str] = ()) -> dict[str, str]:
    """Each top-level module or package, namespace packages included
    (:func:`~gentle_hooks.services.editable_copies.top_names`), the room's tree ``room``
    holds in one of its import roots (its root, ``src``, the directories its build and
    pytest configuration name, one holding the project's package by name:
    :func:`~gentle_hooks.services.import_roots.import_roots`) or in one of ``rels``
    (directories relative to it), to the first of those directories holding it; not the
    names many projects hold (:data:`~gentle_hooks.services.editable_copies.COMMON_NAMES`).
    At most :data:`MAX_NAMES`."""
    out: dict[str, str] = {}
    roots = list(dict.fromkeys((*import_roots(room), *rels)))
    # a directory that is itself an import root (``src``, ``lib``) is no namespace package
    parents = {os.path.normpath(r).split(os.sep)[0] for r in roots}
    for rel in roots:
        directory = os.path.normpath(os.path.join(room, rel))
        if under(os.path.realpath(directory), os.path.realpath(room)) is None:
            continue
        for name in top_names(directory, namespaces=True):
            if os.path.normpath(rel) == "." and name in parents:
                continue
            if name not in COMMON_NAMES and len(out) < MAX_NAMES:
                out.setdefault(name, os.path.normpath(rel))
    return out


def probe(
    pythons: Sequence[str],
    names: Sequence[str],
    env: Mapping[str, str],
    room: str,
    flags: Sequence[str] = (),
    *,
    reach: bool = False,
) -> Probed:
    """Ask each of ``pythons``, started with ``flags`` (``-E``: as a check's ``python -E``
    would start) and ``env`` in ``room`` (the room's tree), where each of ``names`` imports
    from (module docstring); the names found outside ``room`` (symbolic links followed), or
    the first failure. ``reach``: also what else start-up left that reaches a file
    (:attr:`Probed.links`, :attr:`Probed.mapped`). Nothing to ask: nothing found
    (``flags`` or ``reach``: asked with no name)."""
    if (not names and not flags and not reach) or not pythons:
        return Probed()
    if len(pythons) > MAX_PYTHONS:
        return Probed(error=f"{len(pythons)} Python interpreters to probe, more than {MAX_PYTHONS}")
    inside = os.path.realpath(room)
    outside: list[Found] = []
    loaded: list[Found] = []
    entries: list[Found] = []
    links: list[Found] = []
    mapped: list[Found] = []
    with tempfile.TemporaryDirectory(prefix="gentle-probe-") as home:
        run_env = {**env, "HOME": home, "TMPDIR": home, "PWD": room}
        run_env["PYTHONDONTWRITEBYTECODE"] = "1"
        for python in pythons:
            answer, error = _ask(python, names, run_env, room, flags, reach)
            if answer is None:
                return Probed(error=f"the import probe of {python} failed: {error}")
            try:
                found, error = _outside(answer, python, inside)
                loaded += _loaded(answer, python, inside)
                entries += _loaded(answer, python, inside, "entries")
                if reach:
                    error = error or _unread(answer)
                    links += _reached(answer, python, inside, "links")
                    mapped += _reached(answer, python, inside, "mapped")
            except (AttributeError, TypeError, ValueError):
                found, error = [], ": its answer is malformed"
            if error:
                return Probed(error=f"the import probe of {python} failed{error}")
            outside += found
    return Probed(
        tuple(outside),
        loaded=tuple(loaded),
        entries=tuple(entries),
        links=tuple(links),
        mapped=tuple(mapped),
    )


def _unread(answer: dict[str, Any]) -> str:
    """`` : WHAT could not be read (why)`` for the first finder (or ``sys.path``) a reach
    probe's ``answer`` could not read, or empty.

    Raises:
        TypeError / ValueError: a malformed answer.
    """
    for what, why in answer.get("unread") or []:
        if not isinstance(what, str) or not isinstance(why, str):
            raise TypeError("an unread row is not two strings")
        return f": `{what}` could not be read ({why})"
    return ""


def _reached(answer: dict[str, Any], python: str, inside: str, key: str) -> list[Found]:
    """The rows of a reach probe's ``answer`` under ``key`` (``links``: [link, real];
    ``mapped``: [finder, real]) whose real path is outside ``inside``.

    Raises:
        TypeError / ValueError: a malformed answer.
    """
    out = []
    for first, real in answer.get(key) or []:
        if not isinstance(first, str) or not isinstance(real, str):
            raise TypeError(f"a {key} row is not two strings")
        if under(real, inside) is None:
            name = "sys.path" if key == "links" else first
            out.append(Found(name, python, (first, real) if key == "links" else (real,)))
    return out


def _loaded(answer: dict[str, Any], python: str, inside: str, key: str = "loaded") -> list[Found]:
    """The modules of one probe's ``answer`` that start-up loaded from a file outside
    ``inside`` (the room's real path), the standard library and the interpreter's own
    ``site-packages`` (``key`` ``entries``: the ``sys.path`` entries there).

    Raises:
        TypeError / ValueError: a malformed answer.
    """
    std = [s for s in answer.get("std", []) if isinstance(s, str)]
    own = [s for s in answer.get("own", []) if isinstance(s, str)]
    out = []
    rows = answer.get(key) or []
    if key == "entries":
        rows = [["sys.path", *row] for row in rows]
    for name, file, real in rows:
        if not all(isinstance(x, str) for x in (name, file, real)):
            raise TypeError("a loaded module is not three strings")
        mine = any(under(real, o) is not None for o in (inside, *own))
        if not mine and not _standard(real, std):
            out.append(Found(name, python, (file, real)))
    return out


def _outside(answer: dict[str, Any], python: str, inside: str) -> tuple[list[Found], str]:
    """(the names of one probe's ``answer`` found outside ``inside``, the room's real
    path; `` on `NAME`: why`` when one could not be looked up)."""
    errors = answer.get("errors") or {}
    if errors:
        name, why = sorted(errors.items())[0]
        return [], f" on `{name}`: {why}"
    std = [s for s in answer.get("std", []) if isinstance(s, str)]
    out = []
    for name, where in sorted((answer.get("specs") or {}).items()):
        located = tuple(p for pair in where for p in pair if isinstance(p, str))
        reals = [p for pair in where for p in pair[1:2] if isinstance(p, str)]
        if not located or all(_standard(r, std) for r in reals):
            continue
        if _namespace_first_inside(where, inside):
            continue
        if any(under(os.path.realpath(p), inside) is None for p in located):
            out.append(Found(name, python, located))
    return out, ""


def _namespace_first_inside(where: Sequence[Sequence[object]], inside: str) -> bool:
    """A namespace package (no origin: only directories) whose first portion is in the
    room: a submodule the room's portion holds is imported from it, whatever other
    distributions add to the namespace (PEP 420 searches the portions in order); one the
    candidate deleted there is a name only the base holds (not covered)."""
    reals = [pair[1] for pair in where if len(pair) > 1 and isinstance(pair[1], str)]
    if not reals or len(reals) != len(where) or not all(os.path.isdir(r) for r in reals):
        return False
    return under(reals[0], inside) is not None


def _standard(real: str, std: Sequence[str]) -> bool:
    """``real`` is in the standard library (one of ``std``, no ``site-packages`` or
    ``dist-packages`` on the way)."""
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return False
    return any(under(real, s) is not None for s in std)


def _ask(
    python: str,
    names: Sequence[str],
    env: Mapping[str, str],
    room: str,
    flags: Sequence[str],
    reach: bool = False,
) -> tuple[dict[str, Any] | None, str]:
    """(the answer of one probe process, or None and why it failed)."""
    nonce = secrets.token_hex(8)
    try:
        proc = subprocess.Popen(
            [python, *flags, "-c", _SCRIPT, nonce, "reach" if reach else "-", *names],
            cwd=room,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        return None, f"it could not be started: {exc.strerror or exc}"
    if proc.stdout is None:  # pragma: no cover - stdout=PIPE always gives one
        return None, "no output pipe"
    data, why, code = bytearray(), "", -1
    deadline = time.monotonic() + PROBE_SECONDS
    with proc.stdout:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                why = f"it ran longer than {PROBE_SECONDS:g}s"
                break
            ready, _, _ = select.select([proc.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            data += chunk
            if len(data) > PROBE_BYTES:
                why = f"it printed more than {PROBE_BYTES} bytes"
                break
    if not why:
        try:
            code = proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            why = f"it ran longer than {PROBE_SECONDS:g}s"
    if why:
        kill_session(proc)
        proc.wait()
        return None, why
    text = data.decode("utf-8", "replace")
    last = [x for x in text.splitlines() if x.startswith(nonce + " ")]
    if code != 0 or not last:
        tail = next((x.strip() for x in reversed(text.splitlines()) if x.strip()), "")
        return None, f"exit {code}, no answer" + (f" ({tail[:200]})" if tail else "")
    try:
        answer = json.loads(last[-1][len(nonce) + 1 :])
    except ValueError:
        return None, "its answer is not JSON"
    return (answer, "") if isinstance(answer, dict) else (None, "its answer is not an object")
