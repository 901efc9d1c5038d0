"""The native tier of a candidate (SPEC §4): provider choice, the built-in classifier and
the ``gentle-ai`` binary.

Room ``native``, above ``git`` and ``config``; it may import :mod:`gentle_hooks.errors`, ``values``,
``policy``, ``config`` and ``git`` only. Modules, each importing only those below it:

* ``message`` (one redacted line of a binary's message), ``result`` (the envelope as
  plain values), ``prefilter`` (literals a process pattern's matches contain), ``content``
  (passive documents proven by their bytes), ``rules`` (the rule tables and the one
  function reading them);
* ``pathfacts`` (what the settings and upstream's path rules say of a path), then
  ``classifier`` (a diff's tier and reasons);
* ``decode`` (pydantic decode of the binary's output), then ``binary`` (runs it; imports
  ``decode`` only once it answered);
* ``builtin`` (the built-in provider over the git adapter), then ``provider`` (``builtin``,
  ``gentle-ai`` or ``auto``: the only entry the services use).
"""
