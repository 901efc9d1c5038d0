"""Use cases (SPEC §3-§9): one module per thing a user or a hook asks for.

Room ``services``. Each wires the adapters (git, config, ledger, notes, native, agents)
to the pure policy for one use case and returns values; nothing here prints.

* :mod:`.assess` — candidate -> native assessment -> plan -> decision;
* :mod:`.status` — the plan of the current candidate and what is recorded for it;
* :mod:`.record` — bind a command to its candidate and record (mutations, receipts,
  escalations, review outcomes); :mod:`.runner` — run a reported command and observe it;
* :mod:`.spotcheck` — the parent's spot check (a re-run, or a readback); :mod:`.checkout`
  — its temporary linked checkout; :mod:`.reverify` — CI re-runs of the spot checks notes
  claim (``gate --range --reverify``);
* :mod:`.verdict_filing` — file a DelegationVerdict for a candidate (its JSON and
  Markdown artifact pair too), list and show the filed ones;
* :mod:`.cleanroom` — the verifier's clean room on disk; :mod:`.verify` — ``verify
  prepare|run``: the checks run there, observed, and the verdict written from them;
* :mod:`.rdd` — the RDD line a harness pins per session;
* :mod:`.install` — place and remove the plain git hook scripts;
* :mod:`.agent_install` — wire and unwire an agent runtime's hook in its own configuration;
* :mod:`.agent_record` — an agent runtime's hook input -> a pending mutation;
* :mod:`.doctor` — health checks of the store and the installed hooks; :mod:`.agent_doctor`
  — per agent runtime used here: is its recorder wired and reachable.
"""
