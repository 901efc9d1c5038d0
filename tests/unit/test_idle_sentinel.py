"""The idle sentinel beside the ledger (docs/fast-path.md): it exists only while the hooks'
Python probes would find nothing to do, over any sequence of store operations."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gentle_hooks.ledger.location import idle_path, ledger_path
from gentle_hooks.ledger.probe import ended_paths_in, escalation_waiting, writer_paths_touched
from gentle_hooks.ledger.records import EscalationRecord, PendingMutation, WriterEntryRecord
from gentle_hooks.ledger.schema import PENDING_SQL, SCHEMA_VERSION, sentinel_path_lines
from gentle_hooks.ledger.store import Ledger

ROOTS = ("/w/a", "/w/b")
PATHS = ("x.py", "y.py", "z/q.txt")
ID = "sha256:" + "c" * 64

ROOT = st.sampled_from(ROOTS)
SOME_PATHS = st.lists(st.sampled_from(PATHS), min_size=1, max_size=3, unique=True)
PICK = st.lists(st.integers(0, 30), max_size=4)
OPS = st.one_of(
    st.tuples(st.just("record"), ROOT, SOME_PATHS),
    st.tuples(st.just("take"), PICK, st.sampled_from(["c1", "c2"])),
    st.tuples(st.just("settle"), PICK, st.sampled_from(["settled", "expired"])),
    st.tuples(st.just("discard"), ROOT, st.lists(st.sampled_from(PATHS), max_size=2)),
    st.tuples(st.just("escalate"), ROOT, st.integers(1, 6)),
    st.tuples(st.just("consume"), ROOT, st.sampled_from(["c1", "c2"])),
    st.tuples(st.just("link"), st.integers(0, 5), PICK),
    st.tuples(st.just("reopen")),
)


def _apply(led: Ledger, op: tuple[object, ...]) -> None:
    entries = [e.id for e in led.live_entries()] + list(range(1, 31))
    kind = op[0]
    if kind == "record":
        root, paths = op[1], op[2]
        assert isinstance(root, str) and isinstance(paths, list)
        rows = [
            WriterEntryRecord(0, root, p, "b" * 40, None, None, ("k",), (), False) for p in paths
        ]
        led.add_mutation(
            PendingMutation(root=root, model="m", effort="low", paths=tuple(paths)), rows
        )
    elif kind == "take":
        picks = op[1]
        assert isinstance(picks, list)
        led.take_entries([entries[i % len(entries)] for i in picks], str(op[2]), ID, "post-commit")
    elif kind == "settle":
        picks = op[1]
        assert isinstance(picks, list)
        led.set_entry_state([entries[i % len(entries)] for i in picks], str(op[2]))
    elif kind == "discard":
        paths = op[2]
        assert isinstance(paths, list)
        led.discard_entries(str(op[1]), paths, "me", "test")
    elif kind == "escalate":
        item = op[2]
        assert isinstance(item, int)
        led.add(EscalationRecord(str(op[1]), ID, item, "slug", "reason"))
    elif kind == "consume":
        led.consume_unlinked_escalations(str(op[1]), str(op[2]), ID)
    elif kind == "link":
        picks, esc = op[2], op[1]
        assert isinstance(picks, list) and isinstance(esc, int)
        led.link_escalation(esc + 1, [entries[i % len(entries)] for i in picks])


def _pending(path: str) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(PENDING_SQL).fetchone() is not None
    finally:
        conn.close()


def _probes_find_work(common: str) -> bool:
    """What the hooks' Python probes say for every root and path: is there work?"""
    touched = writer_paths_touched(common, lambda: list(PATHS))
    return touched or any(escalation_waiting(common, root) for root in ROOTS)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(OPS, max_size=8))
