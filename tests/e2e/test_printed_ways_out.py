"""A block's printed way out, pasted literally, works from the user's own state (SPEC §7):
uncommitted changes under a push block are set aside and put back by the printed commands;
a commit gate's ``prefix:`` runs the writer's test at the repository top wherever it is
pasted, and says so.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys

from tests.e2e.conftest import World, paste_first_way

V2 = "def add(a, b):\n    return a + b  # v2\n"
#: The writer's test, meant for the repository top: it finds ``src/app.py`` from there only.
TOP_TEST = (sys.executable, "-B", "-c", "import runpy; runpy.run_path('src/app.py')")


def test_push_of_head_with_uncommitted_changes_leaves_them_where_they_are(native: World) -> None:
    """The commit's own report and spot check run in a temporary checkout of it when the
    work tree holds more (issue 13 Build 4: no stash dance): pasted as printed, they leave
    the staged and unstaged changes as they were."""
    w = native
    w.unverified(V2)
    w.write("README.md", "# demo\n\nwork in progress\n")
    w.ok("add", "README.md")  # staged: it stays staged
    w.write("src/app.py", "def add(a, b):\n    return a + b  # v3, in progress\n")
    status = w.ok("status", "--porcelain")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    assert not any("stash" in line for line in blocked.said), blocked
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(TOP_TEST))
    assert not any("stash" in c or "switch" in c for c in ran), ran
    assert w.ok("status", "--porcelain") == status
    assert w.git("push", "origin", "main").code == 0
    assert "work in progress" in (w.work / "README.md").read_text()
    assert "v3, in progress" in (w.work / "src/app.py").read_text()
    assert w.ok("diff", "--cached", "--name-only").strip() == "README.md"
    assert w.ok("stash", "list") == ""


def test_push_of_an_older_commit_with_a_file_changed_since_and_edited(native: World) -> None:
    w = native
    w.unverified(V2)
    w.write("src/app.py", "def add(a, b):\n    return a + b  # v2, by a human\n")
    w.ok("commit", "-q", "-am", "human: comment")
    w.write("src/app.py", "def add(a, b):\n    return a + b  # v2, edited again\n")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    status = w.ok("status", "--porcelain")
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(TOP_TEST))
    # the commit is checked out in a worktree of its own: nothing set aside, no switch
    where = f'"$(git rev-parse --git-common-dir)/gentle-hooks/verify-{w.rev("HEAD~1")[:12]}"'
    assert ran[0] == (
        f"test ! -e {where} || git worktree remove --force {where}; "
        f"git worktree add -f -q --detach {where} {w.rev('HEAD~1')}"
    ), ran
    assert ran[-1] == f"git worktree remove --force {where}", ran
    assert not any("stash" in c or "switch" in c for c in ran), ran
    assert w.ok("status", "--porcelain") == status
    assert w.git("push", "origin", "main").code == 0
    assert "edited again" in (w.work / "src/app.py").read_text()
    assert w.ok("symbolic-ref", "--short", "HEAD").strip() == "main"


def test_a_way_out_pasted_again_after_a_try_that_stopped_midway_runs(native: World) -> None:
    """A first try ran the line that adds the commit's worktree and stopped there (a failing
    test, a closed terminal): the whole block pasted again still runs, its first line
    removing that leftover before adding the worktree again."""
    w = native
    w.unverified(V2)
    w.write("src/app.py", "def add(a, b):\n    return a + b  # v2, by a human\n")
    w.ok("commit", "-q", "-am", "human: comment")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    first = next(
        line.split(": ", 1)[1]
        for line in blocked.said
        if line.removeprefix("gentle-hooks:").strip().startswith("run: ")
        and "git worktree add" in line
    )
    tried = w.run(["sh", "-c", first], cwd=w.work)
    assert tried.code == 0, tried
    where = w.ok("rev-parse", "--git-common-dir").strip()
    leftover = w.work / where / "gentle-hooks" / f"verify-{w.rev('HEAD~1')[:12]}"
    (leftover / "scratch.txt").write_text("left by the first try\n")
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(TOP_TEST))
    assert "worktree add" in ran[0], ran
    assert not leftover.exists()
    assert w.git("push", "origin", "main").code == 0


def test_push_with_a_clean_tree_sets_nothing_aside(native: World) -> None:
    w = native
    w.unverified(V2)
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    assert not any("stash" in line for line in blocked.said), blocked


def test_a_spot_check_in_a_checkout_writes_no_bytecode_into_a_committed_pycache(
    native: World,
) -> None:
    # the writer's add -A committed src/__pycache__/: re-run in a fresh checkout, Python
    # would rewrite that bytecode (its sources are newer there) and the re-run could not
    # count; it runs with PYTHONDONTWRITEBYTECODE=1
    w = native
    writes = {"PYTHONDONTWRITEBYTECODE": ""}  # the writer's Python writes bytecode
    imports = (sys.executable, "-c", "import sys; sys.path.insert(0, 'src'); import app")
    w.write("src/app.py", V2)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.run(imports, env=writes).code == 0
    w.ok("add", "-A", "-f", "src")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: with bytecode")
    assert ".pyc" in w.ok("ls-files", "src/__pycache__")
    assert w.gh("receipt", "run", "--committed", "--", *imports, env=writes).code == 0
    w.write("README.md", "# demo\n\nwork in progress\n")  # the re-run goes to a checkout
    spot = w.gh("spot-check", "--committed", env=writes)
    assert spot.code == 0, spot
    assert "temporary linked checkout" in spot.out, spot


def test_a_blocked_merge_is_concluded_with_git_commit_as_printed(native: World) -> None:
    """A pre-merge-commit block leaves git's merge in progress (``MERGE_HEAD``): running the
    same ``git merge`` again fails ("You have not concluded your merge"), so the block's
    last words say to conclude it with ``git commit --no-edit``, a ``run:`` line every
    printed way ends with, which passes once the way's other commands have run."""
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.unverified(V2)
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    blocked = w.git("merge", "--no-ff", "--no-edit", "topic")
    assert blocked.code != 0, blocked
    assert (w.work / ".git" / "MERGE_HEAD").exists()
    # one way printed above it (a report, its spot check): no "either way" (refuter h14f)
    conclude = "then, conclude the merge git kept in progress with git commit"
    assert any(conclude in line for line in blocked.said), blocked
    assert not any("otherwise" in line for line in blocked.said), blocked
    assert not any("either way" in line for line in blocked.said), blocked
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(TOP_TEST))
    assert ran[-1] == "git commit --no-edit", ran  # a run: line, pasted with the way
    assert not (w.work / ".git" / "MERGE_HEAD").exists()
    assert len(w.ok("log", "-1", "--format=%P").split()) == 2  # the merge commit


