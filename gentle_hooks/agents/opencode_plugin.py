"""The text of OpenCode's plugin module our ``install --agent opencode`` writes, and the texts
former versions wrote (SPEC §7 "Hooks"; docs/agents/opencode.md).

Room ``agents`` (standard library only); pure text functions, called by
:func:`gentle_hooks.agents.ownfile.opencode_plugin`, which gives each text its marker line.
The current text (:func:`current`) also hands over the ``bash`` tool's
``tool.execute.before`` and the ``session.idle`` event; a former one (:func:`former`) stays
ours byte for byte, so uninstall removes it and install rewrites it.
"""

from __future__ import annotations

import json


def former(head: str, command: str, *, subagents: bool) -> str:
    """The plugin module a former gentle-hooks wrote, byte for byte, under the marker line
    ``head``: it runs ``command`` after each tool call (``tool.execute.after``), the call as
    one JSON object on standard input; ``subagents=False``: the first text, without
    ``parentID`` and ``agent``."""
    sub = subagents
    return (
        head + "\n"
        "// Written by 'gentle-hook install --agent opencode'; 'gentle-hook uninstall --agent\n"
        "// opencode' removes it. An OpenCode plugin (docs/agents/opencode.md).\n"
        'import { spawnSync } from "node:child_process"\n'
        "\n"
        f"const COMMAND = {json.dumps(command)}\n"
        "\n"
        "export const GentleHooksRecorder = async ({ directory, worktree }) => {\n"
        "  const models = new Map()\n"
        "  const calls = new Map()\n"
        + ("  const parents = new Map()\n  const agents = new Map()\n" if sub else "")
        + "  const seen = (sessionID, model) => {\n"
        "    const known = Object.entries(model).filter(([, v]) => v != null)\n"
        "    const before = models.get(sessionID) ?? {}\n"
        "    models.set(sessionID, { ...before, ...Object.fromEntries(known) })\n"
        "  }\n"
        "  return {\n"
        + (
            "    event: async ({ event }) => {\n"
            "      const info = event?.properties?.info\n"
            "      const kind = event?.type\n"
            '      const known = kind === "session.created" || kind === "session.updated"\n'
            '      if (known && typeof info?.id === "string") {\n'
            '        const parent = typeof info.parentID === "string" ? info.parentID : null\n'
            "        parents.set(info.id, parent)\n"
            "      }\n"
            "    },\n"
            if sub
            else ""
        )
        + '    "chat.message": async (input) => {\n'
        + (
            '      if (typeof input?.agent === "string") agents.set(input.sessionID, input.agent)\n'
            if sub
            else ""
        )
        + "      if (input?.model?.modelID) {\n"
        "        seen(input.sessionID, {\n"
        "          providerID: input.model.providerID ?? null,\n"
        "          modelID: input.model.modelID,\n"
        "        })\n"
        "      }\n"
        "    },\n"
        '    "chat.params": async (input, output) => {\n'
        "      const effort = output?.options?.reasoningEffort\n"
        + (
            '      if (typeof input?.agent === "string") agents.set(input.sessionID, input.agent)\n'
            if sub
            else ""
        )
        + "      seen(input.sessionID, {\n"
        "        providerID: input?.provider?.info?.id ?? input?.provider?.id ?? "
        "input?.model?.providerID ?? null,\n"
        "        modelID: input?.model?.id ?? null,\n"
        '        reasoningEffort: typeof effort === "string" ? effort : null,\n'
        "      })\n"
        "    },\n"
        '    "tool.execute.before": async (input, output) => {\n'
        "      calls.set(input.callID, output?.args ?? null)\n"
        "    },\n"
        '    "tool.execute.after": async (input) => {\n'
        "      const args = input.args ?? calls.get(input.callID) ?? null\n"
        "      calls.delete(input.callID)\n"
        "      const payload = JSON.stringify({\n"
        '        hook: "tool.execute.after",\n'
        "        tool: input.tool,\n"
        "        sessionID: input.sessionID,\n"
        "        callID: input.callID,\n"
        "        args,\n"
        "        model: models.get(input.sessionID) ?? null,\n"
        + (
            "        parentID: parents.get(input.sessionID) ?? null,\n"
            "        agent: agents.get(input.sessionID) ?? null,\n"
            if sub
            else ""
        )
        + "        directory,\n"
        "        worktree,\n"
        "      })\n"
        "      try {\n"
        "        spawnSync(COMMAND, {\n"
        "          shell: true,\n"
        "          input: payload,\n"
        "          cwd: directory,\n"
        '          stdio: ["pipe", "ignore", "ignore"],\n'
        "          timeout: 30000,\n"
        "        })\n"
        "      } catch {}\n"
        "    },\n"
        "  }\n"
        "}\n"
    )


