"""Hypothesis-generated change sets: per-path counts and changed_lines equal git's numstat."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import commit_all, git, write
from tests.integration.helpers import assert_matches_numstat, assess_json

NAMES = ["a.txt", "b c.md", "dir/é.py", "dir/sub/x.golden", "bin.dat", "new\nline"]
lines = st.lists(
    st.sampled_from(["alpha", "beta", "gamma", "", "δ", "subprocess.run()"]), max_size=12
)
op = st.one_of(
    st.tuples(st.just("text"), st.sampled_from(NAMES), lines),
    st.tuples(st.just("binary"), st.sampled_from(NAMES), st.binary(min_size=1, max_size=40)),
    st.tuples(st.just("delete"), st.sampled_from(NAMES), st.none()),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("chmod"), st.sampled_from(NAMES), st.none()),
)


def apply(root: Path, ops: list) -> None:
    for kind, name, arg in ops:
        path = root / name
        if kind == "text":
            write(path, "\n".join(arg) + ("\n" if arg else ""))
        elif kind == "binary":
            write(path, b"\0" + arg)
        elif kind == "delete" and path.exists():
            path.unlink()
        elif kind == "rename" and path.exists() and arg != name:
            (root / arg).parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, root / arg)
        elif kind == "chmod" and path.exists():
            path.chmod(path.stat().st_mode ^ 0o111)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, min_size=1, max_size=6), st.lists(op, min_size=1, max_size=6))
def test_generated_change_sets_match_numstat(first: list, second: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q")
        write(root / "a.txt", "alpha\nbeta\ngamma\n")
        write(root / "bin.dat", b"\0\1\2\3")
        commit_all(root, "base")
        apply(root, first)
        commit_all(root, "first")
        apply(root, second)
        commit_all(root, "second")
        for back in ("HEAD~1", "HEAD~2"):
            tree = git(root, "rev-parse", "HEAD^{tree}").strip()
            base = git(root, "rev-parse", f"{back}^{{tree}}").strip()
            if tree == base:
                continue
            envelope = assess_json(root, "--base-ref", back, "--committed-only")
            assert_matches_numstat(root, envelope)
