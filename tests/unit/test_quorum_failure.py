"""A ``whatIChecked`` that says its check failed or never happened is not evidence.

Seed ``003_0245072c02421c57.txt``; rows :data:`gentle_hooks.quorum.failure.FAILURE_ROWS`,
each tested here naming its seed line:

* ``F-missing`` — "Refute if ANY of these hold: The cited evidence does not exist".
* ``F-errored`` — "A verifier that errored, timed out, or returned a malformed verdict has
  produced no evidence for the finding" (abstain; PLAUSIBLE: "could not be reproduced with
  available access").
* ``F-unreproduced`` — "Uphold ONLY if you re-opened the evidence yourself and it
  reproduces. Default to refuted when uncertain".
* ``F-skipped`` — "A verifier that only reads the finding is an opinion generator";
  "Default to refuted when uncertain".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.quorum.failure import FAILURE_ROWS, failure_row, failure_split
from gentle_hooks.quorum.ruling import build_record, tally
from gentle_hooks.quorum.votes import VoteKind, classify_verdict

CLAIM = "Subagents inherit no budget cap, so a fan-out can exceed the run budget"


def verdict(checked: str, *, refuted: bool = False) -> dict[str, Any]:
    return {"refuted": refuted, "reason": "re-checked", "whatIChecked": checked}


#: (id, whatIChecked, the row its one part matches). Phrasings a verifier model produces.
ROW_CASES: list[tuple[str, str, str]] = [
    # F-missing: "The cited evidence does not exist"
    ("no-such-file", "Could not open workflow.js:142: No such file or directory", "F-missing"),
    (
        "does-not-exist",
        "I was unable to open scheduler.py:42 because it does not exist",
        "F-missing",
    ),
    ("short-file", "Could not read workflow.js:142, the file only has 90 lines", "F-missing"),
    # F-errored: "A verifier that errored, timed out ... has produced no evidence"
    ("permission-denied", "I could not open scheduler.py:42 (permission denied)", "F-errored"),
    ("grep-failed", "grep failed on scheduler.py:42", "F-errored"),
    ("unable-to-read", "was unable to read scheduler.py:42", "F-errored"),
    ("couldnt-open-curly", "I couldn\u2019t open scheduler.py:42", "F-errored"),
    ("cannot-run", "Cannot run `pytest -k budget` in this sandbox", "F-errored"),
    ("not-able-to-access", "I was not able to access the run logs", "F-errored"),
    ("no-access", "I don't have access to the repository at workflow.js:142", "F-errored"),
    ("lacked-permission", "We lacked permission to read /var/log/run.log", "F-errored"),
    ("passive", "The file workflow.js:142 could not be opened.", "F-errored"),
    ("tool-timed-out", "The tool call timed out before returning workflow.js:142", "F-errored"),
    ("attempt-failed", "My attempt to open workflow.js failed.", "F-errored"),
    ("opening-failed", "Opening workflow.js:142 failed with EACCES", "F-errored"),
    (
        "but-it-errored",
        "Ran `pytest -k budget` but it errored with ModuleNotFoundError",
        "F-errored",
    ),
    ("ran-out-of-time", "I ran out of time before `grep -n budget pool.js` finished", "F-errored"),
    ("logs-unavailable", "The run logs were unavailable (workflow.js:142 cites them)", "F-errored"),
    ("command-not-found", "`rg budget` gave: command not found", "F-errored"),
    ("failed-to-fetch", "Failed to fetch the run of 2026-08-14 (HTTP 403)", "F-errored"),
    (
        "permission-error",
        "Attempted to open workflow.js:142 but received a permission error.",
        "F-errored",
    ),
    ("no-fs-access", "I do not have file system access to workflow.js:142", "F-errored"),
    ("tool-error", "Tool error while reading workflow.js:142", "F-errored"),
    ("tools-could-not", "My tools could not reach workflow.js:142.", "F-errored"),
    ("access-was-denied", "Access to workflow.js:142 was denied.", "F-errored"),
    ("no-tools", "No tools were available to me for workflow.js:142.", "F-errored"),
    ("enoent", "Tool error: ENOENT reading workflow.js:142", "F-missing"),
    (
        "unable-to-reproduce-the-run",
        "I was unable to reproduce the 41-agent run with `node run.js --cap 16`.",
        "F-unreproduced",
    ),
    (
        "only-read-the-finding",
        "I only read the finding's description of workflow.js:142",
        "F-skipped",
    ),
    ("not-performed", "Verification not performed: workflow.js:142.", "F-skipped"),
    # F-unreproduced: "Uphold ONLY if ... it reproduces. Default to refuted when uncertain"
    ("couldnt-reproduce", "couldn't reproduce with `make test`", "F-unreproduced"),
    ("unable-to-verify", "Unable to verify the 41-agent count", "F-unreproduced"),
    ("could-not-be-verified", "The count of 41 could not be verified", "F-unreproduced"),
    ("does-not-reproduce", "It does not reproduce on main (`make fanout`)", "F-unreproduced"),
    ("not-reproducible", "Not reproducible with `node run.js --cap 16`", "F-unreproduced"),
    ("repro-failed", "Reproduction failed: `node run.js` spawned 16", "F-unreproduced"),
    ("could-not-trigger", "I could not trigger more than 16 agents", "F-unreproduced"),
    # F-skipped: "A verifier that only reads the finding is an opinion generator"
    ("did-not-run", "I did not run `grep -n fanout scheduler.py`", "F-skipped"),
    ("didnt-check", "didn't check scheduler.py:42", "F-skipped"),
    ("never-opened", "I never opened workflow.js:142", "F-skipped"),
    ("have-not-yet", "I have not yet run `pytest -k budget`", "F-skipped"),
    ("not-checked", "Not checked: workflow.js:142", "F-skipped"),
    ("unverified", "Unverified: workflow.js:142 per the miner", "F-skipped"),
    ("without-running", "Without running it, workflow.js:142 is unbounded", "F-skipped"),
    ("skipped", "Skipped the repro of `node run.js`, workflow.js:142 is enough", "F-skipped"),
    ("no-time", "No time to open workflow.js:142 today", "F-skipped"),
    ("trust-me", "trust me, workflow.js:142 spawns in a loop", "F-skipped"),
    ("did-not-need", "I didn't need to open workflow.js:142", "F-skipped"),
    ("was-not-run", "The suite was not run; workflow.js:142 looked right", "F-skipped"),
    # F-errored, time-outs however said (refuter 18b): "errored, timed out ... no evidence"
    ("ran-colon-timed-out", "Ran `make fanout`: timed out after 600 s", "F-errored"),
    ("command-timed-out", "`grep -n budget workflow.js` timed out", "F-errored"),
    (
        "tried-but-timed-out",
        "Tried to run `grep -n budget workflow.js` but it timed out",
        "F-errored",
    ),
    ("time-out-after", "`make fanout` hit a time out after 600 s", "F-errored"),
    (
        "timeout-expired",
        "The timeout expired before `grep -n budget workflow.js` ended",
        "F-errored",
    ),
    ("hit-the-timeout", "The run of `node run.js` hit the 600 s timeout", "F-errored"),
    ("time-limit", "`make fanout` exceeded the time limit", "F-errored"),
    ("tried-but-nothing", "Tried to open workflow.js:142 but got nothing back", "F-errored"),
    ("attempted-but", "Attempted to run `make fanout` but the sandbox killed it", "F-errored"),
    # F-intended: only meant to check, never reported done: "Uphold ONLY if you re-opened"
    (
        "planned-to-open",
        "Planned to open workflow.js:142; the loop has no budget check",
        "F-intended",
    ),
    ("was-going-to", "I was going to open workflow.js:142; it spawns in a loop", "F-intended"),
    ("intended-to-run", "Intended to run `grep -n cap pool.js`; no cap is enforced", "F-intended"),
    ("wanted-to", "I wanted to re-run `make fanout`; 41 agents spawned", "F-intended"),
    ("would-check", "I would check workflow.js:142; it spawns in a loop", "F-intended"),
    ("should-rerun", "Should re-run `make fanout` to be sure; 41 agents", "F-intended"),
    ("meant-to", "We meant to grep workflow.js for budget; the loop is unbounded", "F-intended"),
    ("plan-was-to", "My plan was to open workflow.js:142; the loop is unbounded", "F-intended"),
    ("about-to", "I am about to run `make fanout`; expect 41 agents", "F-intended"),
    ("will-open", "Will open workflow.js:142 next; the loop has no check", "F-intended"),
]


@pytest.mark.parametrize(("text", "row"), [c[1:] for c in ROW_CASES], ids=[c[0] for c in ROW_CASES])
def test_failure_rows(text: str, row: str) -> None:
    found = failure_row(text.split(";")[0], CLAIM)
    assert found is not None and found.id == row


def test_every_failure_row_is_covered_and_names_its_seed_line() -> None:
    assert {c[2] for c in ROW_CASES} == {r.id for r in FAILURE_ROWS}
    seed = (
        "Refute if ANY of these hold: The cited evidence does not exist",
        "A verifier that errored, timed out, or returned a malformed verdict has produced",
        "Uphold ONLY if you re-opened the evidence yourself and it reproduces",
        "Uphold ONLY if you re-opened the evidence yourself and it reproduces",
        "A verifier that only reads the finding is an opinion generator",
    )
    for row, line in zip(FAILURE_ROWS, seed, strict=True):
        assert line in row.seed, row.id
    outcomes = ["refute", "abstain", "refute", "refute", "refute"]
    assert [r.outcome for r in FAILURE_ROWS] == outcomes


#: Observations that use negative or failure words about the code, not about the check.
NOT_FAILURES = [
    "opened workflow.js:142; the loop has no budget check",
    "opened pool.js:88; `spawn()` is called in a loop without checking `budget`",
    "the loop does not check the budget: opened a.py:3",
    "I searched scheduler.py:40-60 and could not find any budget check",
    "I did not see a cap anywhere in `grep -rn cap src/` output",
    "I didn't just read the finding: I ran `grep -c budget pool.go` and got 0",
    "Not sure at first, but I ran `grep -n cap a.py`: no match",
    "traced the run: the budget guard was not executed (log line 12)",
    "ran `python sched.py ''`: it crashed with IndexError at sched.py:42",
    "ran the job; it ran out of budget at 41 agents (log line 'spawned 41')",
    '`grep -n "could not open" log.txt` shows 3 hits',
    "re-ran `node run.js`: the run failed at agent 17 with BudgetExceeded (run.log:88)",
    "opened spawn.js:30: children never check the parent's cap",
    "ran `node run.js --cap 16`: it failed to stop at 16 and spawned 41 (run.log:3)",
    "opened workflow.js:142: the loop cannot be stopped by the budget; no cap is passed",
    "read workflow.js:120-160; budget is not passed to spawn() at 142",
    "opened workflow.js:142: the child never receives the budget; spawn() does not check one",
]


@pytest.mark.parametrize("text", NOT_FAILURES)
def test_observations_with_negative_words_are_not_failures(text: str) -> None:
    assert failure_split(text, CLAIM) is None
    assert failure_split(text, CLAIM, by_clause=True) is None
    assert classify_verdict(verdict(text), CLAIM).vote is VoteKind.UPHELD


def test_a_marker_the_claim_is_about_is_not_a_failure() -> None:
    """A claim "... fails with permission denied" reproduced is support, not an error."""
    claim = "The deploy step fails with permission denied on /srv"
    text = "ran `deploy.sh` as user ci: step 3 printed permission denied on /srv (deploy.log:12)"
    assert failure_split(text, claim) is None
    assert classify_verdict(verdict(text), claim).vote is VoteKind.UPHELD
    assert classify_verdict(verdict(text), CLAIM).vote is VoteKind.ABSTAINED


# --- how a whole verdict counts --------------------------------------------------------------

#: (id, whatIChecked, refuted, vote, row deciding or None). The refuter's examples first.
VERDICT_CASES: list[tuple[str, str, bool, VoteKind, str | None]] = [
    (
        "permission-denied",
        "I could not open scheduler.py:42 (permission denied)",
        False,
        VoteKind.ABSTAINED,
        "F-errored",
    ),
    (
        "did-not-run-trust-me",
        "I did not run `grep -n fanout scheduler.py`; trust me",
        False,
        VoteKind.REFUTED,
        "F-skipped",
    ),
    ("grep-failed", "grep failed", False, VoteKind.ABSTAINED, "F-errored"),
    (
        "unable-to-read",
        "was unable to read scheduler.py:42",
        False,
        VoteKind.ABSTAINED,
        "F-errored",
    ),
    (
        "couldnt-reproduce",
        "couldn't reproduce `make fanout`",
        False,
        VoteKind.REFUTED,
        "F-unreproduced",
    ),
    ("didnt-check", "didn't check scheduler.py:42", False, VoteKind.REFUTED, "F-skipped"),
    (
        "missing-refutes",
        "Could not open workflow.js:142: No such file or directory",
        False,
        VoteKind.REFUTED,
        "F-missing",
    ),
    # a refutation whose check errored produced no evidence either: it abstains, so an
    # access failure never drops a finding as REFUTED
    (
        "refuted-but-errored",
        "Could not open scheduler.py:42 (permission denied); defaulting to refuted",
        True,
        VoteKind.ABSTAINED,
        "F-errored",
    ),
    ("refuted-never-ran", "did not run anything; default to refuted", True, VoteKind.REFUTED, None),
    # mixed: a check that happened, in its own sentence, still counts
    (
        "mixed-upheld",
        "I ran `grep -n x f.py` and found line 42; I could not open g.py",
        False,
        VoteKind.UPHELD,
        None,
    ),
    # an upheld verdict is cut at sentences: the attempt and its failure are one part
    (
        "upheld-attempt-errored",
        "Ran `pytest -k budget` but it errored with ModuleNotFoundError",
        False,
        VoteKind.ABSTAINED,
        "F-errored",
    ),
    (
        "upheld-but-could-not",
        "opened a.py:3: no cap there, but could not open the run log",
        False,
        VoteKind.ABSTAINED,
        "F-errored",
    ),
    # a refuted verdict is cut at "but" too: what it did see still refutes
    (
        "refuted-but-could-not",
        "opened a.py:3: the cap is enforced there, but could not open the run log",
        True,
        VoteKind.REFUTED,
        None,
    ),
    # the rest is a narrative: refute (seed: "Not evidence. Refute")
    (
        "errored-then-narrative",
        "Could not open scheduler.py:42 (permission denied). It is well known that fan-outs "
        "are unbounded",
        False,
        VoteKind.REFUTED,
        None,
    ),
    # the rest states no act of checking: refute as before
    (
        "errored-then-opinion",
        "Could not open scheduler.py:42 (permission denied). The description matches the "
        "spawner design anyway",
        False,
        VoteKind.REFUTED,
        None,
    ),
]


@pytest.mark.parametrize(
    ("text", "refuted", "kind", "row"),
    [c[1:] for c in VERDICT_CASES],
    ids=[c[0] for c in VERDICT_CASES],
)
def test_a_failed_check_is_never_support(
    text: str, refuted: bool, kind: VoteKind, row: str | None
) -> None:
    vote = classify_verdict(verdict(text, refuted=refuted), CLAIM)
    assert vote.vote is kind, vote
    why = vote.abstention or vote.overruled or ""
    if row is not None:
        assert why.startswith(f"the check failed or never happened ({row} "), why
        outcome = "abstain" if kind is VoteKind.ABSTAINED else "refute"
        assert why.endswith(f"not evidence, {outcome} (seed 003)")
    record = build_record([verdict(text, refuted=refuted)], CLAIM)
    assert record.ruling != "CONFIRMED" or kind is VoteKind.UPHELD


def test_a_failed_part_naming_the_claims_file_is_not_saved_by_the_rest() -> None:
    """Seed 003 "Independently re-open the cited evidence": a check elsewhere does not
    stand in for the claim's own evidence that could not be opened."""
    claim = "workflow.js:142 spawns agents in a loop with no budget check"
    text = "I ran `grep -n spawn lib.js` and found line 42; I could not open workflow.js"
    vote = classify_verdict(verdict(text), claim)
    assert vote.vote is VoteKind.ABSTAINED
    assert vote.abstention is not None and "(F-errored " in vote.abstention
    other = "I ran `grep -n spawn lib.js` and found line 42; I could not open notes.md"
    assert classify_verdict(verdict(other), claim).vote is VoteKind.UPHELD


