"""The server and CI gates verify instead of believe (SPEC §8): real pushes to a bare
remote with the pre-receive gate installed.

The notes ref is protected (no deletion, no rewind, every added line schema-checked);
poisoned lines give a rejection or exit 2, never 3.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import gh, git
from tests.integration import test_notes_gate as base
from tests.integration.test_notes_gate import clone, delegated_change, ok, run

server = base.server  # the bare server fixture

NOTES = "refs/notes/gentle-hooks"


def _server_notes(server: Path) -> str:
    return git(server, "rev-parse", NOTES).strip()


def _poison(repo: Path, commit: str, line: str) -> None:
    """Append a raw line to the commit's note, as a careless or malicious hand would."""
    git(repo, "notes", f"--ref={NOTES}", "append", "-m", line, commit)


def test_the_notes_ref_cannot_be_deleted(server: Path) -> None:
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    deleted = run(a, "git", "push", "origin", f":{NOTES}")
    assert deleted.returncode == 1, deleted.stderr
    assert f"remote: gentle-hooks: {NOTES}: deleting {NOTES} is refused" in deleted.stderr
    assert _server_notes(server) == before


def test_the_notes_ref_cannot_be_rewound_or_shrunk(server: Path) -> None:
    a = clone(server, "a")
    first = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    rewound = run(a, "git", "push", "-f", "origin", f"{before}~1:{NOTES}")
    assert rewound.returncode == 1
    assert "a non-fast-forward update of refs/notes/gentle-hooks is refused" in rewound.stderr
    assert "gentle-hook sync push" in rewound.stderr
    # a fast-forward that drops a commit's note is refused too
    git(a, "fetch", "-q", "origin", f"{NOTES}:{NOTES}")
    git(a, "notes", f"--ref={NOTES}", "remove", first)
    shrunk = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert shrunk.returncode == 1
    assert f"the note of {first[:12]} is removed: notes only grow" in shrunk.stderr
    assert _server_notes(server) == before


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"kind":"escalation","v":1,"item":2}', "escalation: slug is missing"),
        (
            '{"kind":"escalation","v":1,"item":2.0,"slug":"security","reason":"r"}',
            "escalation: item must be an integer 1..6, not 2.0",
        ),
        ("not json at all", "not JSON"),
        (
            '{"kind":"writes","v":1,"path":"src/app.py","blob":"HEAD"}',
            'writes: blob must be a lowercase hex object id, not "HEAD"',
        ),
        (
            '{"kind":"receipt","v":1,"identity":"i","command":"true","observed":"ok",'
            '"cwd":"../elsewhere"}',
            "receipt: cwd must be a directory relative to the repository top",
        ),
    ],
    ids=["slug-missing", "item-float", "not-json", "writes-blob-not-an-id", "cwd-escapes-top"],
)
def test_a_poisoned_line_is_rejected_naming_it_alone_or_with_a_branch(
    server: Path, line: str, why: str
) -> None:
    a = clone(server, "a")
    commit = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    _poison(a, commit, line)
    alone = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert alone.returncode == 1, alone.stderr
    assert f"note of {commit[:12]} line " in alone.stderr and why in alone.stderr
    assert "REJECTED refs/notes/gentle-hooks" in alone.stderr
    assert "Traceback" not in alone.stderr
    assert _server_notes(server) == before
    # with a branch in the same push: the whole push is refused
    nxt = delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    both = run(a, "git", "push", "origin", "main", f"{NOTES}:{NOTES}")
    assert both.returncode == 1 and why in both.stderr
    assert git(server, "rev-parse", "main").strip() != nxt
    # CI over the same notes: the line counts for nothing, named; exit 0..2, never 3
    gate = gh(a, "gate", "--range", "origin/main..HEAD", "--json")
    assert gate.returncode in (0, 1, 2), gate.stderr
    assert "Traceback" not in gate.stderr
    verdicts = json.loads(gate.stdout)["commits"]
    assert verdicts and all(not v["blocked"] for v in verdicts)
    whole = gh(a, "gate", "--range", "origin/main~1..HEAD")
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert "note line refused (counts for nothing): line " in whole.stdout
    assert why in whole.stdout


