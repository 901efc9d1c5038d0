"""Words for a verify run that failed only on its brief: each check that gave no evidence
(rows C2-base and C4-nothing of :data:`gentle_hooks.artifacts.observation.CHECK_ROWS`), why
it says nothing of the change, and what a good one does.

Room ``report``; pure. The run's own report (:mod:`.verify_report`) and a gate's block
(:mod:`.fixes`) say the same thing with these words; so for a run that failed on the change
and on a check that fails on every tree (:func:`mixed_fault_words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from shlex import quote

#: By a check's kind: why a check of that kind without evidence observes nothing of the
#: change, and what one that observes it does.
FAULT_WORDS: dict[str, tuple[str, str]] = {
    "negative": (
        "fails on the base tree too",
        "a negative test passes on the base tree and fails on the change",
    ),
    "criterion": (
        "gives the same answer on the base tree and with the change emptied",
        "a criterion passes on the change and fails without it, e.g. the change's own test",
    ),
    "suite": (
        "fails the same way on the base tree too",
        "a full suite runs the repository's tests as they are run, from the tree's top: "
        "its own test command",
    ),
}

_LABEL = {"negative": "negative test", "criterion": "criterion", "suite": "full suite"}


def fault_reasons(faults: Sequence[tuple[str, str]]) -> str:
    """Each ``(kind, command)`` that gave no evidence, why it observes nothing of the change
    and what a good one does, joined with ``; `` (a kind not in :data:`FAULT_WORDS` is left
    out)."""
    parts = []
    for kind, (why, good) in FAULT_WORDS.items():
        commands = [c for k, c in faults if k == kind]
        if not commands:
            continue
        named = ", ".join(f"`{c}`" for c in commands[:3]) + (" ..." if len(commands) > 3 else "")
        parts.append(f"{_LABEL[kind]} {named} {why}, so it observes nothing of the change ({good})")
    return "; ".join(parts)


def brief_fault_words(faults: Sequence[tuple[str, str]]) -> str:
    """Why the last verify run failed when only its brief was at fault
    (:func:`fault_reasons`), and what to do: a corrected brief, the same brief id or a new
    one, but a new one when a check failed on every tree (then no run of that brief id can
    pass: :func:`gentle_hooks.ledger.fails.brief_faults`, ``_settles``). Matches the journey
    agent's ``failed only on its brief ... correct the brief``."""
    suites = [c for c in faults if c[0] == "suite"]
    if suites:
        # a full suite that fails on the base tree fails every run of its brief (rule R2)
        return (
            f"the last verify run failed only on its brief: {fault_reasons(faults)}: no run "
            f"of that brief can pass; correct the brief under a new brief id, with a full "
            "suite that runs the repository's tests as they are run and every other check, "
            "write it to the file on the write line, then verify again with the verify run "
            "line below"
        )
    return (
        f"the last verify run failed only on its brief: {fault_reasons(faults)}: correct the "
        "brief (under a new brief id when a check fails on every tree: it fails every run "
        "of its brief), then verify again"
    )


def _named(checks: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"`{c}`" for _, c in checks[:3]) + (" ..." if len(checks) > 3 else "")


def mixed_fault_words(
    change: Sequence[tuple[str, str]], everywhere: Sequence[tuple[str, str]]
) -> str:
    """Why the last verify run failed when it failed both on checks of the change and on
    checks that fail on every tree (:func:`gentle_hooks.ledger.fails.mixed_failures`),
    each named, and what to do: fix the change, and correct the brief under a new brief id
    (no run of its brief can pass)."""
    return (
        f"the last verify run failed on the change: {_named(change)} failed on it (fix the "
        f"change); and {_named(everywhere)} fails on every tree (the base and the change "
        "emptied too), so no run of its brief can pass: fix the change, correct the brief "
        "under a new brief id without what fails everywhere, then verify again"
    )


def lacks_words(command: str, lacks: str) -> str:
    """Why a check of a verify run was blocked when it failed for a file of the work tree
    that git ignores (``lacks``: ``the file localcfg.py, which git ignores``; row
    C1-ignored), and what the user can do: no brief fixes it, and no option passes an
    ignored file into the room, so the file gets into the candidate or the tests stop
    needing it."""
    name = lacks.removeprefix("the file ").split(", which git ignores", 1)[0]
    return (
        f"the room lacks {lacks} (a local file of your work tree; the room holds the "
        f"candidate's tree alone), so `{command}` could not run there: that is neither the "
        "change's fault nor the brief's, and no brief can fix it; verify run has no option "
        "that passes an ignored file into the room: commit the file if it belongs in the "
        f"repository (git add -f -- {quote(name)}), or make the tests run without it, then run "
        "verify run again"
    )
