"""A person's own new file holding one line equal to a line of the writer's pending work
elsewhere is the person's; the writer's dangerous one-liner moved to another file stays the
writer's (SPEC §3 "Attribution follows content"; rows X1-X6 of
:mod:`gentle_hooks.policy.across`): real git, ``gentle-hook install --share origin``, a bare
remote with the server gate.

Refuter r13l (fp1, fp2): with the writer's edit of ``app.py`` pending, a person wrote
``parse.py`` with ``raise ValueError("invalid input")`` (or ``test_util.py`` with
``self.assertEqual(result, expected)``), a line the writer also wrote: the commit was
BLOCKED as "writer content in parse.py (was app.py)", no discard was accepted, and
``GENTLE_HOOKS_SKIP`` gave the person's commit a ``Gentle-Writer`` trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_generic import APP, record, served

__all__ = ["served"]  # the fixture, imported for pytest

OWN = [
    # (id, the writer's line in app.py, the person's own new file holding it)
    (
        "literal words (fp1)",
        '    raise ValueError("invalid input")\n',
        (
            "parse.py",
            "def parse_port(text):\n    if not text.isdigit():\n"
            '        raise ValueError("invalid input")\n    return int(text)\n',
        ),
    ),
    (
        "two names (fp2)",
        "    self.assertEqual(result, expected)\n",
        (
            "test_util.py",
            "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n"
            "        result, expected = 1, 1\n        self.assertEqual(result, expected)\n",
        ),
    ),
    (
        "a parse call",
        "    data = json.loads(response.text)\n",
        (
            "client.py",
            "def read(response):\n    data = json.loads(response.text)\n    return data\n",
        ),
    ),
    (
        "a file call",
        "    os.remove(tmp_path)\n",
        ("clean.py", "import os\n\n\ndef clean(tmp_path):\n    os.remove(tmp_path)\n"),
    ),
]


def _writes(w: World, line: str) -> None:
    w.write(
        "app.py", APP.replace("def is_authorized(user):\n", "def is_authorized(user):\n" + line)
    )
    record(w)


@pytest.mark.parametrize(("line", "own"), [o[1:] for o in OWN], ids=[o[0] for o in OWN])
def test_a_persons_own_file_with_one_line_the_writer_also_wrote_passes(
    served: World, line: str, own: tuple[str, str]
) -> None:
    w = served
    _writes(w, line)  # pending, unverified, still in app.py
    path, text = own
    w.write(path, text)
    w.ok("add", path)
    w.person_commits("-qm", f"human: {path}")
    push = w.git("push", "-q", "origin", "main")  # the pre-push gate and the server gate
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")
    status = w.gh("status")
    assert "app.py" in status.out, status  # the writer's own work is pending still


DANGEROUS = [
    ("a shell command literal", '    os.system("curl x | sh")\n'),
    ("a process call", "    subprocess.run(cmd, shell=True)\n"),
    ("a URL", '    fetch_config("https://config.example.com/v1/settings")\n'),
]


@pytest.mark.parametrize("line", [d[1] for d in DANGEROUS], ids=[d[0] for d in DANGEROUS])
def test_the_writers_dangerous_one_liner_moved_to_another_file_is_blocked(
    served: World, line: str
) -> None:
    w = served
    _writes(w, line)
    w.write("app.py", APP)  # moved out of app.py...
    w.write("tools.py", "def util(cmd):\n" + line + "    return 1\n")  # ...into tools.py
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "x")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "tools.py (was app.py)" in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "x")
    bad = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and f"BLOCKED commit {bad[:12]}" in push.err, push
    forced = w.git("push", "-q", "--no-verify", "origin", "main", "refs/notes/gentle-hooks")
    assert forced.code != 0 and f"BLOCKED {bad[:12]}" in forced.err, forced
    assert w.remote_ref("main") != bad


RUN = '    subprocess.run(["python", "-m", "pytest", "-q", "tests/"], check=True)\n'
AUDIT = '    audit_log.record(user, "pytest suite ran")\n'


def test_a_persons_own_file_with_one_dangerous_writer_line_has_a_human_way_out(
    served: World,
) -> None:
    """The one line still counts alone (row X5: a process call), so the person's own file
    is blocked in the writer's worktree; the block prints a ``human:`` discard naming the
    person's path, which claims that line there (the writer's ``app.py`` stays pending and
    blocked). Pasted as printed, the person's commit passes with no trailer and is pushed;
    a second writer line brought into that file is the writer's again."""
    w = served
    _writes(w, RUN + AUDIT)
    own = "import subprocess\n\n\ndef ci(user):\n" + RUN
    w.write("tasks.py", own)
    w.ok("add", "tasks.py")
    r = w.git("commit", "-qm", "human: tasks")
    assert r.code == 1 and "tasks.py (was app.py)" in r.err, r
    human = [ln.split("human: ", 1)[1] for ln in r.said if "human: " in ln]
    assert len(human) == 1 and human[0].endswith(" -- tasks.py"), r
    done = w.run(["sh", "-c", human[0]], cwd=w.work)  # pasted as printed
    assert done.code == 0 and "claimed:" in done.out, done
    w.person_commits("-qm", "human: tasks")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    writer = w.git("commit", "-qam", "writer")  # the writer's own work: pending, blocked
    assert writer.code == 1 and "in app.py" in writer.err, writer
    w.ok("reset", "-q")
    w.write("tasks.py", own + AUDIT)  # a second writer line there: the writer's again
    w.ok("add", "tasks.py")
    again = w.git("commit", "-qm", "more")
    assert again.code == 1 and "tasks.py (was app.py)" in again.err, again


def test_a_discard_of_a_path_holding_no_writer_line_is_refused(served: World) -> None:
    w = served
    _writes(w, RUN)
    w.write("notes.py", "def own():\n    return 2\n")
    w.ok("add", "notes.py")
    r = w.gh("discard", "--reason", "mine", "--", "notes.py")
    assert r.code == 2 and "no pending writer work on notes.py" in r.err, r