def test_a_blocked_merge_with_two_ways_concludes_either_way(native: World) -> None:
    """An escalated writer branch merged: the verifier's run or, otherwise, its clean room
    first (two ways), so the line before ``git commit --no-edit`` says "either way"."""
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.delegate(text=V2)
    w.escalate()
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: escalated")
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    blocked = w.git("merge", "--no-ff", "--no-edit", "topic")
    assert blocked.code != 0 and (w.work / ".git" / "MERGE_HEAD").exists(), blocked
    words = [line.removeprefix("gentle-hooks:").strip() for line in blocked.said]
    otherwise = [n for n, line in enumerate(words) if line.startswith("otherwise, ")]
    conclude = "then, either way, conclude the merge git kept in progress with git commit"
    then = [n for n, line in enumerate(words) if line.startswith(conclude)]
    assert len(otherwise) == 1 and len(then) == 1 and otherwise[0] < then[0], blocked
    assert words[then[0] + 1] == "run: git commit --no-edit", blocked


def test_every_line_of_a_merge_block_names_git_commit_and_its_override_works(
    native: World,
) -> None:
    """After a pre-merge-commit block ``MERGE_HEAD`` exists and git refuses the same ``git
    merge``: the override line, as the last words, names ``git commit`` (it said "run the
    same git command again"), and the JSON decision's override says the same; run as
    worded, the merge commit is let through and recorded."""
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.unverified(V2)
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    as_json = w.git("merge", "--no-ff", "--no-edit", "topic", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert as_json.code != 0, as_json
    decision = json.loads(next(x for x in as_json.lines if x.startswith("{")))
    w.ok("merge", "--abort")
    blocked = w.git("merge", "--no-ff", "--no-edit", "topic")
    assert blocked.code != 0 and (w.work / ".git" / "MERGE_HEAD").exists(), blocked
    said = "\n".join(blocked.said)
    assert "git merge" not in said and "same git command" not in said, said
    override = (
        "to let it through on purpose, conclude the merge with git commit --no-edit with "
        "GENTLE_HOOKS_SKIP set to the reason"
    )
    assert any(f"note: {override}" in line for line in blocked.said), said
    assert decision["hook"] == "pre-merge-commit", decision
    assert decision["override"].startswith(override), decision
    assert decision["then_run"] == ["git commit --no-edit"], decision
    through = w.git("commit", "--no-edit", env={"GENTLE_HOOKS_SKIP": "merging on purpose"})
    assert through.code == 0, through
    assert len(w.ok("log", "-1", "--format=%P").split()) == 2  # the merge commit


def test_ci_names_a_way_to_share_the_notes_with_git_alone_for_a_clone_without_the_cli(
    native: World,
) -> None:
    """CI's ``sync push`` runs in the writer's clone, where a framework-only install has no
    ``gentle-hook`` on PATH (exit 127): its ``or:`` line shares the note with git alone,
    merging the notes the remote already holds, and CI then passes."""
    w = native
    other = w.base / "other"
    w.ok("clone", "-q", str(w.remote), str(other), cwd=w.base)
    w.ok("notes", "--ref=gentle-hooks", "add", "-m", "another clone's note", "HEAD", cwd=other)
    w.ok("push", "-q", "origin", "refs/notes/gentle-hooks", cwd=other)
    w.delegate(text=V2)
    w.ok("add", "-A")
    w.spot_check("--staged")
    w.ok("commit", "-q", "-m", "writer: verified")
    w.ok("push", "-q", "--no-verify", "origin", "main")  # its note stays here
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    fetch = ("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks")
    w.ok(*fetch, cwd=ci)
    blocked = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert blocked.code == 1, blocked
    lines = blocked.out.splitlines()
    # CI names the repository it judges in (its origin's URL): the writer's clone pushes there
    base = shlex.quote(str(w.remote))
    shared = lines.index(f"  run: gentle-hook sync push {base}")
    # its alternatives below it: the plain sync push (no login for that URL), then git alone
    assert lines[shared + 1] == "  or: gentle-hook sync push", blocked
    assert lines[shared + 2].startswith(f"  or: git ls-remote --exit-code {base} "), blocked
    git_alone = lines[shared + 2].removeprefix("  or: ")
    git_dir = os.path.dirname(shutil.which("git") or "/usr/bin/git")
    no_cli = {"PATH": f"{git_dir}:/bin"}
    assert w.run(["sh", "-c", "command -v gentle-hook"], env=no_cli).code != 0
    ran = w.run(["sh", "-c", git_alone], env=no_cli)
    assert ran.code == 0, ran
    w.ok(*fetch, cwd=ci)
    assert w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci).code == 0
    # the other clone's note was merged, not overwritten
    assert w.ok("notes", "--ref=gentle-hooks", "show", "HEAD~1", cwd=ci).strip() == (
        "another clone's note"
    )


