"""Hostile input gets a result or one line and exit 2: never exit 3, a traceback or a hang,
and never a lost record (SPEC §7 "Exit codes"; docs/robustness.md).

Each case is an input found to crash, hang or lose a record, driven through the real CLI in
a real repository: agent-runtime payloads and transcripts, non-UTF-8 paths, config files,
the environment, quorum files, and note lines read by the range and server gates.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import git, write
from tests.integration.test_notes_gate import clone, delegated_change, server

__all__ = ["server"]  # the bare server fixture, used by the note-line cases

NOTES = "refs/notes/gentle-hooks"
NON_UTF8 = os.fsdecode(b"caf\xe9-\xff.txt")  # the bytes a Latin-1 editor leaves


def hostile(
    cwd: Path,
    *args: str,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with bytes in and out; assert the contract: never exit 3, never a
    traceback, and a failure is exactly one line on stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args],
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 3, err
    assert "Traceback" not in err and "unexpected error" not in err, err
    failed = proc.returncode == 2 or (proc.returncode == 1 and "--from" in args)
    if failed and not (args[:1] == ("doctor",) and proc.stdout and not err):
        assert len(err.strip().splitlines()) == 1, err  # (doctor's report is on stdout)
    # Whatever was printed is UTF-8: a non-UTF-8 byte is escaped, never passed through.
    proc.stdout.decode("utf-8")
    proc.stderr.decode("utf-8")
    return proc


def strict_json(data: bytes) -> object:
    """Parse as a strict parser would: UTF-8, and no lone surrogate in any string."""

    def check(value: object) -> None:
        if isinstance(value, str):
            value.encode("utf-8")  # a lone surrogate (\udcff) raises here
        elif isinstance(value, list):
            for v in value:
                check(v)
        elif isinstance(value, dict):
            for k, v in value.items():
                check(k)
                check(v)

    value: object = json.loads(data.decode("utf-8"))
    check(value)
    return value


def pending_mutations(repo: Path) -> int:
    """How many pending mutations the ledger holds (read with sqlite3 itself)."""
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not ledger.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT count(*) FROM pending_mutation").fetchone()[0])


# --- agent-runtime payloads and transcripts (record --from claude-code) ---------------------


def _claude(repo: Path, tmp: Path, **override: object) -> bytes:
    data, filled = materialize("claude-code", repo, tmp / "scratch", **override)
    apply_writes(filled, repo)
    return data


def test_deeply_nested_stdin_is_one_line_and_non_blocking(repo: Path) -> None:
    proc = hostile(repo, "record", "--from", "claude-code", stdin=b"[" * 100_000 + b"]" * 100_000)
    assert proc.returncode == 1 and b"deeper than" in proc.stderr  # the hook's non-blocking code


@pytest.mark.parametrize(
    "tool_input",
    [
        pytest.param({"file_path": "src/app.py", "edits": 5}, id="edits-a-number"),
        pytest.param({"file_path": "x" * 5000, "content": "x"}, id="file-path-too-long"),
    ],
)
def test_a_malformed_tool_input_still_records_the_mutation(
    repo: Path, tmp_path: Path, tool_input: dict[str, object]
) -> None:
    data = _claude(repo, tmp_path, tool_name="MultiEdit", tool_input=tool_input)
    assert hostile(repo, "record", "--from", "claude-code", stdin=data).returncode == 0
    assert pending_mutations(repo) == 1  # the gate applies to this work tree


@pytest.mark.parametrize(
    "tool_input",
    [
        pytest.param({"file_path": "src/a\0pp.py", "content": "x"}, id="nul-in-file-path"),
        pytest.param({"file_path": {"nested": [1, 2]}, "content": "x"}, id="file-path-an-object"),
    ],
)
def test_an_unreadable_written_path_records_nothing_in_one_line(
    repo: Path, tmp_path: Path, tool_input: dict[str, object]
) -> None:
    """The dirty work tree is never attributed wholesale to a writer whose path is
    unreadable (SPEC §3): the hook exits non-blocking, saying so in one line."""
    data = _claude(repo, tmp_path, tool_name="MultiEdit", tool_input=tool_input)
    proc = hostile(repo, "record", "--from", "claude-code", stdin=data)
    assert proc.returncode == 1, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.endswith(b"; nothing recorded") and b"tool_input.file_path" in line
    assert pending_mutations(repo) == 0


def _transcript_fifo(tmp: Path) -> str:
    fifo = tmp / "transcript.fifo"
    os.mkfifo(fifo)
    return str(fifo)


def _transcript_deep(tmp: Path) -> str:
    path = tmp / "deep.jsonl"
    path.write_bytes(b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"\n")
    return str(path)


@pytest.mark.parametrize(
    "transcript",
    [
        pytest.param(lambda tmp: _transcript_fifo(tmp), id="fifo"),
        pytest.param(lambda tmp: "/dev/zero", id="dev-zero"),
        pytest.param(lambda tmp: "/tmp/a\0b.jsonl", id="nul-in-path"),
        pytest.param(_transcript_deep, id="deeply-nested-line"),
        pytest.param(lambda tmp: str(tmp), id="a-directory"),
    ],
)
def test_a_hostile_transcript_never_hangs_and_still_records(
    repo: Path, tmp_path: Path, transcript: object
) -> None:
    assert callable(transcript)
    data = _claude(repo, tmp_path, transcript_path=transcript(tmp_path))
    assert hostile(repo, "record", "--from", "claude-code", stdin=data, timeout=30).returncode == 0
    assert pending_mutations(repo) == 1


# --- non-UTF-8 paths --------------------------------------------------------------------------


@pytest.fixture
def latin1_repo(repo: Path) -> Path:
    """The repository with a pending file whose name is not UTF-8, recorded by a writer."""
    (repo / NON_UTF8).write_bytes(b"x = 1\n")
    proc = hostile(repo, "record", "--model", "m", "--effort", "low", NON_UTF8)
    assert proc.returncode == 0, proc.stderr
    return repo


def test_a_non_utf8_path_is_recorded_and_read_back(latin1_repo: Path) -> None:
    assert pending_mutations(latin1_repo) == 1
    human = hostile(latin1_repo, "status").stdout.decode("utf-8")
    assert "caf\\xe9-\\xff.txt" in human


@pytest.mark.parametrize(
    "args",
    [
        ("status", "--json"),
        ("assess", "--json"),
        ("spot-check", "--readback", "--json"),
        ("record", "--json", "--model", "m", "--effort", "low", NON_UTF8),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_json_names_a_non_utf8_path_in_valid_json(latin1_repo: Path, args: Sequence[str]) -> None:
    proc = hostile(latin1_repo, *args)
    assert proc.returncode == 0, proc.stderr
    strict_json(proc.stdout)
    assert b"caf\\\\xe9-\\\\xff.txt" in proc.stdout  # the documented \xHH form


def test_assess_json_changes_name_the_path_escaped(latin1_repo: Path) -> None:
    out = strict_json(hostile(latin1_repo, "assess", "--json").stdout)
    assert isinstance(out, dict)
    assert "caf\\xe9-\\xff.txt" in [c["path"] for c in out["changes"]]


def test_a_commit_of_a_non_utf8_path_passes_the_gate_with_its_records(latin1_repo: Path) -> None:
    assert (
        hostile(latin1_repo, "receipt", "run", "--", sys.executable, "-c", "pass").returncode == 0
    )
    assert hostile(latin1_repo, "spot-check").returncode == 0
    git(latin1_repo, "add", "-A")
    proc = hostile(latin1_repo, "hook", "pre-commit")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("option", "env"),
    [
        pytest.param(("--model", os.fsdecode(b"gpt\xff")), {}, id="model"),
        pytest.param((), {"GENTLE_HOOKS_SKIP": os.fsdecode(b"r\xff")}, id="skip-reason"),
    ],
)
def test_non_utf8_text_in_records_reaches_the_note_and_the_gate_reads_it(
    repo: Path, option: tuple[str, ...], env: dict[str, str]
) -> None:
    (repo / NON_UTF8).write_bytes(b"x = 1\n")
    model = option or ("--model", "m")
    assert hostile(repo, "record", *model, "--effort", "low", NON_UTF8).returncode == 0
    run = hostile(repo, "receipt", "run", "--", sys.executable, "-c", "pass", NON_UTF8)
    assert run.returncode == 0, run.stderr
    git(repo, "add", "-A")
    hook_env = env
    hostile(repo, "hook", "pre-commit", env=hook_env)
    git(repo, "commit", "-q", "--no-verify", "-m", "latin-1")
    post = hostile(repo, "hook", "post-commit", env=hook_env)
    assert post.returncode == 0, post.stderr
    assert "not valid text" not in post.stderr.decode()
    note = subprocess.run(
        ["git", "notes", "--ref", NOTES, "show", "HEAD"], cwd=repo, capture_output=True, check=True
    ).stdout
    text = note.decode("utf-8")  # the note is UTF-8 JSON lines
    assert '"b64"' in text
    from gentle_hooks.notes.codec import parse
    from gentle_hooks.notes.lines import ReceiptLine, WriterLine

    parsed = parse(note)
    assert not parsed.problems
    assert any(NON_UTF8 in r.command for r in parsed.of(ReceiptLine))
    if option:
        assert [w.model for w in parsed.of(WriterLine)] == [option[1]]
    gate = hostile(repo, "gate", "--range", "HEAD~1..HEAD", "--json")
    assert b"malformed" not in gate.stdout.lower(), gate.stdout


# --- closed standard streams ------------------------------------------------------------------


def _with_closed(
    repo: Path, args: Sequence[str], closed: Sequence[int], stdout: object = None
) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with the descriptors ``closed`` closed, as ``<&-`` / ``>&-`` do."""

    def close() -> None:
        for fd in closed:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args],
        cwd=repo,
        stdin=subprocess.DEVNULL,
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=close,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "closed"),
    [
        (("verdict", "add", "-"), (0,)),
        (("quorum", "tally", "--claim", "c", "-"), (0,)),
        (("quorum", "audit", "-"), (0,)),
        (("brief", "check", "-"), (0,)),
        (("hook", "pre-push", "origin", "x"), (0,)),
        (("hook", "post-rewrite", "amend"), (0,)),
        (("hook", "pre-receive"), (0,)),
        (("assess", "--json"), (1,)),
    ],
    ids=lambda a: " ".join(map(str, a)),
)
def test_a_closed_standard_stream_is_one_line_exit_2(
    repo: Path, args: Sequence[str], closed: Sequence[int]
) -> None:
    proc = _with_closed(repo, args, closed)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "is closed" in err, err


