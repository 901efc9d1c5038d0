"""``gentle-hook assess`` with only plain flags runs without click, and says
exactly what the click-parsed command says; anything else goes to click."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.cli.assess_command import fast_assess_args
from tests.conftest import commit_all, gh, write


@pytest.mark.parametrize(
    ("args", "want"),
    [
        ([], {}),
        (["--committed-only"], {"committed_only": True}),
        (["--staged", "--json"], {"staged": True, "as_json": True}),
        (["--base-ref", "main"], {"base_ref": "main"}),
        (["--base-ref=origin/main", "--json"], {"base_ref": "origin/main", "as_json": True}),
        (["--committed-only", "--staged"], {"committed_only": True, "staged": True}),
        (["--help"], None),
        (["--cwd", "x"], None),
        (["--json", "--json"], None),  # a repeat: click's rules
        (["--base-ref"], None),  # a missing value: click's message
        (["--base-ref", "--json"], None),  # click takes "--json" as the value
        (["--base-ref="], None),
        (["--", "x"], None),
        (["--escalate-item", "2"], None),
        (["extra"], None),
    ],
)
def test_fast_arguments_are_a_strict_subset(args: list[str], want: dict[str, object]) -> None:
    assert fast_assess_args(args) == want


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    write(root / "README.md", "# r\n")
    commit_all(root, "root")
    write(root / "src/app.py", "import subprocess\nsubprocess.run(['ls'])\n")
    commit_all(root, "change")
    return root


@pytest.mark.parametrize(
    "flags",
    [
        ["--committed-only", "--base-ref", "HEAD~1"],
        ["--committed-only", "--base-ref=HEAD~1", "--json"],
        ["--staged", "--committed-only"],  # the same one-line usage error
        ["--committed-only", "--base-ref", "no-such-ref"],  # the same exit 2
    ],
)
def test_fast_and_click_paths_say_the_same(tmp_path: Path, flags: list[str]) -> None:
    root = _repo(tmp_path)
    fast = gh(root, "assess", *flags)
    # a repeated flag is not fast: the same request through click
    slow = gh(root, "assess", *flags, flags[0])
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        slow.returncode,
        slow.stdout,
        slow.stderr,
    )
    assert fast.stdout or fast.stderr


def test_the_fast_path_imports_no_click(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    code = (
        "import sys; from gentle_hooks.main import main; "
        "rc = main(['assess', '--committed-only', '--base-ref', 'HEAD~1']); "
        "print(rc, 'click' in sys.modules, file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert proc.stderr.strip().splitlines()[-1] == "0 False", proc.stderr
