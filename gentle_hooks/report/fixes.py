"""What is missing, in words, and the exact command that supplies it (SPEC §5 "Decision", §7).

Room ``report``. The one place that writes a fix command: every gate, ``assess``,
``status`` and the range gate render a shortfall (:mod:`gentle_hooks.policy.shortfall`) and
a binding (:class:`gentle_hooks.values.binding.Binding`) through these functions, and print
or serialise the strings they return. Pure string building; nothing here parses a string.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import Command
from gentle_hooks.policy.shortfall import (
    NoValidNote,
    Shortfall,
    SpotCheckShortfall,
    VerifierShortfall,
)
from gentle_hooks.report.brief_fault_text import brief_fault_words, mixed_fault_words
from gentle_hooks.report.failed_steps import (
    at_top_binding,
    failed_steps,
    on_server,
    report_flags,
)
from gentle_hooks.report.program_text import WRITER_CLI
from gentle_hooks.report.program_text import program as program
from gentle_hooks.report.range_text import UNSHALLOW
from gentle_hooks.report.refuted_text import refuted_steps
from gentle_hooks.report.shell_text import LABELS as LABELS
from gentle_hooks.report.shell_text import Step
from gentle_hooks.report.shell_text import binding_flags as binding_flags
from gentle_hooks.report.shell_text import command_text as command_text
from gentle_hooks.report.shell_text import error_text as error_text
from gentle_hooks.report.shell_text import labelled as labelled
from gentle_hooks.report.shell_text import runnable as runnable
from gentle_hooks.report.shell_text import with_fix as with_fix
from gentle_hooks.report.shortfall_text import NO_RECEIPT as NO_RECEIPT
from gentle_hooks.report.shortfall_text import PREFIX_NOTE as PREFIX_NOTE
from gentle_hooks.report.shortfall_text import headline as headline
from gentle_hooks.report.shortfall_text import reason as reason
from gentle_hooks.report.worktree_text import (
    GIT_SHARE_NOTES,
    RANGE_REMOTE,
    SERVER_REMOTE,
    to_remote,
)
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import replace

#: How a person lets a block through on purpose, in words: the git command they ran is
#: theirs, so nothing here can name it (SPEC §5 "Overrides").
OVERRIDE = (
    "to let it through on purpose, run the same git command again with GENTLE_HOOKS_SKIP "
    "set to the reason in its environment (recorded: who, when, which candidate, why)"
)
#: :data:`OVERRIDE` after a pre-merge-commit block: git keeps the merge in progress
#: (``MERGE_HEAD``) and refuses the same ``git merge`` ("You have not concluded your
#: merge"); ``git commit`` concludes it, and its hooks judge it again.
MERGE_OVERRIDE = (
    "to let it through on purpose, conclude the merge with git commit --no-edit with "
    "GENTLE_HOOKS_SKIP set to the reason in its environment (recorded: who, when, which "
    "candidate, why)"
)


def override_words(hook: str) -> str:
    """How a person lets ``hook``'s block through on purpose, in words."""
    return MERGE_OVERRIDE if hook == "pre-merge-commit" else OVERRIDE


