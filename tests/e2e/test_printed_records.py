"""What a block or a run prints about records names them as the CLI takes them and gets the
user out, pasted as printed (SPEC §7 "Every block names commands runnable exactly as
printed"; issue 14): real git, ``gentle-hook install``, a bare remote, real pushes.

* CI (``gate --range``, text and ``--json``) names a verdict it read from a note by its
  place in that note, counted from 1, never ``#0`` (no ``gentle-hook verdict`` command
  takes 0: ledger ids start at 1, and a note's verdict has none); the way out it prints,
  pasted in the writer's clone, lets CI through.
* ``verify run`` prints no ``verdict add`` when the pass it wrote is held already: the
  candidate has an accepted verdict of the same verifier, so adding it would count for
  nothing; it says so, and the gate already lets the change through.
"""

from __future__ import annotations

import json
import shlex

from tests.conftest import PASSING_VERDICT
from tests.e2e.conftest import TOKEN_BRIEF, World, paste_first_way

TOKENS = "def check_token(t):\n    return bool(t)\n"
NOTES = ("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks")


def test_ci_names_a_notes_verdict_from_one_and_its_way_out_works(native: World) -> None:
    w = native
    w.delegate(text=TOKENS)
    w.ok("add", "-A")
    w.spot_check("--staged")
    w.escalate()
    turned_down = w.verdict("--staged", data={**PASSING_VERDICT, "status": "fail"})
    assert turned_down.code == 1, turned_down
    w.ok("commit", "-q", "--no-verify", "-m", "writer: tokens")
    w.ok("push", "-q", "--no-verify", "origin", "main", "refs/notes/gentle-hooks")
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    w.ok(*NOTES, cwd=ci)
    blocked = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert blocked.code == 1, blocked
    as_json = w.gh("gate", "--range", "HEAD~1..HEAD", "--json", cwd=ci)
    assert as_json.code == 1, as_json
    (reason,) = json.loads(as_json.out)["commits"][0]["reasons"]
    named = "not accepted: the note's verdict 1 (brief brief-1, status fail): status is fail"
    for said in (blocked.out, reason):
        assert "#0" not in said, said
        assert named in said, said
    zero = w.gh("verdict", "show", "0")
    assert zero.code == 2 and "0 is not in the range 1<=x" in zero.err, zero
    brief = w.base / "token-brief.json"
    brief.write_text(json.dumps(TOKEN_BRIEF), encoding="utf-8")
    ran = paste_first_way(
        w, blocked.out.splitlines(), w.work, shlex.quote(str(brief)), follow_verify=True
    )
    assert any(c.startswith("gentle-hook sync push ") for c in ran), ran
    w.ok(*NOTES, cwd=ci)
    passed = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert passed.code == 0, passed


def test_verify_run_prints_no_verdict_add_for_a_pass_already_held(native: World) -> None:
    w = native
    w.delegate(text=TOKENS)
    w.spot_check()
    w.escalate()
    first = w.verified()  # verify run, then the verdict add it printed, as printed
    assert first.code == 0, first
    brief = w.base / "token-brief.json"
    again = w.gh("verify", "run", "--brief", str(brief))
    assert again.code == 0, again
    assert not any(line.startswith("run: ") for line in again.out.splitlines()), again
    assert again.out.splitlines()[-1] == (
        "held: verdict #1 (brief tokens-1, status pass) of the same verifier (Test Committer "
        "<committer@example.com>) is stored for this candidate and accepted: this pass adds "
        "nothing (one verifier counts once), so there is no verdict add to run"
    ), again
    as_json = w.gh("verify", "run", "--json", "--brief", str(brief))
    assert as_json.code == 0, as_json
    envelope = json.loads(as_json.out)
    assert (envelope["next"], envelope["held"]) == (None, 1), envelope
    assert w.ledger("SELECT count(*) FROM verdict") == [(1,)]
    w.ok("add", "-A")
    committed = w.git("commit", "-q", "-m", "writer: tokens, verified")
    assert committed.code == 0, committed
    assert w.git("push", "origin", "main").code == 0


def test_verify_run_of_another_caller_still_prints_its_verdict_add(native: World) -> None:
    """A pass by another verifier is a second verifier's answer: its verdict add is
    printed, and pasted as printed it is stored and accepted."""
    w = native
    w.delegate(text=TOKENS)
    w.spot_check()
    w.escalate()
    assert w.verified().code == 0
    brief = w.base / "token-brief.json"
    other = w.gh("verify", "run", "--caller", "second verifier", "--brief", str(brief))
    assert other.code == 0, other
    last = other.out.splitlines()[-1]
    assert last.startswith("run: gentle-hook verdict add "), other
    added = w.run(["sh", "-c", last.removeprefix("run: ")])
    assert added.code == 0, added
    assert w.ledger("SELECT count(*) FROM verdict WHERE accepted = 1") == [(2,)]
