"""The entry point's promises about text it cannot encode (docs/robustness.md): the crash
log survives a non-UTF-8 argument, and a lone surrogate is written ``\\xHH``."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.main import _log_unexpected, escape_unencodable, log_path


def test_the_crash_log_survives_a_surrogate_in_argv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        where = _log_unexpected(["record", "caf\udce9-\udcff.txt"])
    assert where == log_path()
    text = Path(where).read_text(encoding="utf-8")
    assert "gentle-hook record caf\\xe9-\\xff.txt" in text and "RuntimeError: boom" in text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("caf\udce9", "caf\\xe9"),
        ("a\ud800b", "a\\ud800b"),
        ("plain é", "plain é"),
    ],
)
def test_unencodable_characters_are_escaped(text: str, shown: str) -> None:
    import codecs

    codecs.register_error("test-escape", escape_unencodable)
    assert text.encode("utf-8", "test-escape").decode("utf-8") == shown


def test_a_non_ascii_stream_escapes_above_the_basic_plane() -> None:
    import codecs

    codecs.register_error("test-escape", escape_unencodable)
    assert "\U0001f600é".encode("ascii", "test-escape") == b"\\U0001f600\\u00e9"
