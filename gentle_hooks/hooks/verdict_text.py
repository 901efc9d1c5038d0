"""A range's commit verdicts as a person reads them and as ``gate --json`` prints them
(SPEC §8): the lines of the range and server gates, their ways out, and the JSON object.

Room ``hooks``. The verdicts are :func:`~gentle_hooks.hooks.judgement.judge_commits`'s;
this module only renders them (the judgement imports none of the texts: a person's push,
the server gate's common case, has no way out to print).
"""

from __future__ import annotations

from gentle_hooks.hooks.judgement import CommitVerdict
from gentle_hooks.hooks.outcome import COMMITTED
from gentle_hooks.report.fixes import headline, reasons, step_lines, steps
from gentle_hooks.report.shortfall_text import restates_headline
from gentle_hooks.report.text import short
from gentle_hooks.report.ways_json import ways_json
from gentle_hooks.report.worktree_text import Step, path_steps
from gentle_hooks.values.frozen import replace


def verdict_lines(
    v: CommitVerdict,
    explain: bool = False,
    top: str | None = None,
    share_to: str = "",
    fork: str = "",
) -> list[str]:
    """Human lines for one commit: one when it passes, what/why/fix when it blocks (with
    ``explain``: its decision rows after the candidate; they are in ``--json`` always).
    A block whose commands name ``gentle-hook`` prints once, before them, the line that
    puts a framework's copy of the CLI on PATH in the reader's shell
    (:func:`~gentle_hooks.report.worktree_text.path_steps`).
    ``top``: the work tree root, so a printed report names it when the user is elsewhere
    (:meth:`~gentle_hooks.values.binding.Binding.for_report`); None on a server.
    ``share_to``: the URL of the repository the range is judged in, which every printed
    ``sync push`` and its git line name (:func:`verdict_steps`); empty: not known.
    ``fork``: the URL of the fork the pull request comes from
    (:func:`~gentle_hooks.notes.pull_request.fork_head`), named instead; empty: none."""
    head = f"{short(v.commit)} on {v.ref}"
    refused = [f"  note line refused (counts for nothing): {why}" for why in v.refused]
    refused += [f"  signature: {who}" for who in v.signed]
    refused += [f"  {line}" for line in v.reruns]
    if v.delegated_by is None:
        noted = [f"  recorded override: {o}" for o in v.overrides]
        return [f"ok {head}: not delegated", *refused, *noted]
    if not v.blocked:
        extra = (
            f"; override honoured ({v.overrides[0]})"
            if v.result and v.result.decision.blocked
            else ""
        )
        return [
            f"ok {head}: delegated ({v.delegated_by}), verified as its plan requires{extra}",
            *refused,
        ]
    lines = [f"BLOCKED {head}: delegated ({v.delegated_by})", *refused]
    risk = f" (plan risk {v.result.plan.risk.value})" if v.result is not None else ""
    lines.append(f"  {headline(v.shortfalls)}{risk}")
    for s, reason, fix in zip(
        v.shortfalls, reasons(v.shortfalls), verdict_steps(v, top, share_to, fork), strict=True
    ):
        if not restates_headline(s):
            lines.append(f"  missing: {reason}")
        lines.extend(step_lines(fix))
    if v.result is not None:
        lines.append(f"  candidate {v.result.candidate.identity[:19]}…")
        if explain:
            lines.append(f"  decision rows: {' '.join(v.result.plan.rows)}")
    for o in v.overrides:
        lines.append(f"  recorded override (not honoured: gate.honour_overrides is false): {o}")
    return lines


def verdict_steps(
    v: CommitVerdict, top: str | None = None, share_to: str = "", fork: str = ""
) -> list[list[Step]]:
    """The labelled lines of the way out of each of ``v``'s shortfalls, in order, bound to
    the commit (a worktree of its own) and sharing the records made (``sync push``): the
    one source of the text block (:func:`verdict_lines`) and of ``gate --json``
    (:func:`verdict_json`). The first that names ``gentle-hook`` starts with the line
    putting a framework's copy of the CLI on PATH there
    (:func:`~gentle_hooks.report.worktree_text.path_steps`), once per block. ``top``: as
    :func:`verdict_lines`. ``share_to``: a URL or path (a range gate:
    :func:`~gentle_hooks.notes.where.judged_repository`) each ``sync push`` and its git
    line name instead of the writer's default remote (a fork's clone pushes to the fork,
    where the judge never reads); empty: the words saying where instead. ``fork``: a pull
    request from a fork (:func:`~gentle_hooks.notes.pull_request.fork_head`): the writer
    shares with the fork, which it can push to, and the job fetches the fork's notes
    (:func:`~gentle_hooks.report.fixes.steps`)."""
    binding = replace(COMMITTED, top=top)
    out: list[list[Step]] = []
    path_shown = False
    for s in v.shortfalls:
        fix = steps(s, binding, v.commit, share=True, remote=fork or share_to, fork=fork)
        # the commands run in the user's clone: once per block, before them, the line
        # that puts a framework's copy of the CLI on PATH there
        path = [] if path_shown else path_steps(fix)
        path_shown = path_shown or bool(path)
        out.append([*path, *fix])
    return out


def verdict_json(
    v: CommitVerdict, top: str | None = None, share_to: str = "", fork: str = ""
) -> dict[str, object]:
    """One commit's verdict for ``gate --json``: a JSON object of plain values, its way out
    the text block's (:func:`verdict_steps`, one source). ``steps``: every labelled line
    the text prints after the reasons, in order (``{"label", "text"}``: ``run`` and
    ``or`` are commands, ``prefix`` the start of one the writer completes with its test
    command, ``otherwise`` starts another way, the rest words); ``fixes``: the commands of
    those lines (``run`` and ``prefix``), in the same order, the ways one after another;
    ``ways``: the same ways apart, each command a full argv, its ``or:`` alternatives
    with it and a prefix marked as one (:func:`~gentle_hooks.report.ways_json.ways_json`);
    ``path_line``: when a command names ``gentle-hook``, the line the text prints before
    them (:data:`~gentle_hooks.report.worktree_text.PATH_LINE`), kept out of ``fixes`` and
    ``ways`` (run it first in the shell the commands run in).
    docs/contracts/gate-v1.schema.json is the document's schema.
    Read by the writer, in another clone. ``top``, ``share_to``, ``fork``: as
    :func:`verdict_lines`."""
    ways = [step for fix in verdict_steps(v, top, share_to, fork) for step in fix]
    path = path_steps(ways)
    shown = [step for step in ways if step not in path]
    out: dict[str, object] = {
        "commit": v.commit,
        "ref": v.ref,
        "delegated": v.delegated_by is not None,
        "delegated_by": v.delegated_by,
        "blocked": v.blocked,
        "reasons": reasons(v.shortfalls),
        "fixes": [text for label, text in shown if label in ("run", "prefix")],
        "ways": ways_json(shown),
        "steps": [{"label": label, "text": text} for label, text in ways],
        "overrides": list(v.overrides),
    }
    if path:  # only when a fix names gentle-hook
        out["path_line"] = path[-1][1]
    if v.refused:  # only when the note holds lines the schema refused
        out["refused_lines"] = list(v.refused)
    if v.signed:  # only when an allowed-signers file is configured and lines are signed
        out["signatures"] = list(v.signed)
    if v.reruns:  # only under --reverify
        out["reverify"] = list(v.reruns)
    if v.result is not None:
        out["risk"] = v.result.plan.risk.value
        out["nativeRisk"] = v.result.plan.native_risk.value
        out["candidate"] = v.result.candidate.identity
        out["rows"] = list(v.result.plan.rows)
    return out
