"""The note that travels with a delivered commit (SPEC §8), under ``refs/notes/gentle-hooks``.

Room ``notes``. Imports flow up this list:

* :mod:`.lines` — one typed value per line kind, its encoder and its decoder;
* :mod:`.codec` — a note's bytes: merge (a line union), parse, validity for a commit;
* :mod:`.facts` — a note's records for one candidate, as the policy's facts;
* :mod:`.sync` — notes built from the ledger, written for delivered commits, and shared
  with the remote (fetch, merge, push).
"""
