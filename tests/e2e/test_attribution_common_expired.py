"""A person retyping a common file after the writer's work on it expired (SPEC §3
"Attribution follows content": a human's change is never blocked or labelled AI work; §8:
every gate reads content alike; issue 13, refuter r13u LOW).

Real git, ``gentle-hook install``, a bare remote with the server gate. The writer's
``.gitattributes`` edit is recorded, thrown away (``git reset --hard``) and expired by a
person's commit of that path. The server and CI read content too common to tell its writer
(:func:`~gentle_hooks.policy.wholefile.identifies_writer`: settings and patterns only) as
nobody's; the writer's clone blocked the person's same line typed again, by the writer's
exact blob come back or by the writer's exact hunk made again within 30 days. Now the
writer's clone agrees: the person's commit passes with no trailer and the push with it.
Writer content that tells its writer stays the writer's when it comes back
(tests/e2e/test_discard_retyped.py).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

PATH = ".gitattributes"
#: (the person's base, the writer's edit, the person's commit expiring it, typed again)
CASES = {
    "exact-blob": ("* text\n", "* text=auto\n", "* text eol=lf\n", "* text=auto\n"),
    "exact-hunk": (
        "* text\n*.png binary\n",
        "* text=auto\n*.png binary\n",
        "* text\n*.png binary\n*.jpg binary\n",
        "* text=auto\n*.png binary\n*.jpg binary\n",
    ),
}


@pytest.mark.parametrize(("base", "wrote", "other", "again"), CASES.values(), ids=CASES.keys())
def test_a_person_retyping_a_common_file_after_expiry_passes(
    native: World, base: str, wrote: str, other: str, again: str
) -> None:
    w = native.serve({PATH: base})
    w.delegate(rel=PATH, text=wrote)
    w.ok("reset", "-q", "--hard")
    w.write(PATH, other)
    expired = w.git("commit", "-qam", "human: other attributes")
    assert expired.code == 0 and any("expired" in s for s in expired.said), expired
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    w.write(PATH, again)  # typed again by the person
    w.person_commits("-qam", "human: text=auto")
    push = w.git("push", "origin", "main")
    assert push.code == 0 and "BLOCKED" not in push.err, push
    assert w.remote_ref("main") == w.rev("HEAD")
