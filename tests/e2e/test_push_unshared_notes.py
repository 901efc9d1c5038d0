"""A push the gate lets through that sends delegated commits to a remote not set up to
carry the notes (``gentle-hook install`` without ``--share``): the records CI and a server
gate judge from stay in this clone, so the push says so and prints the ``sync push`` that
sends them, runnable as printed (issue 14, r14o: the notes missing on the remote were
found only by CI's block). Real git, ``gentle-hook install``, a bare remote."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

WRITER = "def add(a, b):\n    return a + b  # writer\n"
LINE = (
    "gentle-hooks: the notes of the delegated commits were not sent: origin is not set up "
    "to carry them, and CI and a server gate judge from them (install --share origin sends "
    "them with every push); run: gentle-hook sync push origin"
)


def _verified_commit(w: World) -> None:
    w.delegate(text=WRITER)
    w.spot_check()
    w.ok("commit", "-qam", "writer")


def test_a_verified_push_to_a_remote_without_the_notes_prints_the_sync_push(
    native: World,
) -> None:
    w = native
    _verified_commit(w)
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert [s for s in push.said if "notes" in s] == [LINE], push
    assert w.git("ls-remote", "--exit-code", "origin", "refs/notes/gentle-hooks").code == 2
    done = w.run(["sh", "-c", LINE.split("; run: ", 1)[1]])
    assert done.code == 0, done
    assert w.ok("ls-remote", "origin", "refs/notes/gentle-hooks").strip(), "notes on origin"
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    w.ok("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks", cwd=ci)
    assert w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci).code == 0


@pytest.mark.parametrize("case", ["shared", "human"])
def test_no_such_line_when_the_notes_travel_or_nothing_is_delegated(
    native: World, case: str
) -> None:
    w = native
    if case == "shared":
        assert w.gh("install", "--share", "origin").code == 0
        _verified_commit(w)
    else:
        w.write("README.md", "# demo, by a person\n")
        w.ok("commit", "-qam", "human")
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert not any("sync push" in s for s in push.said), push
