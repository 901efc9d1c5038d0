"""``gentle-hook verify run``: a suite that fails because it needs a file of the work tree
that git ignores (a local ``localcfg.py``), which the clean room lacks, is blocked (row
C1-ignored) and says so in the words ``gate --reverify`` uses ("lacks the file …, which git
ignores"), never "the brief is at fault": no brief can fix it, and no option passes an
ignored file into the room; the way out it names (commit the file) works (issue 14,
refuter r14u MED 2). A suite failing for a module nobody has is still the brief's or the
change's (the row does not reach it).
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit_all, git, write
from tests.integration.test_verify import Env, make_env
from tests.integration.test_verify_suite_env import _last, _run

#: The base's test: it imports the user's local configuration module.
NEEDS_LOCAL = "import localcfg\n\n\ndef test_local():\n    assert localcfg.NAME == 'dev'\n"


def _with_local(repo: Path, tmp_path: Path, module: str) -> Env:
    write(repo / "tests" / "test_local.py", NEEDS_LOCAL.replace("localcfg", module))
    commit_all(repo, "tests need a local module")
    env = make_env(repo, tmp_path)
    write(repo / ".git" / "info" / "exclude", "localcfg.py\n")
    write(repo / "localcfg.py", "NAME = 'dev'\n")
    return env


def test_a_suite_needing_an_ignored_local_module_is_blocked_not_the_briefs(
    repo: Path, tmp_path: Path
) -> None:
    env = _with_local(repo, tmp_path, "localcfg")
    out = _run(env, "python3 -m pytest -q", {}, 1)
    status, _, result, row = _last(out)
    assert (status, result, row) == ("blocked", "blocked", "C1-ignored"), out["outcomes"]
    said = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert said.returncode == 1, said
    text = said.stdout + said.stderr
    assert "the room lacks the file localcfg.py, which git ignores" in text, text
    assert "no brief can fix it" in text and "git add -f -- localcfg.py" in text, text
    assert "brief is at fault" not in text and "correct the brief" not in text, text
    # the way out it names: the file committed, the same brief passes
    git(repo, "add", "-f", "--", "localcfg.py")
    passed = _run(env, "python3 -m pytest -q", {}, 0)
    assert passed["status"] == "pass", passed["outcomes"]


def test_a_suite_needing_a_module_nobody_has_is_not_that_row(repo: Path, tmp_path: Path) -> None:
    """The other way: ``nowhere`` is in no work tree; the suite fails on the base the same
    way, the brief's fault (C5-base), as before."""
    env = _with_local(repo, tmp_path, "nowhere")
    out = _run(env, "python3 -m pytest -q", {}, 1)
    assert _last(out)[3] == "C5-base", out["outcomes"]
