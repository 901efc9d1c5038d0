"""The doctor's repairs of the ledger (SPEC §6, §7): ``doctor --fix`` writes back a lowered
schema version, sets an id counter at its end back, drops a trigger gentle-hooks did not
create, moves a damaged ledger aside and
recovers its readable rows into a new one (:func:`salvage_ledgers`), moves rows no command
can read into the quarantine table, keeping all; ``doctor --restore`` /
``--discard`` end a quarantine.

Room ``services``. Each repair runs only when :func:`~gentle_hooks.ledger.diagnose.diagnose`
finds what it repairs, and never deletes a record.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

from gentle_hooks.errors import Command, GentleError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.diagnose import diagnose, is_damaged
from gentle_hooks.ledger.location import ledger_path

_Moved = TypeVar("_Moved")


def _ledger_of(cwd: str | None) -> str:
    """The ledger path of the repository at ``cwd``.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    return ledger_path(Repository.open(cwd, allow_bare=True).paths.common_dir)


def _repair(cwd: str | None, check: str, repair: Callable[[str], list[str]]) -> list[str]:
    """``repair`` of the ledger of the repository at ``cwd`` (the lines it returns), run only
    when the diagnose check named ``check`` finds something it can fix; nothing otherwise.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    path = _ledger_of(cwd)
    if not any(c.name == check and c.fixable for c in diagnose(path)):
        return []
    return repair(path)


def _moved_aside(
    path: str,
    move: Callable[[str, str], _Moved],
    said: Callable[[_Moved], list[str]],
    failed: Callable[[OSError], str],
) -> list[str]:
    """``move(path, stamp)``, the stamp the UTC time (``YYYYmmddTHHMMSSZ``): the lines
    ``said`` makes of what it returns, or the one line ``failed`` makes of its
    :class:`OSError` (nothing was moved)."""
    import time

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    try:
        moved = move(path, stamp)
    except OSError as exc:
        return [failed(exc)]
    return said(moved)


def restore_schema(cwd: str | None) -> list[str]:
    """``doctor --fix``: write back the schema version of a ledger whose ``user_version``
    was lowered below its tables (the ``schema`` check fails: no command can use it), when
    its tables are exactly some version's
    (:func:`~gentle_hooks.ledger.schema_repair.restore_version`); the line saying what was
    done or why nothing was. Nothing for any other ledger.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.schema_repair import restore_version

    return _repair(cwd, "schema", lambda path: list(filter(None, [restore_version(path)])))


def reset_counters(cwd: str | None) -> list[str]:
    """``doctor --fix``: set an id counter at the end of SQLite's ids back to the highest id
    its table holds, when the ``counters`` check finds one it can fix
    (:func:`~gentle_hooks.ledger.schema_repair.reset_counters`); the lines saying what was
    done or why nothing was. Nothing for any other ledger.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger import schema_repair

    return _repair(cwd, "counters", schema_repair.reset_counters)


def drop_triggers(cwd: str | None) -> list[str]:
    """``doctor --fix``: create again the tables, indexes and triggers of ours a ledger
    lacks (a table empty: :func:`~gentle_hooks.ledger.schema_repair.create_missing`), then
    drop the triggers gentle-hooks did not create and put back ours whose SQL was changed
    (:func:`~gentle_hooks.ledger.schema_repair.drop_foreign_triggers`), when they are all
    the ``schema`` check finds; one line per object, a trigger's keeping its SQL. Nothing
    for any other ledger.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger import schema_repair

    def repair(path: str) -> list[str]:
        return schema_repair.create_missing(path) + schema_repair.drop_foreign_triggers(path)

    return _repair(cwd, "schema", repair)


