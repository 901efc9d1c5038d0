"""Text the repository or a payload supplies never drives the user's terminal
(docs/robustness.md "Paths that are not UTF-8"): every human-facing print renders control
characters visibly (``\\xHH``), in one place (:mod:`gentle_hooks.report.visible`); ``--json``
keeps every string exact through JSON escapes. Real repositories, the real CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.report.jsontext import json_text
from gentle_hooks.report.visible import VisibleStream, visible
from tests.conftest import gh, git, write
from tests.integration.test_hostile_inputs import hostile

#: A file name that retitles the terminal, rings it, returns the carriage and starts a C1
#: control sequence (8-bit CSI).
EVIL = "ev\x1b]0;PWNED\x07il\r\x9b31m.py"
SHOWN = "ev\\x1b]0;PWNED\\x07il\\x0d\\x9b31m.py"
#: Raw control characters a terminal would obey (tab and newline are text).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _clean(out: bytes) -> str:
    text = out.decode("utf-8")
    assert not RAW.search(text), text
    return text


@pytest.fixture
def evil_repo(repo: Path) -> Path:
    write(repo / EVIL, "x = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", EVIL).returncode == 0
    argv = ("receipt", "run", "--", sys.executable, "-c", "import sys  # \x1b[2J\x1b]0;T\x07")
    assert hostile(repo, *argv).returncode == 0
    git(repo, "add", "-A")
    return repo


@pytest.mark.parametrize(
    "args",
    [
        ("status",),
        ("assess",),
        ("receipt", "list"),
        ("spot-check", "--staged"),
        ("hook", "pre-commit"),
        ("record", "--model", "m2", "--effort", "low", EVIL),
    ],
)
def test_human_output_shows_control_characters_escaped(evil_repo: Path, args: tuple[str]) -> None:
    proc = hostile(evil_repo, *args)
    out = _clean(proc.stdout) + _clean(proc.stderr)
    if args[0] in ("status", "assess", "hook"):
        assert SHOWN in out, out
    if args[0] in ("receipt", "spot-check"):
        # the command's word with controls is printed as printf's format (octal escapes)
        assert "\"$(printf 'import sys  # \\033[2J\\033]0;T\\007')\"" in out, out


def test_post_commit_shows_the_path_escaped(evil_repo: Path) -> None:
    git(evil_repo, "commit", "-q", "--no-verify", "-m", "evil")
    proc = hostile(evil_repo, "hook", "post-commit")
    out = _clean(proc.stdout) + _clean(proc.stderr)
    assert proc.returncode == 0, out


@pytest.mark.parametrize("args", [("status", "--json"), ("assess", "--json")])
def test_json_keeps_the_path_exact(evil_repo: Path, args: tuple[str]) -> None:
    proc = hostile(evil_repo, *args)
    text = _clean(proc.stdout)
    assert EVIL in _strings(json.loads(text)), text


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def test_visible_escapes_controls_but_newline_and_tab() -> None:
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("\x00\x1b\x7f\x85\x9f\r") == "\\x00\\x1b\\x7f\\x85\\x9f\\x0d"
    assert visible("café ✓") == "café ✓"


def test_a_visible_stream_writes_text_escaped_and_bytes_as_they_are(tmp_path: Path) -> None:
    with open(tmp_path / "out", "w", encoding="utf-8") as fh:
        stream = VisibleStream(fh)
        stream.write("a\x1b[2Jb\n")
        stream.writelines(["\x07\n"])
        stream.flush()
        stream.buffer.write(b"\x1b[0m")  # a child's own output, passed through
    assert (tmp_path / "out").read_bytes() == b"a\\x1b[2Jb\n\\x07\n\x1b[0m"


@pytest.mark.parametrize("text", ["\x7f", "caf\xe9\x9b", "\x85\ud800\udcff"])
def test_json_text_escapes_del_and_c1_exactly(text: str) -> None:
    out = json_text(json.dumps([text], ensure_ascii=False))
    assert not RAW.search(out)
    loaded = json.loads(out)[0]
    assert loaded == text.replace("\ud800", "\\ud800").replace("\udcff", "\\xff")


def test_the_wrapped_streams_are_installed_once() -> None:
    code = (
        "import sys; from gentle_hooks.main import _escape_streams as e; e(); e(); "
        "print(type(sys.stdout).__name__, type(sys.stdout.wrapped).__name__)"
    )
    out = os.popen(f"{sys.executable} -c '{code}'").read()
    assert out == "VisibleStream TextIOWrapper\n"


def test_a_receipt_command_with_newlines_is_printed_on_one_line_and_runs_as_printed(
    repo: Path,
) -> None:
    code = "import sys\nsys.exit(1)"
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    hostile(repo, "receipt", "run", "--", sys.executable, "-c", code)
    listed = _clean(hostile(repo, "receipt", "list").stdout)
    assert listed.count("\n") == 1 and "\"$(printf 'import sys\\nsys.exit(1)')\"" in listed, listed
    git(repo, "add", "-A")
    block = _clean(hostile(repo, "hook", "pre-commit").stderr)
    runs = [line.split("run: ", 1)[1] for line in block.splitlines() if "  run: " in line]
    again = next(r for r in runs if " receipt run " in r)
    assert "sys.exit(1)" in again and not any(
        line.startswith("sys.exit") for line in block.splitlines()
    ), block
    # sh: dash on Debian, which reads no $'...' before 0.5.13; the printed line is portable
    ran = subprocess.run(["sh", "-c", again], cwd=repo, capture_output=True, check=False)
    assert ran.returncode == 1 and b"receipt #2: " in ran.stderr, ran.stderr  # ran, recorded
    receipts = json.loads(hostile(repo, "receipt", "list", "--json").stdout)
    assert "exit 1" in json.dumps(receipts) and len(receipts["records"]) == 2, receipts


def _printed_runs(block: str) -> list[str]:
    """The block's ``run:`` commands, each with the lines a quoted word carries it onto (a
    word ending in a newline: until the shell would read the command whole)."""
    import shlex

    runs: list[str] = []
    lines = iter(block.split("\n"))
    for line in lines:
        if "  run: " not in line:
            continue
        cmd = line.split("run: ", 1)[1]
        while True:
            try:
                shlex.split(cmd)
                break
            except ValueError:  # an open quote: the command goes on
                cmd += "\n" + next(lines)
        runs.append(cmd)
    return runs


def test_a_receipt_command_ending_in_a_newline_runs_as_printed_under_sh(repo: Path) -> None:
    # python -c code ending in a newline: no one-line POSIX word carries it, and dash (sh
    # here) reads no $'...'; the printed command spans a line inside single quotes
    code = "import sys\nsys.exit(1)\n"
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    hostile(repo, "receipt", "run", "--", sys.executable, "-c", code)
    git(repo, "add", "-A")
    block = _clean(hostile(repo, "hook", "pre-commit").stderr)
    again = next(r for r in _printed_runs(block) if " receipt run " in r)
    assert "$'" not in again and again.endswith("sys.exit(1)')\"'\n'"), block
    ran = subprocess.run(["sh", "-c", again], cwd=repo, capture_output=True, check=False)
    assert ran.returncode == 1 and b"receipt #2: " in ran.stderr, ran.stderr  # ran, recorded
    receipts = json.loads(hostile(repo, "receipt", "list", "--json").stdout)["records"]
    assert [r["argv"][-1] for r in receipts] == [code, code], receipts


# --- a file name with a newline or a tab ------------------------------------------------------

#: A file name that, printed raw, ends its line and prints a gate line of its own.
FORGER = "src/x\ngentle-hooks: ok: FORGED\tline.py"
#: How human output names it: one shell word on one line (policy.shellwords.shown_path).
QUOTED = "\"$(printf 'src/x\\ngentle-hooks: ok: FORGED\\tline.py')\""


@pytest.fixture
def forger_repo(repo: Path) -> Path:
    write(repo / FORGER, "x = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", FORGER).returncode == 0
    git(repo, "add", "-A")
    return repo


def _named_on_one_line(out: str) -> None:
    """Every line naming the file names it quoted; none is the forged line."""
    lines = out.splitlines()
    assert not [x for x in lines if x.startswith("gentle-hooks: ok: FORGED")], out
    assert not [x for x in lines if "line.py" in x and QUOTED not in x], out
    assert any(QUOTED in x for x in lines), out


@pytest.mark.parametrize(
    "args",
    [("status",), ("assess",), ("hook", "pre-commit"), ("spot-check", "--readback", "--staged")],
)
def test_a_file_name_with_a_newline_is_named_on_one_line(
    forger_repo: Path, args: tuple[str, ...]
) -> None:
    proc = hostile(forger_repo, *args)
    _named_on_one_line(_clean(proc.stdout) + _clean(proc.stderr))


def test_the_recorders_and_the_push_gate_name_it_on_one_line(forger_repo: Path) -> None:
    git(forger_repo, "commit", "-q", "--no-verify", "-m", "writer")
    recorded = hostile(forger_repo, "hook", "post-commit")
    assert recorded.returncode == 0, recorded.stderr
    _named_on_one_line(_clean(recorded.stderr))
    head = git(forger_repo, "rev-parse", "HEAD").strip()
    line = f"refs/heads/main {head} refs/heads/main {'0' * len(head)}\n".encode()
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "hook", "pre-push", "origin", "/nowhere"],
        cwd=forger_repo,
        input=line,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    _named_on_one_line(_clean(proc.stderr))


def test_shown_path_quotes_only_what_could_split_a_line() -> None:
    from gentle_hooks.policy.shellwords import shown_path

    assert shown_path("src/with space.py") == "src/with space.py"
    assert shown_path("src/caf\udce9.py") == "src/caf\udce9.py"  # the stream writes \xe9
    assert shown_path("a\tb") == "\"$(printf 'a\\tb')\""
    assert shown_path("a\u2028b") == "\"$(printf 'a\\342\\200\\250b')\""
    assert shown_path(FORGER) == QUOTED


def test_a_non_utf8_marker_in_the_message_file_is_shown_escaped(repo: Path) -> None:
    """commit-msg reads the message file's bytes: a byte that is not UTF-8 in the marker is
    echoed as ``\\xff``, never replaced by U+FFFD."""
    message = repo.parent / "MSG"
    message.write_bytes(b"change\n\nGentle-Writer: o4-mini\xff/low\n")
    (repo / "src" / "app.py").write_text("x = 2\n", encoding="utf-8")
    git(repo, "add", "src/app.py")
    proc = gh(repo, "hook", "commit-msg", str(message))
    assert proc.returncode == 1, proc.stderr
    assert "(message marker 'Gentle-Writer: o4-mini\\xff/low')" in proc.stderr, proc.stderr
    assert "\ufffd" not in proc.stderr
