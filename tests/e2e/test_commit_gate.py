"""The commit gate through installed hooks (SPEC §3 "Binding", §5).

Each test runs twice: hooks from ``pre-commit install`` and from ``gentle-hook install``.
"""

from __future__ import annotations

import shlex
import shutil

from tests.conftest import PASSING_VERDICT
from tests.e2e.conftest import CHECK, OVERRIDE_LINE, World, named_brief

BLOCKED_STAGED = (
    "gentle-hooks: BLOCKED the staged change: delegated (writer content (o4-mini/low) in "
    "src/app.py)"
)
#: The block's one line of what is missing: the headline, no "missing:" line repeating it.
MISSING_SPOT = (
    "gentle-hooks:   missing a passing re-run of the writer's test on this exact change (plan "
    "risk medium)"
)
RUN_SPOT_STAGED = "gentle-hooks:   run: gentle-hook spot-check --staged"


def test_human_commit_and_push_pass_quietly(world: World) -> None:
    world.write("src/app.py", "def add(a, b):\n    return b + a\n")
    world.ok("add", "-A")
    commit = world.git("commit", "-q", "-m", "human change")
    assert (commit.code, commit.said) == (0, [])
    if world.installer == "gentle-hook":
        assert commit.err == ""  # not one line from the hooks
    push = world.git("push", "-q", "origin", "main")
    assert (push.code, push.said) == (0, [])
    assert world.remote_ref("main") == world.rev("HEAD")


