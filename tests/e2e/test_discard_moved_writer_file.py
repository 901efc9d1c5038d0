"""The printed ``human:`` claim never launders the writer's own file moved (SPEC §3
Binding, §5; issue 13, refuter h13e HIGH): real git, ``gentle-hook install --share
origin``, a bare remote with the server gate.

The refuter's repro: the writer's new ``deploy.py`` recorded, then ``mv deploy.py
ship.py``, one line edited, ``git add -A``: the commit was BLOCKED as "writer content in
ship.py (was deploy.py)" and printed a ``human:`` discard of ``ship.py``, which pasted
"claimed" the writer's file; the commit then passed with no trailer and no note, and the
push, ``gate --range`` and the server said "not delegated".

* The writer's pending work moved to another path (its file renamed, its block cut from
  it) is the writer's: the block offers no ``human:`` claim of it, and ``discard --
  PATH`` is refused in one line (exit 2) naming the writer's path and the ways out.
* A person's own file sharing copied lines while the writer's path still holds them keeps
  its claim (tests/e2e/test_discard_own_file.py).
"""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.test_attribution_generic import APP, served

__all__ = ["served"]  # the fixture, imported for pytest

DEPLOY = (
    "import subprocess\n\n\n"
    "def deploy(target, dry_run=False):\n"
    '    """Copy the tree to target."""\n'
    '    args = ["rsync", "-a", "--delete", ".", target]\n'
    "    if dry_run:\n"
    '        args.insert(1, "--dry-run")\n'
    "    result = subprocess.run(args, check=False)\n"
    "    if result.returncode:\n"
    '        raise SystemExit(f"rsync failed: {result.returncode}")\n'
    "    return result.returncode\n"
)
SHIP = DEPLOY.replace('"-a", "--delete"', '"-az"')


def _blocked_without_claim(w: World, path: str) -> None:
    """``git commit`` of everything: blocked as the writer's, no ``human:`` line; the
    discard of ``path`` refused in one line naming the writer's path; nothing recorded."""
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "ship")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not any("human: " in s for s in r.said), r
    d = w.gh("discard", "--reason", "a human change, not the writer work", "--", path)
    assert d.code == 2 and len(d.err.strip().splitlines()) == 1, d
    assert "moved there" in d.err and "Traceback" not in d.err, d
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    again = w.git("commit", "-qm", "ship")
    assert again.code == 1 and "BLOCKED the staged change" in again.said[0], again


def test_the_writers_new_file_moved_and_edited_is_never_claimed(served: World) -> None:
    w = served
    w.write("deploy.py", DEPLOY)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    (w.work / "deploy.py").unlink()
    w.write("ship.py", SHIP)
    _blocked_without_claim(w, "ship.py")
    d = w.gh("discard", "--reason", "mine", "--", "ship.py")
    assert "deploy.py" in d.err and "take it out with" in d.err, d
    # hooks off: the push gate and the server still judge it the writer's
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "ship")
    push = w.git("push", "origin", "main")
    assert push.code == 1 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_the_writers_block_cut_into_another_file_is_never_claimed(served: World) -> None:
    """The writer's two lines added to ``app.py`` cut from it (``app.py`` back as it was)
    and pasted into a new ``tasks.py``: a moved block, the writer's."""
    w = served
    block = (
        '    subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)\n'
        '    audit_log.record(user, "pytest suite ran")\n'
    )
    w.write(
        "app.py", APP.replace("def is_authorized(user):\n", "def is_authorized(user):\n" + block)
    )
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "app.py").code == 0
    w.write("app.py", APP)
    w.write("tasks.py", "import subprocess\n\n\ndef ci(user):\n" + block)
    _blocked_without_claim(w, "tasks.py")
