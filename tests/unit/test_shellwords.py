"""Printed shell words are one line and read back as the very words (SPEC §7 "Every
command a block prints is runnable exactly as printed"): checked by bash itself."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.policy.shellwords import join, quote, shown

WORDS = [
    "plain",
    "two words",
    "import sys\nsys.exit(1)",
    "tab\there",
    "\x1b]0;title\x07",
    "it's \\ back",
    "cr\r\x7f\x85",
    os.fsdecode(b"caf\xe9-\xff"),
    "",
]


def _bash_words(line: str) -> list[bytes]:
    bash = shutil.which("bash")
    assert bash is not None
    out = subprocess.run(
        [bash, "-c", "printf '%s\\0' " + line], capture_output=True, check=True
    ).stdout
    return out.split(b"\0")[:-1]


def _bytes(word: str) -> bytes:
    return word.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("word", WORDS)
def test_a_word_is_one_line_and_reads_back_exactly(word: str) -> None:
    quoted = quote(word)
    assert "\n" not in quoted and "\x1b" not in quoted and "\r" not in quoted
    assert _bash_words(quoted) == [_bytes(word)]


def test_plain_words_are_quoted_as_shlex_does() -> None:
    words = ["pytest", "-k", "a and b", "x'y"]
    assert join(words) == shlex.join(words)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=12), min_size=1, max_size=4
    )
)
def test_any_words_read_back_exactly(words: list[str]) -> None:
    words = [w.replace("\x00", "") for w in words]  # argv holds no NUL
    line = join(words)
    assert "\n" not in line
    assert _bash_words(line) == [_bytes(w) for w in words]


def test_a_run_receipts_command_is_shown_on_one_line() -> None:
    argv = ["python3", "-c", "import sys\nsys.exit(1)"]
    assert shown(shlex.join(argv)) == "python3 -c $'import sys\\nsys.exit(1)'"
    assert shown("pytest -q") == "pytest -q"
    assert shown("a 'b\nc") == "a 'b\\x0ac"  # not a joined argv: each control shown
