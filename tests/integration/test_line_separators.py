"""Text holding a Unicode line separator travels intact (issue 16, refuter finding 1 and 2).

A note line is JSON written with ``ensure_ascii=False``: U+2028, U+2029 and U+0085 stay
as they are inside its strings. Every reader of note text, git output and hook standard
input cuts lines at ``\\n`` only, so such text round-trips and its record is not lost.
Real git throughout: the note is written with ``git notes`` and judged by ``gate --range``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gentle_hooks.notes.codec import NOTES_REF, merge, parse, render
from gentle_hooks.notes.lines import EscalationLine, decode, encode
from gentle_hooks.values.frozen import replace
from tests.conftest import gh, git, write

#: Every separator :meth:`str.splitlines` cuts at.
SEPARATORS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

with_separator = st.tuples(st.text(), st.sampled_from(SEPARATORS), st.text()).map("".join)


@given(with_separator, with_separator)
def test_any_text_with_a_line_separator_round_trips_through_a_note(a: str, b: str) -> None:
    lines = [EscalationLine(item=4, slug="security", reason=a), EscalationLine(1, "x", b)]
    note = render(encode(x) for x in lines)
    assert note.count(b"\n") == len(set(lines))  # one note line per record
    assert set(parse(note).lines) == set(lines)
    assert set(parse(merge(note, note)).lines) == set(lines)
    assert decode(encode(lines[0])) == lines[0]


def _escalated_commit(repo: Path, reason: str) -> None:
    """The refuter's repro: a writer's change escalated for security with ``reason``,
    receipted and spot-checked, committed past the local hook."""
    write(repo / "app.py", "def f():\n    return 1\n")
    write(repo / "t.py", "from app import f\nassert f() == 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    assert gh(repo, "install").returncode == 0
    with (repo / "app.py").open("a") as fh:
        fh.write("# w\n")
    for args in (
        ("record", "--model", "o4-mini", "--effort", "low", "app.py"),
        ("escalate", "--item", "security", "--reason", reason),
    ):
        proc = gh(repo, *args)
        assert proc.returncode == 0, proc.stderr
    git(repo, "add", "-A")
    for args in (
        ("receipt", "run", "--staged", "--", sys.executable, "t.py"),
        ("spot-check", "--staged"),
    ):
        proc = gh(repo, *args)
        assert proc.returncode == 0, proc.stderr
    assert gh(repo, "hook", "pre-commit").returncode == 1
    git(repo, "commit", "--no-verify", "-qm", "x")


def test_an_escalation_reason_with_u2028_still_blocks_the_range_gate(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    _escalated_commit(repo, "token check changed\u2028see ticket")
    note = git(repo, "notes", f"--ref={NOTES_REF}", "show", "HEAD").encode(
        "utf-8", "surrogateescape"
    )
    parsed = parse(note)
    assert parsed.problems == ()
    assert [x.reason for x in parsed.of(EscalationLine)] == ["token check changed\u2028see ticket"]
    proc = gh(repo, "gate", "--range", "HEAD~1..HEAD")
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "refused" not in proc.stderr


def test_any_separator_in_a_noted_reason_survives_git_notes_and_gate_range(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    _escalated_commit(repo, "plain reason")
    original = git(repo, "notes", f"--ref={NOTES_REF}", "show", "HEAD").encode()
    (escalation,) = parse(original).of(EscalationLine)
    others = [x for x in original.decode().split("\n") if x and x != encode(escalation)]
    note_file = tmp_path / "note"

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(with_separator.map(lambda t: "r" + t))
    def round_trip(reason: str) -> None:
        line = replace(escalation, reason=reason)
        note = render([*others, encode(line)])
        note_file.write_bytes(note)
        git(repo, "notes", f"--ref={NOTES_REF}", "add", "-f", "-F", str(note_file), "HEAD")
        stored = git(repo, "notes", f"--ref={NOTES_REF}", "show", "HEAD").encode(
            "utf-8", "surrogateescape"
        )
        assert stored == note
        assert parse(stored).of(EscalationLine) == (line,)
        proc = gh(repo, "gate", "--range", "HEAD~1..HEAD")
        assert proc.returncode == 1, (reason, proc.stdout, proc.stderr)
        assert "refused" not in proc.stderr

    round_trip()


def test_pre_push_judges_a_branch_whose_name_holds_a_line_separator(tmp_path: Path) -> None:
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    repo = tmp_path / "repo"
    git(tmp_path, "clone", "-q", str(bare), str(repo))
    write(repo / "README.md", "# project\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    git(repo, "push", "-q", "origin", "main")
    assert gh(repo, "install").returncode == 0
    for name in ("fix\u2028docs", "fix\x85docs"):
        git(repo, "switch", "-q", "-c", name, "main")
        write(repo / "README.md", f"# project {len(name)}{name[3]!r}\n")
        git(repo, "commit", "-qam", "human docs")
        hook = gh(repo, "hook", "pre-push", "origin", str(bare), input=_push_line(repo, name))
        assert hook.returncode == 0, hook.stderr
        git(repo, "push", "-q", "origin", "HEAD")  # the installed hook, for real


def _push_line(repo: Path, name: str) -> str:
    head = git(repo, "rev-parse", "HEAD").strip()
    return f"refs/heads/{name} {head} refs/heads/{name} {'0' * 40}\n"


def test_a_one_line_flag_holding_a_line_separator_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    write(repo / "app.py", "x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    write(repo / "app.py", "x = 2\n")
    for model in ("o4\u2028mini", "o4\x85mini", "o4\u2029mini"):
        proc = gh(repo, "record", "--model", model, "--effort", "low", "app.py")
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "--model" in proc.stderr
        env = {"GENTLE_WRITER_MODEL": model}
        proc = gh(repo, "record", "--effort", "low", "app.py", env=env)
        assert proc.returncode == 2, proc.stderr
