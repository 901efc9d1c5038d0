"""A Python import line as the one-name imports it means: the lines an import sorter makes
of it (SPEC §3 "Attribution follows content"; issue 13, refuter r13k: ``ruff check
--select I --fix`` splits ``import os, evil_backdoor`` and merges two ``from subprocess
import ...`` lines, laundering the writer's line).

Room ``policy`` (pure: bytes in, answers out). :func:`import_pairs` reads a stripped line
``import a, b as c`` as ``(b"import a", b"import b as c")`` and ``from m import (x, y)`` as
``(b"from m import x", b"from m import y")``: one line per (module, name) pair, each the line
a human writing that one import writes. :func:`~gentle_hooks.policy.linekeys.any_line_keys`
and :func:`~gentle_hooks.policy.linekeys.line_keys` key those too, so the writer's import
line and what a sorter splits or merges it into share the keys of the names the writer
imported; a human's import of other names keeps keys of its own (a relative ``from .m
import a, b`` too). Any other line (a star import, a line with a comment or ``;``) has
none.

Cheap: one ``startswith`` for most lines, one match for an import line with ``,`` or ``(``.
"""

from __future__ import annotations

from gentle_hooks.values.lazy_pattern import lazy_pattern

_NAME = rb"[A-Za-z_][\w.]*(?:\s+as\s+\w+)?"
_NAMES = rb"%s(?:\s*,\s*%s)*" % (_NAME, _NAME)
_IMPORT = lazy_pattern(rb"import\s+(?P<names>%s)" % _NAMES)
_FROM = lazy_pattern(
    rb"from\s+(?P<module>\.*[A-Za-z_][\w.]*|\.+)\s+import\s+"
    rb"(?:\(\s*(?P<bracketed>%s)\s*,?\s*\)|(?P<names>%s))" % (_NAMES, _NAMES)
)
_SPLIT = lazy_pattern(rb"\s*,\s*")
_SPACES = lazy_pattern(rb"\s+")


def import_pairs(stripped: bytes) -> tuple[bytes, ...]:
    """The one-name import lines a stripped Python import line of two names or more (or of
    one in brackets) means, each spaced as a sorter writes it; ``()`` for any other line."""
    if not stripped.startswith((b"import", b"from")) or (
        stripped.find(b",") < 0 and stripped.find(b"(") < 0
    ):
        return ()
    m = _IMPORT.fullmatch(stripped)
    if m is not None:
        return tuple(b"import " + _SPACES.sub(b" ", n) for n in _SPLIT.split(m["names"]))
    m = _FROM.fullmatch(stripped)
    if m is None:
        return ()
    head = b"from " + m["module"] + b" import "
    names = m["bracketed"] or m["names"]
    return tuple(head + _SPACES.sub(b" ", n) for n in _SPLIT.split(names))


def one_name_lines(stripped: bytes) -> tuple[bytes, ...]:
    """The lines a stripped line is read as where its keys are matched one line at a time:
    its one-name imports (:func:`import_pairs`), else itself; ``()`` for a blank line."""
    if not stripped:
        return ()
    return import_pairs(stripped) or (stripped,)
