"""The idle sentinel's reading rule has one source, the rows of
:mod:`gentle_hooks.ledger.probe`: the installed hooks' ``sh`` is generated from them, and
the generated ``sh`` answers as the rows read in Python do, on real files."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gentle_hooks.ledger.location import IDLE_FILE, LEDGER_FILE, STATE_DIR
from gentle_hooks.ledger.probe import IDLE_ROWS, idle_by_sentinel
from gentle_hooks.services.fastpath import FAST_HOOKS, fast_block, ledger_idle_sh


def test_every_fast_path_that_reads_the_ledger_carries_the_generated_rule() -> None:
    rule = ledger_idle_sh()
    for hook, kind in FAST_HOOKS.items():
        block = fast_block(hook, True, "exec python")
        assert block is not None
        assert (rule in block) == (kind in ("commit", "ledger", "recorder", "message")), hook
    for row_id, _, _, _ in IDLE_ROWS:
        assert row_id  # every row is named


def _write(path: Path, data: bytes, mtime: int) -> None:
    path.write_bytes(data)
    os.utime(path, (mtime, mtime))


def _state(tmp: Path) -> Path:
    state = tmp / STATE_DIR
    state.mkdir()
    return state


def _no_state(tmp: Path) -> None:
    pass


def _state_link(tmp: Path) -> None:
    (tmp / "elsewhere").mkdir()
    (tmp / STATE_DIR).symlink_to(tmp / "elsewhere")


def _state_file(tmp: Path) -> None:
    (tmp / STATE_DIR).write_bytes(b"")


def _empty_state(tmp: Path) -> None:
    _state(tmp)


def _ledger_link(tmp: Path) -> None:
    state = _state(tmp)
    _write(tmp / "real", b"x", 1000)
    (state / LEDGER_FILE).symlink_to(tmp / "real")


def _dangling_ledger_link(tmp: Path) -> None:
    (_state(tmp) / LEDGER_FILE).symlink_to(tmp / "missing")


def _empty_ledger(tmp: Path) -> None:
    _write(_state(tmp) / LEDGER_FILE, b"", 1000)


def _ledger_dir(tmp: Path) -> None:
    (_state(tmp) / LEDGER_FILE).mkdir()


def _no_sentinel(tmp: Path) -> None:
    _write(_state(tmp) / LEDGER_FILE, b"x", 1000)


def _sentinel(
    ledger_time: int, wal: bytes | None = None, wal_time: int = 0
) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        state = _state(tmp)
        _write(state / LEDGER_FILE, b"x", ledger_time)
        _write(state / IDLE_FILE, b"", 2000)
        if wal is not None:
            _write(state / (LEDGER_FILE + "-wal"), wal, wal_time)

    return make


def _sentinel_link(tmp: Path) -> None:
    state = _state(tmp)
    _write(state / LEDGER_FILE, b"x", 1000)
    _write(tmp / "real-idle", b"", 2000)
    (state / IDLE_FILE).symlink_to(tmp / "real-idle")


def _beside_idle(name: str, link: bool = False) -> Callable[[Path], None]:
    """An idle ledger (its sentinel newer) with ``name`` beside it (a link: ``link``)."""

    def make(tmp: Path) -> None:
        _sentinel(1000)(tmp)
        if link:
            (tmp / STATE_DIR / name).symlink_to(tmp / "missing")
        else:
            _write(tmp / STATE_DIR / name, b"not json\n", 1000)

    return make


CASES: dict[str, tuple[Callable[[Path], None], bool]] = {
    "spool lines kept aside": (_beside_idle("spool.jsonl.bad-1-abcdef"), False),
    "spool lines kept aside as a dangling link": (
        _beside_idle("spool.jsonl.bad-1-abcdef", link=True),
        False,
    ),
    "a damaged ledger moved aside": (_beside_idle("ledger.sqlite3.damaged-20260101T0Z"), False),
    "kept spool lines folded in": (_beside_idle("spool.jsonl.folded-1-abcdef"), True),
    "a damaged ledger salvaged": (_beside_idle("ledger.sqlite3.salvaged-20260101T0Z"), True),
    "no state directory": (_no_state, True),
    "state directory is a link": (_state_link, False),
    "state directory is a file": (_state_file, False),
    "no ledger": (_empty_state, True),
    "ledger is a link": (_ledger_link, False),
    "ledger is a dangling link": (_dangling_ledger_link, False),
    "ledger is empty": (_empty_ledger, False),
    "ledger is a directory": (_ledger_dir, False),
    "no sentinel": (_no_sentinel, False),
    "sentinel newer than the ledger": (_sentinel(1000), True),
    "ledger newer than the sentinel": (_sentinel(3000), False),
    "sentinel is a link": (_sentinel_link, False),
    "empty log newer than the sentinel": (_sentinel(1000, b"", 3000), True),
    "log with frames older than the sentinel": (_sentinel(1000, b"f", 1500), True),
    "log with frames newer than the sentinel": (_sentinel(1000, b"f", 3000), False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_sh_answers_as_the_rows(tmp_path: Path, case: str) -> None:
    make, idle = CASES[case]
    make(tmp_path)
    assert idle_by_sentinel(str(tmp_path)) is idle
    script = ledger_idle_sh() + 'gh_ledger_idle "$1"\n'
    proc = subprocess.run(["sh", "-c", script, "sh", str(tmp_path)], check=False)
    assert proc.returncode == (0 if idle else 1)