def quarantine_rows(cwd: str | None) -> list[tuple[str, Command | None]]:
    """``doctor --fix``: move every row no command can read into the quarantine table
    (:meth:`~gentle_hooks.ledger.quarantine.Quarantine.quarantine_bad_rows`); per row what
    moved, with the command that puts it back. Nothing when the ledger is absent or
    damaged as a file (that is :func:`repair_ledger`'s).

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.store import Ledger

    path = _ledger_of(cwd)
    checks = diagnose(path)
    if is_damaged(path, checks) or not any(
        c.name in ("rows", "constraints") and not c.ok for c in checks
    ):
        return []
    try:
        with Ledger.open(path) as led:
            held = led.quarantine_bad_rows()
    except GentleError as exc:
        return [(f"could not quarantine the rows: {exc.message}", None)]
    return [
        (
            f"quarantined {q.source} row {q.source_id} as quarantine {q.id} ({q.why})",
            cli("doctor", "--restore", str(q.id)),
        )
        for q in held
    ]


def end_quarantine(
    cwd: str | None, restore: int | None, discard: int | None, reason: str | None
) -> str:
    """``doctor --restore ID`` or ``doctor --discard ID --reason TEXT``: put a held row
    back into its table exactly, or mark it discarded (kept) by the committer ident, with
    why; the line saying what was done.

    Raises:
        UsageError: neither or both, a discard without a reason, no such held row;
        GitError / StoreError: not a repository; the store cannot be written.
    """
    from gentle_hooks.errors import UsageError
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.policy.inputs import validate_label

    if (restore is None) == (discard is None):
        raise UsageError("doctor: --restore ID or --discard ID, one of them")
    repo = Repository.open(cwd, allow_bare=True)
    path = ledger_path(repo.paths.common_dir)
    if not os.path.lexists(path):
        raise UsageError(f"{path}: no ledger, so nothing is in quarantine")
    with Ledger.open(path) as writable:
        if restore is not None:
            rec = writable.restore(restore, repo.ident())
            return f"restored {rec.source} row {rec.source_id} from quarantine {rec.id}"
        why = validate_label(reason, "--reason", required=True)
        assert why is not None and discard is not None
        rec = writable.discard_quarantined(discard, repo.ident(), why)
        return (
            f"discarded quarantine {rec.id} ({rec.source} row {rec.source_id}), by "
            f"{repo.ident()} ({why!r}); its values stay in the quarantine table"
        )


def set_journal_aside(cwd: str | None) -> list[str]:
    """``doctor --fix``: move a stale rollback journal beside a write-ahead-log ledger aside
    (kept, renamed with the UTC time), when the ``journal`` check finds one; the line saying
    what was moved. The ledger's rows are untouched.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.diagnose import move_journal_aside

    def move(path: str) -> list[str]:
        return _moved_aside(
            path,
            move_journal_aside,
            lambda moved: [f"moved the stale rollback journal aside: {moved}"] if moved else [],
            lambda exc: f"could not move the stale journal of {path} aside: {exc.strerror}",
        )

    return _repair(cwd, "journal", move)


def set_state_aside(cwd: str | None) -> list[str]:
    """``doctor --fix``: move what stands in the state directory's place when it is not a
    directory (a file, a FIFO; a symbolic link is left) aside, kept as
    ``gentle-hooks.broken-TIME``, and make the state directory again
    (:func:`~gentle_hooks.ledger.diagnose.move_state_aside`); the line saying what was done.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.diagnose import move_state_aside, state_not_directory

    path = _ledger_of(cwd)
    if state_not_directory(path) is None:
        return []
    directory = os.path.dirname(path)
    return _moved_aside(
        path,
        move_state_aside,
        lambda moved: [
            f"moved {directory} (not a directory) aside: {moved}; made the state directory"
        ],
        lambda exc: f"could not move {directory} aside: {exc.strerror}",
    )


def set_odd_companions_aside(cwd: str | None) -> list[str]:
    """``doctor --fix``: move what stands at a name SQLite keeps beside the ledger
    (``-wal``, ``-shm``, ``-journal``) aside when it is not a file SQLite could have
    written (a FIFO blocks every open for ever), kept and renamed
    (:func:`~gentle_hooks.ledger.diagnose.move_odd_companions_aside`), when the ``store``
    check finds one; the lines saying what was moved.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.diagnose import move_odd_companions_aside

    def move(path: str) -> list[str]:
        return _moved_aside(
            path,
            move_odd_companions_aside,
            lambda moved: [f"moved {old} ({kind}) aside: {new}" for kind, old, new in moved],
            lambda exc: f"could not move {exc.filename} aside: {exc.strerror}",
        )

    return _repair(cwd, "store", move)