def test_ci_s_way_out_runs_in_a_framework_only_clone_after_its_path_line(native: World) -> None:
    """CI has ``gentle-hook`` on PATH; the writer's clone may have it only inside the
    pre-commit framework's hook environment (hooks only ``pre-commit install`` put there).
    CI's block prints, before its commands, the lines a shell there runs first; pasted in
    one shell in that clone with the block's last way (verify in a worktree, share the
    note), they find the framework's copy under ``PRE_COMMIT_HOME``, and CI then passes."""
    from tests.e2e.conftest import CHECK

    w = native
    w.unverified(V2)
    w.ok("push", "-q", "--no-verify", "origin", "main")  # its gates skipped: no note there
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    fetch = ("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks")
    blocked = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert blocked.code == 1, blocked
    # the framework's copy, where pre-commit keeps it: repo*/py_env-*/bin under its home
    home = w.base / "pre-commit-home"
    copy = home / "repo1a2b3c" / "py_env-python3" / "bin" / "gentle-hook"
    copy.parent.mkdir(parents=True)
    copy.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m gentle_hooks "$@"\n')
    copy.chmod(0o755)
    git_dir = os.path.dirname(shutil.which("git") or "/usr/bin/git")
    framework_only = {"PATH": f"{git_dir}:/usr/bin:/bin", "PRE_COMMIT_HOME": str(home)}
    assert w.run(["sh", "-c", "command -v gentle-hook"], env=framework_only).code != 0
    # the block's commands before its first where/otherwise words, then its last way
    first: list[str] = []
    last: list[str] = []
    into = first
    for line in blocked.out.splitlines():
        words = line.strip()
        if words.startswith(("here,", "otherwise,")):
            last = []
            into = last
        elif words.startswith(("run: ", "prefix: ")):
            label, cmd = words.split(": ", 1)
            into.append(f"{cmd} {shlex.join(CHECK)}" if label == "prefix" else cmd)
    assert any(c.startswith("gentle-hook receipt run ") for c in last), blocked
    script = "\n".join(["set -e", *first, *last])
    ran = w.run(["sh", "-c", script], env=framework_only)
    assert ran.code == 0, (script, ran)
    w.ok(*fetch, cwd=ci)
    passed = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert passed.code == 0, passed


def test_push_of_a_branch_tracking_a_file_untracked_here_is_checked_in_a_worktree(
    native: World,
) -> None:
    """The pushed commit tracks a file this work tree holds untracked (not HEAD's): ``git
    switch --detach`` would refuse to overwrite it, so the printed way checks the commit out
    in a worktree of its own, pasted as printed, and the push then passes."""
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.write("test_app.py", "print('tracked on topic')\n")
    topic = w.unverified(V2)
    w.ok("switch", "-q", "main")
    w.write("test_app.py", "print('mine, untracked here')\n")
    assert w.ok("status", "--porcelain", "--", "test_app.py") == "?? test_app.py\n"
    switched = w.git("switch", "--detach", topic)  # the old way out: refused
    assert switched.code != 0 and "untracked working tree files" in switched.err, switched
    blocked = w.git("push", "origin", "topic")
    assert blocked.code == 1, blocked
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(TOP_TEST))
    assert ran[0].startswith("test ! -e "), ran
    assert "; git worktree add -f -q --detach " in ran[0], ran
    assert ran[-1].startswith("git worktree remove --force "), ran
    assert not any("switch" in c or "checkout" in c or "stash" in c for c in ran), ran
    assert w.git("push", "origin", "topic").code == 0
    assert w.ok("branch", "--show-current").strip() == "main"
    assert (w.work / "test_app.py").read_text() == "print('mine, untracked here')\n"
    assert w.ok("worktree", "list").count("\n") == 1
