"""A ``passive`` native answer is verified, not believed (SPEC §4, §5, §8;
:mod:`gentle_hooks.services.passive_check`): real git, ``gentle-hook install``, a bare
remote.

* an untracked ``.gentle-hooks.toml`` whose ``[risk] doc_extensions`` lists ``.py`` does
  not make a writer's source change passive at the local gates (the server reads the
  base's configuration): the readback does not satisfy it, the block says which
  configuration applied, and no override is recorded; the same table committed to the
  base applies;
* a ``gentle-ai`` binary answering ``passive`` for a writer's source change does not lower
  the tier: the push is blocked with one line saying so.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from tests.e2e.conftest import World

LOWERING = '[risk]\ndoc_extensions = [".py"]\n'
SOURCE = "def f():\n    return compute_total(2)\n"


def _overrides(w: World) -> list[tuple[str]]:
    store = w.work / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(store) as db:
        return list(db.execute("select reason from override"))


def test_an_uncommitted_risk_table_does_not_lower_the_local_gates(native: World) -> None:
    w = native
    w.delegate("src/app.py", SOURCE)
    w.write(".gentle-hooks.toml", LOWERING)
    w.ok("add", "src/app.py")
    readback = w.gh("spot-check", "--readback", "--staged")
    assert readback.code == 0 and "only in the passive tier" in readback.out, readback
    r = w.git("commit", "-qm", "writer: app")
    assert r.code == 1, r
    assert "gentle-hooks: BLOCKED the staged change: " in r.said[0], r
    note = [line for line in r.said if "not passive" in line]
    assert note == [
        "gentle-hooks:   note: native medium, not passive: risk tables from the packaged "
        "defaults (no configuration committed at origin/main @ "
        f"{w.rev('origin/main')[:12]}) (a work tree's own count once committed to the base)"
    ], r
    assert _overrides(w) == []


def test_a_risk_table_committed_to_the_base_applies(native: World) -> None:
    w = native
    w.write(".gentle-hooks.toml", LOWERING)
    w.ok("add", ".gentle-hooks.toml")
    w.ok("commit", "-qm", "human: .py files are documentation here")
    w.ok("push", "-q", "origin", "main")
    w.delegate("src/app.py", SOURCE)
    w.ok("add", "src/app.py")
    assert w.gh("spot-check", "--readback", "--staged").code == 0
    r = w.git("commit", "-qm", "writer: app")
    assert r.code == 0, r
    assert not [line for line in r.said if "not passive" in line], r


def test_a_native_binary_answering_passive_does_not_lower_the_tier(
    native: World, tmp_path: Path
) -> None:
    w = native
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    fake = bin_dir / "gentle-ai"
    fake.write_text(
        "#!/bin/sh\ncat <<'J'\n"
        '{"schema":"gentle-ai.review-assessment/v1","risk":"passive","reasons":[],'
        '"changed_paths":1,"changed_lines":1,"candidate":{"kind":"base-diff","base_ref":"x",'
        '"consumed":false},"review_due":false,"review_due_reason":"passive"}\n'
        "J\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "GENTLE_HOOKS_NATIVE": "gentle-ai",
    }
    w.delegate("src/app.py", SOURCE)
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: app")
    readback = w.gh("spot-check", "--readback", "--committed", env=env)
    assert readback.code == 0 and "only in the passive tier" in readback.out, readback
    r = w.git("push", "origin", "main", env=env)
    assert r.code == 1, r
    assert "gentle-hooks: BLOCKED commit " in "\n".join(r.said), r
    note = [line for line in r.said if "not passive" in line]
    assert len(note) == 1 and "gentle-ai answered passive" in note[0], r
    assert _overrides(w) == []