def test_an_explicit_refspec_push_carries_the_notes_to_the_server_and_ci(
    server: Path, tmp_path: Path
) -> None:
    a = clone(server, "a")
    git(a, "switch", "-q", "-c", "topic")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    pushed = run(a, "git", "push", "-u", "origin", "topic")
    assert pushed.returncode == 0, pushed.stderr
    assert f"remote: gentle-hooks: ok {verified[:12]} on refs/heads/topic" in pushed.stderr
    assert f"pushed {NOTES} to origin" in pushed.stderr
    assert git(server, "notes", f"--ref={NOTES}", "list", verified).strip()
    # a fresh CI clone, as docs/ci.md fetches it, with no extra command
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(server), str(ci))
    git(ci, "fetch", "-q", "origin", "+refs/notes/*:refs/notes/*")
    gate = gh(ci, "gate", "--range", "origin/main..origin/topic")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert f"ok {verified[:12]}" in gate.stdout


def test_pushing_the_notes_ref_alone_is_not_judged_as_code(server: Path) -> None:
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    (a / "app.py").write_text("def f():\n    return 4\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))  # writer work pending
    notes = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert notes.returncode == 0, notes.stderr
    assert f"{NOTES}: the gentle-hooks records themselves, not code" in notes.stderr
    assert "BLOCKED" not in notes.stderr


def test_doctor_finds_a_recorded_commit_without_its_note_and_sync_push_writes_it(
    server: Path,
) -> None:
    a = clone(server, "a")
    commit = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    git(a, "notes", f"--ref={NOTES}", "remove", commit)
    doctor = gh(a, "doctor")
    assert doctor.returncode == 2
    assert (
        f"FAIL  notes: 1 recorded commit(s) without a note (first {commit[:12]}); CI and the "
        "server would block them; write and share them; run: gentle-hook sync push"
    ) in doctor.stdout
    synced = gh(a, "sync", "push")
    assert synced.returncode == 0, synced.stderr
    assert synced.stdout.startswith("wrote 1 missing note(s); ")
    assert "ok    notes: every recorded commit has its note" in gh(a, "doctor").stdout
    assert git(server, "notes", f"--ref={NOTES}", "list", commit).strip()


def test_sync_push_adds_the_escalation_lines_a_note_lacks(server: Path) -> None:
    """A note written without the escalation its commit delivered (by an earlier version,
    or by hand): ``sync push`` merges the line in, so the server reads the same plan as the
    local gates and rejects the commit until a verifier ruled."""
    a = clone(server, "a")
    (a / "app.py").write_text("import os\n\ndef f(cmd):\n    return os.system(cmd)\n")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    ok(gh(a, "escalate", "--item", "security", "--reason", "shell exec"))
    ok(gh(a, "receipt", "run", "--", sys.executable, "-c", "print('tests ok')"))
    ok(gh(a, "spot-check"))
    git(a, "add", "-A")
    env = {"GENTLE_HOOKS_SKIP": "verifier later"}
    ok(run(a, "git", "commit", "-q", "-m", "escalated change", env=env))
    commit = git(a, "rev-parse", "HEAD").strip()
    note = git(a, "notes", f"--ref={NOTES}", "show", commit).splitlines()
    assert any('"kind":"escalation"' in line for line in note)
    without = "".join(f"{x}\n" for x in note if '"kind":"escalation"' not in x)
    ok(run(a, "git", "notes", f"--ref={NOTES}", "add", "-f", "-m", without, commit))
    synced = gh(a, "sync", "push")
    assert synced.returncode == 0, synced.stderr
    assert synced.stdout.startswith("added escalation lines to 1 note(s); "), synced.stdout
    shared = git(server, "notes", f"--ref={NOTES}", "show", commit)
    assert '"kind":"escalation"' in shared and '"slug":"security"' in shared
    pushed = run(a, "git", "push", "--no-verify", "origin", "main")
    assert pushed.returncode == 1, pushed.stderr
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]} on refs/heads/main" in pushed.stderr
    again = gh(a, "sync", "push")  # nothing lacks a line any more
    assert "added escalation lines" not in again.stdout, again.stdout


