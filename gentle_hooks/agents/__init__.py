"""Agent runtimes (SPEC §7 "Hooks"): what a runtime hands its hooks, turned into a pending
writer mutation (model, effort, session, tool call, paths), and where each runtime's hook is
configured.

Room ``agents`` (standard library and the rooms below). One module per job:

* :mod:`.payload` — the safe reader of hook input, transcripts and settings (bounded,
  regular files only, never blocking on a FIFO, depth-limited JSON)
* :mod:`.stream` — a hook input too large to hold, kept without its long strings
* :mod:`.event` — the decoded event and the rules every decoder shares (writer, replay ids)
* :mod:`.patch` — the paths an ``apply_patch`` envelope writes, and the envelope a shell
  command runs
* :mod:`.definitions` — subagent definition files: the name and model they declare
* :mod:`.claude_code` — Claude Code's documented hook input, decoded
* :mod:`.codex` — Codex's documented hook input, decoded
* :mod:`.codex_output` — Codex's tool outputs read: failed, still running, patch applied
* :mod:`.codex_rollout` — Codex's rollout read for the shell calls that may still run and
  the patches it shows applied, in every form
* :mod:`.shell_dirs` — the directories a shell command names (a session above the repository)
* :mod:`.shell_call` — a plugin runtime's shell call and turn end, as decoded events (Pi, OpenCode)
* :mod:`.gemini_cli` — Gemini CLI's documented hook input, decoded
* :mod:`.cursor` — Cursor's documented hook input, decoded
* :mod:`.copilot` — GitHub Copilot's documented hook input, decoded
* :mod:`.windsurf` — Windsurf Cascade's documented hook input, decoded
* :mod:`.droid` — Factory Droid's documented hook input, decoded
* :mod:`.cline` — Cline's documented hook input, decoded
* :mod:`.opencode` — OpenCode's tool calls, as our plugin hands them over, decoded
* :mod:`.pi` — Pi's tool calls, as our extension hands them over, decoded
* :mod:`.kiro` — Kiro CLI's documented hook input, decoded
* :mod:`.amp` — Amp's tool calls, as our plugin hands them over, decoded
* :mod:`.augment` — Augment Code's (Auggie CLI) hook input, decoded
* :mod:`.aider` — aider's commit options, resolved from every place aider reads them
* :mod:`.runtimes` — the table of runtimes: decoder, configuration file and shape
* :mod:`.runtime_rows` — the table's row types: a runtime and its hook's wiring
* :mod:`.jsonedit` — a runtime's JSON configuration file, read and changed in place
* :mod:`.wiring` — our entry in a runtime's configuration document: find, add, remove
* :mod:`.background` — whether a shell call leaves a process running after it returns
  (the runtime's flag, or a ``&``, ``nohup``, ``setsid`` in its command)
* :mod:`.shellscan` — a conservative reader of the shell lines the policy parser does not
  read (compound commands, here-documents): their control ``&``, commands, substitutions
* :mod:`.command_words` — a hook command's shell words: its ``gentle-hook`` word, whether it
  runs our recorder, and that word replaced
* :mod:`.entry_shape` — the documented shape of a hooks document and our entry's fixed fields
* :mod:`.settings_keys` — the top-level settings a runtime documents beside its hooks, and
  the shape of the ones gentle-hooks reads
* :mod:`.wrappers` — the wrappers (`timeout`, `env`, `uvx`...) a hook command may put before ours
* :mod:`.ownfile` — the hook files we own whole (Cline's script, OpenCode's plugin, Pi's
  extension, Amp's plugin, Kiro's hooks file)
* :mod:`.opencode_plugin` — the text of OpenCode's plugin module, current and former
"""
