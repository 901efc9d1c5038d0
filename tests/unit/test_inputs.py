"""Parsers of recording input (SPEC §6): receipt lines and paths, with property tests."""

from __future__ import annotations

import posixpath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.errors import UsageError
from gentle_hooks.policy.inputs import (
    MAX_COMMAND_CHARS,
    ReceiptLine,
    parse_receipt_line,
    validate_label,
    validate_paths,
)

_printable = st.characters(blacklist_categories=("Cc", "Cs"))
_part = st.text(_printable, min_size=1, max_size=60).filter(lambda t: t.strip() == t and t)
_command = _part.filter(lambda t: ": " not in t)
_observed = _part


@given(_command, _observed)
def test_a_formatted_line_parses_back(command: str, observed: str) -> None:
    parsed = parse_receipt_line(f"{command}: {observed}")
    assert parsed == ReceiptLine(command, observed)
    assert str(parsed) == f"{command}: {observed}"


@given(st.text(_printable, max_size=80).filter(lambda t: ": " not in t))
def test_a_line_without_the_separator_is_refused(text: str) -> None:
    with pytest.raises(UsageError) as exc:
        parse_receipt_line(text)
    assert exc.value.exit_code == 2


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_usage_error(text: str) -> None:
    try:
        parsed = parse_receipt_line(text)
    except UsageError as exc:
        assert "\n" not in exc.message
    else:
        assert parsed.command and parsed.observed
        assert parsed.command == parsed.command.strip()
        assert "\n" not in parsed.command + parsed.observed


@pytest.mark.parametrize(
    ("line", "command", "observed"),
    [
        ("pytest -q: exit 0", "pytest -q", "exit 0"),
        (
            "pytest: FAILED t.py::test_a - AssertionError: boom",
            "pytest",
            "FAILED t.py::test_a - AssertionError: boom",
        ),
        ("  make test :  2 passed ", "make test", "2 passed"),
        ("a:b: exit 1", "a:b", "exit 1"),
    ],
)
def test_the_line_splits_at_the_first_colon_space(line: str, command: str, observed: str) -> None:
    assert parse_receipt_line(line) == ReceiptLine(command, observed)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("pytest passed", "has no ': ' separator"),
        (": exit 0", "names no command"),
        ("pytest:  ", "gives no observed result"),
        ("pytest: ok\nmore", "one line"),
        ("pytest: \x1b[31mred", "control characters"),
        ("x" * (MAX_COMMAND_CHARS + 1) + ": ok", "longer than 4000"),
    ],
)
def test_malformed_lines_say_why(line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_receipt_line(line)


_segment = st.text(
    st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), min_size=1, max_size=8
)


@given(st.lists(_segment.filter(lambda s: s not in (".", "..")), min_size=1, max_size=5))
def test_relative_paths_inside_the_root_are_kept(parts: list[str]) -> None:
    path = "/".join(parts)
    assert validate_paths([path]) == (posixpath.normpath(path),)


@given(st.lists(_segment, min_size=1, max_size=6))
def test_paths_never_escape_the_root_or_go_absolute(parts: list[str]) -> None:
    raw = "/".join(parts)
    try:
        (norm,) = validate_paths([raw])
    except UsageError as exc:
        assert "escapes the work tree root" in exc.message
    else:
        assert not norm.startswith("/")
        assert norm != ".." and not norm.startswith("../")


@given(st.text(max_size=40))
def test_absolute_paths_and_nul_are_refused(tail: str) -> None:
    with pytest.raises(UsageError):
        validate_paths(["/" + tail])
    with pytest.raises(UsageError, match="NUL"):
        validate_paths(["a\0" + tail])


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "an empty path"),
        ("/etc/passwd", "is absolute"),
        ("../x", "escapes the work tree root"),
        ("a/../../x", "escapes the work tree root"),
        ("..", "escapes the work tree root"),
        ("a\0b", "contains a NUL byte"),
    ],
)
def test_invalid_paths_say_why(raw: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        validate_paths([raw])


def test_paths_are_normalised_and_deduplicated() -> None:
    assert validate_paths(["a/./b", "a/b", "c/../d", "with space/ü.txt", "a:b"]) == (
        "a/b",
        "d",
        "with space/ü.txt",
        "a:b",
    )


def test_labels() -> None:
    assert validate_label("  o4-mini ", "--model") == "o4-mini"
    assert validate_label(None, "--source") is None
    with pytest.raises(UsageError, match="--model is required"):
        validate_label(" ", "--model", required=True)
    with pytest.raises(UsageError, match="one line"):
        validate_label("a\nb", "--session")
    with pytest.raises(UsageError, match="longer than 200"):
        validate_label("m" * 201, "--model")
