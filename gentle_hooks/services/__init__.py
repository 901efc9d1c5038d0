"""Use cases (SPEC §3-§9): one module per thing a user or a hook asks for.

Room ``services``. Each wires the adapters (git, config, ledger, notes, native, agents)
to the pure policy for one use case and returns values; nothing here prints.

* :mod:`.assess` — candidate -> native assessment -> plan -> decision
* :mod:`.passive_check` — a ``passive`` native answer verified: the base's risk tables, and
  an external binary that may only raise the tier
* :mod:`.status` — the plan of the current candidate and what is recorded for it
* :mod:`.across` — which writer entries a change of another path may carry (an index)
* :mod:`.attribution` — which writer work a change carries, and what a writer wrote
* :mod:`.ended_back` — expired writer work a change may bring back, and the content too
  common to bring any back
* :mod:`.claims` — a person's claims of writer content their own change holds (a line, a copy)
* :mod:`.commit_steps` — what each commit changed against its parents, in one ``diff-tree``
* :mod:`.change_facts` — the change being delivered, the ledger's facts for it, and discarded
  work it still holds by the writer's own lines
* :mod:`.reapplied` — settled writer content a pushed commit adds again onto another base
* :mod:`.commit_delegation` — why a commit is delegated, for the push gate, ``gate --range``
  and ``status --committed`` alike
* :mod:`.settle` — what pushed commits delivered of a writer's entry (ended as settled), and
  the local versions that may still hold writer work
* :mod:`.expiry` — pending writer work whose content is gone, expired
* :mod:`.delivered` — the writer work a commit delivered: its commit record (spooled behind
  a held write lock), and the work recorded when a record binds to it
* :mod:`.record` — bind a command to its candidate and record (receipts, escalations,
  reviews)
* :mod:`.mutation` — record a writer's pending mutation (``record``, the runtime recorders)
* :mod:`.repeat` — a record that repeats an earlier one (a replay, a retry), or only looks
  like one (the same content written again after a reset threw it away)
* :mod:`.confined` — a write a person modified before the tool wrote it: only the model's
  surviving lines are the writer's
* :mod:`.receipt_guard` — ``receipt run --committed`` refuses tracked changes the commit lacks
* :mod:`.runner` — run a reported command in the foreground and observe it
* :mod:`.discard` — abandon pending writer work on purpose
* :mod:`.discard_refusals` — the one-line refusals of a discard, with the honest ways out
* :mod:`.discard_claims` — the person's claims a discard records instead of ending writer
  work (own paths holding copied writer lines, the same fix made in another worktree)
* :mod:`.spotcheck` — the parent's spot check (a re-run, or a readback)
* :mod:`.spot_rerun` — where a spot check re-runs a receipt (the work tree when it holds the
  candidate), and one re-run there
* :mod:`.spot_refusal` — why a spot check will not re-run a receipt, and what to run instead
* :mod:`.own_receipts` — a receipt whose command runs a file the change writes: the gate and
  ``receipt run`` judge it as the spot check does (it does not count)
* :mod:`.commit_worktree` — the worktree a block checks a commit out in, and the work tree
  whose ignored files a spot check bound to it gets
* :mod:`.checkout` — the temporary linked checkout a spot check re-runs in
* :mod:`.reverify` — CI re-runs of the spot checks notes claim (``gate --range --reverify``)
* :mod:`.verdict_filing` — file a DelegationVerdict (JSON and Markdown), list and show the
  filed ones
* :mod:`.artifact_home` — where a verdict's artifact pair is kept when the worktree it was
  made in is removed after it (``.git/gentle-hooks/reports/<identity>/``)
* :mod:`.cleanroom` — the verifier's clean room on disk
* :mod:`.room_open` — a prepared room opened for ``verify run --room``, or refused
* :mod:`.room_run` — a verify run's checks run in its clean room, observed
* :mod:`.room_failures` — how a verify run's check failed: its last line, a failing suite's
  tests and how each failed, the passing tests a ``--deselect`` of those would hide
* :mod:`.room_changes` — what a check changed in a verify run's clean room
* :mod:`.suite_observer` — what a pytest full suite ran, observed by a plugin in its
  process and compared with the whole suite's collection
* :mod:`.room_env` — the environment a verify run's checks get in its clean room
* :mod:`.editable` — where an editable install makes Python import a work tree's code, and
  the same places in a room or temporary checkout
* :mod:`.editable_copies` — another clone of the project an editable install imports from,
  outside the repository's work trees
* :mod:`.room_imports` — what a verify room's checks import: the room's copies first on
  ``PYTHONPATH``, with the import guard
* :mod:`.checkout_imports` — what a spot check's temporary checkout imports: the verify
  room's composition (redirects, import guard, probe)
* :mod:`.room_lacks` — the file of the work tree git ignores that a failed room check
  lacked (row C1-ignored)
* :mod:`.room_unheld` — the work tree's places an editable install imports from that a
  room's tree does not hold (an ignored ``build/lib``): hidden, or no check runs
* :mod:`.import_guard` — the ``sitecustomize`` a room's checks get: a module only the work
  tree holds (a package only the candidate adds, in the base run) is not importable
* :mod:`.quorum_source` — the candidate's tree and the clean room's commands that ``quorum
  tally --observed`` checks an upheld vote's evidence against.
* :mod:`.import_roots` — the directories of a room's tree holding its top-level packages
  (build backends' package directories, pytest's ``pythonpath``, the project's package by
  name), where the import probe looks.
* :mod:`.import_probe` — where each interpreter a room's checks may start imports the
  room's top-level names from, asked of it (``find_spec``), not read from install files
* :mod:`.room_overlap` — the names a room's tree defines anywhere (namespace packages
  too) that an installed copy also holds: asked of the probe, redirected, or refused
  (ambiguous, renamed, a setup.py package_dir it cannot read)
* :mod:`.room_unguarded` — what a room's check reaches when its Python starts without the
  import guard (``-I``, ``-E``, ``env -u PYTHONPATH``, a ``#!`` line's flags)
* :mod:`.room_proven` — whether a room's check provably starts every Python under the
  import guard (refused when unguarded starts reach a work tree and it is not)
* :mod:`.installed_copies` — distributions installed without ``-e`` from a work tree (a
  copy of its untracked files too): unimportable in a room's runs
* :mod:`.carried` — the checks an earlier candidate of the change failed, re-run by a
  verify run of this one
* :mod:`.room_programs` — which files a verify run's checks start, and whether they may
* :mod:`.room_leftovers` — the clean rooms left under the temporary directory (``verify clean``)
* :mod:`.defined` — a verify run's checks whose own definition the candidate writes
* :mod:`.defined_command` — whether a reported command runs what the change defines, judged
  with the ``PYTHONPATH`` its re-run gets (before and after its temporary checkout exists)
* :mod:`.path_shadows` — modules a change adds in one ``sys.path`` directory of a check's
  run that the tree has in another
* :mod:`.skip_ties` — which skip markers a change adds may have skipped a run's skipped tests
* :mod:`.room_bounds` — what a room's checks reach beyond its tree: a fresh home per run,
  no tool configuration above the room
* :mod:`.room_dirs` — a room's parts are the directories it made, never links, before any
  removal
* :mod:`.verify` — ``verify prepare|run``: the verdict written from the observed checks
* :mod:`.verify_plan` — the checks a verify run runs for one brief, in order, and the
  ``briefId`` its verdict claims
* :mod:`.verdict_held` — whether a ``verify run``'s pass is held already (no ``verdict add``)
* :mod:`.declared_suite` — the project's declared full suite, from the base commit
* :mod:`.settings_base` — the commit a candidate's loosening settings are read from (one
  a remote holds)
* :mod:`.brief_files` — the brief files blocks name under the git dir, old ones pruned at
  ``verify prepare``
* :mod:`.brief_checks` — whether a brief's check can observe anything (``verify``, ``brief
  check``)
* :mod:`.rdd` — the RDD line a harness pins per session
* :mod:`.install` — place and remove the plain git hook scripts
* :mod:`.fastpath` — the installed hooks' ``sh`` fast path, generated from the probes'
  tables
* :mod:`.agent_install` — wire an agent runtime's hook in its own configuration
* :mod:`.agent_uninstall` — unwire it, giving back what install changed
* :mod:`.agent_entry` — merge our entry into a runtime's JSON configuration (``install --agent``)
* :mod:`.agent_file` — install, uninstall and check a runtime hook that is a file of ours
* :mod:`.agent_above` — a shell call that names another repository (a submodule, a nested
  one), or of a session opened above the repository: kept and recorded in each it names
* :mod:`.agent_dirs` — the folders agent install created, which alone uninstall removes
* :mod:`.agent_kept` — what a file held before agent install (that it existed, its empty
  containers), which uninstall gives back
* :mod:`.agent_record` — an agent runtime's hook input -> a pending mutation
* :mod:`.agent_trees` — the work tree an agent's hook event belongs to, and the work tree of
  each path it wrote
* :mod:`.agent_windows` — a background shell call's window: its snapshot kept open for the
  session, moved at each later hook event, closed when the agent's turn ends (kept for a
  short grace while a process the call left still runs)
* :mod:`.agent_window_links` — a background call's windows in every repository its command
  names (a submodule, a nested one, the one below a session above it), linked so the
  session's later events move and close them
* :mod:`.agent_window_settle` — the open windows, moved by the commit gate, the push gate,
  ``status`` and ``assess`` before they judge
* :mod:`.agent_inflight` — the shell calls still running (pre-tool event come, post-tool
  not yet): their call files, kept and removed by the recorder
* :mod:`.agent_inflight_settle` — those calls moved by the commit and push gates before
  they judge
* :mod:`.agent_unreported` — the shell calls whose post-tool event never came (Codex),
  settled at the end of the agent's turn: recorded, their window kept for a short grace or
  closed
* :mod:`.agent_stop_patches` — the patches a runtime's transcript shows applied (Codex's
  ``apply_patch`` with no ``PostToolUse``), recorded at the end of the agent's turn
* :mod:`.agent_leftover` — the processes a shell call left running in the work tree, seen
  in ``/proc`` (Linux) at its post-tool event (and at the end of the turn, for a window),
  whatever its command's words
* :mod:`.agent_subagents` — the markers of the subagents running in an agent session
* :mod:`.agent_codex` — Codex CLI's own conditions on our hooks: the trust it keeps for each,
  and what to add by hand to an inline ``config.toml`` hook of ours
* :mod:`.agent_shell` — what an agent's shell command changed: the work tree before and after
* :mod:`.agent_patched` — each file a several-file ``apply_patch`` updated, as it was before
  the call (its hunks undone), which its write is measured from
* :mod:`.agent_prewrite` — the files a writing tool names, kept at its pre-tool event, its
  write measured from them at its post-tool event
* :mod:`.write_entry` — the ledger entry of one writer write, measured from its start
* :mod:`.shell_files` — the snapshot files of shell calls: their format, read back, marked
  spent, swept
* :mod:`.shell_commits` — what a shell command wrote into commits it made (branches, stash
  entries)
* :mod:`.shell_trees` — the other worktrees of a shell call's repository (a command may
  ``cd`` into one) and the call id its write there is recorded under
* :mod:`.shell_moves` — the paths a shell command moved or renamed (``git mv a b && sed -i b``)
* :mod:`.shell_modes` — the paths whose mode alone a shell command changed (``chmod +x``)
* :mod:`.shell_sources` — the ref tip or stash entry a path a shell command restored and
  edited is measured from (``git stash pop && sed -i f``)
* :mod:`.shell_notes` — the lines a shell call's recording says about what it could not see
* :mod:`.shell_unseen` — ignored files a shell call tracked that no agent shell call changed
  (a person's, by their inode's times)
* :mod:`.doctor` — health checks of the store and the installed hooks
* :mod:`.doctor_hooks` — whether every worktree reaches the gate's hooks, and whether the
  pre-commit framework or prek runs them (its own install line for a missing stage)
* :mod:`.framework_set` — which gentle-hooks ids a pre-commit framework configuration lists,
  at which stages, and what a smaller set does not record
* :mod:`.doctor_fix` — ``doctor --fix``'s repairs of the ledger, and ending a quarantine
* :mod:`.doctor_commits` — delivered writer commits with no commit record, found and recorded
* :mod:`.doctor_key` — the ledger key's check and repair (a link, FIFO, wrong size or mode)
* :mod:`.doctor_spool` — the spool as plain doctor reports it (never read, folded or moved),
  files kept aside that keep the gates closed, and ``doctor --fix`` folding kept spool lines
* :mod:`.agent_doctor` — per agent runtime used here: is its recorder wired and reachable
* :mod:`.agent_worktrees` — a runtime's untracked project configuration, absent from the
  repository's other worktrees
* :mod:`.agent_reach` — can a hook command run its gentle-hook, resolved as its shell would
"""
