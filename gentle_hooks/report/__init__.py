"""What people and programs read (SPEC §7): human text, ``--json`` envelopes, fix commands.

Room ``report``. Only this room turns policy values into words and shell commands.

* :mod:`.fixes` — what is missing, in words, and the exact command that supplies it;
* :mod:`.text` / :mod:`.records_text` — human output of assess, gates, records, status;
* :mod:`.models` / :mod:`.record_models` / :mod:`.rdd_models` — the pydantic models of
  every ``--json`` envelope (``gentle-hook schema`` exports them);
* :mod:`.assess_json` / :mod:`.status_json` — the envelopes built from results;
* :mod:`.verify_report` — ``verify prepare|run``: bounded text and their envelopes.
"""
