"""Frozen value types every room shares (SPEC §3): the bottom layer beside ``errors``.

Room ``values``. Standard library only; no I/O, no clock, no environment.

* :mod:`.frozen` — ``@frozen``: immutable value classes without :mod:`dataclasses` (whose
  import the hook pass path cannot afford), with ``replace``, ``fields`` and ``asdict``.
* :mod:`.candidate` — a candidate (base tree, candidate tree), its projection, its
  ``sha256:`` identity, the base resolution and per-path diff stats.
* :mod:`.digest` — SHA-256 and BLAKE2b hex digests from the interpreter's built-in
  modules (no OpenSSL load on the hook path).
* :mod:`.binding` — which candidate a command binds to (snapshot, staged, committed).
* :mod:`.json` — the type of a JSON value built for output (annotations only).
* :mod:`.ruled` — a stored reason without its leading rule id, for the lines people read.
* :mod:`.bound` — a time bound the environment may only lower (the hook's and the
  ``-G`` scan's), importing nothing.
* :mod:`.oid` — what a whole git object id looks like, importing nothing.
* :mod:`.lazy_pattern` — a regular expression compiled when first used.
"""