def steps(
    s: Shortfall,
    binding: Binding,
    commit: str | None = None,
    share: bool = False,
    prepare: Sequence[Command] = (),
    after: Sequence[Command] = (),
    at_top: bool = False,
    writer: bool = False,
    remote: str = "",
    again: Sequence[str] = (),
    identities: Sequence[str] = (),
    fork: str = "",
) -> list[Step]:
    """What to do about ``s`` for the candidate ``binding`` names, as labelled lines
    (:data:`LABELS`); every ``run`` line runs exactly as printed, and every command keeps
    the binding. ``commit``: the commit the range, server or push gate judged (its fix
    runs in a linked worktree of it), or None. ``share``: the judge reads notes (the range
    and server gates), so the records made go to the remote too (``sync push``). ``prepare``:
    commands that run first (they make ``binding`` reach the candidate); ``after``: commands
    every way ends with (they put back what ``prepare`` set aside), after a ``then`` line.
    ``at_top``: a hook printed the block (git ran it at :attr:`Binding.top`, wherever the
    user is): the writer's report is named with ``--cwd`` that top
    (:func:`~gentle_hooks.report.failed_steps.at_top_binding`).
    ``writer`` (implied by ``share``): the writer's lines name :data:`WRITER_CLI`; a line
    for here (the fetch of a note already on the remote) keeps :func:`program`. ``remote``:
    the remote a pre-push judged the push to (:func:`to_remote`). A re-run that disagreed
    (``s.disagreements``) leaves only the ways :func:`refuted_steps` prints, ``again``
    the git command the hook ran under (as typed; empty: not known), its override bound
    to ``identities`` (the candidates it names). ``fork``: a range gate judging a pull
    request from that fork (the writer shares there, ``remote``; where the gate ran, the
    fork's notes are fetched: :mod:`~gentle_hooks.report.fork_text`)."""
    if isinstance(s, SpotCheckShortfall) and (s.disagreements or s.job_lacks):
        amend = binding.projection is Projection.COMMITTED
        return refuted_steps(s.disagreements, commit, share, again, amend, identities, s.job_lacks)
    first: list[Step] = [(c.label, command_text(c)) for c in prepare]
    last: list[Step] = [(c.label, command_text(c)) for c in after]
    fix = _steps(s, binding, commit, share, at_top, writer or share, fork)
    if last:
        # a verify run prints the verdict add to run next: it binds the candidate only
        # while the index still holds it, so it comes before what puts the index back
        once = ["once the verdict add the verify run printed has run"]
        tail = [*(["either way"] if has_ways(fix) else [])]
        tail += once if isinstance(s, VerifierShortfall) else []
        last.insert(0, ("then", ", ".join([*tail, "put back the staged changes set aside above"])))
    words = SERVER_REMOTE if on_server() else RANGE_REMOTE if share else ""
    return first + to_remote(fix, remote, words) + last


def has_ways(items: Sequence[Step]) -> bool:
    """True when labelled lines print more than one way (an ``otherwise`` line): only
    then do the lines every way ends with say "either way"."""
    return any(label == "otherwise" for label, _ in items)