def test_pre_commit_with_standard_output_closed_still_finds_the_repository(repo: Path) -> None:
    proc = _with_closed(repo, ("hook", "pre-commit"), (1,))
    assert "not inside a git repository" not in proc.stderr.decode()
    assert proc.returncode == 0, proc.stderr


def test_output_to_a_full_device_with_standard_error_closed_exits_2(repo: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = _with_closed(repo, ("status", "--json"), (2,), stdout=full)
    assert proc.returncode == 2


# --- scratch directories of killed runs -------------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True
    )
    return int(proc.stdout)


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A private temporary directory holding a killed run's note, signing and verifying
    scratch directories, a live one's, and a link in a dead one's name."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    dead = _dead_pid()
    for kind in ("notes", "sign", "verify"):
        (tmp / f"gentle-hooks-{kind}-{dead}-abc").mkdir()
        (tmp / f"gentle-hooks-{kind}-{dead}-abc" / "n0").write_text("x")
    (tmp / f"gentle-hooks-notes-{os.getpid()}-live").mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    (tmp / f"gentle-hooks-sign-{dead}-link").symlink_to(outside)
    return tmp, {"TMPDIR": str(tmp)}


def _left(tmp: Path) -> list[str]:
    return sorted(p.name.rsplit("-", 1)[1] for p in tmp.iterdir())