def test_delegated_commit_is_blocked_until_the_fix_command_runs(world: World) -> None:
    world.delegate(text="def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    world.ok("add", "-A")
    head = world.rev("HEAD")
    staged_before = world.ok("ls-files", "--stage", "-z")
    blocked = world.git("commit", "-m", "writer: sub")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == BLOCKED_STAGED
    assert MISSING_SPOT in blocked.said
    assert not any(line.startswith("gentle-hooks:   missing: ") for line in blocked.said)
    assert RUN_SPOT_STAGED in blocked.said
    assert blocked.said[-1] == OVERRIDE_LINE
    assert world.rev("HEAD") == head
    # the gate changed neither the index's entries nor the work tree (git itself refreshes
    # the index file's stat data and cache tree before it runs the hook)
    assert world.ok("ls-files", "--stage", "-z") == staged_before
    assert world.ok("status", "--porcelain") == "M  src/app.py\n"

    world.spot_check("--staged")  # the command the block named
    passed = world.git("commit", "-m", "writer: sub")
    assert passed.code == 0, passed
    assert world.rev("HEAD^") == head
    if world.installer == "gentle-hook":
        assert passed.said == [
            "gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires",
            f"gentle-hooks: recorded {world.rev('HEAD')[:12]} as delegated (o4-mini/low): "
            "writer content in src/app.py",
        ]
    assert world.ledger("SELECT commit_id, hook, stale FROM commit_record") == [
        (world.rev("HEAD"), "post-commit", 0)
    ]
    push = world.git("push", "origin", "main")
    assert (push.code, world.remote_ref("main")) == (0, world.rev("HEAD")), push
    world.assert_clean()


def test_escalated_change_needs_an_accepted_verdict(world: World) -> None:
    world.delegate(text="def check_token(t):\n    return bool(t)\n")
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")
    no_verdict = world.git("commit", "-m", "writer: tokens")
    assert no_verdict.code == 1, no_verdict
    assert (
        "gentle-hooks:   missing a separate verifier run (gentle-ai-verify) of this exact change "
        "(plan risk high)"
    ) in no_verdict.said
    assert not [line for line in no_verdict.said if "rows " in line]  # row ids: --json only
    assert (
        "gentle-hooks:   missing: plan risk high (escalated: 2 security) needs 1 accepted "
        "gentle-ai-verify verdict(s) for this candidate (stakes ordinary), found 0"
    ) in no_verdict.said
    brief = named_brief(world.work, no_verdict.said)  # outside the work tree
    run = f"gentle-hooks:   run: gentle-hook verify run --staged --brief {brief}"
    assert run in no_verdict.said

    refused = world.verdict("--staged", data={**PASSING_VERDICT, "fullSuiteRun": False})
    assert refused.code == 1, refused
    still = world.git("commit", "-m", "writer: tokens")
    assert still.code == 1, still
    assert any(
        "not accepted: verdict #1 (brief brief-1, status blocked): the full suite did not run "
        "in full" in line
        for line in still.said
    ), still

    # a passing verdict written by hand: its claims cannot be checked, it never counts
    hand = world.verdict("--staged")
    assert hand.code == 1 and "not accepted: not observed" in hand.out, hand
    assert world.git("commit", "-m", "writer: tokens").code == 1

    accepted = world.verified("--staged")
    assert accepted.code == 0, accepted
    passed = world.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed
    push = world.git("push", "origin", "main")
    assert push.code == 0, push
    world.assert_clean()


def test_escalated_commit_made_with_no_verify_is_blocked_on_push(world: World) -> None:
    world.delegate(text="def check_token(t):\n    return bool(t)\n")
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")
    world.ok("commit", "-q", "--no-verify", "-m", "writer: tokens, hooks skipped")
    commit = world.rev("HEAD")
    push = world.git("push", "origin", "main")
    assert push.code == 1, push
    assert (
        f"gentle-hooks: BLOCKED commit {commit[:12]} on refs/heads/main: delegated (writer "
        "content (o4-mini/low) in src/app.py)"
    ) in push.said
    brief = named_brief(world.work, push.said)  # outside the work tree
    assert f"gentle-hooks:   run: gentle-hook verify run --committed --brief {brief}" in push.said
    assert world.remote_ref("main") == world.rev("HEAD^")
    assert world.verified("--committed").code == 0
    again = world.git("push", "origin", "main")
    assert (again.code, world.remote_ref("main")) == (0, commit), again


def test_commit_all_judges_the_index_git_hands_the_hook(world: World) -> None:
    # The writer's work is in the work tree only; `commit -a` stages it in a temporary index.
    world.delegate(text="def add(a, b):\n    return a + b  # checked\n")
    world.spot_check()
    assert world.ok("status", "--porcelain") == " M src/app.py\n"
    r = world.git("commit", "-a", "-m", "writer: commit -a")
    assert r.code == 0, r
    assert world.ok("status", "--porcelain") == ""
    assert world.ledger("SELECT count(*) FROM commit_record") == [(1,)]


def test_a_blocked_commit_all_names_the_command_that_binds_its_candidate(world: World) -> None:
    # `commit -a` leaves the user's own index untouched and the work tree may gain untracked
    # files (a test run's __pycache__/) before the spot check: the fix stages what `commit
    # -a` commits, then binds with --staged.
    world.delegate(text="def add(a, b):\n    return a + b  # commit -a\n")
    blocked = world.git("commit", "-a", "-m", "writer: commit -a")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == BLOCKED_STAGED
    assert "gentle-hooks:   run: git add -A -- ':(top,literal)src/app.py'" in blocked.said
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    world.write("litter.txt", "left behind by a test run\n")
    world.ok("add", "-A", "--", ":(top,literal)src/app.py")
    world.spot_check("--staged")
    r = world.git("commit", "-a", "-m", "writer: commit -a")
    assert r.code == 0, r
    assert world.ok("status", "--porcelain") == "?? litter.txt\n"


def test_commit_paths_judges_exactly_the_paths_committed(world: World) -> None:
    # Spot-checked: the writer's app.py alone. A staged README edit is not part of the commit.
    world.delegate(text="def add(a, b):\n    return a + b  # only this\n")
    world.spot_check()
    world.write("README.md", "# demo, staged for later\n")
    world.ok("add", "README.md")
    r = world.git("commit", "-m", "writer: app only", "src/app.py")
    assert r.code == 0, r
    assert world.ok("show", "--name-only", "--format=", "HEAD") == "src/app.py\n"
    assert world.ok("status", "--porcelain") == "M  README.md\n"


def test_committing_part_of_the_checked_work_is_blocked(world: World) -> None:
    world.write("README.md", "# demo, by the writer\n")
    world.delegate(text="def add(a, b):\n    return a + b  # part one\n")
    world.spot_check()  # binds to both changes
    r = world.git("commit", "-m", "writer: app only", "src/app.py")
    assert r.code == 1, r
    assert BLOCKED_STAGED in r.said
    assert MISSING_SPOT in r.said
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in r.said
    assert (
        "gentle-hooks:   note: git judged a temporary index (commit -a or commit <paths>): "
        "the git commands below make the index hold the same content (what they unstage stays "
        "in the work tree), so --staged binds this candidate; then run the same git commit again"
    ) in r.said
    # the index is made to hold what the commit holds first, then the --staged commands:
    # the writer's report of the work tree's other candidate, made again for this one
    add = r.said.index("gentle-hooks:   run: git add -A -- ':(top,literal)src/app.py'")
    again = f"gentle-hooks:   run: gentle-hook receipt run --staged -- {shlex.join(CHECK)}"
    assert add < r.said.index(again)
    # git's temporary index is gone and the user's state is as it was
    assert world.ok("status", "--porcelain") == " M README.md\n M src/app.py\n"


def test_the_restaging_commands_run_as_printed_from_a_subdirectory(world: World) -> None:
    world.write("README.md", "# demo, by the writer\n")
    world.delegate(text="def add(a, b):\n    return a + b  # part one\n")
    world.spot_check()
    sub = world.work / "src"
    r = world.git("commit", "-m", "writer: app only", "app.py", cwd=sub)
    assert r.code == 1, r
    git_lines = [
        line.split("run: ", 1)[1] for line in r.said if line.startswith("gentle-hooks:   run: git ")
    ]
    assert git_lines, r
    for command in git_lines:  # exactly as printed, from where the user is
        done = world.run(["sh", "-c", command], cwd=sub)
        assert done.code == 0, (command, done)
    assert world.ok("status", "--porcelain") == " M README.md\nM  src/app.py\n"


def test_commit_paths_beside_a_staged_change_the_work_tree_lacks_binds_by_its_commands(
    world: World,
) -> None:
    # README.md staged, then edited again (MM): `commit <paths>` judges HEAD plus the paths,
    # which the index can hold only with README's staged edit set aside; the block's
    # commands set it aside, bind the judged candidate, and put it back
    world.write("README.md", "# staged\n")
    world.ok("add", "README.md")
    world.write("README.md", "# edited again\n")
    world.delegate(text="def add(a, b):\n    return a + b  # part one\n")
    world.spot_check()
    assert world.ok("status", "--porcelain") == "MM README.md\n M src/app.py\n"
    sub = world.work / "src"
    r = world.git("commit", "-m", "writer: app only", "app.py", cwd=sub)
    assert r.code == 1, r
    note = next(line for line in r.said if line.startswith("gentle-hooks:   note: git judged"))
    assert "staged changes to README.md" in note and "puts them back staged" in note, note
    runs = [
        line.split("run: ", 1)[1] for line in r.said if line.startswith("gentle-hooks:   run: ")
    ]
    assert runs[-1].startswith("git restore --staged --source="), runs
    for command in runs:  # exactly as printed, from where the user is
        done = world.run(["sh", "-c", command], cwd=sub)
        assert done.code == 0, (command, done)
    assert world.ok("status", "--porcelain") == "MM README.md\nM  src/app.py\n"
    assert world.ok("show", ":README.md") == "# staged\n"  # the staged edit is back
    again = world.git("commit", "-m", "writer: app only", "app.py", cwd=sub)
    assert again.code == 0, again
    assert world.ok("show", "--name-only", "--format=", "HEAD") == "src/app.py\n"
    assert world.ok("show", ":README.md") == "# staged\n"


def test_agent_runtime_in_the_environment_is_judged_by_the_commit_gate(world: World) -> None:
    # No ledger record at all: only CLAUDECODE=1 says an agent runs this commit.
    world.write("src/app.py", "def add(a, b):\n    return a + b  # by an agent\n")
    world.ok("add", "-A")
    agent = {"CLAUDECODE": "1"}
    r = world.git("commit", "-m", "agent commit", env=agent)
    assert r.code == 1, r
    assert r.said[0] == (
        "gentle-hooks: BLOCKED the staged change: delegated (claude-code (CLAUDECODE is set "
        "in the hook's environment))"
    )
    assert RUN_SPOT_STAGED in r.said
    world.report("--staged")
    world.spot_check("--staged")
    ok = world.git("commit", "-m", "agent commit", env=agent)
    assert ok.code == 0, ok


def test_skip_lets_a_blocked_commit_and_push_through_and_records_it(world: World) -> None:
    world.delegate(text="def add(a, b):\n    return a + b  # hurried\n")
    world.ok("add", "-A")
    skip = {"GENTLE_HOOKS_SKIP": "hotfix, verified by hand"}
    r = world.git("commit", "-m", "writer: hurried", env=skip)
    assert r.code == 0, r
    if world.installer == "gentle-hook":  # the framework hides a passing hook's output
        assert (
            "gentle-hooks: GENTLE_HOOKS_SKIP: let through by Test Committer "
            "<committer@example.com> and recorded ('hotfix, verified by hand')"
        ) in r.said
    push = world.git("push", "origin", "main", env=skip)
    assert push.code == 0, push
    assert world.remote_ref("main") == world.rev("HEAD")
    rows = world.ledger("SELECT hook, who, reason, missing, target FROM override ORDER BY id")
    assert rows == [
        (
            "pre-commit",
            "Test Committer <committer@example.com>",
            "hotfix, verified by hand",
            '["spot-check"]',
            None,
        ),
        (
            "pre-push",
            "Test Committer <committer@example.com>",
            "hotfix, verified by hand",
            '["spot-check"]',
            "refs/heads/main",
        ),
    ]


def test_warn_mode_reports_without_failing(world: World) -> None:
    world.write(".gentle-hooks.toml", 'mode = "warn"\n')
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "config: warn mode")
    world.delegate(text="def add(a, b):\n    return a + b  # warned\n")
    world.ok("add", "-A")
    r = world.git("commit", "-m", "writer: warned")
    assert r.code == 0, r
    push = world.git("push", "origin", "main")
    assert push.code == 0, push
    let_through = (
        'gentle-hooks: warn mode (.gentle-hooks.toml: mode = "warn"): reported, not blocking; '
        "let through by Test Committer <committer@example.com> and recorded"
    )
    if world.installer == "gentle-hook":  # the framework hides a passing hook's output
        assert r.said[0] == BLOCKED_STAGED
        assert let_through in r.said
        assert let_through in push.said
    # no silent bypass: what warn mode let through is recorded like an override
    assert world.ledger("SELECT hook, reason FROM override ORDER BY id") == [
        ("pre-commit", 'warn mode (.gentle-hooks.toml: mode = "warn")'),
        ("pre-push", 'warn mode (.gentle-hooks.toml: mode = "warn")'),
    ]


