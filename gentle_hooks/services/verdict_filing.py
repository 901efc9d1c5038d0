"""Verdict filing (SPEC §6 "verdict", §9): file, list and show a candidate's DelegationVerdicts.

Room ``services``. Parses and judges with :mod:`gentle_hooks.artifacts.verdict`, renders with
:mod:`gentle_hooks.artifacts.markdown`, binds to the candidate through
:mod:`gentle_hooks.services.record` and keeps the verdict's JSON, its acceptance, the
reasons it was not accepted and its Markdown view in the ledger, and as the artifact pair
of seed 001 "Artifact" (:func:`write_artifacts`; :func:`validate_written` reads the written
JSON back before it is returned). A verdict counts only for the candidate it
was recorded for; one that names another candidate, or none, is refused.

With ``verification.require_observed`` (on by default; off only where the work tree,
the candidate's base commit and the commit a remote holds that the gate's settings are
read from all opt out: :func:`~gentle_hooks.services.settings_base.require_observed_for`) a
verdict is accepted only when a ``gentle-hook verify run`` for this candidate wrote exactly
it (its digest is recorded in the ledger, :class:`~gentle_hooks.ledger.records.VerifyRun`):
a verdict written by hand, edited, or observed on another candidate is stored and shown,
never accepted. The gate verifies rather than believes: a hand-written verdict's claims
cannot be checked.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping

from gentle_hooks.artifacts.markdown import render_verdict_markdown
from gentle_hooks.artifacts.recorded import RECORDED_ONLY
from gentle_hooks.artifacts.verdict import (
    DelegationVerdict,
    as_recorded,
    binding_fault,
    parse_verdict,
    recorded_status,
    verdict_acceptance,
    verdict_digest,
    verdict_json,
)
from gentle_hooks.config.load import load_config
from gentle_hooks.errors import ConfigError, GentleError, GitError, UsageError, cli
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import OBSERVED_RULE
from gentle_hooks.ledger.fails import (
    carried_fail_reason,
    carried_fails,
    standing_fail_reason,
    standing_fails,
)
from gentle_hooks.ledger.records import VerdictRecord, VerifyRun
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.artifact_home import kept_note
from gentle_hooks.services.delivered import refresh_notes
from gentle_hooks.services.record import (
    Binding,
    Bound,
    Recorded,
    bind,
    list_bound,
    open_root,
    open_store,
    refuse_unsignable,
    store_path,
)
from gentle_hooks.values.frozen import frozen, replace

#: The comment written above the artifact directory's line in ``info/exclude``.
EXCLUDE_COMMENT = "gentle-hooks: verify-delegation artifacts stay out of the candidates they judge"


@frozen
class ArtifactPair:
    """Where a verdict's JSON and Markdown view were written.

    Attributes:
        ref: the ``artifactRef``: the JSON's path relative to the work tree root (absolute
            when the artifact directory is outside it); json / markdown: absolute paths.
        excluded: the ``info/exclude`` file a pattern was added to, or None.
        kept: the directory the pair went to instead of an artifact directory inside a
            worktree removed after it (:func:`~gentle_hooks.services.artifact_home.kept_dir`),
            or None.
    """

    ref: str
    json: str
    markdown: str
    excluded: str | None = None
    kept: str | None = None


def _safe(text: str) -> str:
    """A file-name-safe form of an id: letters, digits, ``.``, ``_``, ``-``; at most 64."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")[:64] or "verdict"


def plan_artifacts(root: str, artifact_dir: str, name: str) -> ArtifactPair:
    """Choose the artifact pair's paths (seed 001 "Artifact": ``{id}.json`` and ``{id}.md``).

    ``name`` is made file-name-safe; ``-2``, ``-3``... is added while a file of that name
    exists (an artifact is never overwritten). Nothing is written.

    Raises:
        ConfigError: ``artifact_dir`` is the work tree's top (an absolute path can name it;
            a relative one is refused when the config is read): the artifacts would be
            part of the candidate they judge (exit 2).
    """
    base = os.path.normpath(os.path.join(root, artifact_dir))
    if base == os.path.normpath(root):
        raise ConfigError(
            f"verification.artifact_dir: {artifact_dir!r} is the work tree's top: artifacts "
            "there would be part of the candidate they judge; name a directory under it"
        )
    stem, n = _safe(name), 1
    while True:
        candidate = stem if n == 1 else f"{stem}-{n}"
        json_path = os.path.join(base, candidate + ".json")
        md_path = os.path.join(base, candidate + ".md")
        if not os.path.lexists(json_path) and not os.path.lexists(md_path):
            break
        n += 1
    rel = os.path.relpath(json_path, root)
    ref = json_path if rel.startswith("..") or os.path.isabs(rel) else rel.replace(os.sep, "/")
    return ArtifactPair(ref, json_path, md_path)