def test_doctor_reports_and_fix_removes_only_dead_scratch_directories(
    repo: Path, scratch: tuple[Path, dict[str, str]]
) -> None:
    tmp, env = scratch
    report = hostile(repo, "doctor", env=env)
    assert b"gentle-hooks-notes-" in report.stdout and b"--fix" in report.stdout, report.stdout
    hostile(repo, "doctor", "--fix", env=env)
    assert _left(tmp) == ["link", "live"]
    assert (tmp.parent / "outside" / "keep").exists()


def test_writing_a_note_sweeps_dead_scratch_directories(
    repo: Path, scratch: tuple[Path, dict[str, str]]
) -> None:
    tmp, env = scratch
    write(repo / "src" / "new.py", "x = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/new.py").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "c")
    assert hostile(repo, "hook", "post-commit", env=env).returncode == 0
    assert _left(tmp) == ["link", "live"]


# --- config files and the environment ---------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"\xff\xfe = 1\n", id="not-utf8"),
        pytest.param(b"a = " + b"[" * 10_000 + b"]" * 10_000 + b"\n", id="nested-arrays"),
        pytest.param(b"a = " + b"{b = " * 5_000 + b"1" + b"}" * 5_000 + b"\n", id="nested-tables"),
        pytest.param(b"[gate]\napplies_to = 5\n", id="wrong-type"),
        pytest.param(b"x" * (17 * 1024 * 1024), id="too-large"),
    ],
)
@pytest.mark.parametrize("command", [("hook", "pre-commit"), ("assess",)], ids=" ".join)
def test_a_hostile_config_file_is_one_line_exit_2(
    repo: Path, content: bytes, command: Sequence[str]
) -> None:
    (repo / ".gentle-hooks.toml").write_bytes(content)
    write(repo / "src" / "app.py", "x = 2\n")
    git(repo, "add", "-A")
    proc = hostile(repo, *command)
    assert proc.returncode == 2, proc.stderr
    assert b".gentle-hooks.toml" in proc.stderr


