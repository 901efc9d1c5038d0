"""What a Claude Code ``Bash`` call leaves in the index is compared as its work tree is
(SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/claude-code.md).

Real git, ``gentle-hook install``, a real shell command run between Claude Code's
documented ``PreToolUse`` and ``PostToolUse`` inputs (code.claude.com/docs/en/hooks,
``tool_name`` ``Bash``, ``tool_input.command``, the same ``tool_use_id``):

* refuter r17o H1: a call that writes only the index (``git apply --cached``, ``git
  update-index --cacheinfo``, ``git add`` of what it wrote, then the work tree put back)
  records that blob as the writer's: the person's ``git commit`` is blocked;
* the call's ``git add`` of a person's unsaved lines stages nothing new: their commit passes;
* refuter r17o H4: an agent's ``mv`` or ``git mv`` of a person's file holding staged and
  unstaged edits is moved content: the person's commit of the rename passes, as it does for
  a file with only staged or only unstaged edits.
"""

from __future__ import annotations

import pytest

from tests.e2e.claude_bash import bash_call
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
EVIL = "VALUE = 1\n\n\ndef main():\n    return apply_discount_rules(VALUE, region_table)\n"
HUMAN = "\n\ndef human_special_formatter(rows):\n    return format_rows_for_display(rows)\n"
PATH = "src/calc.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


def _bash(w: World, command: str, call: str = "toolu_i1") -> str:
    """Claude Code's Bash call of ``command``: PreToolUse, the command, PostToolUse."""
    return bash_call(w, command, call, MODEL)


@pytest.fixture
def based(native: World) -> World:
    native.write(PATH, BASE)
    native.write("src/other.py", "OTHER = 2\n")
    native.ok("add", "-A")
    native.ok("commit", "-qm", "human: base")
    return native


def _evil_blob(w: World) -> str:
    return w.run(["git", "hash-object", "-w", "--stdin"], input=EVIL.encode()).out.strip()


@pytest.mark.parametrize("way", ["apply-cached", "update-index", "add-then-restore"])
def test_what_a_call_staged_of_its_own_blocks_the_persons_commit(based: World, way: str) -> None:
    """Refuter r17o H1: "changed no file" was said and the person's commit delivered it."""
    w = based
    if way == "apply-cached":
        w.write(PATH, EVIL)
        patch = w.work.parent / "evil.patch"
        patch.write_text(w.ok("diff"))
        w.ok("checkout", "--", PATH)
        command = f"git apply --cached {patch}"
    elif way == "update-index":
        command = f"git update-index --cacheinfo 100644,{_evil_blob(w)},{PATH}"
    else:
        command = (
            f"cp {PATH} /tmp/keep.$$ && printf '%s' '{EVIL}' > {PATH} && git add {PATH} "
            f"&& cp /tmp/keep.$$ {PATH} && rm /tmp/keep.$$"
        )
    said = _bash(w, command)
    assert "recorded: pending mutation #1" in said, said
    assert "staged content of its own that the work tree does not hold" in said, said
    assert w.ok("diff", "--name-only") == f"{PATH}\n"  # the work tree is as it was
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_lines_a_call_stages_stay_theirs(based: World) -> None:
    w = based
    w.write(PATH, BASE + HUMAN)
    said = _bash(w, f"git add {PATH}")
    assert said.startswith("nothing recorded: the Bash call of Claude Code changed no file"), said
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("move", ["mv", "git mv"])
@pytest.mark.parametrize("edits", ["staged", "unstaged", "both"])
def test_a_persons_file_an_agent_moves_is_moved_content(
    based: World, move: str, edits: str
) -> None:
    """Refuter r17o H4: with staged and unstaged edits the person's commit was blocked
    ("writer content in lib.py"); moved content is not written, wherever it was held."""
    w = based
    lines = "".join(f"EXTRA_{i} = {i}\n" for i in range(6))  # unlike HEAD's: no rename found
    if edits in ("staged", "both"):
        w.write(PATH, BASE + HUMAN)
        w.ok("add", PATH)
    if edits in ("unstaged", "both"):
        w.write(PATH, (w.work / PATH).read_text() + lines)
    said = _bash(w, f"{move} {PATH} src/util.py")
    assert said.startswith("nothing recorded: "), said
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: rename")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
