"""An upheld verdict supports a finding only with a completed observation (quorum/completed.py).

Seed ``003_0245072c02421c57.txt``, each row naming its line: "Uphold ONLY if you re-opened
the evidence yourself and it reproduces"; "A finding whose evidence is a plausible
narrative refutes"; "Abstentions are not support. A verifier that errored, timed out, or
returned a malformed verdict has produced no evidence for the finding". Each
``whatIChecked`` below was counted as support, and a single one CONFIRMED a finding at the
ordinary tier.
"""

from __future__ import annotations

from typing import Any

import pytest

from gentle_hooks.quorum.completed import incomplete_reason
from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind, classify_verdict

CLAIM = (
    "Subagents inherit no budget cap, so a fan-out can exceed the run budget. EVIDENCE: "
    "workflow.js:142 spawns agents in a loop with no budget check; run 2026-08-14 shows 41 "
    "agents against a stated cap of 16"
)
UPHOLD = "Uphold ONLY if you re-opened the evidence yourself and it reproduces"
NARRATIVE = "A finding whose evidence is a plausible narrative refutes"
ERRORED = (
    "A verifier that errored, timed out, or returned a malformed verdict has produced no evidence"
)
OWN = "Independently re-open the cited evidence. Do not trust the miner's reading of it"


def up(checked: str) -> dict[str, Any]:
    return {"refuted": False, "reason": "reproduces", "whatIChecked": checked}


#: (id, seed line, an upheld whatIChecked whose evidence never ran or never finished, what
#: it counts as).
NEVER_RAN: list[tuple[str, str, str, VoteKind]] = [
    (
        "todo",
        UPHOLD,
        "TODO: open workflow.js:142 and grep for budgetCap in scheduler.js",
        VoteKind.REFUTED,
    ),
    (
        "next-step",
        UPHOLD,
        "Next step: run `grep -n budget workflow.js` to confirm the loop at line 142",
        VoteKind.REFUTED,
    ),
    (
        "queued",
        UPHOLD,
        "`grep -n budget workflow.js` is queued; scheduler.js:88 to follow",
        VoteKind.REFUTED,
    ),
    (
        "if-i-opened-i-expect",
        NARRATIVE,
        "If I opened workflow.js:142 I expect to see the spawn loop without a budget check",
        VoteKind.REFUTED,
    ),
    (
        "if-i-opened-it-would",
        NARRATIVE,
        "If I opened scheduler.js:88 it would show the loop spawning 41 agents",
        VoteKind.REFUTED,
    ),
    (
        "ran-out-of-time",
        UPHOLD,
        "Ran out of time before opening workflow.js:142; scheduler.js:88 is the place",
        VoteKind.REFUTED,
    ),
    (
        "sigkill",
        ERRORED,
        "Ran `node replay.js 2026-08-14`: SIGKILL after 30s, 12 agents spawned so far",
        VoteKind.ABSTAINED,
    ),
    (
        "exit-137",
        ERRORED,
        "Ran `node replay.js 2026-08-14`: exit 137 after it printed 41 agents",
        VoteKind.ABSTAINED,
    ),
    (
        "interrupted",
        ERRORED,
        "Ran `node replay.js 2026-08-14` (interrupted) and counted 41 agents in the log",
        VoteKind.ABSTAINED,
    ),
    (
        "act-without-result",
        UPHOLD,
        "ran `grep -rn spawnAgent src`",
        VoteKind.REFUTED,
    ),
    # the colon of file:line is part of what was opened, not what it showed
    ("file-line-only", UPHOLD, "Opened scheduler.js:88", VoteKind.REFUTED),
    ("file-line-only-pool", UPHOLD, "Opened pool.js:88", VoteKind.REFUTED),
    ("file-line-range-only", UPHOLD, "read workflow.js:120-160", VoteKind.REFUTED),
    # a result that restates a verdict is no observation
    ("verdict-lgtm", UPHOLD, "Opened scheduler.js:88: LGTM", VoteKind.REFUTED),
    ("verdict-claim-holds", UPHOLD, "Opened scheduler.js:88: the claim holds", VoteKind.REFUTED),
    ("verdict-looks-good", UPHOLD, "Opened scheduler.js:88: looks good", VoteKind.REFUTED),
    ("verdict-as-claimed", UPHOLD, "Opened pool.js:88: as claimed", VoteKind.REFUTED),
    ("verdict-confirmed", UPHOLD, "Opened scheduler.js:88 and confirmed it", VoteKind.REFUTED),
    ("verdict-saw-it", UPHOLD, "re-ran the check on scheduler.go:10 and saw it", VoteKind.REFUTED),
]

