"""A human's merge of a writer branch (SPEC §3 "Attribution follows content", §5): real git,
``gentle-hook install``, a bare remote.

What a merge brings was judged on its branch: a writer commit verified (receipt and spot
check recorded) but not pushed yet lets ``git merge --no-ff`` on ``main`` through at
pre-merge-commit, the merge commit gets no writer trailer, and the push of ``main`` (the
writer commit with it) passes. A writer commit whose plan is unmet still blocks the merge.
"""

from __future__ import annotations

from tests.e2e.conftest import World

WRITER = "def add(a, b):\n    value = compute_total(a, b)\n    return value\n"


def _writer_branch(w: World, *, verified: bool) -> str:
    """``topic`` with one writer commit (spot-checked when ``verified``, else made with
    ``--no-verify``), then back on ``main`` with a human commit of its own; the writer
    commit's id."""
    w.ok("switch", "-q", "-c", "topic")
    w.delegate(text=WRITER)
    if verified:
        w.spot_check()
        w.ok("add", "-A")
        w.ok("commit", "-qm", "writer: add")
    else:
        w.ok("add", "-A")
        w.ok("commit", "-q", "--no-verify", "-m", "writer: add")
    commit = w.rev("HEAD")
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    return commit


def test_merging_a_verified_unpushed_writer_branch_passes(native: World) -> None:
    w = native
    writer = _writer_branch(w, verified=True)
    merged = w.git("merge", "--no-ff", "--no-edit", "topic")
    assert merged.code == 0, merged
    assert w.ok("log", "-1", "--format=%P").split()[1] == writer  # the merge commit
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


def test_merging_an_unverified_writer_branch_is_blocked(native: World) -> None:
    w = native
    _writer_branch(w, verified=False)
    blocked = w.git("merge", "--no-ff", "--no-edit", "topic")
    assert blocked.code != 0, blocked
    assert blocked.said[0].startswith("gentle-hooks: BLOCKED the staged change: "), blocked
