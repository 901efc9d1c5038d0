"""``gentle-hook verify prepare|run``: a check that reaches outside the clean room is
refused before anything runs (brief rule B4; seed 001 "Contract": the verifier gets the
artifact, the criteria and the read-only tools; SPEC §9 "the candidate's exact tree").

Refuter r18x F1: a full suite ``cd <the writer's work tree> && pytest`` (or ``pytest
<work tree>``) ran the writer's copy, passed, and its verdict was accepted by the gate.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git, write
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    return make_env(repo, tmp_path)


def _cases(repo: Path) -> list[tuple[dict[str, Any], str]]:
    return [
        ({"fullSuite": f"cd {repo} && python3 -m pytest -q tests"}, f"({repo})"),
        ({"fullSuite": f"python3 -m pytest -q {repo}/tests"}, f"({repo}/tests)"),
        ({"fullSuite": ["python3", "-m", "pytest", f"--rootdir={repo}"]}, f"(--rootdir={repo})"),
        ({"fullSuite": "cd ~ && python3 -m pytest -q"}, "(~)"),
        ({"fullSuite": "cd ../../.. && python3 -m pytest -q"}, "(../../..)"),
        ({"env": {"PYTHONPATH": f"{repo}/src"}}, f"({repo}/src)"),
    ]


@pytest.mark.parametrize("n", range(6), ids=["cd-abs", "arg-abs", "opt-abs", "home", "up", "env"])
def test_a_check_that_reaches_outside_the_room_is_refused(env: Env, n: int) -> None:
    """F1: nothing runs, no room is made, no verdict is written; the one-line reason names
    the word, and ``brief check`` rejects the same brief."""
    change, word = _cases(env.repo)[n]
    env.brief({**BRIEF, **change})
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path))
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith(f"{env.brief_path}: brief rejected: B4 "), lines[0]
        assert word in lines[0] and "name paths relative to it" in lines[0]
    checked = env.gh("brief", "check", str(env.brief_path))
    assert checked.returncode == 1 and "B4 " in checked.stderr, checked.stderr
    assert env.rooms() == []
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_a_flags_check_that_reaches_outside_the_room_is_refused(env: Env) -> None:
    """F1 through ``--suite``: refused as the brief's own suite would be."""
    suite = f"cd {env.repo} && python3 -m pytest -q tests"
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--suite", suite)
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    assert proc.stderr.startswith(f"gentle-hook: check refused: --suite `{suite}` names an ")
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_paths_in_the_room_and_the_systems_directories_are_allowed(env: Env) -> None:
    """``../base`` is the room's own (the same path on every run), ``/usr/bin/env`` and
    ``/dev/null`` the system's: such a brief still runs."""
    env.brief(
        {
            **BRIEF,
            "fullSuite": "/usr/bin/env python3 -m pytest -q tests 2>/dev/null",
            "env": {"PYTHONPATH": "src", "PATH": "/usr/local/bin:/usr/bin:/bin"},
        }
    )
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr


def test_a_briefs_path_into_the_work_tree_is_refused(env: Env) -> None:
    """F2: ``env {"PATH": "<repo>/bin:/usr/bin:/bin"}`` with an unstaged ``<repo>/bin/pytest``
    that prints "2 passed" ran that script as the suite; now the brief is rejected."""
    write(env.repo / "bin" / "pytest", 'echo "2 passed in 0.01s"; exit 0\n')
    (env.repo / "bin" / "pytest").chmod(0o755)
    env.brief({**BRIEF, "env": {"PATH": f"{env.repo}/bin:/usr/bin:/bin"}})
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    assert f"B4 env PATH names an absolute path ({env.repo}/bin)" in proc.stderr
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_an_entry_behind_a_symlink_into_the_repository_points_into_it(
    repo: Path, tmp_path: Path
) -> None:
    """F2: what rule B4 cannot see from the words (a link to the work tree, a linked
    worktree) is refused when the run knows where the copies are."""
    from gentle_hooks.services.room_env import pointing_in

    link = tmp_path / "innocent"
    link.symlink_to(repo / "src")
    found = pointing_in(
        {"PYTHONPATH": f"src:{link}", "PATH": "/usr/bin:/bin", "LANG": "C"}, str(repo)
    )
    assert found == [("PYTHONPATH", str(link))]


