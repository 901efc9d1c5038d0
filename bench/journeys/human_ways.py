"""Journeys of a person's own change blocked by a stale or ambiguous reading of the
writer's work: the writer's edit was recorded, then thrown away (``git reset --hard``), and
the person typed the same content again by hand (stale); or the person's own new file holds
two lines of the writer's pending file (ambiguous). Content decides (SPEC §3 "Attribution
follows content"), so the gate reads the change as the writer's; the block offers the
person its ``human:`` line (``gentle-hook discard``, recorded: SPEC §6), and the person
pastes that line only, literally, as printed (``Agent.human``): never the writer's
``run:`` steps.

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported (it
imports this module last); twinned under the pre-commit framework and prek
(:mod:`.framework_twins`). Each builds its world, proves its edge case from git, then lets
the person resolve every block only by the ``human:`` lines it printed.
"""

from __future__ import annotations

from pathlib import Path

from bench.journeys.catalog import Ctx, journey, passed, plain
from bench.journeys.sandbox import FixtureError, Step

#: The writer's edit that the person types again (``Sandbox.writer_edit``'s value).
VALUE = 7


def _retyped(ctx: Ctx) -> Path:
    """A clone where the writer's recorded edit was reset away and the person then typed
    the same bytes again, staged: proved from git (the reset left nothing, the retyped
    files differ from HEAD)."""
    w = plain(ctx)
    ctx.sb.writer_edit(w, VALUE)  # recorded, as the agent runtime's hook records it
    mine = {p: (w / p).read_text() for p in ("m.py", "test_m.py")}
    ctx.sb.git(w, "reset", "-q", "--hard")  # the writer's work thrown away
    ctx.sb.prove_empty(w, ["status", "--porcelain"], "the writer's edit reset away")
    for path, text in mine.items():  # the person's own hands, the same bytes
        ctx.sb.write(w / path, text)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "m.py", "the person's change staged")
    return w


def _as_person(ctx: Ctx, w: Path, action: str) -> Step:
    """``action`` run by the person: each block resolved only by its ``human:`` lines."""
    ctx.agent.human = True
    try:
        return ctx.agent.attempt(w, action)
    finally:
        ctx.agent.human = False


def _discarded_by_paste(ctx: Ctx, w: Path) -> None:
    """The block came, its ``human:`` discard line was what ran, and the person's commit
    carries no writer trailer and a note with the discard (who, why)."""
    pasted = [c for b in ctx.agent.blocks for c in b.printed]
    ctx.check(
        bool(pasted) and all(" discard --reason " in c for c in pasted),
        f"the person pasted the printed human: discard line: {pasted}",
    )
    body = ctx.sb.git(w, "log", "-1", "--format=%B").out
    ctx.check("Gentle-Writer" not in body, f"no writer trailer on the person's commit: {body!r}")
    note = ctx.sb.run(w, ["git", "notes", "--ref=gentle-hooks", "show", "HEAD"], "setup").out
    ctx.check('"hook":"discard"' in note, f"the commit's note records the discard: {note[:200]}")


@journey(
    "human-retyped-commit",
    "a person retypes writer work that was reset away: the commit's human: line, pasted",
    fast=True,
)
def _human_retyped_commit(ctx: Ctx) -> None:
    w = _retyped(ctx)
    step = _as_person(ctx, w, "git commit -q -m 'typed by me'")
    passed(ctx, step.exit, "the person's commit went through")
    if not ctx.agent.blocks:
        raise FixtureError("the commit was not blocked: no stale reading to resolve")
    _discarded_by_paste(ctx, w)
    pushed = _as_person(ctx, w, "git push -q")
    passed(ctx, pushed.exit, "the person's push went through")


@journey(
    "human-retyped-push",
    "a person retypes writer work that was reset away, commits with hooks off: the push's "
    "human: line, pasted",
)
def _human_retyped_push(ctx: Ctx) -> None:
    w = _retyped(ctx)
    # every hook off (the post-commit recorder too): the push gate is the first to judge it
    ctx.sb.git(w, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "typed, hooks off")
    ctx.sb.prove(w, ["status", "-sb"], "ahead 1", "the person's commit not pushed")
    step = _as_person(ctx, w, "git push -q")
    passed(ctx, step.exit, "the person's push went through")
    if not ctx.agent.blocks:
        raise FixtureError("the push was not blocked: no stale reading to resolve")
    pasted = [c for b in ctx.agent.blocks for c in b.printed]
    ctx.check(
        bool(pasted) and all(" discard --reason " in c for c in pasted),
        f"the person pasted the printed human: discard line: {pasted}",
    )
    head = ctx.sb.git(w, "rev-parse", "HEAD").out.strip()
    remote = ctx.sb.git(w, "ls-remote", "origin", "refs/heads/main").out.split()[:1]
    ctx.check(remote == [head], f"the remote's main is the person's commit: {remote} {head}")


#: The writer's new file, pending (tests/e2e/test_discard_own_file.py's fixture).
WORKER = (
    "import requests\n\n\ndef fetch(url, timeout=10):\n"
    "    response = requests.get(url, timeout=timeout)\n"
    "    response.raise_for_status()\n"
    "    return response.json()\n"
)
#: The person's own new file, holding two of the writer's lines among their own.
PING = (
    "import requests\n\n\ndef ping(url, timeout=5):\n"
    '    """Whether url answers."""\n'
    "    response = requests.get(url, timeout=timeout)\n"
    "    response.raise_for_status()\n"
    "    return response.status_code == 200\n"
)


@journey(
    "human-claims-writer-lines",
    "a person's own new file holds two lines of the writer's pending file: the commit's "
    "human: line (a claim of that content), pasted",
)
def _human_claims_writer_lines(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.write(w / "worker.py", WORKER)
    recorded = ctx.sb.sh(
        w,
        f"{ctx.gh} record worker.py",
        who="setup",
        env={"GENTLE_WRITER_MODEL": "claude-sonnet", "GENTLE_WRITER_EFFORT": "medium"},
    )
    if recorded.exit != 0:
        raise FixtureError(f"the writer's record failed: {recorded.out.strip()}")
    ctx.sb.write(w / "ping.py", PING)
    ctx.sb.git(w, "add", "ping.py")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "ping.py", "the person's file staged")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? worker.py", "the writer's file not in it")
    step = _as_person(ctx, w, "git commit -q -m 'ping, mine'")
    passed(ctx, step.exit, "the person's commit went through")
    if not ctx.agent.blocks:
        raise FixtureError("the commit was not blocked: no ambiguous reading to resolve")
    pasted = [c for b in ctx.agent.blocks for c in b.printed]
    ctx.check(
        bool(pasted)
        and all(
            c.endswith(" discard --reason 'a human change, not the writer work' -- ping.py")
            for c in pasted
        ),
        f"the person pasted the printed human: line naming ping.py: {pasted}",
    )
    body = ctx.sb.git(w, "log", "-1", "--format=%B").out
    ctx.check("Gentle-Writer" not in body, f"no writer trailer on the person's commit: {body!r}")
    # the writer's own file stays the writer's: committing it is blocked
    ctx.sb.git(w, "add", "worker.py")
    writer = ctx.sb.sh(w, "git commit -q -m 'the writer file'", who="setup")
    ctx.check(
        writer.exit == 1, f"the writer's worker.py is still judged the writer's: {writer.exit}"
    )
