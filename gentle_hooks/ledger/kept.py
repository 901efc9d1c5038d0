"""Files kept aside beside the ledger that hold writer records no command has read yet (SPEC
§6 "An unreadable or corrupt store fails closed"; docs/robustness.md "Kept aside").

Room ``ledger``, a leaf (``os`` only at load): the hooks' pass path asks it. Two kinds:

* ``spool.jsonl.bad-<time>-<random>``: spool lines the fold could not read as records
  (:func:`gentle_hooks.ledger.spool.keep_aside`), or a spool that could not be read at all;
* ``ledger.sqlite3.damaged-<stamp>``: a damaged ledger moved aside whose rows were not
  recovered into the ledger yet (``doctor --fix`` recovers them and renames it
  ``ledger.sqlite3.salvaged-<stamp>``: :mod:`gentle_hooks.ledger.salvage`).

While one exists, the commit and push gates fail closed (:func:`refuse_kept`), naming it and
``gentle-hook doctor --fix``, which folds in what it can read and holds what it cannot in the
quarantine table, where it keeps the gates closed until a person discards it
(``doctor --discard ID --reason TEXT``). The installed hooks' ``sh`` fast path sees the same
names (:data:`gentle_hooks.ledger.probe.IDLE_ROWS`, row ``kept-aside``).
"""

from __future__ import annotations

import os

from gentle_hooks.ledger.location import LEDGER_FILE, SPOOL_FILE

#: Names of spool lines kept aside (:data:`gentle_hooks.ledger.spool.BAD_SUFFIX`).
SPOOL_KEPT = SPOOL_FILE + ".bad-"
#: Names of damaged ledgers moved aside whose rows were not recovered yet.
DAMAGED_KEPT = LEDGER_FILE + ".damaged-"
#: A damaged ledger whose readable rows ``doctor --fix`` recovered (never blocks).
SALVAGED = LEDGER_FILE + ".salvaged-"
#: The files SQLite keeps beside a database, moved aside with it.
COMPANIONS = ("-wal", "-shm", "-journal")


def kept_files(state_dir: str) -> list[str]:
    """The kept-aside files in the state directory ``state_dir`` that keep the gates closed,
    sorted (a damaged ledger's ``-wal``/``-shm`` companions are not listed apart); none when
    the directory cannot be listed."""
    try:
        names = os.listdir(state_dir)
    except OSError:
        return []
    return sorted(
        os.path.join(state_dir, n)
        for n in names
        if n.startswith(SPOOL_KEPT) or (n.startswith(DAMAGED_KEPT) and not n.endswith(COMPANIONS))
    )


def refuse_kept(ledger: str) -> None:
    """The gates' check: raise while a kept-aside file beside the ledger ``ledger`` holds
    writer records no command has read.

    Raises:
        StoreError: one line naming the first file, how many there are, and
            ``gentle-hook doctor --fix`` (exit 2).
    """
    found = kept_files(os.path.dirname(ledger))
    if not found:
        return
    from gentle_hooks.ledger.sqlite_file import StoreError

    first = found[0]
    more = f" ({len(found)} files kept aside)" if len(found) > 1 else ""
    if os.path.basename(first).startswith(SPOOL_KEPT):
        what = "holds spooled writer records no command could read"
    else:
        what = "is a damaged ledger moved aside whose rows were not recovered"
    raise StoreError(
        first,
        f"{what}{more}; the gates stay closed until doctor --fix folds in what it can read "
        "(what it cannot is held in quarantine until a person discards it)",
        fix=True,
    )
