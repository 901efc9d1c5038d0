"""Helpers for integration tests: run assess, read git's own numstat for comparison."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.conftest import gh, git


def assess_json(cwd: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``gentle-hook assess --json ARGS`` and return the parsed envelope (rc must be 0)."""
    proc = gh(cwd, "assess", "--json", *args, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def git_numstat(
    cwd: Path, base: str, tree: str, renames: bool = True
) -> dict[str, tuple[int | None, int | None]]:
    """``git diff --numstat -z -M base tree`` (``--no-renames`` without ``renames``) parsed
    independently of the product's parser: path -> (additions, deletions), None for binary."""
    flag = "-M" if renames else "--no-renames"
    out = git(cwd, "diff", "--numstat", "-z", flag, base, tree).encode("utf-8", "surrogateescape")
    toks = out.split(b"\0")
    res: dict[str, tuple[int | None, int | None]] = {}
    i = 0
    while i < len(toks) and toks[i]:
        a, d, p = toks[i].split(b"\t", 2)
        if p == b"":
            p = toks[i + 2]
            i += 3
        else:
            i += 1
        res[os.fsdecode(p)] = (None if a == b"-" else int(a), None if d == b"-" else int(d))
    return res


def per_path(envelope: dict[str, Any]) -> dict[str, tuple[int | None, int | None]]:
    """The envelope's per-path counts in the same shape as :func:`git_numstat`."""
    return {c["path"]: (c["additions"], c["deletions"]) for c in envelope["changes"]}


def assert_matches_numstat(cwd: Path, envelope: dict[str, Any]) -> None:
    """Per-path counts agree with git's own numstat on the same trees; the native envelope's
    changed_paths and changed_lines with git's numstat without renames, as upstream counts
    them (binary files and upstream's generated golden files out)."""
    cand = envelope["candidate"]
    expected = git_numstat(cwd, cand["base_tree"], cand["tree"])
    assert per_path(envelope) == expected
    flat = git_numstat(cwd, cand["base_tree"], cand["tree"], renames=False)
    lines = sum(
        (a or 0) + (d or 0)
        for p, (a, d) in flat.items()
        if not ("/testdata/golden/" in "/" + p and p.endswith(".golden"))
    )
    native = envelope["native"]["assessment"]
    assert (native["changed_paths"], native["changed_lines"]) == (len(flat), lines)