@pytest.mark.parametrize(
    "pattern",
    ["(a*)*b", "(?:x+y?){2,}z", "(?=(a+)+)c", "(a|a)*$", "(a|ab)+c", "(?:.|\\n)*x", "(a|)*b"],
)
@pytest.mark.parametrize("command", [("hook", "pre-commit"), ("assess",)], ids=" ".join)
def test_a_process_pattern_with_a_nested_repeat_is_refused_at_load(
    repo: Path, pattern: str, command: Sequence[str]
) -> None:
    (repo / ".gentle-hooks.toml").write_text(f"[risk]\nprocess_patterns = [{pattern!r}]\n")
    write(repo / "src" / "slow.py", "a" * 40 + "\n")  # what such a pattern takes ages on
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/slow.py").returncode == 0
    git(repo, "add", "-A")
    proc = hostile(repo, *command, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert b".gentle-hooks.toml: risk.process_patterns" in proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_config_file_that_is_not_a_regular_file_is_refused(repo: Path, kind: str) -> None:
    target = repo / ".gentle-hooks.toml"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    proc = hostile(repo, "assess", timeout=30)
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr, proc.stderr


@pytest.mark.parametrize("value", [os.fsdecode(b"\xff"), "a\x01b", "-x", "@{-9999}", "x" * 5000])
def test_a_hostile_base_ref_from_the_environment(repo: Path, value: str) -> None:
    write(repo / "src" / "app.py", "x = 2\n")
    env = {"GENTLE_HOOKS_BASE_REF": value}
    assert hostile(repo, "assess", env=env).returncode in (0, 2)
    git(repo, "add", "-A")
    assert hostile(repo, "hook", "pre-commit", env=env).returncode in (0, 1, 2)


@pytest.mark.parametrize(("value", "named"), [(b"\xff", "'\\xff'"), (b"a'\xfe", '"a\'\\xfe"')])
def test_a_base_ref_that_is_not_utf8_is_named_by_its_bytes(
    repo: Path, value: bytes, named: str
) -> None:
    """The byte git would see, ``\\xff``, not the ``\\udcff`` Python keeps it as."""
    proc = hostile(repo, "assess", env={"GENTLE_HOOKS_BASE_REF": os.fsdecode(value)})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode() == (
        f"gentle-hook: error: configured base_ref {named} is not a known ref or commit "
        "(see: git branch -a)\n"
    )


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("gentle.mode", "is not one of enforce, warn"),
        ("gentle.stakes", "is not one of ordinary, shipping, audit"),
        ("gentle.appliesto", "is not one of delegated, all"),
        ("gentle.requiresigned", "is not a boolean"),
        ("gentle.nativetimeout", "is not a timeout in seconds (0 < t <= 600)"),
        ("gentle.rdd", "RDD mode must be on, off or unknown, not"),
    ],
)
def test_a_git_config_value_that_is_not_utf8_is_named_by_its_bytes(
    repo: Path, key: str, words: str
) -> None:
    """Every echo of a ``gentle.*`` value writes a byte that is not UTF-8 as ``\\xHH``
    (docs/robustness.md), never the ``\\udcHH`` Python keeps it as."""
    subprocess.run(["git", "-C", str(repo), "config", key, os.fsencode("a") + b"\xff"], check=True)
    for args in (("status",), ("assess",))[: 1 if key == "gentle.rdd" else 2]:
        proc = hostile(repo, *args)
        err = proc.stderr.decode()
        assert proc.returncode == 2, err
        assert f"git config {key}: " in err and words in err, err
        assert "'a\\xff'" in err and "udc" not in err, err


@pytest.mark.parametrize("value", ["a\rb", "a\x1b[31mb", "a\u2028b", "a\x85b"])
def test_an_echoed_base_ref_can_neither_split_the_error_line_nor_drive_the_terminal(
    repo: Path, value: str
) -> None:
    """A dirty work tree makes assess refuse, echoing the base ref: its control characters
    and line breaks are written as escapes, so the error stays one line."""
    write(repo / "src" / "app.py", "x = 2\n")
    proc = hostile(repo, "assess", "--json", "--base-ref", value)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert "\x1b" not in err and "\r" not in err and "\u2028" not in err and "\x85" not in err
    assert "a\\x" in err or "a\\u2028b" in err, err


# --- quorum files -----------------------------------------------------------------------------


def test_a_4301_digit_number_in_a_verdict_abstains_or_exits_2(tmp_path: Path) -> None:
    verdict = tmp_path / "v.json"
    verdict.write_text(
        '{"refuted": true, "reason": "r", "whatIChecked": "src/a.py:1", "durationMs": '
        + "9" * 4301
        + "}"
    )
    proc = hostile(tmp_path, "quorum", "tally", "--claim", "c", str(verdict))
    assert proc.returncode in (0, 2)


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "directory"])
def test_quorum_tally_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        target = str(tmp_path / "v.fifo")
        os.mkfifo(target)
    elif kind == "directory":
        target = str(tmp_path)
    else:
        target = kind
    proc = hostile(tmp_path, "quorum", "tally", "--claim", "c", target, timeout=30)
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr, proc.stderr


# --- note lines read by the range gate and pre-receive ---------------------------------------


def _candidate_line(repo: Path, commit: str) -> dict[str, object]:
    from gentle_hooks.values.candidate import candidate_identity

    tree = git(repo, "rev-parse", f"{commit}^{{tree}}").strip()
    base = git(repo, "rev-parse", f"{commit}~1^{{tree}}").strip()
    return {
        "kind": "candidate",
        "commit": commit,
        "identity": candidate_identity(base, tree),
        "base_tree": base,
        "tree": tree,
    }