def current(head: str, command: str) -> str:
    """The plugin module under the marker line ``head``, running ``command`` with one JSON
    object on standard input (docs/agents/opencode.md names each field's source) after each
    tool call (``tool.execute.after``), before each call of the ``bash`` tool
    (``tool.execute.before``: the work tree is kept, so what the command changes is recorded
    after it) and when a session's prompt is done (the ``session.idle`` event: a background
    command's window closes): ``hook``, ``tool``, ``sessionID``, ``callID``, ``args`` (the
    call's own, else those ``tool.execute.before`` saw), ``model``, ``parentID``, ``agent``,
    ``directory``, ``worktree``. Every hook returns nothing, so no call is blocked and no
    result changed; output is discarded (OpenCode's screen is a TUI) and a recorder that
    fails never stops the tool."""
    return (
        head + "\n"
        "// Written by 'gentle-hook install --agent opencode'; 'gentle-hook uninstall --agent\n"
        "// opencode' removes it. An OpenCode plugin (docs/agents/opencode.md).\n"
        'import { spawnSync } from "node:child_process"\n'
        "\n"
        f"const COMMAND = {json.dumps(command)}\n"
        "\n"
        "export const GentleHooksRecorder = async ({ directory, worktree }) => {\n"
        "  const models = new Map()\n"
        "  const calls = new Map()\n"
        "  const parents = new Map()\n"
        "  const agents = new Map()\n"
        "  const seen = (sessionID, model) => {\n"
        "    const known = Object.entries(model).filter(([, v]) => v != null)\n"
        "    const before = models.get(sessionID) ?? {}\n"
        "    models.set(sessionID, { ...before, ...Object.fromEntries(known) })\n"
        "  }\n"
        "  const record = (hook, sessionID, tool, callID, args) => {\n"
        "    const payload = JSON.stringify({\n"
        "      hook,\n"
        "      tool,\n"
        "      sessionID,\n"
        "      callID,\n"
        "      args,\n"
        "      model: models.get(sessionID) ?? null,\n"
        "      parentID: parents.get(sessionID) ?? null,\n"
        "      agent: agents.get(sessionID) ?? null,\n"
        "      directory,\n"
        "      worktree,\n"
        "    })\n"
        "    try {\n"
        "      spawnSync(COMMAND, {\n"
        "        shell: true,\n"
        "        input: payload,\n"
        "        cwd: directory,\n"
        '        stdio: ["pipe", "ignore", "ignore"],\n'
        "        timeout: 30000,\n"
        "      })\n"
        "    } catch {}\n"
        "  }\n"
        "  return {\n"
        "    event: async ({ event }) => {\n"
        "      const info = event?.properties?.info\n"
        "      const kind = event?.type\n"
        '      const known = kind === "session.created" || kind === "session.updated"\n'
        '      if (known && typeof info?.id === "string") {\n'
        '        const parent = typeof info.parentID === "string" ? info.parentID : null\n'
        "        parents.set(info.id, parent)\n"
        "      }\n"
        "      const idle = event?.properties?.sessionID\n"
        '      if (kind === "session.idle" && typeof idle === "string") {\n'
        '        record("session.idle", idle, null, null, null)\n'
        "      }\n"
        "    },\n"
        '    "chat.message": async (input) => {\n'
        '      if (typeof input?.agent === "string") agents.set(input.sessionID, input.agent)\n'
        "      if (input?.model?.modelID) {\n"
        "        seen(input.sessionID, {\n"
        "          providerID: input.model.providerID ?? null,\n"
        "          modelID: input.model.modelID,\n"
        "        })\n"
        "      }\n"
        "    },\n"
        '    "chat.params": async (input, output) => {\n'
        "      const effort = output?.options?.reasoningEffort\n"
        '      if (typeof input?.agent === "string") agents.set(input.sessionID, input.agent)\n'
        "      seen(input.sessionID, {\n"
        "        providerID: input?.provider?.info?.id ?? input?.provider?.id ?? "
        "input?.model?.providerID ?? null,\n"
        "        modelID: input?.model?.id ?? null,\n"
        '        reasoningEffort: typeof effort === "string" ? effort : null,\n'
        "      })\n"
        "    },\n"
        '    "tool.execute.before": async (input, output) => {\n'
        "      const args = output?.args ?? null\n"
        "      calls.set(input.callID, args)\n"
        '      if (input.tool === "bash") {\n'
        '        record("tool.execute.before", input.sessionID, input.tool, input.callID, args)\n'
        "      }\n"
        "    },\n"
        '    "tool.execute.after": async (input) => {\n'
        "      const args = input.args ?? calls.get(input.callID) ?? null\n"
        "      calls.delete(input.callID)\n"
        '      record("tool.execute.after", input.sessionID, input.tool, input.callID, args)\n'
        "    },\n"
        "  }\n"
        "}\n"
    )
