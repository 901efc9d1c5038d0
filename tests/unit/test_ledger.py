"""The ledger store (SPEC §6): WAL, schema versions, migrations, refusal of damaged stores."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gentle_hooks.errors import cli
from gentle_hooks.ledger.diagnose import diagnose
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import (
    EscalationRecord,
    PendingMutation,
    RddRender,
    Receipt,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
    WriterEntryRecord,
)
from gentle_hooks.ledger.schema import RECORD_TABLES, SCHEMA_VERSION
from gentle_hooks.ledger.sqlite_file import StoreError, check_header
from gentle_hooks.ledger.store import Ledger

ID_A = "sha256:" + "a" * 64
ID_B = "sha256:" + "b" * 64


@pytest.fixture
def db(tmp_path: Path) -> str:
    return ledger_path(str(tmp_path / "common"))


def _fill(path: str, n: int = 300) -> None:
    with Ledger.open(path) as led:
        for i in range(n):
            led.add(PendingMutation(root="/r", model=f"m{i}", effort="low", paths=("p" * 200,)))


def test_path_is_under_the_common_dir(tmp_path: Path) -> None:
    assert ledger_path("/x/.git") == "/x/.git/gentle-hooks/ledger.sqlite3"


def test_fresh_store_is_wal_at_the_current_version(db: str) -> None:
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION == 14
        assert led.journal_mode() == "wal"
        assert led.counts() == {t: 0 for t in RECORD_TABLES}


def test_open_existing_creates_nothing(db: str) -> None:
    assert Ledger.open_existing(db) is None
    assert not Path(db).exists()
    assert not Path(db).parent.exists()


def test_open_existing_reads_without_writing(db: str) -> None:
    _fill(db, 3)
    led = Ledger.open_existing(db)
    assert led is not None and led.readonly
    with led:
        assert len(led.pending_mutations("/r")) == 3
        assert led.journal_mode() == "wal"


def test_an_empty_file_is_a_truncated_store_not_a_fresh_one(db: str) -> None:
    """A store is created whole and linked into place, so an empty file lost its records:
    refuse it (and leave it) instead of silently starting over."""
    Path(db).parent.mkdir(parents=True)
    Path(db).write_bytes(b"")
    for opener in (Ledger.open, Ledger.open_existing):
        with pytest.raises(StoreError, match="truncated to 0 bytes"):
            opener(db)
    assert Path(db).read_bytes() == b""


def test_creation_leaves_no_temporary_files(db: str) -> None:
    with Ledger.open(db) as led:
        assert set(led.counts()) == set(RECORD_TABLES)
    assert sorted(p.name for p in Path(db).parent.iterdir() if ".new-" in p.name) == []


def test_a_store_with_one_damaged_page_is_refused(db: str) -> None:
    from gentle_hooks.ledger.records import PendingMutation

    with Ledger.open(db) as led:
        for i in range(400):
            led.add(PendingMutation(root="/r", model=f"m{i}", effort="low", paths=("a" * 200,)))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as fh:  # scribble over a page in the middle of the table
        fh.seek(page_size * 6)
        fh.write(b"\xde\xad\xbe\xef" * 1024)
    before = Path(db).read_bytes()
    for opener in (Ledger.open, Ledger.open_existing):
        with pytest.raises(StoreError, match=r"malformed|unreadable"):
            opener(db)
    assert Path(db).read_bytes() == before


def test_migrates_a_v0_database_and_keeps_what_it_holds(db: str) -> None:
    Path(db).parent.mkdir(parents=True)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE keepme (x)")
    conn.execute("INSERT INTO keepme VALUES (42)")
    conn.commit()
    conn.close()
    led = Ledger.open_existing(db)  # a read opens and migrates forward, never recreates
    assert led is not None
    with led:
        assert led.schema_version() == SCHEMA_VERSION
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT x FROM keepme").fetchall() == [(42,)]
    conn.close()


def test_newer_schema_is_refused_and_left_alone(db: str) -> None:
    _fill(db, 2)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = Path(db).read_bytes()
    for opener in (Ledger.open, Ledger.open_existing):
        with pytest.raises(StoreError) as exc:
            opener(db)
        assert exc.value.exit_code == 2
        assert exc.value.message == (
            f"ledger {db}: schema version 99 is newer than this gentle-hooks knows "
            f"({SCHEMA_VERSION}); upgrade gentle-hooks (nothing was deleted)"
        )
        assert exc.value.commands == (cli("doctor"),)
    assert Path(db).read_bytes() == before


def test_not_a_database_is_refused(db: str) -> None:
    Path(db).parent.mkdir(parents=True)
    Path(db).write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match=r"not a SQLite database .*nothing was deleted") as exc:
        Ledger.open(db)
    assert exc.value.commands == (cli("doctor"),)
    assert Path(db).read_bytes() == b"this is not sqlite at all" * 100


def test_truncated_store_is_refused(db: str) -> None:
    _fill(db)
    size = Path(db).stat().st_size
    with open(db, "r+b") as fh:
        fh.truncate(size // 2)
    assert "truncated" in (check_header(db) or "")
    for opener in (Ledger.open, Ledger.open_existing):
        with pytest.raises(StoreError, match="truncated: the header promises"):
            opener(db)
    assert Path(db).stat().st_size == size // 2


def test_truncated_header_is_refused(db: str) -> None:
    _fill(db, 1)
    with open(db, "r+b") as fh:
        fh.truncate(50)
    with pytest.raises(StoreError, match="not a SQLite database"):
        Ledger.open(db)


def test_corrupted_pages_raise_store_error_not_a_traceback(db: str) -> None:
    _fill(db)
    with open(db, "r+b") as fh:
        fh.seek(4096)  # page 2 onwards: table b-tree pages
        fh.write(b"\xff" * 4096 * 3)
    with (
        pytest.raises(StoreError, match=r"malformed.*nothing was deleted"),
        Ledger.open(db) as led,
    ):
        led.pending_mutations("/r")


def test_a_directory_in_its_place_is_refused(db: str) -> None:
    Path(db).mkdir(parents=True)
    with pytest.raises(StoreError, match="is a directory"):
        Ledger.open(db)


def test_records_round_trip(db: str) -> None:
    with Ledger.open(db, clock=lambda: 1700000000.5) as led:
        m = led.add(
            PendingMutation(
                root="/r",
                model="o4-mini",
                effort="low",
                source="claude-code",
                session_id="s1",
                tool_call_id="t1",
                paths=("a b.py", "ü/€.txt"),
            )
        )
        e = led.add(EscalationRecord(root="/r", identity=ID_A, item=2, slug="security", reason="x"))
        r = led.add(
            Receipt(
                root="/r",
                identity=ID_A,
                kind="run",
                command="pytest -q",
                observed="exit 0",
                exit_code=0,
                argv=("pytest", "-q"),
                duration_ms=12,
                output_digest="sha256:" + "0" * 64,
            )
        )
        s = led.add(
            SpotCheck(
                root="/r",
                identity=ID_A,
                kind="rerun",
                command="pytest -q",
                agreed=True,
                counts=True,
                receipt_id=r.id,
                reported_exit=0,
                observed_exit=0,
            )
        )
        v = led.add(
            VerdictRecord(
                root="/r",
                identity=ID_A,
                brief_id="b1",
                status="fail",
                accepted=False,
                reasons=("status is fail",),
                json="{}",
                markdown="# v",
            )
        )
        f = led.add(ReviewFact(root="/r", identity=ID_A, outcome="declined"))
        assert (m.id, e.id, r.id, s.id, v.id, f.id) == (1, 1, 1, 1, 1, 1)
        assert m.recorded_at == 1700000000.5
        assert led.pending_mutations("/r") == [m]
        assert led.pending_escalations("/r") == [e]
        assert led.receipts(ID_A) == [r] and led.receipt(r.id) == r
        assert r.line == "pytest -q: exit 0"
        assert led.spot_checks(ID_A) == [s]
        assert led.verdicts(ID_A) == [v] and led.verdict(v.id) == v
        assert led.review_facts(ID_A) == [f]
        assert led.receipts(ID_B) == [] and led.spot_checks(ID_B) == []
        assert led.other_candidate_counts("/r", ID_B) == {
            "receipt": 1,
            "spot_check": 1,
            "verdict": 1,
            "review_fact": 1,
        }


def test_a_failed_write_leaves_nothing(db: str) -> None:
    with Ledger.open(db) as led:
        with pytest.raises(StoreError, match="CHECK constraint"):
            led.add(EscalationRecord(root="/r", identity=ID_A, item=9, slug="x", reason="x"))
        assert led.counts()["escalation"] == 0
        led.add(EscalationRecord(root="/r", identity=ID_A, item=1, slug="data", reason="x"))
        assert led.counts()["escalation"] == 1


def _entry(root: str, path: str) -> WriterEntryRecord:
    return WriterEntryRecord(0, root, path, "b" * 40, None, None, ("k1", "k2"), (), False)


def test_a_commit_takes_only_the_entries_it_carries(db: str) -> None:
    """Partial commits leave the rest pending; a mutation is consumed once every entry of it
    is taken; an escalation sticky for the work follows the same rule (SPEC §3, §5)."""
    with Ledger.open(db) as led:
        esc = led.add(EscalationRecord("/a", ID_A, 2, "security", "tokens"))
        m, (f, g) = led.add_mutation(
            PendingMutation(root="/a", model="m", effort="low"),
            [_entry("/a", "f.py"), _entry("/a", "g.py")],
        )
        _, (other,) = led.add_mutation(
            PendingMutation(root="/b", model="m", effort="high"), [_entry("/b", "f.py")]
        )
        assert [e.id for e in led.escalations_for_entries([f.id])] == [esc.id]
        assert led.escalations_for_entries([other.id]) == []
        led.take_entries([g.id], "c1", ID_B, "post-commit")
        assert [e.path for e in led.open_entries("/a")] == ["f.py"]
        assert [x.id for x in led.pending_mutations("/a")] == [m.id]
        assert [x.id for x in led.pending_escalations("/a")] == [esc.id]
        led.take_entries([f.id], "c2", ID_A, "post-commit")
        led.take_entries([f.id], "c2", ID_A, "post-rewrite")  # once per entry and commit
        assert led.open_entries("/a") == [] and led.pending_mutations("/a") == []
        assert led.pending_escalations("/a") == []
        assert [(t.entry_id, t.commit_id) for t in led.entry_takes([f.id, g.id])] == [
            (g.id, "c1"),
            (f.id, "c2"),
        ]
        assert {e.path for e in led.live_entries(["f.py"])} == {"f.py"}
        assert len(led.live_entries(["f.py"])) == 2  # /a's taken one and /b's open one
        mutations, escalations = led.delivered_work(["c2"])
        assert [x.id for x in mutations] == [m.id] and [x.id for x in escalations] == [esc.id]


def test_discard_abandons_open_entries_on_purpose(db: str) -> None:
    with Ledger.open(db) as led:
        _, (f, g) = led.add_mutation(
            PendingMutation(root="/a", model="m", effort="low"),
            [_entry("/a", "f.py"), _entry("/a", "g.py")],
        )
        rec = led.discard_entries("/a", ["g.py"], "Ann <a@x>", "reverted by hand")
        assert (rec.entries, rec.paths, rec.who) == ((g.id,), ("g.py",), "Ann <a@x>")
        assert [e.path for e in led.live_entries()] == ["f.py"]
        everything = led.discard_entries("/a", [], "Ann <a@x>", "start over")
        assert everything.entries == (f.id,) and led.live_entries() == []


def test_discard_reaches_only_the_named_open_entries_of_other_worktrees(db: str) -> None:
    """A discard in /a ends /b's open work only where its ids are named (what /a's change
    carries), never the rest of /b's."""
    with Ledger.open(db) as led:
        _, (f, g) = led.add_mutation(
            PendingMutation(root="/b", model="m", effort="low"),
            [_entry("/b", "f.py"), _entry("/b", "g.py")],
        )
        rec = led.discard_entries("/a", [], "Ann <a@x>", "my own edit", others=[f.id])
        assert rec.entries == (f.id,)
        assert [e.id for e in led.live_entries()] == [g.id]
        assert led.discard_entries("/a", [], "Ann <a@x>", "again").entries == ()
        assert [e.id for e in led.live_entries()] == [g.id]


