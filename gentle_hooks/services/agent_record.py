"""``record --from NAME``: an agent runtime's hook input in, a pending mutation out (SPEC §6
"pending mutation", §7 "Hooks").

Room ``services``. The runtime's decoder (:mod:`gentle_hooks.agents.runtimes`) reduces its
input to a :class:`gentle_hooks.agents.event.RuntimeEvent`; this module finds the work tree,
keeps the written paths that lie in it and records through
:func:`gentle_hooks.services.mutation.record_mutation`, which keeps the content the writer left
and records a tool call once (a replay is reported, not recorded again).

Nothing is recorded, and the hook still succeeds, when the input names another hook event
than the post-tool one we wire (a ``PreToolUse`` input fires before the file changes, and
must not spend the tool call id its ``PostToolUse`` needs; a shell call's keeps the work
tree's snapshot instead, whose post-tool input records what changed: :mod:`.agent_shell`),
when the event is not a file write (a runtime that fires for every tool), when it names no
path inside the work tree, or when the agent works outside any git work tree (a user-level
hook fires in every directory), or when the runtime reports that the tool call failed or
was denied (what the file holds then is not the writer's; a person's own edit must never be
recorded as writer work): there is no writer content to attribute then. Each case says so
in one line. A failed call that applies a patch file by file (Codex's) is the exception: the
files it names that hold what the patch writes there and differ from ``HEAD`` are recorded (content
decides, not the exit status), with a note.
A writing tool whose input names no path that can be read fails (non-blocking for its
runtime) with one line naming what was unreadable: the recorder never falls back to every
dirty path, which would attribute a person's edits to the writer (SPEC §3).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    SUBAGENT_START,
    UNKNOWN,
    WRITE_BEFORE,
    RuntimeEvent,
    SettingsWriter,
    given_effort_problem,
    writer_of,
)
from gentle_hooks.agents.runtimes import Runtime, runtime
from gentle_hooks.errors import GitError, UsageError, shown_field
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.inputs import label_problem
from gentle_hooks.services import (
    agent_inflight,
    agent_leftover,
    agent_patched,
    agent_prewrite,
    agent_shell,
    agent_stop_patches,
    agent_window_links,
    agent_windows,
)
from gentle_hooks.services.agent_trees import by_work_tree, work_tree
from gentle_hooks.services.mutation import MutationRequest, not_a_file, record_mutation
from gentle_hooks.services.record import Recorded
from gentle_hooks.services.shell_trees import call_id_in
from gentle_hooks.values.frozen import frozen, replace


@frozen
class RuntimeRecorded:
    """What ``record --from`` did.

    Attributes:
        event: the decoded event; recorded: the stored mutation (None when nothing was
            recorded; the one in the session's work tree when it holds a written path);
            skipped: why nothing was recorded, or None; ack: what the hook prints on
            standard output for its runtime; also: the mutations recorded in other work
            trees (a written file that lies in another repository is recorded there).
    """

    event: RuntimeEvent
    recorded: Recorded | None
    skipped: str | None
    ack: str
    also: tuple[Recorded, ...] = ()


def record_from_runtime(
    name: str,
    data: bytes,
    cwd: str | None,
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
) -> RuntimeRecorded:
    """Decode runtime ``name``'s hook input and record the writer's mutation.

    Args:
        name: the runtime; data: its hook input; cwd: ``--cwd`` (default: the runtime's);
        model / effort: ``--model``/``--effort`` (they win over the environment and the
            runtime); env: the process environment.

    Raises:
        UsageError: input that is not the runtime's bounded JSON object, or a writing
            tool's input that names no path that can be read (nothing is recorded: the
            dirty work tree is never attributed to the writer wholesale).
        StoreError: the ledger cannot be used.
    """
    rt = runtime(name)
    sender = rt.guest(data, env) if rt.guest is not None else None
    if sender is not None:
        # another runtime runs this one's hook files (Copilot runs .claude/settings.json):
        # its input is its own, recorded as its own writer, never this runtime's
        rt = replace(runtime(sender), ack=rt.ack)
    assert rt.decode is not None
    event = rt.decode(data)
    # the session's background windows first: what their processes wrote since the last
    # event is theirs, not this call's (the end of the turn closes them)
    root = work_tree(event, cwd)
    # a runtime with no end-of-turn event wired closes them at their first move (the
    # session's next event): a later write is not recorded, nor a person's later edit
    ends = rt.wiring is not None and rt.wiring.turn_end is not None
    closing = event.shell == SHELL_END or not ends
    # a window whose process still runs at the end of the turn stays open for a grace
    grace, bad = agent_windows.grace(env) if event.shell == SHELL_END else (0.0, None)
    moved = agent_window_links.tick(
        rt.name, rt.title, event, root, env, closing=closing, turn_end=ends, grace=grace
    )
    kept = tuple(m.kept + (f" ({bad})" if bad else "") for m in moved if m.kept)
    # then the shell calls whose post-tool event never came (Codex's), a window kept or not
    settled = agent_inflight.unreported(rt, event, root, env)
    windows = (len(moved) - len(kept), len(kept) + sum(1 for m in settled if m.kept))
    moved += [m for m in settled if not m.why]
    event = replace(event, notes=(*event.notes, *kept, *(m.why for m in settled if m.why)))
    late = [
        record_written(rt, m.event, m.starts, cwd, model, effort, env) for m in moved if not m.why
    ]
    # and the patches the rollout shows applied (Codex's): a replay of a recorded one is quiet
    # (those the ledger holds already are settled: a later Stop re-checks only the rest)
    fresh = agent_stop_patches.unsettled(event, root)
    for patch in agent_stop_patches.applied(fresh, cwd) if fresh.patches else []:
        d = record_written(rt, patch, {}, cwd, model, effort, env)
        late += [d] if d.recorded and not d.recorded.replayed else []
    done = _one(rt, sender, name, event, cwd, model, effort, env, root, windows)
    also = tuple(r for d in late for r in ((d.recorded,) if d.recorded else ()) + d.also)
    return replace(done, also=(*done.also, *also)) if also else done


def _one(
    rt: Runtime,
    sender: str | None,
    name: str,
    event: RuntimeEvent,
    cwd: str | None,
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
    root: str | None,
    windows: tuple[int, int],
) -> RuntimeRecorded:
    """:func:`record_from_runtime` of the decoded ``event`` (``root``: its work tree),
    once the session's background windows were moved (``windows``: how many the end of the
    turn closed, and how many it kept open for a grace, their lines in ``event.notes``)."""
    if event.shell == SHELL_END:
        said = agent_window_links.ended(*windows)
        why = f"the agent's turn in {rt.title} ended: {said}" + "".join(
            f"; {n}" for n in event.notes
        )
        return RuntimeRecorded(event, None, why, rt.ack)
    if event.lifecycle is not None:
        return _bracket(rt.name, rt.title, rt.ack, event, cwd)
    if event.shell == SHELL_BEFORE:  # a shell call about to run: the work tree is kept
        why = agent_inflight.before(rt, event, root, cwd, model, effort, env)
        return RuntimeRecorded(event, None, why, rt.ack)
    if event.shell == WRITE_BEFORE:  # a writing call about to run: the files it names are kept
        why = agent_prewrite.keep(rt.title, rt.name, event, root, cwd)
        return RuntimeRecorded(event, None, why, rt.ack)
    wired = rt.wiring.event if rt.wiring is not None else None
    other = event.hook_event is not None and wired and event.hook_event.lower() != wired.lower()
    if other and event.shell != SHELL_AFTER:  # a shell's own post-tool event records (Cursor)
        # a pre-tool event fires before the file changes: recording it would attribute no
        # content and spend the tool call id the post-tool event needs
        why = (
            f"{event.hook_event} is not {wired}, the event gentle-hooks records from for "
            f"{rt.title} (a write is recorded after the tool wrote)"
        )
        if sender is not None:
            # the other runtime ran this one's hook files: its own recorder records the write
            why += (
                f"; {rt.title} ran the hooks of {name}: its own hook records its writes ({rt.doc})"
            )
        return RuntimeRecorded(event, None, why, rt.ack)
    starts: dict[str, str | None] = {}
    if event.writes and event.shell is None and event.shell_key is not None:
        starts = agent_prewrite.starts(rt.name, event, root)  # what its pre-tool event kept
    if event.shell == SHELL_AFTER:  # what the shell call changed since its snapshot
        # a call that left a process running (its words, or /proc): a window is kept
        # before the compare
        event, seen = agent_leftover.mark(rt.name, rt.title, event, root)
        opened = (
            agent_window_links.opened(rt.name, rt.title, event, root, cwd)
            if event.background
            else []
        )
        event, starts, no = agent_inflight.after(rt, event, root, cwd)
        if opened:
            ends = rt.wiring is not None and rt.wiring.turn_end is not None
            said = agent_window_links.register(rt.name, opened, event, root, env, turn_end=ends)
            said = f"{seen}; {said}" if seen else said
            no = f"{no}; {said}" if no is not None else None
            event = replace(event, notes=event.notes if no else (*event.notes, said))
        if no is not None:
            return RuntimeRecorded(event, None, no, rt.ack)
    return record_written(rt, event, starts, cwd, model, effort, env, sender, name)


def record_written(
    rt: Runtime,
    event: RuntimeEvent,
    starts: Mapping[str, str | None],
    cwd: str | None,
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
    sender: str | None = None,
    name: str | None = None,
) -> RuntimeRecorded:
    """Record what ``event`` wrote (a shell call's: measured from ``starts``; a background
    window's move too, from a gate: :mod:`.agent_window_settle`)."""
    name = name or rt.name
    if not event.writes and event.not_written is not None:
        # a tool that can write (a shell) whose call names no file it wrote: say what is
        # recorded from that tool, never that it does not write
        why = f"the {event.tool or 'tool'} call of {rt.title} {event.not_written}"
        return RuntimeRecorded(event, None, why, rt.ack)
    if not event.writes:
        why = f"{event.tool or 'this event'} is not a file-writing tool of {rt.title}"
        return RuntimeRecorded(event, None, why, rt.ack)
    # a patch applied file by file may have written part of its files before it failed
    part_way = event.failed is not None and bool(event.patch_results)
    if event.failed is not None and not part_way:
        # the call wrote nothing: what the file holds is someone else's (a person's own
        # edit), never the writer's (SPEC §3); its replay id is not spent either
        why = (
            f"the {event.tool or 'writing'} call of {rt.title} {event.failed}: it wrote "
            "nothing, so what the file holds is not its work"
        )
        return RuntimeRecorded(event, None, why, rt.ack)
    if not event.paths:
        # the tool wrote somewhere we cannot read: recording the whole dirty tree would
        # attribute a person's own edits to the writer (SPEC §3), so nothing is recorded
        # and the hook fails non-blocking, naming what was unreadable
        raise UsageError(
            f"record --from {name}: the {shown_field(event.tool or 'writing')} call names no "
            f"written path that can be read ({shown_field(event.unreadable or 'no path given')})"
        )
    root = work_tree(event, cwd)
    if root is None:
        where = cwd or event.cwd or os.getcwd()
        return RuntimeRecorded(event, None, f"{where} is not in a git work tree", rt.ack)
    groups = by_work_tree(root, event.paths, cwd or event.cwd)
    refused = [f"{p} {bad}" for top, rels in groups for p in rels if (bad := not_a_file(top, p))]
    groups = [(top, tuple(p for p in rels if not_a_file(top, p) is None)) for top, rels in groups]
    groups = [(top, rels) for top, rels in groups if rels]
    if part_way:
        groups = _written_part(event, groups, cwd or event.cwd or root)
        if not groups:
            why = (
                f"the {event.tool or 'writing'} call of {rt.title} {event.failed}, and no file "
                "it names holds what the patch writes there and differs from HEAD: it wrote "
                "nothing, so what the file holds is not its work"
            )
            return RuntimeRecorded(event, None, why, rt.ack)
    if event.patched and not starts:  # several files patched: each from itself before
        starts = agent_patched.starts(event, groups, cwd or event.cwd or root)
    if not groups:
        why = f"no written path lies in {root}"
        if refused:
            why += f" ({'; '.join(refused)}: never a file a writer wrote)"
        return RuntimeRecorded(event, None, why, rt.ack)
    # only a runtime whose subagent events are wired can have a marker: no other one pays
    # for the look-up
    bracketed = rt.wiring is not None and rt.wiring.brackets
    child = _child_writer(root, rt.name, event) if bracketed else None
    event = child or event
    child = event if event.agent is not None else None
    if child is not None:
        # a subagent made this call (its marker, or the input names it): its own model or
        # unknown, never the parent's (not the settings', not the hook entry's
        # GENTLE_WRITER_* or flags: those describe the session)
        env = {k: v for k, v in env.items() if k not in _WRITER_VARS}
    done = [
        _record_in(
            None if child else rt.settings_writer,
            replace(event, tool_call_id=call_id_in(event.tool_call_id, root, top)),
            top,
            rels,
            None if child else model,
            None if child else effort,
            env,
            rt.efforts,
            starts,
        )
        for top, rels in groups
    ]
    if part_way:
        note = (
            f"the {event.tool or 'writing'} call of {rt.title} {event.failed} part way: only "
            "the files it names that hold what the patch writes there and differ from HEAD "
            "are recorded (the content decides, not the exit status)"
        )
        done = [replace(rec, notes=(*rec.notes, note)) for rec in done]
    return RuntimeRecorded(event, done[0], None, rt.ack, tuple(done[1:]))


def _written_part(
    event: RuntimeEvent, groups: list[tuple[str, tuple[str, ...]]], base: str
) -> list[tuple[str, tuple[str, ...]]]:
    """``groups`` (work tree, root-relative paths) kept to the paths a failed patch wrote:
    each holds what the patch writes there (:func:`gentle_hooks.agents.patch.holds_result`,
    the file read as it is now) and differs from ``HEAD`` of its work tree (a file the patch
    never reached holds what it held: ``HEAD``'s, or a person's own edit, which is never the
    writer's). A path the envelope gives no result for is left out."""
    wrote = agent_stop_patches.holding(event, base)
    out = []
    for top, rels in groups:
        named = [p for p in rels if os.path.realpath(os.path.join(top, p)) in wrote]
        if not named:
            continue
        repo = Repository.open(top)
        head = repo.head()
        at_head = repo.blobs_in(repo.tree_of(head), named) if head else {}
        now = repo.hash_worktree(named)
        changed = tuple(p for p in named if now.get(p) != at_head.get(p))
        if changed:
            out.append((top, changed))
    return out


#: Largest file read whole to tell whether a failed patch wrote it.

#: The environment's word on the writer: the session's, so not the subagent's.
_WRITER_VARS = ("GENTLE_WRITER_MODEL", "GENTLE_WRITER_EFFORT")


def _bracket(
    name: str, title: str, ack: str, event: RuntimeEvent, cwd: str | None
) -> RuntimeRecorded:
    """Keep (start) or clear (stop) the marker of a subagent of the event's session in the
    state directory of every repository its writes may land in
    (:func:`gentle_hooks.services.agent_subagents.homes` of ``--cwd``, else of the event's
    workspace roots, else of its ``cwd``; else the work tree :func:`.agent_trees.work_tree` finds);
    nothing is recorded. Outside any git work tree nothing is kept, and that is said."""
    from gentle_hooks.services import agent_subagents

    places = [cwd] if cwd else list(event.roots) or ([event.cwd] if event.cwd else [])
    commons = agent_subagents.homes(places)
    who = event.agent or "a subagent"
    who = who if len(who) <= 80 else who[:77] + "..."  # one readable line, whatever it sent
    if not commons:
        root = work_tree(event, cwd)
        if root is None:
            where = cwd or event.cwd or os.getcwd()
            return RuntimeRecorded(event, None, f"{where} is not in a git work tree", ack)
        commons = [Repository.open(root).paths.common_dir]
    if event.lifecycle == SUBAGENT_START:
        for common in commons:
            agent_subagents.start(common, name, event.session_id, event.agent, event.model)
        why = (
            f"{who} of {title} started: writes in this session record as "
            f"{event.model or UNKNOWN}, never the parent's model, until it stops"
        )
        return RuntimeRecorded(event, None, why, ack)
    gone = [agent_subagents.stop(c, name, event.session_id, event.agent) for c in commons]
    if not any(gone):
        why = f"{who} of {title} stopped; no start of it was kept (nothing to clear)"
    else:
        why = f"{who} of {title} stopped: writes in this session record as the parent's again"
    return RuntimeRecorded(event, None, why, ack)


def _child_writer(root: str, name: str, event: RuntimeEvent) -> RuntimeEvent | None:
    """``event`` as a subagent's write when a subagent of its session runs (a live marker
    in ``root``'s state directory): the subagents' own model when every live one names
    the same, else none (``unknown``), effort none; None when no subagent runs."""
    from gentle_hooks.services import agent_subagents

    try:
        common = Repository.open(root).paths.common_dir
    except GitError:
        return None
    live = agent_subagents.running(common, name, event.session_id)
    if not live:
        return None
    models = {m.model for m in live}
    model = models.pop() if len(models) == 1 else None
    agent = live[-1].name if len(live) == 1 else None
    return replace(event, model=model, effort=None, agent=agent or event.agent or "subagent")


def _record_in(
    settings_writer: SettingsWriter | None,
    event: RuntimeEvent,
    root: str,
    paths: tuple[str, ...],
    model: str | None,
    effort: str | None,
    env: Mapping[str, str],
    efforts: Mapping[str, str] | None = None,
    starts: Mapping[str, str | None] | None = None,
) -> Recorded:
    """Record the writer's mutation of ``paths`` in the work tree ``root``, each path named
    in ``starts`` (real absolute path -> blob) measured from that blob. ``efforts``:
    the runtime's effort names (:attr:`gentle_hooks.agents.runtime_rows.Runtime.efforts`);
    a given effort outside them is recorded as ``unknown`` with a note naming it, never
    refused (the write would be lost, and its commit would pass)."""
    if settings_writer is not None and (event.model is None or event.effort is None):
        # the settings fill only what the input left out: what the input names wins
        set_model, set_effort = settings_writer(root, env)
        event = replace(event, model=event.model or set_model, effort=event.effort or set_effort)
    event, notes = _storable(event)
    notes = event.notes + notes + _edited_notes(event)
    m, e = writer_of(event, model, effort, env, efforts)
    if (bad := given_effort_problem(effort, env, efforts)) is not None:
        known = " ".join(dict.fromkeys(efforts or OUR_EFFORTS))
        notes += (
            f"warning: {bad[0]} names effort '{bad[1]}', not one of {event.source}'s ({known}): "
            "recorded as effort unknown",
        )
    rec = record_mutation(
        MutationRequest(
            cwd=root,
            model=m,
            effort=e,
            source=event.source,
            session_id=event.session_id,
            tool_call_id=event.tool_call_id,
            paths=paths,
            allow_unknown=True,
            proposal=event.proposal if event.edited_by else None,
            replacements=event.replacements,
            replace_all=event.replace_all,
            original=event.original,
            edited=event.edited if event.edited_by else None,
            starts=agent_shell.starts_in(root, paths, starts or {}),
            written=agent_shell.committed_in(root, paths, starts),
        ),
        env,
    )
    return replace(rec, notes=(*rec.notes, *notes)) if notes else rec


def _edited_notes(event: RuntimeEvent) -> tuple[str, ...]:
    """The note of a write a person modified before the tool wrote it (``edited_by``):
    only the proposed lines that survive are the writer's, or, when the input carries no
    proposal, every line the call changed is (fail closed)."""
    if event.edited_by is None:
        return ()
    if event.proposal is not None:
        return (
            f"a person modified the proposal before it was written ({event.edited_by}): "
            "only the proposed lines that survive in the file are recorded as the writer's",
        )
    return (
        f"a person modified the proposal before it was written ({event.edited_by}), and "
        f"the {event.tool or 'tool'} input does not carry the model's own proposal: every "
        "line the call changed is recorded as the writer's (a line that is the model's must "
        "never pass unverified)",
    )


def _storable(event: RuntimeEvent) -> tuple[RuntimeEvent, tuple[str, ...]]:
    """``event`` with labels the ledger stores: a model the ledger would refuse (longer than
    200 characters, or not one line) is dropped, so the writer is ``unknown`` (small, seed
    000); such a session or tool call id is replaced by :func:`hashed_id` of it, so a replay
    still records once. The runtime's input is not the person's word: refusing it would lose
    the record the gate depends on. Returns the event and one note per change."""
    notes: list[str] = []
    if event.model is not None and (bad := label_problem(event.model)) is not None:
        notes.append(f"the model {event.source} names {bad}: the writer is recorded as unknown")
        event = replace(event, model=None)
    session, tool_call = event.session_id, event.tool_call_id
    if session is not None and (bad := label_problem(session)) is not None:
        session = hashed_id(session)
        notes.append(f"the session id {event.source} names {bad}: recorded as {session}")
    if tool_call is not None and (bad := label_problem(tool_call)) is not None:
        tool_call = hashed_id(tool_call)
        notes.append(f"the tool call id {event.source} names {bad}: recorded as {tool_call}")
    return replace(event, session_id=session, tool_call_id=tool_call), tuple(notes)


def hashed_id(value: str) -> str:
    """``sha256:`` + the SHA-256 of ``value`` (UTF-8): the same id for the same input."""
    import hashlib

    return "sha256:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
