"""``quorum tally`` of a verdict set that names the candidate it judged (SPEC §9; seed 003
"evidence reproduces or it refutes"; issue 18, refuter r18p open item 1).

The real CLI in a subprocess, in a real git repository whose HEAD holds ``workflow.js``
(line 142 spawns agents in a loop with no budget check). A verdict set's ``candidate`` (a
full commit or tree id) is read as ``--tree`` reads a commit, so a set alone can CONFIRM
(before, row ``Q6U`` left it PLAUSIBLE whatever it held); an id that is malformed, unknown
here or a blob, two sets naming different trees, or a set naming one tree and ``--tree`` /
``--observed`` another, exit 2 with one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, git, write
from tests.quorum_repo import CLAIM, QUOTED, workflow_repo

UPHELD = {"refuted": False, "reason": "the loop has no cap", "whatIChecked": QUOTED}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return workflow_repo(tmp_path)


def _set(repo: Path, name: str = "set.json", verdict: object = UPHELD, **fields: object) -> str:
    path = repo.parent / name
    path.write_text(json.dumps({"claim": CLAIM, "verdicts": [verdict], **fields}), "utf-8")
    return str(path)


def _tally(repo: Path, *args: str) -> tuple[int, str, str]:
    proc = gh(repo, "quorum", "tally", *args)
    return proc.returncode, proc.stdout, proc.stderr


def _one_line_exit_2(result: tuple[int, str, str], said: str) -> None:
    code, out, err = result
    assert (code, out) == (2, ""), out
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert said in err, err


@pytest.mark.parametrize("which", ["HEAD", "HEAD^{tree}"])
def test_a_set_naming_its_candidate_confirms_alone(repo: Path, which: str) -> None:
    """The set names the commit (or its tree): the quote is at that line of that tree,
    checked as --tree checks it; without the field the same set stays PLAUSIBLE (Q6U)."""
    oid = git(repo, "rev-parse", which).strip()
    code, out, err = _tally(repo, _set(repo, candidate=oid))
    assert (code, err) == (0, ""), err
    assert out.startswith("CONFIRMED"), out
    code, out, _ = _tally(repo, _set(repo))
    assert code == 0 and out.startswith("PLAUSIBLE") and '"candidate"' in out, out
    code, out, _ = _tally(repo, _set(repo, candidate=oid), "--json")
    assert json.loads(out)["checkedAgainst"] == git(repo, "rev-parse", "HEAD^{tree}").strip()


def test_a_set_naming_its_candidate_refutes_a_quote_not_in_its_tree(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    moved = {**UPHELD, "whatIChecked": QUOTED.replace("142", "141")}
    code, out, _ = _tally(repo, _set(repo, verdict=moved, candidate=head))
    assert code == 0 and out.startswith("REFUTED") and "is not at that line" in out, out


def test_the_tree_of_the_set_not_the_head_is_read(repo: Path) -> None:
    """After a later commit moves the line, a set naming the commit it judged still reads
    that commit's tree, not HEAD's."""
    judged = git(repo, "rev-parse", "HEAD").strip()
    text = (repo / "workflow.js").read_text("utf-8")
    (repo / "workflow.js").write_text("// moved\n" + text, "utf-8")
    commit_all(repo, "later")
    code, out, _ = _tally(repo, _set(repo, candidate=judged))
    assert code == 0 and out.startswith("CONFIRMED"), out
    code, out, _ = _tally(repo, _set(repo), "--tree", "HEAD")
    assert code == 0 and out.startswith("REFUTED"), out


@pytest.mark.parametrize(
    ("candidate", "said"),
    [
        ("HEAD", "is not a full commit or tree id"),
        ("abc123", "is not a full commit or tree id"),
        ("A" * 40, "is not a full commit or tree id"),
        (7, "is not a full commit or tree id"),
        ("0" * 40, "is no object of this repository"),
        ("blob", "names a blob, not a commit or tree"),
    ],
    ids=["ref-name", "abbreviated", "uppercase", "number", "unknown", "blob"],
)
def test_a_bad_candidate_exits_2(repo: Path, candidate: object, said: str) -> None:
    if candidate == "blob":
        candidate = git(repo, "rev-parse", "HEAD:workflow.js").strip()
    _one_line_exit_2(_tally(repo, _set(repo, candidate=candidate)), said)


def test_a_set_and_tree_naming_different_trees_are_refused(repo: Path) -> None:
    judged = git(repo, "rev-parse", "HEAD").strip()
    write(repo / "other.js", "x\n")
    commit_all(repo, "later")
    _one_line_exit_2(
        _tally(repo, _set(repo, candidate=judged), "--tree", "HEAD"),
        "--tree HEAD is tree",
    )
    # the same candidate named both ways is one candidate
    code, out, _ = _tally(repo, _set(repo, candidate=judged), "--tree", "HEAD~1")
    assert code == 0 and out.startswith("CONFIRMED"), out


def test_two_sets_naming_different_trees_are_refused(repo: Path) -> None:
    judged = git(repo, "rev-parse", "HEAD").strip()
    write(repo / "other.js", "x\n")
    commit_all(repo, "later")
    later = git(repo, "rev-parse", "HEAD").strip()
    one = _set(repo, "a.json", candidate=judged)
    two = _set(repo, "b.json", verdict={**UPHELD, "verifier": "v2"}, candidate=later)
    _one_line_exit_2(_tally(repo, one, two), "one tally judges one candidate's tree")
    # a commit and its own tree id name one candidate
    tree = git(repo, "rev-parse", f"{judged}^{{tree}}").strip()
    three = _set(repo, "c.json", verdict={**UPHELD, "verifier": "v2"}, candidate=tree)
    code, out, _ = _tally(repo, one, three)
    assert code == 0 and out.startswith("CONFIRMED"), out


def test_a_candidate_outside_a_repository_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"claim": CLAIM, "verdicts": [UPHELD], "candidate": "a" * 40}))
    proc = gh(tmp_path, "quorum", "tally", str(path))
    _one_line_exit_2((proc.returncode, proc.stdout, proc.stderr), "")


def test_a_set_and_an_observed_verdict_of_another_tree_are_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / ".gitignore", ".agents/\n__pycache__/\n")
    write(repo / "app.py", "def add(a, b):\n    return a + b\n")
    commit_all(repo, "base")
    write(
        repo / "app.py", "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
    )
    brief = {
        "objective": "mul returns the product",
        "outputFormat": "a patch to app.py",
        "boundaries": ["read only"],
        "stopCondition": "every check has run",
        "successCriteria": [{"criterion": "mul multiplies", "run": "python3 -c 'import app'"}],
        "fullSuite": "python3 -c 'import app'",
    }
    (tmp_path / "brief.json").write_text(json.dumps(brief), encoding="utf-8")
    proc = gh(repo, "verify", "run", "--brief", str(tmp_path / "brief.json"), "--json")
    assert proc.returncode in (0, 1), proc.stderr
    verdict = json.loads(proc.stdout)["json_path"]
    tree = json.loads(Path(verdict).read_text("utf-8"))["candidate"]["tree"]
    head = git(repo, "rev-parse", "HEAD").strip()
    claim = "mul(a, b) returns the product of a and b"
    up = {"refuted": False, "reason": "r", "whatIChecked": "opened app.py:6: `return a * b`"}
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"claim": claim, "verdicts": [up], "candidate": head}))
    _one_line_exit_2(
        _tally(repo, str(path), "--observed", verdict), f"--observed {verdict} is tree"
    )
    path.write_text(json.dumps({"claim": claim, "verdicts": [up], "candidate": tree}))
    code, out, err = _tally(repo, str(path), "--observed", verdict)
    assert (code, err) == (0, "") and out.startswith("CONFIRMED"), out + err
