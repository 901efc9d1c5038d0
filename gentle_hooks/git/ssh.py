"""SSH signatures made and checked the way git makes and checks them (``gpg.format = ssh``):
``ssh-keygen -Y sign`` and ``ssh-keygen -Y verify`` against an allowed-signers file in
git's format (ssh-keygen(1) "ALLOWED SIGNERS"), in the namespace ``gentle-hooks``.

Room ``git``: git's signing backend, run as git runs it. Signatures are the armored
``-----BEGIN SSH SIGNATURE-----`` text; what they sign is given as bytes.
"""

from __future__ import annotations

import os
import subprocess

from gentle_hooks.bounded import scratch_dir
from gentle_hooks.errors import GentleError

NAMESPACE = "gentle-hooks"
#: Seconds one ssh-keygen may take (a passphrase prompt must not hang a hook).
_TIMEOUT = 30


class SigningError(GentleError):
    """A record could not be signed: no ssh-keygen, no key, a key ssh-keygen refuses
    (exit 2, naming the key)."""


def _keygen() -> str:
    import shutil  # only to sign or check: shutil (and its compressors) cost every push

    found = shutil.which("ssh-keygen")
    if found is None:
        raise SigningError("ssh-keygen is not on PATH: install OpenSSH to sign or check records")
    return found


def _run(args: list[str], data: bytes | None, cwd: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            [_keygen(), *args],
            input=data,
            capture_output=True,
            cwd=cwd,
            timeout=_TIMEOUT,
            check=False,
            stdin=None if data is not None else subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise SigningError(f"ssh-keygen {args[1]} did not finish in {_TIMEOUT}s") from None
    except OSError as exc:
        raise SigningError(f"cannot run ssh-keygen: {exc.strerror}") from None


def check_key(key: str) -> None:
    """Sign a fixed probe with ``key``, so a command that would store a record and then
    sign its note can refuse a key that cannot sign before it stores anything.

    Raises:
        SigningError: as :func:`sign`.
    """
    sign(key, b"gentle-hooks: can this key sign?\n")


def sign(key: str, data: bytes) -> str:
    """Sign ``data`` with ``key`` as ``git commit -S`` does with ``gpg.format = ssh``.

    Args:
        key: a private key file, a public key file whose private key the SSH agent holds,
            or ``key::<public key>`` (git's literal form, agent-held).

    Returns:
        The armored signature text.

    Raises:
        SigningError: ssh-keygen is missing or refused the key (its last line of error).
    """
    with scratch_dir("gentle-hooks-sign-") as tmp:
        if key.startswith("key::"):
            path = os.path.join(tmp, "key.pub")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(key[len("key::") :].strip() + "\n")
            key = path
        key = os.path.expanduser(key)
        if not os.path.isfile(key):
            raise SigningError(f"signing key {key}: no such file")
        message = os.path.join(tmp, "record")
        with open(message, "wb") as fh:
            fh.write(data)
        proc = _run(["-Y", "sign", "-n", NAMESPACE, "-f", key, message], None, tmp)
        if proc.returncode != 0 or not os.path.isfile(message + ".sig"):
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SigningError(
                f"ssh-keygen could not sign with {key}: {err[-1] if err else 'failed'}"
            )
        with open(message + ".sig", encoding="ascii", errors="replace") as fh:
            return fh.read().strip()


def verify(allowed_signers: bytes, signature: str, data: bytes) -> str | None:
    """The principal of ``allowed_signers`` whose key made ``signature`` over ``data`` in
    the ``gentle-hooks`` namespace, or None (no such principal, a bad or foreign signature,
    a malformed signature text).

    Raises:
        SigningError: ssh-keygen is missing.
    """
    _keygen()
    if "-----BEGIN SSH SIGNATURE-----" not in signature:
        return None
    with scratch_dir("gentle-hooks-verify-") as tmp:
        allowed = os.path.join(tmp, "allowed_signers")
        sig = os.path.join(tmp, "record.sig")
        with open(allowed, "wb") as fh:
            fh.write(allowed_signers)
        with open(sig, "w", encoding="utf-8") as fh:
            fh.write(signature.strip() + "\n")
        found = _run(["-Y", "find-principals", "-s", sig, "-f", allowed], None, tmp)
        if found.returncode != 0:
            return None
        for principal in found.stdout.decode("utf-8", "replace").splitlines():
            principal = principal.strip()
            if not principal:
                continue
            proc = _run(
                ["-Y", "verify", "-f", allowed, "-I", principal, "-n", NAMESPACE, "-s", sig],
                data,
                tmp,
            )
            if proc.returncode == 0:
                return principal
    return None
