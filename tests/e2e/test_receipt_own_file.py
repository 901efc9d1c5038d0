"""A receipt whose command runs a file the change itself writes cannot count (SPEC §5
"Spot check", §7 "Standing", row ``S-own``): real git, ``gentle-hook install``.

The writer adds ``t.py`` and reports ``python3 t.py``: ``receipt run`` keeps the command's
exit status and says, in one ``note:`` line, that the receipt will not count; the next
commit's block still prints the report's ``prefix:`` line (text and JSON
``report_prefix``) with the reason, and pasting the block with a command that counts
lets the commit through.
"""

from __future__ import annotations

import json
import sys

from tests.e2e.conftest import World, paste_first_way

PY = sys.executable
#: A report of ``t.py`` that counts: the command is Python's own, t.py its argument.
COUNTS = f"{PY} -B -c 'import runpy; runpy.run_path(\"t.py\")'"


def test_a_receipt_of_a_file_the_change_writes_leaves_the_report_step_in_the_block(
    native: World,
) -> None:
    w = native
    w.write("t.py", "print(2)\n")
    assert w.gh("record", "--model", "m", "--effort", "low").code == 0
    w.ok("add", "t.py")
    first = w.git("commit", "-q", "-m", "writer")
    assert first.code == 1 and any("prefix: " in x for x in first.said), first

    made = w.gh("receipt", "run", "--staged", "--", PY, "t.py")
    assert made.code == 0, made
    notes = [x for x in made.lines if x.startswith("note: ")]
    assert len(notes) == 1 and "receipt #1 will not count" in notes[0], made
    assert "the change adds or changes t.py" in notes[0], made

    again = w.git("commit", "-q", "-m", "writer")
    assert again.code == 1, again
    said = again.said
    assert any(x.startswith("gentle-hooks:   prefix: ") for x in said), said
    assert any(
        "receipt #1 (" in x and "runs a file the change adds or changes" in x for x in said
    ), said
    as_json = w.git("commit", "-q", "-m", "writer", env={"GENTLE_HOOKS_FORMAT": "json"})
    decision = json.loads(next(x for x in as_json.lines if x.startswith("{")))
    missing = decision["candidates"][0]["missing"]
    assert missing[0]["report_prefix"], missing
    assert "runs a file the change adds or changes" in missing[0]["why"], missing

    paste_first_way(w, said, w.work, COUNTS)
    done = w.git("commit", "-q", "-m", "writer")
    assert done.code == 0, done
