"""The hook files gentle-hooks owns whole: a runtime that runs an executable file named after
its hook (Cline's ``.clinerules/hooks/PostToolUse``) or loads a plugin module from a folder
(OpenCode's ``.opencode/plugins/``, Pi's ``.pi/extensions/``, Amp's ``.amp/plugins/``), or
whose settings entry must name a script (Augment's ``.augment/hooks/gentle-hooks.sh``) gets
a file written by ``install --agent`` (SPEC §7 "Hooks"; docs/agents/cline.md, opencode.md,
pi.md, amp.md, augment.md).

Room ``agents`` (standard library only); pure text functions, the caller reads and writes
the file (:mod:`gentle_hooks.services.agent_file`).

Ours is a file whose first comment lines hold the marker ``gentle-hooks recorder for NAME:
COMMAND`` (a Kiro hooks file, JSON, holds a hook named :data:`KIRO_HOOK` instead); it is
*as written* when its text is exactly what :func:`render` gives for that command (only then
may uninstall remove it, or install rewrite it). A file of that name
without the marker is the user's: it counts as wired when one of its lines runs our
recorder (:func:`recorder_lines`), and it is never written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial

from gentle_hooks.agents import opencode_plugin as opencode_plugin_text
from gentle_hooks.agents import wiring

_MARKER = re.compile(r"^(?:#|//) gentle-hooks recorder for ([a-z-]+): (.+)$", re.MULTILINE)


def marker(name: str, command: str, comment: str) -> str:
    """The marker line of runtime ``name``'s file running ``command``."""
    return f"{comment} gentle-hooks recorder for {name}: {command}"


def cline_script(command: str) -> str:
    """Cline's ``PostToolUse`` hook file running ``command``: the hook input goes to the
    recorder on standard input, the recorder's output to standard error, and the file ends
    by printing ``{"cancel":false}`` (Cline reads the last JSON line of standard output and
    blocks on a non-zero exit: a recorder that fails never stops Cline)."""
    return (
        "#!/bin/sh\n" + marker("cline", command, "#") + "\n"
        "# Written by 'gentle-hook install --agent cline'; 'gentle-hook uninstall --agent cline'\n"
        "# removes it. Cline hands this hook its input on standard input (docs/agents/cline.md).\n"
        f"{command} >&2\n"
        "printf '%s\\n' '{\"cancel\":false}'\n"
    )


def opencode_plugin(command: str, *, subagents: bool = True, shell: bool = True) -> str:
    """OpenCode's plugin module running ``command`` after each tool call, before each call of
    its ``bash`` tool and when a session's prompt is done
    (:func:`gentle_hooks.agents.opencode_plugin.current`). ``shell=False`` gives the former
    text, which hands over ``tool.execute.after`` alone; with ``subagents=False`` too, the
    first one, without ``parentID`` and ``agent``
    (:func:`gentle_hooks.agents.opencode_plugin.former`)."""
    head = marker("opencode", command, "//")
    if shell and subagents:
        return opencode_plugin_text.current(head, command)
    return opencode_plugin_text.former(head, command, subagents=subagents)