@pytest.mark.parametrize("case", [c for c in ROW_CASES], ids=[c[0] for c in ROW_CASES])
def test_no_failure_row_text_confirms_alone(case: tuple[str, str, str]) -> None:
    """Seed 003 "Abstentions are not support"; "A finding that cannot be independently
    reproduced must not reach the report as confirmed"."""
    _, text, row = case
    t = tally([verdict(text)], CLAIM)
    assert (t.upheld, t.survives) == (0, False)
    outcome = next(r.outcome for r in FAILURE_ROWS if r.id == row)
    assert (t.abstained, t.refuted) == ((1, 0) if outcome == "abstain" else (0, 1))


_FAILURES = st.sampled_from([c[1].split(";")[0] for c in ROW_CASES])
_EVIDENCE = st.sampled_from(
    ["workflow.js:142", "`grep -n budget pool.js`", "'maxAgents'", "scheduler.py:42 and pool.js:9"]
)


@given(_FAILURES, _EVIDENCE)
def test_evidence_beside_a_failure_in_one_sentence_never_upholds(failure: str, cited: str) -> None:
    """Whatever a failed part cites, it is not support (the refuter's finding: any
    ``file:line`` or backticked command was taken as evidence whatever the sentence said)."""
    text = f"{failure.rstrip('.')} ({cited})"
    assert classify_verdict(verdict(text), CLAIM).vote is not VoteKind.UPHELD


