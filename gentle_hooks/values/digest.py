"""Digests without OpenSSL: SHA-256 and BLAKE2b from the interpreter's own modules.

Room ``values``. ``hashlib`` loads OpenSSL's ``_hashlib`` (~1.6 ms on the hook path) even
for a BLAKE2b; the built-in ``_sha256``/``_sha2`` and ``_blake2`` modules give the same
digests, byte for byte. Where an interpreter lacks them, ``hashlib`` is used.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _first(*names: str, attr: str) -> Any:
    """``attr`` of the first of the modules ``names`` this interpreter has."""
    for name in names:
        try:
            return getattr(__import__(name), attr)  # top-level names: the module itself
        except (ImportError, AttributeError):
            continue
    raise ImportError(attr)


_sha256 = _first("_sha2", "_sha256", "hashlib", attr="sha256")  # _sha2 from Python 3.12
_blake2b = _first("_blake2", "hashlib", attr="blake2b")


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data``, 64 lowercase hex digits."""
    return str(_sha256(data).hexdigest())


def blake2b_hex(data: bytes, digest_size: int) -> str:
    """The BLAKE2b of ``data`` at ``digest_size`` bytes (1..64), twice size hex digits."""
    return str(_blake2b(data, digest_size=digest_size).hexdigest())
