"""Which files Python imports as a module, by their names (SPEC §9; seed 001 "Guardrails":
"do not accept a claim whose criteria have no observable check").

Room ``policy`` (pure). A directory on ``sys.path`` provides the module ``NAME`` as any of
``NAME`` + an importable suffix: the source ``NAME.py``, the *sourceless* bytecode
``NAME.pyc`` (run as it is, no source beside it needed), an extension module
``NAME.so``, ``NAME.abi3.so``, ``NAME.cpython-312-x86_64-linux-gnu.so``, ``NAME.pyd``
(any tag: the check's interpreter may be another version than this one), or a package
directory ``NAME/`` holding such files. A ``__pycache__/NAME.cpython-311.pyc`` provides
no module by its name: Python reads it as the cache of a ``NAME.py`` beside its directory,
yet runs it in that file's place (one compiled with ``UNCHECKED_HASH`` is never compared
with the source), so such a ``*.pyc`` a change writes defines a Python check (row
``D-bytecode`` of :mod:`gentle_hooks.services.defined`), and checks run with a
``PYTHONPYCACHEPREFIX`` of their own. :func:`module_name` reads a file name,
:func:`provides` a path.
"""

from __future__ import annotations

import importlib.machinery

#: Suffixes Python imports from a ``sys.path`` directory: this interpreter's own
#: (``importlib.machinery.all_suffixes()``) and any interpreter's source and bytecode.
_EXACT = frozenset({*importlib.machinery.all_suffixes(), ".py", ".pyw", ".pyc"})
#: Extension modules, whatever the version or ABI tag before them.
_EXTENSION = (".so", ".pyd")


def module_name(filename: str) -> str | None:
    """The module a directory on ``sys.path`` provides as the file ``filename`` (a base
    name: ``pytest.pyc`` → ``pytest``), or None when Python imports no module from it
    (``pytest.txt``, ``pytest.cpython-311.pyc``: a cache name, ``.py``: no name)."""
    name, dot, rest = filename.partition(".")
    if not name or not dot:
        return None
    suffix = "." + rest
    return name if suffix in _EXACT or suffix.endswith(_EXTENSION) else None


def provides(module: str, path: str) -> bool:
    """Whether the tree's ``path`` is a file Python imports as the dotted ``module`` or as
    part of it, from some directory of the tree (which one is on ``sys.path`` is not
    known): for ``a.b``, ``a/b.py``, ``src/a/b.pyc``, ``a/b/__init__.py``, ``a/b/c.py``."""
    parts = path.split("/")
    last = module_name(parts[-1])
    if last is None:
        return False
    names = [*parts[:-1], *([] if last == "__init__" else [last])]
    want = module.split(".")
    return any(names[i : i + len(want)] == want for i in range(len(names) - len(want) + 1))


def runs_unchecked(data: bytes | None) -> bool:
    """Whether Python would run the ``__pycache__`` bytecode ``data`` without comparing it
    with the source beside it: compiled with ``UNCHECKED_HASH`` (PEP 552: the flags word
    after the magic number is ``0b01``). A timestamp pyc (flags 0) is run only while the
    source's mtime and size match its header, and a ``CHECKED_HASH`` one (``0b11``) only
    while the source's hash does: either way the source decides. Unreadable or short data
    counts (None: the blob could not be read)."""
    if data is None or len(data) < 8:
        return True
    flags = int.from_bytes(data[4:8], "little")
    return flags & 0b11 == 0b01