def fold_spool(cwd: str | None) -> list[str]:
    """``doctor --fix``: fold the writer records waiting in the spool into the ledger
    (:mod:`gentle_hooks.ledger.spool`); the line saying what happened.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger import spool
    from gentle_hooks.ledger.sqlite_file import StoreError
    from gentle_hooks.ledger.store import Ledger

    path = _ledger_of(cwd)
    if not spool.waiting(path):
        return []
    try:
        Ledger.open(path).close()
    except StoreError as exc:
        return [f"could not fold the spool in: {exc}"]
    if spool.waiting(path):
        return [f"the spool still waits: {spool.spool_path(path)} (the write lock is held)"]
    return [f"folded the spooled writer records into the ledger: {path}"]


def repair_ledger(cwd: str | None) -> list[str]:
    """``doctor --fix``: move a damaged ledger aside (kept, renamed with the UTC time); the
    lines saying what was moved. A healthy or absent ledger is left alone.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.diagnose import move_aside

    path = _ledger_of(cwd)
    if not is_damaged(path, diagnose(path)):
        return []
    return _moved_aside(
        path,
        move_aside,
        lambda moved: [f"moved the damaged ledger aside: {path} -> {moved}"],
        lambda exc: f"could not move {path} aside: {exc.strerror}",
    )


def salvage_ledgers(cwd: str | None) -> list[tuple[str, Command | None]]:
    """``doctor --fix``, after :func:`repair_ledger`: recover the readable rows of each
    damaged ledger moved aside (``ledger.sqlite3.damaged-*``) into the ledger (a new one
    when none is left) and rename it ``ledger.sqlite3.salvaged-*`` (kept)
    (:func:`~gentle_hooks.ledger.salvage.salvage`); per file what was recovered, and per
    table of writer work that lost rows, the quarantine row that holds it with the command
    a person runs to discard it (the gates stay closed until then).

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.ledger.records import QuarantineRecord
    from gentle_hooks.ledger.salvage import damaged_files, salvage
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.services.doctor_spool import each_kept_file

    path = _ledger_of(cwd)

    def recover(led: Ledger, damaged: str) -> tuple[str, Sequence[QuarantineRecord]]:
        done = salvage(led, damaged)
        rows = sum(done.recovered.values())
        return f"recovered {rows} row(s) of {damaged} into {path}; kept as {done.kept}", done.held

    return each_kept_file(
        path,
        damaged_files(path),
        recover,
        lambda damaged, exc: (
            f"could not recover the rows of {damaged}: "
            + (exc.message if isinstance(exc, GentleError) else str(exc.strerror))
        ),
        lambda rec: (
            f"held as quarantine {rec.id}: {rec.why}; it keeps the gates closed until a "
            "person who recorded that work again (or abandons it) discards it"
        ),
        fold=False,  # the spool is folded after the rows
    )


def held_way_out(path: str) -> tuple[str, Command | None]:
    """How the first held writer work of the ledger at ``path`` ends, said before its
    command, and that command: ``doctor --restore ID`` (a person may discard it instead),
    or ``doctor --discard ID --reason ...`` alone when nothing can be put back (a spool
    line or a damaged ledger's lost rows: :func:`~gentle_hooks.ledger.quarantine.way_out`).
    The command is None when the ledger cannot be read; doctor changes nothing."""
    from gentle_hooks.ledger.quarantine import way_out
    from gentle_hooks.ledger.store import Ledger

    discard = "a person discards it (doctor --discard ID --reason TEXT)"
    try:
        led = Ledger.open_existing(path, fold=False)  # doctor changes nothing
        if led is None:
            return "; restore it, or " + discard, None
        with led:
            held = led.held_work()
    except GentleError:
        return "; restore it, or " + discard, None
    if not held:
        return "; restore it, or " + discard, None
    first = way_out(held[0])
    return ("; " if len(first) == 1 else "; restore it, or ") + discard, first[0]
