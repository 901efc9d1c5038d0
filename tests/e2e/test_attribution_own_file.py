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
    r = w.git("commit", "-qm", f"human: {path}")
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
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