#: (id, an upheld whatIChecked reporting someone else's act, the subject the reason names).
OTHERS_ACTS: list[tuple[str, str, str]] = [
    ("miner", "The miner opened scheduler.js:88: the loop has no budget check", "the miner"),
    ("author", "The author opened scheduler.js:88: the loop has no budget check", "the author"),
    (
        "colleague",
        "A colleague opened scheduler.js:88: the loop has no budget check",
        "a colleague",
    ),
    (
        "previous-verifier",
        "The previous verifier opened scheduler.js:88: the loop has no budget check",
        "the previous verifier",
    ),
    ("writer-ran", "The writer ran `grep -n budget scheduler.js`: no match", "the writer"),
    ("name", "Alice opened scheduler.js:88: the loop has no budget check", "alice"),
    ("role-no-article", "Reviewer re-ran `grep -c spawn run.log`: 41", "reviewer"),
    ("my-teammate", "My teammate already grepped pool.js:88: no cap there", "my teammate"),
    # a name in lower case, or an agent's or a model's, is someone else as much as "Alice"
    ("lowercase-name", "bob ran the tests: 3 failed", "bob"),
    ("lowercase-name-command", "bob ran `pytest -q`: 3 failed", "bob"),
    ("agent-name", "codex ran pytest: 3 failed", "codex"),
    ("model-name", "gpt-4o ran the suite: 3 failed", "gpt-4o"),
    (
        "model-name-hyphen",
        "o4-mini opened scheduler.js:88: the loop has no budget check",
        "o4-mini",
    ),
    ("model-name-dotted", "gpt-4.1 ran `grep -c spawn run.log`: 41", "gpt-4.1"),
    ("two-word-name", "Claude Code ran `pytest -q`: 3 failed", "claude code"),
    ("name-after-connective", "so bob re-ran `grep -c spawn run.log`: 41", "bob"),
    ("name-after-then", "Then bob re-ran `grep -c spawn run.log`: 41", "bob"),
    ("name-then", "bob then ran `pytest -q`: 3 failed", "bob"),
]


@pytest.mark.parametrize(
    ("seed", "checked", "counts"),
    [r[1:] for r in NEVER_RAN],
    ids=[r[0] for r in NEVER_RAN],
)
def test_evidence_that_never_ran_or_never_finished_is_no_support(
    seed: str, checked: str, counts: VoteKind
) -> None:
    vote = classify_verdict(up(checked), CLAIM)
    assert vote.vote == counts, (seed, vote)
    assert (vote.overruled or vote.abstention or "").endswith("(seed 003)")
    record = build_record([up(checked)], CLAIM)
    assert record.ruling != "CONFIRMED", (seed, record)


@pytest.mark.parametrize(
    ("checked", "who"), [r[1:] for r in OTHERS_ACTS], ids=[r[0] for r in OTHERS_ACTS]
)
def test_someone_elses_act_is_not_the_verifiers_own(checked: str, who: str) -> None:
    """Seed 003: "Independently re-open the cited evidence. Do not trust the miner's reading
    of it": an act whose subject is a third party is that party's reading, refuted, as "As
    the miner says, ..." is."""
    vote = classify_verdict(up(checked), CLAIM)
    assert vote.vote == VoteKind.REFUTED, (OWN, vote)
    assert (vote.overruled or "").startswith(f"an act of someone else's ('{who} "), vote
    assert (vote.overruled or "").endswith("(seed 003)")
    assert build_record([up(checked)], CLAIM).ruling == "REFUTED"
    evidence = "scheduler.js:88 spawns agents in a loop with no budget check"
    assert build_record([up(checked)], CLAIM, evidence=evidence).ruling == "REFUTED"


