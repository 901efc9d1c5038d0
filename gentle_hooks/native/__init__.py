"""The native assessment (SPEC §4): a candidate's native risk tier and its reasons.

Room ``native``. Both providers answer with the ``gentle-ai.review-assessment/v1``
envelope (:mod:`.result`):

* :mod:`.result` — the envelope as plain values;
* :mod:`.prefilter` — literals a process-call pattern's matches must contain;
* :mod:`.classifier` — the built-in classifier's rules, over diff stats and added lines;
* :mod:`.binary` — the ``gentle-ai`` binary as a bounded subprocess;
* :mod:`.decode` — its ``--json`` output, decoded with a typed model.
"""
