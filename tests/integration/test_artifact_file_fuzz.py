"""Verdict, brief and quorum files through the real CLI (SPEC §7 "Exit codes";
docs/robustness.md "Limits"): ``verdict add``, ``verify prepare --brief``, ``verify run
--brief``, ``brief check``, ``quorum tally`` and ``quorum audit`` answer a hostile file with
a result or one line and exit 2 — never exit 3, a traceback or a hang.

Two parts: every kind of path that is not a plain readable file (a FIFO nobody writes,
``/dev/zero``, a directory, a dangling link, links to each, a file over the 16 MiB cap, a
non-UTF-8 name) for every command, and a hypothesis property over the files' contents (deep
nesting, 4,301-digit integers, wrong types under the right names, bytes that are not UTF-8)
on a fixed budget of :data:`BUDGET` derandomized examples, as a file and on stdin.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import run_bounded
from tests.hostile_fields import VERDICT_FIELDS
from tests.unit.test_hostile_parsers import documents

#: Content examples per run (each runs one command of the real CLI).
BUDGET = int(os.environ.get("GENTLE_FILE_FUZZ_EXAMPLES", "60"))

#: argv after ``gentle-hook`` with ``{}`` where the file goes.
COMMANDS = [
    ("verdict", "add", "{}"),
    ("verify", "prepare", "--brief", "{}"),
    ("verify", "run", "--brief", "{}"),
    ("brief", "check", "{}"),
    ("quorum", "tally", "--claim", "c", "{}"),
    ("quorum", "audit", "{}"),
]
#: The commands that read ``-`` as standard input.
STDIN_COMMANDS = [c for c in COMMANDS if c[0] in ("verdict", "brief", "quorum")]

QUORUM_FIELDS = ["refuted", "reason", "whatIChecked", "claim", "verdicts", "verifier", "lens"]


def _argv(command: tuple[str, ...], path: str) -> list[str]:
    return [path if w == "{}" else w for w in command]


def run_cli(repo: Path, args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    try:
        return run_bounded(args, repo, stdin)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang: gentle-hook {args}")


def contract(proc: subprocess.CompletedProcess[bytes], *, refused: bool) -> None:
    """Never exit 3 or a traceback; UTF-8 out; exit 2 is exactly one line on stderr;
    ``refused``: the input cannot be anything but exit 2."""
    err = proc.stderr.decode("utf-8")
    proc.stdout.decode("utf-8")
    assert proc.returncode in (0, 1, 2), (proc.returncode, err)
    assert "Traceback" not in err and "unexpected error" not in err, err
    if proc.returncode == 2:
        assert len(err.strip().splitlines()) == 1, err
    if refused:
        assert proc.returncode == 2, (proc.returncode, proc.stdout, err)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with one commit and a change, and a directory of hostile paths."""
    base = tmp_path_factory.mktemp("filefuzz")
    repo = base / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], capture_output=True, check=True)
    (repo / "app.py").write_text("X = 1\n")
    for args in (
        ["add", "-A"],
        ["-c", "user.name=f", "-c", "user.email=f@x", "commit", "-qm", "i"],
    ):
        subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True)
    (repo / "app.py").write_text("X = 2\n")
    paths = base / "paths"
    paths.mkdir()
    os.mkfifo(paths / "fifo")
    (paths / "dir").mkdir()
    with open(paths / "huge.json", "wb") as fh:  # sparse: over the cap, no disk spent
        fh.write(b"[")
        fh.truncate(17 * 1024 * 1024)
    for name, target in [
        ("to-fifo", paths / "fifo"),
        ("to-zero", Path("/dev/zero")),
        ("to-dir", paths / "dir"),
        ("dangling", paths / "absent"),
        ("to-huge", paths / "huge.json"),
        ("loop", paths / "loop"),
    ]:
        os.symlink(target, paths / name)
    return repo


SPECIAL = [
    "fifo",
    "/dev/zero",
    "/dev/null",
    "dir",
    "huge.json",
    "to-fifo",
    "to-zero",
    "to-dir",
    "dangling",
    "to-huge",
    "loop",
    "absent",
    os.fsdecode(b"caf\xe9-\xff.json"),  # a name that is not UTF-8, and absent
]


@pytest.mark.parametrize("special", SPECIAL)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_path_that_is_not_a_readable_file_is_one_line_exit_2(
    world: Path, command: tuple[str, ...], special: str
) -> None:
    path = special if special.startswith("/") else str(world.parent / "paths" / special)
    # /dev/null reads as an empty document: refused as not JSON
    contract(run_cli(world, _argv(command, path)), refused=True)


@pytest.mark.parametrize("command", STDIN_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_endless_standard_input_is_one_line_exit_2(world: Path, command: tuple[str, ...]) -> None:
    with open("/dev/zero", "rb") as zero:
        try:
            proc = run_bounded(_argv(command, "-"), world, zero)
        except subprocess.TimeoutExpired:
            pytest.fail(f"hang: gentle-hook {command} < /dev/zero")
    contract(proc, refused=True)


CONTENTS = st.one_of(
    documents(VERDICT_FIELDS),
    documents(QUORUM_FIELDS),
    st.integers(min_value=60, max_value=100_000).map(lambda n: b'{"verdicts":' + b"[" * n),
    st.integers(min_value=4_301, max_value=20_000).map(
        lambda n: (
            json.dumps({"refuted": False, "reason": "r"}).encode()[:-1]
            + b', "durationMs": '
            + b"9" * n
            + b"}"
        )
    ),
)


@settings(
    max_examples=BUDGET,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=CONTENTS, pick=st.integers(min_value=0, max_value=len(COMMANDS) - 1), piped=st.booleans()
)
def test_hostile_file_contents_keep_the_exit_code_contract(
    world: Path, data: bytes, pick: int, piped: bool
) -> None:
    command = COMMANDS[pick]
    if piped and command in STDIN_COMMANDS:
        contract(run_cli(world, _argv(command, "-"), stdin=data), refused=False)
        return
    path = world.parent / "paths" / "doc.json"
    path.write_bytes(data)
    contract(run_cli(world, _argv(command, str(path))), refused=False)
