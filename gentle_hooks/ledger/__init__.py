"""Ledger: the local SQLite store of what was done for which candidate (SPEC §6).

Room: ledger. Imports the standard library, :mod:`gentle_hooks.errors`,
:mod:`gentle_hooks.values` and (for :mod:`.verifiers` and :mod:`.facts` only)
:mod:`gentle_hooks.policy`; never
git, click or pydantic. One database per repository at
``<git-common-dir>/gentle-hooks/ledger.sqlite3``, shared by linked worktrees. Imports flow
up this list:

* :mod:`.location` — where the ledger file is; a leaf the hook pass path uses alone.
* :mod:`.schema` — the tables and their ordered forward migrations.
* :mod:`.records` — the frozen record types (pending mutation, escalation, receipt...).
* :mod:`.rows` — records to table rows and back.
* :mod:`.seal` — the ledger's secret and its HMAC on each ``verify run`` row: another
  clone's row is no observation here.
* :mod:`.lock_wait` — how long a process waits for another's write lock, and who holds it.
* :mod:`.error_cause` — why SQLite refused the store: a lock holder, a full disk, a stale
  journal; schema and ``PRAGMA`` reports read without failing on text that is not UTF-8.
* :mod:`.header` — the database file's SQLite header, checked before SQLite opens it.
* :mod:`.sqlite_file` — the database file: header check, created whole, opened in WAL mode,
  migrated, write transactions, :class:`~.sqlite_file.StoreError`.
* :mod:`.schema_repair` — the version a store's tables are; a lowered ``user_version``
  written back by ``doctor --fix``.
* :mod:`.diagnose` — ``gentle-hook doctor``'s read-only look at a store.
* :mod:`.spool` — writer records that waited past another process's write lock, one durable
  JSON line each, until a writer folds them in.
* :mod:`.connection` — the open store: transactions, typed reads, one record added.
* :mod:`.spool_fold` — the spool folded into the store, each mutation stored once; the
  lines it cannot read kept aside, and folded again by ``doctor --fix``.
* :mod:`.kept` — kept-aside files of unread writer records (spool lines, a damaged ledger);
  the gates stay closed while one exists.
* :mod:`.salvage` — the readable rows of a damaged ledger recovered into a new one.
* :mod:`.pending` — pending writer work: mutations, their entries by path, the commits
  that took them, sticky escalations, discards.
* :mod:`.quarantine` — rows no command can read, moved aside whole by ``doctor --fix``,
  restored exactly or discarded; held writer work keeps the gates closed.
* :mod:`.store` — :class:`~.store.Ledger`: records bound to a candidate, commit records,
  RDD lines, on top of the pending work.
* :mod:`.probe` — the hook pass path's question: is there writer work here?
* :mod:`.fails` — observed ``verify run`` failures no later pass of the same checks settled.
* :mod:`.verifiers` — who gave a verdict, as the stakes count verifiers; how a block names one.
* :mod:`.facts` — one candidate's records as the policy's inputs.

The modules use SQLite through ``_sqlite3``, the C module ``sqlite3`` re-exports: the same
``connect``, ``Connection``, ``Row``, errors and ``register_adapter``, without the
package's ``dbapi2`` (which imports :mod:`datetime` to register date adapters and converters
that no column here uses: ≈ 2 ms of the gates' start).
"""
