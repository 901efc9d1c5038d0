"""The fixed parts of a gate's decision object (SPEC §7 "Hooks": with
``GENTLE_HOOKS_FORMAT=json`` a gate prints its decision as one JSON object), shared by the
Python gates (:mod:`gentle_hooks.hooks.decision`) and the installed hooks' ``sh`` fast path
(:mod:`gentle_hooks.services.fastpath`), so both print the same bytes for the same decision.

Room ``policy`` (pure): constants and one object built from a hook's name.
"""

from __future__ import annotations

SCHEMA = "gentle-hooks.decision/v1"
#: The variable that chooses how the gates print (``json``, ``text``).
ENV = "GENTLE_HOOKS_FORMAT"
#: The gates that speak for every commit under ``json``, also when nothing here can apply
#: (a person's ordinary commit): one of them runs for each commit git makes with hooks on
#: (a merge's own commit runs ``pre-merge-commit`` instead of ``pre-commit``). ``commit-msg``
#: prints an object only when it judges (one judgement per commit).
SPEAKS_FOR_EVERY_COMMIT = ("pre-commit", "pre-merge-commit")


def allowed_object(hook: str) -> dict[str, object]:
    """The decision of gate ``hook`` that judged no candidate and allowed: what
    :func:`gentle_hooks.hooks.decision.decision_object` builds for no candidate, exit 0,
    nothing let through and no line said."""
    return {
        "schema": SCHEMA,
        "hook": hook,
        "decision": "allowed",
        "exit_code": 0,
        "let_through": None,
        "override": None,
        "candidates": [],
        "then_run": [],
        "notices": [],
        "lines": [],
    }


def allowed_line(hook: str) -> str:
    """:func:`allowed_object` as the one line :func:`gentle_hooks.hooks.decision.
    print_decision` prints (compact separators; ASCII only, so no escaping differs)."""
    import json  # not on a person's commit path: the fast path holds the line, written in

    return json.dumps(allowed_object(hook), ensure_ascii=False, separators=(",", ":"))
