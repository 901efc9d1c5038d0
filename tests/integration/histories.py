"""Generated histories for the range gate's differential test (``test_gate_range_golden``).

``build(seed, path)`` makes one deterministic repository with ``git fast-import``: a base
commit tagged ``base`` (sometimes with a ``.gentle-hooks.toml``), then a range on
``refs/heads/work`` mixing delegated commits whose notes pass, block, are stale, forged or
carry overrides; commits with an agent trailer and no note; human commits; side branches
merged back; renames, deletions, documents, process calls, shell scripts and hot paths.
Notes are written to ``refs/notes/gentle-hooks`` (sometimes partly to a remote's notes ref).
Dates, names and note timestamps are fixed, so the same seed gives the same object ids.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from gentle_hooks.values.candidate import candidate_identity

_WHO = "Dev Person <dev@example.com>"
_TRAILERS = (
    "Co-authored-by: Claude <noreply@anthropic.com>",
    "Co-authored-by: Copilot <copilot@github.com>",
    "Generated-by: codex",
)
_CONFIGS = (
    None,
    None,
    'gate.applies_to = "all"\n',
    "[gate]\nhonour_overrides = true\n",
    '[verification]\ncommands = ["pytest"]\n',
    '[risk]\nprocess_patterns = ["\\\\bos\\\\.system"]\n',
)
_KINDS = (
    "ok",
    "ok",
    "ok",
    "ok_cumulative",
    "no_spot",
    "failed_receipt",
    "stale",
    "forged_base",
    "bad_identity",
    "override",
    "escalation",
    "two_candidates",
    "trailer",
    "human",
    "human",
    "merge",
    "readback",
    "root_base",
    "stray_base",
)


def _data(text: bytes) -> bytes:
    return b"data %d\n" % len(text) + text + b"\n"


def _line(obj: dict[str, object]) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.stream: list[bytes] = []
        self.mark = 0
        self.when = 1_700_000_000
        self.meta: dict[int, tuple[str, str]] = {}  # mark -> (kind, candidate base)

    def commit(
        self,
        ref: str,
        files: dict[str, bytes],
        message: str,
        parents: list[int],
        kind: str,
        base: str = "parent",
    ) -> int:
        self.mark += 1
        self.when += 60
        out = [b"commit %s\n" % ref.encode(), b"mark :%d\n" % self.mark]
        out.append(b"author %s %d +0000\n" % (_WHO.encode(), self.when))
        out.append(b"committer %s %d +0000\n" % (_WHO.encode(), self.when))
        out.append(_data(message.encode()))
        if parents:
            out.append(b"from :%d\n" % parents[0])
        for p in parents[1:]:
            out.append(b"merge :%d\n" % p)
        out.append(b"deleteall\n")
        for path, content in sorted(files.items()):
            mode = b"100755" if path.endswith(".sh") else b"100644"
            out.append(b"M %s inline %s\n" % (mode, path.encode()))
            out.append(_data(content))
        self.stream.append(b"".join(out))
        self.meta[self.mark] = (kind, base)
        return self.mark

    def change(self, files: dict[str, bytes], n: int) -> dict[str, bytes]:
        """A changed copy of ``files``: one of several kinds of edit."""
        out = dict(files)
        rng = self.rng
        what = rng.choice(
            ["edit", "edit", "add", "add", "rename", "delete", "doc", "proc", "shell", "hot", "bin"]
        )
        code = sorted(p for p in out if p.endswith(".py"))
        if what == "edit" and code:
            p = rng.choice(code)
            out[p] = out[p] + f"\ndef f{n}():\n    return {n}\n".encode()
        elif what == "rename" and len(code) > 1:
            p = rng.choice(code)
            out[f"src/moved_{n}.py"] = out.pop(p)
        elif what == "delete" and len(code) > 2:
            out.pop(rng.choice(code))
        elif what == "doc":
            out["docs/guide.md"] = out.get("docs/guide.md", b"# guide\n") + f"step {n}\n".encode()
        elif what == "proc":
            out[f"src/run_{n}.py"] = (
                b"import subprocess\n\n\ndef go():\n    subprocess.run(['ls', '-l'])\n"
            )
        elif what == "shell":
            out[f"scripts/s{n}.sh"] = f"#!/bin/sh\necho {n}\n".encode()
        elif what == "hot":
            out[f"src/auth/login_{n}.py"] = f"TOKEN = {n}\n".encode()
        elif what == "bin":
            out[f"assets/b{n}.bin"] = bytes(range(256)) * 4 + bytes([n % 256])
        else:
            out[f"src/new_{n}.py"] = f"VALUE = {n}\n".encode() * rng.randint(1, 30)
        return out


def build(seed: int, path: Path) -> str:
    """Build history ``seed`` at ``path`` (a new repository); return the range to judge."""
    rng = random.Random(seed)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    b = _Builder(rng)
    files: dict[str, bytes] = {
        "README.md": b"# project\n",
        "app.py": b"def f():\n    return 1\n",
        "src/util.py": b"def util():\n    return 0\n",
        "src/other.py": b"X = 1\n",
        "docs/guide.md": b"# guide\n",
    }
    config = _CONFIGS[seed % len(_CONFIGS)]
    if config is not None:
        files[".gentle-hooks.toml"] = config.encode()
    root = b.commit("refs/heads/main", files, "initial\n", [], "base")
    base_files = b.change(files, 0)
    base = b.commit("refs/heads/main", base_files, "second\n", [root], "base")
    b.stream.append(b"reset refs/tags/base\nfrom :%d\n" % base)
    stray = b.commit("refs/heads/stray", b.change(base_files, 99), "stray\n", [base], "base")
    tip, state = base, base_files
    count = rng.randint(1, 12)
    for n in range(1, count + 1):
        kind = rng.choice(_KINDS)
        if kind == "merge":
            side = b.change(state, 100 + n)
            side_kind = rng.choice(["ok", "human", "no_spot", "trailer"])
            s = b.commit(f"refs/heads/side{n}", side, _message(rng, side_kind, n), [tip], side_kind)
            own = b.change(state, 200 + n)
            t = b.commit("refs/heads/work", own, _message(rng, "human", n), [tip], "human")
            merged = dict(own)  # the side's changes applied on ours (the side wins)
            for k in set(side) | set(state):
                if side.get(k) != state.get(k):
                    if k in side:
                        merged[k] = side[k]
                    else:
                        merged.pop(k, None)
            mkind = rng.choice(["human", "ok", "trailer"])
            tip = b.commit("refs/heads/work", merged, f"merge side{n}\n", [t, s], mkind)
            state = merged
            continue
        state = b.change(state, n)
        base_of = {"ok_cumulative": "cumulative", "root_base": "root", "stray_base": "stray"}
        base_of = base_of.get(kind, "parent")
        tip = b.commit("refs/heads/work", state, _message(rng, kind, n), [tip], kind, base_of)
    marks = path / "marks"
    stream = b"".join(b.stream) + b"done\n"
    subprocess.run(
        ["git", "fast-import", "--quiet", "--done", f"--export-marks={marks}"],
        cwd=path,
        input=stream,
        check=True,
    )
    ids = dict(line.split() for line in marks.read_text().splitlines())
    commits = {int(m[1:]): c for m, c in ids.items()}
    log = subprocess.run(
        ["git", "log", "--all", "--format=%H %T %P"], cwd=path, capture_output=True, check=True
    ).stdout.decode()
    trees: dict[str, str] = {}
    parents: dict[str, list[str]] = {}
    for line in log.splitlines():
        c, t, *ps = line.split()
        trees[c], parents[c] = t, ps
    base_tree = trees[commits[base]]
    notes: dict[str, list[str]] = {}
    remote: dict[str, list[str]] = {}
    for mark, (kind, base_of) in b.meta.items():
        c = commits[mark]
        if kind in ("base", "human", "trailer"):
            continue
        parent_tree = trees[parents[c][0]] if parents[c] else base_tree
        cand_base = {
            "cumulative": base_tree,
            "root": trees[commits[root]],
            "stray": trees[commits[stray]],
        }.get(base_of, parent_tree)
        lines = _note(rng, kind, c, trees[c], cand_base)
        (remote if seed % 5 == 0 and rng.random() < 0.5 else notes)[c] = lines
    _write_notes(path, "refs/notes/gentle-hooks", notes)
    if remote:
        _write_notes(path, "refs/notes/remotes/origin/gentle-hooks", remote)
    subprocess.run(["git", "checkout", "-q", "work"], cwd=path, check=True)
    return "base..work"


def _message(rng: random.Random, kind: str, n: int) -> str:
    text = f"change {n}\n"
    if kind == "trailer" or (kind != "human" and rng.random() < 0.3):
        text += "\n" + rng.choice(_TRAILERS) + "\n"
    return text


def _note(rng: random.Random, kind: str, commit: str, tree: str, base_tree: str) -> list[str]:
    identity = candidate_identity(base_tree, tree)
    cand_tree = tree
    if kind == "stale":
        cand_tree = "1" * 40
        identity = candidate_identity(base_tree, cand_tree)
    if kind == "forged_base":
        base_tree = "2" * 40
        identity = candidate_identity(base_tree, tree)
    if kind == "bad_identity":
        identity = "sha256:" + "3" * 64
    lines = [
        _line({"kind": "writer", "v": 1, "model": "o4-mini", "effort": "low", "source": None}),
        _line(
            {
                "kind": "candidate",
                "v": 1,
                "commit": commit,
                "identity": identity,
                "base_tree": base_tree,
                "tree": cand_tree,
            }
        ),
    ]
    code = 1 if kind == "failed_receipt" else 0
    receipt = {
        "kind": "receipt",
        "v": 1,
        "identity": identity,
        "command": "pytest",
        "observed": f"exit {code}",
        "exit_code": code,
        "output_digest": "sha256:" + "4" * 64,
        "recorded_at": 1700000000.5,
    }
    lines.append(_line(receipt))
    if kind != "no_spot":
        check = "readback" if kind == "readback" else "rerun"
        lines.append(
            _line(
                {
                    "kind": "spot_check",
                    "v": 1,
                    "identity": identity,
                    "check": check,
                    "command": "pytest",
                    "reported_exit": code,
                    "observed_exit": None if check == "readback" else code,
                    "agreed": True,
                    "counts": True,
                    "recorded_at": 1700000001.5,
                }
            )
        )
    if kind == "override":
        lines.append(
            _line(
                {
                    "kind": "override",
                    "v": 1,
                    "identity": identity,
                    "hook": "pre-push",
                    "who": "Dev Person",
                    "reason": "hotfix",
                    "missing": ["spot check"],
                }
            )
        )
    if kind == "escalation":
        lines.append(
            _line(
                {
                    "kind": "escalation",
                    "v": 1,
                    "item": rng.randint(1, 6),
                    "slug": "auth",
                    "reason": "touches login",
                    "critical": rng.random() < 0.5,
                }
            )
        )
    if kind == "two_candidates":
        other = "sha256:" + "5" * 64
        lines.append(
            _line(
                {
                    "kind": "candidate",
                    "v": 1,
                    "commit": commit,
                    "identity": other,
                    "base_tree": "6" * 40,
                    "tree": tree,
                }
            )
        )
        lines.append("{not json")
    return lines


def _write_notes(path: Path, ref: str, notes: dict[str, list[str]]) -> None:
    out = [b"commit %s\n" % ref.encode(), b"committer %s 1700000000 +0000\n" % _WHO.encode()]
    out.append(_data(b"notes\n"))
    for commit, lines in sorted(notes.items()):
        out.append(b"N inline %s\n" % commit.encode())
        out.append(_data(("\n".join(lines) + "\n").encode()))
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=path, input=b"".join(out) + b"done\n", check=True
    )
