"""The ledger file's SQLite header, checked without opening the file with SQLite
(SPEC §6).

Room: ledger, standard library only. :func:`check_header` says in one line why a file
cannot be the store (empty, not a SQLite database, truncated), before SQLite is asked to
open it; :mod:`.sqlite_file` and :mod:`.diagnose` call it.
"""

from __future__ import annotations

import os

_MAGIC = b"SQLite format 3\x00"


def check_header(path: str) -> str | None:
    """Cheap structural check of a database file without opening it with SQLite.

    Returns:
        None when the file is plausible; otherwise one line saying what is wrong: empty
        (a store is created whole and renamed into place, so an empty file is one that lost
        its contents), not a SQLite database, or truncated (the header promises more pages
        than the file holds while no write-ahead log could supply them).

    Raises:
        OSError: the file cannot be read.
    """
    size = os.path.getsize(path)
    if size == 0:
        return "empty: truncated to 0 bytes (a store is never created empty)"
    with open(path, "rb") as fh:
        header = fh.read(100)
    if len(header) < 100 or not header.startswith(_MAGIC):
        return "not a SQLite database (bad header)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]
    try:  # another process may remove the WAL between two calls: absent is empty
        wal_has_frames = os.path.getsize(path + "-wal") > 32
    except FileNotFoundError:
        wal_has_frames = False
    if valid and pages and not wal_has_frames and pages * page_size > size:
        return (
            f"truncated: the header promises {pages} pages of {page_size} bytes, "
            f"the file holds {size} bytes"
        )
    return None
