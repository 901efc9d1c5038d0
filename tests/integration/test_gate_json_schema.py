"""``gate --range --json`` against its schema (docs/contracts/gate-v1.schema.json): a
blocked range, a passing one and one that cannot be judged validate; a commit's ``ways``
keep its ways apart (issue 14, r14o: ``fixes`` mixed a way's alternatives with a bare
prefix), each command a full argv that runs as the text line does."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import jsonschema
import pytest

from gentle_hooks.report.shell_text import LABELS
from gentle_hooks.report.ways_json import ways_json
from tests.conftest import commit_all, gh, git, run_git, write

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs/contracts/gate-v1.schema.json").read_text()
)


def _validate(doc: object) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)


def _coauthored(tmp_path: Path) -> Path:
    """A repository whose last commit is delegated by its AI co-author trailer alone."""
    root = tmp_path / "r"
    run_git(tmp_path, "init", "-q", "-b", "main", str(root))
    write(root / "a.py", "X = 1\n")
    commit_all(root, "base")
    write(root / "a.py", "X = 2\n")
    commit_all(root, "w\n\nCo-authored-by: Claude <noreply@anthropic.com>\n")
    return root


def test_a_blocked_range_validates_and_its_ways_are_apart(tmp_path: Path) -> None:
    root = _coauthored(tmp_path)
    r = gh(root, "gate", "--range", "HEAD~1..HEAD", "--json")
    assert r.returncode == 1, (r.stdout, r.stderr)
    doc = json.loads(r.stdout)
    _validate(doc)
    commit = doc["commits"][0]
    ways = commit["ways"]
    assert [len(w["commands"]) for w in ways] == [1, 1, 5], ways
    assert ways[1]["when"].startswith("in the clone that verified this commit"), ways
    # every fix is one command of one way, in order; an or: line is no fix of its own
    flat = [c for w in ways for c in w["commands"]]
    shown = [
        " ".join(c["argv"][2:3]).removesuffix(' "$@"')
        if c["argv"][:2] == ["sh", "-c"]
        else shlex.join(c["argv"])
        for c in flat
    ]
    assert shown == commit["fixes"], (shown, commit["fixes"])
    assert flat[1]["argv"] == ["gentle-hook", "sync", "push"] and len(flat[1]["or"]) == 1
    prefix = [c for c in flat if "complete_with" in c]
    assert len(prefix) == 1 and prefix[0]["complete_with"] == "test_command", flat
    assert prefix[0]["argv"][:2] == ["sh", "-c"] and prefix[0]["argv"][-1] == "sh", prefix


def test_a_prefix_argv_completed_with_the_test_command_runs_as_the_text_line(
    tmp_path: Path,
) -> None:
    """The worktree way's commands run as argv: its worktree added, then its prefix with a
    test command's words appended passes them to ``gentle-hook`` (a stand-in that prints
    its arguments) exactly, after the prefix's own words."""
    root = _coauthored(tmp_path)
    doc = json.loads(gh(root, "gate", "--range", "HEAD~1..HEAD", "--json").stdout)
    way = doc["commits"][0]["ways"][2]["commands"]
    bin_dir = tmp_path / "bin"
    write(bin_dir / "gentle-hook", '#!/bin/sh\nprintf "%s\\0" "$@"\n', mode=0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    added = subprocess.run(way[0]["argv"], cwd=root, env=env, capture_output=True, check=False)
    assert added.returncode == 0, added
    test = ["python3", "-c", "print('a b')"]
    done = subprocess.run(
        [*way[1]["argv"], *test], cwd=root, env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done
    words = done.stdout.decode().split("\0")[:-1]
    common = git(root, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
    tree = str(Path(common, "gentle-hooks", f"verify-{doc['commits'][0]['commit'][:12]}"))
    assert words == ["receipt", "run", "--committed", "--cwd", tree, "--", *test], words


def test_a_passing_range_and_one_that_cannot_be_judged_validate(tmp_path: Path) -> None:
    root = tmp_path / "r"
    run_git(tmp_path, "init", "-q", "-b", "main", str(root))
    write(root / "a.py", "X = 1\n")
    commit_all(root, "base")
    commit_all(root, "second")
    ok = gh(root, "gate", "--range", "HEAD~1..HEAD", "--json")
    assert ok.returncode == 0, ok.stderr
    _validate(json.loads(ok.stdout))
    short = gh(root, "gate", "--range", "HEAD~5..HEAD", "--json")
    assert short.returncode == 2, short
    doc = json.loads(short.stdout)
    assert doc["blocked"] is None and doc["exit_code"] == 2, doc
    _validate(doc)


def test_the_schema_lists_every_label_a_step_has() -> None:
    steps = SCHEMA["$defs"]["commit"]["properties"]["steps"]["items"]["properties"]
    assert set(steps["label"]["enum"]) == set(LABELS)


@pytest.mark.parametrize(
    ("steps", "ways"),
    [
        pytest.param(
            [("run", "a b"), ("or", "c && d"), ("otherwise", "then this"), ("prefix", "x --")],
            [
                {
                    "when": "",
                    "commands": [{"argv": ["a", "b"], "or": [{"argv": ["sh", "-c", "c && d"]}]}],
                },
                {
                    "when": "then this",
                    "commands": [{"argv": ["x", "--"], "complete_with": "test_command"}],
                },
            ],
            id="or-and-prefix",
        ),
        pytest.param(
            [("where", "here"), ("run", "A=1 b"), ("then", "either way"), ("run", "z")],
            [{"when": "here", "commands": [{"argv": ["sh", "-c", "A=1 b"]}, {"argv": ["z"]}]}],
            id="assignment-then",
        ),
        pytest.param(
            [("run", "a"), ("otherwise", "o"), ("run", "b"), ("then", "t"), ("run", "c")],
            [
                {"when": "", "commands": [{"argv": ["a"]}, {"argv": ["c"]}]},
                {"when": "o", "commands": [{"argv": ["b"]}, {"argv": ["c"]}]},
            ],
            id="then-ends-every-way",
        ),
        pytest.param(
            [("prefix", "cd 'a b' && t --"), ("or", "u --"), ("write", "/b.json")],
            [
                {
                    "when": "",
                    "commands": [
                        {
                            "argv": ["sh", "-c", "cd 'a b' && t -- \"$@\"", "sh"],
                            "complete_with": "test_command",
                            "or": [{"argv": ["u", "--"], "complete_with": "test_command"}],
                        },
                        {"write": "/b.json"},
                    ],
                }
            ],
            id="shell-prefix-and-its-alternative",
        ),
    ],
)
def test_ways_json_rows(steps: list[tuple[str, str]], ways: list[dict[str, object]]) -> None:
    assert ways_json(steps) == ways