def _nested(depth: int) -> str:
    return '{"v":1,"kind":"receipt","identity":"x","command":' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(['{"v":1,"kind":"escalation","item":2}'], id="escalation-without-slug"),
        pytest.param(
            ['{"v":1,"kind":"escalation","item":2,"slug":"security"}'],
            id="escalation-without-reason",
        ),
        pytest.param([_nested(10_000)], id="nested-10000"),
        pytest.param(
            ['{"v":1,"kind":"receipt","identity":"@ID@","command":{"a":1},"observed":"ok"}'],
            id="command-a-dict",
        ),
        pytest.param(
            ['{"v":1,"kind":"spot_check","identity":"@ID@","command":{"a":1},"check":[]}'],
            id="spot-check-fields-wrong-types",
        ),
        pytest.param(['{"v":1,"kind":"writer","model":{},"effort":[]}'], id="writer-wrong-types"),
        pytest.param(
            ['{"v":1,"kind":"override","identity":"@ID@","hook":1,"who":2,"missing":{}}'],
            id="override-wrong-types",
        ),
        pytest.param(
            ['{"v":1,"kind":"verdict","identity":"@ID@","verdict":' + "9" * 5000 + "}"],
            id="verdict-huge-number",
        ),
    ],
)
def test_hostile_note_lines_never_crash_the_range_or_server_gate(
    server: Path, lines: list[str]
) -> None:
    b = clone(server, "b")
    bad = delegated_change(b, "def f():\n    return 9\n", spot_check=False)
    cand = _candidate_line(b, bad)
    body = json.dumps({"v": 1, **cand}, sort_keys=True) + "\n"
    body += "".join(line.replace("@ID@", str(cand["identity"])) + "\n" for line in lines)
    git(b, "notes", f"--ref={NOTES}", "add", "-f", "-m", body, bad)
    gate = hostile(b, "gate", "--range", "origin/main..HEAD")
    assert gate.returncode in (1, 2), gate.stderr  # never passes an unverified commit
    as_json = hostile(b, "gate", "--range", "origin/main..HEAD", "--json")
    strict_json(as_json.stdout)
    push = subprocess.run(
        ["git", "push", "--no-verify", "origin", "HEAD", NOTES],
        cwd=b,
        capture_output=True,
        timeout=120,
        check=False,
    )
    err = push.stderr.decode("utf-8", "replace")
    assert push.returncode == 1, err  # rejected: the spot check is missing
    assert "Traceback" not in err and "unexpected error" not in err, err


# --- integer options and ids ------------------------------------------------------------------

HUGE = "9" * 21  # beyond SQLite's 64-bit INTEGER


