"""A person's long-ignored file that an agent's shell call tracks stays the person's; a file
the agent writes under an ignored path and tracks is the writer's (SPEC §3 "Attribution
follows content"; docs/agents/claude-code.md, "What a Bash command writes").

Real git, ``gentle-hook install``, a real shell command run between Claude Code's
documented ``PreToolUse`` and ``PostToolUse`` inputs (code.claude.com/docs/en/hooks,
``tool_name`` ``Bash``, ``tool_input.command``, the same ``tool_use_id``). Refuter r17o:
``git add -f local/settings.py`` (or deleting ``local/`` from ``.gitignore``) made the
person's file, which existed long before the call with the same content, the writer's: the
person's commit was blocked. The snapshot never sees ignored files; the file's inode
(``ctime``, ``mtime``) before any agent shell call in the repository says it held that
content already (:mod:`gentle_hooks.services.shell_unseen`), so the test waits out its
two-second margin after the person's file is made.
"""

from __future__ import annotations

import time

import pytest

from tests.e2e.claude_bash import bash_call, write_call
from tests.e2e.conftest import World

SETTINGS = "local/settings.py"
MINE = "DATABASE_URL = 'postgres://localhost/dev'\nDEBUG = True\n"
EVIL = "def handler(request):\n    return eval(request.body)\n"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "high"}
#: Past :data:`gentle_hooks.services.shell_unseen.MARGIN_NS`.
WAIT = 2.2


def _bash(w: World, command: str, call: str) -> str:
    """Claude Code's Bash call of ``command``: PreToolUse, the command, PostToolUse."""
    return bash_call(w, command, call, MODEL)


@pytest.fixture
def ignoring(native: World) -> World:
    w = native
    w.write(".gitignore", "local/\ngen/\n*.log\n")
    w.write("src/app.py", "VALUE = 1\n")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    return w


@pytest.mark.parametrize("way", ["add -f", "unignore"])
def test_a_persons_long_ignored_file_an_agent_tracks_stays_theirs(
    ignoring: World, way: str
) -> None:
    w = ignoring
    w.write(SETTINGS, MINE)
    time.sleep(WAIT)  # long before the agent's first shell call
    if way == "add -f":
        said = _bash(w, f"git add -f {SETTINGS}", "toolu_g1")
        assert said.startswith("nothing recorded: the Bash call of Claude Code changed no"), said
    else:
        said = _bash(w, "sed -i '/^local/d' .gitignore", "toolu_g1")
        assert "pending mutation #1: claude-sonnet-4-5/high via claude-code, 1 path(s)" in said
        w.ok("add", SETTINGS)
    note = f"it tracked or unignored 1 file(s) ({SETTINGS}) that held the same content before"
    assert note in said, said
    r = w.git("commit", "-qm", "human: keep my settings")
    assert r.code == 0, r
    assert w.ok("show", f"HEAD:{SETTINGS}") == MINE


@pytest.mark.parametrize(
    "when", ["same call", "earlier call", "person's file changed", "earlier Write"]
)
def test_what_an_agent_writes_under_an_ignored_path_and_tracks_is_the_writers(
    ignoring: World, when: str
) -> None:
    w = ignoring
    path = "gen/handler.py"
    write = f"mkdir -p gen && printf '%s' '{EVIL}' > {path}"
    if when == "same call":
        command = f"{write} && git add -f {path}"
    elif when == "earlier call":
        time.sleep(WAIT)
        said = _bash(w, write, "toolu_g0")  # ignored: nothing shows, nothing is recorded
        assert said.startswith("nothing recorded"), said
        time.sleep(WAIT)  # older than this call's snapshot, not than the first call
        command = f"git add -f {path}"
    elif when == "earlier Write":
        # Claude Code's Write tool (hooks reference, "PostToolUse input") recorded it by
        # path; the shell call that tracks it later records nothing, the Write's record counts
        _, err = write_call(w, path, EVIL, "toolu_w0", MODEL, kind="create")
        assert "recorded: pending mutation #1" in err, err
        time.sleep(WAIT)
        command = f"git add -f {path}"
    else:
        path = SETTINGS
        w.write(SETTINGS, MINE)
        time.sleep(WAIT)
        command = f"printf '%s' '{EVIL}' >> {SETTINGS} && git add -f {SETTINGS}"
    said = _bash(w, command, "toolu_g2")
    assert when == "earlier Write" or "recorded: pending mutation #" in said, said
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1, r
    assert (
        f"BLOCKED the staged change: delegated (writer content (claude-sonnet-4-5/high) in {path})"
        in r.said[0]
    ), r