def exclude_pattern(rel_dir: str, *, directory: bool = True) -> str:
    """The ``info/exclude`` line that matches directory ``rel_dir`` (relative to the work
    tree's top; a file when not ``directory``) and nothing else: normalised, anchored
    (``/x/``, ``/x/f.json``), and with the characters gitignore reads as glob or escape
    (``\\ * ? [``) escaped."""
    path = os.path.normpath(rel_dir).replace(os.sep, "/")
    return "/" + re.sub(r"([\\*?\[])", r"\\\1", path) + ("/" if directory else "")


def write_artifacts(
    repo: Repository, root: str, pair: ArtifactPair, verdict_text: str, markdown: str
) -> ArtifactPair:
    """Write the verdict's JSON and Markdown view at ``pair``, keeping them out of the
    candidate: inside the work tree, a directory git does not ignore is added to this
    clone's ``info/exclude`` (never to a tracked ``.gitignore``), so the snapshot the
    verdict judged is the snapshot after it is written.

    Returns:
        ``pair`` with ``excluded`` set when ``info/exclude`` was changed.

    Raises:
        UsageError: the files cannot be written.
    """
    excluded = None
    rel_dir = os.path.relpath(os.path.dirname(pair.json), root)
    if not rel_dir.startswith(".."):
        probe = os.path.relpath(pair.json, root).replace(os.sep, "/")
        if not repo.is_ignored(probe) and repo.tracks_under(rel_dir):
            # a directory of tracked files (docs/): excluding it would hide the new files
            # a person adds there from git status and every later commit; only the pair
            for path in (pair.json, pair.markdown):
                rel = os.path.relpath(path, root)
                excluded = repo.exclude_locally(
                    exclude_pattern(rel, directory=False), EXCLUDE_COMMENT
                )
        elif not repo.is_ignored(probe):
            excluded = repo.exclude_locally(exclude_pattern(rel_dir), EXCLUDE_COMMENT)
    try:
        os.makedirs(os.path.dirname(pair.json), exist_ok=True)
        for path, text in ((pair.json, verdict_text + "\n"), (pair.markdown, markdown)):
            with open(path, "x", encoding="utf-8") as fh:
                fh.write(text)
    except OSError as exc:
        raise UsageError(f"{exc.filename}: cannot write the verdict: {exc.strerror}") from None
    return replace(pair, excluded=excluded)


def plan_pair(bound: Bound, artifact_dir: str, name: str) -> ArtifactPair:
    """:func:`plan_artifacts` for the bound candidate, in the directory that outlives a
    worktree a block removes after it (:func:`~gentle_hooks.services.artifact_home.kept_dir`,
    then ``kept`` names it) when ``artifact_dir`` lies inside one."""
    from gentle_hooks.services.artifact_home import kept_dir

    kept = kept_dir(bound.repo, bound.root, artifact_dir, bound.candidate.identity)
    pair = plan_artifacts(bound.root, kept or artifact_dir, name)
    return pair if kept is None else replace(pair, kept=kept)


