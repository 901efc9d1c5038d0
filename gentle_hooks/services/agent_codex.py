"""Codex CLI's own conditions on our hooks, read by ``doctor`` and ``install --agent codex``
(SPEC §7 "Hooks"; docs/agents/codex.md): the trust Codex keeps for each hook, and what
to add by hand to an inline ``config.toml`` hook of ours that lacks an event.

Room ``services``. Read-only.

* Trust: Codex runs a non-managed hook only once the user trusted it in ``/hooks``
  (:func:`gentle_hooks.agents.codex.trust`), per hook: every event of ours
  (:func:`gentle_hooks.agents.wiring.events`: ``PostToolUse``, and ``PreToolUse`` whose
  snapshot the shell's ``PostToolUse`` needs) needs one entry of ours trusted.
* Inline hooks: ``install`` never rewrites a TOML file (its comments and layout are the
  user's), so an inline hook of ours that misses an event cannot be completed by
  ``install``; both ``doctor`` and ``install`` then say the block to add by hand
  (:func:`by_hand`), never "install again", which would change nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from gentle_hooks.agents import codex, wiring
from gentle_hooks.agents.runtimes import Runtime
from gentle_hooks.services.agent_install import read_toml, scoped_path
from gentle_hooks.values.frozen import replace

#: What ``doctor``'s line of a flawed entry ends with when ``install`` repairs it.
AGAIN = "; install the recorder again"


def untrusted(
    rt: Runtime, placed: Mapping[str, Mapping[str, object]], env: Mapping[str, str]
) -> str | None:
    """The line of a Codex hook of ours that Codex will not run, because for one of our
    events no entry of ours in the files ``placed`` (file -> its document) is trusted in
    the user's ``[hooks.state]``; None when every event has one (or another runtime, or
    nothing placed)."""
    assert rt.wiring is not None
    if rt.name != codex.NAME or not placed:
        return None
    state_file = scoped_path(rt.wiring, "user", codex.TRUST_FILE, None, env)
    config = read_toml(state_file)
    said: dict[tuple[str, str], list[str]] = {}  # (file, why) -> the events it is of
    for w in wiring.events(rt.wiring):
        each = replace(rt, wiring=w)
        found: list[tuple[str, str]] = []
        for path, doc in placed.items():
            names = sorted({os.path.abspath(path), os.path.realpath(path)})
            keys = [
                codex.trust_key(n, w.event, g, h)
                for n in names
                for g, h in wiring.positions(dict(doc), each)
            ]
            got = codex.trust(config, keys) if keys else None
            if got == "trusted":
                break
            if got is not None:
                found.append(
                    (path, "switched off in /hooks" if got == "disabled" else "not trusted")
                )
        else:
            for key in found:
                said.setdefault(key, []).append(w.event)
    if not said:
        return None
    lines = [
        f"{p}: {why} (its {' and '.join(e)} hook{'s' if len(e) > 1 else ''})"
        for (p, why), e in said.items()
    ]
    return (
        f"wired, but Codex does not run it: {'; '.join(lines)} (Codex keeps hook trust in "
        f"{state_file} and runs a new or changed hook only once you trust it, {rt.doc}): "
        "start codex here, open /hooks and trust it"
    )


def lacking(doc: Mapping[str, object], rt: Runtime) -> list[str]:
    """The events of ours (:func:`wiring.events`) under which ``doc`` holds no entry of
    ours, while it holds one under another."""
    assert rt.wiring is not None
    every = wiring.events(rt.wiring)
    have = [w for w in every if wiring.commands(dict(doc), replace(rt, wiring=w))]
    return [w.event for w in every if have and w not in have]


def block(rt: Runtime, event: str, command: str) -> str:
    """The TOML of our entry under ``event`` running ``command``, on one line per key,
    lines joined by `` / `` (said in one line): ``[[hooks.PreToolUse]] / matcher =
    "Bash" / [[hooks.PreToolUse.hooks]] / type = "command" / command = "..."``."""
    assert rt.wiring is not None
    [w] = [x for x in wiring.events(rt.wiring) if x.event == event]
    lines = [f"[[hooks.{event}]]"]
    if w.matcher is not None:
        lines.append(f"matcher = {json.dumps(w.matcher)}")
    lines.append(f"[[hooks.{event}.hooks]]")
    lines += [f"{k} = {json.dumps(v)}" for k, v in w.entry]
    lines.append(f"{w.command_key} = {json.dumps(command)}")
    return " / ".join(lines)


def by_hand(flaw: str, path: str, doc: Mapping[str, object], rt: Runtime, command: str) -> str:
    """``doctor``'s ``flaw`` (``agent_doctor._entry_flaw``) of an entry of ours inline in
    the TOML file ``path``, its ending (:data:`AGAIN`) replaced by what to do by hand: for
    an event it lacks (a flaw ``not to EVENT...``), the block of each (:func:`block`, our
    entry running ``command``, as the user's stands); else mend the entry as the doc page
    shows."""
    head = flaw.removesuffix(AGAIN)
    missing = lacking(doc, rt) if head.startswith("not to ") else []
    if missing:
        add = "; ".join(block(rt, e, command) for e in missing)
        return f"{head}; install does not rewrite TOML: add to {path} by hand: {add}"
    return f"{head}; install does not rewrite TOML: mend it in {path} by hand as {rt.doc} shows"
