"""Agent runtimes (SPEC §7 "Hooks"): what a runtime hands its hooks, turned into a pending
writer mutation (model, effort, session, tool call, paths), and where each runtime's hook is
configured.

Room ``agents`` (standard library and the rooms below). One module per runtime decoder:

* :mod:`.claude_code`, :mod:`.codex`, :mod:`.gemini_cli`, :mod:`.cursor`, :mod:`.copilot` —
  each runtime's documented hook input, decoded;
* :mod:`.payload` — the safe reader of hook input, transcripts and settings (bounded, regular
  files only, never blocking on a FIFO, depth-limited JSON);
* :mod:`.event` — the decoded event and the rules every decoder shares (writer, replay ids);
* :mod:`.patch` — the paths an ``apply_patch`` envelope writes;
* :mod:`.runtimes` — the table of runtimes: decoder, configuration file and shape;
* :mod:`.wiring` — our entry in a runtime's configuration document: find, add, remove.
"""