def pi_extension(command: str, *, shell: bool = True) -> str:
    """Pi's extension module running ``command`` after each tool call (its ``tool_result``
    event), before each call of its ``bash`` tool (its ``tool_call`` event: the work tree is
    kept, so what the command changes is recorded after it) and when the agent's run ends
    (``agent_end``: a background command's window closes), the event as one JSON object on
    standard input (docs/agents/pi.md names each field's source): ``hook``, ``toolName``,
    ``toolCallId``, ``input``, ``isError``, ``model`` (``ctx.model``'s ``provider`` and
    ``id``), ``thinkingLevel`` (``pi.getThinkingLevel()``), ``sessionId``, ``cwd``. Plain
    JavaScript, which Pi's TypeScript loader reads as it is; every handler returns nothing,
    so no call is blocked and no result changed; output is discarded and a recorder that
    fails never stops the tool. ``shell=False`` gives the former text (``tool_result``
    alone)."""
    if not shell:
        return _pi_former(command)
    return (
        marker("pi", command, "//") + "\n"
        "// Written by 'gentle-hook install --agent pi'; 'gentle-hook uninstall --agent pi'\n"
        "// removes it. A Pi extension (docs/agents/pi.md).\n"
        'import { spawnSync } from "node:child_process"\n'
        "\n"
        f"const COMMAND = {json.dumps(command)}\n"
        "\n"
        "export default function (pi) {\n"
        "  const record = (hook, event, ctx) => {\n"
        "    const sessions = ctx?.sessionManager\n"
        "    const payload = JSON.stringify({\n"
        "      hook,\n"
        "      toolName: event?.toolName ?? null,\n"
        "      toolCallId: event?.toolCallId ?? null,\n"
        "      input: event?.input ?? null,\n"
        "      isError: event?.isError === true,\n"
        "      model: ctx?.model\n"
        "        ? { provider: ctx.model.provider ?? null, id: ctx.model.id ?? null }\n"
        "        : null,\n"
        '      thinkingLevel: typeof pi.getThinkingLevel === "function" ? pi.getThinkingLevel()'
        " : null,\n"
        "      sessionId: sessions?.getSessionId?.() ?? sessions?.getSessionFile?.() ?? null,\n"
        "      cwd: ctx?.cwd ?? null,\n"
        "    })\n"
        "    try {\n"
        "      spawnSync(COMMAND, {\n"
        "        shell: true,\n"
        "        input: payload,\n"
        "        cwd: ctx?.cwd ?? process.cwd(),\n"
        '        stdio: ["pipe", "ignore", "ignore"],\n'
        "        timeout: 30000,\n"
        "      })\n"
        "    } catch {}\n"
        "  }\n"
        '  pi.on("tool_call", async (event, ctx) => {\n'
        '    if (event?.toolName === "bash") record("tool_call", event, ctx)\n'
        "    return undefined\n"
        "  })\n"
        '  pi.on("tool_result", async (event, ctx) => {\n'
        '    record("tool_result", event, ctx)\n'
        "    return undefined\n"
        "  })\n"
        '  pi.on("agent_end", async (_event, ctx) => {\n'
        '    record("agent_end", null, ctx)\n'
        "    return undefined\n"
        "  })\n"
        "}\n"
    )


def _pi_former(command: str) -> str:
    """The text :func:`pi_extension` wrote before it wired ``tool_call`` and ``agent_end``."""
    return (
        marker("pi", command, "//") + "\n"
        "// Written by 'gentle-hook install --agent pi'; 'gentle-hook uninstall --agent pi'\n"
        "// removes it. A Pi extension (docs/agents/pi.md).\n"
        'import { spawnSync } from "node:child_process"\n'
        "\n"
        f"const COMMAND = {json.dumps(command)}\n"
        "\n"
        "export default function (pi) {\n"
        '  pi.on("tool_result", async (event, ctx) => {\n'
        "    const sessions = ctx?.sessionManager\n"
        "    const payload = JSON.stringify({\n"
        '      hook: "tool_result",\n'
        "      toolName: event?.toolName ?? null,\n"
        "      toolCallId: event?.toolCallId ?? null,\n"
        "      input: event?.input ?? null,\n"
        "      isError: event?.isError === true,\n"
        "      model: ctx?.model\n"
        "        ? { provider: ctx.model.provider ?? null, id: ctx.model.id ?? null }\n"
        "        : null,\n"
        '      thinkingLevel: typeof pi.getThinkingLevel === "function" ? pi.getThinkingLevel()'
        " : null,\n"
        "      sessionId: sessions?.getSessionId?.() ?? sessions?.getSessionFile?.() ?? null,\n"
        "      cwd: ctx?.cwd ?? null,\n"
        "    })\n" + _spawn_recorder("ctx?.cwd ?? process.cwd()")
    )


def _spawn_recorder(cwd: str) -> str:
    """The end of a JavaScript tool-result handler: run ``COMMAND`` with ``payload`` on its
    standard input in the directory the expression ``cwd`` names (output discarded, 30 s at
    most, a failure never stops the tool), return nothing, close the handler and the
    module's default export."""
    return (
        "    try {\n"
        "      spawnSync(COMMAND, {\n"
        "        shell: true,\n"
        "        input: payload,\n"
        f"        cwd: {cwd},\n"
        '        stdio: ["pipe", "ignore", "ignore"],\n'
        "        timeout: 30000,\n"
        "      })\n"
        "    } catch {}\n"
        "    return undefined\n"
        "  })\n"
        "}\n"
    )


#: The first line Amp requires of a plugin file (git-ai-project/git-ai
#: ``agent-support/amp/git-ai.ts``: "Required by Amp: this exact marker must remain the first
#: line in the plugin file"; ampcode.com/manual/plugin-api's setup names the same comment).
AMP_DIRECTIVE = "// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now"


