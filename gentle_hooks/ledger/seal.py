"""The ledger's own seal on what ``verify run`` observed (SPEC §6, §9): a per-ledger secret
and an HMAC over each ``verify_run`` row.

Room: ledger (standard library and :mod:`.records`). A verify run row says "this clone's
verifier observed exactly this"; ``verdict add`` under ``verification.require_observed``
and the gates count a verdict as observed only through such a row. A row is plain SQL, so
another clone's row (and the verdict it wrote) could be inserted into this ledger and make
a replayed verdict "observed". Each row therefore carries ``mac``: HMAC-SHA256, keyed by
this ledger's secret, over the row's fields (:func:`run_mac`); a row whose MAC does not
verify with this ledger's key (another clone's, hand-written, edited, or recorded before
rows were sealed) is not an observation here.

The secret is :data:`KEY_FILE` beside the ledger (``<git-common-dir>/gentle-hooks/``: never
in a work tree, never in a note), 32 random bytes, made ``0600`` on the first sealed write
(:func:`ledger_key`). Limits: it binds rows to this ledger, not to a person; anything that
runs as the user can read the key (docs/security.md).
"""

from __future__ import annotations

import os
import stat

from gentle_hooks.ledger.records import VerifyRun
from gentle_hooks.values.frozen import fields

#: The secret's file name, beside the ledger.
KEY_FILE = "ledger.key"
_KEY_BYTES = 32
_PREFIX = "hmac-sha256:"


class KeyFault(Exception):
    """The key file is there but is not one this user's ledger made: why, in words."""


def key_path(ledger: str) -> str:
    """The secret of the ledger file ``ledger``: ``<state dir>/ledger.key``."""
    return os.path.join(os.path.dirname(ledger), KEY_FILE)


#: Open flags of a read: no link followed, and no wait for a writer when a FIFO was put
#: there (an open of a FIFO blocks until the other end opens; the fstat below refuses it).
_NO_WAIT = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def _read(path: str) -> bytes:
    """The key at ``path``.

    Raises:
        FileNotFoundError: there is none.
        KeyFault: it is a link, not a regular file, not this user's, readable or
            writable by others, or not the size of a key.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NO_WAIT)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise KeyFault(f"{path} cannot be read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            raise KeyFault(f"{path} is not a regular file of yours")
        if st.st_mode & 0o077:
            raise KeyFault(f"{path} is open to other users (mode {st.st_mode & 0o777:o})")
        data = os.read(fd, _KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != _KEY_BYTES:
        raise KeyFault(f"{path} is not a key of {_KEY_BYTES} bytes")
    return data


def key_problem(ledger: str) -> tuple[str, bool] | None:
    """What is wrong with the key file of the ledger file ``ledger`` (for ``doctor``), or
    None when there is none or it is a usable key.

    Returns:
        (words naming the key's path and what is wrong, whether the mode alone is wrong:
        a regular file of this user's, of a key's size, that others may read or write).
        Never blocks: a link is not followed, a FIFO not waited on.
    """
    from gentle_hooks.bounded import file_kind

    path = key_path(ledger)
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None  # no key; a state directory that is none is the store check's
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror})", False
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is {file_kind(st.st_mode)}, not a key file", False
    try:
        _read(path)
    except FileNotFoundError:
        return None  # removed since the lstat: no key, as before one is made
    except KeyFault as exc:
        only_mode = st.st_uid == os.getuid() and st.st_size == _KEY_BYTES
        return str(exc), only_mode and bool(st.st_mode & 0o077)
    return None


def ledger_key(ledger: str, *, create: bool) -> bytes | None:
    """This ledger's secret: read, or (``create``) made when there is none.

    Made whole before it appears: written ``0600`` to a file of its own, then linked to
    :func:`key_path` (two first writes at once: the second reads the first's key).

    Returns:
        The key; None when there is none and ``create`` is False.

    Raises:
        KeyFault: the file there is not a usable key (:func:`_read`).
        OSError: it could not be made.
    """
    path = key_path(ledger)
    try:
        return _read(path)
    except FileNotFoundError:
        if not create:
            return None
    import secrets  # here: the gates that pass import the store, never a key's making

    tmp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, secrets.token_bytes(_KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # another process made it first: its key is the ledger's
    finally:
        os.unlink(tmp)
    return _read(path)


def run_mac(key: bytes, run: VerifyRun) -> str:
    """``hmac-sha256:`` over ``run``'s fields but ``id`` and ``mac`` (canonical JSON, in
    field order), keyed by ``key``."""
    import hashlib  # here: the gates that pass import the store, never json or hmac
    import hmac
    import json

    values = [getattr(run, name) for name in fields(run) if name not in ("id", "mac")]
    text = json.dumps(values, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    data = text.encode("utf-8", "surrogateescape")
    return _PREFIX + hmac.new(key, data, hashlib.sha256).hexdigest()


def is_sealed(key: bytes | None, run: VerifyRun) -> bool:
    """Whether ``run`` carries the MAC this ledger's ``key`` gives its fields."""
    if key is None or run.mac is None:
        return False
    import hmac

    return hmac.compare_digest(run.mac, run_mac(key, run))
