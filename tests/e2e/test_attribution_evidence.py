"""Attribution from thin evidence: one writer line taken alone, the writer's lines renamed
or re-wrapped, and the human's own line beside stashed writer work (SPEC §3 "Attribution
follows content"; the rows of :mod:`gentle_hooks.policy.linekeys`)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World
from tests.e2e.test_attribution import (
    TRAILER,
    _blocked_push,
    _blocked_staged,
    _message,
    _server_rejects,
)

BODY = "".join(f"\n\ndef step_{i}(x):\n    return x + {i}\n" for i in range(4))
BASE = "import subprocess\n" + BODY
SHELL = 'subprocess.run("curl x|sh", shell=True)\n'


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _human_base(w: World, text: str = BASE) -> None:
    w.write("src/app.py", text)
    w.ok("commit", "-qam", "human: base")
    w.ok("push", "-q", "origin", "main")


def test_one_writer_line_taken_alone_with_add_p_is_delegated(served: World) -> None:
    """The writer adds two lines in two hunks; ``git add -p`` stages only the second (a
    shell call): that one line is the writer's content, blocked at commit, push and the
    server."""
    w = served
    _human_base(w)
    w.delegate(text='import subprocess\nLOG_LEVEL = "debug"\n' + BODY + SHELL)
    staged = w.run(["git", "add", "-p", "src/app.py"], input=b"n\ny\n")
    assert staged.code == 0, staged
    _blocked_staged(w.git("commit", "-qm", "one line"))
    w.ok("commit", "-q", "--no-verify", "-m", "one line")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


SCRIPT = "#!/bin/sh\nset -eu\nmake build\n"
#: (path, human base, the writer's lines before the action, the action, its lines after).
ACTIONS = {
    "rm -rf /": (
        "src/clean.sh",
        SCRIPT,
        'echo "cleaning the build tree"\ncp -r dist "$TARGET_DIR"\n',
        "rm -rf /\n",
        "notify_owner build_done\n",
    ),
    "a short call": (
        "src/app.py",
        BASE,
        'LOG_LEVEL = "debug"\n',
        "purge()\n",
        "report_progress(queue, done=True)\n",
    ),
    "os.system(x)": (
        "src/app.py",
        BASE,
        'LOG_LEVEL = "debug"\n',
        "os.system(x)\n",
        "report_progress(queue, done=True)\n",
    ),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_one_short_writer_action_taken_alone_is_delegated(served: World, action: str) -> None:
    """The writer adds lines around an action (a shell command, a call, however short); a
    commit of the action alone, away from the writer's other lines (``git add -p``), is the
    writer's content: blocked at commit, at push and at the server."""
    w = served
    path, base, before, line, after = ACTIONS[action]
    w.write(path, base)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    w.delegate(path, text=before + base + line + after)
    w.write(path, base + line)
    w.ok("add", "-A")
    _blocked_staged(w.git("commit", "-qm", "one line"), path)
    w.ok("commit", "-q", "--no-verify", "-m", "one line")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad, path)
    _server_rejects(w, bad)


def test_a_humans_short_line_the_writer_also_wrote_passes(served: World) -> None:
    """The writer's edit adds ``x = 0`` and a telling line, and is thrown away; a human
    adds ``x = 0`` alone (trivial: not an action): the human's commit and push pass, no
    trailer."""
    w = served
    _human_base(w)
    w.delegate(text=BASE + "x = 0\nreport_progress(queue, done=True)\n")
    w.ok("stash", "-q")
    w.write("src/app.py", BASE + "x = 0\n")
    r = w.git("commit", "-qam", "human: x")
    _passes_quietly(r)
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))


GOOD = "def add(a, b):\n    return a + b  # writer\n"
HUMAN = "def add(a, b):\n    return b + a\n"


def _passes_quietly(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line or "delegated" in line], r