def observation_mismatch(run: VerifyRun, verdict: DelegationVerdict) -> str | None:
    """Where ``verdict``'s evidence is not what ``run`` observed, or None when it is.

    Each criterion's ``observed`` (kind, command, exit status, duration, output digest)
    must be, in order, the observation the run recorded for that check, and the brief and
    the artifact reference the run's: the verdict's digest alone names the verdict, the
    recorded observations name what was seen.
    """
    if run.brief_id != verdict.briefId or run.artifact_ref != verdict.artifactRef:
        return f"it names brief {verdict.briefId!r} and artifact {verdict.artifactRef}"
    try:
        recorded = json.loads(run.observations)
    except ValueError:
        return "the run's recorded observations cannot be read"
    claimed = [
        c.observed.model_dump(mode="json") if c.observed is not None else {}
        for c in verdict.criteria
    ]
    if not isinstance(recorded, list) or len(recorded) != len(claimed):
        return f"it has {len(claimed)} observed check(s), not the run's"
    for n, (mine, seen) in enumerate(zip(claimed, recorded, strict=True), 1):
        seen = seen if isinstance(seen, dict) else {}
        keys = {*mine, *seen} - RECORDED_ONLY  # what the run decided, which no verdict holds
        differ = sorted(k for k in keys if mine.get(k) != seen.get(k))
        if differ:
            return f"criterion {n}: {', '.join(differ)} differ"
    return None


def observed_run(led: Ledger, verdict: DelegationVerdict, identity: str) -> VerifyRun | None:
    """The ``verify run`` for ``identity`` that wrote exactly ``verdict`` (same digest) from
    exactly what it observed (:func:`observation_mismatch` finds nothing)."""
    digest = verdict_digest(verdict)
    return next(
        (
            r
            for r in led.verify_runs(identity)
            if r.verdict_digest == digest and observation_mismatch(r, verdict) is None
        ),
        None,
    )


def observation_fault(led: Ledger, verdict: DelegationVerdict, identity: str) -> str:
    """Why ``verdict`` is not one ``verify run`` observed for ``identity`` (one line)."""
    digest = verdict_digest(verdict)
    foreign = [r for r in led.unsealed_runs(identity) if r.verdict_digest == digest]
    if foreign:
        return (
            f"{OBSERVED_RULE} not observed: verify run #{foreign[-1].id}, which wrote it, does "
            "not carry this ledger's seal (a row from another clone, written or edited by hand, "
            "or recorded before runs were sealed is no observation here); verify it again "
            "in this clone (verification.require_observed)"
        )
    runs = [r for r in led.verify_runs(identity) if r.brief_id == verdict.briefId]
    if not runs:
        return (
            f"{OBSERVED_RULE} not observed: no gentle-hook verify run of brief "
            f"{verdict.briefId!r} is recorded for this candidate (verification.require_observed)"
        )
    for run in runs:
        mismatch = observation_mismatch(run, verdict) if run.verdict_digest == digest else None
        if mismatch is not None:
            return (
                f"{OBSERVED_RULE} not observed: its evidence is not what verify run #{run.id} "
                f"observed ({mismatch}) (verification.require_observed)"
            )
    return (
        f"{OBSERVED_RULE} not observed: it differs from what verify run #{runs[-1].id} "
        f"observed and wrote ({runs[-1].artifact_ref}); an edited verdict is not evidence "
        "(verification.require_observed)"
    )


def _caller(repo: Repository, verdict: DelegationVerdict) -> str | None:
    if verdict.caller is not None:
        return verdict.caller
    try:
        return repo.ident()
    except GitError:
        return None


