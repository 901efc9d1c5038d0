"""Plain ``gentle-hook status`` after a commit made with hooks off (SPEC §5): the work tree
holds nothing pending, yet ``HEAD`` carries writer work the push gate blocks; status says
so instead of only "not delegated". Real git, ``gentle-hook install``.
"""

from __future__ import annotations

from tests.e2e.conftest import World


def test_status_names_writer_work_committed_with_hooks_off(native: World) -> None:
    w = native
    w.delegate(text="import os\n\ndef run(cmd):\n    return os.system(cmd)\n")
    w.ok("add", "-A")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "agent")
    head = w.rev("HEAD")
    r = w.gh("status")
    assert r.code == 0, r
    assert f"HEAD (commit {head[:12]}) does, committed without what its plan requires" in r.out
    assert "gentle-hook status --committed" in r.out, r
    push = w.git("push", "origin", "main")
    assert push.code == 1 and any(f"BLOCKED commit {head[:12]}" in s for s in push.said), push


def test_status_of_a_human_commit_says_nothing_of_committed_work(native: World) -> None:
    w = native
    w.write("README.md", "# demo, human\n")
    w.ok("commit", "-qam", "human")
    r = w.gh("status")
    assert r.code == 0 and "committed without" not in r.out, r