def _steps(
    s: Shortfall,
    binding: Binding,
    commit: str | None,
    share: bool,
    at_top: bool,
    writer: bool,
    fork: str = "",
) -> list[Step]:
    """:func:`steps` without the commands that run first."""
    here = program()
    gh = WRITER_CLI if writer else here
    if commit and isinstance(s, SpotCheckShortfall):
        # the writer's report and its spot check, in a worktree of the commit's own: a
        # switch would stop at an untracked file the commit tracks, or at changes
        declared = runnable(s.declared[0]) if s.declared else None
        from gentle_hooks.report.worktree_text import worktree_steps

        return worktree_steps(commit, gh, declared, report=s.no_receipt, share=share)
    if commit and isinstance(s, VerifierShortfall):
        return _verifier_worktree_steps(s, binding, commit, gh, share, at_top)
    if isinstance(s, (VerifierShortfall, SpotCheckShortfall)):
        core = _candidate_steps(s, binding, gh, at_top)
        ending: list[Step] = [("run", f"{gh} sync push")] if share else []
        if ending and has_ways(core):
            # every way ends with these (the notes shared): after the last way, not
            # inside it
            ending.insert(0, ("then", "either way, after the way that worked"))
        return [*core, *ending]
    if isinstance(s, NoValidNote) and s.shallow:
        return [
            ("do", "fetch the history the note's base is in, then judge again"),
            ("run", UNSHALLOW),
        ]
    # NoValidNote / StaleRecords: the range, server or push gate judged a commit by its note
    # the commit's own candidate, reported where the user pastes the writer's command
    committed = Binding(projection=Projection.COMMITTED, top=binding.top)
    verify: list[Step] = [
        ("do", f"{PREFIX_NOTE} ({NO_RECEIPT})"),
        ("prefix", f"{gh} receipt run{binding_flags(committed.for_prefix())} --"),
        ("run", f"{gh} spot-check --committed"),
        ("run", f"{gh} sync push"),
    ]
    if commit:
        # uncommitted changes or an untracked file the commit tracks stop a switch: the
        # commit is verified in a linked worktree of its own, never touching the user's
        from gentle_hooks.report.worktree_text import worktree_steps

        verify = worktree_steps(commit, gh)
    if isinstance(s, NoValidNote) and not s.stale:
        share_it = (
            "in the clone that verified this commit: share its note (the or: line with git "
            "alone, where gentle-hook is not on PATH there: a pre-commit framework install)"
        )
        fetch: list[Step] = [
            ("where", "here, when the note is on the remote but not fetched yet: fetch it"),
            ("run", f"{here} sync fetch"),
            ("otherwise", share_it),
        ]
        if fork:  # the writer's push went to the fork: fetch there, share there
            from gentle_hooks.report.fork_text import SHARE_WITH_FORK, fork_fetch_steps

            fetch = [*fork_fetch_steps(here, fork), ("otherwise", SHARE_WITH_FORK)]
        return [
            # under a server's pre-receive the notes are the server's: fetching in the
            # pusher's clone changes nothing there
            *(fetch if not on_server() else [("where", share_it)]),
            ("run", f"{gh} sync push"),
            ("or", GIT_SHARE_NOTES),
            ("otherwise", "not verified yet: in the writer's clone, verify it and share the note"),
            *verify,
        ]
    return [("where", "in the writer's clone: verify the rewritten commit again"), *verify]


def _verifier_worktree_steps(
    s: VerifierShortfall, binding: Binding, commit: str, gh: str, share: bool, at_top: bool
) -> list[Step]:
    """The verifier's run for ``commit`` (a pushed or judged commit that is not HEAD), in a
    linked worktree of its own (:func:`~gentle_hooks.report.worktree_text.worktree_add`):
    every command binds to it with ``--cwd`` and ``--committed``, the worktree is removed
    after the way that worked; the user's branch, HEAD, index and work tree never move."""
    from gentle_hooks.report.worktree_text import worktree_add, worktree_dir, worktree_remove

    kind = "verifier"
    flags = f" --cwd {worktree_dir(commit, kind)}" + binding_flags(replace(binding, cwd=None))
    core = _candidate_steps(s, binding, gh, at_top, flags)
    ending: list[Step] = [
        *([("run", f"{gh} sync push")] if share else []),
        worktree_remove(commit, kind),
    ]
    if has_ways(core):
        ending.insert(0, ("then", "either way, after the way that worked"))
    return [*worktree_add(commit, kind, elsewhere=share), *core, *ending]


