"""Every command a block or an error prints is written in ``gentle_hooks/report`` (STYLE
"Policy returns values; only the reporting layer turns them into words and commands"):
the CLI's invocation name is resolved there (:func:`gentle_hooks.report.fixes.program`),
so no other room spells ``gentle-hook SUBCOMMAND`` in a string it prints.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

import gentle_hooks
from gentle_hooks.errors import Command, UsageError, cli
from gentle_hooks.report import fixes
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection

PACKAGE = pathlib.Path(gentle_hooks.__file__).parent
SUBCOMMANDS = (
    "assess|record|receipt|spot-check|escalate|verdict|review|status|install|uninstall|"
    "doctor|schema|gate|sync|verify|discard|quorum|rdd"
)
SPELLED = re.compile(rf"\bgentle-hook ({SUBCOMMANDS})\b")
#: Strings that name the CLI without printing a command to run, and why.
ALLOWED = {
    # the plain hook script itself runs the CLI from PATH when its interpreter is gone
    ("services/install.py", "exec gentle-hook"),
    ("services/install.py", "reinstall to pin it: gentle-hook install"),
    ("services/install.py", "and run gentle-hook install"),
    ("services/install.py", "installed by `gentle-hook install`"),
    # what installed a hook (a state doctor reports), not a command
    ("services/doctor_hooks.py", "gentle-hook install ("),
    ("services/doctor_hooks.py", "gentle-hook install, but"),
    # which run wrote or did not write a verdict (a record's history, not a command)
    ("services/verdict_filing.py", "written by gentle-hook verify run #"),
    ("services/verdict_filing.py", "not observed: no gentle-hook verify run of brief "),
    ("ledger/facts.py", "no gentle-hook verify run wrote it"),
    ("notes/facts.py", "its note line does not say a gentle-hook verify run wrote it"),
    ("services/verdict_filing.py", "not observed: no gentle-hook verify run wrote it"),
    # the comment of a hook file saying what wrote it and what removes it (a file's history)
    ("agents/ownfile.py", "Written by 'gentle-hook install --agent "),
    ("agents/opencode_plugin.py", "Written by 'gentle-hook install --agent "),
    # SQL comments of the ledger's schema
    ("ledger/schema.py", "-- "),
    # click's --help texts (read in the CLI's own help, not printed by a block or an error)
    ("cli/install.py", "Wire this agent runtime's post-tool hook"),
    ("cli/verify.py", "The DelegationBrief (JSON; `gentle-hook schema brief`)."),
}


def _printed_strings(path: pathlib.Path) -> list[str]:
    """The string constants of ``path`` that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


@pytest.mark.parametrize(
    "room",
    ["services", "hooks", "cli", "agents", "notes", "native", "git", "ledger", "config", "quorum"],
)
def test_no_room_but_report_spells_a_command_of_the_cli(room: str) -> None:
    found = []
    for path in sorted((PACKAGE / room).rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for text in _printed_strings(path):
            if SPELLED.search(text) and not any(rel == f and frag in text for f, frag in ALLOWED):
                found.append(f"{rel}: {text!r}")
    assert found == []


def test_an_error_line_ends_with_its_commands_labelled(monkeypatch: pytest.MonkeyPatch) -> None:
    from gentle_hooks.report import shell_text  # where a command is typed out

    monkeypatch.setattr(shell_text, "program", lambda: "/opt/venv/bin/gentle-hook")
    exc = UsageError(
        "no receipt recorded",
        commands=(
            cli("receipt", "run", "--staged", "--", label="prefix"),
            cli("spot-check", "--cwd", "a dir"),
            Command(("reset", "-q", "--", "x y"), tool="git"),
        ),
    )
    assert fixes.error_text(exc) == (
        "no receipt recorded; prefix: /opt/venv/bin/gentle-hook receipt run --staged --; "
        "run: /opt/venv/bin/gentle-hook spot-check --cwd 'a dir'; run: git reset -q -- 'x y'"
    )
    assert fixes.error_text(UsageError("plain words")) == "plain words"
    assert fixes.with_fix("ok", None) == "ok"


def test_binding_words_are_its_flags_unquoted() -> None:
    b = Binding(cwd="a b", projection=Projection.COMMITTED, base_ref="origin/main")
    assert b.words() == ("--cwd", "a b", "--committed", "--base-ref", "origin/main")
    assert fixes.binding_flags(b) == " --cwd 'a b' --committed --base-ref origin/main"
    assert fixes.binding_flags(Binding()) == ""
    assert Binding().words() == ()