def amp_plugin(command: str) -> str:
    """Amp's plugin module running ``command`` after each tool call that modifies files (its
    ``tool.result`` event), the call as one JSON object on standard input
    (docs/agents/amp.md names each field's source): ``hook``, ``tool``, ``toolUseID``,
    ``input``, ``status``, ``threadID`` (the event's ``thread.id``), ``files`` (the local
    paths of ``amp.helpers.filesModifiedByToolCall``; null: it modifies none, and the
    recorder is not run; absent: no such helper), ``agent`` (``ctx.thread.agent()``'s
    definition: ``kind``, ``model``, ``mode``, ``reasoningEffort``; null when it is not known
    within 2 s), ``cwd``. Plain
    JavaScript, which Amp's Bun runs as TypeScript; it returns nothing, so the tool's result
    is unchanged; output is discarded and a recorder that fails never stops the tool."""
    return (
        AMP_DIRECTIVE + "\n" + marker("amp", command, "//") + "\n"
        "// Written by 'gentle-hook install --agent amp'; 'gentle-hook uninstall --agent amp'\n"
        "// removes it. An Amp plugin (docs/agents/amp.md).\n"
        'import { spawnSync } from "node:child_process"\n'
        'import { fileURLToPath } from "node:url"\n'
        "\n"
        f"const COMMAND = {json.dumps(command)}\n"
        "\n"
        "const filesOf = (helpers, event) => {\n"
        '  if (typeof helpers?.filesModifiedByToolCall !== "function") return undefined\n'
        "  try {\n"
        "    const uris = helpers.filesModifiedByToolCall(event)\n"
        "    if (uris == null) return null\n"
        "    return uris.map((uri) =>\n"
        '      typeof helpers.filePathFromURI === "function"\n'
        "        ? helpers.filePathFromURI(uri)\n"
        "        : fileURLToPath(String(uri)),\n"
        "    )\n"
        "  } catch {\n"
        "    return undefined\n"
        "  }\n"
        "}\n"
        "\n"
        "const agentOf = async (ctx) => {\n"
        "  let timer\n"
        "  try {\n"
        '    if (typeof ctx?.thread?.agent !== "function") return null\n'
        "    const late = new Promise((done) => { timer = setTimeout(() => done(null), 2000) })\n"
        "    const definition = (await Promise.race([ctx.thread.agent(), late]))?.definition\n"
        "    if (!definition) return null\n"
        '    const named = (value) => (typeof value === "string" ? value : null)\n'
        "    return {\n"
        "      kind: named(definition.kind),\n"
        "      model: named(definition.model),\n"
        "      mode: named(definition.mode),\n"
        "      reasoningEffort: named(definition.reasoningEffort),\n"
        "    }\n"
        "  } catch {\n"
        "    return null\n"
        "  } finally {\n"
        "    clearTimeout(timer)\n"
        "  }\n"
        "}\n"
        "\n"
        "export default function (amp) {\n"
        '  amp.on("tool.result", async (event, ctx) => {\n'
        "    const files = filesOf(amp?.helpers, event)\n"
        "    if (files === null) return undefined\n"
        "    const payload = JSON.stringify({\n"
        '      hook: "tool.result",\n'
        "      tool: event?.tool ?? null,\n"
        "      toolUseID: event?.toolUseID ?? null,\n"
        "      input: event?.input ?? null,\n"
        "      status: event?.status ?? null,\n"
        "      threadID: event?.thread?.id ?? ctx?.thread?.id ?? null,\n"
        "      files,\n"
        "      agent: await agentOf(ctx),\n"
        "      cwd: process.cwd(),\n"
        "    })\n" + _spawn_recorder("process.cwd()")
    )


#: The ``name`` of our hook in a Kiro hooks file: JSON has no comment, so it is the marker.
KIRO_HOOK = "gentle-hooks-record"


def kiro_hooks(command: str) -> str:
    """Kiro's hooks file running ``command`` after every tool call: the documented v1
    schema (``version``, ``hooks`` of ``name``, ``trigger``, ``action`` ``{"type":
    "command", "command"}``, ``timeout``, ``enabled``), no ``matcher`` (Kiro's write tool is
    named differently across versions: the recorder tells writes apart)."""
    hook = {
        "name": KIRO_HOOK,
        "trigger": "PostToolUse",
        "action": {"type": "command", "command": command},
        "timeout": 30,
        "enabled": True,
    }
    return json.dumps({"version": "v1", "hooks": [hook]}, indent=2) + "\n"


