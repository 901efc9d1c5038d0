"""Signed note lines (SPEC §8): signing the lines a clone vouches for, and finding who
signed a line another clone wrote.

Room ``notes``. A spot-check, verdict, escalation or override line may carry ``sig``, an
SSH signature (``ssh-keygen -Y sign``, namespace ``gentle-hooks``) of
:func:`gentle_hooks.notes.lines.signed_payload`. :class:`Signer` adds it when this clone
signs records (``gentle.signRecords`` or a ``--sign-key``); :class:`Trust` answers, for a
line, the principal of the allowed-signers file whose key signed it, or None.
"""

from __future__ import annotations

import os

from gentle_hooks.bounded import InputFileError, read_regular
from gentle_hooks.config.settings import Settings
from gentle_hooks.errors import ConfigError
from gentle_hooks.git.repository import Repository
from gentle_hooks.git.ssh import sign, verify
from gentle_hooks.notes.codec import note_lines
from gentle_hooks.notes.lines import (
    EscalationLine,
    NoteLine,
    OverrideLine,
    SpotCheckLine,
    VerdictLine,
    decode,
    signed_payload,
)
from gentle_hooks.values.frozen import replace

#: The line kinds that carry a signature: what a parent, a verifier or an override vouches.
#: Largest allowed-signers file read (bytes): a file of keys, never megabytes.
SIGNERS_LIMIT = 1 << 20
SIGNABLE = (SpotCheckLine, VerdictLine, EscalationLine, OverrideLine)


class Signer:
    """Signs the signable lines of a note with one SSH key, reusing a signature the note
    already holds for the same payload (a line is signed once, whatever the rewrites)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self._known: dict[bytes, NoteLine] = {}

    def remember(self, note: bytes) -> None:
        """Learn the signed lines already in ``note`` (their signatures are reused)."""
        for raw in note_lines(note):
            try:
                line = decode(raw)
            except ValueError:
                continue
            if isinstance(line, SIGNABLE) and line.sig is not None:
                self._known.setdefault(signed_payload(line), line)

    def __call__(self, line: NoteLine) -> NoteLine:
        """``line`` with a signature when its kind carries one; other lines unchanged.

        Raises:
            SigningError: the key cannot sign.
        """
        if not isinstance(line, SIGNABLE) or line.sig is not None:
            return line
        payload = signed_payload(line)
        if payload not in self._known:
            self._known[payload] = replace(line, sig=sign(self.key, payload))
        return self._known[payload]


class Trust:
    """Who signed a line, by an allowed-signers file (git's format); each signature is
    checked once."""

    def __init__(self, allowed_signers: bytes | None) -> None:
        self.allowed = allowed_signers
        self._seen: dict[tuple[bytes, str], str | None] = {}

    def signer(self, line: NoteLine) -> str | None:
        """The allowed principal whose key signed ``line``, or None (unsigned, no allowed
        signers, a signature that does not verify).

        Raises:
            SigningError: ssh-keygen is missing.
        """
        sig = getattr(line, "sig", None)
        if not isinstance(line, SIGNABLE) or sig is None or not self.allowed:
            return None
        key = (signed_payload(line), sig)
        if key not in self._seen:
            self._seen[key] = verify(self.allowed, sig, key[0])
        return self._seen[key]


def load_trust(repo: Repository, settings: Settings, base: str | None) -> Trust | None:
    """The allowed signers the CI and server gates check signatures against, or None when
    none is configured.

    ``gate.allowed_signers`` from the config file is a path in the repository, read from
    ``base`` (the range's base commit: a change cannot add its own signer); from git
    config (``gentle.allowedSigners``, the server's own) it is a file on this machine,
    relative to the git directory. Nothing is read from a work tree.

    Raises:
        ConfigError: the file cannot be read, or ``gate.require_signed`` is true and no
            allowed-signers file is configured (the gate cannot count anything).
    """
    name = settings.allowed_signers
    if name is None:
        if settings.require_signed:
            raise ConfigError(
                "gate.require_signed is true but no allowed-signers file is configured: set "
                "gate.allowed_signers (a path in the repository) or git config "
                "gentle.allowedSigners"
            )
        return None
    data: bytes | None
    if settings.allowed_signers_in_tree:
        data = repo.read_path(base, name) if base is not None else None
        where = f"{name} in {base[:12] if base else 'the base commit'}"
    else:
        path = os.path.join(repo.paths.git_dir, os.path.expanduser(name))
        where = path
        try:  # regular files only, bounded: a FIFO or /dev/zero named here never hangs
            data = read_regular(path, "cannot read", limit=SIGNERS_LIMIT)
        except InputFileError as exc:
            raise ConfigError(f"gate.allowed_signers: {exc}") from None
    if data is None:
        raise ConfigError(f"gate.allowed_signers: cannot read {where}")
    return Trust(data)
