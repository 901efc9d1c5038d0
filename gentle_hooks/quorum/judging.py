"""One classified vote judged against the miner's evidence and, when the tally can read it,
the candidate's tree: evidence reproduces or it refutes, and evidence nobody checked does
not confirm (SPEC §9; seed 003; issue 18, refuters r18o finding 3 and r18p).

Room ``quorum``, pure functions; no I/O (the caller hands over a
:class:`~gentle_hooks.quorum.checkable.CheckSource`). Seed ``003_0245072c02421c57.txt``:
"Uphold ONLY if you re-opened the evidence yourself and it reproduces"; CONFIRMED means
"Evidence independently reproduced"; PLAUSIBLE is "could not be reproduced with available
access" and says "what would settle it". An upheld vote that stays upheld after every
deny-list reading carries ``unchecked`` when its evidence was not checked against the
candidate's tree: with no source at all (:data:`NO_TREE`), or with a tree but no
clean-room record for the command it ran (:data:`~.checkable.UNOBSERVED`). It still counts
upheld; :func:`gentle_hooks.quorum.ruling.rule` rules such a finding at most PLAUSIBLE.
"""

from __future__ import annotations

from typing import Final

from gentle_hooks.quorum.checkable import (
    UNCHECKABLE,
    UNOBSERVED,
    CheckSource,
    checkable_reason,
    unobserved_reason,
)
from gentle_hooks.quorum.elsewhere import elsewhere_reason
from gentle_hooks.quorum.failure import failure_split
from gentle_hooks.quorum.grounds import grounds_reason
from gentle_hooks.quorum.narrative import narrative_reason
from gentle_hooks.quorum.restatement import evidence_restatement
from gentle_hooks.quorum.votes import Vote, VoteKind

#: Why an upheld vote judged with no tree is unchecked (``quorum tally`` without
#: ``--tree`` or ``--observed``).
NO_TREE: Final = (
    "not checked against the candidate's tree: no tree was given (--tree REV or "
    "--observed VERDICT), so its evidence is not shown to reproduce"
)


def judged(
    vote: Vote, evidence: str | None, claim: str | None = None, source: CheckSource | None = None
) -> Vote:
    """``vote`` judged against the miner's ``evidence`` too, in the order of
    :func:`~gentle_hooks.quorum.votes.classify_verdict`: a vote whose ``whatIChecked``
    restates the evidence abstains, as one restating the claim does
    (:func:`~gentle_hooks.quorum.restatement.evidence_restatement`: a copy, no check), unless a
    failed check or a narrative already refuted it; an upheld one that checked nothing of
    the cited evidence (denied act, the finding read, a command that checks nothing,
    another file opened: :func:`~gentle_hooks.quorum.grounds.grounds_reason`), or that
    places its evidence elsewhere than the candidate's tree or leaves it unconfirmed
    (:func:`~gentle_hooks.quorum.elsewhere.elsewhere_reason`) or, with a ``source``, holds
    no evidence that checks out in the candidate's tree or the clean room's record
    (:func:`~gentle_hooks.quorum.checkable.checkable_reason`) is refuted with
    ``overruled`` saying what is missing; an upheld one left standing carries
    ``unchecked`` (module docstring) unless a citation or a recorded command of it
    checked out in ``source``; any other as it is."""
    if vote.vote is VoteKind.ABSTAINED:
        return vote
    text = vote.whatIChecked or ""
    why = evidence_restatement(text, evidence)
    if why is not None and (
        vote.overruled is None
        or (narrative_reason(text, claim) is None and failure_split(text, claim) is None)
    ):
        kept = vote.model_dump(exclude={"vote", "abstention", "tooFast", "overruled", "unchecked"})
        return Vote(vote=VoteKind.ABSTAINED, abstention=why, **kept)
    if vote.vote is not VoteKind.UPHELD:
        return vote
    ungrounded = grounds_reason(text, claim, evidence) or elsewhere_reason(text)
    if ungrounded is None and source is not None:
        ungrounded = checkable_reason(text, source)
    if ungrounded is None:
        unchecked = NO_TREE if source is None else unobserved_reason(text, source)
        kept = vote.model_dump(exclude={"unchecked"})
        return Vote(unchecked=unchecked, **kept)
    kept = vote.model_dump(exclude={"vote", "overruled", "unchecked"})
    return Vote(vote=VoteKind.REFUTED, overruled=ungrounded, **kept)


def as_checked(recorded: Vote, again: Vote) -> Vote:
    """A stored vote of a record checked against a tree (its ``checkedAgainst``), which is
    not read again: ``recorded`` where ``again`` (the vote judged anew, with no tree)
    upholds and the record says the tree refuted it for no checkable evidence, or checked
    it (no ``unchecked``), or found only an unobserved command; else ``again``."""
    if again.vote is not VoteKind.UPHELD:
        return again
    if (recorded.overruled or "").startswith(UNCHECKABLE):
        return recorded
    if recorded.vote is VoteKind.UPHELD and (
        recorded.unchecked is None or recorded.unchecked.startswith(UNOBSERVED)
    ):
        return recorded
    return again
