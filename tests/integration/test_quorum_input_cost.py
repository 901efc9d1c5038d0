"""``quorum report`` and ``quorum audit`` re-classify every stored vote; their cost is
linear in the text: a claim is not re-read per quote or per part of a vote, and one text
quoting a thousand strings is read once. 40 records of 4,096-character curly-quote texts
took over 20 s before; now about a second."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.integration.test_hostile_inputs import hostile

#: 4,096 characters of curly-quoted strings: a thousand quotes and sentence parts.
TEXT = ("\u201c" + "x \u201d\u201c " * 1000)[:4096]
CLAIM = ("\u201ca\u201d" * 2000)[:4096]


def _records(tmp_path: Path, count: int) -> Path:
    files = []
    for n in range(3):
        verdict = tmp_path / f"v{n}.json"
        checked = ("opened \u201cpool.js\u201d " + TEXT)[:4096]
        body = {"refuted": False, "reason": TEXT[:4000], "whatIChecked": checked}
        verdict.write_text(
            json.dumps({**body, "verifier": f"v{n}"}, ensure_ascii=False), encoding="utf-8"
        )
        files.append(str(verdict))
    proc = hostile(
        tmp_path, "quorum", "tally", "--claim", CLAIM, "--stakes", "audit", "--json", *files
    )
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    records = [
        {**record, "claim": f"{n} {record['claim'][:4090]}", "finding": f"F{n}"}
        for n in range(count)
    ]
    out = tmp_path / "records.json"
    out.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return out


def test_report_and_audit_of_long_quoted_texts_take_linear_time(tmp_path: Path) -> None:
    records = _records(tmp_path, 40)
    for command in (("quorum", "report"), ("quorum", "audit", "--seed", "1")):
        start = time.monotonic()
        proc = hostile(tmp_path, *command, str(records), timeout=120)
        took = time.monotonic() - start
        assert proc.returncode == 0, proc.stderr
        assert took < 8, (command, took)
