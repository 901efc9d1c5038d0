"""Agent runtimes (SPEC §7 "Hooks"): what a runtime hands its hooks, turned into a pending
writer mutation (model, effort, session, tool call, paths).

Room ``agents``. One module per runtime payload:

* :mod:`.claude_code` — Claude Code's ``PostToolUse`` payload and its transcript.
"""
