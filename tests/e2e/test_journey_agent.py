"""Negative controls of the journey bench's scripted agent (bench/journeys/agent.py): a
block it cannot resolve by its printed commands is a dead end, never in band.

Each action is a shell line that prints a block (the gates' shape) and fails until a
marker file exists; no git runs.
"""

from __future__ import annotations

from pathlib import Path

from bench.journeys.agent import Agent, ByDesign, signature
from bench.journeys.sandbox import Sandbox


def _agent(tmp_path: Path) -> tuple[Agent, Path]:
    sb = Sandbox(tmp_path / "sb")
    work = tmp_path / "sb" / "work"
    work.mkdir()
    return Agent(sb, "true"), work


def _block(*lines: str, done: str = "done") -> str:
    """An action: passes when ``done`` exists, else prints ``lines`` and exits 1."""
    said = "; ".join(f"echo {line!r} >&2" for line in lines)
    return f"test -e {done} || {{ {said}; exit 1; }}"


BLOCKED = "gentle-hooks: BLOCKED the staged change: delegated (x)"
HEADLINE = "gentle-hooks:   missing a passing re-run of the writer's test on this exact change"


def test_a_printed_command_that_resolves_the_block_is_in_band(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path)
    step = agent.attempt(work, _block(BLOCKED, HEADLINE, "gentle-hooks:   run: touch done"))
    assert step.exit == 0
    assert [b.cls for b in agent.blocks] == ["in_band"]


def test_a_failing_printed_command_is_a_dead_end(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path)
    step = agent.attempt(work, _block(BLOCKED, HEADLINE, "gentle-hooks:   run: false"))
    assert step.exit == 1
    assert [b.cls for b in agent.blocks] == ["dead_end"], agent.blocks


def test_a_block_that_prints_nothing_to_run_is_a_dead_end(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path)
    agent.attempt(work, _block(BLOCKED, HEADLINE, "gentle-hooks:   fix it somehow"))
    assert [(b.cls, b.why) for b in agent.blocks] == [("dead_end", "nothing to run was printed")]


def test_commands_that_leave_the_same_block_are_a_dead_end(tmp_path: Path) -> None:
    # the command succeeds and even changes the block's other words, but the same
    # candidate misses the same thing: no progress
    agent, work = _agent(tmp_path)
    action = _block(
        BLOCKED, HEADLINE, "gentle-hooks:   run: touch $(date +%N)", "note: $(date +%N)"
    )
    agent.attempt(work, action)
    assert [b.cls for b in agent.blocks] == ["dead_end"], agent.blocks


def test_a_loop_between_two_blocks_is_a_dead_end(tmp_path: Path) -> None:
    # way A leads to block B, whose way leads back to A: the same commands printed again
    agent, work = _agent(tmp_path)
    a = "gentle-hooks:   missing the record of its verification"
    b = "gentle-hooks:   missing a separate verifier run"
    action = (
        f"if test -e b; then echo {BLOCKED!r} {b!r} 'gentle-hooks:   run: rm b' >&2; "
        f"else echo {BLOCKED!r} {a!r} 'gentle-hooks:   run: touch b' >&2; fi; exit 1"
    )
    agent.attempt(work, action.replace("' '", "'; echo '"))
    assert agent.blocks[-1].cls == "dead_end", agent.blocks
    assert "loop" in agent.blocks[-1].why


def test_a_documented_refusal_runs_its_printed_way_first(tmp_path: Path) -> None:
    # the refusal is by design only when its printed command did not resolve it
    agent, work = _agent(tmp_path)
    doc = ByDesign("reported exit", "README.md", "documented")
    agent.attempt(
        work,
        _block(BLOCKED, HEADLINE, "reported exit 1", "gentle-hooks:   run: touch done"),
        by_design=doc,
    )
    assert [b.cls for b in agent.blocks] == ["in_band"]
    agent2, work2 = _agent(tmp_path / "2")
    agent2.attempt(
        work2,
        _block(BLOCKED, HEADLINE, "reported exit 1", "gentle-hooks:   run: false"),
        by_design=doc,
    )
    assert [b.cls for b in agent2.blocks] == ["by_design"]
    assert "its printed ways ran" in agent2.blocks[0].why


def test_the_signature_ignores_record_ids_and_notes() -> None:
    one = f"{BLOCKED}\n{HEADLINE}\ngentle-hooks:   missing: receipt #1 failed\nnote: a"
    two = f"{BLOCKED}\n{HEADLINE}\ngentle-hooks:   missing: receipt #2 failed\nnote: b"
    assert (
        signature(one) == signature(two) == (BLOCKED.split(": ", 1)[1], HEADLINE.split(":   ")[1])
    )


def test_a_failed_command_s_printed_or_alternative_is_run_next(tmp_path: Path) -> None:
    # the run: line fails (a CLI not on PATH); the or: line below it is the same with git
    # alone, printed by the block: in band when it works
    agent, work = _agent(tmp_path)
    action = _block(
        BLOCKED, HEADLINE, "gentle-hooks:   run: no-such-cli sync", "gentle-hooks:   or: touch done"
    )
    step = agent.attempt(work, action)
    assert step.exit == 0
    assert [b.cls for b in agent.blocks] == ["in_band"], agent.blocks


