"""What people and programs read (SPEC §7): human text, ``--json`` envelopes, fix commands.

Room ``report``. Only this room turns policy values into words and shell commands.

* :mod:`.fixes` — what is missing, in words, and the exact command that supplies it
* :mod:`.failed_steps` — the way out of a failed report, and the bindings a printed
  ``receipt run`` carries
* :mod:`.shell_text` — a command as the user types it: quoted words, the binding's flags,
  labelled lines
* :mod:`.shortfall_text` — what a shortfall misses, in words: a block's headline and
  ``missing:`` lines
* :mod:`.worktree_text` — how a block has a commit that is not HEAD verified in a worktree
  of its own
* :mod:`.fork_text` — the ways out of a range block on a pull request from a fork: the
  job fetches the fork's notes, the writer shares with the fork
* :mod:`.created_text` — the way out of a candidate holding files its test run created
* :mod:`.discard_text` — the ``discard`` a block offers a human for work not in the change
* :mod:`.brief_fault_text` — why a verify run failed only on its brief, in words
* :mod:`.refusal_text` — why a receipt cannot count, and a failed re-run, in words
* :mod:`.refuted_text` — a candidate a re-run refuted: both results, and the ways out that
  can work (a changed change, the recorded override)
* :mod:`.reason_words` — the native assessment's reason codes and signals in words
* :mod:`.program_text` — how the user types the CLI in a printed command, and the
  framework's copy of it where `gentle-hook` is not on PATH
* :mod:`.base_text` — why a block's base is the empty tree, and the command naming one
* :mod:`.visible` — standard output and error that show control characters, never send them
* :mod:`.jsontext` — JSON text any strict parser accepts, whatever a string held
* :mod:`.text` — human output of assess, status and the gates
* :mod:`.records_text` — human output of records, receipts and verdicts
* :mod:`.range_text` — why ``gate --range`` cannot judge a range, and the fetch that fixes
  it
* :mod:`.install_text` — what ``uninstall`` says it removed and what it kept
* :mod:`.outbase` — the base of every ``--json`` envelope model (frozen, strict)
* :mod:`.models` — the pydantic models of the assess and review ``--json`` envelopes
* :mod:`.record_models` — the pydantic models of the record, status and doctor envelopes
* :mod:`.rdd_models` — the pydantic models of the ``rdd`` envelopes
* :mod:`.assess_json` — the assess envelope built from results
* :mod:`.status_json` — the status envelope built from results
* :mod:`.ways_json` — a block's ways out for ``--json``: each way a list of commands,
  each an argv
* :mod:`.verify_report` — ``verify prepare|run``: bounded text and their envelopes
"""
