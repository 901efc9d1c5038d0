"""The verifier's flow end to end through installed hooks and a bare remote.

"An escalated change is blocked, ``verify prepare`` + ``verify run`` produce the artifact
pair, ``verdict add`` accepts it, the commit passes; a hand-written or other-candidate
verdict does not satisfy a ``require_observed`` gate." Every command after the block is the
one the previous step printed, run exactly as printed.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from tests.conftest import PASSING_VERDICT
from tests.e2e.conftest import Run, World, named_brief

ARTIFACTS = ".agents/skills/platform/artifacts/verify-delegation"
TOKENS = "def check_token(t):\n    return bool(t) and t.startswith('tok-')\n"


def brief(world: World) -> Path:
    """A brief outside the work tree: the verifier's criteria, as commands."""
    path = world.base / "brief.json"
    data = {
        "id": "tokens-1",
        "objective": "check_token accepts only tok- tokens",
        "outputFormat": "a patch to src/app.py",
        "boundaries": ["src/app.py only"],
        "stopCondition": "the criteria pass",
        "readOnly": False,
        "sideEffects": ["write-repo"],
        "successCriteria": [
            {
                "criterion": "a tok- token is accepted",
                "run": "cd src && python3 -c \"import app; assert app.check_token('tok-1')\"",
            }
        ],
        "negativeTests": [
            {
                "criterion": "the check rejects a forged token",
                # passes on the base (no check yet), fails on the change: its exit status
                # depends on the artifact
                "run": 'cd src && python3 -c "import app; assert not hasattr(app, '
                "'check_token') or app.check_token('forged')\"",
            }
        ],
        "fullSuite": "python3 -m unittest discover -s tests",
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def printed(world: World, line: str, prefix: str) -> list[str]:
    """The arguments after ``gentle-hook`` of a command line the tool printed."""
    assert line.startswith(prefix), line
    argv = shlex.split(line.removeprefix(prefix))
    assert argv[0].rsplit("/", 1)[-1] == "gentle-hook", argv  # by its path when PATH lacks it
    return argv[1:]


def _corrected_brief_passes(world: World, blocked: Run) -> None:
    """The way out a brief-fault block prints: the corrected brief (a new brief id) written
    where its ``write:`` line says, its ``run:`` lines run as printed, the verdict line the
    last one prints run, and the same commit passes."""
    named = named_brief(world.work, blocked.said)
    named.write_text(brief(world).read_text(), encoding="utf-8")  # tokens-1: a new brief id
    runs = [
        ln.removeprefix("gentle-hooks:   run: ")
        for ln in blocked.said
        if ln.startswith("gentle-hooks:   run: ") and " verify prepare " not in ln
    ]
    last = None
    for cmd in runs:
        last = world.run(["sh", "-c", cmd], cwd=world.work)
        assert last.code == 0, (cmd, last)
    assert last is not None and " verify run " in runs[-1]
    added = world.run(["sh", "-c", last.out.splitlines()[-1].removeprefix("run: ")])
    assert added.code == 0, added
    assert "status pass: accepted" in added.out
    passed = world.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed


def escalated_and_staged(world: World) -> None:
    world.delegate(text=TOKENS)
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")


def test_done_when_an_escalated_change_passes_after_verify(world: World) -> None:
    escalated_and_staged(world)
    blocked = world.git("commit", "-m", "writer: tokens")
    assert blocked.code == 1, blocked
    # the block names the file for the brief, outside the work tree, and the run that reads
    # it (the CLI by its path when PATH lacks it)
    named = named_brief(world.work, blocked.said)
    runs = [ln for ln in blocked.said if ln.startswith("gentle-hooks:   run: ")]
    verify = [ln for ln in runs if " verify run " in ln]
    assert len(verify) == 1, blocked
    program, rest = verify[0].removeprefix("gentle-hooks:   run: ").split(" ", 1)
    assert program.rsplit("/", 1)[-1] == "gentle-hook"
    assert rest == f"verify run --staged --brief {named}"
    # otherwise verify prepare (the room first), with the same brief
    assert any(ln.endswith(f" verify prepare --staged --brief {named}") for ln in runs), blocked

    path = brief(world)
    rooms = world.base / "rooms"  # the prepared room stays until removed: keep it here
    rooms.mkdir()
    prepared = world.gh(
        "verify", "prepare", "--staged", "--brief", str(path), env={"TMPDIR": str(rooms)}
    )
    assert prepared.code == 0, prepared
    assert prepared.out.splitlines()[0].startswith(f"clean room: {rooms}/gentle-verify-")
    then = prepared.out.splitlines()[-1]
    ran = world.gh(*printed(world, then, "run: "))
    assert ran.code == 0, ran.out
    out = ran.out.splitlines()
    assert out[0].startswith("verify run: pass (every criterion passed")
    ref = next(ln for ln in out if ln.startswith("artifactRef: ")).split()[1]
    assert ref.startswith(f"{ARTIFACTS}/tokens-1-")
    assert (world.work / ref).is_file() and (world.work / ref).with_suffix(".md").is_file()

    added = world.gh(*printed(world, out[-1], "run: "))
    assert added.code == 0, added
    # row #1 is the run's start, recorded before its checks ran; #2 its end
    assert "note: observed: written by gentle-hook verify run #2" in added.out

    passed = world.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed
    assert world.ok("show", "--stat", "--format=", "HEAD").strip().startswith("src/app.py")
    push = world.git("push", "origin", "main")
    assert (push.code, world.remote_ref("main")) == (0, world.rev("HEAD")), push
    world.assert_clean()


def test_done_when_require_observed_refuses_hand_written_and_other_candidate_verdicts(
    world: World,
) -> None:
    # no configuration: verification.require_observed is on by default
    path = brief(world)

    # a verdict observed on an earlier state of the change: another candidate
    world.delegate(text="def check_token(t):\n    return t.startswith('tok-')\n")
    world.ok("add", "-A")
    earlier = json.loads(world.gh("verify", "run", "--staged", "--brief", str(path), "--json").out)
    assert earlier["status"] == "pass", earlier

    world.delegate(text=TOKENS)  # the writer's latest content: the gate follows it
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")

    other = world.gh("verdict", "add", "--staged", earlier["json_path"])
    assert other.code == 2, other
    assert "the verdict judged candidate" in other.err

    hand = world.verdict("--staged", data={**PASSING_VERDICT, "briefId": "tokens-1"})
    assert hand.code == 1, hand
    assert "not accepted: not observed" in hand.out

    still = world.git("commit", "-m", "writer: tokens")
    assert still.code == 1, still
    assert any("): not observed: " in line for line in still.said), still.said

    ran = world.gh("verify", "run", "--staged", "--brief", str(path))
    assert ran.code == 0, ran.out
    assert world.gh(*printed(world, ran.out.splitlines()[-1], "run: ")).code == 0
    passed = world.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed
    world.assert_clean()


def test_a_corrected_brief_is_the_way_out_of_a_criterion_that_observes_nothing(
    native: World,
) -> None:
    """A brief whose only criterion is the suite, which passes on the base too (its tests
    only import the module), observes nothing of the change: the run fails on the brief,
    not on the change. The commit block says so in words and its printed lines, with a
    corrected brief (a new brief id) written where it says, lead to an accepted verdict
    and a passing commit (refuter r14a F1: the corrected brief's verdict was held back
    until the faulty brief passed, which it never could)."""
    world = native
    escalated_and_staged(world)
    faulty = world.base / "faulty-brief.json"
    data = json.loads(brief(world).read_text())
    suite = data["fullSuite"]
    data.update(id="tokens-0", successCriteria=[{"criterion": "the tests pass", "run": suite}])
    faulty.write_text(json.dumps(data), encoding="utf-8")

    ran = world.gh("verify", "run", "--staged", "--brief", str(faulty))
    assert ran.code == 1, ran
    assert "observes nothing of it" in ran.out
    assert "note: the brief is at fault, not the change: criterion `" in ran.out
    # no verdict add (it would record status fail for a run that is no failure of the
    # change): the corrected brief's verify run is the line printed last
    assert " verdict add " not in ran.out, ran.out
    assert printed(world, ran.out.splitlines()[-1], "prefix: ") == [
        "verify",
        "run",
        "--staged",
        "--brief",
    ]

    blocked = world.git("commit", "-m", "writer: tokens")
    assert blocked.code == 1, blocked
    fault = (
        "gentle-hooks:   the last verify run failed only on its brief: criterion "
        f"`{suite}` gives the same answer on the base tree and with the change emptied, so it "
        "observes nothing of the change"
    )
    assert any(line.startswith(fault) for line in blocked.said), "\n".join(blocked.said)
    _corrected_brief_passes(world, blocked)


def test_a_corrected_brief_is_the_way_out_of_a_criterion_that_fails_on_every_tree(
    native: World,
) -> None:
    """A brief whose criterion fails on every tree (`test -e nonexistent`: row
    C4-nothing-failed) fails the candidate, and that failure stands: the same brief id,
    corrected, is still held back (R2). The block and R2 name the check and a new brief id
    as the way out; its printed lines, with the corrected brief written where it says,
    lead to an accepted verdict and a passing commit."""
    world = native
    escalated_and_staged(world)
    faulty = world.base / "faulty-brief.json"
    good = json.loads(brief(world).read_text())
    data = {**good, "id": "tokens-0"}
    data["successCriteria"] = [{"criterion": "a file exists", "run": "test -e nonexistent"}]
    faulty.write_text(json.dumps(data), encoding="utf-8")

    ran = world.gh("verify", "run", "--staged", "--brief", str(faulty))
    assert ran.code == 1, ran
    assert "note: the brief is at fault: `test -e nonexistent` fails on every tree" in ran.out
    assert world.gh(*printed(world, ran.out.splitlines()[-1], "run: ")).code == 1

    blocked = world.git("commit", "-m", "writer: tokens")
    assert blocked.code == 1, blocked
    fault = (
        "gentle-hooks:   the last verify run failed only on its brief: criterion "
        "`test -e nonexistent` gives the same answer on the base tree and with the change "
        "emptied"
    )
    assert any(line.startswith(fault) for line in blocked.said), "\n".join(blocked.said)
    assert any(
        "correct the brief (under a new brief id when a check fails on every tree" in ln
        for ln in blocked.said
    )

    # the same brief id, corrected: its pass does not settle the failure it observed
    same = world.base / "same-id-brief.json"
    same.write_text(json.dumps({**good, "id": "tokens-0"}), encoding="utf-8")
    again = world.gh("verify", "run", "--staged", "--brief", str(same))
    assert again.code == 0, again.out
    held = world.gh(*printed(world, again.out.splitlines()[-1], "run: "))
    assert held.code == 1, held
    assert "`test -e nonexistent` fails on every tree" in held.out, held.out
    assert "no run of brief 'tokens-0' can pass" in held.out
    assert "under a new brief id" in held.out and "until it passes" not in held.out

    still = world.git("commit", "-m", "writer: tokens")
    assert still.code == 1, still
    _corrected_brief_passes(world, still)


def test_an_ignored_output_every_check_rewrites_is_no_change_of_the_artifact(
    native: World,
) -> None:
    """docs/spec-notes.md §9: only a file ``.gitignore`` does not ignore counts as added. A
    test that writes ``report.txt`` (ignored at the base) ran in a criterion first, then in
    the suite, which rewrote it: that is no change of the artifact, the run passes and the
    commit goes through (refuter r14a F2: "full suite … changed report.txt")."""
    world = native
    world.write(".gitignore", "report.txt\n")
    world.write(
        "tests/test_report.py",
        "import unittest\n\n\nclass ReportTest(unittest.TestCase):\n"
        "    def test_writes_its_report(self):\n"
        "        with open('report.txt', 'w') as fh:\n            fh.write('ok\\n')\n",
    )
    world.ok("add", "-A")
    assert world.git("commit", "-m", "a test that writes an ignored report").code == 0
    assert world.git("push", "origin", "main").code == 0
    escalated_and_staged(world)
    data = json.loads(brief(world).read_text())
    writes = "python3 -c \"open('report.txt', 'w').write('ok')\" && "
    data["successCriteria"][0]["run"] = writes + data["successCriteria"][0]["run"]
    path = world.base / "brief.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ran = world.gh("verify", "run", "--staged", "--brief", str(path))
    assert ran.code == 0, ran.out
    assert "changed report.txt" not in ran.out
    assert world.gh(*printed(world, ran.out.splitlines()[-1], "run: ")).code == 0
    passed = world.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed
