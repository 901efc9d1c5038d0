"""A small writer file moved to another path with one string changed stays the writer's
(SPEC §3 "Attribution follows content"; rows F1-F6 of
:mod:`gentle_hooks.policy.movedfile`): real git, ``gentle-hook install --share origin``, a
bare remote with the server gate.

Refuter (issue 13, MED): a writer's file of a few lines (``import subprocess``, a function
calling ``subprocess.run`` with a string literal) recorded, then moved (``mv``, or ``git mv``
of a tracked file the writer rewrote) with its URL or its command word changed: "not
delegated" at every gate. The other way, a person's own small file sharing the writer's
``import subprocess`` and its call's shape passes with no trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World

URL = "https://get.example.com/i.sh"
DEPLOY = (
    "import subprocess\n\n\ndef deploy():\n"
    f'    subprocess.run("curl -fsSL {URL} | sh", shell=True)\n    return 0\n'
)
#: The writer's file of lines anyone types around its call.
MAIN = (
    f'import subprocess\n\n\ndef main():\n    subprocess.run("curl {URL} | sh", shell=True)\n'
    '\n\nif __name__ == "__main__":\n    main()\n'
)


@pytest.fixture
def served(native: World) -> World:
    """One pushed commit of ``app.py`` and ``deploy.py`` (a person's placeholder); the
    server gate on the bare remote; notes shared with it."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("app.py", "def add(a, b):\n    return a + b\n")
    w.write("deploy.py", "# deployment goes here\n")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    return w


def _passes(r: Run) -> None:
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r


WRITER_ROWS = [
    # (id, the writer's file, how it is moved, the edit made to it)
    ("a new file mv'd, its URL changed", DEPLOY, "mv", (URL, "https://evil.example.net/x.sh")),
    ("a new file mv'd, its command word changed", DEPLOY, "mv", ("curl -fsSL", "wget -qO-")),
    ("the tracked file git mv'd, its URL changed", DEPLOY, "git mv", (URL, "https://x.org/s")),
    ("lines anyone types around curl, the URL changed", MAIN, "mv", (URL, "https://x.org/s")),
]


@pytest.mark.parametrize(
    ("text", "how", "edit"), [r[1:] for r in WRITER_ROWS], ids=[r[0] for r in WRITER_ROWS]
)
def test_a_small_writer_file_moved_with_one_string_changed_is_blocked_everywhere(
    served: World, text: str, how: str, edit: tuple[str, str]
) -> None:
    w = served
    path = "deploy.py" if how == "git mv" else "run_deploy.py"  # tracked, or never committed
    w.write(path, text)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", path).code == 0
    if how == "git mv":
        w.ok("mv", path, "ship.py")
    else:
        (w.work / path).rename(w.work / "ship.py")
    w.write("ship.py", text.replace(*edit))
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "ship")
    moved = f"delegated (writer content (o4-mini/low) in ship.py (was {path}))"
    assert r.code == 1 and r.said[0] == f"gentle-hooks: BLOCKED the staged change: {moved}", r
    w.ok("commit", "-q", "--no-verify", "-m", "ship")  # post-commit notes what it carries
    head = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    blocked = f"gentle-hooks: BLOCKED commit {head[:12]} on refs/heads/main: {moved}"
    assert push.code != 0 and blocked in push.said, push
    # past the local gate (its notes shared), the server gate rejects it
    server = w.git("push", "--no-verify", "origin")
    assert server.code != 0, server
    assert f"remote: gentle-hooks: BLOCKED {head[:12]} on refs/heads/main" in server.err, server
    assert w.remote_ref("main") != head


HUMAN_ROWS = [
    # (id, the writer's file, the person's own new file)
    (
        "import subprocess and the call's shape, a function of their own",
        DEPLOY,
        'import subprocess\n\n\ndef build():\n    subprocess.run("make all", shell=True)\n',
    ),
    (
        "the writer's layout with their own function name",
        DEPLOY,
        'import subprocess\n\n\ndef build():\n    subprocess.run("make all", shell=True)\n'
        "    return 0\n",
    ),
    (
        "the writer's lines anyone types around their own command",
        MAIN,
        MAIN.replace(f"curl {URL} | sh", "make"),
    ),
    (
        "lines anyone types around rm -rf of their own",
        'import os\n\n\ndef main():\n    os.system("rm -rf dist")\n\n\nmain()\n',
        'import os\n\n\ndef main():\n    os.system("rm -rf build")\n\n\nmain()\n',
    ),
    (
        "the writer's file with a line of their own beside their command",
        DEPLOY,
        DEPLOY.replace(f"curl -fsSL {URL} | sh", "make").replace(
            "return 0", 'print("built")\n    return 0'
        ),
    ),
]


@pytest.mark.parametrize(
    ("writer", "own"), [r[1:] for r in HUMAN_ROWS], ids=[r[0] for r in HUMAN_ROWS]
)
def test_a_persons_own_small_file_of_the_writers_shape_passes_with_no_trailer(
    served: World, writer: str, own: str
) -> None:
    """The writer's file pending, then put away (``git stash``): a person's own new file
    sharing ``import subprocess`` and the call's shape commits and pushes as theirs."""
    w = served
    w.write("run_deploy.py", writer)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "run_deploy.py").code == 0
    w.ok("stash", "-q", "--include-untracked")
    w.write("tools/build.py", own)
    w.ok("add", "tools/build.py")
    _passes(w.git("commit", "-qm", "human: build"))
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


def test_the_moved_file_verified_commits_with_the_trailer_and_pushes(served: World) -> None:
    """Blocked until verified, not for ever: the writer's report and the spot check let the
    moved file commit with the writer's trailer and push."""
    w = served
    w.write("run_deploy.py", DEPLOY)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "run_deploy.py").code == 0
    (w.work / "run_deploy.py").rename(w.work / "ship.py")
    w.write("ship.py", DEPLOY.replace(URL, "https://x.example.org/s"))
    w.ok("add", "-A")
    w.report()
    w.spot_check()
    _passes(w.git("commit", "-qm", "ship"))
    assert "Gentle-Writer: o4-mini/low" in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")
