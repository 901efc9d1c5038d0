"""The ledger's schema and its ordered forward migrations (SPEC §6 "Records").

Room: ledger (data, no imports; :func:`foreign_triggers` is pure);
:mod:`gentle_hooks.ledger.sqlite_file` applies it.

The schema version lives in SQLite's ``PRAGMA user_version``. ``MIGRATIONS[i]`` takes a
database from version ``i`` to ``i + 1``; version 0 is a fresh (empty) file. A migration
only adds: nothing recorded is ever dropped or rewritten. To change the schema, append a
script and let :data:`SCHEMA_VERSION` follow; never edit a released script.

Conventions of every table: ``id`` is the record number shown to users; ``recorded_at``
is Unix time in seconds (float, UTC); ``root`` is the absolute work tree root that
recorded the row; ``identity`` is the candidate identity (``sha256:`` + 64 hex, SPEC §3)
a candidate-bound row belongs to. JSON columns hold compact UTF-8 JSON.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the hooks' light probe reads this module: no typing import
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

_V1 = """
CREATE TABLE pending_mutation (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    model TEXT NOT NULL,
    effort TEXT NOT NULL,
    source TEXT,
    session_id TEXT,
    tool_call_id TEXT,
    paths TEXT NOT NULL,             -- JSON list of root-relative paths
    recorded_at REAL NOT NULL,
    consumed_by TEXT,                -- commit id once a post-commit hook consumed it
    consumed_identity TEXT           -- that commit's candidate identity
);
CREATE INDEX pending_mutation_root ON pending_mutation (root, consumed_by);

CREATE TABLE escalation (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,          -- candidate current when it was recorded
    item INTEGER NOT NULL CHECK (item BETWEEN 1 AND 6),
    slug TEXT NOT NULL,
    reason TEXT NOT NULL,
    recorded_at REAL NOT NULL,
    consumed_by TEXT,
    consumed_identity TEXT
);
CREATE INDEX escalation_root ON escalation (root, consumed_by);

CREATE TABLE receipt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('run', 'add')),
    command TEXT NOT NULL,           -- the <command> part of the line
    observed TEXT NOT NULL,          -- the <observed result> part
    argv TEXT,                       -- JSON list for 'run'; NULL for 'add' (re-run by sh -c)
    cwd TEXT NOT NULL,               -- directory relative to root ('.' for the root)
    exit_code INTEGER NOT NULL,      -- the reported exit status
    duration_ms INTEGER,
    output_digest TEXT,
    recorded_at REAL NOT NULL
);
CREATE INDEX receipt_identity ON receipt (identity);

CREATE TABLE spot_check (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,          -- candidate computed before the re-run
    kind TEXT NOT NULL CHECK (kind IN ('rerun', 'readback')),
    receipt_id INTEGER REFERENCES receipt (id),
    command TEXT NOT NULL,
    reported_exit INTEGER,
    observed_exit INTEGER,
    agreed INTEGER NOT NULL CHECK (agreed IN (0, 1)),
    counts INTEGER NOT NULL CHECK (counts IN (0, 1)),
    identity_after TEXT,             -- candidate after the re-run
    note TEXT,
    duration_ms INTEGER,
    output_digest TEXT,
    readback TEXT,                   -- the structural readback text
    recorded_at REAL NOT NULL
);
CREATE INDEX spot_check_identity ON spot_check (identity);

CREATE TABLE verdict (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,
    brief_id TEXT NOT NULL,
    status TEXT NOT NULL,
    accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
    reasons TEXT NOT NULL,           -- JSON list of why it was not accepted
    json TEXT NOT NULL,              -- the verdict as given
    markdown TEXT NOT NULL,          -- its Markdown view
    recorded_at REAL NOT NULL
);
CREATE INDEX verdict_identity ON verdict (identity);

CREATE TABLE review_fact (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('declined', 'unavailable', 'consumed')),
    recorded_at REAL NOT NULL
);
CREATE INDEX review_fact_identity ON review_fact (identity);
"""

_V2 = """
-- shipping stakes: an escalation marked critical needs a second verifier (SPEC §9)
ALTER TABLE escalation ADD COLUMN critical INTEGER NOT NULL DEFAULT 0 CHECK (critical IN (0, 1));

