"""What a gate concludes (SPEC §5 "Decision", "Overrides"): the lines a blocked candidate
prints, the exit code, overrides and warn mode.

Room ``hooks``. The commit and push gates hand :func:`conclude` the candidates they judged
(:class:`Judged`); it prints one line on a clean outcome and, per blocked candidate, what is
missing, why and the exact command (:mod:`gentle_hooks.report.fixes`), then how to let it
through. ``GENTLE_HOOKS_SKIP="<reason>"`` lets a block through (with ``GENTLE_HOOKS_SKIP_ONLY``,
only the candidates it names: another blocked one still blocks), ``--warn`` or
``mode = "warn"`` reports without failing; either is recorded as an override
(:mod:`gentle_hooks.hooks.overrides`). ``GENTLE_HOOKS_EXPLAIN`` set adds the decision's
row ids to a block's words (they are always in the JSON decision).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.config.load import LoadedConfig, load_config
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, Command, quoted
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.report.text import short
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.services.assess import AssessResult

PREFIX = "gentle-hooks:"

#: A commit's own candidate: the push and range gates judge a pushed commit by it, and the
#: fix commands they print bind to it.
COMMITTED = Binding(projection=Projection.COMMITTED)


@frozen
class Judged:
    """One candidate a gate judged: where it came from and its assessment.

    Attributes:
        label: what the user recognises (``the staged change``, ``commit 1a2b3c4``);
            target: the pushed ref, or None for commits (a ref's candidate is shown as
            ``<label> on <target>``).
        result: the assessment with its decision; fix_note: words on running the fix commands
            for this candidate, or empty; commit: the commit the fix commands verify in a linked
            worktree (a pushed commit that is not HEAD), or None; prepare: commands that run before
            the fix commands (the ``git add`` that lets ``--staged`` bind a partial commit's
            candidate); after: commands that run after them, whichever way was taken (the ``git
            restore --staged`` that puts back what ``prepare`` set aside); writers_blob: paths whose
            content in the change is a writer's blob byte for byte, or holds a writer's own lines
            (no ``discard`` is offered for them: it would not make them a human's), except content
            that had expired and came back (a human's typing of it, which a discard claims); remote:
            the remote a pre-push sends it to (its ``sync push`` names it), or empty; claims:
            paths of the change holding one line of writer work pending elsewhere, alone (a
            person's own file): a ``discard`` naming them claims that line there; copies:
            paths of ``writers_blob`` holding only another worktree's open work (a person's
            same fix by hand in this linked worktree): a ``discard`` naming them claims
            this worktree's content there (:mod:`gentle_hooks.services.claims`); returned:
            paths of a pushed commit holding only writer content of this work tree that
            went away and came back (a person's typing of it): a ``discard`` claims it.
    """

    label: str
    target: str | None
    result: AssessResult
    fix_note: str = ""
    commit: str | None = None
    prepare: tuple[Command, ...] = ()
    after: tuple[Command, ...] = ()
    writers_blob: frozenset[str] = frozenset()
    remote: str = ""
    claims: tuple[str, ...] = ()
    copies: tuple[str, ...] = ()
    returned: tuple[str, ...] = ()


#: How many refs a block printed once for several refs names before "and N more refs".
SHOWN_REFS = 5


def labelled(j: Judged, targets: Sequence[str] = ()) -> str:
    """What a block or the JSON decision calls a judged candidate: its label, and for a
    pushed ref's candidate ``on`` its ref — or on each of ``targets`` when given (the refs
    a block printed once applies to; past :data:`SHOWN_REFS`, how many more)."""
    refs = list(targets) or ([j.target] if j.target else [])
    if not refs:
        return j.label
    shown = ", ".join(refs[:SHOWN_REFS])
    if len(refs) > SHOWN_REFS:
        shown += f" and {len(refs) - SHOWN_REFS} more refs"
    return f"{j.label} on {shown}"


def say(line: str) -> None:
    """Print one line of a gate's outcome to standard error, after :data:`PREFIX`."""
    print(f"{PREFIX} {line}", file=sys.stderr)


class Told:
    """The lines a gate says on the way to its decision (pending work that expired, a
    pushed ref with nothing to judge, a commit made with hooks off recorded now): each is
    printed as it comes (:func:`say`) unless ``GENTLE_HOOKS_FORMAT=json``, where standard
    error holds the decision object alone; :func:`conclude` puts them all in the object
    (``notices``, and first in ``lines``) whatever the format."""

    def __init__(self, env: Mapping[str, str]) -> None:
        from gentle_hooks.hooks.decision import output_format

        self.shown = output_format(env)[0] != "json"
        self.lines: list[str] = []

    def say(self, line: str) -> None:
        """Keep ``line`` for the decision object; print it unless the format is json."""
        self.lines.append(line)
        if self.shown:
            say(line)


def open_gate(env: Mapping[str, str]) -> tuple[Repository, LoadedConfig]:
    """The repository the hook runs in and its compiled configuration.

    Raises:
        GitError / ConfigError: not a repository, or a configuration that does not compile.
    """
    repo = Repository.open()
    return repo, load_config(repo.paths.toplevel, repo.gentle_config(), env)


def block_lines(
    j: Judged,
    explain: bool = False,
    targets: Sequence[str] = (),
    again: Sequence[str] = (),
    named: Sequence[str] = (),
) -> tuple[list[str], bool]:
    """The lines that explain one blocked candidate: what is missing, why, the commands to
    run (labelled ``run:``/``prefix:``, :func:`gentle_hooks.report.fixes.steps`), then the
    candidate. Row ids are in the JSON decision, and in words' place only with ``explain``
    (``GENTLE_HOOKS_EXPLAIN`` set: a ``decision rows:`` line after the candidate).
    ``targets``: every ref the block applies to (:func:`labelled`); ``again``: the git
    command the hook runs under, as typed (:func:`~gentle_hooks.hooks.decision.typed_again`);
    ``named``: the candidates an override of it already named
    (:func:`gentle_hooks.hooks.overrides.skip_named`): a printed override names them and
    this one. With the lines: True when they print more than one way out (an
    ``otherwise`` line, or a person's ``human:`` way beside the writer's)."""
    # only a block reads the fix commands' words (their imports cost a gate that passes)
    from gentle_hooks.hooks.overrides import override_names
    from gentle_hooks.report.base_text import base_words, empty_base_lines
    from gentle_hooks.report.discard_text import discard_lines
    from gentle_hooks.report.fixes import has_ways, headline, reason, step_lines, steps
    from gentle_hooks.report.shortfall_text import restates_headline

    r = j.result
    plan, cand, d = r.plan, r.candidate, r.decision
    base = base_words(cand.base)
    lines = [
        f"BLOCKED {labelled(j, targets)}: delegated ({r.delegated_by})",
        f"  {headline(d.shortfalls)} (plan risk {plan.risk.value})",
    ]
    if r.native_note:
        lines.append(f"  note: {r.native_note}")
    several = False
    for n, s in enumerate(d.shortfalls):
        if not restates_headline(s):
            lines.append(f"  missing: {reason(s)}")
        # what makes --staged bind holds for the next shortfall too, unless a way put the
        # staged changes it set aside back (``after``): printed once, else before each
        prepared = n == 0 or bool(j.after)
        if j.fix_note and prepared:
            lines.append(f"  note: {j.fix_note}")
        way = steps(
            s,
            r.binding,
            j.commit,
            prepare=j.prepare if prepared else (),
            after=j.after,
            at_top=True,
            remote=j.remote,
            again=again,
            identities=override_names(named, cand.identity),
        )
        several = several or has_ways(way)
        lines.extend(step_lines(way))
    # discard is offered only for work not in the change: a path whose staged content is
    # the writer's own blob or holds its own lines holds the writer's work (a discard
    # would not make it a human's: the commit and push gates judge it the writer's still),
    # unless that content had expired and came back (the caller leaves it out of writers_blob)
    facts = r.facts
    alike = {
        e.path
        for e in (facts.entries if facts and j.commit is None and j.target is None else ())
        if e.state in ("open", "expired") and e.path not in j.writers_blob
    }
    if alike:  # one discard, run where the block is, reaches every worktree's open work
        lines.extend(discard_lines(sorted(alike)))
    if j.claims:  # a person's own file holding one writer line: claimed there, recorded
        lines.extend(discard_lines(j.claims, claim=True))
    if j.copies:  # a person's same fix here of work pending in another worktree
        lines.extend(discard_lines(j.copies, copy=True))
    if j.returned:  # a pushed commit's writer content typed again by a person
        lines.extend(discard_lines(j.returned))
    several = several or bool(alike or j.claims or j.copies or j.returned)
    lines.append(
        f"  candidate {cand.identity[:19]}… ({cand.projection.value} tree {short(cand.tree)} "
        f"vs {base})"
    )
    lines.extend(empty_base_lines(cand.base))
    if explain:
        lines.append(f"  decision rows: {' '.join(plan.rows)}")
    return lines, several


def conclude(
    call: HookCall,
    env: Mapping[str, str],
    repo: Repository,
    config: LoadedConfig,
    judged: Sequence[Judged],
    told: Told | None = None,
    then: Callable[[], list[str]] | None = None,
) -> int:
    """Print the outcome and return the exit code; record overrides.

    A clean outcome prints at most one line; a block prints, per blocked candidate, what is
    missing, why and the exact command, then how to override. Whatever lets a blocked
    candidate through — ``GENTLE_HOOKS_SKIP`` or warn mode from any source — is recorded
    like an override (ledger and note) and printed: no silent bypass (SPEC §5). With
    ``GENTLE_HOOKS_FORMAT=json``, or an agent runtime detected, the decision is printed as
    one JSON object too (:mod:`gentle_hooks.hooks.decision`), which nothing of ours follows:
    ``told`` holds the lines the gate said before (printed already unless the format is
    json: :class:`Told`), which the object carries; ``then`` runs once the gate decided,
    before anything is printed, and returns its lines (the notes a push shares), printed
    and carried as the gate's own when it allowed (a block prints its own way out).

    Returns:
        0 allowed (nothing blocked, an override, or warn mode), 1 blocked.

    Raises:
        StoreError: an override could not be recorded.
    """
    from gentle_hooks.hooks.decision import output_format

    fmt, note = output_format(env)
    lines: list[str] = [note] if note else []
    judged = refuted_last(judged)
    try:
        code, let_through = _conclude(call, env, repo, config, judged, lines)
        if then is not None:
            # a blocked push shares too: a server gate then knows the commits it blocked
            # (the notes its records wrote) when they come again with --no-verify
            shared = then()
            lines.extend(shared if code == EXIT_OK else [])
    finally:  # what was decided is printed even when recording an override fails
        if fmt != "json":
            for line in lines:
                say(line)
    # json: standard error is the decision object alone, also when nothing applied (an
    # agent tells "allowed, nothing delegated" from "the gate did not run")
    if fmt == "json" or (fmt != "text" and any(j.result.decision.applies for j in judged)):
        from gentle_hooks.hooks.decision import decision_object, print_decision

        verdicts = [
            (labelled(j), j.target, j.result, j.fix_note, j.commit, j.prepare, j.after)
            for j in judged
        ]
        from gentle_hooks.hooks.overrides import skip_named

        blocked = [j.result.candidate.identity for j in judged if j.result.decision.blocked]
        named = skip_named(env, blocked)
        top = repo.paths.toplevel
        said = told.lines if told is not None else []
        print_decision(decision_object(call, verdicts, code, let_through, lines, named, top, said))
    return code


def refuted_last(judged: Sequence[Judged]) -> Sequence[Judged]:
    """``judged`` with the blocked candidates a re-run refuted after the others, each group
    in its order: a refuted block's way out is the override, which runs the git command
    itself, so it is printed (and in the JSON decision) after the ways of the others,
    which must run first. Unchanged (nothing imported) when nothing blocks."""
    if not any(j.result.decision.blocked for j in judged):
        return judged
    from gentle_hooks.policy.shortfall import SpotCheckShortfall

    def refuted(j: Judged) -> bool:
        return any(
            isinstance(s, SpotCheckShortfall) and bool(s.disagreements)
            for s in j.result.decision.shortfalls
        )

    return sorted(judged, key=refuted)


def _conclude(
    call: HookCall,
    env: Mapping[str, str],
    repo: Repository,
    config: LoadedConfig,
    judged: Sequence[Judged],
    lines: list[str],
) -> tuple[int, str | None]:
    """:func:`conclude`'s decision: append the lines to print, record overrides; return
    (exit code, what let a block through or None)."""
    blocked = [j for j in judged if j.result.decision.blocked]
    applied = [j for j in judged if j.result.decision.applies]
    if not blocked:
        if applied:
            lines.append(
                f"ok: {len(applied)} delegated candidate(s) verified as their plan requires"
            )
        return EXIT_OK, None
    from gentle_hooks.hooks.overrides import (
        SKIP_ONLY,
        named_only,
        record_overrides,
        skip_named,
        warn_source,
    )
    from gentle_hooks.report.fixes import override_words

    explain = bool(env.get("GENTLE_HOOKS_EXPLAIN", "").strip())
    # a pushed commit is one judgement whatever the refs sending it: one block names them all
    from gentle_hooks.hooks.decision import typed_again

    again = typed_again(call.name)
    named = skip_named(env, [j.result.candidate.identity for j in blocked])
    refs: dict[tuple[str, str, str | None], list[Judged]] = {}
    for j in blocked:
        refs.setdefault((j.label, j.result.candidate.identity, j.commit), []).append(j)
    from gentle_hooks.hooks.elsewhere import bound_lines, outside_top

    # typed from outside the work tree (git -C DIR): each command names the repository
    top = outside_top(repo.paths.toplevel)
    several = False  # more than one way printed above the retry line (any block's)
    for same in refs.values():
        targets = [j.target for j in same if j.target] if len(same) > 1 else []
        said, ways = block_lines(same[0], explain, targets, again, named)
        lines.extend(bound_lines(said, top))
        several = several or ways
    why = env.get("GENTLE_HOOKS_SKIP", "").strip()
    overridden = [(j.result, j.target) for j in blocked]
    if why and named_only(env) is not None:
        still = [j for j in blocked if j.result.candidate.identity not in set(named)]
        if still:
            # bound to the candidates it names: it lets nothing through while another
            # blocked candidate of the same command still blocks, and records nothing
            lines.append(
                f"GENTLE_HOOKS_SKIP: {SKIP_ONLY} names {len(blocked) - len(still)} of the "
                f"{len(blocked)} blocked candidate(s); the others above still block, so "
                "nothing was let through or recorded"
            )
            why = ""
    if why:
        who = record_overrides(repo, call.name, overridden, why)
        lines.append(f"GENTLE_HOOKS_SKIP: let through by {who} and recorded ({quoted(why)})")
        return EXIT_OK, "GENTLE_HOOKS_SKIP"
    if call.warn or config.settings.mode == "warn":
        source = warn_source(call, repo, config)
        who = record_overrides(repo, call.name, overridden, f"warn mode ({source})")
        lines.append(
            f"warn mode ({source}): reported, not blocking; let through by {who} and recorded"
        )
        return EXIT_OK, f"warn mode ({source})"
    lines.extend(bound_lines(retry_lines(call.name, several), top))
    lines.append(f"note: {override_words(call.name)}")
    return EXIT_BLOCKED, None


#: The git command each gate's hook runs under, as the user typed it (its arguments are
#: theirs: a hook does not see them).
_GIT_COMMAND = {"pre-push": "git push"}


def retry_lines(hook: str, several: bool = False) -> list[str]:
    """The block's last words before the override: what to run again once the commands
    above have run (the same git command, judged again). A merge git keeps in progress
    after a pre-merge-commit block is concluded with ``git commit --no-edit``, as git says
    (the same ``git merge`` fails: "You have not concluded your merge"): that command is a
    ``run:`` line after a ``then`` line, so it ends every way printed above; ``several``:
    more than one way was printed above, so the line says ``then, either way``."""
    from gentle_hooks.hooks.decision import then_run

    if hook == "pre-merge-commit":
        either = "either way, " if several else ""
        return [
            f"then, {either}conclude the merge git kept in progress with git commit "
            "--no-edit: the gate judges it again",
            *(f"  run: {c}" for c in then_run(hook)),
        ]
    again = _GIT_COMMAND.get(hook, "git commit")
    return [f"after that, run the same {again} again: the gate judges it again"]
