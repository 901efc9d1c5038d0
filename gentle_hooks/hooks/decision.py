"""A gate's decision as one JSON object, for agents (SPEC §7 "Hooks": with
``GENTLE_HOOKS_FORMAT=json`` a block is printed as one JSON object for agents).

Room ``hooks``. :func:`output_format` reads how the commit and push gates print:

* ``GENTLE_HOOKS_FORMAT=json``: the decision object alone, one line on standard error;
* ``GENTLE_HOOKS_FORMAT=text``: the human lines alone;
* unset, with an agent runtime detected in the environment (``CLAUDECODE``...,
  :func:`gentle_hooks.policy.delegation.runtime_evidence`): the human lines, then the object
  as the last line, so the agent parses one line and the person watching reads the rest;
* unset otherwise: the human lines.

The object (schema ``gentle-hooks.decision/v1``) says what the gate decided and, per
candidate, what is missing, why, and the commands to run, in the order to run them (``run``:
the ``run:`` lines of the first way that has any, a refuted candidate's override when the
way before it is words alone); the same strings the human lines carry
(:mod:`gentle_hooks.report.fixes`), bound the same way (``then_run`` too). It is built only
after a gate judged something; with ``json`` a person's ordinary commit, which no gate
judges, prints the ``allowed`` object of ``pre-commit`` (or ``pre-merge-commit``) alone
(:func:`gentle_hooks.policy.decision_form.allowed_object`: the same bytes whether the
installed hook's ``sh`` fast path or Python decided), so an agent tells "allowed" from "the
gate did not run"; the other formats print nothing then. A gate
that fails closed before it could judge (exit 2 or 3) prints its one error line and then,
in the same formats, :func:`error_object`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.hooks.call import HookCall
from gentle_hooks.policy.decision_form import ENV as ENV
from gentle_hooks.policy.decision_form import SCHEMA as SCHEMA

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.errors import Command
    from gentle_hooks.services.assess import AssessResult

    #: One judged candidate: (label, pushed ref or None, its assessment, fix note, the
    #: commit its fix runs in, checked out in a worktree, or None, the commands that run first, the
    #: commands that run last).

    Verdict = tuple[
        str, str | None, AssessResult, str, str | None, tuple[Command, ...], tuple[Command, ...]
    ]


#: What concludes the merge git keeps in progress after a pre-merge-commit block (the same
#: ``git merge`` fails then: "You have not concluded your merge").
CONCLUDE_MERGE = "git commit --no-edit"


def then_run(hook: str) -> list[str]:
    """The commands a blocked ``hook``'s way out ends with, after every candidate's:
    :data:`CONCLUDE_MERGE` for ``pre-merge-commit``, none for the other gates (their own
    git command, run again, is the retry)."""
    return [CONCLUDE_MERGE] if hook == "pre-merge-commit" else []


#: The git command each gate runs under (pre-merge-commit: none, its merge is concluded
#: with :data:`CONCLUDE_MERGE` instead of run again).
_VERB = {"pre-commit": "commit", "commit-msg": "commit", "pre-push": "push"}


def typed_again(hook: str) -> list[str]:
    """The git command ``hook`` runs under, as the user typed it (its arguments kept:
    :func:`gentle_hooks.git.probe.invoking_git`), for a block's override line; empty when
    it is not known (no ``/proc``, a sequencer's commit, a merge)."""
    verb = _VERB.get(hook)
    if verb is None:
        return []
    from gentle_hooks.git.probe import invoking_git

    return invoking_git(verb) or []


def output_format(env: Mapping[str, str]) -> tuple[str, str | None]:
    """(``text``, ``json`` or ``both``; a note when ``GENTLE_HOOKS_FORMAT`` holds another
    value, which then prints text)."""
    asked = env.get(ENV, "").strip().lower()
    if asked in ("json", "text"):
        return asked, None
    note = f"{ENV}={asked!r} is not json or text: printing text" if asked else None
    if not asked:
        from gentle_hooks.policy.delegation import runtime_evidence

        found = runtime_evidence(env)
        if found is not None and found.agent != "gentle-hooks env recorder":
            return "both", None
    return "text", note


def aside(lines: Sequence[str], env: Mapping[str, str]) -> None:
    """Print the lines of a hook that runs beside the gates (prepare-commit-msg's expiries,
    commit-msg's restored trailer, post-commit's and post-rewrite's records) only when
    the gates print text: with ``GENTLE_HOOKS_FORMAT=json`` an agent reads the git
    command's standard error as the gate's one object, and with an agent runtime detected
    it reads the last line as that object, which these hooks would follow (the ledger
    keeps what they say)."""
    import sys

    if lines and output_format(env)[0] == "text":
        for line in lines:
            print(line, file=sys.stderr)


def _candidate(v: Verdict, again: Sequence[str], named: Sequence[str]) -> dict[str, object]:
    from gentle_hooks.hooks.elsewhere import bound_steps, outside_top
    from gentle_hooks.hooks.overrides import override_names
    from gentle_hooks.report.base_text import base_ref_named
    from gentle_hooks.report.fixes import reason, runnable_way, steps

    label, target, r, fix_note, commit, prepare, after = v
    cand, plan, d = r.candidate, r.plan, r.decision
    missing = []
    top = outside_top(r.binding.top)  # as the human lines (hooks.elsewhere)
    for s in d.shortfalls:
        labelled = steps(
            s,
            r.binding,
            commit,
            prepare=prepare,
            after=after,
            at_top=True,
            again=again,
            identities=override_names(named, cand.identity),
        )
        labelled = bound_steps(labelled, top)
        way = runnable_way(labelled)
        run = [text for kind, text in way if kind == "run"]
        item: dict[str, object] = {"what": s.what.value, "why": reason(s), "run": run}
        prefixes = [text for kind, text in way if kind == "prefix"]
        if prefixes:
            # the writer's test command (or the brief's path) goes after it; it runs where
            # it stands in "steps", before the "run" commands that follow it there
            item["report_prefix"] = prefixes[0]
        writes = [text for kind, text in way if kind == "write"]
        if writes:
            # the verifier's brief goes there before the "run" commands that read it
            item["brief_file"] = writes[0]
        item["steps"] = [{"label": kind, "text": text} for kind, text in labelled]
        missing.append(item)
    return {
        "label": label,
        "target": target,
        "identity": cand.identity,
        "projection": cand.projection.value,
        "tree": cand.tree,
        # the base the gate judged, as its printed commands name it (an amend's parent)
        "base": {
            "ref": base_ref_named(cand.base),
            "commit": cand.base.commit,
            "tree": cand.base.tree,
        },
        "delegated_by": r.delegated_by,
        "applies": d.applies,
        "blocked": d.blocked,
        "risk": plan.risk.value,
        "nativeRisk": plan.native_risk.value,
        "rows": list(plan.rows),
        "missing": missing,
        "note": fix_note or None,
    }


def decision_object(
    call: HookCall,
    judged: Sequence[Verdict],
    exit_code: int,
    let_through: str | None,
    lines: Sequence[str],
    named: Sequence[str] = (),
    top: str | None = None,
    notices: Sequence[str] = (),
) -> dict[str, object]:
    """The decision as a JSON-ready object.

    Args:
        call: the hook; judged: every candidate the gate judged (label, pushed ref,
            assessment, fix note); exit_code: the gate's;
        let_through: what let a block through (``GENTLE_HOOKS_SKIP``, ``warn mode ...``),
            or None; lines: the human lines, for a person reading the agent's log;
        named: the candidates an override of the same git command already named
            (:func:`gentle_hooks.hooks.overrides.skip_named`): a printed override names
            them too; top: the work tree's root: ``then_run`` is bound to it as the human
            lines are when the user typed the git command from outside it
            (:mod:`gentle_hooks.hooks.elsewhere`); notices: the lines the gate said on
            the way (:class:`~gentle_hooks.hooks.outcome.Told`: a commit made with hooks
            off recorded, pending work expired...), in ``notices`` and first in ``lines``.
    """
    from gentle_hooks.hooks.elsewhere import bound_text, outside_top
    from gentle_hooks.report.fixes import override_words

    blocked = any(v[2].decision.blocked for v in judged)
    again = typed_again(call.name) if exit_code else []
    decision = "blocked" if exit_code else ("let-through" if blocked else "allowed")
    outside = outside_top(top)
    return {
        "schema": SCHEMA,
        "hook": call.name,
        "decision": decision,
        "exit_code": exit_code,
        "let_through": let_through,
        # words: the git command is theirs (a merge's is concluded with git commit)
        "override": override_words(call.name) if decision == "blocked" else None,
        "candidates": [_candidate(v, again, named) for v in judged if v[2].decision.applies],
        # run after every candidate's steps, whichever way resolved them
        "then_run": [
            c if outside is None else bound_text(c, outside)
            for c in (then_run(call.name) if decision == "blocked" else [])
        ],
        "notices": list(notices),
        "lines": [*notices, *lines],
    }


def error_object(
    hook: str, exit_code: int, reason: str, run: Sequence[str] | None = None
) -> dict[str, object]:
    """The decision of a gate that could not judge and failed closed (a ledger that is not
    a database, a configuration file it cannot read...): ``decision`` is ``error``,
    ``fail_closed`` true, ``reason`` the one error line printed above it, and no candidate
    (none was judged); nothing lets it through but fixing the reason: ``run`` holds the
    commands that line names, as it prints them (``doctor --fix``, ``doctor --discard ID
    --reason ...``), or, when ``run`` is None, ``gentle-hook doctor`` (which diagnoses it
    and names the repair)."""
    from gentle_hooks.errors import cli
    from gentle_hooks.report.fixes import command_text

    return {
        "schema": SCHEMA,
        "hook": hook,
        "decision": "error",
        "fail_closed": True,
        "exit_code": exit_code,
        "reason": reason,
        "let_through": None,
        "override": None,
        "candidates": [],
        "run": [command_text(cli("doctor"))] if run is None else list(run),
        "lines": [reason],
    }


def print_decision(obj: Mapping[str, object]) -> None:
    """Print the object as one line on standard error."""
    import json
    import sys

    from gentle_hooks.report.jsontext import json_text

    print(json_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":"))), file=sys.stderr)
