"""The doctor's check and repair of the ledger's key (SPEC §9, §10): ``ledger.key`` beside
the ledger seals each ``verify_run`` row (:mod:`gentle_hooks.ledger.seal`).

Room ``services``. A key that is a link, a FIFO, a directory, of the wrong size or open to
other users seals nothing (``verify run`` fails, no run counts as observed), so ``doctor``
fails naming the path and what is wrong. ``doctor --fix`` makes a key whose mode alone is
wrong private again; it moves any other key file aside (kept, renamed) and makes a new key
only when no sealed row depends on the key that was there: a new key would leave those
rows unverified, so then it says so and leaves the file for a person.
"""

from __future__ import annotations

import os

from gentle_hooks.errors import Command, GentleError, cli
from gentle_hooks.ledger.seal import KeyFault, key_path, key_problem, ledger_key


def _sealed_runs(path: str) -> int | None:
    """How many sealed verify runs the ledger at ``path`` holds (0 without a ledger), or
    None when it cannot be read."""
    from gentle_hooks.ledger.store import Ledger

    try:
        led = Ledger.open_existing(path, fold=False)  # doctor changes nothing
        if led is None:
            return 0
        with led:
            return led.sealed_run_count()
    except GentleError:
        return None


def _kept_words(path: str, sealed: int | None) -> str:
    """Why the fix leaves the key file of the ledger at ``path`` alone, and what to do."""
    held = (
        "the ledger cannot be read to count the verify runs sealed with it"
        if sealed is None
        else f"{sealed} sealed verify run(s) depend on the key that belongs there"
    )
    return (
        f"; {held}: a new key would leave them unverified (their verdicts would no longer "
        f"count as observed), so the fix leaves it: put the original key back at "
        f"{key_path(path)} (32 bytes, mode 600), or move that file away yourself and verify "
        "those candidates again (a new key is made on the next verify run)"
    )


#: One ``key`` check: whether it passed, its line, the command that fixes it.
KeyCheck = tuple[bool, str, Command | None]


def key_checks(path: str) -> list[KeyCheck]:
    """The ``key`` check of the ledger at ``path``: nothing when there is no key yet (the
    first ``verify run`` makes it); passed for a usable key; failed with the path and what
    is wrong, and ``doctor --fix`` when it repairs it (:func:`repair_key`)."""
    problem = key_problem(path)
    if problem is None:
        if not os.path.lexists(key_path(path)):
            return []
        return [(True, f"{key_path(path)}: a private key of 32 bytes", None)]
    words, only_mode = problem
    if only_mode:
        fix = "; the fix makes it readable by its owner only (mode 600)"
        return [(False, words + fix, cli("doctor", "--fix"))]
    sealed = _sealed_runs(path)
    if sealed == 0:
        fix = (
            "; verify run cannot seal its runs; the fix moves it aside, kept as "
            "ledger.key.broken-TIME, and makes a new key"
        )
        return [(False, words + fix, cli("doctor", "--fix"))]
    return [(False, words + _kept_words(path, sealed), None)]


def repair_key(cwd: str | None) -> list[str]:
    """``doctor --fix`` of the key of the ledger of the repository at ``cwd``: a key whose
    mode alone is wrong is made ``0600``; any other key file is moved aside to
    ``ledger.key.broken-<UTC time>`` (kept) and a new key made, only when no sealed verify
    run depends on it (otherwise the line says why it is left). The lines saying what was
    done; nothing for a usable or absent key.

    Raises:
        GitError: ``cwd`` is not in a repository.
    """
    import time

    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.location import ledger_path

    path = ledger_path(Repository.open(cwd, allow_bare=True).paths.common_dir)
    problem = key_problem(path)
    if problem is None:
        return []
    key = key_path(path)
    if problem[1]:
        try:
            # O_NOFOLLOW: a link swapped in since the check is not chmod-ed through
            fd = os.open(key, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                os.fchmod(fd, 0o600)
            finally:
                os.close(fd)
        except OSError as exc:
            return [f"could not make {key} private: {exc.strerror}"]
        return [f"made {key} readable by its owner only (mode 600)"]
    sealed = _sealed_runs(path)
    if sealed != 0:
        return [f"left {key} as it is" + _kept_words(path, sealed)]
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = f"{key}.broken-{stamp}"
    try:
        if os.path.lexists(aside):
            raise FileExistsError(0, "already exists", aside)
        os.rename(key, aside)
        ledger_key(path, create=True)
    except (OSError, GentleError, KeyFault) as exc:
        why = exc.message if isinstance(exc, GentleError) else str(exc)
        return [f"could not replace the key {key}: {why}"]
    return [f"moved the broken key aside: {key} -> {aside}; made a new key"]
