"""The native tier of a candidate (SPEC §4): provider choice, the built-in classifier and
the ``gentle-ai`` binary.

Room ``native``, above ``git`` and ``config``; it may import :mod:`gentle_hooks.errors`, ``values``,
``policy``, ``config`` and ``git`` only. Modules, each importing only those above it:

* :mod:`.message` — one bounded, redacted line of what the binary said
* :mod:`.result` — the native assessment as plain values (the envelope)
* :mod:`.prefilter` — literals a process pattern's matches must contain
* :mod:`.content` — passive documents proven by their bytes
* :mod:`.rules` — the rule tables and the one function reading them
* :mod:`.pathfacts` — what the settings and upstream's path rules say of a path
* :mod:`.process_scan` — the bounded, fail-closed scan of added lines for a process call
* :mod:`.classifier` — a diff's tier and reasons, as upstream gives them
* :mod:`.fold` — the classifier's answer folded candidate by candidate (a push, a range)
* :mod:`.decode` — pydantic decode of the binary's ``--json`` output
* :mod:`.binary` — ``gentle-ai review assess`` as a bounded subprocess; imports ``decode``
  once it answered
* :mod:`.builtin` — the built-in provider: a candidate's diff over the git adapter,
  classified
* :mod:`.provider` — ``builtin``, ``gentle-ai`` or ``auto``: the only entry the services use
"""