@pytest.mark.parametrize(
    ("author", "message"),
    [
        ("Claude Code <claude@anthropic.com>", "change f\n"),
        ("Jane <jane@example.com>", "change f\n\nAssisted-by: Gemini:gemini-2.5-pro\n"),
        ("Jane <jane@example.com>", "change f\n\n🤖 Generated with Claude Code\n"),
        (
            "Devin AI <158243242+devin-ai-integration[bot]@users.noreply.github.com>",
            "change f\n",
        ),
    ],
    ids=["claude-code-author", "assisted-by", "generated-without-link", "devin-author"],
)
def test_an_ai_commit_without_records_is_caught_by_its_markers(
    server: Path, author: str, message: str
) -> None:
    b = clone(server, "b")
    (b / "app.py").write_text("def f():\n    return 7\n", encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", f"--author={author}", "-m", message)
    commit = git(b, "rev-parse", "HEAD").strip()
    pushed = run(b, "git", "push", "--no-verify", "origin", "main")
    assert pushed.returncode == 1, pushed.stderr
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]} on refs/heads/main" in pushed.stderr


def _key(tmp: Path, name: str) -> tuple[Path, str]:
    """A fresh ed25519 key pair; returns the private key path and the allowed-signers line."""
    path = tmp / f"{name}_key"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True
    )
    public = (tmp / f"{name}_key.pub").read_text(encoding="utf-8").split()
    return path, f"{name}@example.com {public[0]} {public[1]}\n"


def _forge(repo: Path, commit: str, command: str = "false") -> None:
    """The hand-written lines of a careless or malicious collaborator: candidate, writer,
    receipt and an agreeing spot check of ``command``, no re-run ever made."""
    from gentle_hooks.values.candidate import candidate_identity

    tree = git(repo, "rev-parse", f"{commit}^{{tree}}").strip()
    base_tree = git(repo, "rev-parse", f"{commit}~1^{{tree}}").strip()
    ident = candidate_identity(base_tree, tree)
    lines: list[dict[str, object]] = [
        {"kind": "candidate", "commit": commit, "identity": ident, "base_tree": base_tree},
        {"kind": "writer", "model": "o4-mini", "effort": "low"},
        {
            "kind": "receipt",
            "identity": ident,
            "command": command,
            "observed": "ok",
            "exit_code": 0,
        },
        {
            "kind": "spot_check",
            "identity": ident,
            "check": "rerun",
            "command": command,
            "reported_exit": 0,
            "observed_exit": 0,
            "agreed": True,
            "counts": True,
        },
    ]
    lines[0]["tree"] = tree
    body = "\n".join(json.dumps({"v": 1, **x}, sort_keys=True) for x in lines) + "\n"
    git(repo, "notes", f"--ref={NOTES}", "append", "-m", body, commit)


def test_the_server_reads_the_declared_commands_from_the_pushed_ref_s_old_value(
    server: Path,
) -> None:
    """A push that declares its own ``verification.commands`` is judged by the ones the
    branch declared before it: a claim of the push's own command counts for nothing."""
    declared, own = "python3 -m pytest -q", "python3 -m pytest -q tests/test_app.py"
    a = clone(server, "a")
    (a / ".gentle-hooks.toml").write_text(
        f'[verification]\ncommands = ["{declared}"]\n', encoding="utf-8"
    )
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "declare the verification command")
    ok(run(a, "git", "push", "-q", "origin", "main"))
    # the writer's commit loosens the declaration to its own command and claims it
    (a / ".gentle-hooks.toml").write_text(
        f'[verification]\ncommands = ["{own}"]\n', encoding="utf-8"
    )
    (a / "app.py").write_text("def f():\n    return 3\n", encoding="utf-8")
    git(a, "add", "-A")
    git(a, "commit", "-q", "--no-verify", "-m", "writer: own command")
    loosened = git(a, "rev-parse", "HEAD").strip()
    _forge(a, loosened, own)
    refused = run(a, "git", "push", "--no-verify", "origin", "main", f"{NOTES}:{NOTES}")
    assert refused.returncode == 1, refused.stderr
    assert f"BLOCKED {loosened[:12]} on refs/heads/main" in refused.stderr
    # the same change claiming the command the branch declares is accepted
    git(a, "reset", "-q", "--hard", "HEAD~1")
    (a / "app.py").write_text("def f():\n    return 3\n", encoding="utf-8")
    git(a, "commit", "-q", "--no-verify", "-am", "writer: declared command")
    kept = git(a, "rev-parse", "HEAD").strip()
    _forge(a, kept, declared)
    pushed = run(a, "git", "push", "--no-verify", "origin", "main", f"{NOTES}:{NOTES}")
    assert pushed.returncode == 0, pushed.stderr
    assert f"ok {kept[:12]} on refs/heads/main" in pushed.stderr


def test_require_signed_counts_only_lines_an_allowed_signer_signed(
    server: Path, tmp_path: Path
) -> None:
    alice, alice_line = _key(tmp_path, "alice")
    mallory, _ = _key(tmp_path, "mallory")
    (server / "allowed_signers").write_text(alice_line, encoding="utf-8")
    git(server, "config", "gentle.requireSigned", "true")
    git(server, "config", "gentle.allowedSigners", "allowed_signers")

    a = clone(server, "a")
    git(a, "config", "gentle.signRecords", "true")
    git(a, "config", "user.signingKey", str(alice))
    signed = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    pushed = run(a, "git", "push")
    assert pushed.returncode == 0, pushed.stderr
    assert f"ok {signed[:12]} on refs/heads/main" in pushed.stderr
    assert "signature: spot check signed by alice@example.com" in pushed.stderr

    # forged, unsigned lines: refused under require_signed
    b = clone(server, "b")
    write_app = "def f():\n    return 3\n"
    (b / "app.py").write_text(write_app, encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "forged")
    forged = git(b, "rev-parse", "HEAD").strip()
    _forge(b, forged)
    refused = run(b, "git", "push", "--no-verify", "origin", "main", f"{NOTES}:{NOTES}")
    assert refused.returncode == 1, refused.stderr
    assert f"BLOCKED {forged[:12]} on refs/heads/main" in refused.stderr
    assert "1 spot-check/verdict/override line(s) not counted" in refused.stderr
    # the same lines signed with a key the server does not allow: still refused
    git(b, "config", "user.signingKey", str(mallory))
    git(b, "config", "gentle.signRecords", "true")
    from gentle_hooks.git.ssh import sign
    from gentle_hooks.notes.lines import decode, encode, signed_payload

    note = git(b, "notes", f"--ref={NOTES}", "show", forged)
    resigned = []
    for text in note.splitlines():
        line = decode(text)
        if line.KIND == "spot_check":
            line = type(line)(**{**line.__dict__, "sig": sign(str(mallory), signed_payload(line))})
        resigned.append(encode(line))
    git(b, "notes", f"--ref={NOTES}", "add", "-f", "-m", "\n".join(resigned) + "\n", forged)
    still = run(b, "git", "push", "--no-verify", "origin", "main", f"{NOTES}:{NOTES}")
    assert still.returncode == 1, still.stderr
    assert "not counted: not signed by an allowed signer" in still.stderr
    assert git(server, "rev-parse", "main").strip() == signed


