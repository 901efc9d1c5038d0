"""``gentle-hook doctor`` reports, for every worktree, whether the gate is reachable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import gh, git, paste, write

ROOT = Path(__file__).resolve().parents[2]
PREK = str(Path(sys.executable).parent / "prek")


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


#: The README's one framework line (prek takes the same), every stage the gate uses.
README_LINE = (
    "install -t pre-commit -t pre-merge-commit -t commit-msg -t pre-push -t "
    "prepare-commit-msg -t post-commit -t post-rewrite"
)


#: The README's framework sets: all six ids, and the smallest set (the two gates).
FULL_SET = (
    "commit-gate",
    "commit-msg-gate",
    "push-gate",
    "prepare-commit-msg",
    "post-commit",
    "post-rewrite",
)
SMALLEST_SET = ("commit-gate", "push-gate")
#: README "The smallest set": the hook types it removes after the one install line.
SMALLEST_UNINSTALL = "uninstall -t commit-msg -t prepare-commit-msg -t post-commit -t post-rewrite"


def _framework(repo: Path, tool: str, ids: tuple[str, ...], *install: str) -> None:
    """Commit a configuration listing the gentle-hooks ``ids``, then run ``tool`` with
    each of ``install`` (shell words after the program) in turn."""
    hooks = "".join(f"      - id: gentle-hooks-{i}\n" for i in ids)
    write(
        repo / ".pre-commit-config.yaml",
        f"repos:\n  - repo: https://example.invalid/gentle-hooks\n    rev: v0\n    hooks:\n{hooks}",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "framework configuration")
    program = [sys.executable, "-m", "pre_commit"] if tool == "pre-commit" else [PREK]
    for words in install:
        done = subprocess.run([*program, *words.split()], cwd=repo, capture_output=True, text=True)
        assert done.returncode == 0, done


def _hooks_line(repo: Path) -> str:
    shown = gh(repo, "doctor").stdout
    return next(x for x in shown.splitlines() if x.startswith(("FAIL  hooks: ", "ok    hooks: ")))


@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_a_framework_install_missing_stages_names_them_and_installs_only_them(
    repo: Path, tool: str
) -> None:
    # a plain `pre-commit install` (pre-commit stage only) of the README's full set:
    # doctor said "pre-push: not installed; run: gentle-hook install", which installs
    # nothing over the framework's hooks (a loop); under prek the same state was "ok"
    assert f"pre-commit {README_LINE}" in (ROOT / "README.md").read_text()
    _framework(repo, tool, FULL_SET, "install")
    code, checks = hook_checks(repo)
    check = checks[f"hooks: {repo}"]
    assert code == 2 and check["ok"] is False, checks
    detail = str(check["detail"])
    assert "not installed: pre-merge-commit, commit-msg, pre-push" in detail, detail
    line = _hooks_line(repo)
    fix = line.rsplit("; run: ", 1)[-1]
    rest = README_LINE.replace("-t pre-commit ", "")  # every stage but the installed one
    assert fix.endswith(f" {rest}") or fix == f"{tool} {rest}", line
    assert "gentle-hook" not in fix, line
    # install says the same way out, and installs nothing over the framework's hooks
    again = gh(repo, "install")
    assert again.returncode == 0, again
    assert f"hooks: {tool} has not installed pre-merge-commit, commit-msg, pre-push" in again.stdout
    assert again.stdout.rstrip().endswith(f"run: {fix}"), again.stdout
    pasted = paste(fix, repo)
    assert pasted.returncode == 0, pasted
    code, checks = hook_checks(repo)
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, checks
    assert "does not record" not in str(checks[f"hooks: {repo}"]["detail"]), checks


@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_the_readme_s_smallest_set_is_healthy_and_says_what_it_does_not_record(
    repo: Path, tool: str
) -> None:
    # the README's smallest set (its install line, then its uninstall line) failed with
    # "not installed: commit-msg, ...", and the printed fix installed every stage again
    readme = (ROOT / "README.md").read_text()
    assert f"pre-commit {SMALLEST_UNINSTALL}" in readme
    _framework(repo, tool, SMALLEST_SET, README_LINE, SMALLEST_UNINSTALL)
    code, checks = hook_checks(repo)
    detail = str(checks[f"hooks: {repo}"]["detail"])
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, detail
    assert "this set does not record: a commit whose only sign of an agent" in detail, detail
    assert "no Gentle-Writer trailer" in detail and "no commit record" in detail, detail
    # its way to the notes CI judges from: README's plain recorders, as printed
    line = _hooks_line(repo)
    assert line.startswith("ok    hooks: "), line
    fix = line.rsplit("; run: ", 1)[-1]
    assert fix.endswith("gentle-hook install -t prepare-commit-msg -t post-commit -t post-rewrite")
    assert paste(fix, repo).returncode == 0
    code, checks = hook_checks(repo)
    detail = str(checks[f"hooks: {repo}"]["detail"])
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, detail
    assert "judged at push, not at commit" in detail and "no commit record" not in detail
    assert "; run: " not in _hooks_line(repo)
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()  # nothing re-added


@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_a_stage_the_configuration_needs_fails_and_its_fix_installs_only_it(
    repo: Path, tool: str
) -> None:
    _framework(repo, tool, SMALLEST_SET, "install -t pre-commit -t pre-merge-commit")
    code, checks = hook_checks(repo)
    assert code == 2 and checks[f"hooks: {repo}"]["ok"] is False, checks
    fix = _hooks_line(repo).rsplit("; run: ", 1)[-1]
    assert fix.endswith(f"{tool} install -t pre-push") or fix.endswith(
        "pre_commit install -t pre-push"
    ), fix
    assert paste(fix, repo).returncode == 0
    code, checks = hook_checks(repo)
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, checks
    for stage in ("commit-msg", "prepare-commit-msg", "post-commit", "post-rewrite"):
        assert not (repo / ".git" / "hooks" / stage).exists(), stage


def test_a_configuration_without_the_push_gate_fails(repo: Path) -> None:
    # the framework runs the commit gate only: nothing gates a push
    _framework(repo, "pre-commit", ("commit-gate",), README_LINE)
    code, checks = hook_checks(repo)
    detail = str(checks[f"hooks: {repo}"]["detail"])
    assert code == 2 and "lists no gentle-hooks-push-gate" in detail, detail
    fix = _hooks_line(repo).rsplit("; run: ", 1)[-1]
    assert fix.endswith("gentle-hook install -t pre-push"), fix
    assert paste(fix, repo).returncode == 0
    code, checks = hook_checks(repo)
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, checks


def test_a_framework_whose_configuration_names_no_gate_does_not_count(repo: Path) -> None:
    # the framework's hooks run only the user's linters: the gate is not reachable, and
    # `gentle-hook install` chains over them
    write(repo / ".pre-commit-config.yaml", "repos: []\n")
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "-t", "pre-commit", "-t", "pre-push"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed
    code, checks = hook_checks(repo)
    detail = str(checks[f"hooks: {repo}"]["detail"])
    assert "names no gentle-hooks hook" in detail, detail
    assert gh(repo, "install").returncode == 0
    code, checks = hook_checks(repo)
    assert code == 0 and checks[f"hooks: {repo}"]["ok"] is True, checks