@pytest.mark.parametrize(
    "args",
    [
        ("spot-check", "--receipt", HUGE),
        ("spot-check", "--receipt", "-" + HUGE),
        ("verdict", "show", HUGE),
        ("receipt", "add", "--exit-code", HUGE, "pytest: 3 passed"),
        ("gate", "--range", "HEAD..HEAD", "--timeout", "1e400"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_huge_integer_option_is_one_line_exit_2(repo: Path, args: Sequence[str]) -> None:
    proc = hostile(repo, *args)
    assert proc.returncode == 2, proc.stderr


@pytest.mark.parametrize(
    "args", [("sync",), ("sync", "sideways"), ("review", "--outcome", "maybe")], ids=" ".join
)
def test_a_click_choice_error_is_one_line(repo: Path, args: Sequence[str]) -> None:
    proc = hostile(repo, *args)  # asserts one line
    assert proc.returncode == 2 and b"\t" not in proc.stderr, proc.stderr


# --- the commit message file a hook is given --------------------------------------------------


def _message_file(tmp: Path, kind: str) -> str:
    if kind == "/dev/zero":
        return kind
    fifo = tmp / "COMMIT_EDITMSG.fifo"
    os.mkfifo(fifo)
    return str(fifo)


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_commit_msg_refuses_a_message_file_that_is_not_regular(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    proc = hostile(repo, "hook", "commit-msg", _message_file(tmp_path, kind), timeout=30)
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_prepare_commit_msg_refuses_a_message_file_that_is_not_regular(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    git(repo, "add", "-A")
    message = _message_file(tmp_path, kind)
    proc = hostile(repo, "hook", "prepare-commit-msg", message, "message", timeout=30)
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr, proc.stderr


# --- ledger rows of the wrong shape -----------------------------------------------------------


def _edit_ledger(repo: Path, sql: str) -> None:
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        *pragmas, update = sql.split("; ")
        for pragma in pragmas:
            conn.execute(pragma)
        assert conn.execute(update).rowcount >= 1
        conn.commit()


@pytest.fixture
def recorded_repo(repo: Path) -> Path:
    """A repository whose writer changed src/app.py (staged) and ran a receipt."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    assert hostile(repo, "receipt", "run", "--", sys.executable, "-c", "pass").returncode == 0
    git(repo, "add", "-A")
    return repo


@pytest.mark.parametrize("column", ["added", "removed"])
@pytest.mark.parametrize("args", [("hook", "pre-commit"), ("status",), ("assess",)])
def test_a_writer_entry_of_the_wrong_shape_is_named_and_doctor_agrees(
    recorded_repo: Path, column: str, args: Sequence[str]
) -> None:
    _edit_ledger(recorded_repo, f"UPDATE writer_entry SET {column}='[[1]]'")
    proc = hostile(recorded_repo, *args)
    assert proc.returncode == 2 and b"writer_entry row" in proc.stderr, proc.stderr
    doctor = hostile(recorded_repo, "doctor")
    assert doctor.returncode == 2 and b"writer_entry row" in doctor.stdout + doctor.stderr


@pytest.mark.parametrize("argv", ["[1]", "[[1]]", "[null]", '{"a": 1}'])
def test_a_receipt_argv_of_the_wrong_shape_is_named_and_doctor_agrees(
    recorded_repo: Path, argv: str
) -> None:
    _edit_ledger(recorded_repo, f"UPDATE receipt SET argv='{argv}'")
    proc = hostile(recorded_repo, "spot-check")
    assert proc.returncode == 2 and b"receipt row" in proc.stderr, proc.stderr
    doctor = hostile(recorded_repo, "doctor")
    assert doctor.returncode == 2 and b"receipt row" in doctor.stdout + doctor.stderr


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("pending_mutation", "recorded_at", "'x'"),
        ("pending_mutation", "recorded_at", "X'FF00'"),
        ("pending_mutation", "recorded_at", "'[\"a\",null]'"),
        ("pending_mutation", "recorded_at", "'{\"a\":1}'"),
        ("pending_mutation", "paths", "'{\"a\":1}'"),
        ("writer_entry", "mutation_id", "'x'"),
        ("writer_entry", "binary", "7"),
        ("writer_entry", "state", "'zzz'"),
        ("receipt", "exit_code", "'x'"),
        ("receipt", "kind", "'x'"),
        # BLOBs in text columns: only text UTF-8 cannot encode is stored as one
        ("receipt", "command", "CAST('echo hi' AS BLOB)"),
        ("pending_mutation", "model", "CAST(model AS BLOB)"),
        ("pending_mutation", "paths", "CAST(paths AS BLOB)"),
    ],
)
def test_a_bad_value_in_a_column_is_one_line_naming_it_and_doctor_fails(
    recorded_repo: Path, table: str, column: str, value: str
) -> None:
    _edit_ledger(
        recorded_repo, f"PRAGMA ignore_check_constraints = ON; UPDATE {table} SET {column}={value}"
    )
    for args in (("status", "--json"), ("status",), ("hook", "pre-commit")):
        proc = hostile(recorded_repo, *args)
        err = proc.stderr.decode()
        assert proc.returncode == 2, (args, err)
        assert f"{table} row 1 column {column}:" in err and "gentle-hook doctor" in err, err
        assert "ledger.sqlite3" in err
    doctor = hostile(recorded_repo, "doctor")
    assert doctor.returncode == 2
    assert f"{table} row 1 column {column}:" in doctor.stdout.decode(), doctor.stdout


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("escalation", "item", "9"),
        ("escalation", "item", "'x'"),
        ("escalation", "critical", "5"),
        ("receipt", "kind", "'x'"),
        ("writer_entry", "binary", "2"),
    ],
)
def test_a_row_breaking_a_check_constraint_is_named_by_doctor_and_records_still_land(
    recorded_repo: Path, table: str, column: str, value: str
) -> None:
    escalate = ("escalate", "--item", "1", "--reason", "r")
    assert hostile(recorded_repo, *escalate).returncode == 0
    _edit_ledger(
        recorded_repo, f"PRAGMA ignore_check_constraints = ON; UPDATE {table} SET {column}={value}"
    )
    doctor = hostile(recorded_repo, "doctor")
    report = doctor.stdout.decode()
    assert doctor.returncode == 2 and f"CHECK constraint failed in {table}" in report, report
    assert f"{table} row 1 column {column}:" in report, report
    # a record that does not depend on the bad row lands (one that does is refused naming it)
    write(recorded_repo / "src" / "other.py", "X = 1\n")
    proc = hostile(recorded_repo, "record", "--model", "m2", "--effort", "low", "src/other.py")
    assert proc.returncode == 0, proc.stderr
    assert pending_mutations(recorded_repo) == 2


@pytest.mark.parametrize("seq", [2**63 - 1, 2**63 - 2, 2**63 - 2**32])
def test_an_id_counter_at_its_end_is_found_by_doctor_and_set_back_by_fix(
    recorded_repo: Path, seq: int
) -> None:
    """``sqlite_sequence`` at (or near) the largest id: records fail "database or disk is
    full" (the file is sound); doctor fails naming the counter, --fix sets it back to the
    highest id the table holds in one transaction, and records land again, numbered on."""
    _edit_ledger(recorded_repo, f"UPDATE sqlite_sequence SET seq = {seq}")
    write(recorded_repo / "src" / "other.py", "X = 1\n")
    record = ("record", "--model", "m2", "--effort", "low", "src/other.py")
    if seq == 2**63 - 1:  # no id left: the record is refused in one line, naming doctor
        failed = hostile(recorded_repo, *record)
        assert failed.returncode == 2 and b"database or disk is full" in failed.stderr
        assert b"gentle-hook doctor" in failed.stderr, failed.stderr
    doctor = hostile(recorded_repo, "doctor")
    report = doctor.stdout.decode()
    assert doctor.returncode == 2, report
    [line] = [x for x in report.splitlines() if x.startswith("FAIL  counters: ")]
    assert f" is {seq}, at the end of SQLite's ids" in line, line
    assert "fails with 'database or disk is full'" in line and line.endswith(" doctor --fix")
    fixed = hostile(recorded_repo, "doctor", "--fix")
    said = fixed.stdout.decode()
    assert "reset the id counter of pending_mutation" in said and f"{seq} -> 1 " in said, said
    assert fixed.returncode == 0 and "ok    counters: every table numbers new records" in said
    assert hostile(recorded_repo, *record).returncode == 0
    ledger = recorded_repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM pending_mutation ORDER BY id")]
    assert ids == [1, 2]  # numbered on from the highest id, every earlier row kept


# --- push hooks' standard input ---------------------------------------------------------------

ZERO = "0" * 40


def test_endless_pre_push_input_ends_at_once_in_one_line(repo: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-m", "gentle_hooks", "hook", "pre-push", "origin", "x"],
            cwd=repo,
            stdin=zero,
            capture_output=True,
            timeout=30,
            check=False,
        )
    assert proc.returncode == 2 and b"larger than" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_pre_push_input_held_open_ends_within_its_time_limit(repo: Path) -> None:
    with subprocess.Popen(["sleep", "45"], stdout=subprocess.PIPE) as sleeper:
        assert sleeper.stdout is not None
        proc = subprocess.run(
            [sys.executable, "-m", "gentle_hooks", "hook", "pre-push", "origin", "x"],
            cwd=repo,
            stdin=sleeper.stdout,
            capture_output=True,
            timeout=40,
            check=False,
        )
        sleeper.kill()
    assert proc.returncode == 2, proc.stderr
    assert b"stayed open 30s" in proc.stderr


@pytest.mark.parametrize("hook", [("pre-push", "origin", "x"), ("pre-receive",)])
def test_too_many_ref_lines_are_refused_in_one_line(repo: Path, hook: tuple[str, ...]) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    if hook[0] == "pre-push":
        lines = [f"refs/heads/b{i} {head} refs/heads/b{i} {ZERO}" for i in range(10_001)]
    else:
        lines = [f"{ZERO} {head} refs/heads/b{i}" for i in range(10_001)]
    proc = hostile(repo, "hook", *hook, stdin="\n".join(lines).encode() + b"\n")
    assert proc.returncode == 2 and b"more than 10000 ref lines" in proc.stderr, proc.stderr


def test_repeated_pre_push_lines_are_judged_once(recorded_repo: Path) -> None:
    git(recorded_repo, "commit", "-qm", "writer change")
    head = git(recorded_repo, "rev-parse", "HEAD").strip()
    line = f"refs/heads/main {head} refs/heads/main {ZERO}\n".encode()
    # the first push judgement records the commit made without hooks (and says so): the
    # comparison is of the judgements after it
    hostile(recorded_repo, "hook", "pre-push", "origin", "x", stdin=line)
    once = hostile(recorded_repo, "hook", "pre-push", "origin", "x", stdin=line)
    many = hostile(recorded_repo, "hook", "pre-push", "origin", "x", stdin=line * 1000, timeout=60)
    assert many.returncode == once.returncode
    assert many.stdout + many.stderr == once.stdout + once.stderr


def test_a_push_line_naming_a_missing_object_fails_closed(repo: Path) -> None:
    line = f"refs/heads/main {'1' * 40} refs/heads/main {ZERO}\n".encode()
    proc = hostile(repo, "hook", "pre-push", "origin", "x", stdin=line)
    assert proc.returncode == 2 and b"does not exist" in proc.stderr, proc.stderr
    deletion = f"(delete) {ZERO} refs/heads/gone {'1' * 40}\n".encode()
    assert hostile(repo, "hook", "pre-push", "origin", "x", stdin=deletion).returncode == 0
    received = f"{ZERO} {'1' * 40} refs/heads/z\n".encode()
    proc = hostile(repo, "hook", "pre-receive", stdin=received)
    assert proc.returncode == 2 and b"does not exist" in proc.stderr, proc.stderr


# --- the state directory replaced -------------------------------------------------------------


@pytest.mark.parametrize("args", [("hook", "pre-commit"), ("hook", "post-commit"), ("status",)])
def test_a_state_directory_replaced_by_a_file_fails_closed(
    recorded_repo: Path, args: Sequence[str]
) -> None:
    state = recorded_repo / ".git" / "gentle-hooks"
    for child in sorted(state.rglob("*"), reverse=True):
        child.unlink() if not child.is_dir() else child.rmdir()
    state.rmdir()
    state.write_text("not a directory\n")
    proc = hostile(recorded_repo, *args)
    assert proc.returncode == 2 and b"not a directory" in proc.stderr, proc.stderr
    assert str(state).encode() in proc.stderr


# --- nested JSON strings in a runtime payload -------------------------------------------------


@pytest.mark.parametrize("escape", ["\\\\ud800", "\\ud800"], ids=["in-tool-args", "in-the-string"])
def test_copilot_tool_args_with_a_lone_surrogate_records_nothing(repo: Path, escape: str) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    inner = f'{{\\"path\\":\\"{repo}/src/app.py{escape}\\"}}'
    payload = (
        f'{{"timestamp": 1700000000000, "cwd": "{repo}", "toolName": "edit", '
        f'"toolArgs": "{inner}", "sessionId": "s1", '
        '"toolResult": {"resultType": "success", "textResultForLlm": ""}}'
    )
    proc = hostile(repo, "record", "--from", "copilot", stdin=payload.encode())
    assert proc.returncode == 1, proc.stderr  # non-blocking: the path is not valid text
    [line] = proc.stderr.strip().splitlines()
    assert b"toolArgs.path is not valid text" in line and line.endswith(b"; nothing recorded")
    assert pending_mutations(repo) == 0


@pytest.mark.parametrize("runtime", ["codex", "claude-code", "gemini-cli", "copilot"])
def test_a_runtime_cwd_that_is_not_text_still_records(
    repo: Path, tmp_path: Path, runtime: str
) -> None:
    data, filled = materialize(runtime, repo, tmp_path / "scratch", cwd=f"{repo}\ud800")
    apply_writes(filled, repo)
    proc = hostile(repo, "record", "--from", runtime, stdin=data)
    assert proc.returncode == 0, proc.stderr
    assert pending_mutations(repo) == 1  # the hook runs in the work tree it wrote


@pytest.mark.parametrize("number", ["1e400", "NaN", "Infinity", "-Infinity", "9" * 4300])
def test_a_copilot_timestamp_that_is_no_moment_still_records(
    repo: Path, tmp_path: Path, number: str
) -> None:
    data, filled = materialize("copilot", repo, tmp_path / "scratch", timestamp="@NUMBER@")
    apply_writes(filled, repo)
    proc = hostile(
        repo, "record", "--from", "copilot", stdin=data.replace(b'"@NUMBER@"', number.encode())
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(b"recorded: pending mutation #1: "), proc.stderr
    assert pending_mutations(repo) == 1


# --- the server's allowed-signers file ------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_an_allowed_signers_path_that_is_no_regular_file_is_one_line(repo: Path, kind: str) -> None:
    """``gentle.allowedSigners`` naming a FIFO or ``/dev/zero`` is refused in one line
    (exit 2), never read until it ends (a hang, or memory until the machine gives up)."""
    write(repo / "README.md", "# two\n")
    git(repo, "commit", "-qam", "two")
    if kind == "fifo":
        os.mkfifo(repo / ".git" / "signers")
        named = "signers"
    else:
        named = "/dev/zero"
    git(repo, "config", "gentle.requireSigned", "true")
    git(repo, "config", "gentle.allowedSigners", named)
    proc = hostile(repo, "gate", "--range", "HEAD~1..HEAD", timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert b"gate.allowed_signers:" in proc.stderr and b"not a regular file" in proc.stderr


def test_agent_input_too_large_even_without_long_strings_exits_1_as_documented(
    repo: Path,
) -> None:
    from gentle_hooks.agents.payload import STDIN_LIMIT
    from gentle_hooks.agents.runtimes import runtime

    # nine megabytes of short strings: nothing to blank, so it stays over the limit
    data = b"[" + b'"s",' * (STDIN_LIMIT // 4 + 1024) + b'"s"]'
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "record", "--from", "claude-code"],
        cwd=repo,
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )
    [line] = proc.stderr.decode().splitlines()
    assert proc.returncode == runtime("claude-code").failure_exit == 1, line
    assert "even with its long strings" in line and line.endswith("; nothing recorded")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "robustness.md").read_text()
    [row] = [r for r in docs.splitlines() if r.startswith("| an agent runtime's hook input")]
    assert row.split(" | ")[-1].startswith("exit 1 with `; nothing recorded`"), row
