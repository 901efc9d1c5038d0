"""Every published hook id is documented, the manifest is valid, and the README's quick
start is the command .ci/run runs (STYLE: pre-commit-hooks' readme_test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hook_ids() -> list[str]:
    return re.findall(r"^- id: (\S+)$", (ROOT / ".pre-commit-hooks.yaml").read_text(), re.M)


def test_every_hook_id_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    ids = hook_ids()
    assert len(ids) >= 6
    missing = [i for i in ids if f"id: {i}" not in readme]
    assert missing == []


def test_manifest_is_valid() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "validate-manifest",
            str(ROOT / ".pre-commit-hooks.yaml"),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    test_command = next(b for b in blocks if "pytest" in b)
    assert test_command in (ROOT / ".ci" / "run").read_text()
    assert any("gentle-hook assess --base-ref HEAD~3 --committed-only" in b for b in blocks)