def _candidate_steps(
    s: VerifierShortfall | SpotCheckShortfall,
    binding: Binding,
    gh: str,
    at_top: bool = False,
    flags: str | None = None,
) -> list[Step]:
    """:func:`steps` for a candidate's own shortfall (no commit to check out); ``flags``:
    the binding's flags as printed, when not :func:`binding_flags` of ``binding`` (a
    worktree's ``--cwd`` as a shell word)."""
    flags = binding_flags(binding) if flags is None else flags
    out: list[Step] = []
    here = report_flags(binding)  # a report's command is relative to where it ran
    if isinstance(s, VerifierShortfall):
        if s.brief_faults:
            out.append(("do", brief_fault_words(s.brief_faults)))
        elif s.change_fails:
            out.append(("do", mixed_fault_words(s.change_fails, s.everywhere_fails)))
        if binding.brief is None:
            out.append(
                (
                    "do",
                    "a separate gentle-ai-verify run checks this candidate in a clean room: "
                    f"write its brief ({gh} schema brief) to a file outside the work tree (a "
                    "file inside it changes the candidate), put the brief's path after the "
                    "prefix, run it, then run the verdict add it prints",
                )
            )
            out.append(("prefix", f"{gh} verify run{flags} --brief"))
            out.append(
                (
                    "otherwise",
                    "to hand a verifier the clean room first: the same brief's path after the "
                    "prefix; it prints the verify run --room to run",
                )
            )
            out.append(("prefix", f"{gh} verify prepare{flags} --brief"))
            return out
        import os

        from gentle_hooks.policy.shellwords import quote

        path = quote(binding.brief)
        out.append(
            (
                "do",
                "a separate gentle-ai-verify run checks this candidate in a clean room, from "
                "a brief the orchestrator writes (the task, its success criteria, the suite; "
                f"JSON, its schema: {gh} schema brief) to the file on the write line, outside "
                "the work tree (a file inside it changes the candidate); then run the "
                "commands below, and the verdict add the last one prints",
            )
        )
        out.append(("run", f"mkdir -p {quote(os.path.dirname(binding.brief))}"))
        out.append(("write", binding.brief))
        out.append(("run", f"{gh} brief check {path}"))
        out.append(("run", f"{gh} verify run{flags} --brief {path}"))
        out.append(
            (
                "otherwise",
                "to hand a verifier the clean room first: it prints the verify run --room to run",
            )
        )
        out.append(("run", f"{gh} verify prepare{flags} --brief {path}"))
        return out
    if s.created is not None:  # first: the report to make again would rewrite them
        from gentle_hooks.report.created_text import created_steps

        again = f"{gh} receipt run{here(s.created.cwd)} -- {runnable(s.created.command)}"
        out.extend(created_steps(s.created, again, f"{gh} spot-check{flags}"))
    elif s.no_receipt:
        failed = [r for r in s.refused if r.standing.row == "S-failed"]
        if s.declared:
            out.append(("do", f"the writer reports the declared command ({NO_RECEIPT})"))
            out.append(("run", f"{gh} receipt run{here('.')} -- {runnable(s.declared[0])}"))
        elif failed:
            last = failed[-1]
            out.extend(failed_steps(last.cwd, runnable(last.command), binding, gh, at_top, last))
        elif s.earlier:
            # the writer's report is bound to another candidate (files added or left since,
            # a temporary index): the same command, reported again, binds to this one
            out.append(
                (
                    "do",
                    "report again, for this candidate, the last command that passed at the "
                    f"repository top and counts as a test ({NO_RECEIPT})",
                )
            )
            out.append(("run", f"{gh} receipt run{here('.')} -- {runnable(s.earlier[-1])}"))
        else:
            top = at_top_binding(binding) if at_top else binding.for_prefix()
            where = (
                f"; it runs in {top.cwd}, the repository top (another directory after --cwd "
                "runs it there)"
                if top.cwd is not None and binding.cwd is None
                else ""
            )
            out.append(("do", f"{PREFIX_NOTE}{where} ({NO_RECEIPT})"))
            out.append(("prefix", f"{gh} receipt run{binding_flags(top)} --"))
    out.append(("run", f"{gh} spot-check{flags}"))
    if s.readback:
        out.append(("or", f"{gh} spot-check --readback{flags}"))
    return out


def way_one(items: Sequence[Step]) -> list[Step]:
    """The first way of labelled lines: those before the first ``otherwise``, then the
    ones after ``then`` (every way ends with them)."""
    return _way(items, 0)


def _way(items: Sequence[Step], n: int) -> list[Step]:
    """Way ``n`` (0: before the first ``otherwise``, 1: after it...) of labelled lines,
    then the ones after ``then`` (every way ends with them)."""
    out: list[Step] = []
    way, inside = 0, n == 0
    for label, text in items:
        if label == "otherwise":
            way += 1
            inside = way == n
        elif label == "then":
            inside = True
        elif inside:
            out.append((label, text))
    return out


