"""Deterministic large-repository generator for benchmarks (``git fast-import``).

Builds, in one fast-import stream: a base commit of ``--files`` source files (default
30,000), a chain of ``--history`` one-file commits (history depth), then one commit per
pinned range size (1, 10, 100, 1,000, 10,000 changed files), tagged ``range-<k>-base`` and
``range-<k>``. Same arguments, same repository, byte for byte (fixed dates and identities).

Usage: python bench/fixture.py DEST [--files N] [--history N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator

RANGES = (1, 10, 100, 1000, 10000)
WHEN = 1_700_000_000


def path_of(i: int) -> str:
    """The i-th file's path: 100 files per directory, 100 directories per top folder."""
    return f"pkg{i // 10000:02d}/mod{(i // 100) % 100:02d}/file_{i:05d}.py"


def content(i: int, version: int, realistic: bool = False) -> bytes:
    """Deterministic ~20-line Python source for file i at a version. ``realistic``: every
    fifth file also calls a process, in lines no version changes (code as it is: the
    process-call scan must look, and finds no added call)."""
    lines = [f"# file {i} version {version}\n"]
    if realistic and i % 5 == 0:
        lines.append(f"import subprocess\n\n\ndef run_{i}():\n")
        lines.append(f'    return subprocess.run(["echo", "{i}"], check=False)\n\n\n')
    for j in range(20):
        lines.append(f"def f_{i}_{j}(x):\n    return x * {j + version} + {i % 97}\n")
    return "".join(lines).encode()


def stream(files: int, history: int, realistic: bool = False) -> Iterator[bytes]:
    """The fast-import stream (see module docstring)."""
    mark = 0
    when = WHEN

    def commit(msg: str, changes: list[tuple[int, int]], parent: int | None) -> Iterator[bytes]:
        nonlocal mark, when
        mark += 1
        when += 60
        msg_b = msg.encode()
        yield b"commit refs/heads/main\nmark :%d\n" % mark
        yield b"author Bench <bench@example.com> %d +0000\n" % when
        yield b"committer Bench <bench@example.com> %d +0000\n" % when
        yield b"data %d\n%s\n" % (len(msg_b), msg_b)
        if parent is not None:
            yield b"from :%d\n" % parent
        for idx, version in changes:
            data = content(idx, version, realistic)
            yield b"M 100644 inline %s\ndata %d\n%s\n" % (path_of(idx).encode(), len(data), data)

    yield from commit(f"base: {files} files", [(i, 0) for i in range(files)], None)
    version = 1
    for h in range(history):
        yield from commit(f"history {h}", [((h * 7919) % files, version + h)], mark)
    for k in RANGES:
        k_eff = min(k, files)
        yield (
            b"tag range-%d-base\nfrom :%d\ntagger Bench <bench@example.com> %d +0000\n"
            b"data 0\n" % (k, mark, when)
        )
        version += 100000
        step = max(1, files // k_eff)
        yield from commit(f"range {k}", [((j * step) % files, version) for j in range(k_eff)], mark)
        yield b"tag range-%d\nfrom :%d\ntagger Bench <bench@example.com> %d +0000\ndata 0\n" % (
            k,
            mark,
            when,
        )


def build(dest: str, files: int = 30000, history: int = 2000, realistic: bool = False) -> str:
    """Create the fixture repository at ``dest`` (must not exist); return its path
    (``realistic``: see :func:`content`)."""
    if os.path.exists(dest):
        raise SystemExit(f"{dest} exists; remove it or pick another path")
    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True)
    proc = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=dest, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    for chunk in stream(files, history, realistic):
        proc.stdin.write(chunk)
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "checkout", "-q", "main"], cwd=dest, check=True)
    return dest


#: Delegated commits of the range-gate fixture, and the ranges judged (tags ``gate-<k>``).
GATE_COMMITS = 1000
GATE_RANGES = (10, 100, 1000)


def build_gated(dest: str, files: int = 300, commits: int = GATE_COMMITS) -> None:
    """The range-gate fixture: ``files`` source files tagged ``gate-base``, then ``commits``
    delegated commits (each adds one file), each with a ``refs/notes/gentle-hooks`` note as
    a writer's clone writes it (writer, the candidate against ``gate-base``'s tree, a
    receipt and an agreeing spot check); ``gate-<k>`` tags the k-th commit."""
    from gentle_hooks.values.candidate import candidate_identity

    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True)
    who = "Bench Writer <writer@example.com>"
    out = [b"commit refs/heads/main\nmark :1\n"]
    out.append(f"committer {who} {WHEN} +0000\ndata 5\nbase\n".encode())
    for i in range(files):
        data = content(i, 0)
        out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path_of(i).encode(), len(data), data))
    out.append(b"reset refs/tags/gate-base\nfrom :1\n")
    for k in range(1, commits + 1):
        msg = f"delegated change {k}\n".encode()
        out.append(b"commit refs/heads/main\nmark :%d\n" % (k + 1))
        out.append(f"committer {who} {WHEN + k} +0000\n".encode())
        out.append(b"data %d\n%s" % (len(msg), msg))
        data = content(files + k, 0)
        out.append(b"M 100644 inline added/f%05d.py\ndata %d\n%s\n" % (k, len(data), data))
        if k in GATE_RANGES or k == commits:
            out.append(b"reset refs/tags/gate-%d\nfrom :%d\n" % (k, k + 1))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=dest, input=b"".join(out), check=True)
    log = subprocess.run(
        ["git", "log", "--format=%H %T", "gate-base..main"],
        cwd=dest,
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split("\n")
    base = subprocess.run(
        ["git", "rev-parse", "gate-base^{tree}"], cwd=dest, capture_output=True, text=True
    ).stdout.strip()
    notes = [f"commit refs/notes/gentle-hooks\ncommitter {who} {WHEN} +0000\n".encode()]
    notes.append(b"data 6\nnotes\n")
    for line in filter(None, log):
        commit, tree = line.split()
        identity = candidate_identity(base, tree)
        body = "".join(
            json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"
            for obj in (
                {"kind": "writer", "v": 1, "model": "o4-mini", "effort": "low", "source": None},
                {
                    "kind": "candidate",
                    "v": 1,
                    "commit": commit,
                    "identity": identity,
                    "base_tree": base,
                    "tree": tree,
                },
                {
                    "kind": "receipt",
                    "v": 1,
                    "identity": identity,
                    "command": "pytest",
                    "observed": "exit 0",
                    "exit_code": 0,
                    "output_digest": "sha256:" + "0" * 64,
                    "recorded_at": float(WHEN),
                },
                {
                    "kind": "spot_check",
                    "v": 1,
                    "identity": identity,
                    "check": "rerun",
                    "command": "pytest",
                    "reported_exit": 0,
                    "observed_exit": 0,
                    "agreed": True,
                    "counts": True,
                    "recorded_at": float(WHEN + 1),
                },
            )
        ).encode()
        notes.append(b"N inline %s\ndata %d\n%s\n" % (commit.encode(), len(body), body))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=dest, input=b"".join(notes), check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest")
    ap.add_argument("--files", type=int, default=30000)
    ap.add_argument("--history", type=int, default=2000)
    args = ap.parse_args(argv)
    build(args.dest, args.files, args.history)
    print(args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
