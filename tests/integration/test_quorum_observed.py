"""``quorum tally --observed``: evidence reproduces or it refutes, checked against the
candidate's tree and the commands the clean room ran (seed 003 "What counts as
reproducing evidence"; issue 18, refuter r18o finding 3).

A real repository, a real ``verify run`` writing its verdict (recorded in the ledger); the
tally then reads that candidate's tree with git. An upheld verdict whose ``file:line``
quote is at that line, or whose command the room ran, confirms; one whose quote is at
another line, or that only tells where it looked (r18o's phrases), refutes; an edited
verdict is no record of the room's (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, git, write

CLAIM = "mul(a, b) returns the product of a and b"
CHECK = "python3 -c 'from app import mul; assert mul(2, 3) == 6'"
BRIEF = {
    "objective": "mul returns the product",
    "outputFormat": "a patch to app.py",
    "boundaries": ["read only"],
    "stopCondition": "every check has run",
    "successCriteria": [{"criterion": "mul multiplies", "run": CHECK}],
    "negativeTests": [{"criterion": "the tree has app.py", "run": "test ! -e app.py"}],
    "fullSuite": "python3 -c 'import app'",
}


@pytest.fixture
def observed(tmp_path: Path) -> tuple[Path, str]:
    """(the repository, the verdict ``verify run`` wrote for its work tree)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / ".gitignore", ".agents/\n__pycache__/\n")
    write(repo / "app.py", "def add(a, b):\n    return a + b\n")
    commit_all(repo, "base")
    write(
        repo / "app.py", "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
    )
    (tmp_path / "brief.json").write_text(json.dumps(BRIEF), encoding="utf-8")
    proc = gh(repo, "verify", "run", "--brief", str(tmp_path / "brief.json"), "--json")
    assert proc.returncode in (0, 1), proc.stderr
    path: str = json.loads(proc.stdout)["json_path"]
    return repo, path


def _tally(repo: Path, verdict: str, checked: str) -> tuple[int, str]:
    answer = repo.parent / "answer.json"
    answer.write_text(
        json.dumps({"refuted": False, "reason": "mul multiplies", "whatIChecked": checked}),
        encoding="utf-8",
    )
    proc = gh(repo, "quorum", "tally", "--claim", CLAIM, "--observed", verdict, str(answer))
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "checked",
    [
        "opened app.py:6: the line is `return a * b`, so mul(2, 3) is 6",
        f"ran `{CHECK}`: exit 0, no assertion error",
    ],
)
def test_evidence_found_in_the_candidate_or_the_room_confirms(
    observed: tuple[Path, str], checked: str
) -> None:
    code, out = _tally(*observed, checked)
    assert code == 0 and out.startswith("CONFIRMED"), out


@pytest.mark.parametrize(
    ("checked", "named"),
    [
        ("opened app.py:5: the line is `return a * b`, mul(2, 3) is 6", "is not at that line"),
        ("ran `python3 -m pytest -q`: exit 0, 3 passed", "no command the clean room ran"),
        ("opened app.py:6 in my clone from last month: mul multiplies", "clone from last month"),
        ("opened app.py:6: mul multiplies, the product is right", "quotes nothing"),
        ("opened app.py:6 in the base branch: the line is `return a * b`", "base branch"),
        ("Read the CI log: `mul(2, 3)` printed 6", "ci log"),
    ],
)
def test_evidence_that_does_not_reproduce_refutes(
    observed: tuple[Path, str], checked: str, named: str
) -> None:
    code, out = _tally(*observed, checked)
    assert code == 0 and out.startswith("REFUTED"), out
    assert named in out, out


def test_an_edited_verdict_is_no_record_of_the_room_s(
    observed: tuple[Path, str], tmp_path: Path
) -> None:
    repo, verdict = observed
    data = json.loads((repo / verdict).read_text(encoding="utf-8"))
    data["criteria"][0]["observed"]["command"] = "python3 -m pytest -q"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    code, out = _tally(repo, str(edited), "ran `python3 -m pytest -q`: exit 0, 3 passed")
    assert code == 2 and "not observed" in out, out
