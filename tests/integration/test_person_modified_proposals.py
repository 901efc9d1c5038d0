"""A person modified the model's proposal before Gemini CLI wrote it (SPEC §3, §7 "Hooks";
docs/agents/gemini-cli.md "A proposal a person modified").

Gemini CLI lets the person edit a ``write_file`` or ``replace`` proposal in an editor; the
``AfterTool`` input's ``tool_input`` then has ``modified_by_user: true``. Sources:
google-gemini/gemini-cli ``packages/core/src/tools/write-file.ts`` (``WriteFileToolParams``:
``modified_by_user`` "Whether the proposed content was modified by the user",
``ai_proposed_content`` "Initially proposed content"; ``createUpdatedParams`` sets
``ai_proposed_content: originalParams.content``, ``content`` the person's), ``edit.ts``
(``EditToolParams`` likewise; ``createUpdatedParams`` sets ``ai_proposed_content:
oldContent``, ``old_string: oldContent``, ``new_string: modifiedProposedContent``) and
``modifiable-tool.ts`` (``oldContent`` is the current file, the editor's left side),
``packages/core/src/core/coreToolHookTriggers.ts`` (``AfterTool`` gets
``invocation.params`` as ``tool_input``). The payload is the documented fixture
(tests/fixtures/agents/gemini-cli.json) with those members set.

Every test drives the real CLI on a real repository with the commit gate installed: a
commit holding only the person's lines passes, a commit holding a surviving model line is
blocked.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.agent_payloads import materialize
from tests.conftest import gh, git, write

START = "def add(a, b):\n    return a + b\n"
#: What the model proposed: two functions of its own.
PROPOSED = (
    START + "\n\ndef multiply_values(left, right):\n    return left * right\n"
    "\n\ndef divide_values(left, right):\n    return left / right\n"
)
#: The person's own function, written in the editor over the model's.
PERSONS = "\n\ndef subtract_numbers(first, second):\n    return first - second\n"


def _record(repo: Path, tmp_path: Path, tool: str, args: dict[str, object]) -> str:
    """Pipe Gemini CLI's ``AfterTool`` input for ``tool`` with ``args`` into the recorder;
    its standard error."""
    data, _ = materialize(
        "gemini-cli",
        repo,
        tmp_path / "runtime",
        tool_name=tool,
        tool_input={"file_path": str(repo / "src" / "app.py"), **args},
    )
    proc = gh(repo, "record", "--from", "gemini-cli", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def _commit(repo: Path, content: str) -> subprocess.CompletedProcess[str]:
    """Commit ``src/app.py`` holding ``content`` (the work tree keeps what it held)."""
    path = repo / "src" / "app.py"
    kept = path.read_text(encoding="utf-8")
    write(path, content)
    git(repo, "add", "src/app.py")
    write(path, kept)
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change"], cwd=repo, capture_output=True, text=True
    )


def _write_file(repo: Path, tmp_path: Path, written: str) -> str:
    write(repo / "src" / "app.py", written)
    return _record(
        repo,
        tmp_path,
        "write_file",
        {"content": written, "modified_by_user": True, "ai_proposed_content": PROPOSED},
    )


def test_a_proposal_the_person_rewrote_whole_records_none_of_their_lines(
    repo: Path, tmp_path: Path
) -> None:
    assert gh(repo, "install").returncode == 0
    err = _write_file(repo, tmp_path, START + PERSONS)
    assert "only the proposed lines that survive in the file are recorded" in err
    assert "no line the writer proposed is left in the file as written" in err
    done = _commit(repo, START + PERSONS)
    assert done.returncode == 0, done.stderr


def test_the_persons_lines_are_theirs_and_the_models_surviving_lines_stay_gated(
    repo: Path, tmp_path: Path
) -> None:
    assert gh(repo, "install").returncode == 0
    # the person kept the model's multiply_values, dropped divide_values, added their own
    kept = START + "\n\ndef multiply_values(left, right):\n    return left * right\n"
    _write_file(repo, tmp_path, kept + PERSONS)
    mine = _commit(repo, START + PERSONS)
    assert mine.returncode == 0, mine.stderr
    models = _commit(repo, kept + PERSONS)
    assert models.returncode == 1, models.stderr
    assert "src/app.py" in models.stderr


def test_a_proposal_taken_as_is_by_an_unflagged_write_is_the_writers(
    repo: Path, tmp_path: Path
) -> None:
    """Without ``modified_by_user`` the file as written is the writer's, whole."""
    assert gh(repo, "install").returncode == 0
    write(repo / "src" / "app.py", START + PERSONS)
    _record(repo, tmp_path, "write_file", {"content": START + PERSONS})
    assert _commit(repo, START + PERSONS).returncode == 1


def test_a_modified_replace_carries_no_proposal_so_every_changed_line_is_gated(
    repo: Path, tmp_path: Path
) -> None:
    """``replace``'s ``ai_proposed_content`` is the file before the edit: read as the
    proposal, no changed line would be the model's and its lines would pass ungated."""
    assert gh(repo, "install").returncode == 0
    written = START + PERSONS
    write(repo / "src" / "app.py", written)
    err = _record(
        repo,
        tmp_path,
        "replace",
        {
            "old_string": START,
            "new_string": written,
            "modified_by_user": True,
            "ai_proposed_content": START,
        },
    )
    assert "does not carry the model's own proposal: every line the call changed" in err
    assert _commit(repo, written).returncode == 1


def test_once_the_person_drops_the_models_surviving_lines_their_commit_passes(
    repo: Path, tmp_path: Path
) -> None:
    """The entry holds only the model's surviving lines: when the person removes them too,
    what is left is theirs (the pending work expires), and the commit passes."""
    assert gh(repo, "install").returncode == 0
    kept = START + "\n\ndef multiply_values(left, right):\n    return left * right\n"
    _write_file(repo, tmp_path, kept + PERSONS)
    write(repo / "src" / "app.py", START + PERSONS)
    done = _commit(repo, START + PERSONS)
    assert done.returncode == 0, done.stderr


def test_a_proposal_no_file_can_hold_records_the_write_whole(repo: Path, tmp_path: Path) -> None:
    """A lone surrogate (``\\ud800`` in the JSON) is text no file holds: Gemini CLI writes
    U+FFFD there, so the model's line cannot be matched in the file, and the write is
    recorded whole rather than leave that line to the person."""
    assert gh(repo, "install").returncode == 0
    written = START + "print_banner('hello world', '\ufffd')\n"
    proposed = START + "print_banner('hello world', '\ud800')\n"
    write(repo / "src" / "app.py", written)
    _record(
        repo,
        tmp_path,
        "write_file",
        {"content": written, "modified_by_user": True, "ai_proposed_content": proposed},
    )
    assert _commit(repo, written).returncode == 1


def test_a_line_in_neither_version_is_the_models(repo: Path, tmp_path: Path) -> None:
    """Gemini CLI corrects ``content`` before it writes it (``getCorrectedFileContent``): a
    line of the file that neither the proposal nor the person's version holds was changed
    on its way, and is the model's, never the person's."""
    assert gh(repo, "install").returncode == 0
    proposed = START + "def multiply_values(left, right):\n    return left * right\n"
    written = START + "def multiply_values(lhs, rhs):\n    return lhs * rhs\n"
    write(repo / "src" / "app.py", written)
    _record(
        repo,
        tmp_path,
        "write_file",
        {"content": proposed + PERSONS, "modified_by_user": True, "ai_proposed_content": proposed},
    )
    assert _commit(repo, written).returncode == 1
