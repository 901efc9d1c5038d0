"""What ``gentle-hook verify prepare|run`` print: bounded text and ``--json`` envelopes (SPEC §9).

Room ``report``. Pure rendering of :class:`~gentle_hooks.services.verify.Prepared` and
:class:`~gentle_hooks.services.verify.Verified`. Seed 001 "Rules": "What returns to the
caller is a bounded summary plus an artifact reference. Never a transcript": a run prints
one line per check (clipped), at most :data:`MAX_LISTED` lines of them (what did not pass
first; the rest counted in one line naming the Markdown view that lists them all), the
artifact reference and the next command, never the checks' output (that is in the room's
logs). ``verify prepare`` bounds its list of checks the same way, naming the room's
``BRIEF.md``.
"""

from __future__ import annotations

import json
from typing import Final, Literal

from pydantic import JsonValue

from gentle_hooks.artifacts.observation import (
    FAILS_EVERYWHERE,
    SUITE_FAILS_ON_BASE,
    Check,
    Observations,
    Outcome,
    check_result,
    check_row,
    verdict_status,
)
from gentle_hooks.artifacts.outcome import marks_words
from gentle_hooks.artifacts.verdict import CheckKind, Status
from gentle_hooks.ledger.records import VerdictRecord
from gentle_hooks.policy.shellwords import quote
from gentle_hooks.report.brief_fault_text import fault_reasons, lacks_words
from gentle_hooks.report.fixes import binding_flags, program
from gentle_hooks.report.outbase import FrozenOut, schema_field
from gentle_hooks.services.artifact_home import kept_note
from gentle_hooks.services.verify import Prepared, Verified
from gentle_hooks.values.binding import Binding

PREPARE_SCHEMA: Final = "gentle-hooks.verify-prepare/v1"
RUN_SCHEMA: Final = "gentle-hooks.verify-run/v1"

_CONTROL = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)], " ")
_KIND_LABEL = {"criterion": "criterion", "negative": "negative test", "suite": "full suite"}


def _line(text: str, limit: int = 160) -> str:
    """``text`` on one line, at most ``limit`` characters: cut at the last word that fits
    (a command's last word too), then ``…``."""
    one = " ".join(text.translate(_CONTROL).split())
    if len(one) <= limit:
        return one
    cut = one[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut) + "…"


def _run_command(brief_file: str, binding: Binding, room: str | None) -> str:
    room_flag = f" --room {quote(room)}" if room is not None else ""
    brief = quote(brief_file)
    return f"{program()} verify run{binding_flags(binding)} --brief {brief}{room_flag}"


#: Checks listed one line each; the rest are counted in one line naming the file that
#: lists them all (seed 001 "Rules": "a bounded summary plus an artifact reference").
MAX_LISTED: Final = 12


def _bounded(lines: list[str], more: str) -> list[str]:
    """``lines`` when there are at most :data:`MAX_LISTED`, else the first
    ``MAX_LISTED - 1`` and ``more`` (which says how many were left out and where they are)."""
    if len(lines) <= MAX_LISTED:
        return lines
    kept = MAX_LISTED - 1
    return [*lines[:kept], more.format(n=len(lines) - kept)]


def _check_line(check: Check) -> str:
    what = "" if check.kind == "suite" else f" ({_line(check.criterion, 60)})"
    return f"  {_KIND_LABEL[check.kind]}{what}: {_line(check.command)}"


def render_prepared(p: Prepared, brief_file: str) -> str:
    """The room, what it holds, what the verifier may run there, and the run command."""
    cand = p.bound.candidate
    lines = [
        f"clean room: {p.room.path}",
        f"  tree: {p.room.tree}  (candidate {cand.identity[:19]}…, tree {cand.tree[:12]}: "
        "exactly; its own repository, one commit, nothing of your clone)",
        f"  brief: {p.room.brief}  (brief {_line(p.plan.brief_id, 60)}: objective and "
        "success criteria only)",
        "the verifier may run, in the tree, read-only (never edit what it judges):",
        *_bounded(
            [_check_line(c) for c in p.plan.checks],
            f"  … and {{n}} more; full list in {p.room.brief}",
        ),
    ]
    if not any(c.kind == "suite" for c in p.plan.checks):
        lines.append("  full suite: none declared (the verdict will be blocked: add fullSuite)")
    if p.plan.mutating and not any(c.kind == "negative" for c in p.plan.checks):
        lines.append(
            "  negative test: none declared, and the artifact mutates the repository (the "
            "verdict will be blocked: add negativeTests)"
        )
    lines.append(f"the room stays until you remove it: rm -rf {quote(p.room.path)}")
    lines.append(f"run: {_run_command(brief_file, p.bound.binding, p.room.path)}")
    return "\n".join(lines)