def test_idle_only_while_the_probes_find_nothing(
    tmp_path: Path, ops: list[tuple[object, ...]]
) -> None:
    common = str(tmp_path / f"c{len(os.listdir(tmp_path))}")
    path = ledger_path(common)
    led = Ledger.open(path)
    try:
        assert os.path.isfile(idle_path(path))  # a new store: nothing pending
        for op in ops:
            if op[0] == "reopen":
                led.close()
                led = Ledger.open(path)
            else:
                _apply(led, op)
            idle = os.path.exists(idle_path(path))
            if idle:  # soundness: the sentinel never hides work
                assert not _probes_find_work(common), op
            # and after every settled write it stands exactly for "nothing pending"
            assert idle == (not _pending(path)), op
    finally:
        led.close()


def test_a_writer_removes_the_sentinel_before_it_writes(tmp_path: Path) -> None:
    path = ledger_path(str(tmp_path))
    with Ledger.open(path) as led:
        assert os.path.isfile(idle_path(path))
        with led._write() as conn:  # a writer mid-transaction: the sentinel is gone already
            assert not os.path.exists(idle_path(path))
            conn.execute("SELECT 1")
        assert os.path.isfile(idle_path(path))  # nothing pending after it: back


def test_a_rolled_back_write_leaves_no_sentinel_behind_it(tmp_path: Path) -> None:
    path = ledger_path(str(tmp_path))
    with Ledger.open(path) as led:
        try:
            with led._write():
                raise RuntimeError("killed")
        except RuntimeError:
            pass
        assert not os.path.exists(idle_path(path))  # absent: the next commit asks Python


def test_an_older_store_gets_its_sentinel_when_migrated(tmp_path: Path) -> None:
    path = ledger_path(str(tmp_path))
    with Ledger.open(path) as led:
        led.add(PendingMutation(root="/w/a", model="m", effort="low"))
    os.unlink(idle_path(path))
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX writer_entry_state")
    conn.execute("DROP INDEX escalation_pending")
    conn.execute("DROP TABLE quarantine")
    conn.execute("DROP TABLE commit_worktree")
    conn.execute("ALTER TABLE receipt DROP COLUMN created")
    conn.execute("ALTER TABLE verify_run DROP COLUMN mac")
    conn.execute("ALTER TABLE discard DROP COLUMN claimed")
    conn.execute("ALTER TABLE discard DROP COLUMN blobs")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 7}")
    conn.commit()
    conn.close()
    assert writer_paths_touched(str(tmp_path), lambda: list(PATHS)) is False  # migrates
    assert os.path.isfile(idle_path(path))


def test_the_sentinel_lists_ended_paths_as_git_diff_raw_prints_them() -> None:
    assert sentinel_path_lines("src/app.py") == b"\tsrc/app.py\n"
    # git's default quoting (core.quotePath) and the unquoted form (quotePath false)
    assert sentinel_path_lines("caf\u00e9.py") == b'\tcaf\xc3\xa9.py\n\t"caf\\303\\251.py"\n'
    assert sentinel_path_lines('a"b.py') == b'\ta"b.py\n\t"a\\"b.py"\n'
    # a control character is always quoted: no unquoted line (it would split the pattern)
    assert sentinel_path_lines("a\tb.py") == b'\t"a\\tb.py"\n'


def test_the_probe_finds_a_path_of_an_expired_entry(tmp_path: Path) -> None:
    common = str(tmp_path)
    path = ledger_path(common)
    with Ledger.open(path) as led:
        row = WriterEntryRecord(0, "/w/a", "x.py", "b" * 40, None, None, ("k",), (), False)
        led.add_mutation(PendingMutation(root="/w/a", model="m", effort="low"), [row])
        assert not ended_paths_in(common, lambda: ["x.py"])  # open: the live probe's
        led.set_entry_state([e.id for e in led.live_entries()], "expired")
    assert ended_paths_in(common, lambda: ["x.py", "y.py"])
    assert not ended_paths_in(common, lambda: ["y.py"])
    assert b"\tx.py\n" in Path(idle_path(path)).read_bytes()
