"""A human's own idioms are not the writer's where the writer's work is not (SPEC §3
"Attribution follows content"; the boilerplate table of
:mod:`gentle_hooks.policy.boilerplate`): real git, ``gentle-hook install``, a bare remote
with the server gate and notes shared, a linked worktree ``b``.

The writer's pending work in worktree A holds common idioms (a logger, an argparse
helper, an entry point, a JSON file read) beside lines of its own. A human writing the
same idioms in worktree B, or in A after ``git stash`` put the writer's work away, or in
another path, commits and pushes with no block and no trailer. The writer's patch
applied in B still blocks there.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World

BASE = "def add(a, b):\n    return a - b\n"
TRAILER = "Gentle-Writer:"

#: case -> (path the writer writes, writer's addition, path the human writes, human's
#: addition); each addition is appended to :data:`BASE`.
CASES = {
    "logger": (
        "src/app.py",
        "import logging\n\nlog = logging.getLogger(__name__)\n\n\n"
        'def audit(x):\n    log.info("audit %s", x)\n',
        "src/app.py",
        "import logging\n\nlog = logging.getLogger(__name__)\n",
    ),
    "argparse": (
        "src/app.py",
        "\ndef parse_args(argv):\n    parser = argparse.ArgumentParser()\n"
        "    return parser.parse_args(argv)\n",
        "src/app.py",
        '\ndef parse_args(argv):\n    parser = argparse.ArgumentParser(description="x")\n'
        "    return parser.parse_args(argv)\n",
    ),
    "main": (
        "src/app.py",
        '\n\ndef main():\n    print(add(1, 2))\n\n\nif __name__ == "__main__":\n    main()\n',
        "src/app.py",
        '\n\ndef main():\n    print("hello")\n\n\nif __name__ == "__main__":\n    main()\n',
    ),
    "json read": (
        "src/f.py",
        "\n\ndef load(path):\n    with open(path) as f:\n        data = json.load(f)\n"
        "    return data\n",
        "src/app.py",
        "\n\ndef read_config(path):\n    with open(path) as f:\n        data = json.load(f)\n"
        "    return data\n",
    ),
}


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate, notes shared, :data:`BASE` in ``src/app.py`` and
    ``src/f.py`` pushed, and a linked worktree ``b`` on branch ``topic``."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("src/app.py", BASE)
    w.write("src/f.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    w.ok("worktree", "add", "-q", "-b", "topic", str(w.base / "b"), "main")
    return w


def _passes(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line], r


@pytest.mark.parametrize("where", ["worktree b", "after stash"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_humans_idioms_the_writer_also_wrote_pass(served: World, case: str, where: str) -> None:
    w = served
    writer_path, writer, human_path, human = CASES[case]
    w.delegate(writer_path, BASE + writer)  # pending in A
    cwd, branch = w.base / "b", "topic"
    if where == "after stash":
        w.ok("stash", "-q")
        cwd, branch = w.work, "main"
    w.write(human_path, BASE + human, cwd=cwd)
    _passes(w.git("commit", "-qam", "human: idiom", cwd=cwd))
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=cwd)
    _passes(w.git("push", "-q", "origin", branch, cwd=cwd))
    assert w.remote_ref(branch) == w.rev("HEAD", cwd=cwd)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_writers_patch_applied_in_b_still_blocks(served: World, case: str) -> None:
    w = served
    b = w.base / "b"
    writer_path, writer, _, _ = CASES[case]
    w.delegate(writer_path, BASE + writer)
    patch = w.ok("diff")
    assert w.run(["git", "apply"], cwd=b, input=patch.encode()).code == 0
    r = w.git("commit", "-qam", "tidy", cwd=b)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
