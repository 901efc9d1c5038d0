"""A person's own version of a file whose writer edit they threw away is theirs (SPEC §3
"Attribution follows content"; row A9 of :mod:`gentle_hooks.policy.attribution`; issue 13,
refuter h13f): real git, ``gentle-hook install``, a bare remote with the server gate and
notes shared with it.

* The writer edits a small file (recorded, pending); the person throws the edit away
  (``git checkout -- FILE``, ``git restore FILE``, ``git stash`` then ``git stash drop``,
  or an editor overwriting the file; ``rm`` of the writer's new file) and writes their own
  version of it: the commit passes with no trailer, and the push, ``gate --range`` and the
  server gate let it through (it was blocked as writer content, with no way out).
* The person's version keeping one telling line of the writer's is blocked (the writer's
  line is still there), and the block prints a ``human:`` discard that, pasted, lets the
  commit through with no trailer and an override line in its note (the discard refused).
* The writer's content typed again after the checkout with one literal changed, or its
  removal with one line edited, stays the writer's: blocked, no ``human:`` line, and the
  discard refuses.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

CHECK = (
    "def check(user):\n    if user is None:\n        return False\n"
    "    if user.banned:\n        return False\n    return True\n\n\n"
    "def limit():\n    return 10\n"
)
#: The writer drops the ban check (a removal only) ...
DROPPED = CHECK.replace("    if user.banned:\n        return False\n", "")
#: ... or flips two common lines.
FLIPPED = CHECK.replace("return False\n    if user.banned", "return None\n    if user.banned")
FLIPPED = FLIPPED.replace("return 10", "return 20")
#: The person's own version of ``src/check.py``.
OWN_CHECK = (
    "class Checker:\n    def __init__(self, max_items):\n        self.max_items = max_items\n\n"
    "    def allowed(self, user):\n        if not user:\n            return None\n"
    "        return user.active and not user.banned\n\n"
    "    def limit(self):\n        return self.max_items\n"
)
CONF = (
    '"""Settings."""\n\nHOST = "localhost"\nPORT = 8080\nDEBUG = False\n\n\n'
    'def url():\n    return f"http://{HOST}:{PORT}"\n'
)
TIMEOUT = 'TIMEOUT = float(os.environ.get("APP_TIMEOUT", "2.5"))\n'
CONF_W = (
    '"""Settings loaded from the environment."""\nimport os\n\n'
    'HOST = os.environ.get("APP_HOST", "0.0.0.0")\n'
    'PORT = int(os.environ.get("APP_PORT", "9000"))\n'
    'DEBUG = os.environ.get("APP_DEBUG") == "1"\n' + TIMEOUT + "\n\n"
    'def url():\n    return "https://%s:%d/api" % (HOST, PORT)\n'
)
#: The person's own version of ``src/conf.py``.
OWN_CONF = (
    '"""Configuration for the demo service."""\n\nSERVER_NAME = "demo.internal"\n'
    "LISTEN_PORT = 7000\nVERBOSE = True\nRETRIES = 3\n\n\n"
    'def endpoint(path):\n    return SERVER_NAME + ":" + str(LISTEN_PORT) + path\n'
)


def throw_away(w: World, how: str, rel: str, new: bool) -> None:
    """The person throws the writer's edit of ``rel`` away (``new``: the writer created it)."""
    if how == "checkout":
        if new:
            (w.work / rel).unlink()
        else:
            w.ok("checkout", "--", rel)
    elif how == "restore":
        w.ok("restore", rel)
    elif how == "stash-drop":
        w.ok("stash", "-q", *(["-u"] if new else []))
        w.ok("stash", "drop", "-q")
    else:
        assert how == "overwrite"  # the editor writes over the writer's file


def passes_everywhere(w: World, message: str) -> None:
    """``git commit -qam message`` passes with no writer trailer, and so do ``gate
    --range``, the push (with the notes, when there are any) and the server gate."""
    r = w.git("commit", "-qam", message)
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0 and "not delegated" in ci.out + ci.err, ci
    notes = w.git("rev-parse", "-q", "--verify", "refs/notes/gentle-hooks").code == 0
    push = w.git("push", "origin", "main", *(["refs/notes/gentle-hooks"] if notes else []))
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


@pytest.mark.parametrize(
    ("writer", "how"),
    [
        (FLIPPED, "checkout"),
        (DROPPED, "restore"),
        (FLIPPED, "stash-drop"),
        (DROPPED, "overwrite"),
    ],
    ids=["flips, checkout", "removal, restore", "flips, stash and drop", "removal, overwrite"],
)
def test_a_persons_own_version_after_throwing_the_writers_edit_away_passes(
    native: World, writer: str, how: str
) -> None:
    w = native.serve({"src/check.py": CHECK})
    w.delegate("src/check.py", writer)
    throw_away(w, how, "src/check.py", new=False)
    w.write("src/check.py", OWN_CHECK)
    passes_everywhere(w, "human: my own checker")


@pytest.mark.parametrize("how", ["checkout", "overwrite", "stash-drop"])
def test_a_persons_own_file_where_the_writers_new_file_was_passes(native: World, how: str) -> None:
    w = native.serve({"src/other.py": "x = 1\n"})
    w.delegate("src/conf.py", CONF_W)
    throw_away(w, how, "src/conf.py", new=True)
    w.write("src/conf.py", OWN_CONF)
    w.ok("add", "-A")
    passes_everywhere(w, "human: my own settings")


@pytest.mark.parametrize("new", [False, True], ids=["existing file", "new file"])
def test_a_persons_own_version_keeping_one_writer_line_is_theirs_with_the_printed_discard(
    native: World, new: bool
) -> None:
    """One telling writer line left in the person's own version: blocked (it is the
    writer's line), the ``human:`` line pasted claims it, and the commit then passes with no
    trailer and the discard in its note."""
    w = native.serve({"src/other.py": "x = 1\n"} if new else {"src/conf.py": CONF})
    w.delegate("src/conf.py", CONF_W)
    throw_away(w, "checkout", "src/conf.py", new=new)
    w.write("src/conf.py", OWN_CONF + TIMEOUT)
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: my own settings")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if "human: " in s]
    assert len(offered) == 1 and " discard " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    passes_everywhere(w, "human: my own settings")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert "writer content claimed: src/conf.py" in note and '"kind":"writer"' not in note


@pytest.mark.parametrize(
    ("base", "writer", "again"),
    [
        (CONF, CONF_W, CONF_W.replace('"9000"', '"9001"')),
        (CHECK, DROPPED, DROPPED.replace("return 10", "return 11")),
        (CHECK, FLIPPED, FLIPPED.replace("return True", "return user.ok")),
    ],
    ids=["one literal changed", "removal, one line edited", "flips, one line edited"],
)
def test_the_writers_content_typed_again_lightly_edited_stays_the_writers(
    native: World, base: str, writer: str, again: str
) -> None:
    """After ``git checkout -- FILE`` the writer's content typed again with one literal or
    one line changed is no rewrite: blocked, no ``human:`` line, and the discard refuses."""
    w = native.serve({"src/f.py": base})
    w.delegate("src/f.py", writer)
    w.ok("checkout", "--", "src/f.py")
    w.write("src/f.py", again)
    blocked = w.git("commit", "-qam", "retyped")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not [s for s in blocked.said if "human: " in s], blocked
    refused = w.gh("discard", "--reason", "mine", "--", "src/f.py")
    assert refused.code == 2 and "still holds the writer's change" in refused.err, refused
