"""A real git repository for ``quorum tally`` tests that read a candidate's tree (issue 18).

Its one commit holds ``workflow.js`` whose line 142 spawns agents in a loop with no budget
check: :data:`QUOTED` cites that line, so a tally reading the tree (``--tree``, a set's
``candidate``) can CONFIRM it, and the same quote at another line refutes.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit_all, git

CLAIM = "Subagents inherit no budget cap, so a fan-out can exceed the run budget"
LINE_142 = "for (const task of tasks) spawnAgent(task);"
QUOTED = "opened workflow.js:142: `spawnAgent(task)` in the loop, no budget check"


def workflow_repo(tmp_path: Path) -> Path:
    """``tmp_path/repo``: a new repository whose HEAD commit holds ``workflow.js`` (142
    lines, the last :data:`LINE_142`)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    lines = [f"// line {n}" for n in range(1, 142)] + [LINE_142]
    (repo / "workflow.js").write_text("\n".join(lines) + "\n", encoding="utf-8")
    commit_all(repo, "candidate")
    return repo
