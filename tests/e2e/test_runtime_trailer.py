"""A commit an agent runtime makes (detected in the hook's environment only: no writer
recorded) carries a ``Gentle-Writer`` trailer naming the runtime, under the native hooks
and the pre-commit framework alike: a fresh clone's ``gate --range``, with no note fetched,
judges it delegated (it said "not delegated": only this clone's hook had seen the agent),
and post-commit records it with a note, so sharing the notes lets the range through."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import pytest

from tests.e2e.conftest import CHECK, World

V2 = "def add(a, b):\n    return a + b  # v2\n"
AGENT = {"CLAUDECODE": "1"}
TRAILER = "Gentle-Writer: claude-code (agent runtime)"


def test_an_agent_runtime_commit_carries_its_trailer_to_the_range_gate(world: World) -> None:
    w = world
    if w.installer == "pre-commit":  # the README's line installs the trailer's stage too
        added = w.run([sys.executable, "-m", "pre_commit", "install", "-t", "prepare-commit-msg"])
        assert added.code == 0, added
    w.write("src/app.py", V2)
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *CHECK, env=AGENT).code == 0
    assert w.gh("spot-check", "--staged", env=AGENT).code == 0
    made = w.git("commit", "-q", "-m", "agent change", env=AGENT)
    assert made.code == 0, made
    assert TRAILER in w.ok("log", "-1", "--format=%(trailers)").splitlines()
    assert w.ok("notes", "--ref=gentle-hooks", "list", "HEAD").strip(), "post-commit noted it"
    # the notes stay behind: a push that skips the hooks does not share them
    w.ok("push", "-q", "--no-verify", "origin", "main")
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    judged = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert judged.code == 1, judged
    assert "delegated (gentle-hooks (message marker" in judged.out, judged
    assert "no gentle-hooks note reached here" in judged.out, judged
    assert w.gh("sync", "push").code == 0
    w.ok("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks", cwd=ci)
    again = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert again.code == 0, again
    # a human's commit, no agent in its environment, gets no trailer
    w.write("README.md", "# demo, by a human\n")
    w.ok("commit", "-qam", "human")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def _pi_path(w: World) -> dict[str, str]:
    # Pi prepends its tool directory to the PATH of the commands it runs (unjs/std-env
    # src/agents.ts @ 09d5e780)
    return {"PATH": f"{w.base}/home/.pi/agent/bin:{os.environ['PATH']}"}


@pytest.mark.parametrize(
    ("env", "trailer"),
    [
        (_pi_path, "Gentle-Writer: pi (agent runtime)"),
        (lambda w: {"AI_AGENT": "Devin@1"}, "Gentle-Writer: devin@1 (agent runtime)"),
        (lambda w: {"PATH": f"{w.base}/home/.pi/agent:{os.environ['PATH']}"}, None),
        (lambda w: {"AI_AGENT": ""}, None),
        # a doubled slash names the same directory (POSIX path resolution)
        (
            lambda w: {"PATH": f"{w.base}/home/.pi/agent//bin:{os.environ['PATH']}"},
            "Gentle-Writer: pi (agent runtime)",
        ),
        # the AI_AGENT standard's value is the tool's name (vercel/vercel
        # packages/detect-agent README "The AI_AGENT Standard"; src/index.ts trims it and
        # takes an empty name for none): blank, or a word that says no, names no agent
        (lambda w: {"AI_AGENT": "  "}, None),
        (lambda w: {"AI_AGENT": "0"}, None),
        (lambda w: {"AI_AGENT": "false"}, None),
        (lambda w: {"AI_AGENT": "FALSE"}, None),
        # a word for nobody or a person is no tool's name; a runtime's flag set off is off
        (lambda w: {"AI_AGENT": "none"}, None),
        (lambda w: {"AI_AGENT": "human"}, None),
        (lambda w: {"CURSOR_AGENT": "0"}, None),
        (lambda w: {"CURSOR_AGENT": "1"}, "Gentle-Writer: cursor (agent runtime)"),
    ],
    ids=[
        "pi-path",
        "ai-agent",
        "person-near-pi",
        "ai-agent-empty",
        "pi-path-double-slash",
        "ai-agent-blank",
        "ai-agent-0",
        "ai-agent-false",
        "ai-agent-FALSE",
        "ai-agent-none",
        "ai-agent-human",
        "cursor-agent-0",
        "cursor-agent-1",
    ],
)
def test_a_commit_made_in_pi_or_a_declared_agent_carries_its_trailer(
    native: World, env: Callable[[World], dict[str, str]], trailer: str | None
) -> None:
    w, e = native, env(native)
    w.write("src/app.py", V2)
    w.ok("add", "-A")
    if trailer is not None:  # an agent's commit is delegated: its plan is met first
        assert w.gh("receipt", "run", "--staged", "--", *CHECK, env=e).code == 0
        assert w.gh("spot-check", "--staged", env=e).code == 0
    made = w.git("commit", "-qm", "change", env=e)
    assert made.code == 0, made
    trailers = w.ok("log", "-1", "--format=%(trailers)").splitlines()
    if trailer is None:
        assert not [t for t in trailers if t.startswith("Gentle-Writer")], trailers
    else:
        assert trailer in trailers, trailers


@pytest.mark.parametrize(
    ("env", "agent"), [({"CLAUDECODE": "1"}, "claude-code"), ({"OPENCODE": "1"}, "opencode")]
)
def test_an_agents_no_verify_commit_in_a_clone_with_no_ledger_carries_its_trailer(
    native: World, env: dict[str, str], agent: str
) -> None:
    """No ledger yet (nothing was ever recorded in this clone): prepare-commit-msg still
    runs under ``--no-verify`` and must add the runtime's trailer, so a person's push of
    the commit is judged delegated."""
    w = native
    assert not (w.work / ".git" / "gentle-hooks" / "ledger.sqlite3").exists()
    w.write("src/app.py", V2)
    made = w.git("commit", "-q", "--no-verify", "-am", "agent change", env=env)
    assert made.code == 0, made
    trailers = w.ok("log", "-1", "--format=%(trailers)").splitlines()
    assert f"Gentle-Writer: {agent} (agent runtime)" in trailers, trailers
    pushed = w.git("push", "-q", "origin", "main")  # the person's push, no agent around
    assert pushed.code == 1 and f"BLOCKED commit {w.rev('HEAD')[:12]}" in pushed.err, pushed
