"""What Claude Code's ``Bash`` tool writes is the writer's: its ``PreToolUse`` input keeps
the work tree as it was before the command, its ``PostToolUse`` input records every path
the command changed since, each measured from where it was (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md).

Real git, ``gentle-hook install``, a real shell command run between the two hook inputs
(Claude Code's documented shapes: code.claude.com/docs/en/hooks, "PreToolUse input" with
``tool_name`` ``Bash`` and ``tool_input.command``, "PostToolUse input" with the same
``tool_use_id`` and the tool's ``tool_response``, ``stdout``/``stderr``/``interrupted``):

* a heredoc that creates a file and a ``sed -i`` that edits one, committed by the person
  outside the session: blocked, as an ``Edit``'s would be;
* a person's unsaved lines in a file the command did not touch, or in the one it did once
  its change is reverted: the person's, they commit;
* a command that changes nothing (one that only moves ``HEAD``: ``git reset --soft``, a
  mixed ``git reset``), and a ``PostToolUse`` with no snapshot before it: nothing recorded,
  and the line says why; the person's work committed again passes.
"""

from __future__ import annotations

import pytest

from tests.e2e.claude_bash import bash_call, bash_input
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
HUMAN = (
    "\n\ndef human_special_formatter(report_rows):\n"
    "    return format_rows_for_display(report_rows)\n"
)
PATH = "src/calc.py"
OTHER = "src/other.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
HEREDOC = (
    "cat > src/gen.py <<'EOF'\n"
    "def generated_discount_table(region_rows):\n"
    "    return build_regional_discounts(region_rows)\n"
    "EOF"
)
ORIGIN = "refs/remotes/origin/main"
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"


def _input(w: World, event: str, command: str, call: str = "toolu_b1") -> bytes:
    return bash_input(event, command, w.work, call)


def _bash(w: World, command: str, *, before: bool = True, call: str = "toolu_b1") -> str:
    """Claude Code's Bash call ``call`` of ``command``: its PreToolUse hook (unless not
    ``before``), the command run in the work tree, its PostToolUse hook; what the recorder
    said last."""
    return bash_call(w, command, call, MODEL, before=before)


@pytest.fixture
def based(native: World) -> World:
    """``native`` with :data:`PATH` and :data:`OTHER` committed by a human."""
    native.write(PATH, BASE)
    native.write(OTHER, "OTHER = 2\n")
    native.ok("add", "--", PATH, OTHER)
    native.ok("commit", "-qm", "human: base")
    return native


@pytest.mark.parametrize("command", [HEREDOC, SED], ids=["heredoc", "sed-i"])
def test_what_a_bash_command_wrote_blocks_a_commit_outside_the_session(
    based: World, command: str
) -> None:
    w = based
    said = _bash(w, command)
    assert "recorded: pending mutation #1" in said, said
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_lines_in_a_file_the_command_did_not_touch_stay_theirs(based: World) -> None:
    w = based
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the person's own lines, unsaved
    said = _bash(w, SED)
    assert "recorded: pending mutation #1" in said, said
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    r = w.git("commit", "-qam", "human: the rest")  # the command's edit still blocks
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_lines_in_the_file_the_command_edited_are_its_start(based: World) -> None:
    """The person's unsaved lines were in the file before ``sed -i`` ran: with its change
    reverted, they commit (measured from HEAD they would block)."""
    w = based
    w.write(PATH, BASE + HUMAN)
    said = _bash(w, SED)
    assert "recorded: pending mutation #1" in said, said
    w.write(PATH, BASE + HUMAN)  # the person reverts the command's change
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r


def test_a_command_that_changes_nothing_records_nothing(based: World) -> None:
    w = based
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    said = _bash(w, "cat src/calc.py >/dev/null")
    assert said.startswith("nothing recorded: the Bash call of Claude Code changed no file in ")
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r


@pytest.mark.parametrize("reset", ["--soft", "--mixed"])
def test_a_command_that_only_moves_head_records_nothing(based: World, reset: str) -> None:
    """An agent's ``git reset --soft HEAD~1`` changes no file: the person's commit it undid
    is not the writer's, and committed again it passes with no trailer."""
    w = based
    w.write(PATH, BASE + HUMAN)
    w.ok("commit", "-qam", "human: formatter")
    said = _bash(w, f"git reset -q {reset} HEAD~1")
    assert said.startswith("nothing recorded: the Bash call of Claude Code changed no file in ")
    r = w.git("commit", "-qam", "human: formatter again")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_a_command_editing_after_moving_head_measures_from_where_head_was(
    based: World,
) -> None:
    """``git reset --soft HEAD~1 && sed -i ...``: the person's lines the reset left staged
    are the edit's start, so only the command's own line blocks; reverted, they commit."""
    w = based
    w.write(PATH, BASE + HUMAN)
    w.ok("commit", "-qam", "human: formatter")
    said = _bash(w, f"git reset -q --soft HEAD~1 && {SED}")
    assert "recorded: pending mutation #1" in said, said
    r = w.git("commit", "-qam", "human: both")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    w.write(PATH, BASE + HUMAN)  # the command's edit reverted: the person's lines remain
    r = w.git("commit", "-qam", "human: formatter again")
    assert r.code == 0, r


