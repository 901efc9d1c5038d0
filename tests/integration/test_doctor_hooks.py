"""``gentle-hook doctor`` reports, for every worktree, whether the gate is reachable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import gh, git


def hook_checks(repo: Path) -> tuple[int, dict[str, dict[str, object]]]:
    proc = gh(repo, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    return proc.returncode, {k: v for k, v in checks.items() if k.startswith("hooks: ")}


def test_every_worktree_is_reported(repo: Path, tmp_path: Path) -> None:
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    code, checks = hook_checks(repo)
    assert code == 0 and set(checks) == {f"hooks: {repo}", f"hooks: {wt}"}
    assert "not installed" in str(checks[f"hooks: {repo}"]["detail"])
    assert gh(repo, "install").returncode == 0
    code, checks = hook_checks(repo)
    assert code == 0 and all(c["ok"] for c in checks.values())
    assert "pre-commit: gentle-hook install (" in str(checks[f"hooks: {wt}"]["detail"])


def test_a_worktree_whose_path_holds_a_newline_is_one_check_of_its_own(
    repo: Path, tmp_path: Path
) -> None:
    """``git worktree list --porcelain -z`` (git 2.36+): the path is read whole, not cut at
    its newline; the check names it on one line, the newline escaped."""
    wt = tmp_path / "wt\nx"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    assert gh(repo, "install").returncode == 0
    assert gh(wt, "install").returncode == 0
    code, checks = hook_checks(repo)
    shown = f"hooks: {tmp_path}/wt\\x0ax"
    assert set(checks) == {f"hooks: {repo}", shown}, checks
    assert code == 0 and checks[shown]["ok"] is True, checks
    assert "no such directory" not in str(checks[shown]["detail"])


def test_a_worktree_with_hooks_disabled_fails(repo: Path, tmp_path: Path) -> None:
    assert gh(repo, "install").returncode == 0
    git(repo, "config", "core.hooksPath", "/dev/null")
    code, checks = hook_checks(repo)
    assert code == 2
    assert checks[f"hooks: {repo}"]["ok"] is False
    assert "core.hooksPath is /dev/null" in str(checks[f"hooks: {repo}"]["detail"])


def test_a_moved_interpreter_fails(repo: Path) -> None:
    assert gh(repo, "install", "-t", "pre-commit", "-t", "pre-push").returncode == 0
    for name in ("pre-commit", "pre-push"):
        hook = repo / ".git" / "hooks" / name
        text = hook.read_text()
        hook.write_text(
            "\n".join(
                "GENTLE_HOOK_PYTHON=/nonexistent/python3"
                if ln.startswith("GENTLE_HOOK_PYTHON=")
                else ln
                for ln in text.splitlines()
            )
            + "\n"
        )
    code, checks = hook_checks(repo)
    assert code == 2 and "interpreter /nonexistent/python3 is gone" in str(
        checks[f"hooks: {repo}"]["detail"]
    )


def test_an_interpreter_path_with_a_quote_and_a_space_is_healthy(
    repo: Path, tmp_path: Path
) -> None:
    """The doctor reads the pinned interpreter back the way sh does: a working hook
    installed from ``.../it's here/python`` is reported reachable, naming that path."""
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.services.install import install

    odd = tmp_path / "it's here" / "python"
    odd.parent.mkdir()
    odd.symlink_to(sys.executable)
    install(Repository.open(str(repo)), ("pre-commit", "pre-push"), interpreter=str(odd))
    hook = (repo / ".git" / "hooks" / "pre-commit").read_text()
    assert "GENTLE_HOOK_PYTHON='" in hook  # the path really is quoted in the script
    code, checks = hook_checks(repo)
    detail = str(checks[f"hooks: {repo}"]["detail"])
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, detail
    assert f"pre-commit: gentle-hook install ({odd})" in detail
