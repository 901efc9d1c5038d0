"""An upheld verdict must have re-opened the finding's evidence itself (seed
``003_0245072c02421c57.txt``: "Independently re-open the cited evidence. Do not trust the
miner's reading of it"; "A verifier that only reads the finding is an opinion generator";
"Uphold ONLY if you re-opened the evidence yourself and it reproduces").

One test per row of :data:`gentle_hooks.quorum.grounds.GROUND_ROWS` shape: a single upheld
verdict, tallied with the seed's claim and evidence, is REFUTED (never CONFIRMED) and the
reason names the row and what is missing. The honest reproductions stay CONFIRMED, and a
bare copy of the miner's evidence abstains (README "Quorum (seed 003)").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gentle_hooks.quorum.grounds import GROUND_ROWS, grounds_reason
from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind
from tests.quorum_tree import supported_unchecked

CLAIM = "Subagents inherit no budget cap, so a fan-out can exceed the run budget"
EVIDENCE = "workflow.js:142 spawns agents in a loop with no budget check"
README = Path(__file__).resolve().parents[2] / "README.md"

#: (upheld whatIChecked, the row it meets, a word the reason shows).
REFUTED_ROWS: list[tuple[str, str, str]] = [
    ("Ran `true`: exit 0", "G-nocheck", "N-true"),
    ("Ran `echo unbounded`: printed unbounded", "G-nocheck", "N-echo"),
    ("ran `sleep 5 && true`: exit 0 after 5 s", "G-nocheck", "N-sleep"),
    (
        "Opened nothing; workflow.js:142 spawns subagents in a loop with no budget check",
        "G-negated",
        "opened nothing",
    ),
    (
        "Opened workflow.js:142 (did not actually); it spawns subagents in a loop with no "
        "budget check",
        "G-negated",
        "did not actually",
    ),
    (
        "Opened workflow.js:142 in my head; it spawns subagents in a loop with no budget check",
        "G-negated",
        "in my head",
    ),
    (
        "Opened the miner's finding: workflow.js:142 spawns subagents in a loop with no "
        "budget check",
        "G-finding",
        "miner's finding",
    ),
    (
        "Read the miner's report: workflow.js:142 spawns subagents in a loop with no budget check",
        "G-finding",
        "miner's report",
    ),
    (
        "Read the writer's transcript: workflow.js:142 spawns subagents in a loop with no "
        "budget check",
        "G-finding",
        "writer's transcript",
    ),
    (
        "Read the PR description: workflow.js:142 spawns subagents in a loop with no budget check",
        "G-finding",
        "pr description",
    ),
    ("Opened README.md: it says subagents have no cap", "G-elsewhere", "readme.md"),
    # Issue 18 item 4: the file read through a copy of it is the finding, not the file.
    (
        "Read workflow.js:142 as quoted in the finding: no budget check",
        "G-finding",
        "quoted in the finding",
    ),
    (
        "Read the miner's excerpt of workflow.js:142: the loop has no budget check",
        "G-finding",
        "miner's excerpt",
    ),
    (
        "Read the quoted snippet of workflow.js:142 in the report: the loop has no budget check",
        "G-finding",
        "in the report",
    ),
    (
        "Read workflow.js:142 in the transcript: the loop has no budget check",
        "G-finding",
        "in the transcript",
    ),
    (
        "Opened workflow.js:142 in the task description: the loop has no budget check",
        "G-finding",
        "in the task description",
    ),
    (
        "Opened workflow.js:142 in the miner's paste: the loop has no budget check",
        "G-finding",
        "miner's paste",
    ),
    ("Read workflow.js:142 as pasted by the miner: no budget check", "G-finding", "pasted by"),
    # Hedges, retractions and denials in the same evidence: not a report of an act.
    ("Guessed: opened workflow.js:142 showed no budget check", "G-hedged", "guessed"),
    (
        "Opened workflow.js:142, or at least I think so: the loop has no budget check",
        "G-hedged",
        "i think",
    ),
    ("I probably opened workflow.js:142: no budget check", "G-hedged", "probably opened"),
    ("Opened workflow.js:142: no budget check, I'd guess", "G-hedged", "i'd guess"),
    ("Opened workflow.js:142 (probably): no budget check", "G-hedged", "probably"),
    ("Opened workflow.js:142: the loop likely has no budget check", "G-hedged", "likely"),
    ("Opened workflow.js:142: AFAICT no budget check", "G-hedged", "afaict"),
    ("Opened workflow.js:142: I suspect no budget check", "G-hedged", "i suspect"),
    ("Reportedly opened workflow.js:142: no budget check", "G-hedged", "reportedly"),
    # A valid act taken back after it (refuter r18j): not a report of an act.
    (
        "Opened workflow.js:142: no budget check. Actually, I was wrong: I had opened another",
        "G-negated",
        "i was wrong",
    ),
    ("Opened workflow.js:142: no budget check. Retracted.", "G-negated", "retracted"),
    ("Opened workflow.js:142: no budget check. I take that back.", "G-negated", "i take that back"),
    ("Opened workflow.js:142: no budget check. Never mind.", "G-negated", "never mind"),
    ("Opened workflow.js:142: no budget check — strike that.", "G-negated", "strike that"),
    (
        "Opened workflow.js:142: no budget check (on second thought, this is not right)",
        "G-negated",
        "on second thought",
    ),
    ("Opened workflow.js:142: no budget check. Correction: pool.js", "G-negated", "correction:"),
    (
        "Opened workflow.js:142: no budget check. Edit: ignore the above.",
        "G-negated",
        "ignore the above",
    ),
    (
        "Opened workflow.js:142 \u2014 just kidding, I didn't: the loop has no budget check",
        "G-negated",
        "just kidding",
    ),
    (
        "Did not open anything. Opened workflow.js:142: the loop has no budget check",
        "G-negated",
        "did not open anything",
    ),
    (
        "Did not open workflow.js:142. Opened workflow.js:142: the loop has no budget check",
        "G-negated",
        "did not open workflow.js:142",
    ),
    (
        "Opened workflow.js:142: the loop has no budget check; I never opened it",
        "G-negated",
        "i never opened",
    ),
    # Copies named by who handed them over, or by what they are (refuter r18j).
    (
        "Opened workflow.js:142 in the copy the writer attached: no budget check",
        "G-finding",
        "in the copy",
    ),
    ("Read workflow.js:142 in the worker's summary: no budget check", "G-finding", "summary"),
    (
        "Read workflow.js:142 in the diff the miner posted: no budget check",
        "G-finding",
        "the diff the miner posted",
    ),
    ("Read workflow.js:142 in the writer's log: no budget check", "G-finding", "writer's log"),
    ("Read workflow.js:142 from the gist: no budget check", "G-finding", "gist"),
    (
        "Opened workflow.js:142 as shown in the miner's screenshot: no budget check",
        "G-finding",
        "screenshot",
    ),
    (
        "Searched workflow.js:142 in the output the subagent shared: no budget check",
        "G-finding",
        "the output the subagent shared",
    ),
    # refuter r18k: more copies, retractions and hedges
    ("Opened a screenshot of workflow.js:142: no budget check", "G-finding", "screenshot"),
    ("Opened the gist of workflow.js:142: no budget check", "G-finding", "gist"),
    ("Read workflow.js:142 in the email thread: no budget check", "G-finding", "email thread"),
    ("Read workflow.js:142 in the Slack message: no budget check", "G-finding", "slack message"),
    ("Read workflow.js:142 in the printout: no budget check", "G-finding", "printout"),
    ("Read workflow.js:142 in the agent's scratchpad: no budget check", "G-finding", "scratchpad"),
    ("Read workflow.js:142 in the photo: no budget check", "G-finding", "photo"),
    (
        "Opened workflow.js:142 (the version the writer sent me): no budget check",
        "G-finding",
        "the version the writer sent",
    ),
    ("Opened workflow.js:142 in the miner's clone: no budget check", "G-finding", "clone"),
    ("Opened workflow.js:142 in my memory of the file: no budget", "G-negated", "in my memory"),
    ("Opened workflow.js:142: no budget check. Not.", "G-negated", "not"),
    ("Opened workflow.js:142: no budget check. I was mistaken.", "G-negated", "mistaken"),
    ("Opened workflow.js:142: no budget check. Please disregard.", "G-negated", "disregard"),
    (
        "Opened workflow.js:142: no budget check. Oops, that was a different file.",
        "G-negated",
        "different file",
    ),
    ("Opened workflow.js:142: no budget check. Update: I misread it", "G-negated", "misread"),
    ("Opened workflow.js:142: allegedly no budget check", "G-hedged", "allegedly"),
    ("Opened workflow.js:142: supposedly no budget check", "G-hedged", "supposedly"),
    ("Opened workflow.js:142: no budget check (unverified)", "G-hedged", "unverified"),
    ("Opened workflow.js:142: no budget check, or so I was told", "G-hedged", "told"),
    # refuter r18l, built as classes (gentle_hooks/quorum/copies.py, readings.py): each phrase a
    # row, with a sibling of its class. (b) another source than the candidate's own file:
    (
        "Opened workflow.js:142 from the tarball the writer sent: no budget check",
        "G-finding",
        "tarball",
    ),
    ("Opened workflow.js:142 from the zip the writer sent: no budget check", "G-finding", "zip"),
    ("Opened the pastebin of workflow.js:142: no budget check", "G-finding", "pastebin"),
    ("Read workflow.js:142 in the Jira ticket: no budget check", "G-finding", "jira ticket"),
    ("Read workflow.js:142 on the Teams message: no budget check", "G-finding", "teams message"),
    ("Opened workflow.js:142 in a stale checkout: no budget check", "G-finding", "stale checkout"),
    (
        "Opened workflow.js:142 from the archive in the attachment: no budget check",
        "G-finding",
        "archive",
    ),
    ("Opened workflow.js:142 in an old clone: no budget check", "G-finding", "old clone"),
    (
        "Ran `grep -n budget workflow.js` in an outdated clone: no match",
        "G-finding",
        "outdated clone",
    ),
    ("Read workflow.js:142 in the design doc: no budget check", "G-finding", "design doc"),
    # refuter r18l, second round: a tree named by "a" alone, a hosted view, more hedges.
    ("Opened workflow.js:142 in a checkout: no budget check", "G-finding", "in a checkout"),
    ("Ran `grep -n budget workflow.js` from some clone: no match", "G-finding", "some clone"),
    ("Opened workflow.js:142 on GitHub: no budget check", "G-finding", "on github"),
    ("Read workflow.js:142 on github.com: no budget check", "G-finding", "on github.com"),
    ("Opened workflow.js:142 in the browser: no budget check", "G-finding", "in the browser"),
    ("Read workflow.js:142 online: no budget check", "G-finding", "online"),
    ("Opened workflow.js:142: it looks like there is no budget check", "G-hedged", "it looks like"),
    ("Opened workflow.js:142: I'd bet there is no budget check", "G-hedged", "i'd bet"),
    ("Opened workflow.js:142: not sure, but no budget check", "G-hedged", "not sure"),
    # refuter r18m: another version named by its revision, review tools, builds, hedges.
    ("Opened workflow.js:142 at an older commit: no budget check", "G-finding", "older commit"),
    ("Opened workflow.js:142 at HEAD~3: no budget check", "G-finding", "at head~3"),
    ("Opened workflow.js:142 on main instead of the candidate: no cap", "G-finding", "on main"),
    ("Opened workflow.js:142 on the main branch: no budget check", "G-finding", "main branch"),
    ("Opened workflow.js:142 in the previous release: no cap", "G-finding", "previous release"),
    ("Opened workflow.js:142 in v1.2: no budget check", "G-finding", "in v1.2"),
    ("Opened workflow.js:142 before the change: no budget check", "G-finding", "before the"),
    ("Opened workflow.js:142 in Gerrit: no budget check", "G-finding", "in gerrit"),
    ("Opened workflow.js:142 in the code review tool: no cap", "G-finding", "review tool"),
    ("Opened workflow.js:142 in the PR diff: no budget check", "G-finding", "pr diff"),
    ("Opened workflow.js:142 in the minified build: no budget check", "G-finding", "build"),
    (
        "Opened workflow.js:142 in the IDE preview of the writer's session: no budget check",
        "G-finding",
        "preview",
    ),
    ("Opened workflow.js:142: looks to me like no budget check", "G-hedged", "looks to me like"),
    ("Opened workflow.js:142: from what I can see, no budget check", "G-hedged", "from what i"),
    ("Opened workflow.js:142: no budget check, if I read it right", "G-hedged", "if i read"),
    ("Opened workflow.js:142: I gather there is no budget check", "G-hedged", "i gather"),
    # refuter r18n (tests/unit/test_quorum_versions.py): the writer's work tree is not the
    # candidate's (README: checks run in the room, "never in the work tree").
    (
        "Opened workflow.js:142 in the worktree the writer produced: no budget check",
        "G-finding",
        "worktree",
    ),
    # (a) the reading attributed to someone else; "we" is not the verifier alone:
    (
        "Opened workflow.js:142 as the writer described it: no budget check",
        "G-hedged",
        "as the writer described",
    ),
    (
        "Opened workflow.js:142: according to the writer, no budget check",
        "G-hedged",
        "according to",
    ),
    (
        "Opened workflow.js:142 (as the writer told me): no budget check",
        "G-hedged",
        "as the writer told",
    ),
    ("Opened workflow.js:142: no budget check, so I've heard", "G-hedged", "i've heard"),
    ("Opened workflow.js:142: rumor has it there is no budget check", "G-hedged", "rumor has it"),
    ("Opened workflow.js:142: no budget check (hearsay)", "G-hedged", "hearsay"),
    ("Opened workflow.js:142: no budget check, per the tester", "G-hedged", "per the tester"),
    (
        "Opened workflow.js:142: the reviewer told me there is no budget check",
        "G-hedged",
        "reviewer told",
    ),
    ("We ran `grep -n budget workflow.js`: no match", "G-hedged", "we ran"),
    ("We opened workflow.js:142: the loop has no budget check", "G-hedged", "we opened"),
    # (c) epistemic modals and verbs, a trailing question:
    ("Opened workflow.js:142: apparently no budget check", "G-hedged", "apparently"),
    ("Opened workflow.js:142: it may have no budget check", "G-hedged", "may"),
    ("Opened workflow.js:142: it seems to have no budget check", "G-hedged", "seems"),
    ("Opened workflow.js:142 (untested): no budget check", "G-hedged", "untested"),
    ("Opened workflow.js:142: no budget check, or so it seems", "G-hedged", "seems"),
    ("Opened workflow.js:142: no budget check?", "G-hedged", "a question"),
    ("Opened workflow.js:142: the loop might have no budget check", "G-hedged", "might"),
    ("Opened workflow.js:142: the loop appears to lack a budget check", "G-hedged", "appears to"),
    ("Opened workflow.js:142: no budget check (right?)", "G-hedged", "a question"),
    # (d) make-believe frames:
    ("Pretend I opened workflow.js:142: no budget check", "G-negated", "pretend"),
    ("Assume I opened workflow.js:142: no budget check", "G-negated", "assume"),
    ("Opened workflow.js:142 (simulated): no budget check", "G-negated", "(simulated)"),
    ("Suppose we opened workflow.js:142: no budget check", "G-negated", "suppose"),
    ("Hypothetically, opened workflow.js:142: no budget check", "G-negated", "hypothetically"),
    ("Opened workflow.js:142 as if I had run it: no budget check", "G-negated", "as if i"),
    # (e) retraction markers after the act. "it actually caps at 5" may be emphasis or a
    # retraction; the words cannot tell: seed 003 "Default to refuted when uncertain".
    (
        "Opened workflow.js:142: no budget check. Edit: actually there is a cap at line 150",
        "G-negated",
        "edit",
    ),
    ("Opened workflow.js:142: no budget check. My bad, that was pool.js", "G-negated", "my bad"),
    ("Opened workflow.js:142: no budget check. Actually, no.", "G-negated", "actually"),
    ("Opened workflow.js:142 — it actually caps at 5", "G-negated", "actually"),
    ("Opened workflow.js:142: no budget check. Oops, wrong one", "G-negated", "oops"),
    ("Opened workflow.js:142: no budget check. Sorry, that was pool.js", "G-negated", "sorry"),
    ("Opened workflow.js:142: no budget check — wait, there is a cap", "G-negated", "wait"),
    ("Opened workflow.js:142: no budget check. No.", "G-negated", "no"),
]

#: Upheld reproductions of the cited evidence: they count as the verifier said.
UPHELD_ROWS: list[str] = [
    "Opened workflow.js:142: the likely cause, a for loop calling spawnAgent with no budget check",
    "Opened workflow.js:142: it spawns subagents in a loop with no budget check",
    "Opened workflow.js:142: the for loop at line 142 calls spawnAgent with no budget check",
    "Ran `sed -n 140,145p workflow.js`: line 142 is a for loop calling spawnAgent, no cap",
    "Ran `cat src/workflow.js`: line 142 loops over spawnAgent with no budget check",
    "Opened workflow.js:142 as the miner's report cites: a for loop calls spawnAgent, no cap",
    # A copy that only points to the file, a command taken from one, a quote found in the
    # file, a quoted hedge and a denial of another act are not reading a copy or hedging.
    "Opened workflow.js:142 cited in the finding: the loop calls spawnAgent, no budget check",
    "Opened workflow.js:142 named in the task description: a for loop calls spawnAgent, no cap",
    "Ran the command from the task description, `grep -n budget workflow.js`: no match",
    "Found the quote verbatim in workflow.js:142: for (a of agents) spawnAgent(a)",
    "Opened workflow.js:142 in the editor: the loop calls spawnAgent with no budget check",
    'Opened workflow.js:142: the comment says "I think we need a cap" but there is none',
    "Opened workflow.js:142: the loop spawns agents, no cap; I did not run the replay",
    "Opened workflow.js:142: no budget check, I didn't find any cap",
    "Searched the repo for spawnAgent, found workflow.js:142: the loop has no budget check",
    "Opened workflow.js:142 in my clone: the loop calls spawnAgent with no budget check",
    "Opened workflow.js:142: no budget check. Not a false positive: the loop has no cap",
    "Opened workflow.js:142: no budget check, not even a counter in the loop",
    # Near misses of the r18l classes (gentle_hooks/quorum/readings.py, copies.py): the
    # marker before the act, a container word inside a code noun, a pointer, a date, a count,
    # what code did, a question answered, a quoted URL, an attribution before the act.
    "I actually opened workflow.js:142 myself: the loop calls spawnAgent with no budget check",
    "Edit: opened workflow.js:142: the loop calls spawnAgent with no budget check",
    "Opened workflow.js:142 in the message handler: the loop calls spawnAgent, no budget check",
    "Opened workflow.js:142 in the thread pool module: the loop has no budget check",
    "Opened workflow.js:142 in a fresh checkout of the candidate: the loop has no budget check",
    "Opened workflow.js:142 cited in the Jira ticket: the loop calls spawnAgent, no budget check",
    "Opened workflow.js:142 and ran the replay of the May 14 run: 41 agents against a cap of 16",
    "Opened workflow.js:142: the string spawnAgent appears twice, neither with a budget check",
    "Ran `pytest -k fanout workflow.test.js`: the test simulated 41 spawns of workflow.js:142",
    "Opened workflow.js:142 — any budget check? None: the loop calls spawnAgent unguarded",
    "Ran `curl -s 'http://x/run?id=1'` and opened workflow.js:142: no budget check, 41 agents",
    "Opened workflow.js:142: the loop does not assume a cap; spawnAgent is called unguarded",
    "Opened workflow.js:142: the comment says no cap is needed, and the loop has no budget check",
    "Opened workflow.js:142: no budget check, as expected the loop calls spawnAgent unguarded",
    "Ran `git diff HEAD~1 -- workflow.js` against the previous commit: line 142 lost its cap",
    "The ticket says line 142 loops; I opened workflow.js:142: no budget check there",
    "Opened workflow.js:142 in a fresh clone of the candidate: the loop has no budget check",
    "Opened workflow.js:142 in the online_users module: the loop has no budget check",
    "Opened github_client.py:42 and workflow.js:142: the loop has no budget check",
    "Opened workflow.js:142 in the main loop: spawnAgent is called with no budget check",
    "Opened main.py:12 and workflow.js:142: the loop has no budget check",
    "Opened workflow.js:142 in the build script section: the loop has no budget check",
    "Opened workflow.js:142: the loop looks up no budget before calling spawnAgent",
]


@pytest.mark.parametrize(
    "checked",
    [
        "Ran pytest -q: 3 failed",
        "Opened workflow.js:142: the loop spawns agents with no budget check",
    ],
)
def test_own_acts_count_with_no_evidence_given(checked: str) -> None:
    """Issue 18 item 4: the copy, hedge and denial rows leave an act of the verifier's
    own, reported as fact, counting (no ``G-elsewhere`` without evidence)."""
    assert supported_unchecked(_record(checked, None)), checked


def _record(checked: str, evidence: str | None = EVIDENCE):  # type: ignore[no-untyped-def]
    verdict = {"refuted": False, "reason": "it reproduces", "whatIChecked": checked}
    return build_record([verdict], CLAIM, evidence=evidence)


@pytest.mark.parametrize(
    ("checked", "row", "shown"), REFUTED_ROWS, ids=[r[0] for r in REFUTED_ROWS]
)
def test_a_check_of_nothing_refutes(checked: str, row: str, shown: str) -> None:
    record = _record(checked)
    assert record.ruling == "REFUTED", checked
    (vote,) = record.votes
    assert vote.vote is VoteKind.REFUTED
    assert vote.overruled is not None
    assert vote.overruled.startswith(f"{row}: missing "), vote.overruled
    assert shown in vote.overruled, vote.overruled


@pytest.mark.parametrize("checked", UPHELD_ROWS)
def test_a_reproduction_of_the_cited_evidence_is_upheld(checked: str) -> None:
    assert supported_unchecked(_record(checked)), checked


def test_a_bare_copy_of_the_evidence_abstains() -> None:
    for checked in (EVIDENCE, f"I checked: {EVIDENCE}"):
        record = _record(checked)
        assert record.ruling == "PLAUSIBLE", checked
        (vote,) = record.votes
        assert vote.abstention == "whatIChecked restates the miner's evidence: no independent check"


def test_another_file_counts_without_evidence_given() -> None:
    """``G-elsewhere`` needs the finding's evidence; without it the other rules judge."""
    assert supported_unchecked(_record("Opened README.md: it says subagents have no cap", None))