#: (id, an upheld whatIChecked whose only act is code's: "the loop called ``spawn()``").
#: What code does is no one's act: not the verifier's own observation (seed 003 "Uphold
#: ONLY if you re-opened the evidence yourself"), and no third party to name either.
CODE_ACTS: list[tuple[str, str]] = [
    ("loop-call", "The loop called spawn() 41 times: no budget check at workflow.js:142"),
    ("loop-lowercase", "the loop called spawn() at workflow.js:142: no budget argument"),
    ("function-invoked", "The function invoked spawn() at workflow.js:142 with no budget"),
    ("test-backticks", "The test called `spawn(task)` 41 times: no cap in workflow.js:142"),
    ("handler-file-line", "The handler read scheduler.js:88: no budget is passed"),
    ("file-as-subject", "workflow.js called spawn() 41 times: no cap"),
]


@pytest.mark.parametrize("checked", [r[1] for r in CODE_ACTS], ids=[r[0] for r in CODE_ACTS])
def test_what_code_does_is_no_one_elses_act(checked: str) -> None:
    """Seed 003 "Uphold ONLY if you re-opened the evidence yourself and it reproduces": a
    sentence about what the code did reports no act of the verifier's, and names no third
    party either ("the loop" is not someone who opened anything): refuted for want of a
    completed observation."""
    vote = classify_verdict(up(checked), CLAIM)
    assert vote.vote != VoteKind.UPHELD, (UPHOLD, vote)
    reason = incomplete_reason(checked, CLAIM)
    assert reason is not None and reason[1] == "refute", reason
    assert reason[0].startswith("no completed observation ("), reason
    assert "someone else's" not in reason[0]
    assert build_record([up(checked)], CLAIM).ruling != "CONFIRMED"


#: (id, an upheld whatIChecked whose act the sentence places outside this run, the act and
#: the words the reason quotes). Seed 003 "Uphold ONLY if you re-opened the evidence
#: yourself and it reproduces": an opening last week, or in another review, is not this
#: run's re-opening.
ELSEWHERE_ACTS: list[tuple[str, str, str]] = [
    (
        "last-week-another-review",
        "Opened the file last week in another review: scheduler.js:88 has no budget check",
        "opened last week",
    ),
    (
        "another-review",
        "Opened scheduler.js:88 in another review: the loop has no budget check",
        "opened in another review",
    ),
    (
        "an-earlier-review",
        "Opened scheduler.js:88 in an earlier review: the loop has no budget check",
        "opened in an earlier review",
    ),
    ("yesterday-before", "Yesterday I ran `grep -c spawn run.log`: 41", "ran yesterday"),
    ("days-ago", "Opened pool.js:88 three days ago: no cap there", "opened three days ago"),
    ("another-branch", "Ran `pytest -q` on another branch: 3 failed", "ran on another branch"),
    (
        "previously",
        "I previously opened scheduler.js:88: the loop has no budget check",
        "opened previously",
    ),
    (
        "and-found",
        "Opened pool.js:88 in the previous run and found no limit on the worker count",
        "opened in the previous run",
    ),
]


@pytest.mark.parametrize(
    ("checked", "quoted"), [r[1:] for r in ELSEWHERE_ACTS], ids=[r[0] for r in ELSEWHERE_ACTS]
)
def test_an_act_outside_this_run_is_not_this_runs_evidence(checked: str, quoted: str) -> None:
    """Seed 003 "Uphold ONLY if you re-opened the evidence yourself and it reproduces": an
    act at another time or in another review, run or branch is refuted, the reason quoting
    the act and where it happened."""
    vote = classify_verdict(up(checked), CLAIM)
    assert vote.vote == VoteKind.REFUTED, (UPHOLD, vote)
    assert (vote.overruled or "").startswith(f"an act outside this run ('{quoted}')"), vote
    assert (vote.overruled or "").endswith("(seed 003)")
    assert build_record([up(checked)], CLAIM).ruling == "REFUTED"


