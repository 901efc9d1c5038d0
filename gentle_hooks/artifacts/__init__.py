"""Artifacts: the documents a delegation exchanges, read strictly (seed 001; SPEC §6, §9).

Room: artifacts. Imports only :mod:`gentle_hooks.errors`, :mod:`gentle_hooks.values`,
:mod:`gentle_hooks.policy` and pydantic; no I/O, no clock, no environment: callers read the
bytes and decide where the results go. Imports flow down this list:

* :mod:`.jsonio` — strict JSON loading (duplicate keys, ``NaN``), the strict model base,
  its field types (a command included), :class:`~.jsonio.ArtifactInputError` and one-line
  validation errors.
* :mod:`.changed` — the check kinds, and a check that changed the artifact it judged
  (:class:`~.changed.ChangedArtifact`, where a verify run stopped) in words.
* :mod:`.verdict` — :class:`~.verdict.DelegationVerdict`, its criteria and what was
  observed for each, the candidate it binds, the acceptance rules V0-V7, the recorded
  status, its digest, ``parse_verdict`` and the stored JSON form.
* :mod:`.brief` — :class:`~.brief.DelegationBrief` with its checks, the brief rules B1-B5,
  ``check_brief``, ``parse_brief`` and the brief id.
* :mod:`.outcome` — what one check a verifier ran showed (:class:`~.outcome.Check`,
  :class:`~.outcome.Outcome`).
* :mod:`.check_rows` — one observed check to its result: the check table of
  ``gentle-hook verify run``.
* :mod:`.observation` — a verdict written from observed checks alone: the status table of
  ``gentle-hook verify run`` (its check table re-exported).
* :mod:`.recorded` — what the ledger keeps of one verify run's checks, with the rows that
  decided them.
* :mod:`.markdown` — the Markdown view of a verdict.
"""
