"""Where gentle-hooks keeps its state (SPEC §6): ``<git-common-dir>/gentle-hooks/``.

Room: ledger; a leaf (``os.path`` only), so the hook pass path can find the ledger without
importing the store. It also says how a text that is not UTF-8 is kept
(:func:`sql_text`, :func:`from_sql_text`).
"""

from __future__ import annotations

import os

STATE_DIR = "gentle-hooks"
LEDGER_FILE = "ledger.sqlite3"
#: The sentinel beside the ledger that says "nothing pending" (:func:`idle_path`).
IDLE_FILE = "idle"
#: Writer records waiting for the ledger's write lock (:mod:`gentle_hooks.ledger.spool`).
SPOOL_FILE = "spool.jsonl"
#: The name of a file of the state directory holding the rewritten commits a stopped
#: post-rewrite did not record, up to its random part
#: (:func:`gentle_hooks.hooks.rewrites.keep_unrecorded`).
REST_PREFIX = "post-rewrite-rest-"


def ledger_path(common_dir: str) -> str:
    """The ledger file for a repository: ``<common_dir>/gentle-hooks/ledger.sqlite3``.

    Args:
        common_dir: absolute git common dir, shared by linked worktrees.
    """
    return os.path.join(common_dir, STATE_DIR, LEDGER_FILE)


def idle_path(ledger: str) -> str:
    """The idle sentinel of the ledger file ``ledger``: ``<state dir>/idle``.

    It exists only while the ledger holds no live writer entry (``open``, ``taken``) and no
    unconsumed escalation linked to no entry: every write transaction removes it before it
    writes, and it is created only inside a write lock that saw nothing pending
    (:func:`gentle_hooks.ledger.sqlite_file.settle_idle`); a writer's connection brings its time
    past its own last change to the ledger when it closes. The installed hook scripts trust
    it only while neither the ledger nor a write-ahead log with frames in it is newer, to
    pass a human's commit without starting Python (docs/fast-path.md).
    """
    return os.path.join(os.path.dirname(ledger), IDLE_FILE)


def state_dir_displaced(common_dir: str) -> bool:
    """Whether something other than a directory (a file, a symbolic link) stands where the
    state directory belongs. Not "no ledger": the records that were there are out of reach,
    so every reader hands this to the store, which refuses it in one line (a gate fails
    closed) instead of treating the repository as one nothing was recorded in."""
    directory = os.path.join(common_dir, STATE_DIR)
    return os.path.islink(directory) or (
        os.path.lexists(directory) and not os.path.isdir(directory)
    )


def sql_text(value: str) -> str | bytes:
    """Text as SQLite stores it (the adapter of ``str`` parameters): text that UTF-8 cannot
    encode (a non-UTF-8 path, its bytes kept by ``surrogateescape``) as the BLOB of those
    bytes, any other text as it is.

    The same text always gives the same BLOB, so it is found by equality like any text;
    :func:`from_sql_text` turns it back into the same string. A BLOB is never valid UTF-8
    (the row decoder refuses one that is: something else wrote it).
    """
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            if _escaped(value):
                data = value.encode("utf-8", "surrogateescape")
                try:  # escapes that spell valid UTF-8 (never os.fsdecode's) stay escapes
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    return data
            return value.encode("utf-8", "surrogatepass")
    return value


def _escaped(value: str) -> bool:
    """Whether every lone surrogate of ``value`` is one ``surrogateescape`` made."""
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in value)


def from_sql_text(value: bytes) -> str:
    """The string :func:`sql_text` stored as a BLOB."""
    return value.decode("utf-8", "surrogateescape")
