"""The note that travels with a delivered commit (SPEC §8), under ``refs/notes/gentle-hooks``.

Room ``notes``. Imports flow up this list:

* :mod:`.sharing` — the notes ref's name, and whether a remote carries the notes (what
  the push gate asks of every push, without the line schema), and the git config
  ``install --share`` adds and ``uninstall`` takes out;
* :mod:`.lines` — one typed value per line kind, the schema every line is checked
  against, its encoder and its decoder;
* :mod:`.codec` — a note's bytes: merge (a line union), parse, validity for a commit;
* :mod:`.facts` — a note's records for one candidate, as the policy's facts;
* :mod:`.trust` — SSH-signed lines: signing what a clone vouches for, finding who signed;
* :mod:`.guard` — the server's protection of the notes ref (no deletion, no rewind, every
  added line schema-checked);
* :mod:`.where` — where notes are shared: a configured remote's name, or a repository's
  URL or path (a fork's pull request is judged in a repository the writer may not name);
* :mod:`.pull_request` — the repository a judged pull request comes from, when it is a
  fork (the gate's ``--head-url``, GitHub's event file, GitLab's source project);
* :mod:`.sync` — notes built from the ledger, written for delivered commits, and shared
  with the remote (fetch, merge, push), concurrent writes retried, missing notes found.
"""
