"""An upheld check that read another version of the file, or a second-hand account of it,
re-opened nothing of the candidate (seed ``003_0245072c02421c57.txt``: "Independently
re-open the cited evidence. Do not trust the miner's reading of it"; "Uphold ONLY if you
re-opened the evidence yourself and it reproduces"; "Default to refuted when uncertain").

Refuter r18n's 14 phrases (``/tmp/r18n-q/miss.sh``: one upheld verdict, ordinary stakes,
each CONFIRMED) and a sibling of each class (:mod:`gentle_hooks.quorum.versions`,
:data:`gentle_hooks.quorum.copies.SECOND_HAND`) are REFUTED by row ``G-finding``; the near
misses (an order word before a noun that is no version, the room's own tree, a file opened
beside a second-hand account) stay CONFIRMED.
"""

from __future__ import annotations

import pytest

from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind
from tests.quorum_tree import supported_unchecked

#: Refuter r18n's claim: no evidence is given, so ``G-elsewhere`` plays no part.
CLAIM = "the fan-out in app.py is unbounded"

#: (upheld whatIChecked, words the reason shows): r18n's 14 first, then siblings.
REFUTED: list[tuple[str, str]] = [
    ("I read the commit message, which says app.py:12 removed the cap", "commit message"),
    ("I read app.py:12 in the PR's first revision: no cap", "first revision"),
    ("I opened app.py:12 in the work tree (not the candidate): no cap", "work tree"),
    ("I opened app.py:12 in an earlier draft: the loop has no cap", "earlier draft"),
    ("I opened app.py:12 before the rebase: the loop has no cap", "before the rebase"),
    ("I opened app.py:12 in the stash: the loop has no cap", "in the stash"),
    ("I opened app.py:12 in the first patch set: the loop has no cap", "first patch set"),
    ("I opened app.py:12 in the original diff: the loop has no cap", "original diff"),
    ("I opened app.py:12 in the second commit of the PR: the loop has no cap", "second commit"),
    ("I opened app.py:12 in revision 1: the loop has no cap", "revision 1"),
    ("I opened app.py:12 in my local checkout: the loop has no cap", "local checkout"),
    ("I opened app.py:12 in the uncommitted work tree: the loop has no cap", "uncommitted"),
    ("I read the changelog entry for app.py:12: the cap was removed", "changelog entry"),
    ("I read the code review comments on app.py:12: no cap", "code review comments"),
    # another version, by order or age before a version noun
    ("I opened app.py:12 in the third patch set: the loop has no cap", "third patch set"),
    ("I opened app.py:12 in the 2nd revision: the loop has no cap", "2nd revision"),
    ("I opened app.py:12 in the initial commit: the loop has no cap", "initial commit"),
    ("I opened app.py:12 in the superseded patch: the loop has no cap", "superseded patch"),
    ("I opened the original version of app.py:12: the loop has no cap", "original version"),
    ("I opened the earlier draft of app.py:12: the loop has no cap", "earlier draft"),
    ("I opened app.py:12 in the original code: the loop has no cap", "original code"),
    ("I opened app.py:12 in the pre-rebase commit: the loop has no cap", "pre-rebase commit"),
    # another version, by its number or its moment
    ("I opened app.py:12 in patch set 2: the loop has no cap", "patch set 2"),
    ("I opened app.py:12 in PS3: the loop has no cap", "ps3"),
    ("I opened app.py:12 in rev 4: the loop has no cap", "rev 4"),
    ("I opened app.py:12 in v2 of the PR: the loop has no cap", "in v2"),
    ("I opened app.py:12 in the draft: the loop has no cap", "the draft"),
    ("I opened app.py:12 before the squash: the loop has no cap", "before the squash"),
    ("I opened app.py:12 prior to the force-push: the loop has no cap", "force-push"),
    ("I opened app.py:12 before amending: the loop has no cap", "before amending"),
    ("I opened app.py:12 in stash@{0}: the loop has no cap", "stash@{0}"),
    # the writer's tree: a state of it, its work tree, or said not to be the candidate
    ("I opened app.py:12 in the stashed changes: the loop has no cap", "stashed changes"),
    ("I opened app.py:12 in my local clone: the loop has no cap", "local clone"),
    ("I opened app.py:12 in the dirty working copy: the loop has no cap", "dirty working copy"),
    ("I opened app.py:12 in the working tree: the loop has no cap", "working tree"),
    ("I opened app.py:12 in the worktree the writer produced: no cap", "worktree"),
    ("I opened app.py:12 in the repo instead of the candidate: no cap", "instead of the"),
    ("Ran `grep -n cap app.py` in my local checkout: no match", "local checkout"),
    # second-hand accounts
    ("I read the release notes for app.py:12: the cap was removed", "release notes"),
    ("I read the merge request description of app.py:12: no cap", "merge request description"),
    ("I read the issue text about app.py:12: no cap", "issue text"),
    ("I read the bug report on app.py:12: no cap", "bug report"),
    ("I read the writer's commit message about app.py:12: no cap", "commit message"),
    ("I read app.py:12 as described in the release notes: no cap", "release notes"),
    ("I read the commit log for app.py:12: the cap was removed", "commit log"),
    ("I read the PR title: app.py:12 drops the cap", "pr title"),
    # second round: more accounts, another party's branch, a patch of a series
    ("I read the GitHub issue about app.py:12: no cap", "github issue"),
    ("I read the release announcement: app.py:12 dropped the cap", "release announcement"),
    ("I read the git log message of app.py:12: the cap was removed", "git log message"),
    ("I opened app.py:12 on the writer's branch: the loop has no cap", "writer's branch"),
    ("I opened app.py:12 in patch 2 of 3: the loop has no cap", "patch 2"),
]

