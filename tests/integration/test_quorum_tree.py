"""``quorum tally`` by default and with ``--tree REV``: evidence nobody checked does not
CONFIRM (SPEC §9; seed 003 "evidence reproduces or it refutes"; issue 18, refuter r18p).

The real CLI in a subprocess, in a real git repository whose HEAD holds ``workflow.js``
(line 142 spawns agents in a loop with no budget check). Refuter r18p's verdicts, each
CONFIRMED on mrgS by the default tally: without a tree none confirms (PLAUSIBLE, with what
would settle it, or REFUTED); with ``--tree HEAD`` a cited file the tree does not hold
refutes, and so does a quote found at the line but seen elsewhere or left for later.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import gh
from tests.quorum_repo import CLAIM, QUOTED, workflow_repo

#: r18p's script, verbatim: each one CONFIRMED on mrgS.
R18P = [
    "opened zzz_nonexistent.js:9999: the loop has no budget check",
    "I ran `grep -n budget workflow.js` on the deployed box: no match",
    *(
        f"opened workflow.js:142 {p}: the loop has no budget check"
        for p in (
            "on the deployed box",
            "in the customer's environment",
            "per the CI artifacts",
            "in the release candidate",
        )
    ),
    *(
        f"opened workflow.js:142: the loop has no budget check, {p}"
        for p in (
            "needs double-checking",
            "should be re-checked",
            "needs a second look",
            "pending review",
            "not yet reproduced here",
        )
    ),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return workflow_repo(tmp_path)


def _tally(repo: Path, checked: str, *extra: str) -> tuple[int, str, str]:
    answer = repo.parent / "v.json"
    verdict = {"refuted": False, "reason": "the loop has no cap", "whatIChecked": checked}
    answer.write_text(json.dumps({**verdict, "verifier": "v1", "lens": "code"}), encoding="utf-8")
    proc = gh(repo, "quorum", "tally", str(answer), "--claim", CLAIM, *extra)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("checked", R18P)
def test_r18p_default_tally_does_not_confirm(repo: Path, checked: str) -> None:
    code, out, err = _tally(repo, checked)
    assert (code, err) == (0, ""), err
    assert out.startswith(("PLAUSIBLE", "REFUTED")), out
    if out.startswith("PLAUSIBLE"):
        assert "to settle: " in out and "--tree REV" in out, out


@pytest.mark.parametrize("checked", R18P)
def test_r18p_with_the_tree_refutes(repo: Path, checked: str) -> None:
    """With the tree read, none of r18p's verdicts reproduces: the file is not there, the
    line quotes nothing, or the check was made elsewhere or left for later."""
    code, out, err = _tally(repo, checked, "--tree", "HEAD")
    assert (code, err) == (0, ""), err
    assert out.startswith("REFUTED"), out


@pytest.mark.parametrize("place", ["on the deployed box", "per the CI artifacts", "pending review"])
def test_a_matching_quote_seen_elsewhere_still_refutes(repo: Path, place: str) -> None:
    code, out, _ = _tally(repo, f"{QUOTED}, {place}", "--tree", "HEAD")
    assert code == 0 and out.startswith("REFUTED"), out
    assert "elsewhere than the candidate's tree" in out, out


def test_a_quote_at_the_line_of_the_tree_confirms(repo: Path) -> None:
    code, out, _ = _tally(repo, QUOTED, "--tree", "HEAD")
    assert code == 0 and out.startswith("CONFIRMED"), out
    code, out, _ = _tally(repo, QUOTED)
    assert code == 0 and out.startswith("PLAUSIBLE"), out  # the same, with no tree read
    code, out, _ = _tally(repo, QUOTED.replace("142", "141"), "--tree", "HEAD")
    assert out.startswith("REFUTED") and "is not at that line" in out, out


def test_a_command_no_clean_room_recorded_stays_unchecked(repo: Path) -> None:
    code, out, _ = _tally(repo, "I ran `grep -n budget workflow.js`: no match", "--tree", "HEAD")
    assert code == 0 and out.startswith("PLAUSIBLE"), out
    assert "  upheld, unchecked: its command was checked by no clean room" in out, out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--tree", "no-such-branch"], "no-such-branch"),
        (["--tree", "-x"], "not a valid ref name"),
        (["--tree", "HEAD", "--observed", "v.json"], "--observed and --tree"),
    ],
)
def test_a_tree_that_cannot_be_read_exits_2(repo: Path, extra: list[str], said: str) -> None:
    code, out, err = _tally(repo, QUOTED, *extra)
    assert (code, out) == (2, ""), out
    assert said in err and len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_tree_outside_a_repository_exits_2(tmp_path: Path) -> None:
    answer = tmp_path / "v.json"
    answer.write_text(
        json.dumps({"refuted": False, "reason": "r", "whatIChecked": QUOTED}), encoding="utf-8"
    )
    proc = gh(tmp_path, "quorum", "tally", str(answer), "--claim", CLAIM, "--tree", "HEAD")
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stdout
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr, proc.stderr