def render_verified(v: Verified, held: VerdictRecord | None = None) -> str:
    """A bounded summary: status and why, a line per check (at most :data:`MAX_LISTED`,
    those that did not pass first), the artifact, the next step: the ``verdict add`` to
    run, or, when the pass is ``held`` already (the same verifier's accepted verdict:
    :func:`~gentle_hooks.services.verdict_held.held_pass`), a ``held:`` line saying there
    is nothing to add."""
    verdict = v.verdict
    cand = v.bound.candidate
    first = verdict.summary.split("\n", 1)[0]
    lines = [
        # the status line is the table's words and the counts: bounded, never cut
        f"verify run: {_line(first, 400)}",
        f"  candidate {cand.identity[:19]}… (tree {cand.tree[:12]}), brief "
        f"{_line(verdict.briefId, 60)}, caller {_line(verdict.caller or '-', 80)}",
    ]
    listed: list[tuple[bool, str]] = []
    for o in v.outcomes:
        row = check_row(o)
        result = row.result
        if o.exit_code is None:
            seen = f"{'not run' if o.room_refused else 'could not start'}: {o.error or '?'}"
        else:
            seen = f"exit {o.exit_code}, {o.duration_ms} ms"
        if o.changed:
            seen += f", changed {_line(', '.join(o.changed), 80)}"
        if o.tests_skipped:
            seen += f", {o.tests_skipped} skipped"
        if o.skip_marks:  # row C1-skip: where the change adds the marker
            seen += f", the change adds a skip marker at {_line(marks_words(o.skip_marks), 400)}"
        label = _KIND_LABEL[o.check.kind]
        # the why in words for a check that did not pass; the row id is in --json
        why = "" if result == "pass" else f": {row.said}"
        line = f"  {result:<7} {label}: {_line(o.check.command, 100)}  ({seen}){why}"
        listed.append((result == "pass", line))
    # what did not pass first, each group in run order (sorted is stable)
    lines += _bounded(
        [line for _, line in sorted(listed, key=lambda item: item[0])],
        f"  … and {{n}} more; full list in {v.pair.markdown}",
    )
    lines.append(f"artifactRef: {v.pair.ref}  (and {v.pair.markdown})")
    if v.pair.kept is not None:
        lines.append(f"note: {kept_note(v.pair.kept)}")
    if v.room_kept:
        lines.append(f"logs: {v.room.logs}")
    else:
        lines.append("room: removed after the run, with its logs (--keep keeps them)")
    lines += [f"note: {n}" for n in v.notes]
    lines += [f"note: {lacks_words(o.check.command, o.lacks)}" for o in v.outcomes if o.lacks]
    faults = [o for o in v.outcomes if check_row(o).result == "fail"]
    if _brief_only(v):
        # the brief's fault alone: no observed failure of the change (ledger.fails)
        said = fault_reasons([(o.check.kind, o.check.command) for o in faults])
        lines.append(
            f"note: the brief is at fault, not the change: {said}; this run does not count as "
            "a failure of the change: correct the brief (the same or a new brief id) and run "
            "verify run again: the corrected brief's path after the prefix"
        )
    on_base = (FAILS_EVERYWHERE, SUITE_FAILS_ON_BASE)  # R2: settled by a corrected brief
    everywhere = [o.check.command for o in faults if check_row(o).id in on_base]
    # the change's own failures: failed with evidence on the change, not on every tree
    own = [
        o.check.command for o in faults if check_row(o).evidence and check_row(o).id not in on_base
    ]
    suites = [o.check.command for o in faults if check_row(o).id == SUITE_FAILS_ON_BASE]
    narrowed = [_narrowed(o) for o in faults if check_row(o).id == SUITE_FAILS_ON_BASE]
    if suites and not own and len(suites) == len(everywhere) and narrowed[0] is not None:
        # rule R2 on a red base: the change adds no failed test; deselecting the base's own
        # failures is the full suite of this change (verify run checks each fails there)
        lines.append(
            f"note: the brief's full suite `{_line(suites[0], 100)}` fails on the base tree "
            "too, and the change fails no test the base does not: a red base, not the "
            "change; write a brief under a new brief id whose fullSuite is the JSON string "
            "on the suite line below (it deselects only tests verify run sees failing on the "
            "base tree; seed "
            '001 "Rules": "A pass verdict requires the full suite to have run") with every '
            "other check, outside the work tree, and run verify run again: its path after "
            "the prefix"
        )
        # a JSON string, pasted as is into the brief (a test id may hold a quote or a \\)
        lines.append(f"suite: {json.dumps(narrowed[0], ensure_ascii=False)}")
        lines.append(f"prefix: {program()} verify run{binding_flags(v.bound.binding)} --brief")
        return "\n".join(lines)
    reach = [o for o in faults if check_row(o).id == SUITE_FAILS_ON_BASE and o.deselect_reach]
    if suites and not own and len(suites) == len(everywhere) and reach:
        lines.append(f"note: {_prefix_words(reach[0])}")  # the way out would hide a test
    if suites and not own and len(suites) == len(everywhere):
        # rule R2 for a full suite: it ran on the base tree alone, and cannot be dropped
        lines.append(
            f"note: the brief is at fault: its full suite `{_line(suites[0], 100)}` fails the "
            "same way on the base tree, so no run of this brief can pass whatever the change "
            "is; this failure stands until a corrected brief under a new brief id passes: "
            "write one whose full suite runs the repository's tests as they are run (its own "
            "test command, from the tree's top) with every other check, outside the work "
            "tree, and run verify run again: its path after the prefix"
        )
        lines.append(f"prefix: {program()} verify run{binding_flags(v.bound.binding)} --brief")
        return "\n".join(lines)
    if everywhere:
        named = ", ".join(f"`{c}`" for c in everywhere[:3])
        if own:
            real = ", ".join(f"`{c}`" for c in own[:3])
            lines.append(
                f"note: the change fails {real}: fix the change; and {named} fails on every "
                "tree (the base and the change emptied too), so no run of this brief can "
                "pass either: once the change is fixed, correct the brief under a new brief "
                "id, without it and with every other check, and run verify run again"
            )
        else:
            lines.append(
                f"note: the brief is at fault: {named} fails on every tree (the base and the "
                "change emptied too), so no run of this brief can pass; this failure stands "
                "until a corrected brief under a new brief id, without it and with every "
                "other check, passes: correct the brief and run verify run again"
            )
    if _brief_only(v):
        lines.append(f"prefix: {program()} verify run{binding_flags(v.bound.binding)} --brief")
    else:
        lines.append(held_line(held) if held else f"run: {_next(v)}")
    return "\n".join(lines)


