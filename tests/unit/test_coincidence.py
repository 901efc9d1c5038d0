"""The rows of gentle_hooks.policy.coincidence: which of the writer's lines at another path
are evidence of a copy, not a coincidence (SPEC §3 "Attribution follows content"; issue 13:
a person's new file sharing common lines with the writer's is not a copy), row by row, then
through row A2 across paths both ways."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.across import by_one_line, carries_row_across
from gentle_hooks.policy.attribution import PathChange, WriterEntry, writer_delta
from gentle_hooks.policy.coincidence import COINCIDENCE_ROWS, coincidence_row, copied_keys
from gentle_hooks.policy.delta import WriterDelta
from gentle_hooks.policy.linekeys import stripped_key

ROWS = [
    ("C1", b"#!/usr/bin/env bash"),
    ("C1", b"#!/bin/sh"),
    ("C1", b"# -*- coding: utf-8 -*-"),
    ("C1", b"set -euo pipefail"),
    ("C1", b"set -e"),
    ("C1", b"set -o pipefail"),
    ("C1", b'"use strict";'),
    ("C1", b"use warnings;"),
    ("C2", b'print("done")'),
    ("C2", b"sys.exit(1)"),
    ("C2", b"time.sleep(0.5)"),
    ("C2", b"print()"),
    ("C2", b'console.log("ok");'),
    ("C2", b"process.exit(1);"),
    ("C2", b"fmt.Println(true)"),
    ("C2", b"echo done"),
    ("C2", b"exit 1"),
    ("C3", b'raise ValueError("invalid api token")'),  # D2: literal words
    ("C3", b'fetch_config("https://config.example.com/v1")'),  # D2: a URL
    ("C3", b"rm -rf build"),  # D3: a shell command
    ("C5", b'print("writer a")'),  # two words: not a constant
    ("C5", b"print(result)"),  # a name: not a constant
    ("C5", b"sys.exit(main_loop())"),
    ("C5", b'logger.info("writer")'),  # not a print, exit or sleep
    ("C5", b"upload_release(token, os.getcwd())"),
    ("C5", b'w_a = "writer a"'),
    ("C5", b"for line in lines:"),
    ("C5", b"echo done twice"),
    ("C5", b"settings = load()"),  # not a ``set`` line
    ("C5", b"# set -e in the caller"),
]


@pytest.mark.parametrize(("row", "line"), ROWS, ids=[f"{r}: {ln!r}" for r, ln in ROWS])
def test_coincidence_rows(row: str, line: bytes) -> None:
    assert coincidence_row(line) == row
    assert [r.id for r in COINCIDENCE_ROWS] == ["C1", "C2", "C3"]


def _keys(*lines: bytes) -> frozenset[str]:
    return frozenset(stripped_key(s) for s in lines)


def test_row_c5_counts_in_one_run_of_the_writers_lines() -> None:
    """Two writer lines of row C5 count in one run of consecutive writer lines (either
    order; blank lines, lines too short to key and the writer's common lines between them
    too); apart, with a line of one's own between, they do not; with a line of row C3
    anywhere they do."""
    a, b = b"w_a = compute_a(target)", b"w_b = compute_b(target)"
    held, writer = _keys(a, b), _keys(a, b, b'print("done")', b"if not target:")
    block = b"def mine():\n    " + a + b"\n\n    " + b + b"\n"
    swapped = b"def mine():\n    " + b + b"\n    " + a + b"\n"
    common = b"def mine():\n    " + a + b'\n    if not target:\n        print("done")\n'
    common += b"    else:\n        pass\n    " + b + b"\n"
    apart = b"def mine():\n    " + a + b"\n    own_line(1)\n    " + b + b"\n"
    assert copied_keys(held, block, writer) == held
    assert copied_keys(held, swapped, writer) == held
    assert copied_keys(held, common, writer) == held
    assert copied_keys(held, apart, writer) == frozenset()
    content = b'raise ValueError("invalid api token")'
    with_content = held | _keys(content)
    got = copied_keys(with_content, apart + b"    " + content + b"\n", writer | _keys(content))
    assert got == with_content


def test_rows_c1_c2_never_count_even_side_by_side() -> None:
    lines = (b'print("done")', b"sys.exit(1)")
    writer = b"def run():\n    " + b"\n    ".join(lines) + b"\n"
    new = b"def other():\n    " + b"\n    ".join(lines) + b"\n"
    assert copied_keys(_keys(*lines), new, writer_delta(None, writer).added) == frozenset()


def test_row_c4_a_wrapped_statement_joined_counts_anywhere() -> None:
    joined = b"result = compute_total(first_value, second_value)"
    held = _keys(joined)
    new = b"result = compute_total(\n    first_value, second_value\n)\n"
    assert copied_keys(held, new, held) == held


def entry(after: bytes, path: str = "tool.py") -> WriterEntry:
    return WriterEntry(path, f"blob:{after!r}", None, writer_delta(None, after))


def change(new: bytes, path: str = "report.py") -> PathChange:
    return PathChange(path, None, f"blob:{new!r}", None, new)


TOOL = (
    b"import os\nimport sys\n\n\ndef main():\n"
    b'    token = os.environ.get("DEPLOY_TOKEN")\n    if not token:\n'
    b'        print("done")\n        sys.exit(1)\n'
    b"    for line in lines:\n        name = name.strip()\n"
    b"    upload_release(token, os.getcwd())\n    return None\n"
)
SCRIPT = (
    b"#!/usr/bin/env bash\nset -euo pipefail\n\n"
    b'rsync_release "$RELEASE_DIR" deploy@staging\necho done\n'
)
ACROSS = [
    # (id, the writer's new file, the person's or the copier's new file, the row)
    (
        "A5 two common calls side by side",
        TOOL,
        b'def main():\n    walk(sys.argv[1])\n    print("done")\n    sys.exit(1)\n',
        "A5",
    ),
    (
        "A5 a script's preamble and its last line",
        SCRIPT,
        b"#!/usr/bin/env bash\nset -euo pipefail\n\nmake -C docs html\necho done\n",
        "A5",
    ),
    (
        "A5 two of the writer's lines apart",
        TOOL,
        b"def clean(lines):\n    for line in lines:\n        print(line)\n"
        b"    name = name.strip()\n",
        "A5",
    ),
    (
        "A2 the writer's function body copied, its common lines and all",
        TOOL,
        b"def clean():\n" + TOOL.split(b"def main():\n")[1],
        "A2",
    ),
    (
        "A2 two of the writer's lines copied as a block",
        TOOL,
        b"def clean(lines):\n    for line in lines:\n        name = name.strip()\n",
        "A2",
    ),
    (
        "A2 the writer's lines copied with its common calls",
        TOOL,
        b'def clean():\n    if not token:\n        print("done")\n        sys.exit(1)\n'
        b"    upload_release(token, os.getcwd())\n    for line in lines:\n"
        b"        name = name.strip()\n",
        "A2",
    ),
]


@pytest.mark.parametrize(
    ("writer", "new", "row"), [r[1:] for r in ACROSS], ids=[r[0] for r in ACROSS]
)
def test_copies_and_coincidences_across_paths(writer: bytes, new: bytes, row: str) -> None:
    assert carries_row_across(change(new), entry(writer)) == row


def test_an_entry_read_from_its_stored_keys_reads_alike() -> None:
    """An entry read from its stored keys (no telling lines, no placements) gives the same
    rows: a run needs only the writer's added lines."""
    detailed = writer_delta(None, TOOL)
    stored = WriterEntry("tool.py", "blob:t", None, WriterDelta(detailed.added, frozenset(), False))
    for _, writer, new, row in ACROSS:
        if writer is TOOL:
            assert carries_row_across(change(new), stored) == row


