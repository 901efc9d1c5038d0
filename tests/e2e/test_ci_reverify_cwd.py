"""A receipt run in a subdirectory, re-verified by CI (SPEC §8 ``gate --range --reverify``;
issue 14, refuter r14u HIGH): the note's receipt and spot-check lines carry the directory
the receipt ran in, and CI re-runs the command there, so an honest commit whose test opens a
file relative to ``sub/`` is not "refuted" by a re-run at the repository top. The other way:
a claim that fails in its directory is still refuted, a directory the commit does not hold
counts for nothing, a malformed directory makes the line count for nothing, and a command
the base declares still re-runs at the top (the declared command is the top's).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.e2e.conftest import World

NOTES = "refs/notes/gentle-hooks"


def _test(flag: Path | None = None) -> str:
    """A test that reads ``data.txt`` from the directory it runs in, and fails while
    ``flag`` exists (a claim CI finds false)."""
    code = "assert open('data.txt').read() == '7\\n'"
    if flag is not None:
        code = f"import os, sys; {code}; sys.exit(1 if os.path.exists({str(flag)!r}) else 0)"
    return shlex.join((sys.executable, "-c", code))


def _deliver_from_sub(w: World, test: str, tmp_path: Path) -> Path:
    """A writer adds ``sub/data.txt``; its test runs in ``sub/`` (``receipt run --cwd``),
    spot-checked there, committed, pushed with its note; a fresh CI clone with the notes."""
    w.write("sub/data.txt", "7\n")
    w.write("sub/d.py", "SEVEN = 7\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    ran = w.gh("receipt", "run", "--cwd", str(w.work / "sub"), "--staged", "--", *shlex.split(test))
    assert ran.code == 0, ran
    assert w.gh("spot-check", "--staged").code == 0
    w.ok("commit", "-q", "-m", "writer change")
    w.ok("push", "-q", "origin", "HEAD")
    assert w.gh("sync", "push").code == 0
    ci = tmp_path / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=tmp_path)
    w.ok("fetch", "-q", "origin", f"+{NOTES}:{NOTES}", cwd=ci)
    return ci


def _note(w: World, ci: Path) -> list[dict[str, object]]:
    return [
        json.loads(x) for x in w.ok("notes", f"--ref={NOTES}", "show", "HEAD", cwd=ci).splitlines()
    ]


def _rewrite_note(w: World, ci: Path, cwd: object) -> None:
    """The note's receipt and spot-check lines with ``cwd`` set to ``cwd``, as a careless
    or malicious hand would write them."""
    lines = []
    for line in _note(w, ci):
        if line["kind"] in ("receipt", "spot_check"):
            line = {**line, "cwd": cwd}
        lines.append(json.dumps(line, sort_keys=True, separators=(",", ":")))
    w.ok("notes", f"--ref={NOTES}", "add", "-f", "-m", "\n".join(lines), "HEAD", cwd=ci)


def test_ci_reruns_a_receipt_in_the_directory_it_ran_in(native: World, tmp_path: Path) -> None:
    w = native
    test = _test()
    ci = _deliver_from_sub(w, test, tmp_path)
    where = {str(x["kind"]): x.get("cwd") for x in _note(w, ci)}
    assert where["receipt"] == "sub" and where["spot_check"] == "sub", where
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 0, gate
    assert f"re-run agrees: {test!r} in 'sub' exit 0" in gate.out, gate
    assert "refuted" not in gate.out + gate.err


def test_a_false_claim_in_a_subdirectory_is_still_refuted_there(
    native: World, tmp_path: Path
) -> None:
    w = native
    flag = tmp_path / "in-ci"
    test = _test(flag)
    ci = _deliver_from_sub(w, test, tmp_path)
    flag.write_text("", encoding="utf-8")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate
    assert f"refuted by re-run: {test!r} in 'sub' exit 1 (claimed exit 0)" in gate.out, gate


def test_a_directory_the_commit_does_not_hold_counts_for_nothing(
    native: World, tmp_path: Path
) -> None:
    w = native
    test = _test()
    ci = _deliver_from_sub(w, test, tmp_path)
    _rewrite_note(w, ci, "gone")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate
    assert (
        f"not re-run, not counted: {test!r} ran in 'gone', a directory this commit's tree does "
        "not hold, so its re-run would test nothing the commit holds"
    ) in gate.out, gate
    assert "no claimed spot check could be re-verified: blocked" in gate.out, gate
    assert "refuted" not in gate.out


def test_a_directory_escaping_the_top_makes_the_lines_count_for_nothing(
    native: World, tmp_path: Path
) -> None:
    w = native
    ci = _deliver_from_sub(w, _test(), tmp_path)
    _rewrite_note(w, ci, "../sub")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate  # fails closed: no spot check counts
    assert "Traceback" not in gate.err
    assert (
        "receipt: cwd must be a directory relative to the repository top ('/'-separated, no "
        "empty, '.' or '..' part), not \"../sub\""
    ) in gate.out, gate
    assert "re-run agrees" not in gate.out


def test_a_declared_command_reported_in_a_subdirectory_reruns_at_the_top(
    native: World, tmp_path: Path
) -> None:
    """The base declares the command (``verification.commands``: run at the top). A report
    of it from ``sub/`` does not make CI re-run less than the declared command: it re-runs
    at the top, and says so."""
    w = native
    test = _test()
    w.write("data.txt", "7\n")
    w.write(".gentle-hooks.toml", f"[verification]\ncommands = {json.dumps([test])}\n")
    w.ok("add", "data.txt", ".gentle-hooks.toml")
    w.ok("commit", "-q", "-m", "config")
    w.ok("push", "-q", "origin", "main")
    ci = _deliver_from_sub(w, test, tmp_path)
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 0, gate
    assert (
        f"re-run agrees: {test!r} at the repository top, where the base's verification.commands "
        "run (its report ran in 'sub') exit 0"
    ) in gate.out, gate


def test_what_the_commit_defines_is_judged_in_the_directory_the_command_runs_in(
    native: World,
) -> None:
    """A note claims ``sh check.sh`` ran in ``sub/``, where the commit adds ``check.sh``:
    its re-run there would be the change's own word (row C1-own), so it is neither run nor
    counted; at the top no ``check.sh`` exists, so judging it there would let it count."""
    from gentle_hooks.values.candidate import candidate_identity

    w = native
    w.write("sub/check.sh", "exit 0\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer change")
    head, tree, base = (w.rev(x) for x in ("HEAD", "HEAD^{tree}", "HEAD~1^{tree}"))
    ident = candidate_identity(base, tree)
    ran = {"identity": ident, "command": "sh check.sh", "cwd": "sub"}
    lines = [
        {"kind": "candidate", "commit": head, "identity": ident, "base_tree": base, "tree": tree},
        {"kind": "writer", "model": "o4-mini", "effort": "low"},
        {"kind": "receipt", **ran, "observed": "ok", "exit_code": 0},
        {"kind": "spot_check", **ran, "check": "rerun", "reported_exit": 0, "observed_exit": 0}
        | {"agreed": True, "counts": True},
    ]
    body = "\n".join(json.dumps({"v": 1, **x}, sort_keys=True) for x in lines)
    w.ok("notes", f"--ref={NOTES}", "add", "-f", "-m", body, "HEAD")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify")
    assert gate.code == 1, gate
    assert (
        "not re-run, not counted: 'sh check.sh' runs what the commit itself defines "
        "(sub/check.sh), so its re-run would be the change's own word"
    ) in gate.out, gate
