"""Human output says what is missing and why in words (SPEC §7; issue "plain words first").

Row ids (``P3``, ``T-informs``, ``S-no-check``, ``N-true``), the native assessment's reason
codes and signals (``process_boundary``, ``shell_process``) and other ``snake_case`` names
belong in ``--json`` and in the ``--explain`` views (``assess``/``status --explain``,
``gate --range --explain``, ``GENTLE_HOOKS_EXPLAIN`` for the hooks). These tests meet the
typical blocks of a real repository and scan their words — every line but the commands they
print (``run:``, ``prefix:``, ``or:``, ``write:``) — for such tokens.
"""

from __future__ import annotations

import json
import re

from tests.conftest import PASSING_VERDICT
from tests.e2e.conftest import CHECK, TOKEN_BRIEF, World

#: Code-like tokens: a row id (``P3``, ``C4``), a row id with words (``T-informs``,
#: ``S-no-check``, ``N-true``), ``(row ...``, a snake_case name that is not part of a path
#: or a dotted configuration key (``verification.commands``).
CODE_LIKE = re.compile(
    r"\b[A-Z]{1,2}\d+\b|\b[A-Z]{1,2}\d*-[a-z][\w-]*|\(row "
    r"|(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+(?![\w./-])"
)
#: A process call in an added line: the native assessment gives it a reason and a signal.
CALLS = 'import subprocess\n\n\ndef add(a, b):\n    subprocess.run(["true"])\n    return a + b\n'


def codes_in(text: str) -> list[str]:
    """The code-like tokens in ``text``'s words (the printed commands left out)."""
    found: list[str] = []
    for line in text.splitlines():
        words = line.removeprefix("gentle-hooks:").removeprefix("gentle-hook: error:").strip()
        if words.startswith(("run: ", "prefix: ", "or: ", "write: ")):
            continue
        # an error's one line: its words, then '; run: CMD' segments
        words = re.split(r"; (?:run|prefix): ", words)[0]
        found += CODE_LIKE.findall(words)
    return found


def test_the_scanner_finds_codes() -> None:
    assert codes_in("risk: medium (rows P3 T-informs O4 W1)") == ["P3", "T-informs", "O4", "W1"]
    assert codes_in("  why: process_boundary: src/app.py: signal: shell_process") == [
        "process_boundary",
        "shell_process",
    ]
    assert codes_in("checks nothing (N-true) (row S-no-check)") == ["N-true", "(row ", "S-no-check"]
    assert codes_in("declared verification.commands; src/test_app.py; run: a_b") == []


def test_typical_blocks_and_status_are_in_words(native: World) -> None:
    w = native
    w.write("src/app.py", CALLS)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    outputs = {}
    outputs["receipt run true"] = w.gh("receipt", "run", "--", "true")
    outputs["status"] = w.gh("status")
    outputs["assess"] = w.gh("assess")
    outputs["spot-check"] = w.gh("spot-check")
    w.ok("add", "-A")
    outputs["commit"] = w.git("commit", "-m", "writer")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    outputs["push"] = w.git("push", "origin", "main")
    outputs["gate --range"] = w.gh("gate", "--range", "origin/main..HEAD")
    outputs["status --committed"] = w.gh("status", "--committed")
    assert outputs["commit"].code == outputs["push"].code == outputs["gate --range"].code == 1
    found = {
        name: codes_in(r.out + r.err) for name, r in outputs.items() if codes_in(r.out + r.err)
    }
    assert found == {}, {name: outputs[name] for name in found}


def test_the_codes_stay_in_json_and_explain(native: World) -> None:
    w = native
    w.write("src/app.py", CALLS)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *CHECK).code == 0
    explained = w.gh("status", "--explain").out
    assert "(process_boundary)" in explained and "rows P3" in explained, explained
    native_json = json.loads(w.gh("assess", "--json").out)["native"]["assessment"]
    assert native_json["reasons"][0]["code"] == "process_boundary"
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer", env={"GENTLE_HOOKS_EXPLAIN": "1"})
    assert blocked.code == 1, blocked
    assert any(line.startswith("gentle-hooks:   decision rows: P") for line in blocked.said)
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    gate = w.gh("gate", "--range", "origin/main..HEAD", "--explain")
    assert any(line.startswith("  decision rows: ") for line in gate.out.splitlines()), gate


def test_verify_and_verdict_lines_are_in_words(native: World) -> None:
    """``verify run``'s lines, ``verdict add``'s refusal and the verdict ``status`` lists say
    why in words; the rule ids (``S4``, ``C4-nothing``, ``V2``, ``R1``) stay in ``--json``
    and in ``status --explain``."""
    w = native
    w.delegate(text="def check_token(t):\n    return bool(t) and t.startswith('tok-')\n")
    w.spot_check()
    w.escalate()
    # commands without snake_case names: the scan reads the lines that print them
    brief = dict(
        TOKEN_BRIEF,
        successCriteria=[{"criterion": "nothing", "run": "test -n x"}],
        negativeTests=[{"criterion": "fails anyway", "run": "test -e src/absent.py"}],
    )
    path = w.base / "brief.json"
    path.write_text(json.dumps(brief), encoding="utf-8")
    outputs = {"verify run": w.gh("verify", "run", "--brief", str(path))}
    assert outputs["verify run"].code == 1, outputs["verify run"]
    assert "it observes nothing" in outputs["verify run"].out, outputs["verify run"]
    outputs["verdict add"] = w.verdict(data=dict(PASSING_VERDICT, fullSuiteRun=False))
    assert outputs["verdict add"].code == 1, outputs["verdict add"]
    outputs["status"] = w.gh("status")
    assert "not accepted: " in outputs["status"].out, outputs["status"]
    found = {
        name: codes_in(r.out + r.err) for name, r in outputs.items() if codes_in(r.out + r.err)
    }
    assert found == {}, {name: outputs[name] for name in found}
    assert "not accepted: V" in w.gh("status", "--explain").out
    ran = json.loads(w.gh("verify", "run", "--json", "--brief", str(path)).out)
    assert (ran["status_row"], ran["outcomes"][0]["row"]) == ("S4", "C4-nothing"), ran