CREATE TABLE commit_record (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    commit_id TEXT NOT NULL,
    identity TEXT NOT NULL,          -- the commit's committed candidate when recorded
    tree TEXT NOT NULL,              -- the commit's tree
    base_tree TEXT NOT NULL,         -- the candidate's base tree
    origin TEXT NOT NULL,            -- commit whose writer work this is (itself, or the
                                     -- commit it was rewritten from, transitively)
    rewritten_from TEXT,             -- the previous commit id after amend/rebase, or NULL
    stale INTEGER NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),  -- a rewrite changed the tree
    hook TEXT NOT NULL,              -- post-commit | post-rewrite
    recorded_at REAL NOT NULL
);
CREATE INDEX commit_record_commit ON commit_record (commit_id);
CREATE INDEX commit_record_origin ON commit_record (origin);
CREATE INDEX commit_record_identity ON commit_record (identity);

CREATE TABLE override (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,
    hook TEXT NOT NULL,              -- pre-commit | pre-push | ...
    target TEXT,                     -- the ref or commit let through (pushes)
    who TEXT NOT NULL,               -- git's committer ident of the person overriding
    reason TEXT NOT NULL,            -- GENTLE_HOOKS_SKIP
    missing TEXT NOT NULL,           -- JSON list of what was missing
    recorded_at REAL NOT NULL
);
CREATE INDEX override_identity ON override (identity);
"""

_V3 = """
-- RDD line for agent harnesses (SPEC §9, seed 000): one row per line a session rendered.
-- Append-only: the pinned line of a session is its latest row; a kept line writes nothing.
CREATE TABLE rdd_render (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,        -- the harness session (its own id, opaque)
    root TEXT NOT NULL,              -- work tree root the session rendered from
    mode TEXT NOT NULL CHECK (mode IN ('on', 'off', 'unknown')),  -- the rendered mode
    source TEXT NOT NULL,            -- the source that decided it (env, git-config, ...)
    line TEXT NOT NULL,              -- exactly the rendered 'Receipt-driven development: ...'
    previous_mode TEXT,              -- the mode it replaced, NULL for a session's first line
    row TEXT NOT NULL,               -- the transition row that rendered it (policy.rddline)
    recorded_at REAL NOT NULL
);
CREATE INDEX rdd_render_session ON rdd_render (session_id, id);
"""

_V4 = """
-- Attribution follows content (SPEC §3): one row per path a writer's mutation wrote, with
-- the blob it left, the blob it started from and the keys of the lines it added/removed.
CREATE TABLE writer_entry (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mutation_id INTEGER NOT NULL REFERENCES pending_mutation (id),
    root TEXT NOT NULL,
    path TEXT NOT NULL,              -- root-relative, as git names it
    blob TEXT,                       -- blob the writer left; NULL: it deleted the path
    before_blob TEXT,                -- blob it started from; NULL: absent; '*': unknown
    head TEXT,                       -- HEAD when recorded; NULL: unborn
    added TEXT NOT NULL,             -- JSON list of line keys the writer added
    removed TEXT NOT NULL,           -- JSON list of line keys the writer removed
    binary INTEGER NOT NULL CHECK (binary IN (0, 1)),
    state TEXT NOT NULL DEFAULT 'open'
        CHECK (state IN ('open', 'taken', 'settled', 'expired', 'discarded')),
    recorded_at REAL NOT NULL
);
CREATE INDEX writer_entry_path ON writer_entry (path, state);
CREATE INDEX writer_entry_root ON writer_entry (root, state);

