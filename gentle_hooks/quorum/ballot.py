"""The verdicts cast for one finding, as read from files, and the claim they are about (SPEC §9).

Room: quorum. Models + pure functions (pydantic, standard library, strict JSON input from
:mod:`gentle_hooks.artifacts.jsonio`); no I/O: callers read the bytes. Seed
``003_0245072c02421c57.txt`` "Verifying a verification": a ``whatIChecked`` that merely
restates the claim is not a check, and that can only be seen next to the claim, so a tally
needs one.

A verdict file holds one of:

* one verifier answer ``{refuted, reason, whatIChecked, correctedImpact?}`` (or an errored,
  timed-out or malformed one), or a JSON array of them; the claim then comes from
  ``--claim``; a file that is not even JSON is one verifier's unreadable output, which
  abstains (seed 003 "Abstentions are not support");
* a verdict set, :class:`VerdictSet`: ``{"claim": "...", "verdicts": [...]}``, which carries
  the finding's claim with its verdicts, and may name the candidate they judged
  (``"candidate"``: a full commit or tree id, :func:`named_candidates`), whose tree the
  tally then checks upheld quotes against as ``--tree`` does.

A verdict counts once however often it is given (:func:`distinct_verdicts`): the tally
counts verifiers, and a copy is not a second verifier.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Annotated

from pydantic import Field, StrictStr, ValidationError

from gentle_hooks.artifacts.jsonio import ArtifactInputError, describe_validation_error
from gentle_hooks.errors import UsageError
from gentle_hooks.policy.stakes import verifier_identity
from gentle_hooks.quorum.votes import (
    MAX_TEXT,
    DuplicateKeys,
    QuorumModel,
    UnreadableOutput,
    VerifierVerdict,
    copy_key,
    load_verdict_json,
    verifier_id,
)
from gentle_hooks.values.frozen import frozen

Claim = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT, pattern=r"\S")]
#: A full object id, SHA-1 or SHA-256, as a verdict set names its candidate (an abbreviated
#: id or a ref name would name another object once the repository grows or the ref moves).
OBJECT_ID = r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$"


class VerdictSet(QuorumModel):
    """A file of one finding's verdicts with the finding's claim (``schema quorum-verdicts``).

    Attributes:
        claim: the finding's claim, verbatim (required, not blank).
        evidence: the miner's evidence for it, verbatim (optional): a ``whatIChecked``
            restating it abstains.
        verdicts: the verifiers' answers, each as :func:`~.votes.classify_verdict` takes
            them; a malformed one abstains, it does not make the file unreadable.
        candidate: the full commit or tree id of the candidate the verdicts judged
            (optional): the tally reads that tree, as ``--tree`` does. Unlike a malformed
            verdict, a malformed candidate is not abstained on: it exits 2
            (:func:`parse_verdict_file`), since it decides what every vote is checked
            against.
    """

    claim: Claim
    evidence: Claim | None = None
    verdicts: tuple[object, ...]
    candidate: Annotated[StrictStr, Field(pattern=OBJECT_ID)] | None = None


@frozen
class VerdictFile:
    """One file's verdicts: where they came from, the claim it named, and the raw answers."""

    source: str
    claim: str | None
    verdicts: tuple[object, ...]
    evidence: str | None = None
    candidate: str | None = None


def parse_verdict_file(data: bytes | str, source: str) -> VerdictFile:
    """Read one verdict file: a :class:`VerdictSet`, one verifier answer, or an array of them.

    A JSON object with a ``verdicts`` key is a :class:`VerdictSet`; any other value is
    verifier answers, returned raw (a malformed answer abstains when classified). A file
    that is not UTF-8, not JSON or nested too deeply, or an object with a ``verdicts`` key
    that is not a valid set (a repeated key, an unknown field, no non-blank ``claim``, no
    ``verdicts`` array: ``{"verdicts": null}``) is one :class:`~.votes.UnreadableOutput`,
    which abstains: the valid files beside it are still tallied; so is an empty array of
    answers (``[]``, ``"verdicts": []``).

    Args:
        data: the file's bytes or text.
        source: what to call it in messages (a path, ``<stdin>``).

    Raises:
        UsageError: a verdict set's ``candidate`` is not a full lowercase object id (exit 2,
            one line): what the votes are checked against is the tally's input, not a
            verifier's answer.
    """
    value = read_verifier_output(data, source)
    if isinstance(value, UnreadableOutput):
        return VerdictFile(source, None, (value,))
    if isinstance(value, dict) and "verdicts" in value:
        _check_candidate(value, source)
        problem = None
        if isinstance(value, DuplicateKeys):
            problem = "duplicate key " + ", ".join(map(repr, value.duplicates))
        else:
            try:
                parsed = VerdictSet.model_validate(value)
            except ValidationError as exc:
                problem = describe_validation_error(exc)
        if problem is not None:
            # a malformed set is malformed verifier output: it abstains, named, and the
            # other files are still tallied (seed 003 "Abstentions are not support")
            raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
            unreadable = UnreadableOutput(
                source, f"not a verdict set: {problem}", hashlib.sha256(raw).hexdigest()
            )
            return VerdictFile(source, None, (unreadable,))
        evidence = parsed.evidence.strip() if parsed.evidence is not None else None
        verdicts = parsed.verdicts or _empty(data, source)
        return VerdictFile(source, parsed.claim.strip(), verdicts, evidence, parsed.candidate)
    verdicts = tuple(value) if isinstance(value, list) else (value,)
    return VerdictFile(source, None, verdicts or _empty(data, source))


