"""The ``staged`` projection inside git's hook environment (SPEC §3): the index git hands
the hook (``GIT_INDEX_FILE`` under ``commit -a`` and ``commit <path>``), linked worktrees,
and ``--cwd`` into another repository not inheriting the hook's variables."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.conftest import commit_all, git, write


def install_probe(hooks_dir: Path, out: Path, extra: str = "") -> None:
    """A real pre-commit hook that records ``gentle-hook assess --staged --json``."""
    hooks_dir.mkdir(parents=True, exist_ok=True)
    hook = hooks_dir / "pre-commit"
    hook.write_text(
        "#!/bin/sh\n"
        f"{shlex.quote(sys.executable)} -m gentle_hooks assess --staged --json {extra} "
        f"> {shlex.quote(str(out))} 2>{shlex.quote(str(out))}.err || exit 1\n"
    )
    hook.chmod(0o755)


def staged_tree(out: Path) -> str:
    assert out.exists(), "hook did not run"
    data = json.loads(out.read_text())
    assert data["candidate"]["projection"] == "staged"
    return data["candidate"]["tree"]  # type: ignore[no-any-return]


def test_commit_all_judges_exactly_what_is_committed(repo: Path) -> None:
    out = repo.parent / "probe.json"
    install_probe(repo / ".git" / "hooks", out)
    write(repo / "src" / "app.py", "changed by commit -a\n")
    write(repo / "untracked.py", "not committed\n")
    git(repo, "commit", "-q", "-a", "-m", "all")
    assert staged_tree(out) == git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert "untracked.py" in git(repo, "status", "--porcelain")


def test_commit_paths_uses_the_temporary_index(repo: Path) -> None:
    out = repo.parent / "probe.json"
    install_probe(repo / ".git" / "hooks", out)
    write(repo / "src" / "app.py", "one\n")
    write(repo / "README.md", "# staged but not in this commit\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "only app", "src/app.py")
    assert staged_tree(out) == git(repo, "rev-parse", "HEAD^{tree}").strip()
    # README stays staged for the next commit: the user's index was not disturbed
    assert git(repo, "status", "--porcelain") == "M  README.md\n"


def test_plain_commit_in_linked_worktree(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "probe.json"
    install_probe(repo / ".git" / "hooks", out)
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    write(wt / "side.py", "s\n")
    git(wt, "add", "side.py")
    git(wt, "commit", "-q", "-m", "side")
    assert staged_tree(out) == git(wt, "rev-parse", "HEAD^{tree}").strip()
    git(wt, "fsck", "--no-progress")


def test_commit_a_in_linked_worktree(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "probe.json"
    install_probe(repo / ".git" / "hooks", out)
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    write(wt / "src" / "app.py", "wt change\n")
    git(wt, "commit", "-q", "-a", "-m", "side -a")
    assert staged_tree(out) == git(wt, "rev-parse", "HEAD^{tree}").strip()


def test_cwd_into_another_repo_does_not_inherit_hook_env(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "o.py", "o\n")
    commit_all(other, "o1")
    write(other / "o.py", "o2\n")
    commit_all(other, "o2")
    out = tmp_path / "probe.json"
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "pre-commit").write_text(
        "#!/bin/sh\n"
        f"{shlex.quote(sys.executable)} -m gentle_hooks assess --json --committed-only "
        f"--base-ref HEAD~1 --cwd {shlex.quote(str(other))} > {shlex.quote(str(out))} || exit 1\n"
    )
    (hooks / "pre-commit").chmod(0o755)
    write(repo / "src" / "app.py", "x\n")
    git(repo, "commit", "-q", "-a", "-m", "in repo")
    data = json.loads(out.read_text())
    assert [c["path"] for c in data["changes"]] == ["o.py"]
    assert data["candidate"]["head"] == git(other, "rev-parse", "HEAD").strip()


def test_explicit_git_dir_and_work_tree(repo: Path, tmp_path: Path) -> None:
    write(repo / "a.py", "a\n")
    commit_all(repo)
    from tests.conftest import gh

    proc = gh(
        tmp_path,
        "assess",
        "--json",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        env={"GIT_DIR": str(repo / ".git"), "GIT_WORK_TREE": str(repo)},
    )
    assert proc.returncode == 0, proc.stderr
    assert [c["path"] for c in json.loads(proc.stdout)["changes"]] == ["a.py"]
