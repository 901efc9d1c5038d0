"""An import line as the one-name imports it means (gentle_hooks.policy.importpairs): what
``ruff check --select I --fix`` splits or merges the writer's import line into keeps its
names' keys, and a human's import of other names keeps its own (issue 13, refuter r13k)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import held_keys, writer_delta
from gentle_hooks.policy.importpairs import import_pairs
from gentle_hooks.policy.linekeys import any_line_keys, line_keys, stripped_key
from gentle_hooks.policy.shapes import line_shape

PAIRS = [
    (b"import os, evil_backdoor", (b"import os", b"import evil_backdoor")),
    (b"import os.path as p,sys", (b"import os.path as p", b"import sys")),
    (
        b"from subprocess import Popen, call",
        (b"from subprocess import Popen", b"from subprocess import call"),
    ),
    (b"from m import (a as b,  c,)", (b"from m import a as b", b"from m import c")),
    (b"import os", ()),
    (b"from m import a", ()),
    (b"from . import a, b", (b"from . import a", b"from . import b")),
    (b"from ..pkg.m import (x, y)", (b"from ..pkg.m import x", b"from ..pkg.m import y")),
    (b"from .. import x", ()),
    (b"from m import *", ()),
    (b"import a, b  # noqa", ()),
    (b"important = (1, 2)", ()),
    (b"from_file(a, b)", ()),
]


@pytest.mark.parametrize(("line", "pairs"), PAIRS, ids=[p[0].decode() for p in PAIRS])
def test_import_pairs(line: bytes, pairs: tuple[bytes, ...]) -> None:
    assert import_pairs(line) == pairs


#: (the module before, the writer's, what ``ruff check --select I --fix`` makes of it).
BASE = b"import os\nfrom subprocess import call\n\n\ndef f():\n    return os, call\n"
SORTED = [
    (
        "split",
        BASE.replace(b"import os\n", b"import os, evil_backdoor\n"),
        BASE.replace(b"call\n\n", b"call\n\nimport evil_backdoor\n\n", 1),
    ),
    (
        "merged",
        BASE.replace(b"call\n\n", b"call\nfrom subprocess import Popen\n\n", 1),
        BASE.replace(b"import call", b"import Popen, call"),
    ),
]


@pytest.mark.parametrize(("row", "writer", "fixed"), SORTED, ids=[s[0] for s in SORTED])
def test_a_sorted_import_keeps_the_writers_names(row: str, writer: bytes, fixed: bytes) -> None:
    delta = writer_delta(BASE, writer)
    assert delta.added, row
    assert delta.added <= any_line_keys(fixed) - any_line_keys(BASE), row
    assert delta.added <= held_keys(delta, fixed) - held_keys(delta, BASE), row


def test_an_import_line_keys_as_its_names() -> None:
    assert line_keys(b"import os, sys\n") == line_keys(b"import sys\nimport os\n")
    assert stripped_key(b"import os, sys") not in any_line_keys(b"import os, sys\n")


#: (the writer's import line, a human's of other names): no key in common.
NEAR_MISSES = [
    (b"import os, evil_backdoor", b"import os, evil_backdoors"),
    (b"from subprocess import Popen, call", b"from subprocess import run, check_call"),
    (b"from subprocess import Popen", b"from subprocess2 import Popen"),
    (b"import evil as e, os", b"import evil, os"),
]


@pytest.mark.parametrize(("writer", "human"), NEAR_MISSES, ids=[n[0].decode() for n in NEAR_MISSES])
def test_a_humans_other_import_keeps_its_own_keys(writer: bytes, human: bytes) -> None:
    added = any_line_keys(writer) - any_line_keys(b"import os")
    assert added and not added & any_line_keys(human)


def test_an_import_has_no_shape_to_rename() -> None:
    """``from subprocess import call`` is not the writer's ``... import Popen`` renamed."""
    assert line_shape(b"from subprocess import Popen") is None
    assert line_shape(b"run_job(target, url)") is not None
