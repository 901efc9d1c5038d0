"""The writer's content an agent's shell call writes again after undoing it is the writer's:
its record attributes the content, the block offers no discard and a discard is refused
(SPEC §3 "Attribution follows content", §5, §7 "Hooks"; :func:`gentle_hooks.services.
shell_commits.written_again`).

Issue 17, refuter r17r (MED): Claude Code's ``Write`` of ``src/app.py`` (recorded), its
``Bash`` ``git checkout src/app.py`` (content restored), then ``Bash`` ``sed -i`` writing the
same content again: the record said "no path differs from where the writer started" (it was
measured from the writer's last write, which the work tree held again, not from the
snapshot); after ``git add; git reset`` the block printed a ``human:`` discard line and the
pasted discard let the agent's exact content commit unverified. Real git, Claude Code's
documented PostToolUse ``Write`` and PreToolUse/PostToolUse ``Bash`` payloads.
"""

from __future__ import annotations

import pytest

from tests.e2e.claude_bash import bash_call, write_call
from tests.e2e.conftest import World

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
PATH = "src/app.py"
BASE = "def add(a, b):\n    return a - b\n"
WRITER = "def add(a, b):\n    return b + a\n"


def _write(w: World, text: str) -> str:
    """Claude Code's ``Write`` of :data:`PATH` (hooks reference, "PostToolUse input")."""
    code, err = write_call(w, PATH, text, "toolu_w1", MODEL)
    assert code == 0, err
    return err


@pytest.mark.parametrize(
    "touch", [(), (("add", PATH), ("reset", "-q"))], ids=["as-is", "add-reset"]
)
def test_writer_content_a_shell_call_writes_again_is_refused_a_discard(
    native: World, touch: tuple[tuple[str, ...], ...]
) -> None:
    w = native
    w.write(PATH, BASE)
    w.ok("commit", "-qam", "human: base")
    assert "recorded: pending mutation #1" in _write(w, WRITER)
    said = bash_call(w, f"git checkout {PATH}", "toolu_b1", MODEL)
    assert said.startswith("nothing recorded"), said
    said = bash_call(w, f"sed -i 's/a - b/b + a/' {PATH}", "toolu_b2", MODEL)
    assert "recorded: pending mutation #2" in said, said
    assert "no path differs" not in said, said
    for args in touch:
        w.ok(*args)
    r = w.git("commit", "-qam", "x")
    assert r.code == 1 and f"writer content (claude-sonnet-4-5/low) in {PATH}" in r.said[0], r
    assert not any("human:" in s for s in r.said), r
    d = w.gh("discard", "--reason", "a human change, not the writer work", "--", PATH)
    assert d.code == 2, d
    r = w.git("commit", "-qam", "x")
    assert r.code == 1, r
