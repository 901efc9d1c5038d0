"""The note that travels with a delivered commit (SPEC §8), under ``refs/notes/gentle-hooks``.

Room ``notes``. Imports flow up this list:

* :mod:`.codec` — the note's lines: format, merge (a line union), validity for a commit;
* :mod:`.sync` — notes built from the ledger, written for delivered commits, and shared
  with the remote (fetch, merge, push).
"""
