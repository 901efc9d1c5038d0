"""Printed shell words are one line and read back as the very words (SPEC §7 "Every
command a block prints is runnable exactly as printed"): checked by the shells themselves,
dash (whose releases before 0.5.13 read ``$'...'`` as ``$`` and the quoted text), bash, and
zsh where it is installed, each running the printed line as ``SHELL -c`` and reporting the
argv it built."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

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
    "-n\x01",
    "100%d\n%s",
    'snow \u2603\x02 \u2028 $HOME `x` "q"',
    "\n\nlead",
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


#: The shells a printed line is read by: the first two are on every test machine.
SHELLS = [
    pytest.param(name, marks=pytest.mark.skipif(not shutil.which(name), reason=f"no {name}"))
    for name in ("dash", "bash", "zsh")
]
#: Prints the argv it was given, NUL-separated, as bytes.
_ARGV = (
    "import os,sys; "
    "sys.stdout.buffer.write(b''.join(os.fsencode(a) + b'\\0' for a in sys.argv[1:]))"
)


def _argv(shell: str, line: str) -> list[bytes]:
    """The arguments ``shell -c`` passes a program after the printed ``line``."""
    program = f"{shlex.quote(sys.executable)} -c {shlex.quote(_ARGV)} {line}"
    done = subprocess.run([shell, "-c", program], capture_output=True, check=True)
    return done.stdout.split(b"\0")[:-1]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("word", WORDS)
def test_a_word_is_one_line_and_reads_back_exactly_in_each_shell(shell: str, word: str) -> None:
    quoted = quote(word)
    assert "\n" not in quoted and "\x1b" not in quoted and "\r" not in quoted
    assert quoted.isascii() and quoted.isprintable(), quoted
    assert _argv(shell, quoted) == [_bytes(word)]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_control_word_is_printf_s_output_not_ansi_c_quoting(shell: str) -> None:
    """``$'...'`` only where a command substitution cannot carry the word (a trailing
    newline); ``-x``, ``%d`` and ``'`` in such a word stay literal."""
    word = "-fix %d 'it'\nbody line"
    quoted = quote(word)
    assert quoted == "\"$(printf '\\055fix \\045d \\047it\\047\\nbody line')\"", quoted
    assert _argv(shell, f"{quoted} {quote('a b')}") == [_bytes(word), b"a b"]
    assert quote("ends in a newline\n").startswith("$'")


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
    portable = [w for w in words if not w.endswith("\n")]  # $'...' for those
    assert _argv("dash", join(portable)) == [_bytes(w) for w in portable]


def test_a_run_receipts_command_is_shown_on_one_line() -> None:
    argv = ["python3", "-c", "import sys\nsys.exit(1)"]
    assert shown(shlex.join(argv)) == "python3 -c \"$(printf 'import sys\\nsys.exit(1)')\""
    assert shown("pytest -q") == "pytest -q"
    assert shown("a 'b\nc") == "a 'b\\x0ac"  # not a joined argv: each control shown