def test_the_callers_path_into_a_linked_worktree_does_not_reach_the_room(env: Env) -> None:
    """F2: a ``pytest`` in another worktree of the repository, first on the caller's PATH,
    is not what the room runs (the room keeps PATH's other entries), and the run names the
    entry it left out (F5)."""
    other = env.tmp.parent / "other-wt"
    git(env.repo, "worktree", "add", "-q", "--detach", str(other))
    write(other / "bin" / "pytest", 'echo "7 passed in 0.01s"; exit 0\n')
    (other / "bin" / "pytest").chmod(0o755)
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    path = f"{other}/bin:{Path(sys.executable).parent}:{os.environ['PATH']}"
    # no --allow-shared-programs: this interpreter's pytest is in its own virtualenv, trusted
    # wherever the clone is (under /tmp too)
    args = ("verify", "run", "--brief", str(env.brief_path))
    out = env.json(*args, env={"PATH": path})
    suite = out["verdict"]["criteria"][-1]
    assert "1 test(s) ran" in suite["evidence"], suite["evidence"]
    assert f"{other}/bin" not in json.dumps(out["verdict"])  # no check ran with it
    assert f"PATH: {other}/bin left out of the room" in json.dumps(out)  # and the run says so


def test_the_verdict_records_a_digest_of_the_values_each_check_was_given(env: Env) -> None:
    """F2: not only the names: another brief ``env`` value gives another ``envDigest``."""
    one = env.json("verify", "run", "--brief", str(env.brief_path))
    env.brief({**BRIEF, "env": {"PYTHONPATH": "src:."}})
    two = env.json("verify", "run", "--brief", str(env.brief_path))
    digests = [v["verdict"]["criteria"][0]["observed"]["envDigest"] for v in (one, two)]
    assert all(d.startswith("sha256:") and len(d) == 71 for d in digests)
    assert digests[0] != digests[1]


def test_a_path_entry_left_out_of_the_room_is_named(env: Env) -> None:
    """F5: the README's quickstart puts ``.venv`` in the repository; first on PATH, the room
    leaves it out (its tools, an editable install, run the writer's copy) and the suite's
    tool is then missing: the run says which entry was left out and what to do."""
    venv_bin = env.repo / ".venv" / "bin"
    write(venv_bin / "pytest", f'exec {sys.executable} -m pytest "$@"\n')
    (venv_bin / "pytest").chmod(0o755)
    write(env.repo / ".gitignore", "__pycache__/\n.pytest_cache/\n.secrets\n.venv/\n")
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    proc = env.gh(
        "verify", "run", "--brief", str(env.brief_path), env={"PATH": f"{venv_bin}:/usr/bin:/bin"}
    )
    assert proc.returncode == 1, proc.stderr
    assert "the tool it needs is missing" in proc.stdout, proc.stdout
    assert f"note: PATH: {venv_bin} left out of the room: it is in your repository" in proc.stdout
    assert "install the tools outside the repository" in proc.stdout


def test_a_brief_env_that_loads_code_is_refused(env: Env) -> None:
    """Rule B5: ``PYTEST_PLUGINS=plug`` would load the candidate's ``plug.py`` into the
    suite; nothing runs, one line names the variable."""
    (env.repo / "plug.py").write_text("")
    env.brief({**BRIEF, "env": {"PYTHONPATH": "src", "PYTEST_PLUGINS": "plug"}})
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path))
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith(f"{env.brief_path}: brief rejected: B5 env PYTEST_PLUGINS")
    assert env.rooms() == []


@pytest.mark.parametrize("target", ["outside", "../..", "inner/../.."])
def test_a_symlink_out_of_the_tree_is_refused(env: Env, tmp_path: Path, target: str) -> None:
    """The candidate's ``ext -> /outside`` made ``pytest -q ext`` (a top-level directory:
    the full suite) run a passing suite outside the room. No room is made; one line names
    the link. ``inner/../..`` climbs through ``inner -> .``, which lexical reading misses."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "test_ok.py").write_text("def test_ok():\n    pass\n")
    (env.repo / "inner").symlink_to(".")
    (env.repo / "ext").symlink_to(outside if target == "outside" else target)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q ext"})
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "symbolic link ext -> " in lines[0], proc.stderr
    assert "leads outside its tree" in lines[0]
    assert env.rooms() == []


def test_a_symlink_inside_the_tree_is_kept(env: Env) -> None:
    """A link that stays in the tree is the candidate's own: the room is made."""
    (env.repo / "docs").symlink_to("src")
    out = env.json("verify", "prepare", "--brief", str(env.brief_path))
    assert out["room"], out


