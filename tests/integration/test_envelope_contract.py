"""The printed envelopes are valid instances of their pydantic schemas, and the assess path
stays free of pydantic and pygit2 (the schema is a contract; the hot path is plain values)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gentle_hooks.report.models import AssessEnvelope, ReviewAssessment
from tests.conftest import commit_all, gh, write


def test_printed_envelope_is_a_valid_model(repo: Path) -> None:
    write(repo / "src" / "auth.py", "import subprocess\nsubprocess.run(['x'])\n")
    write(repo / "docs" / "x.md", "# x\n")
    commit_all(repo)
    proc = gh(
        repo,
        "assess",
        "--json",
        "--committed-only",
        "--base-ref",
        "HEAD~1",
        "--escalate-item",
        "1",
        "--escalate-reason",
        "drops a table",
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    model = AssessEnvelope.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == data
    ReviewAssessment.model_validate(data["native"]["assessment"])


def test_assess_imports_no_pydantic_or_pygit2(repo: Path) -> None:
    write(repo / "a.py", "1\n")
    commit_all(repo)
    code = (
        "import sys\n"
        "from gentle_hooks.main import main\n"
        "rc = main(['assess', '--json', '--committed-only', '--base-ref', 'HEAD~1'])\n"
        "heavy = sorted(m for m in ('pydantic', 'pygit2') if m in sys.modules)\n"
        "sys.stderr.write(repr((rc, heavy)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    assert proc.stderr.strip().splitlines()[-1] == "(0, [])"


def test_config_file_is_validated_with_pydantic_only_when_present(repo: Path) -> None:
    write(repo / ".gentle-hooks.toml", 'mode = "warn"\n')
    write(repo / "a.py", "1\n")
    commit_all(repo)
    proc = gh(repo, "assess", "--json", "--committed-only", "--base-ref", "HEAD~1")
    assert proc.returncode == 0, proc.stderr