def add_verdict(
    binding: Binding,
    data: bytes,
    source: str,
    env: Mapping[str, str],
    sign_key: str | None = None,
) -> Recorded:
    """``verdict add``: validate a verdict, judge it, and store it for the bound candidate.

    While a ``verify run`` of this candidate that failed stands
    (:func:`~gentle_hooks.ledger.fails.standing_fails`), or one of an earlier candidate
    of the same change (:func:`~gentle_hooks.ledger.fails.carried_fails`), no verdict is
    accepted.
    Every valid verdict for this candidate is stored, accepted or not: one that is not
    accepted is shown as the reason the verifier requirement is still missing. Its status
    is recorded as :func:`~gentle_hooks.artifacts.verdict.recorded_status` (``blocked``
    when the full suite did not run), and the stored JSON and the artifact written say that
    status too (:func:`~gentle_hooks.artifacts.verdict.as_recorded`). A verdict already
    written as an artifact by ``verify run`` is referenced where it is; any other is
    written as a new artifact pair.

    Args:
        binding: the candidate; data: the verdict JSON bytes; source: its name for
            messages (a path or ``-``); sign_key: the SSH key the verdict's note line is
            signed with (the verifier's own), else ``gentle.signRecords``' key or none.

    Returns:
        The stored :class:`~gentle_hooks.ledger.records.VerdictRecord` (``accepted``,
        ``reasons``, ``artifact_ref``, ``caller``, ``observed_run``) with notes saying
        whether it counts and where its artifact is.

    Raises:
        ArtifactInputError: not UTF-8, not JSON, not a DelegationVerdict (exit 2).
        UsageError: the verdict names another candidate, or none (nothing is stored)
            (exit 2).
        GitError / StoreError: as :func:`gentle_hooks.services.record.bind` / ``open_store``.
    """
    verdict = parse_verdict(data, source)
    bound = bind(binding, env)
    fault = binding_fault(verdict, bound.candidate.identity)
    if fault is not None and verdict.candidate is None:
        raise UsageError(
            f"{source}: {fault}; verify this candidate, which writes a bound verdict: your "
            "brief's path after the prefix",
            commands=(cli("verify", "run", *binding.words(), "--brief", label="prefix"),),
        )
    if fault is not None:
        raise UsageError(
            f"{source}: {fault}: a verdict counts only for the candidate it judged; add it "
            "where that candidate is current (or bind with --committed / --staged), or "
            "verify this one: your brief's path after the prefix",
            commands=(cli("verify", "run", *binding.words(), "--brief", label="prefix"),),
        )
    settings = load_config(bound.root, bound.repo.gentle_config(), env).settings
    accepted, reasons = verdict_acceptance(verdict)
    with open_store(bound.repo) as led:
        if sign_key is not None:
            refuse_unsignable(
                led,
                bound,
                sign_key,
                "the verdict",
                ("add the verdict to the commit", "add it"),
                lambda words: cli("verdict", "add", *words, "--sign-key", sign_key, source),
            )
        run = observed_run(led, verdict, bound.candidate.identity)
        from gentle_hooks.services.settings_base import require_observed_for

        required, moved = require_observed_for(bound.repo, bound.candidate, settings, env)
        refused: tuple[str, ...] = ()
        if run is None and required:
            refused = (observation_fault(led, verdict, bound.candidate.identity),)
            reasons, accepted = (*reasons, *refused), False
        runs = led.verify_runs(bound.candidate.identity)
        fails = standing_fails(runs)
        if fails and accepted:  # an observed fail stands until the same checks pass
            refused = (*refused, standing_fail_reason(fails[0]))
            reasons, accepted = (*reasons, refused[-1]), False
        carried = carried_fails(_earlier_runs(bound), runs) if accepted else ()
        if carried:  # an earlier candidate's fail stands for the change too
            refused = (*refused, carried_fail_reason(carried[0]))
            reasons, accepted = (*reasons, refused[-1]), False
        caller = _caller(bound.repo, verdict)
        markdown = render_verdict_markdown(verdict, refused, caller)
        pair = _artifact_for(
            bound, verdict, run, settings.verification.artifact_dir, markdown, caller
        )
        stored = led.add(
            VerdictRecord(
                root=bound.root,
                identity=bound.candidate.identity,
                brief_id=verdict.briefId,
                status=recorded_status(verdict),
                accepted=accepted,
                reasons=reasons,
                json=verdict_json(as_recorded(verdict)),
                markdown=markdown,
                artifact_ref=pair.ref,
                caller=caller,
                observed_run=run.id if run is not None else None,
            )
        )
        refresh_notes(bound.repo, led, bound.candidate, sign_key)
    notes = [
        "accepted: counts as the independent gentle-ai-verify run for this candidate only"
        if accepted
        else "not accepted: it does not satisfy the verifier requirement",
    ]
    if run is not None:
        notes.append(f"observed: written by gentle-hook verify run #{run.id}")
    if pair.excluded is not None:
        notes.append(f"the artifact directory was added to {pair.excluded}")
    if pair.kept is not None:
        notes.append(kept_note(pair.kept))
    if moved is not None and run is None:  # the base ref's own opt-out did not count
        notes.append(moved)
    return Recorded(led.path, stored, bound.candidate, tuple(notes))


