"""Printed shell words read back as the very words (SPEC §7 "Every command a block prints
is runnable exactly as printed"): checked by the shells themselves, sh, dash (the /bin/sh of
Debian and Ubuntu, and what git runs hooks under; it reads no ``$'...'`` before 0.5.13),
bash, and zsh where it is installed, each running the printed line as ``SHELL -c`` (and fed
on standard input, as a paste is) and reporting the argv it built. A printed word is one
line unless it ends in a newline: then its newlines are raw inside single quotes, and every
line it opens starts with the closing ``'``."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.policy.shellwords import join, quote, shown, shown_path

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
    "ends in a newline\n",
    "\n",
    "\n\n",
    "print('x')\n\n",
    "-e $HOME \\ 'q' \"d\"\n",
    "tab\tand\nlines\n",
    "caf\u00e9 \u2603\n",
    "--leading-dash\n",
    os.fsdecode(b"kept \xff byte\n"),
]


#: What a printed line never holds raw (C0, DEL, C1, a lone surrogate, U+2028, U+2029).
RAW = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")


def _bytes(word: str) -> bytes:
    return word.encode("utf-8", "surrogateescape")


def _shell(name: str) -> object:
    return pytest.param(name, marks=pytest.mark.skipif(not shutil.which(name), reason=f"no {name}"))


#: The shells a printed line is read by: sh, dash and bash are on every test machine.
SHELLS = [_shell(name) for name in ("sh", "dash", "bash", "zsh")]
#: Prints the argv it was given, NUL-separated, as bytes.
_ARGV = (
    "import os,sys; "
    "sys.stdout.buffer.write(b''.join(os.fsencode(a) + b'\\0' for a in sys.argv[1:]))"
)


def _program(line: str) -> str:
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(_ARGV)} {line}"


def _argv(shell: str, line: str) -> list[bytes]:
    """The arguments ``shell -c`` passes a program after the printed ``line``."""
    done = subprocess.run([shell, "-c", _program(line)], capture_output=True, check=True)
    return done.stdout.split(b"\0")[:-1]


def _pasted(shell: str, line: str) -> list[bytes]:
    """The arguments ``shell`` passes a program after the printed ``line``, the command fed
    to it on standard input as a terminal paste feeds it (then ``exit``: one command)."""
    script = _program(line) + "\nexit 0\n"
    done = subprocess.run([shell, "-s"], input=_bytes(script), capture_output=True, check=True)
    return done.stdout.split(b"\0")[:-1]


def _shape(printed: str) -> None:
    """No control character, line break or lone surrogate but a word's raw trailing
    newlines; each line after the first opens with the closing ``'`` (or is one of those
    newlines): no printed line a word continues can read as a line of its own."""
    first, *rest = printed.split("\n")
    assert not RAW.search(first), printed
    for line in rest:
        assert not RAW.search(line), printed
        assert line == "" or line.startswith("'"), printed


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("word", WORDS)
def test_a_word_reads_back_exactly_in_each_shell(shell: str, word: str) -> None:
    quoted = quote(word)
    _shape(quoted)
    assert ("\n" in quoted) == word.endswith("\n"), quoted
    assert _argv(shell, quoted) == [_bytes(word)]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_command_with_a_word_ending_in_a_newline_pastes_as_one_command(shell: str) -> None:
    """A word ending in a newline, in the middle of a command: the shell reads the printed
    command (its lines) as that one command, under ``-c`` and fed as a paste."""
    argv = ["gentle-hook", "receipt", "run", "--", "python3", "-c", "import x\nx.run()\n", "-v"]
    printed = join(argv[1:])
    _shape(printed)
    assert "$'" not in printed, printed
    assert printed.count("\n") == 1 and printed.endswith("' -v"), printed
    assert _argv(shell, printed) == [_bytes(w) for w in argv[1:]]
    assert _pasted(shell, printed) == [_bytes(w) for w in argv[1:]]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_control_word_is_printf_s_output_not_ansi_c_quoting(shell: str) -> None:
    """``-x``, ``%d`` and ``'`` in such a word stay literal; a trailing newline follows
    the ``printf`` output in single quotes, never ``$'...'``."""
    word = "-fix %d 'it'\nbody line"
    quoted = quote(word)
    assert quoted == "\"$(printf '\\055fix \\045d \\047it\\047\\nbody line')\"", quoted
    assert _argv(shell, f"{quoted} {quote('a b')}") == [_bytes(word), b"a b"]
    assert quote("ends in a newline\n") == "'ends in a newline\n'"
    assert quote("it's\n") == "'it'\"'\"'s\n'"
    ending = word + "\n\n"
    assert quote(ending) == quoted + "'\n\n'"
    assert _argv(shell, quote(ending)) == [_bytes(ending)]


def test_plain_words_are_quoted_as_shlex_does() -> None:
    words = ["pytest", "-k", "a and b", "x'y"]
    assert join(words) == shlex.join(words)


def _shells() -> list[str]:
    """The shells installed here, each once (``sh`` is often ``dash``)."""
    found: dict[str, str] = {}
    for name in ("sh", "dash", "bash", "zsh"):
        path = shutil.which(name)
        if path is not None:
            found.setdefault(os.path.realpath(path), path)
    return list(found.values())


#: Words as printed commands carry them: any text, and these, often at an end.
_EDGES = st.sampled_from(["\n", "\t", "'", '"', "$", "\\", "`", "-", "%", "\u00e9", "\u2603"])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.text(max_size=6), _EDGES), max_size=4).map("".join),
        min_size=1,
        max_size=4,
    )
)
def test_any_words_read_back_exactly_under_each_shell(words: list[str]) -> None:
    words = [
        "".join(ch for ch in w if ch != "\x00" and not 0xD800 <= ord(ch) < 0xE000) for w in words
    ]  # argv holds no NUL; a lone surrogate has no bytes of its own
    line = join(words)
    _shape(line)
    for shell in _shells():
        assert _argv(shell, line) == [_bytes(w) for w in words], (shell, line)


def test_a_path_ending_in_a_newline_is_named_as_it_pastes() -> None:
    assert shown_path("src/a.py") == "src/a.py"
    assert shown_path("src/a\nb.py") == "\"$(printf 'src/a\\nb.py')\""
    assert shown_path("src/a.py\n") == "'src/a.py\n'"


def test_a_run_receipts_command_is_shown_on_one_line() -> None:
    argv = ["python3", "-c", "import sys\nsys.exit(1)"]
    assert shown(shlex.join(argv)) == "python3 -c \"$(printf 'import sys\\nsys.exit(1)')\""
    assert shown("pytest -q") == "pytest -q"
    assert shown("a 'b\nc") == "a 'b\\x0ac"  # not a joined argv: each control shown
