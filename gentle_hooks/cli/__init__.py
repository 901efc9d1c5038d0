"""The command line: a thin click layer over services, hooks and report (SPEC §7).

Room ``cli``, the top layer. :mod:`.group` is the ``gentle-hook`` click group, whose
subcommands load lazily; :mod:`.assess_command` is ``assess``'s body without click, which
:mod:`gentle_hooks.main` calls directly for the plain flag forms.

One module per command (each a thin click layer), plus the group and shared options:

* :mod:`.group` — the ``gentle-hook`` click group; subcommands load lazily from its table
* :mod:`.options` — options the recording commands share: ``--cwd``, binding flags,
  ``--json``
* :mod:`.assess` — ``assess``: the click command
* :mod:`.assess_command` — ``assess``'s body without click (:mod:`gentle_hooks.main` calls
  it for the plain flag forms)
* :mod:`.status` — ``status``: plan, records, satisfied and missing for this candidate
* :mod:`.record` — ``record``: a pending mutation for this work tree
* :mod:`.receipt` — ``receipt run|add|list``: the writer's reports
* :mod:`.spot_check` — ``spot-check``: the parent re-runs one reported command
* :mod:`.escalate` — ``escalate``: name a Task Size high-risk item for this work
* :mod:`.review` — ``review decline|unavailable|ack``: review outcome facts
* :mod:`.discard` — ``discard``: abandon pending writer work on purpose
* :mod:`.verdict_cmd` — ``verdict add|list|show``: independent verifier verdicts
* :mod:`.verify` — ``verify prepare|run``: the verifier's clean room
* :mod:`.quorum_cmds` — ``brief check`` and ``quorum tally|report|audit``
* :mod:`.rdd` — ``rdd line|status|loadout``: the RDD line for agent harnesses
* :mod:`.gate` — ``gate --range A..B``: judge a pushed range from notes and trailers
* :mod:`.hook` — ``hook NAME``, listed for ``--help`` (hooks run through
  :mod:`gentle_hooks.hooks.dispatch`)
* :mod:`.install` — ``install`` / ``uninstall``: plain git hooks and agent runtimes' hooks
* :mod:`.doctor` — ``doctor``: diagnose the repository's gentle-hooks state
* :mod:`.sync` — ``sync fetch|push``: share notes with a remote
* :mod:`.schema` — ``schema NAME``: the JSON Schema of an envelope or an input
"""