def test_a_work_tree_git_add_cannot_read_neither_fails_a_pass_nor_hides_a_block(
    world: World,
) -> None:
    """An untracked repository with no commit makes ``git add -A`` fail. The binding hint
    for fix commands needs that scan; the decision does not: a verified change passes, and
    an unverified one is blocked with its fix commands (not an exit 2)."""
    world.delegate(text="def add(a, b):\n    return a + b  # nested repo\n")
    world.ok("add", "src/app.py")
    world.ok("init", "-q", str(world.work / "scratch"))
    blocked = world.git("commit", "-m", "writer: nested")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == BLOCKED_STAGED
    run = [line for line in blocked.said if line.startswith("gentle-hooks:   run: ")]
    assert run and run[-1] == "gentle-hooks:   run: gentle-hook spot-check --staged", blocked
    # the spot check re-runs in the work tree, which must read as the candidate: set the
    # nested repository aside for it, then put it back for the commit
    shutil.move(str(world.work / "scratch"), str(world.base / "scratch-aside"))
    world.spot_check("--staged")
    shutil.move(str(world.base / "scratch-aside"), str(world.work / "scratch"))
    passed = world.git("commit", "-m", "writer: nested")
    assert passed.code == 0, passed


def test_the_printed_git_lines_stage_exactly_names_holding_wildcards(world: World) -> None:
    # `pages/[id].tsx` and `*star.py` as pathspecs are wildcards: pasted, they would stage
    # the untracked pages/d.tsx and unstar.py nobody chose, and change the candidate
    for rel in ("pages/[id].tsx", "*star.py"):
        world.write(rel, "x = 1\n")
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "human: wildcard names")
    world.write("pages/[id].tsx", "x = 2\n")
    world.delegate(rel="*star.py", text="x = 2\n")
    world.write("pages/d.tsx", "untracked\n")
    world.write("unstar.py", "untracked\n")
    blocked = world.git("commit", "-a", "-m", "writer: commit -a")
    assert blocked.code == 1, blocked
    git_lines = [
        line.split("run: ", 1)[1]
        for line in blocked.said
        if line.startswith("gentle-hooks:   run: git ")
    ]
    assert git_lines, blocked
    sub = world.work / "pages"
    for command in git_lines:  # exactly as printed, from a subdirectory
        done = world.run(["sh", "-c", command], cwd=sub)
        assert done.code == 0, (command, done)
    staged = world.ok("diff", "--cached", "--name-only")
    assert staged.splitlines() == ["*star.py", "pages/[id].tsx"], staged
    world.spot_check("--staged")
    r = world.git("commit", "-a", "-m", "writer: commit -a")
    assert r.code == 0, r
    assert world.ok("status", "--porcelain") == "?? pages/d.tsx\n?? unstar.py\n"


def test_an_escalated_commit_a_block_prints_its_restaging_once(world: World) -> None:
    """Two shortfalls (verifier, spot check) of one ``commit -a`` candidate: the note and the
    ``git add`` that make ``--staged`` bind it come once, before both ways (refuter r14k)."""
    world.write("README.md", "# demo, by the writer\n")
    world.delegate(text="def add(a, b):\n    return a + b  # part one\n")
    world.escalate()
    r = world.git("commit", "-a", "-m", "writer: all")
    assert r.code == 1, r
    notes = [line for line in r.said if line.startswith("gentle-hooks:   note: git judged")]
    adds = [line for line in r.said if line.startswith("gentle-hooks:   run: git add -A")]
    assert len(notes) == 1 and len(adds) == 1, r.said
    assert any("verify run --staged" in line for line in r.said), r.said
    assert any("spot-check --staged" in line for line in r.said), r.said
