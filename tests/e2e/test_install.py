"""``gentle-hook install`` / ``uninstall`` in real repositories (SPEC §7 "Hooks"): chaining a
foreign hook, ``core.hooksPath`` relative and absolute, ``--warn``, and chaining the pre-commit
framework's own pre-push so that every ref of a push is judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World, build_world

V2 = "def add(a, b):\n    return a + b  # v2\n"
BLOCKED_STAGED = (
    "gentle-hooks: BLOCKED the staged change: delegated (writer content (o4-mini/low) in "
    "src/app.py)"
)


def _foreign(path: Path, log: Path, code: int) -> str:
    text = f'#!/bin/sh\necho "$(basename "$0") $*" >> "{log}"\ncat >> "{log}"\nexit {code}\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return text


def _bare_world(tmp_path: Path) -> World:
    """A world without hooks: remove what build_world installed."""
    w = build_world(tmp_path, "gentle-hook", None)
    assert w.gh("uninstall").code == 0
    return w


def test_install_chains_a_foreign_hook_and_uninstall_restores_it(tmp_path: Path) -> None:
    w = _bare_world(tmp_path)
    hooks = w.work / ".git" / "hooks"
    log = tmp_path / "foreign.log"
    pre_commit = _foreign(hooks / "pre-commit", log, 0)
    pre_push = _foreign(hooks / "pre-push", log, 0)
    r = w.gh("install", "-t", "pre-commit", "-t", "pre-push", "-t", "post-commit")
    assert r.code == 0, r
    assert r.out.splitlines() == [
        "pre-commit: installed, chaining the existing hook (moved to pre-commit.gentle-legacy): "
        f"{hooks / 'pre-commit'}",
        "pre-push: installed, chaining the existing hook (moved to pre-push.gentle-legacy): "
        f"{hooks / 'pre-push'}",
        f"post-commit: installed: {hooks / 'post-commit'}",
    ]
    assert (hooks / "pre-commit.gentle-legacy").read_text() == pre_commit

    # the foreign hook runs first and the gate still judges
    w.delegate(text=V2)
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == BLOCKED_STAGED
    assert log.read_text() == "pre-commit.gentle-legacy \n"
    w.spot_check("--staged")
    assert w.git("commit", "-q", "-m", "writer").code == 0

    # the pre-push hook gets git's arguments and every stdin line
    head = w.rev("HEAD")
    assert w.git("push", "-q", "origin", "main").code == 0
    assert log.read_text().splitlines()[-2:] == [
        f"pre-push.gentle-legacy origin {w.remote}",
        f"refs/heads/main {head} refs/heads/main {w.rev('HEAD~1')}",
    ]

    # a failing foreign hook fails the gate, whatever gentle-hooks would decide
    _foreign(hooks / "pre-commit.gentle-legacy", log, 3)
    w.write("README.md", "# a human change\n")
    failed = w.git("commit", "-q", "-a", "-m", "human")
    assert failed.code == 1, failed
    assert failed.said == ["gentle-hooks: the chained pre-commit hook failed (exit 3)"]

    r = w.gh("uninstall")
    assert r.code == 0, r
    ledger = w.work / ".git" / "gentle-hooks"
    assert r.out.splitlines() == [
        f"pre-commit: removed; restored the chained hook: {hooks / 'pre-commit'}",
        f"post-commit: removed: {hooks / 'post-commit'}",
        f"pre-push: removed; restored the chained hook: {hooks / 'pre-push'}",
        # what the recorders set, removed; the records themselves kept, and how to remove them
        "git config: removed notes.rewriteRef = refs/notes/gentle-hooks",
        f"kept: the ledger of records, {ledger} (remove it: rm -r {ledger})",
        "kept: the notes, refs/notes/gentle-hooks (remove them: git update-ref -d "
        "refs/notes/gentle-hooks)",
    ]
    assert w.git("config", "--get", "notes.rewriteRef").code == 1
    assert (hooks / "pre-push").read_text() == pre_push
    assert not (hooks / "pre-commit.gentle-legacy").exists()
    assert sorted(p.name for p in hooks.iterdir() if not p.name.endswith(".sample")) == [
        "pre-commit",
        "pre-push",
    ]


@pytest.mark.parametrize("kind", ["relative", "absolute"])
def test_install_honours_core_hooks_path(tmp_path: Path, kind: str) -> None:
    w = _bare_world(tmp_path)
    target = ".githooks" if kind == "relative" else str(tmp_path / "shared-hooks")
    w.ok("config", "core.hooksPath", target)
    r = w.gh("install", "-t", "pre-commit")
    where = w.work / ".githooks" if kind == "relative" else tmp_path / "shared-hooks"
    assert (r.code, r.out) == (0, f"pre-commit: installed: {where / 'pre-commit'}\n")
    assert not (w.work / ".git" / "hooks" / "pre-commit").exists()
    w.delegate(text=V2)
    w.ok("add", "src/app.py")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == BLOCKED_STAGED
    assert w.gh("uninstall").out.splitlines()[0] == f"pre-commit: removed: {where / 'pre-commit'}"
    assert w.git("commit", "-q", "-m", "writer").code == 0


def test_install_with_warn_reports_without_failing(tmp_path: Path) -> None:
    w = _bare_world(tmp_path)
    assert w.gh("install", "--warn").code == 0
    w.delegate(text=V2)
    w.ok("add", "-A")
    r = w.git("commit", "-m", "writer")
    assert r.code == 0, r
    assert r.said[0] == BLOCKED_STAGED
    let_through = (
        "gentle-hooks: warn mode (installed with --warn): reported, not blocking; let through "
        "by Test Committer <committer@example.com> and recorded"
    )
    assert let_through in r.said
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert let_through in push.said


def test_gentle_hook_install_over_pre_commit_judges_every_ref(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pre_commit_home: Path,
    hook_repo: tuple[Path, str],
) -> None:
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    w = build_world(tmp_path, "pre-commit", hook_repo)
    r = w.gh("install", "-t", "pre-push")
    assert r.code == 0, r
    assert "chaining the existing hook (moved to pre-push.gentle-legacy)" in r.out
    w.ok("switch", "-q", "-c", "first")
    w.write("README.md", "# demo, by a human\n")
    w.ok("commit", "-q", "-a", "-m", "human: readme")
    w.ok("switch", "-q", "-c", "second", "main")
    bad = w.unverified(V2)
    push = w.git("push", "origin", "first", "second")
    assert push.code == 1, push
    assert "gentle-hooks push gate...................................................Passed" in (
        push.lines
    )  # the framework's hook saw the first ref only
    assert (
        f"gentle-hooks: BLOCKED commit {bad[:12]} on refs/heads/second: delegated (writer "
        "content (o4-mini/low) in src/app.py)"
    ) in push.said
    assert w.remote_ref("second") is None


def test_commit_msg_gate_judges_an_ai_co_author_trailer(native: World) -> None:
    w = native
    w.write("src/app.py", V2)
    w.ok("add", "-A")
    message = "Add a comment\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"
    blocked = w.git("commit", "-m", message)
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        "gentle-hooks: BLOCKED the staged change: delegated (claude-code (Co-authored-by: "
        "Claude <noreply@anthropic.com>))"
    )
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-q", "-m", message).code == 0


def test_a_humans_merge_commit_passes_the_pre_merge_commit_hook(native: World) -> None:
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.write("docs.md", "notes\n")
    w.ok("add", "docs.md")
    w.ok("commit", "-q", "-m", "topic: notes")
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main\n")
    w.ok("commit", "-q", "-a", "-m", "main: readme")
    assert (w.work / ".git" / "hooks" / "pre-merge-commit").exists()
    r = w.git("merge", "-q", "--no-ff", "--no-edit", "topic")
    assert (r.code, r.said) == (0, []), r
    assert len(w.ok("rev-list", "--parents", "-n", "1", "HEAD").split()) == 3
    w.assert_clean()


def test_an_agents_merge_commit_is_judged_by_the_pre_merge_commit_hook(native: World) -> None:
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.write("src/notes.py", "NOTES = 1\n")
    w.ok("add", "src/notes.py")
    w.ok("commit", "-q", "-m", "topic: notes")
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main\n")
    w.ok("commit", "-q", "-a", "-m", "main: readme")
    agent = {"CLAUDECODE": "1"}
    blocked = w.git("merge", "--no-ff", "--no-edit", "topic", env=agent)
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        "gentle-hooks: BLOCKED the staged change: delegated (claude-code (CLAUDECODE is set "
        "in the hook's environment))"
    )
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    assert w.ok("rev-parse", "-q", "--verify", "MERGE_HEAD").strip() == w.rev("topic")
    w.report("--staged")
    w.spot_check("--staged")
    r = w.git("commit", "--no-edit", env=agent)
    assert r.code == 0, r
    assert len(w.ok("rev-list", "--parents", "-n", "1", "HEAD").split()) == 3
    w.assert_clean()


@pytest.mark.parametrize(
    "setup", ["own HEAD", "push.default=current", "git's default", "push.default=upstream"]
)
def test_uninstall_removes_only_the_config_install_added(tmp_path: Path, setup: str) -> None:
    w = _bare_world(tmp_path)
    if setup == "own HEAD":
        w.ok("config", "--add", "remote.origin.push", "HEAD")
    if setup.startswith("push.default="):
        w.ok("config", "push.default", setup.removeprefix("push.default="))
    before = w.ok("config", "--local", "--list")
    assert w.gh("install", "--share", "origin").code == 0
    heads = 1 if setup == "own HEAD" else 0  # install adds no push refspec
    assert w.git("config", "--get-all", "remote.origin.push").out.count("HEAD\n") == heads
    out = w.gh("uninstall").out
    assert "remote.origin.push" not in out, out
    assert "gentle-hooks.shareWith = origin" in out, out
    assert w.ok("config", "--local", "--list") == before


#: What a plain ``git push`` from branch ``work`` (commit C, tracking ``origin/main``; local
#: ``main`` at M, the remote's at O) leaves on the remote, by configuration, without
#: gentle-hooks: the refs it pushed (name: commit), or None where git refuses the push.
#: ``, on main``: the push is made from ``main`` (tracking ``origin/main``) instead.
PLAIN_PUSH = {
    "push.default=simple, on main": {"refs/heads/main": "M"},
    "push.default=current, on main": {"refs/heads/main": "M"},
    "remote.origin.push=refs/heads/main:refs/heads/main, on main": {"refs/heads/main": "M"},
    "remote.origin.push=refs/heads/main:refs/heads/main": {"refs/heads/main": "M"},
    "remote.origin.push=HEAD:refs/for/main": {"refs/for/main": "C"},
    "push.default=upstream": {"refs/heads/main": "C"},
    "push.default=tracking": {"refs/heads/main": "C"},
    "push.default=simple": None,  # the upstream has another name
    "push.default=matching": {"refs/heads/main": "M"},
    "push.default=nothing": None,
    "push.default=current": {"refs/heads/work": "C"},
    "push.autoSetupRemote=true": None,  # simple still refuses an upstream of another name
}


@pytest.mark.parametrize("setup", list(PLAIN_PUSH))
def test_install_share_keeps_what_a_plain_git_push_pushes(tmp_path: Path, setup: str) -> None:
    # a plain `git push` after `install --share origin` pushes the branch refs it pushed
    # before: install adds no push refspec (one would replace push.default, and beside the
    # user's own, Gerrit's HEAD:refs/for/main, a HEAD would push HEAD too)
    w = build_world(tmp_path, "gentle-hook", None)
    key, value = setup.removesuffix(", on main").split("=", 1)
    w.ok("config", key, value)
    sha = {"O": w.rev("HEAD")}
    w.ok("commit", "-q", "--allow-empty", "-m", "human: main moves")
    sha["M"] = w.rev("HEAD")
    w.ok("switch", "-q", "-c", "work", "--track", "origin/main")
    w.write("src/app.py", V2)
    w.ok("commit", "-q", "-a", "-m", "human: v2")
    sha["C"] = w.rev("HEAD")
    if setup.endswith(", on main"):
        w.ok("switch", "-q", "main")
    r = w.gh("install", "--share", "origin")
    assert r.code == 0, r
    pushed = w.git("push")
    refs = w.ok("for-each-ref", "--format=%(refname) %(objectname)", cwd=w.remote)
    after = dict(line.split() for line in refs.splitlines() if "/notes/" not in line)
    expected = PLAIN_PUSH[setup]
    assert (pushed.code == 0) is (expected is not None), (r.out, pushed)
    want = {"refs/heads/main": sha["O"]} | {k: sha[v] for k, v in (expected or {}).items()}
    assert after == want, (r.out, pushed)
    assert "notes: the push gate sends them to origin with each push it lets through" in r.out
    assert w.ok("config", "--get-all", "gentle-hooks.shareWith") == "origin\n"
    pushes = w.git("config", "--get-all", "remote.origin.push").out
    assert pushes == (f"{value}\n" if key == "remote.origin.push" else ""), r.out


def test_install_share_under_pre_commit_shares_the_notes_and_installs_no_hook(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pre_commit_home: Path,
    hook_repo: tuple[Path, str],
) -> None:
    # README's framework section: `pre-commit install ...`, then `gentle-hook install
    # --share origin` sets up the notes only; the framework's hooks stay the only ones
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    w = build_world(tmp_path, "pre-commit", hook_repo)
    hooks = w.work / ".git" / "hooks"
    before = {p.name: p.read_bytes() for p in hooks.iterdir() if not p.name.endswith(".sample")}
    r = w.gh("install", "--share", "origin")
    assert r.code == 0, r
    assert r.out.splitlines()[0].startswith("hooks: pre-commit's hooks here run the gate ("), r
    assert "none installed over them" in r.out.splitlines()[0]
    after = {p.name: p.read_bytes() for p in hooks.iterdir() if not p.name.endswith(".sample")}
    assert after == before  # nothing chained over the framework's hooks
    # no notes push refspec: the push gate sends them
    assert w.git("config", "--get-all", "remote.origin.push").out == ""
    assert w.ok("config", "--get-all", "gentle-hooks.shareWith") == "origin\n"
    assert "notes: the push gate sends them to origin with each push it lets through" in r.out
    w.delegate(text=V2)
    w.ok("add", "-A")
    w.spot_check("--staged")
    commit = w.git("commit", "-q", "-m", "writer: v2")
    assert commit.code == 0, commit
    assert (
        commit.said.count(
            "gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires"
        )
        <= 1
    )
    push = w.git("push", "origin")
    assert push.code == 0, push.err
    assert w.remote_ref("main") == w.rev("HEAD")
    noted = w.run(
        ["git", "--git-dir", str(w.remote), "notes", "--ref", "gentle-hooks", "show", w.rev("HEAD")]
    )
    assert noted.code == 0, noted  # the commit's note reached the remote
    gone = w.gh("uninstall")
    assert "git config: removed gentle-hooks.shareWith = origin" in gone.out, gone


def test_notes_only_sets_up_the_notes_without_hooks(native: World) -> None:
    w = native
    assert w.gh("uninstall").code == 0
    hooks = w.work / ".git" / "hooks"
    r = w.gh("install", "--share", "origin", "--notes-only")
    assert r.code == 0, r
    assert not [p for p in hooks.iterdir() if not p.name.endswith(".sample")]
    assert "git config: added gentle-hooks.shareWith = origin" in r.out, r
    assert "notes: no gentle-hooks pre-push here sends them; after a push, " in r.out, r
    bad = w.gh("install", "--notes-only")
    assert (bad.code, bad.err.count("\n")) == (2, 1), bad
    assert "drop" not in bad.err and "--share origin" in bad.err, bad  # none was given


def test_uninstall_keeps_what_install_did_not_add_and_says_what_it_kept(native: World) -> None:
    # the user's own notes.rewriteRef, set before install, stays; the remote's fetched
    # notes and verify run's info/exclude line are named as kept
    w = native
    assert w.gh("uninstall").code == 0
    w.ok("config", "notes.rewriteRef", "refs/notes/gentle-hooks")
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=V2)
    w.ok("add", "-A")
    w.spot_check("--staged")
    assert w.git("commit", "-q", "-m", "writer: v2").code == 0
    assert w.git("push", "-q", "origin").code == 0
    assert w.gh("sync", "fetch").code == 0
    exclude = w.work / ".git" / "info" / "exclude"
    with exclude.open("a") as fh:  # as verify run writes it for its artifact directory
        fh.write(
            "# gentle-hooks: verify-delegation artifacts stay out of the candidates they "
            "judge\n/.verify/\n"
        )
    r = w.gh("uninstall")
    assert r.code == 0, r
    assert "notes.rewriteRef" not in "".join(ln for ln in r.out.splitlines() if "removed" in ln)
    assert w.ok("config", "--get", "notes.rewriteRef") == "refs/notes/gentle-hooks\n"
    assert (
        "kept: notes.rewriteRef = refs/notes/gentle-hooks (set before install, not by it)"
        in r.out.splitlines()
    ), r.out
    assert (
        "kept: a remote's fetched notes, refs/notes/remotes/origin/gentle-hooks (remove them: "
        "git update-ref -d refs/notes/remotes/origin/gentle-hooks)"
    ) in r.out.splitlines(), r.out
    assert f"kept: the line verify run added to {exclude}" in r.out, r.out


def test_uninstall_removes_the_hooks_path_directory_install_created(native: World) -> None:
    w = native
    assert w.gh("uninstall").code == 0
    w.ok("config", "core.hooksPath", ".githooks")
    assert w.gh("install").code == 0
    hooks = w.work / ".githooks"
    assert (hooks / "pre-commit").is_file()
    r = w.gh("uninstall")
    assert r.code == 0, r
    assert not hooks.exists(), sorted(p.name for p in hooks.iterdir())
    assert f"removed the empty hooks directory: {hooks}" in r.out.splitlines(), r.out
    # a directory that holds the user's own files stays
    assert w.gh("install").code == 0
    (hooks / "notes.txt").write_text("mine\n")
    assert w.gh("uninstall").code == 0
    assert sorted(p.name for p in hooks.iterdir()) == ["notes.txt"]


def test_plain_uninstall_names_the_agent_recorder_it_keeps_and_its_command(
    native: World,
) -> None:
    w = native
    assert w.gh("install", "--agent", "claude-code").code == 0
    settings = w.work / ".claude" / "settings.json"
    assert "gentle-hook" in settings.read_text()
    r = w.gh("uninstall")
    assert r.code == 0, r
    kept = [ln for ln in r.out.splitlines() if "claude-code recorder" in ln]
    assert len(kept) == 1, r.out
    command = kept[0].split("(remove it: ", 1)[1].removesuffix(")")
    program, *args = command.split()
    assert program.rsplit("/", 1)[-1] == "gentle-hook", command
    assert args == ["uninstall", "--agent", "claude-code", "--scope", "project"], command
    assert w.gh(*args).code == 0
    assert "gentle-hook" not in (settings.read_text() if settings.exists() else "")
    again = w.gh("uninstall")
    assert "recorder" not in again.out, again.out


def test_install_share_without_that_remote_changes_nothing_and_exits_2(tmp_path: Path) -> None:
    # the remote is checked first: it used to install every hook, then exit 2 at --share
    w = _bare_world(tmp_path)
    hooks = w.work / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    config = (w.work / ".git" / "config").read_text()
    r = w.gh("install", "--share", "upstream")
    assert r.code == 2, r
    assert r.out == "" and r.err.splitlines() == [
        "gentle-hook: error: --share upstream: no remote named 'upstream' here, so nothing was "
        "installed (see: git remote -v; add the remote first, or name another with --share)"
    ], r
    assert sorted(p.name for p in hooks.iterdir()) == before
    assert (w.work / ".git" / "config").read_text() == config


def test_uninstall_server_removes_the_gate_install_server_placed(tmp_path: Path) -> None:
    w = _bare_world(tmp_path)
    hook = w.remote / "hooks" / "pre-receive"
    placed = w.gh("install", "--server", cwd=w.remote)
    assert placed.code == 0 and hook.exists(), placed
    removed = w.gh("uninstall", "--server", cwd=w.remote)
    assert removed.code == 0, removed
    assert f"pre-receive: removed: {hook}" in removed.out.splitlines(), removed
    assert not hook.exists()
    # its mirror's refusal: a clone with a work tree has no server gate to remove
    refused = w.gh("uninstall", "--server")
    assert refused.code == 2, refused
    assert refused.err.splitlines() == [
        "gentle-hook: error: --server removes the gate of a bare repository; this one has a "
        "work tree"
    ], refused