#: Near misses: the candidate's own file, read as the verifier said.
UPHELD: list[str] = [
    "I traced the first call of spawn to app.py:12: the loop has no cap",
    "I opened app.py:12 at the first call site: the loop has no cap",
    "I opened app.py:12 in the first loop: it has no cap",
    "I opened app.py:12 in the second branch of the if: the loop has no cap",
    "I opened app.py:12 and compared the original behaviour of the parser in the candidate: "
    "the loop has no cap",
    "I opened app.py:12 in the old code path: the loop has no cap",
    "I opened app.py:12 in the latest commit: the loop has no cap",
    "I opened app.py:12 before the loop: spawn is called with no cap",
    "I opened app.py:12 in the work tree of the room: the loop has no cap",
    "I opened app.py:12 in the room's tree: the loop has no cap",
    "I opened app.py:12 in the clean room's work tree: the loop has no cap",
    "I opened app.py:12 in my local checkout of the candidate: the loop has no cap",
    "I read the commit's diff of the candidate: app.py:12 drops the cap",
    "I opened app.py:12 and read the commit message: the loop has no cap",
    "I opened app.py:12 in the changelog module: the loop has no cap",
    "I opened app.py:12 in my clone: the loop has no cap",
    # before and after: the candidate is one of the two it ran
    "Ran `pytest -q test_app.py` before the fix and after: 3 failed, then 0 failed",
]


def _record(checked: str):  # type: ignore[no-untyped-def]
    verdict = {"refuted": False, "reason": "the fan-out is unbounded", "whatIChecked": checked}
    return build_record([verdict], CLAIM)


@pytest.mark.parametrize(("checked", "shown"), REFUTED, ids=[r[0] for r in REFUTED])
def test_another_version_or_a_second_hand_account_refutes(checked: str, shown: str) -> None:
    record = _record(checked)
    assert record.ruling == "REFUTED", checked
    (vote,) = record.votes
    assert vote.vote is VoteKind.REFUTED
    assert vote.overruled is not None
    assert vote.overruled.startswith("G-finding: missing "), vote.overruled
    assert shown in vote.overruled, vote.overruled


@pytest.mark.parametrize("checked", UPHELD)
def test_the_candidates_own_file_stays_upheld(checked: str) -> None:
    assert supported_unchecked(_record(checked)), checked
