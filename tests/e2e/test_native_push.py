"""The native pre-push hook (``gentle-hook install``) reads every line git gives it (SPEC §7):
several refs at once in any order, raw ids, tags, deletions and SHA-256 repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World, build_world

V2 = "def add(a, b):\n    return a + b  # v2\n"


def _blocked_line(commit: str, ref: str) -> str:
    return (
        f"gentle-hooks: BLOCKED commit {commit[:12]} on {ref}: delegated (writer content "
        "(o4-mini/low) in src/app.py)"
    )


@pytest.mark.parametrize("order", ["clean-first", "unverified-first"])
def test_the_worst_ref_decides_whatever_the_order(native: World, order: str) -> None:
    w = native
    w.ok("switch", "-q", "-c", "clean")
    w.write("README.md", "# demo, by a human\n")
    w.ok("commit", "-q", "-a", "-m", "human: readme")
    w.ok("switch", "-q", "-c", "bad", "main")
    bad = w.unverified(V2)
    refs = ["clean", "bad"] if order == "clean-first" else ["bad", "clean"]
    r = w.git("push", "origin", *refs)
    assert r.code == 1, r
    assert [line for line in r.said if line.startswith("gentle-hooks: BLOCKED")] == [
        _blocked_line(bad, "refs/heads/bad")
    ]
    assert (w.remote_ref("clean"), w.remote_ref("bad")) == (None, None)


def test_deletion_new_branch_and_update_in_one_push(native: World) -> None:
    w = native
    w.ok("push", "-q", "origin", "main:refs/heads/old")
    w.write("README.md", "# demo, by a human\n")
    w.ok("commit", "-q", "-a", "-m", "human: readme")
    r = w.git("push", "origin", ":old", "main", "main~1:refs/heads/copy")
    assert r.code == 0, r
    assert r.said == [
        "gentle-hooks: refs/heads/old: deletion, nothing to assess",
        "gentle-hooks: refs/heads/copy: every commit is already on origin",
    ]
    assert (w.remote_ref("old"), w.remote_ref("main")) == (None, w.rev("main"))


def test_a_raw_id_pushed_to_a_new_ref_is_judged(native: World) -> None:
    w = native
    bad = w.unverified(V2)
    w.ok("reset", "-q", "--hard", "HEAD~1")  # the commit is reachable from no local ref
    r = w.git("push", "origin", f"{bad}:refs/heads/raw")
    assert r.code == 1, r
    assert _blocked_line(bad, "refs/heads/raw") in r.said
    assert w.remote_ref("raw") is None


def test_a_lightweight_tag_and_an_annotated_tag_are_peeled(native: World) -> None:
    w = native
    bad = w.unverified(V2)
    w.ok("tag", "light")
    w.ok("tag", "-a", "-m", "annotated", "heavy")
    r = w.git("push", "origin", "light", "heavy")
    assert r.code == 1, r
    blocked = [line for line in r.said if line.startswith("gentle-hooks: BLOCKED")]
    # both tags send the one commit: its block is printed once, naming both
    assert blocked == [_blocked_line(bad, "refs/tags/light, refs/tags/heavy")]


def test_sha256_repository(tmp_path: Path) -> None:
    w = build_world(tmp_path, "gentle-hook", None, object_format="sha256")
    assert w.ok("rev-parse", "--show-object-format").strip() == "sha256"
    bad = w.unverified(V2)
    assert len(bad) == 64
    w.ok("push", "-q", "--no-verify", "origin", "main:refs/heads/old")  # a ref to delete
    r = w.git("push", "origin", "main", ":old")
    assert r.code == 1, r
    # the unchecked push to old already delivered the writer's entry (settled): the commit
    # is still delegated by the record post-commit wrote for it, which names the writer
    assert (
        f"gentle-hooks: BLOCKED commit {bad[:12]} on refs/heads/main: delegated (commit "
        "record from a writer (o4-mini/low) in src/app.py)"
    ) in r.said
    assert "gentle-hooks: refs/heads/old: deletion, nothing to assess" in r.said
    w.report("--committed")
    w.spot_check("--committed")
    r = w.git("push", "origin", "main", ":old")
    assert r.code == 0, r
    assert (w.remote_ref("main"), w.remote_ref("old")) == (bad, None)