def _narrowed(o: Outcome) -> str | None:
    """For a pytest full suite of row C5-base whose failed tests were read by id: its
    command with a ``--deselect`` of each test it failed (each failed on the base tree too);
    None otherwise: another runner (no way to deselect by id), a module that failed to
    import (no ``::``: a deselection does not skip collecting it), or a failed id that
    another test's id starts with (:attr:`~.Outcome.deselect_reach`: pytest's
    ``--deselect`` is a prefix, so no form of it deselects that test alone)."""
    if o.runner != "T-pytest" or not o.failed_tests or o.deselect_reach:
        return None
    if any("::" not in i for i in o.failed_tests):
        return None
    return o.check.command + "".join(f" --deselect {quote(i)}" for i in o.failed_tests)


def _prefix_words(o: Outcome) -> str:
    """Why no way out is printed for a suite of row C5-base whose failed ids are prefixes
    of other tests' (:attr:`~.Outcome.deselect_reach`)."""
    failed = [i for i in o.failed_tests or () if any(r.startswith(i) for r in o.deselect_reach)]
    more = f" and {len(o.deselect_reach) - 3} more" if len(o.deselect_reach) > 3 else ""
    return (
        "no suite line deselecting the base's failing tests is printed: pytest's --deselect "
        f"matches by prefix, and a --deselect of {_line(', '.join(failed[:3]), 200)} would "
        f"also deselect {_line(', '.join(o.deselect_reach[:3]), 200)}{more}, which does not "
        "fail on the base tree: a suite without it is not the full suite"
    )


def _brief_only(v: Verified) -> bool:
    """Whether every check of ``v`` that failed failed on the brief alone (no evidence
    against the change): the run is no failure of the change, so its verdict (status
    ``fail``) is not one to add; a corrected brief run again is the way out."""
    faults = [o for o in v.outcomes if check_row(o).result == "fail"]
    return bool(faults) and not any(check_row(o).evidence for o in faults)


