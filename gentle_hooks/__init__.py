"""gentle-hooks: a git delivery gate for AI-written code.

One package per room; imports flow one way, from the top of this list to the bottom (a
module imports its own room and the rooms below it, never above; ``tests/unit/
test_layers.py`` proves it, function-level imports included):

* ``main`` — the entry point ``main(argv) -> int`` and the exit-code contract.
* ``cli`` — the ``gentle-hook`` click commands: parse, call a service or hook, render.
* ``hooks`` — the hook dispatcher (a table with a light probe per row), the commit, push,
  range and server gates, and the recorder hooks.
* ``report`` — what people and programs read: human text, ``--json`` envelopes and the
  exact fix commands.
* ``services`` — one use case per module: assess, status, record, spot check, verdict filing,
  RDD session, install, doctor.
* ``agents`` — agent-runtime payloads decoded into pending mutations.
* ``native`` — the native assessment: provider choice, the built-in classifier, the
  ``gentle-ai`` binary and its decode.
* ``notes`` — the note that travels with a commit: one typed encoder and decoder, sync.
* ``ledger`` — the SQLite store of records, its schema, facts for the policy, a probe.
* ``git`` — the only code that runs git; returns our own value types.
* ``config`` — TOML, git config and environment compiled into settings; a probe.
* ``quorum`` — verifier verdicts tallied and ruled (seed 003).
* ``artifacts`` — DelegationBrief and DelegationVerdict, read strictly (seed 001).
* ``policy`` — the pure core: decision tables as data, no I/O, no clock, no environment.
* ``values`` — frozen value types: candidates and their identity, bindings.
* ``bounded`` — bounded reads of named files and standard input; nesting depth of JSON/TOML.
* ``errors`` — the one error type and its exit codes.

This module imports nothing, so that ``import gentle_hooks`` stays free on the hook's pass
path (SPEC §2 "Start-up is part of the product").
"""

__version__ = "0.1.0"