-- Commits that carried an entry (a commit's content, not "the next commit", decides).
CREATE TABLE entry_take (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id INTEGER NOT NULL REFERENCES writer_entry (id),
    commit_id TEXT NOT NULL,
    identity TEXT NOT NULL,          -- the commit's committed candidate
    hook TEXT NOT NULL,
    recorded_at REAL NOT NULL
);
CREATE INDEX entry_take_entry ON entry_take (entry_id);
CREATE INDEX entry_take_commit ON entry_take (commit_id);

-- An escalation is sticky for the writer work it was made for (SPEC §5): its entries.
CREATE TABLE escalation_entry (
    escalation_id INTEGER NOT NULL REFERENCES escalation (id),
    entry_id INTEGER NOT NULL REFERENCES writer_entry (id),
    PRIMARY KEY (escalation_id, entry_id)
);

-- Pending writer work abandoned on purpose (gentle-hook discard), recorded like an override.
CREATE TABLE discard (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    who TEXT NOT NULL,
    reason TEXT NOT NULL,
    paths TEXT NOT NULL,             -- JSON list of the paths named; [] for --all
    entries TEXT NOT NULL,           -- JSON list of the entry ids discarded
    recorded_at REAL NOT NULL
);

-- Mutations recorded before contents were kept: each path becomes an entry any change of
-- that path carries (before_blob '*'), so work in flight at the upgrade is not laundered.
INSERT INTO writer_entry
    (mutation_id, root, path, blob, before_blob, head, added, removed, binary, state,
     recorded_at)
SELECT m.id, m.root, p.value, NULL, '*', NULL, '[]', '[]', 1, 'open', m.recorded_at
FROM pending_mutation AS m, json_each(m.paths) AS p
WHERE m.consumed_by IS NULL;
"""

_V5 = """
-- The verifier's clean room (SPEC §9, seed 001): what one 'gentle-hook verify run' observed
-- and the verdict it wrote, so 'verdict add' can tell an observed verdict from a claimed one.
CREATE TABLE verify_run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,          -- the candidate the room held
    brief_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pass', 'fail', 'blocked')),
    caller TEXT NOT NULL,            -- who asked for the verification
    room TEXT NOT NULL,              -- the clean room's directory
    artifact_ref TEXT NOT NULL,      -- the verdict's JSON, as the verdict names it
    verdict_digest TEXT NOT NULL,    -- sha256: of the verdict's canonical JSON
    observations TEXT NOT NULL,      -- JSON list: kind, command, exit, duration, digest
    recorded_at REAL NOT NULL
);
CREATE INDEX verify_run_identity ON verify_run (identity);

-- A stored verdict's artifact pair, who it names as caller, and the verify run that wrote it.
ALTER TABLE verdict ADD COLUMN artifact_ref TEXT;
ALTER TABLE verdict ADD COLUMN caller TEXT;
ALTER TABLE verdict ADD COLUMN observed_run INTEGER REFERENCES verify_run (id);
"""

_V6 = """
-- A runtime tool call records once (SPEC §6 "pending mutation": a replay records once).
-- A call is (source, session_id, tool_call_id). Rows recorded before this version stay as
-- they are (nothing recorded is rewritten); the trigger refuses any new row repeating a
-- call already recorded.
CREATE INDEX pending_mutation_call ON pending_mutation (tool_call_id, source, session_id);

CREATE TRIGGER pending_mutation_call_once
BEFORE INSERT ON pending_mutation
WHEN NEW.tool_call_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM pending_mutation
    WHERE tool_call_id = NEW.tool_call_id AND source IS NEW.source
        AND session_id IS NEW.session_id
)
BEGIN
    SELECT RAISE(ABORT, 'pending_mutation_call_once: this tool call is recorded already');