#: r18p open item 3: a negative test (the one kind of check the one-shape rule L-subst lets
#: hold a command substitution) whose path a command substitution builds, through printf
#: escapes the word reader cannot see through: one line names the word, nothing runs.
SUBST_CHECK = r"test -e $(printf %b '\0057tmp\0057x')"


def _negative(run: str) -> dict[str, Any]:
    return {**BRIEF, "negativeTests": [{"criterion": "the old file is gone", "run": run}]}


def test_a_path_built_by_command_substitution_is_refused(env: Env) -> None:
    env.brief(_negative(SUBST_CHECK))
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path))
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith(
            f"{env.brief_path}: brief rejected: B4 negative test 'the old file is gone' builds "
            "a path from a command's output, known only when it runs (write the path out, or "
            r"compare the output with test) ($(printf %b '\0057tmp\0057x'))"
        ), lines[0]
    checked = env.gh("brief", "check", str(env.brief_path))
    assert checked.returncode == 1 and len(checked.stderr.splitlines()) == 1, checked.stderr
    assert env.rooms() == []
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_a_command_output_compared_by_test_is_read_as_written(env: Env) -> None:
    """Comparing a program's output, the ordinary use of a substitution, still runs."""
    env.brief(_negative("test \"$(python3 -c 'import app; print(app.add(2, 3))')\" = -1"))
    proc = env.gh("brief", "check", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr


#: (what the brief changes, verify prepare's exit code, how its one stderr line starts).
EXIT_ROWS = [
    ({"fullSuite": "python3 -m pytest -q $(printf tests)"}, 1, "brief rejected: B4 "),
    ({"fullSuite": "PYTEST_ADDOPTS=--co python3 -m pytest -q tests"}, 1, "brief rejected: B5 "),
    (
        {"fullSuite": "env -vSPYTEST_ADDOPTS=--co python3 -m pytest -q tests"},
        1,
        "brief rejected: B5 ",
    ),
    ({"boundaries": []}, 1, "brief rejected: B1 "),
    ({"objective": 3}, 2, None),
]


@pytest.mark.parametrize(
    ("change", "code", "said"), EXIT_ROWS, ids=["R-subst", "B5", "B5-env-vS", "B1", "no-brief"]
)
def test_a_brief_its_rules_refuse_exits_1_a_file_that_is_no_brief_2(
    env: Env, change: dict[str, Any], code: int, said: str | None
) -> None:
    """Issue 18, task h18e item 5 (SPEC §7; docs/spec-notes §7): a well-formed brief the
    rules B1-B5 refuse (``R-subst`` among B4's rows) is a decision, exit 1; a file that is
    no DelegationBrief is bad input, exit 2. One line either way, nothing runs."""
    env.brief({**BRIEF, **change})
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    lines = proc.stderr.splitlines()
    assert (proc.returncode, proc.stdout, len(lines)) == (code, "", 1), proc.stderr
    if said is not None:
        assert lines[0].startswith(f"{env.brief_path}: {said}"), lines[0]
    assert env.rooms() == []


def test_a_check_that_only_mentions_a_loading_variable_runs(env: Env) -> None:
    """Issue 18, task h18e item 1: rule B5 judges what runs. A criterion that greps for
    ``PYTEST_ADDOPTS=`` or prints it sets nothing: the room is made."""
    criteria = [
        {"criterion": "names it", "run": "grep -rq 'PYTEST_ADDOPTS=' src"},
        {
            "criterion": "reads it",
            "run": "python3 -c \"import app; assert 'PYTEST_ADDOPTS=' not in app.__doc__\"",
        },
        *BRIEF["successCriteria"],
    ]
    env.brief({**BRIEF, "successCriteria": criteria})
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr
