"""A CLI fuzzer for the exit-code contract (docs/robustness.md "Fuzzing").

Generated hostile inputs from a dozen input families are fed to the real ``gentle-hook``
(``python -m gentle_hooks``) in real repositories, and every run is checked: never exit 3,
never a traceback, never a hang (30 s), exit 2 is exactly one line on stderr, output is
UTF-8, and ``--json`` that exits 0 is JSON a strict parser accepts.

``tests/integration/test_cli_fuzz.py`` runs it for about a minute on every test run;
maintainers run it longer: ``python -m tests.fuzz --minutes 30 [--seed N]``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from tests.hostile_fields import NOTE_FIELDS, PAYLOAD_FIELDS, VERDICT_FIELDS

#: Longest a single run may take before it counts as a hang.
RUN_SECONDS = 30.0


@dataclass
class Case:
    """One generated run: the family, argv after ``gentle-hook``, stdin, extra env."""

    family: str
    args: list[str]
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)
    json_out: bool = False
    cwd: Path | None = None  # default: the shared repository


@dataclass
class Finding:
    """A run that broke the contract, with what it did."""

    case: Case
    problem: str
    stderr: str

    def __str__(self) -> str:
        return (
            f"[{self.case.family}] {self.problem}: gentle-hook {self.case.args!r} "
            f"stdin={self.case.stdin[:120]!r} env={self.case.env!r}\n  {self.stderr[-600:]}"
        )


# --- generators of hostile material ----------------------------------------------------------


#: Pieces the quorum rules read (quotes, paths, file:line, backticks, failure words, a
#: separator): strung together into long texts, they make every rule's matching work.
TOKEN_PIECES = [
    "\u201cx\u201d ",
    "\u2018y\u2019 ",
    '"z" ',
    "`ls -la` ",
    "src/a/b.py:12 ",
    "./x/y/z ",
    "pool.js ",
    "failed to open ",
    "but ",
    "; ",
    "\u2028",
    "a" * 600 + " ",
    "/" * 300,
]


def long_tokens(r: random.Random) -> str:
    """Up to 4,096 characters of the pieces the quorum rules match on, many times each: a
    rule whose cost grows with the square of its input shows here."""
    text = "".join(r.choice(TOKEN_PIECES) for _ in range(r.randrange(50, 1500)))
    return text[: r.choice([512, 4096])]


def hostile_text(r: random.Random) -> str:
    pick = r.randrange(10)
    if pick == 9:
        return long_tokens(r)
    if pick == 0:
        return ""
    if pick == 1:
        return os.fsdecode(
            bytes(r.randrange(256) for _ in range(r.randrange(1, 12))).replace(b"\0", b"")
        )
    if pick == 2:
        return "x" * r.choice([255, 4096, 70_000])
    if pick == 3:
        return r.choice(["-", "--", "-x", "--help", "@{-1}", "HEAD~999", "..", "a..b", "~", "^{}"])
    if pick == 4:
        return "".join(chr(r.randrange(1, 0x3000)) for _ in range(r.randrange(1, 20)))
    if pick == 5:
        return r.choice(["\n", "a\nb", "\t", "\x1b[31mred", "\u202e", "é", "\ufeff"])
    if pick == 6:
        return str(r.choice([0, -1, 2**64, 10**300]))
    return "".join(r.choice("abcdefgh/._-") for _ in range(r.randrange(1, 30)))


def json_value(r: random.Random, depth: int = 0) -> object:
    pick = r.randrange(10 if depth < 4 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return r.choice([True, False])
    if pick == 2:
        return r.choice([0, -1, 1.5, 2**63, 10**300, 1e308])
    if pick in (3, 4, 5):
        return hostile_text(r)
    if pick in (6, 7):
        return [json_value(r, depth + 1) for _ in range(r.randrange(4))]
    return {hostile_text(r)[:20]: json_value(r, depth + 1) for _ in range(r.randrange(4))}


def hostile_document(r: random.Random, fields: list[str]) -> bytes:
    """A JSON-shaped document under the parser's own field names, or hostile bytes."""
    pick = r.randrange(8)
    if pick == 0:
        n = r.choice([100, 5_000, 200_000])
        return b"[" * n + b"]" * n
    if pick == 1:
        return b'{"a": ' + b"9" * r.choice([4301, 10_000]) + b"}"
    if pick == 2:
        return bytes(r.randrange(256) for _ in range(r.randrange(200)))
    doc = {r.choice(fields): json_value(r) for _ in range(r.randrange(1, 8))}
    text = json.dumps(doc if pick != 3 else [doc, doc], ensure_ascii=r.random() < 0.5)
    return text.encode("utf-8", "surrogateescape" if r.random() < 0.5 else "surrogatepass")


# --- the families ------------------------------------------------------------------------------

TOML_LINES = [
    "mode = ",
    "stakes = ",
    "base_ref = ",
    "[gate]",
    "applies_to = ",
    "[native]",
    "timeout = ",
    "[risk]",
    "process_patterns = ",
    "[verification]",
    "commands = ",
]


class Families:
    """Case generators, each over one input family, sharing prepared repositories."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.repo = work / "repo"
        self.config_repo = work / "config-repo"  # its config file would end other families
        self.files = work / "files"
        self.files.mkdir()

    def file(self, r: random.Random, data: bytes) -> str:
        path = self.files / f"in-{r.randrange(10**9)}.json"
        path.write_bytes(data)
        return str(path)

    def agent_payload(self, r: random.Random) -> Case:
        runtime = r.choice(["claude-code", "codex", "gemini-cli", "cursor", "copilot"])
        doc = hostile_document(r, PAYLOAD_FIELDS)
        return Case("agent payload", ["record", "--from", runtime], stdin=doc)

    def quorum_file(self, r: random.Random) -> Case:
        path = self.file(r, hostile_document(r, VERDICT_FIELDS))
        claim = long_tokens(r) if r.random() < 0.3 else "c"
        return Case(
            "quorum file", ["quorum", "tally", "--claim", claim, "--json", path], json_out=True
        )

    def brief_file(self, r: random.Random) -> Case:
        return Case(
            "brief file", ["brief", "check", self.file(r, hostile_document(r, VERDICT_FIELDS))]
        )

    def verdict_file(self, r: random.Random) -> Case:
        data = hostile_document(r, VERDICT_FIELDS)
        return Case("verdict file", ["verdict", "add", "--json", "-"], stdin=data, json_out=True)

    def config_file(self, r: random.Random) -> Case:
        lines = [r.choice(TOML_LINES) + json.dumps(json_value(r)) for _ in range(r.randrange(1, 5))]
        data = "\n".join(lines).encode("utf-8", "surrogateescape")
        if r.random() < 0.2:
            data = hostile_document(r, ["mode"])
        (self.config_repo / ".gentle-hooks.toml").write_bytes(data)
        return Case("config file", ["assess", "--json"], json_out=True, cwd=self.config_repo)

    def environment(self, r: random.Random) -> Case:
        name = r.choice(
            [
                "GENTLE_HOOKS_BASE_REF",
                "GENTLE_HOOKS_MODE",
                "GENTLE_HOOKS_STAKES",
                "GENTLE_HOOKS_NATIVE_TIMEOUT",
                "GENTLE_WRITER_MODEL",
                "GENTLE_RDD",
                "GENTLE_HOOKS_SKIP",
                "GENTLE_HOOKS_NATIVE",
            ]
        )
        value = hostile_text(r).replace("\0", "")
        return Case("environment", ["status", "--json"], env={name: value}, json_out=True)

    def pre_push(self, r: random.Random) -> Case:
        lines = []
        for _ in range(r.randrange(1, 4)):
            oid = r.choice(["0" * 40, "f" * 40, "a" * 64, hostile_text(r)[:50]])
            remote = r.choice(["0" * 40, oid])
            lines.append(f"refs/heads/{hostile_text(r)[:20]} {oid} refs/heads/main {remote}")
        stdin = "\n".join(lines).encode("utf-8", "surrogateescape")
        return Case(
            "pre-push lines", ["hook", "pre-push", "origin", "file:///nowhere"], stdin=stdin
        )

    def note_lines(self, r: random.Random) -> Case:
        body = b"\n".join(hostile_document(r, NOTE_FIELDS) for _ in range(r.randrange(1, 4)))
        path = self.file(r, body)
        subprocess.run(
            ["git", "notes", "--ref=refs/notes/gentle-hooks", "add", "-f", "-F", path, "HEAD"],
            cwd=self.repo,
            capture_output=True,
            check=False,
        )
        return Case("note lines", ["gate", "--range", "HEAD~1..HEAD", "--json"], json_out=True)

    def argv_path(self, r: random.Random) -> Case:
        name = os.fsdecode(
            bytes(r.randrange(1, 256) for _ in range(r.randrange(1, 10))).replace(b"/", b"_")
        )
        args = ["record", "--model", "m", "--effort", "low", "--json", name]
        return Case("argv path", args, json_out=True)

    def receipt_text(self, r: random.Random) -> Case:
        text = hostile_text(r)
        return Case(
            "receipt text", ["receipt", "add", "--exit-code", str(r.choice([0, 1, -1, 999])), text]
        )

    def escalation(self, r: random.Random) -> Case:
        item = r.choice(["1", "6", "7", "security", hostile_text(r)])
        return Case("escalation", ["escalate", "--item", item, "--reason", hostile_text(r)])

    def base_ref(self, r: random.Random) -> Case:
        return Case(
            "base ref flag", ["assess", "--json", "--base-ref", hostile_text(r)], json_out=True
        )

    def all(self) -> list[Callable[[random.Random], Case]]:
        return [
            self.agent_payload,
            self.quorum_file,
            self.brief_file,
            self.verdict_file,
            self.config_file,
            self.environment,
            self.pre_push,
            self.note_lines,
            self.argv_path,
            self.receipt_text,
            self.escalation,
            self.base_ref,
        ]


# --- running ----------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True)


def prepare(work: Path) -> Families:
    """A repository with two commits and a pending writer change."""
    fam = Families(work)
    repo = fam.repo
    _git(work, "init", "-q", str(repo))
    (repo / "app.py").write_text("def f():\n    return 1\n")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=f", "-c", "user.email=f@x", "commit", "-q", "-m", "one")
    (repo / "app.py").write_text("def f():\n    return 2\n")
    _git(repo, "-c", "user.name=f", "-c", "user.email=f@x", "commit", "-qam", "two")
    (repo / "app.py").write_text("def f():\n    return 3\n")
    _git(work, "clone", "-q", str(repo), str(fam.config_repo))
    return fam


def run_bounded(
    args: Sequence[str],
    cwd: Path,
    stdin: bytes | BinaryIO = b"",
    env: Mapping[bytes, bytes] | Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``gentle-hook ARGS`` (this interpreter's package) run in ``cwd`` with ``stdin`` (bytes,
    or an open file such as ``/dev/zero``) and ``env`` (None: this process's), its output
    captured; at most :data:`RUN_SECONDS`.

    Raises:
        subprocess.TimeoutExpired: it ran longer (a hang: the contract's worst break).
    """
    data, stream = (stdin, None) if isinstance(stdin, bytes) else (None, stdin)
    return subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args],
        cwd=cwd,
        input=data,
        stdin=stream,  # run() refuses a stdin beside an input: one of them is None
        capture_output=True,
        env=env,
        timeout=RUN_SECONDS,
        check=False,
    )


def check(case: Case, cwd: Path) -> Finding | None:
    """Run one case; the contract it broke, or None."""
    try:
        proc = run_bounded(case.args, cwd, case.stdin, {**os.environ, **case.env})
    except subprocess.TimeoutExpired:
        return Finding(case, f"hang (> {RUN_SECONDS:.0f} s)", "")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode == 3 or "unexpected error" in err:  # a hook's exit 3 is mapped to 1
        return Finding(case, "exit 3", err)
    if "Traceback" in err:
        return Finding(case, "traceback", err)
    if proc.returncode == 2 and len(err.strip().splitlines()) != 1:
        return Finding(case, "exit 2 without exactly one line", err)
    try:
        out = proc.stdout.decode("utf-8")
        proc.stderr.decode("utf-8")
    except UnicodeDecodeError:
        return Finding(case, "output is not UTF-8", err)
    if case.json_out and proc.returncode == 0 and out.strip():
        try:
            _strict(json.loads(out))
        except (ValueError, UnicodeEncodeError) as exc:
            return Finding(case, f"--json is not strict JSON ({exc})", err)
    return None


def _strict(value: object) -> None:
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, list):
        for v in value:
            _strict(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strict(k)
            _strict(v)


def run(seconds: float, seed: int) -> tuple[int, dict[str, int], list[Finding]]:
    """Fuzz for about ``seconds`` with the inputs ``seed`` generates: (cases run, cases per
    family, findings)."""
    r = random.Random(seed)
    findings: list[Finding] = []
    per_family: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="gentle-fuzz-") as tmp:
        fam = prepare(Path(tmp))
        makers = fam.all()
        deadline = time.monotonic() + seconds
        n = 0
        for maker in _cycle(makers, r):
            if time.monotonic() > deadline:
                break
            case = maker(r)
            per_family[case.family] = per_family.get(case.family, 0) + 1
            n += 1
            found = check(case, case.cwd or fam.repo)
            if found is not None:
                findings.append(found)
    return n, per_family, findings


def _cycle(
    makers: list[Callable[[random.Random], Case]], r: random.Random
) -> Iterator[Callable[[random.Random], Case]]:
    while True:
        order = list(makers)
        r.shuffle(order)
        yield from order
