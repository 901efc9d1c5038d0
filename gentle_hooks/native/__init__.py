"""The native tier of a candidate (SPEC §4): provider choice, the built-in classifier and
the ``gentle-ai`` binary.

Room ``native``, above ``git`` and ``config``; it may import :mod:`gentle_hooks.errors`, ``values``,
``policy``, ``config`` and ``git`` only. Modules, each importing only those below it:

* ``message`` (one line of a binary's message), ``result`` (the envelope as plain
  values), ``prefilter`` (literals a process pattern's matches contain), ``rules`` (the
  path-rule table and the one function reading it);
* ``pathfacts`` (what the settings say of a path), then ``classifier`` (a diff's tier and
  reasons);
* ``decode`` (pydantic decode of the binary's output), then ``binary`` (runs it; imports
  ``decode`` only once it answered);
* ``builtin`` (the built-in provider over the git adapter), then ``provider`` (``builtin``,
  ``gentle-ai`` or ``auto``: the only entry the services use).
"""
