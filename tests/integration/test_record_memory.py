"""``record`` of a large file stays in bounded memory (SPEC §6 "pending mutation").

A record stores the blob and the keys of the lines the writer added and removed; the other
readings of a writer's delta (short and telling lines, token shapes) are the rule's, made
from the stored blobs when a change is judged. Computing them at record time held a token
tuple per line: the 4 MB generated module below peaked at 97 MiB (45 MiB without them, about
24 MiB of it the interpreter with its imports).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: Peak resident set size a ``record`` of a 4 MB file may reach (measured: 45 MiB).
BOUND = 80 * 1024 * 1024


def generated_module(size: int) -> str:
    """Python source of about ``size`` bytes, as a code generator writes it."""
    line = 'VALUE_{:07d} = compute_value({:07d}, name="item {:07d}")  # generated\n'
    rows = size // len(line.format(0, 0, 0))
    return "".join(line.format(i, i * 7, i) for i in range(rows))


PEAK_RSS = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, capture_output=True)
sys.stderr.buffer.write(r.stdout + r.stderr)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def test_recording_a_four_megabyte_file_stays_under_its_memory_bound(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "i"], check=True)
    (repo / "gen.py").write_text(generated_module(4_000_000), encoding="utf-8")
    argv = [sys.executable, "-m", "gentle_hooks", "record", "--model", "m", "--effort", "high"]
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, *argv, "gen.py"],
        cwd=repo,
        capture_output=True,
        check=False,
        timeout=120,
    )
    code, peak_kib = (int(x) for x in proc.stdout.split())  # ru_maxrss: KiB on Linux
    assert code == 0, proc.stderr.decode()
    assert proc.stderr.decode().startswith("recorded: pending mutation #1: ")
    assert peak_kib * 1024 < BOUND, peak_kib