def test_reverify_refutes_a_forged_claim_and_confirms_a_real_one(
    server: Path, tmp_path: Path
) -> None:
    a = clone(server, "a")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    b = clone(server, "b")
    (b / "app.py").write_text("def f():\n    return 3\n", encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "forged")
    forged = git(b, "rev-parse", "HEAD").strip()
    _forge(b, forged)  # claims 'false' succeeded
    believed = run(b, "git", "push", "--no-verify", "origin", "HEAD:refs/heads/forged", NOTES)
    assert believed.returncode == 0, believed.stderr  # without signatures the server believes

    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(server), str(ci))
    git(ci, "fetch", "-q", "origin", "+refs/notes/*:refs/notes/*")
    real = gh(ci, "gate", "--range", f"{verified}~1..{verified}", "--reverify", "--timeout", "60")
    assert real.returncode == 0, real.stdout + real.stderr
    assert "re-run agrees: " in real.stdout and "exit 0" in real.stdout
    assert gh(ci, "gate", "--range", "origin/main..origin/forged").returncode == 0
    refuted = gh(ci, "gate", "--range", "origin/main..origin/forged", "--reverify", "--json")
    assert refuted.returncode == 1, refuted.stdout + refuted.stderr
    commit = json.loads(refuted.stdout)["commits"][0]
    assert commit["commit"] == forged and commit["blocked"]
    assert commit["reverify"][0] == "refuted by re-run: 'false' exit 1 (claimed exit 0)"
    # no temporary checkout is left behind
    assert git(ci, "worktree", "list").count("\n") == 1


