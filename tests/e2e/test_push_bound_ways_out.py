"""A pre-push block's way out for a commit that is not HEAD, pasted as printed, and the
override it prints, bound to the candidate it names (SPEC §5 "Overrides", §7: every
command a block prints runs exactly as printed, from where the user is).

* An escalated commit below HEAD: its verifier's run happens in a linked worktree of the
  commit, so the user's branch, HEAD, index and uncommitted work never move.
* The override a refuted block prints names its candidate: another blocked commit of the
  same push still blocks.
* A commit block over a failed report made in a temporary checkout names what of the work
  tree that run did not see.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import TOKEN_BRIEF, World, paste_first_way
from tests.e2e.test_refuted import SKIP, _refuted, _said

TOKENS = "def check_token(t):\n    return bool(t)\n"


def test_an_escalated_commit_below_head_is_verified_in_a_worktree_of_its_own(
    world: World,
) -> None:
    w = world
    w.delegate(text=TOKENS)
    w.spot_check()
    w.escalate()
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: tokens, hooks skipped")
    escalated = w.rev("HEAD")
    w.write("README.md", "# demo\n\nby a human\n")
    w.ok("commit", "-q", "--no-verify", "-am", "human: readme")
    head = w.rev("HEAD")
    # the user's own work in progress: a staged, an unstaged and an untracked change
    w.write("README.md", "# demo\n\nby a human, staged\n")
    w.ok("add", "README.md")
    w.write("src/app.py", TOKENS + "# in progress\n")
    w.write("notes.txt", "mine\n")
    status = w.ok("status", "--porcelain")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    assert any(f"BLOCKED commit {escalated[:12]}" in line for line in blocked.said), blocked
    ran = paste_first_way(w, blocked.said, w.work, None, brief=TOKEN_BRIEF, follow_verify=True)
    where = f'"$(git rev-parse --git-common-dir)/gentle-hooks/verifier-{escalated[:12]}"'
    assert ran[0] == (
        f"test ! -e {where} || git worktree remove --force {where}; "
        f"git worktree add -f -q --detach {where} {escalated}"
    ), ran
    assert ran[-1] == f"git worktree remove --force {where}", ran
    assert any(c.startswith(f"gentle-hook verify run --cwd {where} --committed") for c in ran)
    assert not any(("stash" in c or "switch" in c or "checkout" in c) for c in ran), ran
    # the user's branch, HEAD, index and work tree are as they were
    assert w.ok("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert w.rev("HEAD") == head
    assert w.ok("status", "--porcelain") == status
    assert (w.work / "src/app.py").read_text() == TOKENS + "# in progress\n"
    assert w.ok("stash", "list") == ""
    assert len(w.ok("worktree", "list").splitlines()) == 1
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == head


def test_a_printed_override_lets_through_only_the_candidate_it_names(
    native: World, tmp_path: Path
) -> None:
    """A push of a refuted commit and an unverified one: the refuted block's override names
    its candidate; run as printed, the other commit still blocks, nothing is pushed or
    recorded. Once that one is verified, the same line lets the push through."""
    w = native
    _refuted(w, tmp_path / "flaky")
    assert w.git("commit", "-q", "-m", "writer change", env={"GENTLE_HOOKS_SKIP": "x"}).code == 0
    refuted = w.gh("assess", "--json", "--committed-only")
    identity = json.loads(refuted.out)["candidate"]["identity"]
    before = w.rev("origin/main")
    w.unverified("def add(a, b):\n    return a + b  # writer, again\n")
    head = w.rev("HEAD")
    overrides = w.ledger("SELECT count(*) FROM override")
    blocked = w.git("push", "-q", "origin", "HEAD")
    assert blocked.code == 1, blocked
    runs = [r for r in _said(blocked.said, "run") if r.startswith(SKIP)]
    assert runs == [f"{SKIP} GENTLE_HOOKS_SKIP_ONLY={identity} git push -q origin HEAD"], runs
    done = w.run(["sh", "-c", runs[0]])
    assert done.code == 1, done
    assert "GENTLE_HOOKS_SKIP: GENTLE_HOOKS_SKIP_ONLY names 1 of the 2 blocked" in done.err, done
    assert w.remote_ref("refs/heads/main") == before
    assert w.ledger("SELECT count(*) FROM override") == overrides
    # the unverified commit verified (it is HEAD): the same line lets the refuted one through
    w.report("--committed")
    w.spot_check("--committed")
    done = w.run(["sh", "-c", runs[0]])
    assert done.code == 0, done
    assert w.remote_ref("refs/heads/main") == head


def test_a_failed_report_in_a_temporary_checkout_names_what_it_did_not_see(
    native: World,
) -> None:
    """The writer's test reads an untracked file: ``receipt run --staged`` runs in a
    temporary checkout of the staged tree, without it, and fails; the commit block names
    the file the work tree differs in and how it gets in, as the receipt run's note did."""
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.write("fixture.txt", "data the test reads\n")  # untracked, not ignored
    reads = ("python3", "-c", "open('fixture.txt').read()")
    ran = w.gh("receipt", "run", "--staged", "--", *reads)
    assert ran.code != 0 and "differs from it in fixture.txt" in ran.err, ran
    blocked = w.git("commit", "-q", "-m", "writer change")
    assert blocked.code == 1, blocked
    note = (
        "note: its report ran in a temporary linked checkout of the staged tree; the work tree "
        "differs from it in fixture.txt the run did not see: if the command needed one, "
        "stage it or list it in .gitignore (ignored files are linked in), then report again; "
        "to stage the untracked ones, run: git add -- ':(top,literal)fixture.txt'"
    )
    assert any(line.endswith(note) for line in blocked.said), blocked.said


def test_the_verifiers_report_outlives_the_worktree_it_ran_in(native: World) -> None:
    """The escalated commit below HEAD is verified in a linked worktree the block removes
    at its end: the verifier's report (the artifact pair) is written under the common git
    directory instead (``gentle-hooks/reports/<identity>/``), the ``verdict add`` the verify
    run prints names it there, and it is still there once the worktree is gone."""
    w = native
    w.delegate(text=TOKENS)
    w.spot_check()
    w.escalate()
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: tokens, hooks skipped")
    escalated = w.rev("HEAD")
    w.ok("commit", "-q", "--no-verify", "--allow-empty", "-m", "human: nothing")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    assert any(f"BLOCKED commit {escalated[:12]}" in line for line in blocked.said), blocked
    ran = paste_first_way(w, blocked.said, w.work, None, brief=TOKEN_BRIEF, follow_verify=True)
    assert ran[-1].startswith("git worktree remove"), ran
    assert len(w.ok("worktree", "list").splitlines()) == 1
    reports = w.work / ".git" / "gentle-hooks" / "reports"
    kept = sorted(reports.glob("*/*.json"))
    assert len(kept) == 1, kept
    identity = "sha256:" + kept[0].parent.name
    assert any(c.startswith("gentle-hook verdict add ") and str(kept[0]) in c for c in ran), ran
    assert kept[0].with_suffix(".md").is_file()
    assert json.loads(kept[0].read_text())["candidate"]["identity"] == identity
    stored = w.ledger("SELECT artifact_ref FROM verdict WHERE identity = ?", (identity,))
    assert stored == [(str(kept[0]),)], stored
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
