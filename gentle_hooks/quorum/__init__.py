"""Quorum: verifier verdicts per finding, their tally and ruling, survival, stakes (SPEC §9).

Room: quorum. Models and pure functions: imports pydantic, the standard library,
:mod:`gentle_hooks.errors`, :mod:`gentle_hooks.values`, :mod:`gentle_hooks.policy` and
:mod:`gentle_hooks.artifacts.jsonio` (strict JSON input); no I/O, no clock, no environment.
Seed ``003_0245072c02421c57.txt`` is the source of every rule. Import from the modules;
within the room, imports flow up this list:

* :mod:`.restatement` — whether a ``whatIChecked`` shows a check or restates the claim.
* :mod:`.narrative` — whether a ``whatIChecked`` is a narrative ("It is well known that…"),
  which refutes, or a bare citation with no act of checking ("app.py:12 `return x`").
* :mod:`.failure` — whether a part of a ``whatIChecked`` says its check failed or never
  happened ("could not open", "did not run"), and what that counts as (rows
  ``F-missing``, ``F-errored``, ``F-unreproduced``, ``F-skipped``).
* :mod:`.own_act` — whose act a sentence reports, and when: the verifier's own (no subject
  or the first person), someone else's (a role, a name in any case: "bob", "codex",
  "gpt-4o"), what code does, or an act outside this run ("last week", "in another review").
* :mod:`.completed` — whether an upheld ``whatIChecked`` reports a completed observation
  (an act of the verifier's own in the past tense, naming its evidence, with a result
  beyond its object and beyond a restated verdict, not stopped).
* :mod:`.readings` — how a ``whatIChecked`` frames its reading, as classes of words: passed
  on from someone else, an epistemic modal or a question, a make-believe frame, a
  retraction after the act.
* :mod:`.versions` — whether an act was done in the candidate's tree or another version
  (a stale checkout, an earlier draft, the first patch set, the stash, before the rebase,
  a local checkout, the writer's work tree).
* :mod:`.copies` — whether a reading act read the candidate's own file or a copy, another
  container (ticket, message, paste, tarball, zip...), a second-hand account (the commit
  message, the changelog, review comments) or another version (:mod:`.versions`).
* :mod:`.grounds` — whether an upheld ``whatIChecked`` re-opened the cited evidence itself:
  a denied or taken-back act, a hedged one, the finding or a copy of the evidence read
  instead of it, a command that checks nothing, or another file than the evidence names
  refutes (rows ``G-negated``, ``G-hedged``, ``G-finding``, ``G-nocheck``, ``G-elsewhere``).
* :mod:`.checkable` — whether an upheld ``whatIChecked`` holds evidence that checks out: a
  ``file:line`` quote at that line of the candidate's tree, or a command the clean room
  ran (``quorum tally --observed``); else it refutes.
* :mod:`.elsewhere` — whether an upheld ``whatIChecked`` places its evidence elsewhere than
  the candidate's tree (a clone from last month, the base branch, production, a CI log)
  or leaves it unconfirmed ("to be confirmed").
* :mod:`.votes` — a verifier's ``{refuted, reason, whatIChecked, correctedImpact?}`` and how
  it counts; errored, timed-out, malformed (not even JSON included), empty or restating
  ``whatIChecked`` abstain; narrative refutes; a failed or absent check is no evidence;
  too-fast verdicts are flagged.
* :mod:`.judging` — a vote judged against the miner's evidence and, when given, the
  candidate's tree: ungrounded, elsewhere or uncheckable upheld votes refute; one left
  standing whose evidence no tree checked is ``unchecked`` (at most PLAUSIBLE).
* :mod:`.ballot` — a verdict file, optionally ``{"claim", "verdicts"}``, the one claim a
  tally is about, and each distinct verdict once (copies count once).
* :mod:`.ruling` — ``{survives, upheld, refuted, abstained, contested}``, the ruling
  (CONFIRMED, PLAUSIBLE, REFUTED) and the stored :class:`~.ruling.TallyRecord`.
* :mod:`.survival` — survival overall and per lens, with the three calibration flags.
* :mod:`.audit` — verifying a verification: two upheld findings sampled to re-check,
  restating, too-fast and narrative verdicts listed.
* stakes (:mod:`gentle_hooks.policy.stakes`, pure) — verifiers each stakes level needs.
"""
