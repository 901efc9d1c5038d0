"""Row ``N-hidden``: a shell line that can succeed while one of its checks fails (seed 001
"Completion criteria": "every declared criterion has evidence, not an assertion").

Room ``policy`` (pure). The line is evaluated by :mod:`gentle_hooks.policy.nocheck`'s
reader once per check, with that check failing and every other one succeeding.
"""

from __future__ import annotations

from gentle_hooks.policy.nocheck import Judgement, _Exit, _list, _State
from gentle_hooks.policy.shell import parse_line

#: How many checks of one line :func:`judge_hidden` fails one at a time.
MAX_HIDDEN_CHECKS = 32


def judge_hidden(text: str) -> Judgement:
    """Whether a line can succeed while one of its checks fails (row ``N-hidden``): the
    line is evaluated once per check, with that check failing and every other succeeding.
    ``pytest -q || pytest -q test_app.py``, ``pytest a; pytest b``, ``pytest | grep
    passed``, ``set -e; a || b`` hide a failure; ``a && b``, ``set -e; a; b`` and ``set -o
    pipefail; a | b`` do not. A success criterion or full suite must fail whenever one of
    its checks fails (seed 001: "every declared criterion has evidence, not an assertion").

    Returns:
        ``checks`` False with rows ``("N-hidden",)`` when some check's failure leaves the
        line succeeding; True when none does, or the line cannot be evaluated.
    """
    line = parse_line(text)
    if line is None:
        return Judgement(True)
    fail_at = 0
    while fail_at < MAX_HIDDEN_CHECKS:
        st = _State(fail_at=fail_at)
        try:
            ok = _list(line, st, 0)
        except _Exit as done:
            ok = done.ok
        if st.seen[1] == 0:
            return Judgement(True)  # fewer checks ran than fail_at: every one was tried
        if ok:
            return Judgement(False, ("N-hidden",))
        fail_at += 1
    return Judgement(True)