def test_reverify_times_out_and_never_runs_an_undeclared_command(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    slow = "python3 -c 'import time; time.sleep(30)'"
    (repo / ".gentle-hooks.toml").write_text(
        f'[verification]\ncommands = ["{slow}"]\n', encoding="utf-8"
    )
    (repo / "app.py").write_text("X = 1\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "app.py").write_text("X = 2\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "change")
    head = git(repo, "rev-parse", "HEAD").strip()
    _forge(repo, head, slow)
    _forge(repo, head, "touch /tmp/gentle-hooks-undeclared-ran && true")
    proc = gh(repo, "gate", "--range", "HEAD~1..HEAD", "--reverify", "--timeout", "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"refuted by re-run: {slow!r} timed out after 1s (exit 124) (claimed exit 0)" in (
        proc.stdout
    )
    assert (
        "not re-run, not counted: 'touch /tmp/gentle-hooks-undeclared-ran && true' is not one "
        "of the base's verification.commands"
    ) in proc.stdout
    assert not Path("/tmp/gentle-hooks-undeclared-ran").exists()


def test_a_spot_check_signed_with_a_flag_key_carries_its_signature(
    server: Path, tmp_path: Path
) -> None:
    key, line = _key(tmp_path, "parent")
    a = clone(server, "a")
    (a / "app.py").write_text("def f():\n    return 5\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    git(a, "add", "-A")
    git(a, "commit", "-q", "--no-verify", "-m", "delegated change")
    head = git(a, "rev-parse", "HEAD").strip()
    bad = gh(a, "spot-check", "--committed", "--sign-key", str(tmp_path / "missing"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "--sign-key " in bad.stderr and "no such file" in bad.stderr
    check = ("receipt", "run", "--committed", "--", sys.executable, "-c", "print('tests ok')")
    ok(gh(a, *check))
    ok(gh(a, "spot-check", "--committed", "--sign-key", str(key)))
    note = git(a, "notes", f"--ref={NOTES}", "show", head)
    spot = [json.loads(x) for x in note.splitlines() if '"spot_check"' in x]
    assert spot and "-----BEGIN SSH SIGNATURE-----" in spot[0]["sig"]
    from gentle_hooks.git.ssh import verify
    from gentle_hooks.notes.lines import decode, signed_payload

    decoded = decode(json.dumps(spot[0]))
    assert verify(line.encode(), spot[0]["sig"], signed_payload(decoded)) == "parent@example.com"


def test_ci_reads_the_allowed_signers_from_the_base_not_from_the_change(
    server: Path, tmp_path: Path
) -> None:
    alice, alice_line = _key(tmp_path, "alice")
    mallory, mallory_line = _key(tmp_path, "mallory")
    a = clone(server, "a")
    (a / ".gentle-hooks").mkdir()
    (a / ".gentle-hooks" / "allowed_signers").write_text(alice_line, encoding="utf-8")
    (a / ".gentle-hooks.toml").write_text(
        '[gate]\nrequire_signed = true\nallowed_signers = ".gentle-hooks/allowed_signers"\n',
        encoding="utf-8",
    )
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "trust alice")
    ok(run(a, "git", "push"))
    base_sha = git(a, "rev-parse", "HEAD").strip()
    git(a, "config", "gentle.signRecords", "true")
    git(a, "config", "user.signingKey", str(alice))
    signed = delegated_change(a, "def f():\n    return 2\n", spot_check=True)

    b = clone(server, "b")
    git(b, "config", "gentle.signRecords", "true")
    git(b, "config", "user.signingKey", str(mallory))
    # the change itself adds mallory as a signer: it must not count for itself
    with (b / ".gentle-hooks" / "allowed_signers").open("a", encoding="utf-8") as fh:
        fh.write(mallory_line)
    own = delegated_change(b, "def f():\n    return 3\n", spot_check=True)

    ok_gate = gh(a, "gate", "--range", f"{base_sha}..{signed}")
    assert ok_gate.returncode == 0, ok_gate.stdout + ok_gate.stderr
    assert "signature: spot check signed by alice@example.com" in ok_gate.stdout
    own_gate = gh(b, "gate", "--range", f"{base_sha}..{own}")
    assert own_gate.returncode == 1, own_gate.stdout + own_gate.stderr
    assert "not counted: not signed by an allowed signer" in own_gate.stdout


def test_a_verdict_signed_with_a_flag_key_needs_its_commit(server: Path, tmp_path: Path) -> None:
    """``verdict add --sign-key`` signs the verdict's line in a commit's note: before the
    commit it refuses (exit 2, nothing stored) naming the ``--committed`` command to run
    after it; that command, run as printed with the key named relative to the user's
    directory, signs the line."""
    from tests.conftest import PASSING_VERDICT

    _key(tmp_path, "verifier")
    a = clone(server, "a")
    (a / "app.py").write_text("def f():\n    return 6\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    cand = json.loads(gh(a, "assess", "--json").stdout)["candidate"]
    verdict = dict(PASSING_VERDICT)
    verdict["candidate"] = {
        "identity": cand["identity"],
        "baseTree": cand["base_tree"],
        "tree": cand["tree"],
    }
    (tmp_path / "v.json").write_text(json.dumps(verdict), encoding="utf-8")
    key = "../verifier_key"  # relative to the clone, where the user is
    refused = gh(a, "verdict", "add", "../v.json", "--sign-key", key)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "no commit has this candidate yet" in refused.stderr
    printed = refused.stderr.strip().rsplit("; run: ", 1)[1]
    assert printed == (
        f"gentle-hook verdict add --committed --sign-key {tmp_path / 'verifier_key'} ../v.json"
    )
    assert "verdict #" not in gh(a, "status").stdout
    git(a, "add", "-A")
    git(a, "commit", "-q", "--no-verify", "-m", "delegated change")
    done = subprocess.run(["sh", "-c", printed], cwd=a, capture_output=True, text=True)
    assert "verdict #1" in done.stdout, done.stdout + done.stderr
    note = git(a, "notes", f"--ref={NOTES}", "show", "HEAD")
    lines = [json.loads(x) for x in note.splitlines() if '"kind":"verdict"' in x]
    assert lines and "-----BEGIN SSH SIGNATURE-----" in lines[0]["sig"]


def test_the_ci_docs_sample_is_what_a_rejected_push_prints(server: Path) -> None:
    """docs/ci.md shows the pusher's screen of a rejected push: it is this output, the
    commit's ids written as 1a2b3c4d5e6f... (git's padding of remote lines left out)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "ci.md"
    text = docs.read_text(encoding="utf-8")
    after = text.split("on the pusher's screen:\n", 1)[1]
    sample = after.split("```\n", 2)[1].splitlines()
    b = clone(server, "b")
    (b / "app.py").write_text("def f():\n    return 7\n", encoding="utf-8")
    git(b, "add", "-A")
    message = "change\n\nCo-authored-by: Claude <noreply@anthropic.com>"
    git(b, "commit", "-q", "--no-verify", "-m", message)
    commit = git(b, "rev-parse", "HEAD").strip()
    pushed = run(b, "git", "push", "--no-verify", "origin", "main")
    assert pushed.returncode == 1, pushed.stderr
    shown = [
        ln.rstrip().replace(commit, FULL_ID).replace(commit[:12], FULL_ID[:12])
        for ln in pushed.stderr.splitlines()
        if ln.startswith("remote: gentle-hooks:")
    ]
    assert sample == shown


#: The commit id docs/ci.md's sample shows.
FULL_ID = "1a2b3c4d5e6f" + "0" * 28


def test_a_key_that_cannot_sign_is_refused_before_the_verdict_is_stored(
    server: Path, tmp_path: Path
) -> None:
    from tests.conftest import PASSING_VERDICT

    a = clone(server, "a")
    (a / "app.py").write_text("def f():\n    return 8\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    git(a, "add", "-A")
    git(a, "commit", "-q", "--no-verify", "-m", "delegated change")
    cand = json.loads(gh(a, "assess", "--json", "--committed-only").stdout)["candidate"]
    verdict = dict(PASSING_VERDICT)
    verdict["candidate"] = {
        "identity": cand["identity"],
        "baseTree": cand["base_tree"],
        "tree": cand["tree"],
    }
    (tmp_path / "v.json").write_text(json.dumps(verdict), encoding="utf-8")
    not_a_key = tmp_path / "not_a_key"
    not_a_key.write_text("this is no SSH key\n", encoding="utf-8")
    refused = gh(a, "verdict", "add", "--committed", "../v.json", "--sign-key", str(not_a_key))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert str(not_a_key) in refused.stderr and "Traceback" not in refused.stderr
    assert refused.stdout == ""  # nothing was recorded
    assert "verdict #" not in gh(a, "status", "--committed").stdout
    assert '"kind":"verdict"' not in run(a, "git", "notes", f"--ref={NOTES}", "show").stdout


def test_a_spot_check_with_a_key_before_any_commit_refuses_and_names_the_signing_run(
    server: Path, tmp_path: Path
) -> None:
    key, _ = _key(tmp_path, "parent")
    a = clone(server, "a")
    (a / "app.py").write_text("def f():\n    return 9\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    ok(gh(a, "receipt", "run", "--", sys.executable, "-c", "print('tests ok')"))
    refused = gh(a, "spot-check", "--sign-key", str(key))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "no commit has this candidate yet" in refused.stderr, refused.stderr
    assert "spot check #" not in gh(a, "status").stdout  # nothing re-run, nothing stored
    printed = refused.stderr.strip().rsplit("; run: ", 1)[1]
    assert printed == f"gentle-hook spot-check --committed --receipt 1 --sign-key {key}"
    git(a, "add", "-A")
    git(a, "commit", "-q", "--no-verify", "-m", "delegated change")
    done = subprocess.run(["sh", "-c", printed], cwd=a, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    note = git(a, "notes", f"--ref={NOTES}", "show", "HEAD")
    spot = [json.loads(x) for x in note.splitlines() if '"spot_check"' in x]
    assert spot and "-----BEGIN SSH SIGNATURE-----" in spot[0]["sig"]