def test_an_or_alternative_that_fails_too_is_a_dead_end(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path)
    action = _block(BLOCKED, HEADLINE, "gentle-hooks:   run: false", "gentle-hooks:   or: false")
    agent.attempt(work, action)
    assert [b.cls for b in agent.blocks] == ["dead_end"], agent.blocks
    ran = [s.argv[-1] for s in agent.sb.steps if s.who == "agent"]
    assert ran == ["false", "false"], ran


def test_an_or_line_under_a_prefix_is_completed_as_a_prefix(tmp_path: Path) -> None:
    # a CI block's prefix for the writer's report, and its or: line (the framework's copy
    # of the CLI, where gentle-hook is not on PATH): both end where the test command goes
    agent, work = _agent(tmp_path)
    action = _block(
        BLOCKED,
        HEADLINE,
        "gentle-hooks:   prefix: no-such-cli receipt run --",
        "gentle-hooks:   or: touch done &&",
    )
    step = agent.attempt(work, action)
    assert step.exit == 0
    assert [b.cls for b in agent.blocks] == ["in_band"], agent.blocks
    assert "touch done && true" in [" ".join(s.argv[2:]) for s in agent.sb.steps]


def test_a_printed_line_that_sets_path_holds_for_every_way_of_its_block(tmp_path: Path) -> None:
    # a CI block's line that puts the framework's copy on PATH, printed once before the
    # commands: the agent runs each way's commands in one shell after it, the second way's
    # too; a tool only that PATH finds then runs
    agent, work = _agent(tmp_path)
    (work / "bin").mkdir()
    tool = work / "bin" / "only-here"
    tool.write_text("#!/bin/sh\ntouch done\n")
    tool.chmod(0o755)
    action = _block(
        BLOCKED,
        HEADLINE,
        'gentle-hooks:   run: PATH="$PWD/bin:$PATH"',
        "gentle-hooks:   run: false",
        "gentle-hooks:   otherwise, another way:",
        "gentle-hooks:   run: only-here",
    )
    step = agent.attempt(work, action)
    assert step.exit == 0
    assert [b.cls for b in agent.blocks] == ["in_band"], agent.blocks
    ran = [s.argv[-1] for s in agent.sb.steps if s.who == "agent"]
    set_path = 'PATH="$PWD/bin:$PATH"'
    assert ran == [set_path, f"{set_path}\nfalse", set_path, f"{set_path}\nonly-here"], ran


def test_a_printed_override_that_runs_the_action_itself_completes_it() -> None:
    from bench.journeys.agent import runs_action

    action = "git commit -q -m 'writer change'"
    skip = "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)'"
    assert runs_action(f"{skip} git commit -q -m 'writer change'", action)
    assert runs_action(f'A=1 {skip} git commit -q -m "writer change"', action)
    assert not runs_action(f"{skip} git commit -q -m other", action)
    assert not runs_action("git commit -q -m 'writer change'", action)  # no override: a retry
    assert not runs_action(f"{skip} gentle-hook spot-check", action)


HUMAN = "gentle-hooks:   human: touch done"


def test_a_writer_never_runs_a_human_line_and_a_person_runs_only_those(tmp_path: Path) -> None:
    # the human: line is a person's way out of a block of their own change: the writer's
    # agent leaves it (a dead end when the block prints nothing else), the person runs it
    agent, work = _agent(tmp_path)
    agent.attempt(work, _block(BLOCKED, HEADLINE, HUMAN))
    assert [(b.cls, b.why) for b in agent.blocks] == [("dead_end", "nothing to run was printed")]
    person = Agent(agent.sb, "true", human=True)
    step = person.attempt(work, _block(BLOCKED, HEADLINE, "gentle-hooks:   run: false", HUMAN))
    assert step.exit == 0
    assert [(b.cls, b.printed) for b in person.blocks] == [("in_band", ["touch done"])]


def test_a_printed_word_ending_in_a_newline_is_pasted_with_the_lines_it_spans(
    tmp_path: Path,
) -> None:
    # the printed command spans two lines inside single quotes (policy.shellwords.quote):
    # pasted whole, it is one command and makes the file whose name ends in a newline
    agent, work = _agent(tmp_path)
    action = (
        "test -e 'done\n' || { printf '%s\\n' "
        + " ".join(
            "'" + line.replace("'", "'\"'\"'") + "'"
            for line in (BLOCKED, HEADLINE, "gentle-hooks:   run: touch 'done", "' && true")
        )
        + " >&2; exit 1; }"
    )
    step = agent.attempt(work, action)
    assert step.exit == 0, step.out
    assert [(b.cls, b.printed) for b in agent.blocks] == [("in_band", ["touch 'done\n' && true"])]
    assert (work / "done\n").exists()
