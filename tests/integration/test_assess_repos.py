"""``gentle-hook assess`` on real repositories: every shape of change SPEC §3 names."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import commit_all, gh, git, write
from tests.integration.helpers import assert_matches_numstat, assess_json


@pytest.fixture(scope="module")
def assess_schema() -> dict:
    proc = gh(Path.cwd(), "schema", "assess")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_json_validates_against_exported_schema(repo: Path, assess_schema: dict) -> None:
    write(repo / "src" / "app.py", "def main():\n    return 2\n")
    commit_all(repo)
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    jsonschema.validate(env, assess_schema)
    assert env["schema"] == "gentle-hooks.assess/v1"
    assert env["native"]["assessment"]["schema"] == "gentle-ai.review-assessment/v1"
    assert env["risk"] == "medium" and env["nativeRisk"] == "medium"
    assert env["candidate"]["projection"] == "committed"
    assert env["candidate"]["base_commit"] == git(repo, "rev-parse", "HEAD~1").strip()
    assert env["verification"]["spot_check_required"] is True
    assert_matches_numstat(repo, env)


def test_human_output_names_tier_requirement_and_candidate(repo: Path) -> None:
    write(repo / "src" / "auth.py", "x = 1\n")
    commit_all(repo)
    proc = gh(repo, "assess", "--base-ref", "HEAD~1", "--committed-only")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "risk: medium  (native high)"  # row ids: --explain and --json
    explained = gh(repo, "assess", "--base-ref", "HEAD~1", "--committed-only", "--explain")
    assert explained.stdout.splitlines()[0].startswith(
        "risk: medium  (native high; rows P3 T-informs"
    )
    assert "a path in a sensitive area: src/auth.py: touches authentication" in proc.stdout
    assert "hot_path" not in proc.stdout  # the signal's code: --explain and --json only
    assert "src/auth.py: touches authentication (hot_path)" in explained.stdout
    assert any(line.startswith("requires: writer self-verification") for line in lines)
    assert any(line.startswith("candidate: sha256:") for line in lines)


def test_escalation_makes_high_and_requires_a_verifier(repo: Path) -> None:
    write(repo / "src" / "app.py", "changed\n")
    commit_all(repo)
    env = assess_json(
        repo,
        "--base-ref",
        "HEAD~1",
        "--committed-only",
        "--escalate-item",
        "security",
        "--escalate-reason",
        "token checks",
    )
    assert env["risk"] == "high" and env["nativeRisk"] == "medium"
    assert env["verification"]["verifiers"] == 1
    assert "gentle-ai-verify" in env["verification"]["required"]
    assert env["escalations"] == [{"item": 2, "slug": "security", "reason": "token checks"}]


def test_review_closed_from_caller_is_unknown(repo: Path) -> None:
    write(repo / "a.py", "1\n")
    commit_all(repo)
    env = assess_json(
        repo, "--base-ref", "HEAD~1", "--committed-only", "--review-outcome", "closed"
    )
    assert (env["nativeReviewOutcome"], env["outcome_source"]) == ("unknown", "unknown")
    env = assess_json(
        repo, "--base-ref", "HEAD~1", "--committed-only", "--review-outcome", "declined"
    )
    assert (env["nativeReviewOutcome"], env["outcome_source"]) == ("declined", "explicit")


def test_a_caller_closed_is_resolved_to_unknown_not_silently(repo: Path) -> None:
    """Seed 000 review-outcome table, last row: a bare caller ``closed`` resolves to
    ``unknown``; assess says so on stderr in one line, naming the values a caller may pass
    (the plan on stdout unchanged); an explicit value says nothing."""
    write(repo / "a.py", "1\n")
    commit_all(repo)
    args = ("assess", "--base-ref", "HEAD~1", "--committed-only")
    for extra in ((), ("--json",)):
        proc = gh(repo, *args, *extra, "--review-outcome", "closed")
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == (
            "gentle-hook: note: --review-outcome closed is a caller's word, not the review's: "
            "resolved to unknown (only the native provider's candidate.consumed fact for this "
            "candidate closes a review); a caller may pass declined, unavailable or unknown\n"
        )
    proc = gh(repo, *args, "--review-outcome", "unknown")
    assert (proc.returncode, proc.stderr) == (0, "")
    bad = gh(repo, *args, "--review-outcome", "approved")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1, bad.stderr
    assert "'declined', 'unavailable', 'unknown', 'closed'" in bad.stderr


def test_writer_from_caller(repo: Path) -> None:
    write(repo / "a.py", "1\n")
    commit_all(repo)
    env = assess_json(
        repo,
        "--base-ref",
        "HEAD~1",
        "--committed-only",
        "--writer-model",
        "o4-mini",
        "--writer-effort",
        "high",
    )
    assert env["writerProfileSource"] == "caller"
    assert env["writerProfile"] == {
        "small": True,
        "profiles": [{"model": "o4-mini", "effort": "high", "small": True}],
    }
    assert env["verification"]["verifiers"] == 0


def test_rdd_mode_and_source(repo: Path) -> None:
    write(repo / "a.py", "1\n")
    commit_all(repo)
    git(repo, "config", "gentle.rdd", "off")
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert env["rdd"] == {
        "mode": "off",
        "source": "git-config",
        "line": "Receipt-driven development: off",
    }
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only", env={"GENTLE_RDD": "on"})
    assert env["rdd"]["mode"] == "on" and env["rdd"]["source"] == "env"


# -- identity ---------------------------------------------------------------------------------


def test_identity_same_in_two_clones_and_after_amend(repo: Path, tmp_path: Path) -> None:
    write(repo / "src" / "app.py", "v2\n")
    commit_all(repo, "v2")
    first = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")["candidate"]
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    other = assess_json(clone, "--base-ref", "HEAD~1", "--committed-only")["candidate"]
    assert other["identity"] == first["identity"]
    git(repo, "commit", "-q", "--amend", "-m", "reworded", "--author", "Other <o@example.com>")
    amended = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")["candidate"]
    assert amended["head"] != first["head"]
    assert amended["identity"] == first["identity"]
    write(repo / "src" / "app.py", "v2!\n")
    commit_all(repo, "one byte")
    changed = assess_json(repo, "--base-ref", "HEAD~2", "--committed-only")["candidate"]
    assert changed["identity"] != first["identity"]


def test_snapshot_equals_committed_after_add_all(repo: Path) -> None:
    write(repo / "src" / "app.py", "edited\n")
    write(repo / "new file.txt", "untracked\n")
    snap = assess_json(repo)["candidate"]
    commit_all(repo, "work")
    committed = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")["candidate"]
    assert snap["tree"] == committed["tree"]
    assert snap["identity"] == committed["identity"]


def test_snapshot_never_touches_the_users_index(repo: Path) -> None:
    write(repo / "src" / "app.py", "edited\n")
    write(repo / "untracked.py", "x\n")
    index = repo / ".git" / "index"
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    assess_json(repo)
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before
    assert git(repo, "status", "--porcelain") == " M src/app.py\n?? untracked.py\n"


# -- shapes of change -------------------------------------------------------------------------


def test_rename_binary_exec_bit_symlink_and_odd_paths(repo: Path) -> None:
    write(repo / "docs" / "old name.md", "# doc\n" + "line\n" * 20)
    write(repo / "blob.bin", bytes(range(256)))
    write(repo / "tool.py", "print(1)\n")
    commit_all(repo, "base")
    git(repo, "mv", "docs/old name.md", "docs/new name.md")
    with open(repo / "docs" / "new name.md", "a") as fh:
        fh.write("one more\n")
    write(repo / "blob.bin", bytes(range(255, -1, -1)))
    (repo / "tool.py").chmod(0o755)
    os.symlink("README.md", repo / "link")
    write(repo / "dir with space" / "ünïcødé.txt", "a\nb\n")
    write(repo / "new\nline.txt", "n\n")
    commit_all(repo, "shapes")
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert_matches_numstat(repo, env)
    by_path = {c["path"]: c for c in env["changes"]}
    assert by_path["docs/new name.md"]["status"] == "R"
    assert by_path["docs/new name.md"]["old_path"] == "docs/old name.md"
    assert by_path["blob.bin"]["binary"] is True and by_path["blob.bin"]["additions"] is None
    assert by_path["tool.py"]["mode_only"] is True
    assert (by_path["tool.py"]["old_mode"], by_path["tool.py"]["new_mode"]) == ("100644", "100755")
    assert by_path["link"]["new_mode"] == "120000"
    assert "dir with space/ünïcødé.txt" in by_path and "new\nline.txt" in by_path
    assert env["nativeRisk"] == "high"
    codes = {(r["code"], r["path"]) for r in env["native"]["assessment"]["reasons"]}
    assert ("executable_mode", "tool.py") in codes


def test_passive_docs_only(repo: Path) -> None:
    write(repo / "docs" / "guide.md", "# Guide\n\nWords.\n")
    write(repo / "README.md", "# demo\n\nMore words.\n")
    commit_all(repo)
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert (env["risk"], env["nativeRisk"]) == ("passive", "passive")
    assert env["verification"]["required"] == ["structural-readback", "spot-check"]
    assert env["reviewDueReason"] == "passive" and env["reviewDue"] is False


def test_process_execution_in_changed_lines(repo: Path) -> None:
    write(repo / "src" / "run.py", "import subprocess\n\nsubprocess.run(['make'])\n")
    commit_all(repo)
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    reasons = env["native"]["assessment"]["reasons"]
    assert env["nativeRisk"] == "high" and env["risk"] == "medium"
    assert {
        "code": "process_boundary",
        "path": "src/run.py",
        "detail": "signal: shell_process",
    } in reasons


def test_submodule_bump(repo: Path, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    write(lib / "x.txt", "1\n")
    commit_all(lib, "lib 1")
    git(repo, "submodule", "add", "-q", str(lib), "vendor/lib")
    commit_all(repo, "add submodule")
    write(lib / "x.txt", "2\n")
    commit_all(lib, "lib 2")
    git(repo / "vendor" / "lib", "pull", "-q", "origin", "main")
    commit_all(repo, "bump")
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert_matches_numstat(repo, env)
    (change,) = env["changes"]
    assert change["path"] == "vendor/lib" and change["submodule"] is True
    assert env["native"]["assessment"]["reasons"] == [
        {"code": "executable_change", "path": "vendor/lib"}
    ]


def test_merge_commit(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / "src" / "feature.py", "f = 1\n")
    commit_all(repo, "feature")
    git(repo, "checkout", "-q", "main")
    write(repo / "src" / "mainline.py", "m = 1\n")
    commit_all(repo, "mainline")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--no-edit", "main")
    env = assess_json(repo, "--base-ref", "main", "--committed-only")
    assert_matches_numstat(repo, env)
    assert [c["path"] for c in env["changes"]] == ["src/feature.py"]
    assert env["candidate"]["base_commit"] == git(repo, "rev-parse", "main").strip()


def test_many_real_ranges_match_numstat(repo: Path) -> None:
    """Every commit range of a history with renames, deletions, binaries and modes."""
    steps = [
        {"a.txt": "1\n2\n3\n", "b.bin": b"\0\1\2"},
        {"a.txt": "1\n2\nthree\n", "c/d.md": "# d\n"},
        {"c/e.md": None, "c/d.md": None, "c/dd.md": "# d\n"},
        {"b.bin": b"\0\1\3", "golden/out.golden": "g\n" * 10},
    ]
    for i, step in enumerate(steps):
        for name, content in step.items():
            if content is None:
                if (repo / name).exists():
                    (repo / name).unlink()
            else:
                write(repo / name, content)
        commit_all(repo, f"step {i}")
    count = len(steps)
    for back in range(1, count + 1):
        env = assess_json(repo, "--base-ref", f"HEAD~{back}", "--committed-only")
        assert_matches_numstat(repo, env)


# -- repository states ------------------------------------------------------------------------


def test_unborn_head(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a.py", "x = 1\n")
    env = assess_json(root)
    assert env["candidate"]["head"] is None and env["candidate"]["base_commit"] is None
    assert "HEAD is unborn" in env["candidate"]["note"]
    assert [c["path"] for c in env["changes"]] == ["a.py"]
    proc = gh(root, "assess", "--committed-only")
    assert proc.returncode == 2 and "the candidate is empty" in proc.stderr


def test_detached_head(repo: Path) -> None:
    write(repo / "a.py", "1\n")
    commit_all(repo)
    git(repo, "checkout", "-q", "--detach", "HEAD")
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert env["candidate"]["head"] == git(repo, "rev-parse", "HEAD").strip()


def test_linked_worktree(repo: Path, tmp_path: Path) -> None:
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    write(wt / "side.py", "s = 1\n")
    env = assess_json(wt, "--base-ref", "main")
    assert [c["path"] for c in env["changes"]] == ["side.py"]
    assert git(repo, "status", "--porcelain") == ""


def test_default_base_chain_uses_origin_head(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "checkout", "-q", "-b", "topic")
    write(clone / "t.py", "t\n")
    commit_all(clone, "topic")
    env = assess_json(clone, "--committed-only")
    assert (env["candidate"]["base_ref"], env["candidate"]["base_source"]) == (
        "origin/main",
        "origin/HEAD",
    )
    assert [c["path"] for c in env["changes"]] == ["t.py"]


def test_no_base_ref_anywhere_uses_empty_tree(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "trunk")
    write(root / "a.py", "1\n")
    commit_all(root)
    env = assess_json(root, "--committed-only")
    assert (
        env["candidate"]["base_commit"] is None and "no base ref found" in env["candidate"]["note"]
    )


def test_orphan_branch_has_empty_tree_base(repo: Path) -> None:
    git(repo, "checkout", "-q", "--orphan", "lonely")
    git(repo, "rm", "-q", "-rf", ".")
    write(repo / "only.py", "1\n")
    commit_all(repo, "orphan")
    env = assess_json(repo, "--base-ref", "main", "--committed-only")
    assert env["candidate"]["base_commit"] is None
    assert "share no history" in env["candidate"]["note"]


def test_shallow_clone_with_base_missing(repo: Path, tmp_path: Path) -> None:
    for i in range(3):
        write(repo / f"m{i}.py", f"{i}\n")
        commit_all(repo, f"main {i}")
    git(repo, "checkout", "-q", "-b", "topic", "HEAD~2")
    write(repo / "topic.py", "t\n")
    commit_all(repo, "topic")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(clone))
    git(clone, "checkout", "-q", "topic")
    env = assess_json(clone, "--base-ref", "origin/main", "--committed-only")
    assert env["candidate"]["base_commit"] is None
    assert "shallow" in env["candidate"]["note"] and "fetch" in env["candidate"]["note"]


def test_rebase_in_progress(repo: Path) -> None:
    write(repo / "c.txt", "base\n")
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo / "c.txt", "topic\n")
    commit_all(repo, "topic")
    git(repo, "checkout", "-q", "main")
    write(repo / "c.txt", "main\n")
    commit_all(repo, "main")
    git(repo, "checkout", "-q", "topic")
    proc = subprocess.run(["git", "rebase", "main"], cwd=repo, capture_output=True)
    assert proc.returncode != 0 and (repo / ".git" / "rebase-merge").is_dir()
    # HEAD is detached at main's tip while the rebase stops on the conflict
    env = assess_json(repo, "--base-ref", "HEAD~1", "--committed-only")
    assert env["candidate"]["head"] == git(repo, "rev-parse", "main").strip()
    proc = gh(repo, "assess", "--staged")
    assert proc.returncode == 2 and "unmerged" in proc.stderr and "Traceback" not in proc.stderr
    proc = gh(repo, "assess", "--base-ref", "main")
    assert proc.returncode == 2 and "--committed-only" in proc.stderr
    snap = assess_json(repo)
    assert [c["path"] for c in snap["changes"]] == ["c.txt"]
    assert (repo / ".git" / "rebase-merge").is_dir()


def test_sha256_repository(tmp_path: Path) -> None:
    root = tmp_path / "s256"
    root.mkdir()
    git(root, "init", "-q", "--object-format=sha256")
    write(root / "a.py", "1\n")
    commit_all(root)
    write(root / "a.py", "2\n")
    commit_all(root)
    env = assess_json(root, "--base-ref", "HEAD~1", "--committed-only")
    assert env["candidate"]["object_format"] == "sha256" and len(env["candidate"]["tree"]) == 64
    assert_matches_numstat(root, env)


@pytest.mark.parametrize(("stakes", "verifiers"), [("ordinary", 1), ("shipping", 1), ("audit", 3)])
def test_stakes_reach_the_plan(repo: Path, stakes: str, verifiers: int) -> None:
    write(repo / "src" / "app.py", "changed\n")
    commit_all(repo)
    env = assess_json(
        repo,
        "--base-ref",
        "HEAD~1",
        "--committed-only",
        "--escalate-item",
        "1",
        "--escalate-reason",
        "drops a column",
        env={"GENTLE_HOOKS_STAKES": stakes},
    )
    assert env["verification"]["verifiers"] == verifiers


def test_critical_escalation_at_shipping_needs_two(repo: Path) -> None:
    git(repo, "config", "gentle.stakes", "shipping")
    write(repo / "src" / "app.py", "changed\n")
    proc = gh(repo, "escalate", "--item", "security", "--reason", "token checks", "--critical")
    assert proc.returncode == 0, proc.stderr
    env = assess_json(repo)
    assert env["risk"] == "high" and env["verification"]["verifiers"] == 2
    proc = gh(repo, "assess")
    assert (
        "2 separate gentle-ai-verify runs, a majority passing (stakes shipping, critical)"
        in proc.stdout
    )


def test_snapshot_sees_a_same_size_edit_made_right_after_the_index_was_written(
    repo: Path,
) -> None:
    """Racy git: an edit in the same second as the index write, keeping the size, must still
    be seen (the private index copy keeps the original's mtime for git's racy check)."""
    write(repo / "src" / "app.py", "value = 1\n")
    git(repo, "add", "src/app.py")
    git(repo, "commit", "-q", "-m", "value 1")
    for n in range(2, 7):
        write(repo / "src" / "app.py", f"value = {n}\n")  # same size, same second
        env = assess_json(repo)
        blob = git(repo, "rev-parse", f"{env['candidate']['tree']}:src/app.py").strip()
        assert git(repo, "cat-file", "-p", blob) == f"value = {n}\n"
        git(repo, "add", "src/app.py")
