"""``gentle-hook verify prepare|run``: the independent verifier run, observed (SPEC §9; seed 001).

Room ``services``. One use case in two steps:

* :func:`prepare` — validate the brief (B1-B5), choose its checks
  (:mod:`gentle_hooks.services.verify_plan`), and hand over a clean
  room (:mod:`gentle_hooks.services.cleanroom`): the candidate's exact tree, the brief's
  objective and success criteria, nothing else.
* :func:`run` — in a clean room that still holds exactly the candidate (a prepared one, or
  a fresh one), run each success criterion, each negative test and the full suite, observe
  each (command, exit status, duration, output digest: :mod:`gentle_hooks.services.room_run`),
  stop at a check that changed the candidate's files, write the DelegationVerdict from
  those observations alone
  (:func:`gentle_hooks.artifacts.observation.observed_verdict`) as the JSON and Markdown pair
  of seed 001 "Artifact", validated, binding the candidate and brief and naming the caller,
  and record what was observed in the ledger (:class:`~gentle_hooks.ledger.records.VerifyRun`)
  so ``verdict add`` can tell this verdict from a claimed one. It never repairs the
  artifact: checks run in the room, never in the user's work tree, and a room whose tree
  was changed is refused.

Nothing here signs (signatures are the team-scale gates' business); what a run observed
is recorded, so a verdict's evidence digests can be checked against it.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Mapping

from gentle_hooks.artifacts.brief import DelegationBrief, check_brief, parse_brief
from gentle_hooks.artifacts.markdown import render_verdict_markdown
from gentle_hooks.artifacts.observation import Outcome, observed_verdict
from gentle_hooks.artifacts.recorded import recorded_observations
from gentle_hooks.artifacts.verdict import (
    CandidateRef,
    DelegationVerdict,
    verdict_digest,
    verdict_json,
)
from gentle_hooks.config.load import load_config
from gentle_hooks.errors import EXIT_BLOCKED, GentleError, GitError
from gentle_hooks.ledger.fails import STARTED
from gentle_hooks.ledger.records import VerifyRun
from gentle_hooks.services.carried import carry_forward
from gentle_hooks.services.cleanroom import (
    Room,
    make_base,
    make_room,
    remove_aside,
    remove_room,
    room_brief_text,
    sweep_rooms,
)
from gentle_hooks.services.declared_suite import DECLARE_HOW, DeclaredSuite, declared_suite
from gentle_hooks.services.record import Binding, Bound, bind, open_store
from gentle_hooks.services.room_bounds import check_room_parents
from gentle_hooks.services.room_env import dropped_note, dropped_path, pointing_in, room_env
from gentle_hooks.services.room_imports import for_room
from gentle_hooks.services.room_open import check_room, check_room_brief, check_room_root, open_room
from gentle_hooks.services.room_programs import ALLOW_FLAG, refuse_programs, resolve_programs
from gentle_hooks.services.room_run import observe_all
from gentle_hooks.services.runner import stopped_cleanly
from gentle_hooks.services.suite_observer import brief_own
from gentle_hooks.services.verdict_filing import (
    ArtifactPair,
    plan_pair,
    validate_written,
    write_artifacts,
)
from gentle_hooks.services.verify_plan import ExtraChecks, Plan, plan_checks
from gentle_hooks.values.frozen import field, frozen, replace


@frozen
class Prepared:
    """A prepared clean room: the candidate, the plan and the room."""

    bound: Bound
    plan: Plan
    room: Room


@frozen
class Verified:
    """What one verify run did.

    Attributes:
        bound / plan / room: the candidate, the checks and the room they ran in.
        outcomes: each check's observation, in run order.
        verdict: the DelegationVerdict written; pair: where (``pair.ref`` is its
            ``artifactRef``); run: the ledger's record of the run.
        room_kept: False when the run made its own room and removed it afterwards, logs
            and all (the verdict records each check's output digest).
        notes: lines for the user.
    """

    bound: Bound
    plan: Plan
    room: Room
    outcomes: tuple[Outcome, ...]
    verdict: DelegationVerdict
    pair: ArtifactPair
    run: VerifyRun
    room_kept: bool
    notes: tuple[str, ...] = field(default=())


def read_brief(data: bytes, source: str) -> tuple[DelegationBrief, list[str]]:
    """Parse a brief and check it (seed 001 "Workflow" 1: B1-B3; B4, its checks stay in the room).

    Returns:
        (the brief, its faults): faults empty when a verifier may start on it.

    Raises:
        ArtifactInputError: not a DelegationBrief (exit 2).
    """
    brief = parse_brief(data, source)
    return brief, check_brief(brief)


def _plan_for(
    bound: Bound, brief: DelegationBrief, extra: ExtraChecks, env: Mapping[str, str]
) -> tuple[Plan, DeclaredSuite, str | None]:
    """The plan for ``brief`` on the bound candidate, with the repository's declared full
    suite (the base commit's: :func:`~.declared_suite.declared_suite`) and the checks an
    earlier candidate of the change failed (:func:`~.carried.carry_forward`; its line)."""
    settings = load_config(bound.root, bound.repo.gentle_config(), env).settings
    declared = declared_suite(bound.repo, bound.candidate, settings, env)
    declared.refuse_loading()  # rule B5 for the repository's own suite: nothing runs
    plan = plan_checks(brief, extra, not bound.candidate.is_empty, declared.command)
    crit, neg, suites, line = carry_forward(
        bound, frozenset((c.kind, c.command) for c in plan.checks)
    )
    if crit or neg or suites:  # as --check, --negative, --suite (a second suite: --check)
        suite = extra.suite or (suites[0] if suites else None)
        crit = (*extra.criteria, *crit, *(c for c in suites if c != suite))
        more = ExtraChecks(criteria=crit, negatives=(*extra.negatives, *neg), suite=suite)
        plan = plan_checks(brief, more, not bound.candidate.is_empty, declared.command)
    return plan, declared, line


def prepare(
    binding: Binding, brief: DelegationBrief, extra: ExtraChecks, env: Mapping[str, str]
) -> Prepared:
    """``verify prepare``: a clean room for ``brief`` on the bound candidate.

    Raises:
        UsageError: no success criterion (:func:`plan_checks`); the temporary directory
            or one above it holds a tool's configuration
            (:func:`~gentle_hooks.services.room_bounds.check_room_parents`).
        GitError / ConfigError: as :func:`gentle_hooks.services.record.bind`; exporting
            the tree failed.
    """
    bound = bind(binding, env)
    plan, _, _ = _plan_for(bound, brief, extra, env)
    _refuse_pointing(bound, brief)
    text = room_brief_text(brief.objective, plan.brief_id, plan.checks)
    check_room_parents(tempfile.gettempdir())
    return Prepared(bound, plan, make_room(bound.repo, bound.candidate, text))


def _pointers(bound: Bound) -> tuple[str, ...]:
    """Where the user's copies are: every work tree of the repository and its git
    directory (the ledger, receipts, notes)."""
    return (bound.root, bound.repo.paths.common_dir, *bound.repo.worktree_paths())


def _refuse_pointing(bound: Bound, brief: DelegationBrief) -> None:
    """Raises GentleError (exit 1, as a rejected brief): a variable of the brief's ``env``
    points into one of the user's work trees or its git directory
    (:func:`~gentle_hooks.services.room_env.pointing_in`; rule B4 refuses an absolute path
    outside the system's directories before, this one the ones under them or behind a
    symlink)."""
    found = pointing_in(brief.env or {}, *_pointers(bound))
    if found:
        name, entry = found[0]
        raise GentleError(
            f"brief rejected: B4 env {name} ({entry}) points into your repository or one of "
            "its worktrees: a check would run the writer's copy, not the candidate's; name "
            "paths relative to the candidate's tree",
            exit_code=EXIT_BLOCKED,
        )


def _caller(bound: Bound, caller: str | None) -> str:
    if caller is not None and caller.strip():
        return " ".join(caller.split())
    try:
        return bound.repo.ident()
    except GitError:
        return "unknown (no git identity configured)"


def run(
    binding: Binding,
    brief: DelegationBrief,
    extra: ExtraChecks,
    env: Mapping[str, str],
    *,
    room_path: str | None = None,
    caller: str | None = None,
    keep: bool = False,
    brief_file: str | None = None,
    allow_shared: bool = False,
) -> Verified:
    """``verify run``: run the brief's checks in a clean room and write the verdict.

    Args:
        binding: the candidate; brief / extra: the checks; env: the process environment.
        room_path: a room ``verify prepare`` made (it must still hold exactly the
            candidate), or None to make a fresh one.
        caller: who asks for the verification (default: git's committer ident).
        brief_file: the brief's path, named by the ``verify prepare`` an error prints.
        allow_shared: let a check's program resolve under a temporary directory or to a
            place others may write (:func:`~.room_programs.refuse_programs`).
        keep: keep a room this run made (default: removed when the run ends, also when it
            fails or is stopped by SIGTERM or SIGHUP; one left by a killed run is removed by
            the next run, :func:`~gentle_hooks.services.cleanroom.sweep_rooms`).

    Returns:
        :class:`Verified`. The verdict's status follows
        :data:`gentle_hooks.artifacts.observation.STATUS_ROWS`.

    Raises:
        UsageError: no success criterion; a tool's configuration above the room
            (:func:`~gentle_hooks.services.room_bounds.check_room_parents`); the room is
            not a room, was prepared for another
            candidate or another brief (its ``BRIEF.md`` differs), or a tracked file in it
            was changed (files earlier runs left are removed); the artifact cannot be
            written.
        GitError / ConfigError / StoreError: binding, exporting, the ledger.
    """
    started = time.monotonic()
    bound = bind(binding, env)
    plan, declared, carried = _plan_for(bound, brief, extra, env)
    said = tuple(x for x in (declared.note(), carried) if x)
    _refuse_pointing(bound, brief)
    sweep_rooms()
    text = room_brief_text(brief.objective, plan.brief_id, plan.checks)
    if room_path is not None:
        flags = bound.binding.words()
        room = open_room(room_path, flags, brief_file)
        check_room_parents(os.path.dirname(room.path))
        check_room_brief(room, text, plan.brief_id, flags, brief_file)
        check_room_root(room, flags, brief_file)
        notes = (*check_room(bound.repo, room, bound.candidate, flags, brief_file), *said)
        return _verify_in(
            bound, plan, room, env, caller, started, notes, kept=True, shared=allow_shared
        )
    check_room_parents(tempfile.gettempdir())
    with stopped_cleanly():  # SIGTERM, SIGHUP: the room goes too
        room = make_room(bound.repo, bound.candidate, text, owned=not keep)
        try:
            return _verify_in(
                bound, plan, room, env, caller, started, said, kept=keep, shared=allow_shared
            )
        finally:
            if not keep:
                remove_room(room)


def _verify_in(
    bound: Bound,
    plan: Plan,
    room: Room,
    env: Mapping[str, str],
    caller: str | None,
    started: float,
    notes: tuple[str, ...],
    *,
    kept: bool,
    shared: bool = False,
) -> Verified:
    """Run the plan in ``room``, write the verdict's artifact pair and record the run."""
    settings = load_config(bound.root, bound.repo.gentle_config(), env).settings
    cand = bound.candidate
    with open_store(bound.repo) as led:  # a broken store fails before anything runs
        own_env = room_env(env, *_pointers(bound))
        checks_env = {**own_env, **(plan.brief.env or {})}
        resolved = resolve_programs(plan.checks, checks_env.get("PATH", os.defpath), room.tree)
        ran = [x.path for p in resolved for x in p]  # an editable install imports the room's
        paths = [[x.path for x in p] for p in resolved]
        checks_env, mapped, imports = for_room(
            checks_env, ran, bound.repo.worktree_paths(), room.tree, guard=room.guard, escaping=True
        )
        allowed = refuse_programs(
            resolved, plan.checks, _pointers(bound), room.path, allow_shared=shared
        )
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        pair = plan_pair(
            bound,
            settings.verification.artifact_dir,
            f"{plan.brief_id}-{cand.identity[7:19]}-{stamp}",
        )
        # the run is recorded before any check runs: one killed before its end stands as
        # an observed failure (rule R2), as its fail would have
        led.add_run(_started(bound, plan, room, pair.ref, _caller(bound, caller)))
        if not cand.is_empty:
            make_base(bound.repo, room, cand)
        try:
            outcomes = observe_all(
                bound,
                plan.checks,
                room,
                checks_env,
                operands=plan.declared is None,
                imports=imports,
                programs=paths,
                brief_vars=brief_own(plan.brief.env or {}, own_env, imports.first),
            )
        finally:
            remove_aside(room)
        outcomes = tuple(
            replace(o, programs=p, shared=tuple(x.path for x in p if x.path in allowed))
            for o, p in zip(outcomes, resolved, strict=False)
        )
        verdict = observed_verdict(
            plan.brief_id,
            outcomes,
            mutating=plan.mutating,
            candidate=CandidateRef(identity=cand.identity, baseTree=cand.base.tree, tree=cand.tree),
            caller=_caller(bound, caller),
            artifact_ref=pair.ref,
            duration_ms=int((time.monotonic() - started) * 1000),
        )
        text = verdict_json(verdict)
        validate_written(verdict, text)
        view = render_verdict_markdown(verdict, added=False)
        pair = write_artifacts(bound.repo, bound.root, pair, text, view)
        record = led.add_run(
            VerifyRun(
                root=bound.root,
                identity=cand.identity,
                brief_id=plan.brief_id,
                status=verdict.status,
                caller=verdict.caller or "",
                room=room.path,
                artifact_ref=pair.ref,
                verdict_digest=verdict_digest(verdict),
                observations=recorded_observations(outcomes, verdict),
            )
        )
    notes = (*notes, *mapped)
    if any(o.selection == "P-operand" for o in outcomes):
        notes = (*notes, f"the full suite names part of the test tree: {DECLARE_HOW}")
    dropped = dropped_path(env, *_pointers(bound))
    if dropped:
        notes = (*notes, dropped_note(dropped, outcomes))
    if allowed:
        notes = (*notes, f"{ALLOW_FLAG}: {', '.join(allowed)} ran from a shared directory")
    if pair.excluded is not None:
        notes = (
            *notes,
            f"{pair.excluded}: the artifact directory was added, so the verdict does not "
            "change the candidate it judged",
        )
    return Verified(bound, plan, room, outcomes, verdict, pair, record, kept, notes)


def _started(bound: Bound, plan: Plan, room: Room, ref: str, caller: str) -> VerifyRun:
    """The ledger's row of a run that starts: ``fail`` until its end row ends it
    (:data:`~gentle_hooks.ledger.fails.STARTED`), with the checks it will run."""
    checks = [{"kind": c.kind, "command": c.command} for c in plan.checks]
    return VerifyRun(
        root=bound.root,
        identity=bound.candidate.identity,
        brief_id=plan.brief_id,
        status="fail",
        caller=caller,
        room=room.path,
        artifact_ref=ref,
        verdict_digest=STARTED,
        observations=json.dumps(checks, ensure_ascii=False, separators=(",", ":")),
    )