def test_commands_that_read_a_file_are_not_no_checks() -> None:
    """``cat``/``wc`` verify nothing as receipts, but they re-open the evidence."""
    assert grounds_reason("Ran `wc -l workflow.js`: 300 lines", CLAIM, EVIDENCE) is None


def test_every_row_is_in_the_readme_and_the_module() -> None:
    section = README.read_text(encoding="utf-8")
    for row in GROUND_ROWS:
        assert f"`{row.id}`" in section, row.id


def _readme_rows() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    start = text.index("| upheld `whatIChecked`, with that evidence |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append((cells[0], cells[1]))
    return rows


def test_readme_evidence_table_is_what_the_tally_does() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    given = re.search(r'With `--evidence "([^"]+)"`', text)
    assert given is not None and given.group(1) == EVIDENCE
    rows = _readme_rows()
    assert len(rows) >= 10
    # no tree given: an upheld row counts as support, ruled PLAUSIBLE for want of a check
    expected = {"upheld": ("PLAUSIBLE", "Q6U"), "abstained": ("PLAUSIBLE", "Q1")}
    for checked, kind in rows:
        record = _record(checked)
        assert (record.ruling, record.row) == expected.get(kind, ("REFUTED", "Q2")), checked
        assert [v.vote.value for v in record.votes] == [kind], checked