#: Completed observations (past tense, what was opened or run, what it showed) still count.
COMPLETED = [
    "I opened scheduler.js:88: the loop has no budget check",
    "Opened scheduler.js:88: the loop has no budget check",
    "I also re-opened scheduler.js:88 myself: the loop has no budget check",
    "Ran `grep -n budget scheduler.js`: no match",
    "Opened app.py:12 `return html(x)`",
    "The miner cites scheduler.js:88; I opened it: the loop has no budget check",
    "opened  scheduler.js:88;\n loop has no budget check",
    "Opened scheduler.js:88: it matches the claim, the loop at 142 passes no budget",
    "Opened workflow.js:142: the line is `for (t of tasks) spawn(t)`, no budget argument",
    "re-ran `grep -c 'spawned agent' run-2026-08-14.log`: 41",
    "I ran `grep -n cap pool.js` and found no match",
    "`grep -c spawn run.log` printed 41",
    "read workflow.js:120-160; budget is not passed to spawn() at 142",
    "counted 41 spawns in run-2026-08-14.log",
    "Before opening it, I ran `grep -n budget workflow.js`: no match",
    "Ran `node replay.js 2026-08-14`; the loop called spawn() 41 times: no cap",
    "Opened pool.js:30: the loop called startWorker() per queued item, with no limit",
    "Ran pytest -q: 3 failed",
    "I opened gentle_hooks/x.py:12: the loop has no budget check",
    "I've opened scheduler.js:88: the loop has no budget check",
    "Then I ran `pytest -q`: 3 failed",
    "I then ran `pytest -q`: 3 failed",
    "Opened pool.js:88 then ran `grep -c spawn run.log`: 41",
    "grep found 41 matches in run.log",
    # another time or review in the result, or the object's, is no act's
    "Ran `pytest -q`: 3 failed, as in the previous run",
    "The miner ran it last week; I re-ran `grep -c spawn run.log`: 41",
    "Re-ran the grep from last week on run.log: 41",
]


@pytest.mark.parametrize("checked", COMPLETED)
def test_a_completed_observation_counts(checked: str) -> None:
    assert classify_verdict(up(checked), CLAIM).vote == VoteKind.UPHELD


def test_a_claim_about_a_killed_run_can_be_reproduced() -> None:
    """The stop words are the finding's own when the claim is about a kill: reproducing
    it is a completed observation."""
    claim = "the watchdog sends SIGKILL to workers after 30s (watchdog.go:12)"
    checked = "ran `go test ./watchdog -run TestSlow`: the worker got SIGKILL at 30.0s"
    assert classify_verdict(up(checked), claim).vote == VoteKind.UPHELD


#: Seed 003 "A finding whose evidence is a plausible narrative refutes": an appeal to
#: design or intent is narrative whichever way the verifier voted (it abstained before).
BY_DESIGN = [
    "By design, the scheduler has no cap",
    "By design the loop at workflow.js:142 spawns without a cap",
    "The fan-out is unbounded as intended",
]


@pytest.mark.parametrize("refuted", [False, True], ids=["upheld", "refuted"])
@pytest.mark.parametrize("checked", BY_DESIGN)
def test_an_appeal_to_design_is_narrative_and_refutes(checked: str, refuted: bool) -> None:
    vote = classify_verdict({**up(checked), "refuted": refuted}, CLAIM)
    assert vote.vote == VoteKind.REFUTED, vote
    if not refuted:
        assert (vote.overruled or "").startswith("narrative evidence (N6 ")


#: Seed 003 "Independently re-open the cited evidence. Do not trust the miner's reading of
#: it": a verifier restating the miner's evidence confirms nothing.
RESTATING = [
    "workflow.js:142 spawns agents in a loop with no budget check; run 2026-08-14 shows 41 "
    "agents against a stated cap of 16",
    "Opened workflow.js:142: spawns agents in a loop with no budget check; run 2026-08-14 "
    "shows 41 agents against a stated cap of 16",
    "Confirmed workflow.js:142 spawns agents in a loop with no budget check",
]


@pytest.mark.parametrize("checked", RESTATING)
def test_restating_the_miners_evidence_confirms_nothing(checked: str) -> None:
    assert classify_verdict(up(checked), CLAIM).vote != VoteKind.UPHELD
    assert build_record([up(checked)], CLAIM).ruling != "CONFIRMED"