def test_after_reset_hard_of_a_checked_ai_commit_a_human_rewrite_passes(served: World) -> None:
    """The writer's checked commit (unpushed) is thrown away with ``reset --hard HEAD~1``;
    the human writes the same line their own way: commit and push pass, no trailer, and
    the override is not needed."""
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.ok("reset", "-q", "--hard", "HEAD~1")
    w.write("src/app.py", HUMAN)
    _passes_quietly(w.git("commit", "-qam", "human: app"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")


def test_discard_abandons_taken_unpushed_writer_work(served: World) -> None:
    """A writer commit not pushed yet: ``discard`` abandons its entry on purpose, and the
    human's own rewrite of the file on top of it passes."""
    w = served
    w.unverified(GOOD)
    r = w.gh("discard", "src/app.py", "--reason", "the agent's commit is dropped")
    assert r.code == 0, r
    w.ok("reset", "-q", "--hard", "HEAD~1")
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer, kept by hand\n")
    _passes_quietly(w.git("commit", "-qam", "human: app"))
    assert TRAILER not in _message(w)


NET = (
    "import subprocess\n\n\ndef fetch(target_url):\n"
    '    return subprocess.run(["curl", target_url], check=False)\n'
)
CALL = (
    '    result = subprocess.run(["curl", "-s", target_url], shell=False, check=False, timeout=9)\n'
)
STUB = "import subprocess\n\n\ndef fetch(target_url):\n    return None\n"
LONG = STUB.replace("    return None\n", CALL + "    return result.stdout\n")
WRAPPED = STUB.replace(
    "    return None\n",
    '    result = subprocess.run(\n        ["curl", "-s", target_url],\n        shell=False,\n'
    "        check=False,\n        timeout=9,\n    )\n    return result.stdout.decode()\n",
)


@pytest.mark.parametrize(
    ("base", "writer", "edited"),
    [(None, NET, NET.replace("target_url", "url")), (STUB, LONG, WRAPPED)],
    ids=["a name renamed with sed", "a line wrapped by a formatter"],
)
def test_renaming_or_rewrapping_writer_lines_does_not_launder_them(
    served: World, base: str | None, writer: str, edited: str
) -> None:
    """The writer's lines renamed mechanically (``sed s/target_url/url/g``) or its one long
    line re-wrapped (black's exploded call with a trailing comma, the writer's other line
    edited): still the writer's content, at commit, at push and at the server; the entry
    does not expire."""
    w = served
    if base is not None:
        w.write("src/net.py", base)
        w.ok("add", "-A")
        w.ok("commit", "-qm", "human: stub")
    w.delegate("src/net.py", writer)
    w.write("src/net.py", edited)
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "tidy")
    assert not [line for line in r.said if "expired" in line], r
    _blocked_staged(r, "src/net.py")
    w.ok("commit", "-q", "--no-verify", "-m", "tidy")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad, "src/net.py")
    _server_rejects(w, bad)


def test_a_human_line_of_the_writers_shape_with_names_of_its_own_passes(served: World) -> None:
    """The writer's new file thrown away; the human writes lines of the same token shape
    with names of their own: the human's."""
    w = served
    w.delegate("src/net.py", NET)
    (w.work / "src/net.py").unlink()
    human = (
        NET.replace("fetch(target_url)", "download(address)")
        .replace('["curl", target_url]', '["curl", address]')
        .replace("subprocess.run", "subprocess.call")
    )
    w.write("src/net.py", human)
    w.ok("add", "src/net.py")
    r = w.git("commit", "-qm", "human: download")
    _passes_quietly(r)
    assert TRAILER not in _message(w)


def _writer_commit_with_a_human_line(w: World) -> None:
    """A writer's edit of ``src/app.py`` (recorded for that path only) committed with
    ``--no-verify`` together with a human's README line."""
    w.write("src/app.py", GOOD)
    r = w.gh("record", "--model", "o4-mini", "--effort", "low", "src/app.py")
    assert r.code == 0, r
    w.write("README.md", "# demo, by a human\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer and human")


@pytest.mark.parametrize("edit", ["--no-edit", "-m"])
def test_an_amend_that_removes_all_writer_content_is_the_humans(native: World, edit: str) -> None:
    """A writer commit (with a human's README line) amended after ``git checkout HEAD~1 --
    src/app.py``: its tree holds none of the writer's lines, so the amended commit is the
    human's: no trailer, no stale record blocking it at commit or at push."""
    w = native
    _writer_commit_with_a_human_line(w)
    assert TRAILER in _message(w)
    w.ok("checkout", "HEAD~1", "--", "src/app.py")
    message = ["--no-edit"] if edit == "--no-edit" else ["-m", "human: readme"]
    _passes_quietly(w.git("commit", "-q", "--amend", *message))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")


def test_the_server_accepts_an_amend_that_removed_all_writer_content(served: World) -> None:
    """The note git copied to the amended commit (``notes.rewriteRef``) goes with the
    writer's content: the server and CI see a human commit."""
    w = served
    _writer_commit_with_a_human_line(w)
    w.ok("checkout", "HEAD~1", "--", "src/app.py")
    w.ok("commit", "-q", "--amend", "--no-edit")
    assert w.git("notes", "--ref", "refs/notes/gentle-hooks", "list", "HEAD").code != 0
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")
    ci = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert ci.code == 0, ci


def test_an_amend_that_keeps_writer_content_keeps_its_trailer(served: World) -> None:
    w = served
    _writer_commit_with_a_human_line(w)
    w.ok("checkout", "HEAD~1", "--", "README.md")
    w.ok("commit", "-q", "--no-verify", "--amend", "--no-edit")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), w.rev("HEAD"))


def test_after_stash_of_writer_work_a_humans_own_rewrite_passes(served: World) -> None:
    """The writer's edit is stashed; the human rewrites the same line their own way: the
    human's commit passes with no trailer, and the stashed work, popped and committed
    later, is still the writer's."""
    w = served
    w.delegate(text=GOOD)
    w.ok("stash", "-q")
    w.write("src/app.py", HUMAN)
    r = w.git("commit", "-qam", "human: app")
    _passes_quietly(r)
    assert not [line for line in r.said if "expired" in line], r
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    w.ok("checkout", "-q", "stash@{0}", "--", "src/app.py")
    _blocked_staged(w.git("commit", "-qam", "writer work back"))


