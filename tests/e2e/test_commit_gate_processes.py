"""The delegated commit gate reads each blob once (SPEC §2 "Start-up is part of the
product"): attribution and the built-in classifier's search share one ``git cat-file
--batch`` per hook run. Real git, ``gentle-hook install``, ``GIT_TRACE`` counting the git
processes the pre-commit gate starts.
"""

from __future__ import annotations

from tests.e2e.conftest import World


def test_a_verified_delegated_commit_gate_starts_one_cat_file_batch(native: World) -> None:
    w = native
    w.delegate(text="import os\n\ndef run(cmd):\n    return os.system(cmd)\n")
    w.spot_check()
    w.ok("add", "-A")
    trace = w.base / "trace.txt"
    r = w.gh("hook", "pre-commit", env={"GIT_TRACE": str(trace)})
    assert r.code == 0 and any("verified as their plan requires" in s for s in r.said), r
    started = [ln for ln in trace.read_text().splitlines() if "built-in: git cat-file" in ln]
    assert len([ln for ln in started if "--batch" in ln and "--batch-check" not in ln]) == 1, (
        started
    )


def test_one_line_written_into_several_files_reads_no_work_tree_again(native: World) -> None:
    """A writer that adds the same telling line to several files: each change holds its own
    path's writer lines, so the line met at the other paths (an entry that may have moved)
    adds nothing, and the gate hashes no work-tree file and lists no index entry for it."""
    w = native
    line = "    return audit_trail.record(cmd)\n"
    for name in ("alpha", "beta", "gamma"):
        w.write(f"src/{name}.py", f"def {name}(cmd):\n{line}")
    w.delegate()
    w.spot_check()
    w.ok("add", "-A")
    trace = w.base / "trace-moved.txt"
    r = w.gh("hook", "pre-commit", env={"GIT_TRACE": str(trace)})
    assert r.code == 0 and any("verified as their plan requires" in s for s in r.said), r
    started = [
        ln.split("built-in: git ", 1)[1]
        for ln in trace.read_text().splitlines()
        if "built-in: git " in ln
    ]
    assert not [c for c in started if c.startswith(("hash-object", "ls-files"))], started