def test_a_line_that_counts_alone_brings_the_writers_other_lines_with_it() -> None:
    """Row C3 holds a line that counts alone at another path (X5: a process call, of row
    D4): with it, a second writer line apart counts too, so the change holds more than one
    line of the writer's (``by_one_line`` is False: a person's claim of one line does not
    take it), while without the process call that line alone is anybody's."""
    call, other = b"subprocess.run(cmd, shell=True)", b"name = name.strip()"
    writer = b"def deploy(cmd, name):\n    " + call + b"\n    " + other + b"\n"
    rec = entry(writer)
    new = b"def mine(cmd, name):\n    " + call + b"\n    own_line(1)\n    " + other + b"\n"
    held = _keys(call, other)
    assert coincidence_row(call) == "C5"
    assert copied_keys(held, new, held, _keys(call)) == held
    assert copied_keys(held, new, held) == frozenset()
    assert carries_row_across(change(new), rec) == "A2"
    assert not by_one_line(change(new), rec)
    alone = b"def mine(cmd):\n    " + call + b"\n    own_line(1)\n"
    assert by_one_line(change(alone), rec)


CLI = (
    b"import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
    b'    parser.add_argument("--verbose", action="store_true")\n'
    b"    args = parser.parse_args()\n    for line in lines:\n        line = line.strip()\n"
    b"        handle_record(line, args.verbose)\n"
)
OPEN = [
    # (id, a person's own new file sharing lines with CLI by chance)
    (
        "an idiomatic pair side by side",
        b"def count(lines):\n    for line in lines:\n        line = line.strip()\n"
        b"        print(line)\n",
    ),
    (
        "an option's literal words anchoring a loop line",
        b"import argparse\n\n\ndef cli():\n    parser = argparse.ArgumentParser()\n"
        b'    parser.add_argument("--verbose", action="store_true")\n    total = 0\n'
        b"    for line in lines:\n        total += len(line)\n",
    ),
]


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 13): a pair of idiomatic lines side by side, or literal words "
    "anyone types (an option's flag), read as content; the base-tree rule (a line the base "
    "already holds is no evidence) would settle these where the repository holds them",
)
@pytest.mark.parametrize("new", [o[1] for o in OPEN], ids=[o[0] for o in OPEN])
def test_known_coincidences_still_read_as_copies(new: bytes) -> None:
    assert carries_row_across(change(new), entry(CLI)) == "A5"
