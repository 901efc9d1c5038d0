"""Artifacts: the documents a delegation exchanges, read strictly (seed 001; SPEC §6, §9).

Room: artifacts. Imports only :mod:`gentle_hooks.errors`, :mod:`gentle_hooks.values`,
:mod:`gentle_hooks.policy` and pydantic; no I/O, no clock, no environment: callers read the
bytes and decide where the results go. Imports flow down this list:

* :mod:`.jsonio` — strict JSON loading (duplicate keys, ``NaN``), the strict model base,
  its field types, :class:`~.jsonio.ArtifactInputError` and one-line validation errors.
* :mod:`.brief` — :class:`~.brief.DelegationBrief`, the brief rules B1-B3, ``check_brief``
  and ``parse_brief``.
* :mod:`.verdict` — :class:`~.verdict.DelegationVerdict`, its criteria, the acceptance rules
  V1-V6, ``parse_verdict`` and the stored JSON form.
* :mod:`.markdown` — the Markdown view of a verdict.
"""
