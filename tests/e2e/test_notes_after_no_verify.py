"""After a push that ran no gate (``git push --no-verify``), the notes reach the remote as
``install --share`` says (SPEC §8 "Sharing"; README "Sharing the records"). With plain
hooks the next plain ``git push`` shares them: git runs pre-push with every branch up to
date too. Under the pre-commit framework it does not: git's pre-push input is empty, and
the framework starts no hook when there is nothing to push ("Everything up-to-date"), so
``install --share`` there prints the ``sync push`` that shares them, and that line, pasted
as printed, does. Real git, real ``pre-commit install``, a bare remote.
"""

from __future__ import annotations

from tests.e2e.conftest import World

NOTES = "refs/notes/gentle-hooks"
SAID = "notes: a push that ran no gate (--no-verify) sends none, and pre-commit starts no hook"


def test_after_a_no_verify_push_the_notes_travel_as_install_said(world: World) -> None:
    w = world
    shared = w.gh("install", "--share", "origin")
    assert shared.code == 0, shared
    [line] = [x for x in shared.out.splitlines() if x.startswith("notes: a push that ran no")] or [
        None
    ]
    assert (line is not None) == (w.installer == "pre-commit"), shared
    w.delegate(text="def add(a, b):\n    return a + b  # w1\n")
    w.spot_check()
    w.ok("commit", "-qam", "writer: w1")
    pushed = w.git("push", "--no-verify")
    assert pushed.code == 0, pushed
    assert w.remote_ref(NOTES) is None
    again = w.git("push")
    assert again.code == 0, again
    if line is None:  # plain hooks: the gate ran, and sent them
        assert w.remote_ref(NOTES) is not None, again
        return
    assert line.startswith(SAID), line
    assert "Everything up-to-date" in again.err, again
    assert w.remote_ref(NOTES) is None  # the framework started no hook
    synced = w.run(["sh", "-c", line.split(" run: ", 1)[1]])  # pasted as printed
    assert synced.code == 0, synced
    held = w.ok("notes", "--ref", "gentle-hooks", "list", cwd=w.remote)
    assert w.rev("HEAD") in held, held