def _next(v: Verified) -> str | None:
    """The ``verdict add`` that stores the verdict ``v`` wrote, runnable as printed; None
    when the run failed on its brief alone (:func:`_brief_only`)."""
    if _brief_only(v):
        return None
    return f"{program()} verdict add{binding_flags(v.bound.binding)} {quote(v.pair.json)}"


def held_line(held: VerdictRecord) -> str:
    """Why a verify run prints no ``verdict add``: ``held`` is its verifier's pass."""
    return (
        f"held: verdict #{held.id} (brief {_line(held.brief_id, 60)}, status {held.status}) "
        f"of the same verifier ({_line(held.caller or '-', 80)}) is stored for this candidate "
        "and accepted: this pass adds nothing (one verifier counts once), so there is no "
        "verdict add to run"
    )


class CheckOut(FrozenOut):
    """One check: kind, criterion in words, the command as shown."""

    kind: CheckKind
    criterion: str
    command: str


class PrepareEnvelope(FrozenOut):
    """``verify prepare --json``: the room, the candidate, the checks, the run command."""

    schema_: Literal["gentle-hooks.verify-prepare/v1"] = schema_field(PREPARE_SCHEMA)
    room: str
    tree: str
    brief: str
    identity: str
    candidate_tree: str
    brief_id: str
    mutating: bool
    checks: tuple[CheckOut, ...]
    next: str


class OutcomeOut(FrozenOut):
    """One observed check: result, the row that decided it, what was seen, and the
    candidate's files it changed in the room (row C0; the run stopped there)."""

    kind: CheckKind
    criterion: str
    command: str
    result: Status
    row: str
    exit_code: int | None
    duration_ms: int
    output_digest: str | None
    error: str | None
    changed: tuple[str, ...] = ()


class RunEnvelope(FrozenOut):
    """``verify run --json``: the verdict, where it was written, and what was observed;
    ``status_row``: the id of the status rule that decided the verdict's status (``S4``),
    ``outcomes[].row`` each check's (the summary says both in words); ``next``: the
    ``verdict add`` to run, None when ``held`` (the id of the same verifier's accepted
    verdict for the candidate) holds the pass already."""

    schema_: Literal["gentle-hooks.verify-run/v1"] = schema_field(RUN_SCHEMA)
    status: Status
    artifactRef: str
    json_path: str
    markdown_path: str
    run: int
    room: str
    logs: str
    room_kept: bool
    status_row: str
    outcomes: tuple[OutcomeOut, ...]
    verdict: JsonValue
    notes: tuple[str, ...]
    next: str | None
    held: int | None = None


def prepare_envelope(p: Prepared, brief_file: str) -> PrepareEnvelope:
    """The ``--json`` form of :func:`render_prepared`."""
    return PrepareEnvelope(
        room=p.room.path,
        tree=p.room.tree,
        brief=p.room.brief,
        identity=p.bound.candidate.identity,
        candidate_tree=p.bound.candidate.tree,
        brief_id=p.plan.brief_id,
        mutating=p.plan.mutating,
        checks=tuple(
            CheckOut(kind=c.kind, criterion=c.criterion, command=c.command) for c in p.plan.checks
        ),
        next=_run_command(brief_file, p.bound.binding, p.room.path),
    )


def run_envelope(v: Verified, held: VerdictRecord | None = None) -> RunEnvelope:
    """The ``--json`` form of :func:`render_verified`: ``next`` the ``verdict add`` to run,
    or None and ``held`` the id of the verdict that holds the pass already."""
    return RunEnvelope(
        status=v.verdict.status,
        artifactRef=v.pair.ref,
        json_path=v.pair.json,
        markdown_path=v.pair.markdown,
        run=v.run.id,
        room=v.room.path,
        logs=v.room.logs,
        room_kept=v.room_kept,
        status_row=verdict_status(Observations(v.outcomes, v.verdict.artifactMutating))[1].id,
        outcomes=tuple(
            OutcomeOut(
                kind=o.check.kind,
                criterion=o.check.criterion,
                command=o.check.command,
                result=check_result(o)[0],
                row=check_result(o)[1],
                exit_code=o.exit_code,
                duration_ms=o.duration_ms,
                output_digest=o.output_digest,
                error=o.error,
                changed=o.changed,
            )
            for o in v.outcomes
        ),
        verdict=v.verdict.model_dump(mode="json", exclude_none=True),
        notes=v.notes,
        next=None if held else _next(v),
        held=held.id if held else None,
    )