def runnable_way(items: Sequence[Step]) -> list[Step]:
    """:func:`way_one`, or when it holds no ``run`` line (words alone, such as "change the
    change" before a refuted candidate's override) the first way after it that does: the
    commands a block prints as ``run:`` lines, for the JSON decision's ``run``."""
    ways = 1 + sum(label == "otherwise" for label, _ in items)
    for n in range(ways):
        way = _way(items, n)
        if any(label == "run" for label, _ in way):
            return way
    return way_one(items)


def command(s: Shortfall, binding: Binding, writer: bool = False) -> str:
    """The command that supplies ``s``: the last ``run`` of the first way of :func:`steps`
    (the spot check, after any report it needs), or the ``prefix`` line alone when the
    way has no ``run`` (labelled so in :func:`first_way`); the JSON ``fixes`` and
    ``status``. ``writer``: as :func:`steps`."""
    found = ""
    for label, text in first_way(s, binding, writer):
        if label == "run" or (label == "prefix" and not found):
            found = text
    return found


def first_way(s: Shortfall, binding: Binding, writer: bool = False) -> list[Step]:
    """The labelled lines of :func:`steps` up to the first ``otherwise``: the whole way that
    supplies ``s``, in order (the writer's report and the brief's file included); the JSON
    ``fix_steps`` and ``status``'s ``steps``."""
    return way_one(steps(s, binding, writer=writer))


def step_lines(items: Sequence[Step], indent: str = "  ") -> list[str]:
    """:func:`steps` as printed lines: ``run: CMD``, ``prefix: WORDS``, the rest as words."""
    out = []
    for label, text in items:
        if label in ("run", "prefix", "write", "or"):
            out.append(f"{indent}{label}: {text}")
        elif label in ("otherwise", "then"):
            out.append(f"{indent}{label}, {text}:")
        else:
            out.append(f"{indent}{text}")
    return out


def first_command(s: Shortfall, binding: Binding) -> str | None:
    """The writer's report to make before the spot check, when :func:`steps` names it;
    else None."""
    if not (isinstance(s, SpotCheckShortfall) and s.no_receipt and not s.disagreements):
        return None
    runs = [t for label, t in steps(s, binding) if label == "run"]
    return runs[0] if len(runs) > 1 else None


def report_prefix(s: Shortfall, binding: Binding) -> str | None:
    """The writer's report prefix of :func:`steps` (its test command goes after it) when a
    spot check needs a report made first and none can be named; else None."""
    if not isinstance(s, SpotCheckShortfall):
        return None
    for label, text in steps(s, binding):
        if label == "prefix":
            return text
    return None


def run_list(s: Shortfall, binding: Binding, commit: str | None = None) -> list[str]:
    """The ``run`` commands of the first way of :func:`steps`, in order (JSON ``run``)."""
    return [text for label, text in way_one(steps(s, binding, commit)) if label == "run"]


def reasons(shortfalls: Sequence[Shortfall]) -> list[str]:
    """:func:`reason` of each shortfall, in order (JSON ``reasons``)."""
    return [reason(s) for s in shortfalls]


def commands(shortfalls: Sequence[Shortfall], binding: Binding, writer: bool = False) -> list[str]:
    """:func:`command` of each shortfall, in order (JSON ``fixes``)."""
    return [command(s, binding, writer) for s in shortfalls]


def receipt_hints(shortfalls: Sequence[Shortfall], binding: Binding) -> list[str]:
    """``status``'s first hint, when a missing spot check needs a report made first."""
    for s in shortfalls:
        first = first_command(s, binding)
        if first is not None:
            return [
                "no receipt that counts is recorded for this candidate: the writer reports a "
                f"command first: {first}"
            ]
        prefix = report_prefix(s, binding)
        if prefix is not None and isinstance(s, SpotCheckShortfall):
            return [
                "no receipt that counts is recorded for this candidate: the writer reports the "
                f"command that tests the change after: {prefix}"
            ]
    return []
