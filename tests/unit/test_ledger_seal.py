"""ledger/seal.py and Ledger.add_run/verify_runs: a verify run row is an observation only in
the ledger that sealed it (issue 18, refuter r10)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import VerifyRun
from gentle_hooks.ledger.seal import KeyFault, is_sealed, key_path, ledger_key, run_mac
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.values.frozen import replace

RUN = VerifyRun(
    "/r", "sha256:x", "b1", "pass", "Ann <a@x>", "/tmp/room", "a.json", "sha256:0", "[]"
)


def test_a_run_is_sealed_by_its_own_ledger_only(tmp_path: Path) -> None:
    path = ledger_path(str(tmp_path))
    with Ledger.open(path) as led:
        assert ledger_key(path, create=False) is None
        run = led.add_run(RUN)
        assert run.mac is not None and run.mac.startswith("hmac-sha256:")
        assert led.verify_runs("sha256:x") == [run] and led.unsealed_runs("sha256:x") == []
        plain = led.add(RUN)  # a row without this ledger's seal
        other = led.add(replace(RUN, mac=run_mac(b"k" * 32, RUN)))  # another ledger's
        assert led.verify_runs("sha256:x") == [run]
        assert [r.id for r in led.unsealed_runs("sha256:x")] == [plain.id, other.id]
    assert oct(os.stat(key_path(path)).st_mode & 0o777) == "0o600"


def test_every_field_is_under_the_seal() -> None:
    key = b"s" * 32
    run = replace(RUN, recorded_at=1.5, id=7)
    sealed = replace(run, mac=run_mac(key, run))
    assert is_sealed(key, sealed) and is_sealed(key, replace(sealed, id=8))
    for name, value in [("identity", "sha256:y"), ("status", "fail"), ("recorded_at", 2.0)]:
        assert not is_sealed(key, replace(sealed, **{name: value})), name
    assert not is_sealed(None, sealed) and not is_sealed(key, replace(sealed, mac=None))


def _empty(path: str) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


@pytest.mark.parametrize("fault", ["open-to-others", "short", "link", "fifo", "directory", "empty"])
def test_a_key_that_is_not_private_seals_nothing(tmp_path: Path, fault: str) -> None:
    """A key file others may read, of the wrong size, or a link: reading finds no key (no
    row is sealed) and writing a run fails in one store line, exit 2."""
    path = ledger_path(str(tmp_path))
    with Ledger.open(path) as led:
        run = led.add_run(RUN)
        key = key_path(path)
        if fault == "open-to-others":
            os.chmod(key, 0o644)
        elif fault == "short":
            with open(key, "wb") as fh:
                fh.write(b"x")
        elif fault in ("fifo", "directory", "empty"):
            # never waited on, never read as a key (issue 16, refuter r16y)
            os.unlink(key)
            {"fifo": os.mkfifo, "directory": os.mkdir, "empty": _empty}[fault](key)
        else:
            os.rename(key, key + ".real")
            os.symlink(key + ".real", key)
        with pytest.raises(KeyFault):
            ledger_key(path, create=False)
        assert led.verify_runs("sha256:x") == [] and led.unsealed_runs("sha256:x") == [run]
        with pytest.raises(StoreError, match="its verify runs cannot be sealed") as err:
            led.add_run(RUN)
        assert err.value.exit_code == 2