def _check_candidate(value: dict[object, object], source: str) -> None:
    """Refuse a verdict set whose ``candidate`` is there but no full object id.

    Raises:
        UsageError: as :func:`parse_verdict_file` says.
    """
    if "candidate" not in value:
        return
    oid = value["candidate"]
    if isinstance(value, DuplicateKeys) and "candidate" in value.duplicates:
        raise UsageError(f"{source}: the verdict set names its candidate twice: keep one")
    if oid is None or (isinstance(oid, str) and re.fullmatch(OBJECT_ID, oid)):
        return
    shown = _line(oid if isinstance(oid, str) else json.dumps(oid, default=repr))
    raise UsageError(
        f"{source}: candidate {shown!r} is not a full commit or tree id (40 or 64 lowercase "
        "hex digits): name the commit the verdicts judged, as `git rev-parse HEAD` prints it"
    )


def _empty(data: bytes | str, source: str) -> tuple[UnreadableOutput]:
    """A file whose array of verdicts is empty, as the one abstention it is: a verifier
    that answered nothing produced no evidence (seed 003 "Abstentions are not support"),
    and an empty answer must not vanish from the count."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return (
        UnreadableOutput(source, "no verdict: an empty array", hashlib.sha256(raw).hexdigest()),
    )


def _agreed(named: list[tuple[str, str]], what: str) -> str:
    """The first of ``named`` (source, text) pairs' text when every other one is equal to
    it up to whitespace.

    Raises:
        UsageError: two sources name different texts (one tally is one finding) (exit 2).
    """
    first_source, first = named[0]
    for source, text in named[1:]:
        if text.split() != first.split():
            raise UsageError(
                f"{source}: its {what} differs from {first_source}'s: one tally is one finding"
            )
    return first


def resolve_claim(option: str | None, files: tuple[VerdictFile, ...]) -> str:
    """The one claim a tally is about: ``--claim`` and every verdict set must agree.

    Texts agree when they are equal up to whitespace. A tally without a claim cannot see
    a ``whatIChecked`` that restates it (seed 003 "Verifying a verification").

    Args:
        option: ``--claim`` as given, or None.
        files: the parsed verdict files.

    Returns:
        The claim, stripped: ``option`` when given, else the first verdict set's.

    Raises:
        UsageError: ``--claim`` is blank or over :data:`~.votes.MAX_TEXT` characters; no
            claim anywhere ("pass --claim"); or two sources name different claims (one
            tally is one finding) (exit 2).
    """
    if option is not None and not option.strip():
        raise UsageError("--claim is blank: pass the finding's claim, as the miner stated it")
    if option is not None and len(option) > MAX_TEXT:
        raise UsageError(f"--claim is longer than {MAX_TEXT} characters: pass the claim alone")
    named = [("--claim", option.strip())] if option is not None else []
    named += [(f.source, f.claim) for f in files if f.claim is not None]
    if not named:
        raise UsageError(
            "no claim: pass --claim TEXT (or give the verdicts as "
            '{"claim": ..., "verdicts": [...]}); without it a restating whatIChecked counts'
        )
    return _agreed(named, "claim")


def resolve_evidence(option: str | None, files: tuple[VerdictFile, ...]) -> str | None:
    """The miner's evidence a tally judges restatements against: ``--evidence`` and every
    verdict set naming one must agree (equal up to whitespace); None when none names it.

    Raises:
        UsageError: ``--evidence`` is blank or over :data:`~.votes.MAX_TEXT` characters, or
            two sources name different evidence (exit 2).
    """
    if option is not None and (not option.strip() or len(option) > MAX_TEXT):
        raise UsageError(
            f"--evidence is blank or longer than {MAX_TEXT} characters: pass the miner's "
            "evidence for the claim, as it was stated"
        )
    named = [("--evidence", option.strip())] if option is not None else []
    named += [(f.source, f.evidence) for f in files if f.evidence is not None]
    if not named:
        return None
    return _agreed(named, "evidence")


def named_candidates(files: tuple[VerdictFile, ...]) -> tuple[tuple[str, str], ...]:
    """Every (source, object id) a verdict set of ``files`` names as its candidate, each
    id once, in file order."""
    seen: dict[str, str] = {}
    for f in files:
        if f.candidate is not None and f.candidate not in seen:
            seen[f.candidate] = f.source
    return tuple((source, oid) for oid, source in seen.items())


def _canonical(value: object) -> str:
    if isinstance(value, VerifierVerdict):
        value = value.model_dump(exclude_none=True)
    elif isinstance(value, UnreadableOutput):
        value = {"unreadable": value.digest}
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def _copy_identity(value: object) -> tuple[object, ...]:
    """Copies of one verdict share this: :func:`~.votes.copy_key` for a well-formed verdict
    (whatever its verifier label), the whole canonical JSON for any other answer."""
    if isinstance(value, VerifierVerdict):
        return ("verdict", *copy_key(value))
    if isinstance(value, UnreadableOutput):
        return ("unreadable", value.digest)
    if isinstance(value, dict) and not isinstance(value, DuplicateKeys):
        try:
            return ("verdict", *copy_key(VerifierVerdict.model_validate(value)))
        except ValidationError:
            pass
    return ("answer", _canonical(value))


def _describe(value: object, copies: int) -> str:
    checked = value.get("whatIChecked") if isinstance(value, dict) else None
    if isinstance(value, VerifierVerdict):
        checked = value.whatIChecked
    if isinstance(value, UnreadableOutput):
        return f"{copies} identical unreadable outputs counted once: {value.problem}"
    what = (
        f"whatIChecked {_line(checked)!r}" if isinstance(checked, str) else _line(_canonical(value))
    )
    return f"{copies} identical verdicts counted once: {what}"


def _line(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def distinct_verdicts(verdicts: Iterable[object]) -> tuple[tuple[object, ...], tuple[str, ...]]:
    """Each distinct verdict once, and a note for every verdict given more than once.

    Seed 003 "Verdict tallying" counts verifiers, not copies: the same answer given three
    times is one verifier's evidence, not three. Two answers are copies when they are the
    same well-formed verdict up to case, whitespace, punctuation and the ``verifier``
    label (:func:`~.votes.copy_key`), or, for any other answer (errored, malformed...),
    the same JSON value. Of a set of copies the one whose canonical JSON sorts first is kept, so the
    result does not depend on input order.

    Args:
        verdicts: raw verifier answers, as :func:`~.votes.classify_verdict` takes them.

    Returns:
        (distinct, notes): the kept answers in canonical order, and one line per set of
        copies (``"3 identical verdicts counted once: whatIChecked '...'"``), sorted.

    Raises:
        ArtifactInputError: one ``verifier`` id (compared as
            :func:`~gentle_hooks.policy.stakes.verifier_identity`: trimmed, case-folded) on
            two different answers: a verifier gives one verdict per finding, and neither
            can be chosen over the other (exit 2).
    """
    groups: dict[tuple[object, ...], list[object]] = {}
    by_verifier: dict[str, set[tuple[object, ...]]] = {}
    for value in verdicts:
        identity = _copy_identity(value)
        groups.setdefault(identity, []).append(value)
        verifier = verifier_id(value)
        if verifier is not None:  # "Alice" and " alice " are one verifier
            by_verifier.setdefault(verifier_identity(verifier), set()).add(identity)
    for verifier, answers in sorted(by_verifier.items()):
        if len(answers) > 1:
            raise ArtifactInputError(
                f"verifier {verifier!r} gave {len(answers)} different verdicts on one finding; "
                "pass one verdict per verifier"
            )
    kept = sorted((min(group, key=_canonical) for group in groups.values()), key=_canonical)
    notes = sorted(
        _describe(min(group, key=_canonical), len(group))
        for group in groups.values()
        if len(group) > 1
    )
    return tuple(kept), tuple(notes)


def read_verifier_output(data: bytes | str, source: str) -> object:
    """A verifier's output as :func:`classify_verdict` takes it: its JSON value, or an
    :class:`UnreadableOutput` when it is not UTF-8, not JSON or nested too deeply (a
    verifier that printed prose instead of its verdict abstains; it does not stop the
    tally)."""
    try:
        return load_verdict_json(data, source)
    except ArtifactInputError as exc:
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        problem = exc.message.removeprefix(f"{source}: ")
        return UnreadableOutput(source, problem, hashlib.sha256(raw).hexdigest())