def test_without_a_snapshot_before_it_a_bash_call_records_nothing(based: World) -> None:
    w = based
    said = _bash(w, SED, before=False)
    assert said.startswith(
        "nothing recorded: the Bash call of Claude Code ran a shell command: its input names "
        "no file it changed, and no snapshot of the work tree from before it was kept"
    ), said
    assert not list((w.work / ".git" / "gentle-hooks").glob("shell/*.json"))


@pytest.mark.parametrize(
    "command",
    [
        f"git checkout -q feature -- {PATH}",
        f"git restore --source=feature {PATH}",
        "git cherry-pick -n feature",
        "git stash pop -q",
    ],
    ids=["checkout", "restore", "cherry-pick-n", "stash-pop"],
)
def test_content_a_person_committed_or_stashed_that_a_command_restores_is_theirs(
    based: World, command: str
) -> None:
    """An agent's ``git checkout feature -- f`` (``restore --source``, ``cherry-pick -n``,
    ``stash pop``) brings back what a person committed or stashed before the call: not the
    writer's, so the person's commit of it passes with no trailer."""
    w = based
    w.ok("checkout", "-qb", "feature")
    w.write(PATH, BASE + HUMAN)
    w.ok("commit", "-qam", "human: formatter")
    w.ok("checkout", "-q", "-")
    if "stash" in command:
        w.write(PATH, BASE + HUMAN)
        w.ok("stash", "-q")
    said = _bash(w, command)
    assert said.startswith("nothing recorded: the Bash call of Claude Code changed no file"), said
    assert "(src/calc.py) now hold what a branch, tag or stash entry, or another path" in said
    r = w.git("commit", "-qam", "human: formatter here too")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize(
    ("command", "then"),
    [
        (f"{SED} && git commit -qam fix --no-verify", ()),
        (
            f"git checkout -qb w && {SED} && git commit --no-verify -qam w && git checkout -q -",
            (("merge", "-q", "w"),),
        ),
        (f"{SED} && git commit -qam fix --no-verify && git update-ref {ORIGIN} HEAD", ()),
        (f"{SED} && git commit -qam fix --no-verify && git fetch -q . HEAD:{ORIGIN}", ()),
    ],
    ids=["commit", "branch-and-back", "update-ref-origin", "fetch-dot-origin"],
)
def test_what_a_bash_command_wrote_and_committed_blocks_the_push(
    based: World, command: str, then: tuple[tuple[str, ...], ...]
) -> None:
    """Refuter r17n HIGH a, c: the command commits what it wrote (on the branch, or on
    another and back, merged by the person): the work tree is as it was, yet the push is
    blocked, the writer's content being in the commit. Refuter r13l HIGH: the same call
    moving ``origin/main`` onto its commit (``update-ref``, ``fetch .``) hides nothing."""
    w = based
    said = _bash(w, command)
    assert "recorded: pending mutation #1" in said and "in commits it made" in said, said
    for args in then:
        w.ok(*args)
    r = w.git("push", "-q", "origin", "main")
    assert r.code != 0 and any("BLOCKED commit" in line for line in r.said), r


def test_what_a_bash_command_wrote_and_stashed_blocks_the_persons_commit(based: World) -> None:
    """Refuter r17n HIGH b: ``sed -i f && git stash``; the person pops it and commits."""
    w = based
    said = _bash(w, f"{SED} && git stash -q")
    assert "recorded: pending mutation #1" in said, said
    w.ok("stash", "pop", "-q")
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_work_an_agent_stashes_and_pops_later_stays_theirs(based: World) -> None:
    """Refuter r17n HIGH 4: ``git stash`` (one call), a test run (another), ``git stash
    pop`` (a third): the person's lines are theirs, their commit passes with no trailer."""
    w = based
    w.write(PATH, BASE + HUMAN)
    _bash(w, "git stash -q", call="toolu_1")
    _bash(w, "true", call="toolu_2")
    said = _bash(w, "git stash pop -q", call="toolu_3")
    assert said.startswith("nothing recorded: the Bash call of Claude Code changed no file"), said
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