def test_discard_abandons_taken_entries_too(db: str) -> None:
    """A writer commit not pushed yet (its entry taken) can be dropped on purpose."""
    with Ledger.open(db) as led:
        _, (f,) = led.add_mutation(
            PendingMutation(root="/a", model="m", effort="low"), [_entry("/a", "f.py")]
        )
        led.take_entries([f.id], "c1", "id1", "post-commit")
        rec = led.discard_entries("/a", ["f.py"], "Ann <a@x>", "the agent's commit is dropped")
        assert rec.entries == (f.id,) and led.live_entries() == []


def test_diagnose_healthy_missing_and_damaged(db: str) -> None:
    assert [(c.name, c.ok) for c in diagnose(db)] == [("store", True)]
    _fill(db, 2)
    checks = {c.name: c for c in diagnose(db)}
    assert all(c.ok for c in checks.values())
    assert checks["schema"].detail == f"version {SCHEMA_VERSION} (current)"
    assert checks["integrity"].detail == "ok"
    assert checks["records"].detail.startswith("pending_mutation 2, escalation 0")
    with open(db, "r+b") as fh:
        fh.write(b"garbage garbage garbage")
    bad = diagnose(db)
    assert [(c.name, c.ok) for c in bad] == [("store", False)]
    assert "not a SQLite database" in bad[0].detail