#: The renderer of each runtime whose hook is a file we own.
def augment_script(command: str) -> str:
    """Auggie's hook script (a ``.sh`` file, as its hooks page asks) running ``command``:
    the hook input reaches the recorder on standard input, the recorder's output goes to
    standard error (a ``PostToolUse`` hook cannot block, docs/agents/augment.md)."""
    return (
        "#!/bin/sh\n" + marker("augment", command, "#") + "\n"
        "# Written by 'gentle-hook install --agent augment'; 'gentle-hook uninstall --agent\n"
        "# augment' removes it. Auggie hands this hook its input on standard input\n"
        "# (docs/agents/augment.md).\n"
        f"exec {command} >&2\n"
    )


RENDER = {
    "augment": augment_script,
    "cline": cline_script,
    "opencode": opencode_plugin,
    "pi": pi_extension,
    "kiro": kiro_hooks,
    "amp": amp_plugin,
}


def render(name: str, command: str) -> str:
    """The text of runtime ``name``'s file running ``command``."""
    return RENDER[name](command)


def owned_command(content: str, name: str) -> str | None:
    """The command the marker of a file of ours names; None when ``content`` holds no marker
    for runtime ``name`` (the file is not ours)."""
    for m in _MARKER.finditer(content):
        if m.group(1) == name:
            return m.group(2)
    if name == "kiro":
        return _kiro_command(content)
    return None


def _kiro_command(content: str) -> str | None:
    """The command of our hook (named :data:`KIRO_HOOK`) in a Kiro hooks file, or None."""
    try:
        doc = json.loads(content)
    except ValueError:
        return None
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    for hook in hooks if isinstance(hooks, list) else []:
        action = hook.get("action") if isinstance(hook, dict) else None
        if isinstance(action, dict) and hook.get("name") == KIRO_HOOK:
            command = action.get("command")
            return command if isinstance(command, str) else None
    return None


#: The renderers of the texts former versions wrote, per runtime: such a file is still ours
#: as written (uninstall removes it; install rewrites it to the current text).
FORMER: dict[str, tuple[Callable[[str], str], ...]] = {
    "opencode": (
        partial(opencode_plugin, subagents=False, shell=False),
        partial(opencode_plugin, shell=False),
    ),
    "pi": (partial(pi_extension, shell=False),),
}


#: What a former text of ours lacks, per runtime whose shell tool it leaves unrecorded (said
#: by ``doctor``: "a former gentle-hooks text with no ..."); by default its
#: :attr:`~gentle_hooks.agents.runtime_rows.Wiring.shell_event` handler. OpenCode's former
#: text handles ``tool.execute.before`` (it keeps the call's arguments) but snapshots nothing.
FORMER_LACKS: dict[str, str] = {"opencode": "bash snapshot"}


#: What the current text of ours hands the runtime's shell tool over with, per runtime whose
#: former texts lack it (:func:`hands_shell`): the recorder calls of its snapshot and of the
#: end of the turn.
SHELL_CALLS: dict[str, tuple[str, ...]] = {
    "opencode": ('record("tool.execute.before"', 'record("session.idle"'),
    "pi": ('record("tool_call"', 'record("agent_end"'),
}


def hands_shell(content: str, name: str) -> bool:
    """``content`` (a file of ours, edited or not) holds every recorder call of runtime
    ``name``'s shell tool the current text makes (:data:`SHELL_CALLS`; a runtime without an
    entry: True). Read as text, not run: an edit that keeps the calls and breaks them is
    not seen."""
    return all(call in content for call in SHELL_CALLS.get(name, ()))


def as_written(content: str, name: str) -> bool:
    """``content`` is exactly what :func:`render` writes for the command its marker names,
    or what a former version wrote for it (:data:`FORMER`)."""
    command = owned_command(content, name)
    if command is None:
        return False
    return content == render(name, command) or any(
        content == old(command) for old in FORMER.get(name, ())
    )


def is_current(content: str, name: str) -> bool:
    """``content`` is exactly what :func:`render` writes now for the command it names."""
    command = owned_command(content, name)
    return command is not None and content == render(name, command)


def recorder_lines(content: str, name: str) -> list[str]:
    """The commands of ``content`` (a shell script, one command a line) that run our
    recorder for runtime ``name``: a whole line, or the last command of a pipeline
    (``printf '%s' "$input" | gentle-hook record --from cline``)."""
    out = []
    for line in content.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        last = stripped.rsplit(" | ", 1)[-1].strip()
        if wiring.is_ours(last, name):
            out.append(last)
    return out
