"""The doctor's view of the spool (SPEC §6): writer records waiting beside the ledger, spool
lines kept aside for not being records, and damaged ledgers moved aside whose rows were
not recovered yet (both keep the gates closed: :mod:`gentle_hooks.ledger.kept`).

Room ``services``. Plain ``doctor`` changes nothing: it reports what stands at the spool's
name (a link or another file that is not a spool included) and never folds, reads or moves
it; ``doctor --fix`` folds it, or moves it aside (kept, renamed), and folds the kept-aside
files of lines no fold could read (:func:`fold_kept_spools`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from gentle_hooks.errors import Command, GentleError, cli, shown
from gentle_hooks.ledger import spool
from gentle_hooks.ledger.location import REST_PREFIX

if TYPE_CHECKING:
    from gentle_hooks.ledger.records import QuarantineRecord
    from gentle_hooks.ledger.store import Ledger


def spool_findings(path: str) -> list[tuple[str, Command | None]]:
    """Per failing ``spool`` check of the ledger at ``path``, its detail and the command
    that resolves it: records waiting in the spool (``doctor --fix`` folds them in once
    the write lock is free), something other than a regular file at the spool's name (the
    fix moves it aside), and each spool moved aside before (kept for a person to read)."""
    out: list[tuple[str, Command | None]] = []
    where = spool.spool_path(path)
    if os.path.islink(where) or (os.path.lexists(where) and not os.path.isfile(where)):
        what = "a symbolic link" if os.path.islink(where) else "not a regular file"
        out.append(
            (
                f"{where}: is {what}, not a spool (not read; the fix moves it aside, kept as "
                "spool.jsonl.bad-TIME)",
                cli("doctor", "--fix"),
            )
        )
    elif spool.waiting(path):
        out.append(
            (
                f"{where}: writer records wait for the ledger's write lock (the gates fail "
                "closed until they are folded in; the next command that writes folds them)",
                cli("doctor", "--fix"),
            )
        )
    for kept in spool.kept_aside(path):
        out.append(
            (
                f"{kept}: spooled writer records no command could read, kept aside (the gates "
                "fail closed while it is there); the fix folds in what it can read and holds "
                "the rest in quarantine, until a person discards it",
                cli("doctor", "--fix"),
            )
        )
    return out


def rest_findings(path: str) -> list[tuple[str, Command | None]]:
    """Per ``post-rewrite-rest-*`` file beside the ledger at ``path`` (rewritten commits a
    stopped post-rewrite did not record: :func:`gentle_hooks.hooks.rewrites.keep_unrecorded`),
    its detail and the command that records them (the file is removed once it has)."""
    directory = os.path.dirname(path)
    try:
        names = sorted(n for n in os.listdir(directory) if n.startswith(REST_PREFIX))
    except OSError:
        return []
    out: list[tuple[str, Command | None]] = []
    for name in names:
        where = os.path.join(directory, name)
        what = f"{shown(where)}: rewritten commits a stopped post-rewrite did not record"
        out.append((what, Command(("hook", "post-rewrite", "rebase"), stdin=where)))
    return out


def fold_kept_spools(cwd: str | None) -> list[tuple[str, Command | None]]:
    """``doctor --fix``: fold the kept-aside spool files beside the ledger in
    (:func:`~gentle_hooks.ledger.spool_fold.fold_kept`): the records they hold are stored,
    each line still not a record is held in quarantine (it keeps the gates closed until a
    person discards it: the command is given), and the file is renamed
    ``spool.jsonl.folded-...`` (kept). Per file and held line, what was done.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.ledger.spool_fold import fold_kept

    path = ledger_path(Repository.open(cwd, allow_bare=True).paths.common_dir)

    def fold(led: Ledger, kept: str) -> tuple[str, Sequence[QuarantineRecord]]:
        stored, held = fold_kept(led, kept)
        return f"folded {stored} spooled writer record(s) from {kept} into the ledger", held

    def failed(kept: str, exc: GentleError | OSError) -> str:
        if isinstance(exc, GentleError):
            return f"could not fold {kept} in: {exc.message}"
        return f"folded {kept} in, but could not rename it: {exc.strerror}"

    return each_kept_file(
        path,
        spool.kept_aside(path),
        fold,
        failed,
        lambda rec: (
            f"held {rec.why} as quarantine {rec.id}: it keeps the gates closed until "
            "a person who recorded its writes again (or abandons them) discards it"
        ),
    )


def each_kept_file(
    path: str,
    files: Iterable[str],
    act: Callable[[Ledger, str], tuple[str, Sequence[QuarantineRecord]]],
    failed: Callable[[str, GentleError | OSError], str],
    held: Callable[[QuarantineRecord], str],
    *,
    fold: bool = True,
) -> list[tuple[str, Command | None]]:
    """``doctor --fix`` over files kept aside beside the ledger at ``path``: per file of
    ``files``, ``act`` on the ledger opened (``fold``: its spool folded in first), which
    returns the line saying what it did and the quarantine rows it now holds; that line,
    then per held row the line ``held`` makes of it with the command that ends it
    (:func:`~gentle_hooks.ledger.quarantine.way_out`). A :class:`GentleError` or
    :class:`OSError` stops that file only: the line ``failed`` makes of it, no command."""
    from gentle_hooks.ledger.quarantine import way_out
    from gentle_hooks.ledger.store import Ledger

    out: list[tuple[str, Command | None]] = []
    for kept in files:
        try:
            with Ledger.open(path, fold=fold) as led:
                done, rows = act(led, kept)
        except (GentleError, OSError) as exc:
            out.append((failed(kept, exc), None))
            continue
        out.append((done, None))
        out.extend((held(rec), way_out(rec)[0]) for rec in rows)
    return out


def damaged_findings(path: str) -> list[tuple[str, Command | None]]:
    """Per damaged ledger moved aside beside the ledger at ``path`` whose rows were not
    recovered (``ledger.sqlite3.damaged-*``: the gates fail closed while it is there), its
    detail and ``doctor --fix``, which recovers them."""
    from gentle_hooks.ledger.salvage import damaged_files

    return [
        (
            f"{kept}: a damaged ledger moved aside whose rows were not recovered (the gates "
            "fail closed while it is there); the fix recovers every row SQLite can read and "
            "holds the writer work it cannot in quarantine, until a person discards it",
            cli("doctor", "--fix"),
        )
        for kept in damaged_files(path)
    ]


def unchecked_while_spooled(path: str) -> str | None:
    """Why a check reading the ledger at ``path`` is not run now: a spool waits, which
    only ``doctor --fix`` folds (or moves aside); None when nothing stands at its name."""
    if not (os.path.lexists(path) and spool.waiting(path)):
        return None
    return (
        f"not checked while {spool.spool_path(path)} waits to be folded in (the fix folds it first)"
    )