def _artifact_for(
    bound: Bound,
    verdict: DelegationVerdict,
    run: VerifyRun | None,
    artifact_dir: str,
    markdown: str,
    caller: str | None,
) -> ArtifactPair:
    """The verdict's artifact pair: the one its verify run wrote, when that file still
    holds exactly this verdict; else a new pair named after brief, candidate and digest,
    whose JSON names ``caller`` when the verdict names none (seed 001 "Completion
    criteria": the artifact is saved and the caller is identified)."""
    if run is not None:
        path = (
            run.artifact_ref
            if os.path.isabs(run.artifact_ref)
            else os.path.join(bound.root, run.artifact_ref)
        )
        try:
            with open(path, "rb") as fh:
                same = verdict_digest(parse_verdict(fh.read(), path)) == run.verdict_digest
        except (OSError, GentleError):
            same = False
        if same:
            return ArtifactPair(run.artifact_ref, path, os.path.splitext(path)[0] + ".md")
    name = f"{verdict.briefId}-{bound.candidate.identity[7:19]}-{verdict_digest(verdict)[7:15]}"
    pair = plan_pair(bound, artifact_dir, name)
    named = (
        verdict if verdict.caller or not caller else verdict.model_copy(update={"caller": caller})
    )
    text = verdict_json(as_recorded(named))
    return write_artifacts(bound.repo, bound.root, pair, text, markdown)


def _verdicts_of(led: Ledger, identity: str) -> list[VerdictRecord]:
    return led.verdicts(identity)


def list_verdicts(binding: Binding, env: Mapping[str, str]) -> tuple[Bound, list[VerdictRecord]]:
    """``verdict list``: verdicts stored for the bound candidate (reads only)."""
    return list_bound(binding, env, _verdicts_of)


def show_verdict(
    cwd: str | None, verdict_id: int, env: Mapping[str, str] | None = None
) -> tuple[str, VerdictRecord]:
    """``verdict show ID``: one stored verdict, whatever candidate it belongs to, as the
    gate judges it now: with ``verification.require_observed`` (this work tree's
    configuration) a verdict no ``verify run`` wrote is not accepted, whenever it was
    stored, and its Markdown view says so (the view stored when it was added may say
    otherwise).

    Returns:
        (ledger path, the record).

    Raises:
        UsageError: no ledger, or no verdict with that id.
        GitError / StoreError / ConfigError: the repository, ledger or configuration cannot
            be read.
    """

    repo, root = open_root(cwd)
    path = store_path(repo)
    led = Ledger.open_existing(path)
    found = None
    if led is not None:
        with led:
            found = led.verdict(verdict_id)
    if found is None:
        raise UsageError(f"no verdict #{verdict_id}", commands=(cli("verdict", "list"),))
    env = os.environ if env is None else env
    settings = load_config(root, repo.gentle_config(), env).settings
    if found.accepted and found.observed_run is None and settings.verification.require_observed:
        refused = (f"{OBSERVED_RULE} not observed: no gentle-hook verify run wrote it",)
        verdict = parse_verdict(found.json, f"verdict #{verdict_id}")
        found = replace(
            found,
            accepted=False,
            reasons=(*found.reasons, *refused),
            markdown=render_verdict_markdown(verdict, refused, found.caller),
        )
    return path, found


def _earlier_runs(bound: Bound) -> tuple[VerifyRun, ...]:
    """The verify runs of the earlier candidates of the bound candidate's change
    (:attr:`~gentle_hooks.ledger.facts.LedgerFacts.earlier_runs`).

    Raises:
        GitError / StoreError: reading the change or the ledger failed.
    """
    from gentle_hooks.services.change_facts import facts_for

    return facts_for(bound.repo, bound.candidate).earlier_runs


def validate_written(verdict: DelegationVerdict, text: str) -> None:
    """The written JSON must read back as the same verdict through the model ``gentle-hook
    schema verdict`` exports (seed 001 "Artifact": "Validate the JSON ... before returning
    it").

    Raises:
        RuntimeError: it does not: a defect of this tool (exit 3, traceback in the log).
    """
    if parse_verdict(text, "the verdict written") != verdict:
        raise RuntimeError("the verdict written does not read back as itself")