#: The refuter's six wordings (claim CLAIM, verdict upheld "holds"): none confirms.
REFUTER_18B = [
    ("Ran `make fanout`: timed out after 600 s", VoteKind.ABSTAINED),
    ("`grep -n budget workflow.js` timed out", VoteKind.ABSTAINED),
    ("Tried to run `grep -n budget workflow.js` but it timed out", VoteKind.ABSTAINED),
    ("Planned to open workflow.js:142; the loop has no budget check", VoteKind.REFUTED),
    ("I was going to open workflow.js:142; the loop has no budget check", VoteKind.REFUTED),
    ("Intended to run `grep -n cap pool.js`; no cap is enforced", VoteKind.REFUTED),
]


@pytest.mark.parametrize(("text", "vote"), REFUTER_18B)
def test_a_timed_out_or_intended_check_is_no_support(text: str, vote: VoteKind) -> None:
    """Seed 003: "A verifier that errored, timed out ... has produced no evidence" (abstain);
    "Uphold ONLY if you re-opened the evidence yourself" (only intended: refute)."""
    answer = {"refuted": False, "reason": "holds", "whatIChecked": text}
    assert classify_verdict(answer, CLAIM).vote is vote
    assert build_record([answer], CLAIM).ruling != "CONFIRMED"


@pytest.mark.parametrize(
    "text",
    [
        "I planned to open workflow.js:142 and then opened it: line 142 spawns in a loop "
        "with no budget check",
        "ran `grep -n budget workflow.js`: no match; the loop should check it but does not",
        "opened workflow.js:142: the spawn would exceed the cap of 16 (41 in run.log:3)",
        "tried to grep workflow.js for budget but found no match (`grep -c budget` gave 0)",
    ],
)
def test_an_intent_followed_by_the_act_or_about_the_code_still_counts(text: str) -> None:
    got = classify_verdict({"refuted": False, "reason": "holds", "whatIChecked": text}, CLAIM)
    assert got.vote is VoteKind.UPHELD