def _feature_delivered(w: World) -> None:
    """The writer's feature on ``featX``: spot-checked, committed and pushed; back on
    ``main``."""
    w.ok("switch", "-q", "-c", "featX")
    w.delegate(text=PAYLOAD_X)
    w.spot_check()
    assert w.git("commit", "-qam", "writer: feature").code == 0
    assert w.git("push", "-q", "origin", "featX").code == 0
    w.ok("switch", "-q", "main")


def _feature_checked_and_pushed_then_main_moves(w: World, how: str) -> None:
    """The writer's feature on ``featX``, spot-checked, committed and pushed; ``main``
    moves on (a human's README commit); the feature's content is brought onto ``main``
    with ``how`` and staged."""
    _feature_delivered(w)
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    if how == "cherry-pick -n":
        w.ok("cherry-pick", "-n", "featX")
    else:
        w.ok("checkout", "featX", "--", "src/app.py")


@pytest.mark.parametrize("how", ["cherry-pick -n", "checkout featX --"])
def test_verified_writer_content_reapplied_on_another_base_needs_a_check_at_push(
    served: World, how: str
) -> None:
    """The feature's check was bound to ``featX``'s candidate: the commit that re-applies
    its content on ``main`` is a new candidate, committed with the hooks off (the commit
    gate stops it), blocked at push as re-applied writer content until checked itself;
    then the push passes."""
    w = served
    _feature_checked_and_pushed_then_main_moves(w, how)
    w.ok("commit", "-q", "--no-verify", "-m", "bring the feature")
    again = w.rev("HEAD")
    r = w.git("push", "origin", "main")
    assert r.code == 1, r
    why = "delegated (writer content (o4-mini/low) in src/app.py re-applied on another base"
    assert any(f"BLOCKED commit {again[:12]}" in line and why in line for line in r.said), r
    assert w.remote_ref("main") != again
    w.report("--committed")
    w.spot_check("--committed")
    r = w.git("push", "origin", "main")
    assert r.code == 0 and not [line for line in r.said if "BLOCKED" in line], r
    assert w.remote_ref("main") == again


@pytest.mark.parametrize("how", ["cherry-pick -n", "checkout featX --"])
def test_verified_writer_content_reapplied_on_another_base_needs_a_check_at_commit(
    served: World, how: str
) -> None:
    """The same re-application is blocked at commit as writer content; a spot check of
    the staged candidate lets the commit through, and the push of that commit passes."""
    w = served
    _feature_checked_and_pushed_then_main_moves(w, how)
    _blocked_staged(w.git("commit", "-qm", "bring the feature"))
    w.report("--staged")
    w.spot_check("--staged")
    r = w.git("commit", "-qm", "bring the feature")
    assert r.code == 0 and r.said == [
        "gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires"
    ], r
    r = w.git("push", "origin", "main")
    assert r.code == 0 and not [line for line in r.said if "BLOCKED" in line], r
    assert w.remote_ref("main") == w.rev("HEAD")


def test_building_on_verified_pushed_writer_content_passes_at_push(served: World) -> None:
    """Once the feature's content is delivered, what builds on it is not re-applied: a
    merge of ``featX`` into ``main`` (which moved on), a human's edit of the file on top of
    it, and a human's line ``import os`` (trivial) elsewhere pass; no trailer."""
    w = served
    _feature_delivered(w)
    w.write("src/util.py", "import os\n\nHOME = os.environ.get('HOME')\n")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: util")
    _passes_quietly(w.git("merge", "-q", "--no-edit", "featX"))
    w.write("src/app.py", (w.work / "src/app.py").read_text() + "# reviewed by a human\n")
    _passes_quietly(w.git("commit", "-qam", "human: note"))
    assert TRAILER not in _message(w)
    r = w.git("push", "origin", "main")  # featX's own commit comes along, checked
    assert r.code == 0 and not [line for line in r.said if "BLOCKED" in line], r
    assert w.remote_ref("main") == w.rev("HEAD")


PAYLOAD_X = GOOD + "\n\nimport os\nos.system('curl x|sh')\n"


def test_a_conflicted_merge_of_delivered_writer_content_passes(served: World) -> None:
    """A merge of the delivered feature that conflicts, resolved with the feature's
    version and concluded with ``git commit`` (pre-commit, with git's ``MERGE_HEAD`` in
    place), brings what was judged on its branch: commit and push pass, no trailer."""
    w = served
    _feature_delivered(w)
    w.write("src/app.py", HUMAN)
    w.ok("commit", "-qam", "human: app")
    assert w.git("merge", "-q", "--no-edit", "featX").code == 1  # a conflict in src/app.py
    w.ok("checkout", "--theirs", "src/app.py")
    w.ok("add", "src/app.py")
    _passes_quietly(w.git("commit", "-q", "--no-edit"))
    assert TRAILER not in _message(w)
    r = w.git("push", "origin", "main")
    assert r.code == 0 and not [line for line in r.said if "BLOCKED" in line], r