def test_a_version_1_store_migrates_forward_keeping_its_records(tmp_path: Path) -> None:
    import sqlite3 as _sqlite3

    from gentle_hooks.ledger.records import CommitRecord, EscalationRecord
    from gentle_hooks.ledger.schema import MIGRATIONS

    db = str(tmp_path / "v1.sqlite3")
    conn = _sqlite3.connect(db)
    conn.executescript(MIGRATIONS[0])
    conn.execute(
        "INSERT INTO escalation (root, identity, item, slug, reason, recorded_at) "
        "VALUES ('/r', 'sha256:x', 2, 'security', 'token checks', 1.0)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION
        (esc,) = led.pending_escalations("/r")
        assert (esc.item, esc.reason, esc.critical) == (2, "token checks", False)
        led.add(EscalationRecord("/r", "sha256:y", 1, "data", "drops a table", critical=True))
        led.add(CommitRecord("/r", "c1", "sha256:y", "t", "b", origin="c1", hook="post-commit"))
        assert [e.critical for e in led.pending_escalations("/r")] == [False, True]
        assert [r.commit_id for r in led.commit_records(["c1", "c2"])] == ["c1"]


def test_a_version_2_store_migrates_to_v3_keeping_its_records(tmp_path: Path) -> None:
    import sqlite3 as _sqlite3

    from gentle_hooks.ledger.schema import MIGRATIONS

    db = str(tmp_path / "v2.sqlite3")
    conn = _sqlite3.connect(db)
    conn.executescript(MIGRATIONS[0])
    conn.executescript(MIGRATIONS[1])
    conn.execute(
        "INSERT INTO review_fact (root, identity, outcome, recorded_at) "
        "VALUES ('/r', 'sha256:x', 'consumed', 1.0)"
    )
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION == 14
        assert [f.outcome for f in led.review_facts("sha256:x")] == ["acknowledged"]
        assert led.rdd_pinned("s") is None
        first = RddRender("s", "/r", "on", "env", "Receipt-driven development: on", "L-new-on")
        pinned, recorded = led.rdd_advance("s", lambda cur: first if cur is None else None)
        assert recorded and pinned.id == 1 and pinned.recorded_at > 0
        assert led.counts()["rdd_render"] == 1


def _render(mode: str, row: str, previous: str | None = None) -> RddRender:
    return RddRender("s1", "/r", mode, "env", f"Receipt-driven development: {mode}", row, previous)


def test_rdd_advance_keeps_without_writing_and_appends_a_render(db: str) -> None:
    clock = iter(range(1, 100))
    with Ledger.open(db, clock=lambda: float(next(clock))) as led:
        with pytest.raises(ValueError, match="must render one"):
            led.rdd_advance("s1", lambda cur: None)
        seen: list[RddRender | None] = []

        def first(cur: RddRender | None) -> RddRender | None:
            seen.append(cur)
            return _render("on", "L-new-on") if cur is None else None

        pinned, recorded = led.rdd_advance("s1", first)
        assert (pinned.mode, pinned.row, pinned.previous_mode, recorded) == (
            "on",
            "L-new-on",
            None,
            True,
        )
        kept, recorded = led.rdd_advance("s1", first)
        assert (kept, recorded) == (pinned, False)
        assert led.counts()["rdd_render"] == 1  # a kept line writes nothing
        off, recorded = led.rdd_advance(
            "s1",
            lambda cur: _render("off", "L-on-off", cur.mode if cur else None),
        )
        assert recorded and (off.mode, off.previous_mode) == ("off", "on")
        assert led.rdd_pinned("s1") == off
        assert [r.mode for r in led.rdd_renders("s1")] == ["on", "off"]
        assert led.rdd_pinned("other session") is None
        assert led.rdd_renders("other session") == []


def test_a_version_3_store_migrates_pending_paths_into_writer_entries(tmp_path: Path) -> None:
    """Work in flight at the upgrade is not laundered: each path of an unconsumed mutation
    becomes an entry any change of that path carries (before '*'); consumed ones do not."""
    import sqlite3 as _sqlite3

    from gentle_hooks.ledger.schema import MIGRATIONS
    from gentle_hooks.policy.attribution import UNKNOWN_BEFORE

    db = str(tmp_path / "v3.sqlite3")
    conn = _sqlite3.connect(db)
    for script in MIGRATIONS[:3]:
        conn.executescript(script)
    conn.execute(
        "INSERT INTO pending_mutation (root, model, effort, paths, recorded_at) "
        "VALUES ('/r', 'm', 'low', '[\"app.py\", \"dir/b c.py\"]', 5.0)"
    )
    conn.execute(
        "INSERT INTO pending_mutation (root, model, effort, paths, recorded_at, consumed_by) "
        "VALUES ('/r', 'm', 'low', '[\"old.py\"]', 4.0, 'c0')"
    )
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        entries = led.live_entries()
        assert [(e.path, e.before_blob, e.binary, e.state) for e in entries] == [
            ("app.py", UNKNOWN_BEFORE, True, "open"),
            ("dir/b c.py", UNKNOWN_BEFORE, True, "open"),
        ]
        assert {e.mutation_id for e in entries} == {1}
        assert led.counts()["pending_mutation"] == 2


def test_a_version_4_store_migrates_to_v5_keeping_its_verdicts(tmp_path: Path) -> None:
    """The verify_run table and the verdict's artifact_ref, caller and
    observed_run columns are added by an appended migration; verdicts recorded before keep
    every field and read the new ones as None."""
    import sqlite3 as _sqlite3

    from gentle_hooks.ledger.records import VerdictRecord, VerifyRun
    from gentle_hooks.ledger.schema import MIGRATIONS

    db = str(tmp_path / "v4.sqlite3")
    conn = _sqlite3.connect(db)
    for script in MIGRATIONS[:4]:
        conn.executescript(script)
    conn.execute(
        "INSERT INTO verdict (root, identity, brief_id, status, accepted, reasons, json, "
        "markdown, recorded_at) VALUES ('/r', 'sha256:x', 'b1', 'pass', 1, '[]', '{}', '#', 1.0)"
    )
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION == 14
        (old,) = led.verdicts("sha256:x")
        assert (old.brief_id, old.accepted, old.artifact_ref, old.caller, old.observed_run) == (
            "b1",
            True,
            None,
            None,
            None,
        )
        run = led.add_run(
            VerifyRun(
                "/r",
                "sha256:x",
                "b1",
                "pass",
                "Ann <a@x>",
                "/tmp/room",
                ".agents/v.json",
                "sha256:" + "0" * 64,
                "[]",
            )
        )
        new = led.add(
            VerdictRecord(
                "/r",
                "sha256:x",
                "b1",
                "pass",
                True,
                (),
                "{}",
                "#",
                artifact_ref=".agents/v.json",
                caller="Ann <a@x>",
                observed_run=run.id,
            )
        )
        assert led.verify_runs("sha256:x") == [run]
        assert led.verdict(new.id) == new
        assert led.counts()["verify_run"] == 1


def test_v4_store_with_replayed_calls_migrates_and_then_refuses_replays(tmp_path: Path) -> None:
    """Version 6 (a tool call records once) keeps rows recorded twice before it, and refuses
    a new row repeating a recorded call; another source's (or session's) same id is another
    call."""
    from gentle_hooks.ledger.schema import MIGRATIONS

    db = str(tmp_path / "v4.sqlite3")
    conn = sqlite3.connect(db)
    for script in MIGRATIONS[:4]:
        conn.executescript(script)
    for _ in range(2):
        conn.execute(
            "INSERT INTO pending_mutation (root, model, effort, source, tool_call_id, paths, "
            "recorded_at) VALUES ('/r', 'm', 'low', 'claude-code', 'toolu_1', '[]', 1.0)"
        )
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION == 14
        assert led.counts()["pending_mutation"] == 2
        again = PendingMutation("/r", "m", "low", "claude-code", None, "toolu_1")
        stored, entries, new = led.add_mutation_once(again, [])
        assert (stored.id, entries, new) == (1, (), False)
        other = PendingMutation("/r", "m", "low", "codex", None, "toolu_1")
        stored, _, new = led.add_mutation_once(other, [])
        assert (stored.id, new) == (3, True)
        assert led.mutation_for_call("codex", None, "toolu_1") == stored
        assert led.mutation_for_call("codex", "another session", "toolu_1") is None
        with pytest.raises(StoreError, match="call_once"):
            led.add(PendingMutation("/r", "m", "low", "codex", None, "toolu_1"))


@pytest.mark.parametrize("chunk", [500, 2])
def test_facts_of_commits_equal_one_read_per_candidate(
    db: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The push gate's batched read gives, per candidate, what the per-candidate reads give
    (records of other identities and roots kept apart; IN lists cut into chunks)."""
    from gentle_hooks.ledger import connection, facts, pending

    monkeypatch.setattr(connection, "IN_CHUNK", chunk)
    monkeypatch.setattr(pending, "IN_CHUNK", chunk)
    ids = [f"sha256:{c * 64}" for c in "abcde"]
    with Ledger.open(db) as led:
        _, (f, g) = led.add_mutation(
            PendingMutation(root="/a", model="m1", effort="low"),
            [_entry("/a", "f.py"), _entry("/a", "g.py")],
        )
        _, (h,) = led.add_mutation(
            PendingMutation(root="/a", model="m2", effort="high"), [_entry("/a", "h.py")]
        )
        e1 = led.add(EscalationRecord("/a", ids[0], 2, "security", "tokens"))
        led.link_escalation(e1.id, [f.id, h.id])
        led.add(EscalationRecord("/a", ids[1], 3, "data", "own"))
        led.add(EscalationRecord("/b", ids[1], 4, "x", "other root"))
        led.take_entries([g.id], "c2", ids[2], "post-commit")
        led.add(PendingMutation(root="/a", model="old", effort="low", consumed_by="c3"))
        led.add(EscalationRecord("/a", ids[3], 1, "y", "old", consumed_by="c3"))
        for i, ident in enumerate(ids):
            for root in ("/a", "/b"):
                for _ in range(i % 3):
                    led.add(Receipt(root, ident, "add", "make test", "ok", 0))
                    led.add(SpotCheck(root, ident, "rerun", "make test", True, True))
                led.add(VerdictRecord(root, ident, "b1", "pass", i % 2 == 0, (), "{}", "# v"))
                led.add(ReviewFact(root, ident, "declined"))
        items = [
            (ids[0], (f, h), "c1"),
            (ids[1], (), "c2"),
            (ids[2], (g,), "c2"),
            (ids[3], (), "c3"),
            (ids[4], (), None),
            (ids[0], (), "c9"),
        ]
        got = facts.facts_of_commits(led, "/a", items)
        want = []
        for ident, entries, head in items:
            one = facts.facts_from(led, "/a", ident, entries, own_root=False)
            if not entries and head is not None:
                muts, escs = led.delivered_work([head])
                if muts or escs:
                    one = facts.replace(
                        one,
                        mutations=tuple(muts),
                        escalations=tuple({e.id: e for e in (*one.escalations, *escs)}.values()),
                    )
            want.append(one)
    assert got == want
    assert got[3].mutations and got[1].escalations and got[0].escalations


def test_a_version_11_store_keeps_its_review_rows_and_ids_as_they_were(tmp_path: Path) -> None:
    """V12 rebuilds review_fact so ``review ack`` stores ``acknowledged`` (issue 18): the
    rows stay as stored ('consumed', read as 'acknowledged'), and the id counter too (a
    row moved aside at id 2 keeps its id free for ``doctor --restore``)."""
    import sqlite3 as _sqlite3

    from gentle_hooks.ledger.schema import MIGRATIONS

    db = str(tmp_path / "v11.sqlite3")
    conn = _sqlite3.connect(db)
    for script in MIGRATIONS[:11]:
        conn.executescript(script)
    for outcome in ("consumed", "declined"):
        conn.execute(
            "INSERT INTO review_fact (root, identity, outcome, recorded_at) "
            "VALUES ('/r', 'sha256:x', ?, 1.0)",
            (outcome,),
        )
    conn.execute("DELETE FROM review_fact WHERE id = 2")
    conn.execute("PRAGMA user_version = 11")
    conn.commit()
    conn.close()
    with Ledger.open(db) as led:
        assert led.schema_version() == SCHEMA_VERSION == 14
        assert [(f.id, f.outcome) for f in led.review_facts("sha256:x")] == [(1, "acknowledged")]
        stored = led.add(ReviewFact("/r", "sha256:x", "acknowledged"))
        assert stored.id == 3
    conn = _sqlite3.connect(db)
    rows = conn.execute("SELECT id, outcome FROM review_fact ORDER BY id").fetchall()
    conn.close()
    assert rows == [(1, "consumed"), (3, "acknowledged")]


def test_own_triggers_are_the_triggers_the_migrations_create() -> None:
    """The gates' trigger check reads our triggers from the migrations' text: it must be
    what SQLite keeps of them in a store the migrations built."""
    from gentle_hooks.ledger.schema import MIGRATIONS, TRIGGERS_SQL, own_triggers
    from gentle_hooks.ledger.sqlite_file import migration_statements

    fresh = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS:
            for statement in migration_statements(script):
                fresh.execute(statement)
        built = {(n, " ".join(s.split())) for n, s in fresh.execute(TRIGGERS_SQL)}
    finally:
        fresh.close()
    assert built and own_triggers() == built


def test_a_store_holding_only_its_own_triggers_is_not_refused(tmp_path: Path) -> None:
    with Ledger.open(str(tmp_path / "ledger.sqlite3")) as led:
        led.refuse_foreign_triggers()
