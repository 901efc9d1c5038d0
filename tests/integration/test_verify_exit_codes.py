"""``verify prepare|run`` exit codes, row by row: a brief that is no brief, or bad input,
exits 2; a brief a rule refuses exits 1 (SPEC §7: "1 blocked by policy; 2 usage, bad
input"; docs/spec-notes.md "§7 exit codes"; issue 18, LOW: a brief with no criterion
exited 2 while B1-B5 refusals exited 1).

The rules are seed 001's: "Workflow" 1 "Reject a brief with no boundaries, no
stopCondition, or readOnly: false without a declared mutating side effect" (B1-B3; B4, B5
this tool's) and "Guardrails" "Rule: do not accept a claim whose criteria have no
observable check" (no success criterion; a check whose command observes nothing). Nothing
runs and no room is left either way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository."""
    return make_env(repo, tmp_path)


#: (id, the brief file's text (None: BRIEF), flags, exit code, how stderr starts; {brief}
#: stands for the brief's path).
EXIT_ROWS: list[tuple[str, str | dict[str, Any] | None, tuple[str, ...], int, str]] = [
    # not a brief, or input the tool cannot act on: 2
    ("not-json", "{not json", (), 2, "gentle-hook: error: "),
    ("unknown-field", {**BRIEF, "colour": "red"}, (), 2, "gentle-hook: error: "),
    ("blank-objective", {**BRIEF, "objective": " "}, (), 2, "gentle-hook: error: "),
    ("blank-check-flag", None, ("--check", " "), 2, "gentle-hook: error: --check is blank"),
    ("blank-suite-flag", None, ("--suite", ""), 2, "gentle-hook: error: --suite is blank"),
    # a brief a rule refuses: 1
    ("B1-no-boundaries", {**BRIEF, "boundaries": []}, (), 1, "{brief}: brief rejected: B1 "),
    ("B2-no-stop", {**BRIEF, "stopCondition": ""}, (), 1, "{brief}: brief rejected: B2 "),
    (
        "B4-outside",
        None,
        ("--check", "test -s /etc/passwd"),
        1,
        "gentle-hook: check refused: --check `test -s /etc/passwd` names an absolute path",
    ),
    (
        "B5-env",
        {**BRIEF, "env": {"PYTEST_ADDOPTS": "-k add"}},
        (),
        1,
        "{brief}: brief rejected: B5 ",
    ),
    (
        "no-criterion",
        {**BRIEF, "successCriteria": []},
        (),
        1,
        "{brief}: brief rejected: no success criterion to re-check",
    ),
    (
        "criterion-verifies-nothing",
        {**BRIEF, "successCriteria": [{"criterion": "ok", "run": "true"}]},
        (),
        1,
        "{brief}: brief rejected: criterion 'ok': `true` verifies nothing",
    ),
    (
        "suite-runs-no-test",
        {**BRIEF, "fullSuite": "python3 -m pytest --co"},
        (),
        1,
        "{brief}: brief rejected: the full suite: `python3 -m pytest --co` runs no test",
    ),
    (
        "check-flag-verifies-nothing",
        None,
        ("--check", "exit 0"),
        1,
        "gentle-hook: check refused: criterion 'exit 0': `exit 0` verifies nothing",
    ),
    (
        "negative-flag-verifies-nothing",
        None,
        ("--negative", "false"),
        1,
        "gentle-hook: check refused: negative test 'false': `false` verifies nothing",
    ),
]


@pytest.mark.parametrize(
    ("text", "flags", "code", "starts"), [r[1:] for r in EXIT_ROWS], ids=[r[0] for r in EXIT_ROWS]
)
@pytest.mark.parametrize("verb", ["prepare", "run"])
def test_exit_code_rows(
    env: Env,
    verb: str,
    text: str | dict[str, Any] | None,
    flags: tuple[str, ...],
    code: int,
    starts: str,
) -> None:
    if isinstance(text, str):
        env.brief_path.write_text(text, encoding="utf-8")
    elif text is not None:
        env.brief_path.write_text(json.dumps(text), encoding="utf-8")
    proc = env.gh("verify", verb, "--brief", str(env.brief_path), *flags)
    assert (proc.returncode, proc.stdout) == (code, ""), proc.stderr
    assert proc.stderr.startswith(starts.format(brief=env.brief_path)), proc.stderr
    assert "Traceback" not in proc.stderr
    assert env.rooms() == []