END;
"""

_V7 = """
-- Writers keep the idle sentinel beside the ledger (ledger.location.idle_path): it exists
-- only while nothing is pending. A writer that does not know it must not write here, so the
-- version moves on (an older gentle-hooks refuses a newer store). These two indexes answer
-- "is anything pending?" (PENDING_SQL) without scanning every entry ever recorded.
CREATE INDEX writer_entry_state ON writer_entry (state);
CREATE INDEX escalation_pending ON escalation (consumed_by);
"""

_V8 = """
-- A row no command can read, moved here whole by `gentle-hook doctor --fix` (never deleted):
-- its table and id there, why it was refused, and every column exactly as it was stored
-- (`row`: a JSON object of each column's storage class and bytes). A held row of writer
-- work keeps the gates closed until `doctor --restore ID` puts it back in its table or a
-- person ends it with `doctor --discard ID --reason TEXT` (kept here, marked discarded).
CREATE TABLE quarantine (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,            -- the table the row was moved out of
    source_id INTEGER,               -- its rowid there
    why TEXT NOT NULL,               -- what the row decoder refused
    row TEXT NOT NULL,               -- the row's values, exactly (ledger.quarantine)
    state TEXT NOT NULL DEFAULT 'held' CHECK (state IN ('held', 'restored', 'discarded')),
    who TEXT,                        -- who restored or discarded it
    reason TEXT,                     -- why it was discarded
    recorded_at REAL NOT NULL,
    ended_at REAL                    -- when it was restored or discarded
);
CREATE INDEX quarantine_state ON quarantine (state);
"""

_V9 = """
-- Which work tree made a commit (SPEC §3 "Attribution follows content"): a change made in
-- another worktree than the writer's carries its entry only on firmer evidence, and every
-- gate asks where the commit was made, not where the gate runs. Written by post-commit and
-- post-rewrite only while another work tree has live writer entries.
CREATE TABLE commit_worktree (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    commit_id TEXT NOT NULL,
    root TEXT NOT NULL,              -- the work tree root whose git made the commit
    hook TEXT NOT NULL,              -- post-commit | post-rewrite
    recorded_at REAL NOT NULL
);
CREATE INDEX commit_worktree_commit ON commit_worktree (commit_id);
"""

_V10 = """
-- The files a receipt's run created that git does not ignore, when the receipt is bound to
-- the work tree holding them (JSON list; NULL: none): a re-run rewrites them, so a gate
-- names them, and how to keep them out of the candidate, before its spot check.
ALTER TABLE receipt ADD COLUMN created TEXT;
"""

_V11 = """
-- A verify run row is an observation of this ledger only when it carries this ledger's seal
-- (ledger.seal: HMAC-SHA256 over its fields, keyed by gentle-hooks/ledger.key beside the
-- store); NULL: recorded before rows were sealed, or by hand. Another clone's row does not
-- verify here, so a verdict it wrote is not "observed" here.
ALTER TABLE verify_run ADD COLUMN mac TEXT;
"""

_V12 = """
-- `review ack` records the caller's acknowledgement as 'acknowledged', not native's word
-- 'consumed' (seed 000: native writes its consumed fact "when an approved review is
-- acknowledged"; a caller's ack is not that fact). SQLite cannot widen a CHECK in place, so
-- the table is rebuilt with every row as it was, its id and its id counter too (a row
-- `doctor --fix` moved aside keeps its id for `doctor --restore`); a 'consumed' row reads as
-- 'acknowledged' (ledger.rows.FORMER_VALUES).
ALTER TABLE review_fact RENAME TO review_fact_v11;
DROP INDEX review_fact_identity;
CREATE TABLE review_fact (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    identity TEXT NOT NULL,
    outcome TEXT NOT NULL
        CHECK (outcome IN ('declined', 'unavailable', 'acknowledged', 'consumed')),
    recorded_at REAL NOT NULL
);
INSERT INTO review_fact (id, root, identity, outcome, recorded_at)
SELECT id, root, identity, outcome, recorded_at FROM review_fact_v11 ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'review_fact';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'review_fact', seq FROM sqlite_sequence WHERE name = 'review_fact_v11';
DROP TABLE review_fact_v11;
CREATE INDEX review_fact_identity ON review_fact (identity);
"""

_V13 = """
-- The entries a discard ended while this work tree or its index held their writer content
-- again after it had gone (expired, or thrown away by a git reset): a human typed it again
-- and claims it (JSON list of entry ids; [] for a discard of work not in the change). A
-- claimed entry no longer delegates a change that holds it; the commit's note carries the
-- discard as an override line (SPEC §3 "Pending work ends cleanly").
ALTER TABLE discard ADD COLUMN claimed TEXT NOT NULL DEFAULT '[]';
"""

_V14 = """
-- A person's claim, in another worktree than the writer's, of the copy of that writer
-- work their own change holds (a same fix made by hand): JSON list of '<blob id> <path>',
-- the contents claimed; [] for every other discard. It ends no entry and binds only those
-- blobs at those paths, in changes made in its own worktree (issue 13).
ALTER TABLE discard ADD COLUMN blobs TEXT NOT NULL DEFAULT '[]';
"""

#: Ordered migration scripts: ``MIGRATIONS[i]`` upgrades version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    *(_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10, _V11),
    *(_V12, _V13, _V14),
)

#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)

#: Every trigger a store holds, by name, with the SQL SQLite kept of it: a trigger no
#: migration creates can change or delete records as they are written
#: (:meth:`gentle_hooks.ledger.connection.LedgerConnection.refuse_foreign_triggers`).
TRIGGERS_SQL = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"

_OWN_TRIGGERS: list[frozenset[tuple[str, str]]] = []


def own_triggers() -> frozenset[tuple[str, str]]:
    """(name, SQL with its whitespace collapsed) of each trigger the migrations create, as
    ``sqlite_master`` keeps it (the statement without its ``;``); read once per process
    from the migration scripts' text."""
    if not _OWN_TRIGGERS:
        # string search, not ``re``: the hooks' light probe asks this (importing and
        # compiling a pattern costs milliseconds there)
        text, start = "\n".join(MIGRATIONS), 0
        found: set[tuple[str, str]] = set()
        while (start := text.find("CREATE TRIGGER ", start)) >= 0:
            end = text.find("END;", start)
            while end > 0 and not text[end - 1].isspace():  # END as a word ends the body
                end = text.find("END;", end + 1)
            name = text[start + 15 : start + 200].split(None, 1)[0]
            found.add((name, " ".join(text[start : end + 3].split())))
            start = end if end > 0 else len(text)
        _OWN_TRIGGERS.append(frozenset(found))
    return _OWN_TRIGGERS[0]


def foreign_triggers(rows: Iterable[Sequence[object]]) -> list[str]:
    """The names of the triggers among ``rows`` (``(name, sql)`` as :data:`TRIGGERS_SQL`
    reads them) that no migration creates, or whose SQL is not ours; empty when every one
    is ours. Pure: the caller asks the store."""
    own = own_triggers()
    return [str(name) for name, sql in rows if (str(name), " ".join(str(sql).split())) not in own]


#: Tables whose rows only ever add evidence (a receipt, a verdict, an override, ...): one
#: held in quarantine only takes its evidence away, so the gate asks for it again. A held
#: row of any other table is writer work (or what says which commit carries it) the gates
#: cannot judge without, so they stay closed while it is held.
EVIDENCE_TABLES: tuple[str, ...] = (
    "receipt",
    "spot_check",
    "verdict",
    "verify_run",
    "override",
    "rdd_render",
)

#: The quarantined rows the gates cannot judge without (see :data:`EVIDENCE_TABLES`).
HELD_WORK = f"state = 'held' AND source NOT IN ({', '.join(repr(t) for t in EVIDENCE_TABLES)})"

#: A row when something is pending: a live writer entry (``open``, ``taken``), an
#: unconsumed escalation linked to no entry (it moves into the next commit, SPEC §5), or
#: writer work held in quarantine (:data:`HELD_WORK`). No row
#: is what the idle sentinel stands for: the hooks' light probes then find nothing to do
#: (:mod:`gentle_hooks.ledger.probe`).
PENDING_SQL = (
    "SELECT 1 FROM writer_entry WHERE state IN ('open', 'taken') "
    "UNION ALL SELECT 1 FROM escalation WHERE consumed_by IS NULL AND id NOT IN "
    "(SELECT escalation_id FROM escalation_entry) "
    f"UNION ALL SELECT 1 FROM quarantine WHERE {HELD_WORK} LIMIT 1"
)

#: The writer blobs of ended entries (settled, expired, discarded): the idle sentinel lists
#: them, one a line, so a commit that stages one again (expired or discarded content
#: restored: discarded writer content is still the writer's) or changes a committed one (an
#: amend of a writer commit) is judged in Python
#: (:func:`gentle_hooks.ledger.probe.ended_blobs_staged`).
ENDED_BLOBS_SQL = (
    "SELECT DISTINCT blob FROM writer_entry WHERE state IN ('settled', 'expired', 'discarded') "
    "AND blob IS NOT NULL AND blob != '' ORDER BY blob"
)

#: The paths of expired and discarded entries: the idle sentinel lists each after a tab
#: (:func:`sentinel_path_lines`), so a commit changing one (the work's distinctive lines may
#: be brought back: :func:`gentle_hooks.policy.distinctive.brought_back`) is judged in Python.
ENDED_PATHS_SQL = (
    "SELECT DISTINCT path FROM writer_entry WHERE state IN ('expired', 'discarded') ORDER BY path"
)
_C_ESCAPES = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r"}


def sentinel_path_lines(path: str | bytes) -> bytes:
    """The idle sentinel's lines for an ended entry's ``path``: a tab and the path as
    ``git diff --raw`` prints it, unquoted (``core.quotePath`` false; left out when git
    always quotes it) and C-quoted (git's default), each a fixed string ``grep -F`` finds."""
    raw = path if isinstance(path, bytes) else path.encode("utf-8", "surrogateescape")
    quoted = b"".join(
        _C_ESCAPES.get(c)
        or (b"\\" + bytes([c]) if c in b'"\\' else None)
        or (b"\\%03o" % c if c < 0x20 or c >= 0x7F else bytes([c]))
        for c in raw
    )
    lines = [] if any(c < 0x20 or c == 0x7F for c in raw) else [b"\t" + raw + b"\n"]
    if quoted != raw:
        lines.append(b'\t"' + quoted + b'"\n')
    return b"".join(dict.fromkeys(lines))


#: Tables holding records, for counts (doctor) and tests.
RECORD_TABLES: tuple[str, ...] = (
    "pending_mutation",
    "escalation",
    "receipt",
    "spot_check",
    "verdict",
    "review_fact",
    "commit_record",
    "override",
    "rdd_render",
    "writer_entry",
    "entry_take",
    "discard",
    "verify_run",
    "quarantine",
    "commit_worktree",
)
