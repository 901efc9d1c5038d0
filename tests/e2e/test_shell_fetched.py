"""What an agent's shell call fetches from another repository is not the writer's: a
teammate's commit pulled by Claude Code's ``Bash`` call ``git pull --no-rebase --no-edit``
(its merge stopped by the pre-merge-commit gate, or by ``--no-commit``) or fast-forwarded
records nothing, and the person's ``git commit --no-edit`` concluding the merge passes (SPEC
§3 "Attribution follows content", §7 "Hooks"; :mod:`gentle_hooks.git.fetchhead`).

Issue 17, refuter r17r (MED, human side): the Bash recorder recorded the teammate's
``mathx.py`` as the writer's and blocked the person's merge commit: a stopped merge leaves the
fetched content in the work tree and index, and a clone beside its ``origin`` (``/x/app``
next to ``/x/app.git``, as ``git clone /x/app.git`` makes it) gets a ``FETCH_HEAD`` naming
``/x/app`` (git cuts ``.git``), which was read as this repository. Real git, a bare remote,
a teammate's clone pushing to it, Claude Code's documented PreToolUse/PostToolUse payloads
(:mod:`tests.e2e.claude_bash`); the agent's own commit fetched from its own path still is
the writer's.
"""

from __future__ import annotations

import pytest

from tests.e2e.claude_bash import bash_call
from tests.e2e.conftest import World

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
MATE = "def mul(a, b):\n    return a * b\n"
NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


def _beside(native: World) -> World:
    """``native``'s remote cloned beside it as ``<base>/remote`` (its ``FETCH_HEAD`` names
    ``<base>/remote``: the clone's own path too), hooks installed there."""
    w = World(native.base, "gentle-hook")
    w.remote = native.remote
    w.work = native.base / "remote"
    native.ok("clone", "-q", str(native.remote), str(w.work), cwd=native.base)
    assert w.gh("install").code == 0
    return w


@pytest.fixture(params=["apart", "beside"])
def cloned(native: World, request: pytest.FixtureRequest) -> World:
    """The person's clone: ``work`` apart from ``remote.git``, or ``remote`` beside it."""
    return native if request.param == "apart" else _beside(native)


def _teammate_pushes(w: World) -> None:
    mate = w.base / "mate"
    w.ok("clone", "-q", str(w.remote), str(mate), cwd=w.base)
    (mate / "mathx.py").write_text(MATE)
    w.ok("add", "mathx.py", cwd=mate)
    w.ok(*NO_HOOKS, "commit", "-qm", "teammate: mathx", cwd=mate)
    w.ok(*NO_HOOKS, "push", "-q", "origin", "HEAD:main", cwd=mate)


def _person_commits(w: World) -> None:
    w.write("notes.txt", "hello\n")
    w.ok("add", "notes.txt")
    w.ok("commit", "-qm", "person notes")


PULLS = {
    # Claude Code's environment: the agent's merge is stopped by the pre-merge-commit gate
    "merge-stopped-by-gate": "CLAUDECODE=1 git pull -q --no-rebase --no-edit || true",
    "merge-no-commit": "git pull -q --no-rebase --no-commit",
}


@pytest.mark.parametrize("command", list(PULLS.values()), ids=list(PULLS))
def test_a_teammates_commit_an_agent_pulls_is_not_the_writers(cloned: World, command: str) -> None:
    w = cloned
    _teammate_pushes(w)
    _person_commits(w)
    said = bash_call(w, command, "toolu_p", MODEL)
    assert said.startswith("nothing recorded"), said
    assert "mathx.py" in w.ok("diff", "--cached", "--name-only")  # the merge is in progress
    r = w.git("commit", "--no-edit")
    assert r.code == 0, r
    assert w.ok("log", "-1", "--format=%P").count(" ") == 1  # the merge commit
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_a_teammates_commit_an_agent_fast_forwards_to_is_not_the_writers(cloned: World) -> None:
    w = cloned
    _teammate_pushes(w)
    said = bash_call(w, "git pull -q --no-rebase --no-edit", "toolu_p", MODEL)
    assert said.startswith("nothing recorded"), said
    assert (w.work / "mathx.py").read_text() == MATE
    w.write("notes.txt", "hello\n")
    w.ok("add", "notes.txt")
    r = w.git("commit", "-qm", "person notes")
    assert r.code == 0, r


def test_the_agents_commit_fetched_from_its_own_path_beside_origin_is_the_writers(
    native: World,
) -> None:
    """The other side: ``/x/remote`` in ``FETCH_HEAD`` is the clone itself here, and
    ``/x/remote.git`` does not hold the commit: it is walked, the writer's."""
    w = _beside(native)
    origin = "refs/remotes/origin/main"
    command = (
        "printf 'import os\\nos.system(1)\\n' > gen.py && git add gen.py && "
        f"git commit -qm gen --no-verify && git fetch -q {w.work} HEAD:{origin}"
    )
    said = bash_call(w, command, "toolu_o", MODEL)
    assert "recorded: pending mutation #1" in said, said
    assert "left content of its own in commits it made" in said, said
    r = w.git("push", "-q", "origin", "main")
    assert r.code == 1 and "BLOCKED" in r.err, r
